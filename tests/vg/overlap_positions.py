#!/usr/bin/env python3
"""Where the overlap streams put each chunk, as a fraction of its interval (tests/vg/overlap.sh).

    overlap_positions.py SET KIND CHUNKS

SET is a trace set of tests/vg/overlap_place.c (rank 0 sends tags 0..4 to rank 1, blocking, from
one buffer; rank 1 receives them into one buffer). The clock is the one of the streams: the
instructions of the `cpu` records before a record. For rank 0, the production interval of the
message of tag t runs from the send of tag t-1 to the send of tag t (their places in the
authentic stream); for rank 1, the consumption interval of tag t from the receive of tag t to
that of tag t+1. Prints one line per chunk:

    send TAG K FRACTION      (where KIND's stream sends chunk K)
    sent TAG K FRACTION      (where it waits for that send: in the next production interval)
    wait TAG K FRACTION      (where KIND's stream waits for chunk K)
"""
import sys


def records(path):
    """(clock, fields) of each record but the bursts."""
    clock = 0
    with open(path) as f:
        for line in f:
            fields = line.split()
            if not fields or fields[0].startswith("#"):
                continue
            if fields[0] == "cpu":
                clock += int(fields[1])
            else:
                yield clock, fields


def calls(path, what):
    """The clock of each blocking `what` record of the authentic stream, by tag."""
    return {int(f[2]): clock for clock, f in records(path) if f[0] == what}


def main():
    dir_, kind, chunks = sys.argv[1], sys.argv[2], int(sys.argv[3])
    sends = calls(f"{dir_}/authentic.0.trc", "send")
    sent = {}
    for clock, f in records(f"{dir_}/{kind}.0.trc"):
        if f[0] == "isend":
            tag, k = divmod(int(f[2]), chunks)
            sent[f[6]] = tag, k
            if tag >= 1:
                start, end = sends[tag - 1], sends[tag]
                print(f"send {tag} {k} {(clock - start) / (end - start):.4f}")
        elif f[0] == "wait":
            for request in f[1:]:
                tag, k = sent[request]
                if tag + 1 in sends:
                    start, end = sends[tag], sends[tag + 1]
                    print(f"sent {tag} {k} {(clock - start) / (end - start):.4f}")
    receives = calls(f"{dir_}/authentic.1.trc", "recv")
    chunk_of = {}
    for clock, f in records(f"{dir_}/{kind}.1.trc"):
        if f[0] == "irecv":
            chunk_of[f[5]] = divmod(int(f[2]), chunks)
        elif f[0] == "wait":
            for request in f[1:]:
                tag, k = chunk_of[request]
                if tag + 1 in receives:
                    start, end = receives[tag], receives[tag + 1]
                    print(f"wait {tag} {k} {(clock - start) / (end - start):.4f}")


if __name__ == "__main__":
    main()
