#!/usr/bin/env python3
"""The chunk tags of a trace set of tests/vg/overlap_tags.c (tests/vg/overlap.sh).

    overlap_tags.py SET TAG_UB

Rank 0 sends rank 1 messages of tags 2^20, 2^20 + 1 and TAG_UB in 4 chunks, and one of tag 7 in
2 (it is shorter than the receive's room), among collectives. In the overlap-real streams, the
point-to-point chunks of a message of tag T must have tags T x 4 + k, k < its chunks, on both
sides, and the collectives' transfers negative tags. Prints what it found; exits 1 if wrong.
"""
import sys


def chunks_by_tag(path, op, peer):
    """{T: {k...}} of the non-negative tags of `op` records with `peer`, and how many negative."""
    seen, collective = {}, 0
    with open(path) as f:
        for line in f:
            fields = line.split()
            if fields[:2] != [op, peer]:
                continue
            tag = int(fields[2])
            if tag < 0:
                collective += 1
            else:
                seen.setdefault(tag // 4, set()).add(tag % 4)
    return seen, collective


def main():
    set_dir, tag_ub = sys.argv[1], int(sys.argv[2])
    want = {1 << 20: set(range(4)), (1 << 20) + 1: set(range(4)), tag_ub: set(range(4)),
            7: set(range(2))}
    for rank, op, peer in ((0, "isend", "1"), (1, "irecv", "0")):
        seen, collective = chunks_by_tag(f"{set_dir}/overlap-real.{rank}.trc", op, peer)
        if seen != want or collective == 0:
            print(f"rank {rank}'s {op}s: chunks by tag {sorted(seen.items())}, "
                  f"{collective} collective transfers")
            return 1
    print(f"chunks of tags up to {tag_ub} x 4 + 3, collective transfers below 0")
    return 0


if __name__ == "__main__":
    sys.exit(main())
