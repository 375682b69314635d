#!/usr/bin/env bash
# tareador-view's command line: --export writes PNG and SVG without a display; bad inputs and
# options exit non-zero with file:line.
#
# Run by `make check` from the build directory (TAREADOR_VIEW defaults to viz/tareador-view
# there); by hand: TAREADOR_VIEW=build/viz/tareador-view tests/viz/cli.sh
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VIEW=${TAREADOR_VIEW:-$PWD/viz/tareador-view}
DATA=$here/data
[ -x "$VIEW" ] || { echo "not ok - setup: $VIEW is not executable"; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tareador-view-cli.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
unset DISPLAY WAYLAND_DISPLAY  # --export needs neither
failures=0

# check NAME EXPECTED_STATUS EXPECTED_STDERR_TEXT -- ARGS...
check() {
  local name=$1 status=$2 text=$3
  shift 4
  timeout 60 "$VIEW" "$@" >"$WORK/out" 2>"$WORK/err"
  local rc=$?
  if [ "$rc" -ne "$status" ]; then
    echo "not ok - $name: exit $rc, expected $status; stderr: $(head -3 "$WORK/err")"
    failures=$((failures + 1))
  elif [ -n "$text" ] && ! grep -qF -- "$text" "$WORK/err"; then
    echo "not ok - $name: stderr lacks '$text': $(head -3 "$WORK/err")"
    failures=$((failures + 1))
  else
    echo "ok - $name"
  fi
}

check "export png" 0 "" -- --export "$WORK/a.png" --size 800x400 "$DATA/small.prv" "$DATA/later.prv"
if [ "$(head -c 8 "$WORK/a.png" | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ]; then
  echo "not ok - export png: not a PNG file"; failures=$((failures + 1))
fi
check "export svg with range, selection, rows" 0 "" -- --export "$WORK/a.svg" --range 100:0.5us --select 200:300 \
  --rows cpus "$DATA/small.prv"
grep -q "<svg" "$WORK/a.svg" 2>/dev/null || { echo "not ok - export svg: no <svg>"; failures=$((failures + 1)); }
printf 'digraph {\n  a -> \n' >"$WORK/unread.dot"
check "export reads no task graph (it draws none)" 0 "" -- --export "$WORK/f.png" "$DATA/small.prv" "$WORK/unread.dot"
check "colour by task type" 0 "" -- --export "$WORK/b.png" --colour-by "task type" "$DATA/small.prv"
check "missing .pcf is a warning" 0 "later.pcf: missing" -- --export "$WORK/c.png" "$DATA/later.prv"

# What `replay --prv` writes opens (the last step of the data flow: its header's end time is
# zero-padded, which the viewer once refused).
REPLAY=${REPLAY:-$PWD/replay/replay}
if "$REPLAY" -q --config "$here/../fixtures/dimemas/cfg_4n_1bus.cfg" --prv "$WORK/replayed.prv" \
    "$here/../fixtures/dimemas/ring.dim" >"$WORK/replay.out" 2>&1; then
  check "a replay's Paraver trace" 0 "" -- --export "$WORK/replayed.png" "$WORK/replayed.prv"
else
  echo "not ok - replay --prv: $(head -3 "$WORK/replay.out")"; failures=$((failures + 1))
fi

printf '#Paraver (01/01/70 at 00:00):10_ns:1(1):1:1(1:1),0\n1:1:1:1:1:0:5:1\n1:1:1:1:1:5:x:1\n' >"$WORK/bad.prv"
check "malformed record" 1 "$WORK/bad.prv:3: expected a number for the end time" -- --export "$WORK/d.png" "$WORK/bad.prv"
check "missing input" 1 "$WORK/none.prv: no such file or directory" -- --export "$WORK/d.png" "$WORK/none.prv"
mkdir -p "$WORK/set"
check "trace set never replayed" 1 "no simulated timeline in" -- --export "$WORK/d.png" "$WORK/set"
check "unknown image format" 1 "the image format is chosen by the extension" -- --export "$WORK/d.jpg" "$DATA/small.prv"
check "unknown colour" 1 "--colour-by nothing" -- --export "$WORK/d.png" --colour-by nothing "$DATA/small.prv"
check "bad range" 2 "--range 5:1" -- --export "$WORK/d.png" --range 5:1 "$DATA/small.prv"
check "range past the end of the run: shown moved, with a warning" 0 "goes past the run, which ends at" \
  -- --export "$WORK/e.png" --range 1s:2s "$DATA/small.prv"
check "bad size" 2 "--size" -- --export "$WORK/d.png" --size 10 "$DATA/small.prv"
[ ! -e "$WORK/d.png" ] || { echo "not ok - failed exports leave no file"; failures=$((failures + 1)); }

# Hostile inputs (issue 15): FIFOs are refused without blocking; a trace set shows the replays
# of the run its manifest names.
cp "$DATA/small.prv" "$WORK/fifo.prv" && mkfifo "$WORK/fifo.pcf" "$WORK/pipe.prv"
check "a FIFO as .pcf" 1 "fifo.pcf: not a regular file (a FIFO)" -- --export "$WORK/e.png" "$WORK/fifo.prv"
check "a FIFO as .prv" 1 "pipe.prv: not a regular file (a FIFO)" -- --export "$WORK/e.png" "$WORK/pipe.prv"
mkdir -p "$WORK/runs/replay"
printf 'format = "tareador-trace-set"\nversion = 2\nname = "x"\nranks = 1\nmips = 1.0\nkinds = []\nrun = "B"\n' \
  >"$WORK/runs/manifest.toml"
cp "$DATA/small.prv" "$WORK/runs/replay/authentic.prv"
echo '{"run": "A"}' >"$WORK/runs/replay/authentic.json"
check "only replays of another run" 1 "(1 left out, of another run or without a summary: replay the set again" -- \
  --export "$WORK/e.png" "$WORK/runs"

cp "$DATA/small.prv" "$WORK/runs/replay/overlap-real.prv"
echo '{"run": "B"}' >"$WORK/runs/replay/overlap-real.json"
cp "$DATA/taskgraph.dot" "$WORK/runs/taskgraph.5.dot"
check "the replay of another run left out" 0 "authentic.prv: the replay of another run of the set, left out" -- \
  --export "$WORK/e.png" "$WORK/runs"
grep -qF "taskgraph.5.dot: left out (the set has 1 rank)" "$WORK/err" ||
  { echo "not ok - a task graph of a rank the set does not have: $(head -3 "$WORK/err")"; failures=$((failures + 1)); }
echo '{"run": ' >"$WORK/runs/replay/authentic.json"
check "a damaged replay summary" 0 "authentic.json is missing or unreadable, so which run it replays is not known" -- \
  --export "$WORK/e.png" "$WORK/runs"

# A few bytes may declare the most threads the viewer takes (2^20): what they cost must follow
# the records and the rows drawn, not the rows declared (it once took 3 GB and 15 s).
printf '#Paraver (01/01/26 at 00:00):1000_ns:0:1:1(1048576:1)\n1:0:1:1:1:0:500:1\n' >"$WORK/wide.prv"
if (ulimit -v 1500000 && timeout 60 "$VIEW" --export "$WORK/wide.png" "$WORK/wide.prv") \
    >"$WORK/out" 2>"$WORK/err"; then
  echo "ok - a header of 2^20 threads in less than 1.5 GB"
else
  echo "not ok - a header of 2^20 threads in less than 1.5 GB: $(tail -3 "$WORK/err")"
  failures=$((failures + 1))
fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
