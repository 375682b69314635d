#!/usr/bin/env bash
# Parity with Dimemas: replays each trace with `replay` and with Dimemas 5.5 on each machine and
# says whether the two predicted times agree to the nanosecond. A trace is a Dimemas .dim or a
# trace set (each of its kinds is exported to .dim with `replay --kind K --dim`, which is what
# Dimemas reads). A run that cannot finish counts as agreeing when both stop (Dimemas' "10 s"
# end of simulation and `replay`'s deadlock report); a crash of Dimemas is counted apart.
#
#   DIMEMAS=/path/to/Dimemas bench/parity.sh [BUILD_DIR] CONFIG... -- TRACE...
#   DIMEMAS=.../Dimemas bench/parity.sh build examples/marenostrum.cfg \
#       tests/fixtures/dimemas/cfg_4n_1bus.cfg -- tareador-out/ tests/fixtures/dimemas/*.dim
#   RANDOM_TRACES=400 RANDOM_OPTIONS="--max-tasks 4" DIMEMAS=.../Dimemas bench/parity.sh build \
#       tests/fixtures/dimemas/cfg_4n_1bus.cfg --
#
# RANDOM_TRACES=N adds the random traces of seeds 1..N (bench/gen_random, RANDOM_OPTIONS passed
# to it: --no-collectives, --max-tasks N). Only the summary is printed for them (QUIET=1: for all).
#
# Dimemas is built outside the repository (README, Performance). Exported .dim files go to a
# scratch directory (BENCH_DIR, default: a fresh mktemp -d).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build"
if [ $# -gt 0 ] && [ -d "$1" ] && [ -x "$1/replay/replay" ]; then build=$(cd "$1" && pwd); shift; fi
configs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do configs+=("$1"); shift; done
[ $# -gt 0 ] && shift
random_traces=${RANDOM_TRACES:-0}
if [ ${#configs[@]} -eq 0 ] || { [ $# -eq 0 ] && [ "$random_traces" -eq 0 ]; }; then
  echo "usage: DIMEMAS=/path/to/Dimemas bench/parity.sh [BUILD_DIR] CONFIG... -- TRACE..." >&2
  exit 1
fi
dimemas=${DIMEMAS:?set DIMEMAS to the Dimemas 5.5 binary}
export LD_LIBRARY_PATH="$build/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
replay="$build/replay/.libs/replay"
[ -x "$replay" ] || replay="$build/replay/replay"
scratch=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$scratch"

# The .dim files to compare: each .dim given, and each kind of each trace set.
# Sets of the same folder name (runA/set, runB/set) are told apart by a number.
dims=()
declare -A sets_named
for trace in "$@"; do
  if [ -d "$trace" ]; then
    name=$(basename "$(cd "$trace" && pwd)")
    sets_named[$name]=$((${sets_named[$name]:-0} + 1))
    [ "${sets_named[$name]}" -gt 1 ] && name="$name.${sets_named[$name]}"
    for stream in "$trace"/*.0.trc; do
      kind=$(basename "$stream" .0.trc)
      [ "$kind" = tasks ] && continue
      out="$scratch/$name-$kind.dim"
      # The copy is written before the replay, which may then stop (a run that cannot
      # finish): compared all the same.
      if ! "$replay" -q -c "${configs[0]}" --kind "$kind" --dim "$out" "$trace" >/dev/null 2>&1 &&
         [ ! -s "$out" ]; then
        echo "parity.sh: $trace: cannot export its $kind kind" >&2
        continue
      fi
      dims+=("$out")
    done
  else
    dims+=("$trace")
  fi
done
for seed in $(seq "$random_traces"); do
  # shellcheck disable=SC2086 # RANDOM_OPTIONS is a list of options
  "$build/bench/gen_random" "$seed" "$scratch/random-$seed.dim" ${RANDOM_OPTIONS:-}
  dims+=("$scratch/random-$seed.dim")
done

agree=0 differ=0 crash=0
printf '%-40s %-24s %-16s %-16s %s\n' trace machine "Dimemas s" "replay s" verdict
for config in "${configs[@]}"; do
  for dim in "${dims[@]}"; do
    d=$("$dimemas" --config-file "$config" --dim "$dim" 2>&1 |
      awk '/^Execution time:/ { print $NF; exit }') || true  # (a crash leaves it empty)
    r=$("$replay" -q -c "$config" --json - "$dim" 2>/dev/null |
      python3 -c 'import json,sys; print(repr(json.load(sys.stdin)["traces"][0]["total_time_s"]))' 2>/dev/null) || r=""
    if [ -z "$d" ]; then
      verdict="Dimemas crashed"; crash=$((crash + 1))
    elif awk -v d="$d" -v r="$r" 'BEGIN { exit !((d == "10.000000000" && r == "") ||
                                          (r != "" && d - r <= 1e-9 && r - d <= 1e-9)) }'; then
      verdict=agree; agree=$((agree + 1))
    else
      verdict=DIFFER; differ=$((differ + 1))
    fi
    [ -n "${QUIET:-}" ] || { [[ "$(basename "$dim")" == random-* ]] && [ "$verdict" = agree ]; } ||
      printf '%-40s %-24s %-16s %-16s %s\n' "$(basename "$dim")" "$(basename "$config")" \
        "${d:--}" "${r:-stopped}" "$verdict"
  done
done
echo "agree: $agree, differ: $differ, Dimemas crashed: $crash"
[ -n "${BENCH_DIR:-}" ] || rm -rf "$scratch"
[ "$differ" -eq 0 ]
