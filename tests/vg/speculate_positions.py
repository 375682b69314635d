#!/usr/bin/env python3
"""Where the overlap-speculative stream sends each chunk and its commit (tests/vg/speculate.sh).

    speculate_positions.py SET CHUNKS ITERATION

SET is a trace set of tests/vg/overlap_speculate.c: rank 0 produces a buffer, then sends it
(blocking), for tags 1..4 in turn, each iteration. The production of a message runs from the
send before it (of any tag: the place of the `send` record in the authentic stream, on the
clock of the bursts) to its own send. For the message of each tag in iteration ITERATION
(from 0), prints one line per chunk transfer of the speculative stream:

    data TAG K FRACTION BYTES      (the chunk's data)
    commit TAG K FRACTION BYTES    (its commit: no bytes for a confirmation, the chunk's for
                                    a correction)

with FRACTION the place of the `isend` in the production of the message.
"""
import sys

from overlap_positions import records

COMMIT_REQUEST = 1 << 60


def main():
    dir_, chunks, iteration = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    sends = [(clock, int(f[2])) for clock, f in records(f"{dir_}/authentic.0.trc") if f[0] == "send"]
    # the production of the message of tag t in ITERATION: (start, end) on the clock
    interval = {}
    seen = {}
    for i, (clock, tag) in enumerate(sends):
        if seen.get(tag, 0) == iteration:
            interval[tag] = (sends[i - 1][0] if i > 0 else 0, clock)
        seen[tag] = seen.get(tag, 0) + 1
    out = []
    for clock, f in records(f"{dir_}/overlap-speculative.0.trc"):
        if f[0] != "isend":
            continue
        what = "commit" if int(f[6]) >= COMMIT_REQUEST else "data"
        tag, k = divmod(int(f[2]), chunks)
        start, end = interval.get(tag, (0, 0))
        # a transfer of this message: no earlier than its production, no later than its send
        if start <= clock <= end and end > start and not any(
                line[1] == tag and line[2] == k and line[0] == what for line in out):
            out.append((what, tag, k, (clock - start) / (end - start), int(f[4])))
    for what, tag, k, fraction, size in sorted(out, key=lambda x: (x[1], x[0], x[2])):
        print(f"{what} {tag} {k} {fraction:.4f} {size}")


if __name__ == "__main__":
    main()
