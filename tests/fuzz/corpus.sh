#!/usr/bin/env bash
# Replays every input of the fuzz corpora (tests/fuzz/corpus/NAME/) through its harness, built
# by the project's compiler (corpus_replay), under a memory limit and a timeout: an input that
# once crashed, hung or blew the memory fails `make check` if it does again.
#
# Run by `make check` with CORPUS_REPLAY set; by hand: tests/fuzz/corpus.sh (the build in
# <source>/build).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CORPUS_REPLAY=${CORPUS_REPLAY:-$here/../../build/tests/fuzz/corpus_replay}
[ -x "$CORPUS_REPLAY" ] || { echo "not ok - $CORPUS_REPLAY is not built"; exit 1; }
# 4 GB of address space and 5 minutes: guards, far above what the corpora take (a few seconds).
# A build with AddressSanitizer (scripts/sanitize.sh) maps terabytes of shadow: it says so in
# CORPUS_SANITIZED, and ASan's own limit on memory guards instead.
log=$(mktemp "${TMPDIR:-/tmp}/tareador-corpus.XXXXXX")
trap 'rm -f "$log"' EXIT
if [ -n "${CORPUS_SANITIZED:-}" ]; then
  ASAN_OPTIONS=${ASAN_OPTIONS:-}:hard_rss_limit_mb=4000 timeout 300 "$CORPUS_REPLAY" 2>"$log"
else
  (ulimit -v 4000000; exec timeout 300 "$CORPUS_REPLAY") 2>"$log"
fi
status=$?
if [ "$status" -ne 0 ]; then
  echo "not ok - corpus replay: exit $status after:"
  tail -n 5 "$log"
  exit 1
fi
echo "ok - every corpus input replayed"
