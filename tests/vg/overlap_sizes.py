#!/usr/bin/env python3
"""Whether every message of a trace set's artificial streams is received with its own size
(tests/vg/overlap.sh, tests/vg/overlap_vcoll.c).

    overlap_sizes.py SET

In the authentic-p2p, overlap-real and overlap-ideal streams, the sends (send, isend) from rank
a to rank b on a tag and communicator, in order, must match the receives (recv, irecv) of b
from a on them: the transfers of collectives (negative tags) with the same bytes, the program's
messages with at least as many (a receive may give more room than the message takes; the
authentic trace, and so its baseline, keeps the room). Prints how many messages it checked;
exits 1, naming the first channel that differs, if any differs.
"""
import collections
import glob
import sys


def channels(directory, kind):
    """{(source, destination, tag, comm): [bytes...]} of the sends, and of the receives."""
    sends, receives = collections.defaultdict(list), collections.defaultdict(list)
    for path in glob.glob("%s/%s.*.trc" % (directory, kind)):
        me = int(path.rsplit(".", 2)[-2])
        with open(path) as f:
            for line in f:
                fields = line.split()
                if fields and fields[0] in ("send", "isend"):
                    sends[(me, int(fields[1]), fields[2], fields[3])].append(int(fields[4]))
                elif fields and fields[0] in ("recv", "irecv"):
                    receives[(int(fields[1]), me, fields[2], fields[3])].append(int(fields[4]))
    return sends, receives


def main():
    directory = sys.argv[1]
    messages = 0
    kinds = ("authentic-p2p", "overlap-real", "overlap-ideal")
    for kind in kinds:
        sends, receives = channels(directory, kind)
        if not sends:
            print("no %s stream in %s" % (kind, directory))
            return 1
        for channel in sorted(set(sends) | set(receives)):
            sent, received = sends[channel], receives[channel]
            collective = int(channel[2]) < 0
            if len(sent) != len(received) or any(
                    r != s if collective else r < s for s, r in zip(sent, received)):
                print("%s: %d -> %d tag %s comm %s: sent %s, received %s" %
                      (kind, *channel, sends[channel][:4], receives[channel][:4]))
                return 1
            messages += len(sends[channel])
    print("%d messages of %s, each received whole (collective transfers: with their size)" %
          (messages, ", ".join(kinds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
