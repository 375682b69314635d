#!/usr/bin/env bash
# End-to-end tests of the communication matrices: `replay --matrix` and `tareador-comm`.
#
# Run by `make check` with REPLAY, COMM and TESTS_DIR set (see tests/Makefile.inc); by hand,
# from anywhere: tests/e2e/comm.sh (defaults: the build in <source>/build). Prints one line per
# case and a summary; exits 0 only when every case passes.
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
REPLAY=${REPLAY:-$top/build/replay/replay}
COMM=${COMM:-$top/build/comm/tareador-comm}
TESTS_DIR=${TESTS_DIR:-$top/tests}
FIX=$TESTS_DIR/fixtures
NOBUS=$FIX/dimemas/cfg_4n_nobus.cfg

for tool in "$REPLAY" "$COMM"; do
  [ -x "$tool" ] || { echo "not ok - setup: $tool is not executable"; exit 1; }
done
command -v python3 >/dev/null || { echo "not ok - setup: python3 is required"; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/tareador-comm.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1

run() {
  timeout 20 "$@" >"$WORK/.out" 2>"$WORK/.err"
  RC=$?
  OUT=$(cat "$WORK/.out")
  ERR=$(cat "$WORK/.err")
}
WHY=""
fail() { WHY="${WHY:+$WHY; }$*"; }
assert_rc() { [ "$RC" -eq "$1" ] || fail "exit $RC, expected $1: $(head -c 300 <<<"$ERR")"; }
assert_eq() { [ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"; }
# check_svg FILE: well-formed XML whose root is <svg> (prints what is wrong, nothing if fine).
check_svg() {
  python3 -S - "$1" <<'EOF'
import sys
import xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except Exception as e:
    print("not well-formed: %s" % e); sys.exit()
if root.tag != "{http://www.w3.org/2000/svg}svg":
    print("root is %s" % root.tag)
EOF
}
# pairs CSV: its off-diagonal rows that communicate, "S>D:BYTES:EVENTS" space-separated.
pairs() { awk -F, 'NR > 1 && $1 != $2 { printf "%s%s>%s:%s:%s", sep, $1, $2, $3, $4; sep = " " }' "$1"; }

PASSED=0 FAILED=0
case_() {
  local name=$1; shift
  WHY=""
  "$@"
  if [ -z "$WHY" ]; then echo "ok - $name"; PASSED=$((PASSED + 1))
  else echo "not ok - $name: $WHY"; FAILED=$((FAILED + 1)); fi
}

# ---- replay --matrix ----------------------------------------------------------------------

t_ring() {  # ring.dim: each rank sends 2 x 100000 bytes to the next, 3 to 0
  run "$REPLAY" -q -c "$NOBUS" "$FIX/dimemas/ring.dim" --matrix ring
  assert_rc 0
  assert_eq "$(pairs ring.csv)" "0>1:200000:2 1>2:200000:2 2>3:200000:2 3>0:200000:2" "replayed"
  assert_eq "$(pairs ring.traced.csv)" "$(pairs ring.csv)" "traced = replayed"
  for f in ring.svg ring.traced.svg; do
    local problem; problem=$(check_svg "$f")
    [ -z "$problem" ] || fail "$f: $problem"
  done
  grep -q '<title>3 -&gt; 0: 2e+05 bytes</title>' ring.svg || fail "no 3 -> 0 cell in ring.svg"
}

t_kinds() {  # the sweep set: one 4 MiB message, chunked in 4 by the overlap kinds
  cp -r "$FIX/sweep/set" set
  run "$REPLAY" -q -c "$FIX/sweep/machine.toml" set --no-save --matrix m
  assert_rc 0
  assert_eq "$(pairs m.authentic.csv)" "0>1:4194304:1" "authentic"
  assert_eq "$(pairs m.authentic.traced.csv)" "0>1:4194304:1" "authentic, traced"
  assert_eq "$(pairs m.overlap-real.csv)" "0>1:4194304:4" "overlap-real"
  assert_eq "$(pairs m.overlap-ideal.csv)" "0>1:4194304:4" "overlap-ideal"
  [ ! -e m.overlap-real.traced.csv ] || fail "a traced matrix of an overlap kind"
}

t_unwritable() {  # checked before anything is replayed
  run "$REPLAY" -q -c "$NOBUS" "$FIX/dimemas/ring.dim" --matrix "$WORK/no/such/dir/m"
  assert_rc 1
  [[ $ERR == *"no/such/dir/m.csv: cannot write"* ]] || fail "message: $ERR"
}

# ---- tareador-comm ------------------------------------------------------------------------

write_matrices() {
  printf 'source,destination,bytes,events\na,a,0,0\na,b,10,1\nb,a,30,3\nb,b,0,0\n' >lopsided.csv
  printf 'source,destination,bytes,events\na,a,0,0\na,b,20,2\nb,a,20,2\nb,b,0,0\n' >even.csv
}

t_compare() {  # normalised to 100: (100 - 100/3)^2 / 4 = 1111.11; by total: 0.03125
  write_matrices
  run "$COMM" compare lopsided.csv even.csv
  assert_rc 0
  assert_eq "$OUT" "mse bytes 1111.11 (2 labels, 0..100, normalised to the maximum)" "max"
  run "$COMM" compare lopsided.csv even.csv --normalise total --quantity events
  assert_eq "$OUT" "mse events 0.03125 (2 labels, fraction, normalised to the total)" "total"
  run "$COMM" compare even.csv even.csv
  assert_eq "$OUT" "mse bytes 0 (2 labels, 0..100, normalised to the maximum)" "same"
}

t_heatmap() {
  write_matrices
  run "$COMM" heatmap lopsided.csv h.svg --log --grey --title "two & more"
  assert_rc 0
  local problem; problem=$(check_svg h.svg)
  [ -z "$problem" ] || fail "h.svg: $problem"
  grep -q '<title>two &amp; more</title>' h.svg || fail "no title"
  assert_eq "$(grep -c -- '-&gt;' h.svg)" 2 "cells"
}

t_bad() {  # FILE:LINE: MESSAGE, exit 1
  write_matrices
  printf 'source,destination,bytes,events\na,a,0,0\na,b,1,1\n' >missing.csv
  run "$COMM" compare lopsided.csv missing.csv
  assert_rc 1
  assert_eq "$ERR" "tareador-comm: missing.csv:3: label 'b' has no diagonal row (every label has one: LABEL,LABEL,BYTES,EVENTS)" "missing label"
  printf 'source,destination,bytes,events\na,a,0,0\nb,b,0,0\nc,c,0,0\n' >three.csv
  run "$COMM" compare lopsided.csv three.csv
  assert_rc 1
  assert_eq "$ERR" "tareador-comm: the matrices differ in size (2 and 3 labels): the MSE compares equal sizes" "sizes"
  printf 'src,dst\n' >header.csv
  run "$COMM" heatmap header.csv bad.svg
  assert_rc 1
  [[ $ERR == "tareador-comm: header.csv:1: the header is 'src,dst'"* ]] || fail "header: $ERR"
  [ ! -e bad.svg ] || fail "bad.svg written"
}

case_ "replay --matrix: ring pattern and totals, traced = replayed, heat maps" t_ring
case_ "replay --matrix: every kind of a set, overlap chunks counted" t_kinds
case_ "replay --matrix: unwritable output" t_unwritable
case_ "tareador-comm compare: MSE of eq. 1, both normalisations" t_compare
case_ "tareador-comm heatmap: grey, log, title" t_heatmap
case_ "tareador-comm: bad inputs at file:line" t_bad

echo "# $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
