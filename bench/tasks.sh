#!/usr/bin/env bash
# Task tracing benchmark: the cost of dependency tracking against memcheck's on the same
# binaries, at -O0 (how courses compile: every local in memory) and -O2. Four programs, each
# compiled at both levels: a dense matrix product with row-block tasks (bench/matmul_tasks.c,
# 1,200 tasks), a stack-heavy filter loop (bench/stack_tasks.c), and the multisort and blocked
# Cholesky of examples/tasks. Each runs under `valgrind --tool=none`, `--tool=memcheck` and
# `--tool=tareador` (--deps=raw, the default); prints the median user+system CPU seconds of
# REPEAT runs (default 3: CPU time, not wall time, so that other jobs on the machine matter
# less; the three tools take turns, so that a burst of load hits them alike) and the ratio to
# memcheck. The target: dependency tracking costs at most 1.0 x memcheck.
#
#   bench/tasks.sh [BUILD_DIR]        default: ./build (for its tareador)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
repeat=${REPEAT:-3}
tareador="$build/vg-tool/tareador"
[ -x "$tareador" ] || { echo "bench/tasks.sh: build first ($tareador is missing)" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The programs: name, source, arguments, extra libraries.
programs=(
  "matmul_tasks bench/matmul_tasks.c 120,1,10"
  "stack_tasks bench/stack_tasks.c 65536,64,8"
  "multisort examples/tasks/multisort.c 65536,1024,1024"
  "cholesky examples/tasks/cholesky.c 24 -lm"
)

# seconds TOOL COMMAND...: appends the user+system CPU seconds of one run to $scratch/TOOL.
seconds() {
  local tool=$1
  shift
  /usr/bin/time -f "%U %S" -o "$scratch/time" "$@" >/dev/null 2>"$scratch/stderr" ||
    { echo "bench/tasks.sh: failed: $*" >&2; cat "$scratch/stderr" >&2; exit 1; }
  awk '{ print $1 + $2 }' "$scratch/time" >>"$scratch/$tool"
}

# median TOOL: the median of the seconds in $scratch/TOOL.
median() {
  sort -g "$scratch/$1" | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'
}

echo "dependency tracking vs memcheck: median user+system CPU seconds of $repeat runs"
printf "  %-14s %-4s %8s %9s %9s %11s\n" program opt none memcheck tareador "x memcheck"
for entry in "${programs[@]}"; do
  read -r name source arguments libraries <<<"$entry"
  IFS=, read -r -a args <<<"$arguments"
  for level in O0 O2; do
    binary="$scratch/$name-$level"
    # shellcheck disable=SC2086 # the libraries are words
    "${CC:-cc}" -"$level" -g -I"$top/vg-tool" -o "$binary" "$top/$source" ${libraries:-}
    rm -f "$scratch/none" "$scratch/memcheck" "$scratch/tareador"
    for _ in $(seq "$repeat"); do
      seconds none valgrind --tool=none "$binary" "${args[@]}"
      seconds memcheck valgrind --tool=memcheck "$binary" "${args[@]}"
      seconds tareador "$tareador" --trace-dir="$scratch/set" --task-report=no "$binary" "${args[@]}"
    done
    none=$(median none)
    memcheck=$(median memcheck)
    traced=$(median tareador)
    awk -v n="$name" -v l="-$level" -v o="$none" -v m="$memcheck" -v t="$traced" 'BEGIN {
      printf "  %-14s %-4s %8.2f %9.2f %9.2f %11.2f\n", n, l, o, m, t, t / m }'
  done
done
