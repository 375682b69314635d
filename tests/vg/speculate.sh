#!/usr/bin/env bash
# Regression tests of speculative dataflow (the overlap-speculative trace of --overlap=yes,
# docs/tool.md, "Speculative dataflow"): the chunks a program of known production sends ahead,
# mis-speculates and stalls on, counted exactly (the rank manifest, the end-of-run line, the
# records of the stream), where the chunks and their commits go, and, on the thesis's three
# characteristic behaviours, how the speculative run compares with the oracle's (overlap-real)
# and the authentic one.
#
# Environment (set by `make check`): TAREADOR, REPLAY, VG_TESTS_BUILD (tests/vg programs),
# OVERLAP_EXAMPLES_BUILD (examples/overlap), TESTS_DIR, EXAMPLES_DIR.
set -u
: "${TAREADOR:?}" "${REPLAY:?}" "${VG_TESTS_BUILD:?}" "${OVERLAP_EXAMPLES_BUILD:?}"
: "${TESTS_DIR:?}" "${EXAMPLES_DIR:?}"
. "$TESTS_DIR/vg/common.sh"
machine="$EXAMPLES_DIR/marenostrum.cfg"
KINDS="authentic overlap-real overlap-speculative"

mpis=()
[ -x "$VG_TESTS_BUILD/openmpi/overlap_speculate" ] && mpis+=(openmpi)
[ -x "$VG_TESTS_BUILD/mpich/overlap_speculate" ] && mpis+=(mpich)
if [ ${#mpis[@]} -eq 0 ]; then
  echo "speculate.sh: no MPI example built" >&2
  exit 77
fi

# ---- Counts: tests/vg/overlap_speculate.c, 5 iterations, 4 buffers, 4 chunks ---------------------
# Each buffer's first message is not predicted (no send of it before); from the second on:
# written in order, chunks 0-2 leave ahead, none mis-speculated; backwards, chunks 0-2 leave at
# its first store and all three are mis-speculated; in order then chunk 1 again, one
# mis-speculated; of alternating sizes, never predicted. 80 chunks; 4 x (3 + 3 + 3) = 36 sent
# ahead; 4 x (3 + 1) = 16 mis-speculated. Stalls: every chunk of the previous message of a
# buffer is overwritten in the next iteration (4 x 4 for each of the first three buffers); the
# alternating one writes half a message after a whole one (2 of its chunks) and a whole one
# after a half (4): 2 + 4 + 2 + 4. 48 + 12 = 60. Rank 1 sends nothing.
for mpi in "${mpis[@]}"; do
  dir="$scratch/counts-$mpi"
  if ! TOOL_OPTIONS="--chunks=4 --chunk-min=0" overlap_trace "$mpi" 2 "$dir" "$VG_TESTS_BUILD/$mpi/overlap_speculate" 5 1024 ||
      ! grep -q "overlap_speculate: .*, ok" "$dir.log"; then
    not_ok "$mpi: overlap_speculate under the tool" "$(tail -3 "$dir.log" | tr '\n' ' ')"
    continue
  fi
  for rank_counts in "0 80 36 16 60" "1 0 0 0 0"; do
    read -r rank chunks ahead missed stalls <<<"$rank_counts"
    line="speculation: $chunks chunks, $ahead sent ahead, $missed mis-speculated, $stalls stalls"
    if grep -q "rank $rank: .*; $line ->" "$dir.log"; then
      ok "$mpi: rank $rank's end-of-run line: $line"
    else
      not_ok "$mpi: rank $rank's end-of-run line" "no '$line' in: $(grep "rank $rank:" "$dir.log")"
    fi
    got=$(python3 -c "
import sys, tomllib
s = tomllib.load(open('$dir/rank-$rank.toml', 'rb'))['speculation']
print(s['chunks'], s['sent_ahead'], s['misspeculated'], s['stalls'])" 2>&1)
    if [ "$got" = "$chunks $ahead $missed $stalls" ]; then
      ok "$mpi: rank-$rank.toml [speculation]: $got"
    else
      not_ok "$mpi: rank-$rank.toml [speculation]" "'$got', expected $chunks $ahead $missed $stalls"
    fi
  done
  # The records say the same: a commit (request >= 2^60) of the chunk's bytes is a correction,
  # of none a confirmation; the last chunk of a message, which leaves with the call, has none.
  got=$(awk '$1 == "isend" && $7 >= 2^60 { if ($5 > 0) c++; else k++ } END { print c + 0, k + 0 }' \
    "$dir/overlap-speculative.0.trc")
  if [ "$got" = "16 44" ]; then
    ok "$mpi: rank 0's stream has 16 corrections (2048 bytes each) and 44 confirmations"
  else
    not_ok "$mpi: the stream's commits" "'$got' (corrections, confirmations), expected 16 44"
  fi
  if grep -q '"overlap-speculative"' "$dir/manifest.toml" && "$REPLAY" --validate "$dir" >"$dir.validate" 2>&1 &&
      TIMES=$(replay_times "$dir"); then
    ok "$mpi: the manifest lists overlap-speculative; the streams are valid and replay ($TIMES)"
  else
    not_ok "$mpi: the set" "$(grep -v ': valid$' "$dir.validate" | head -3 | tr '\n' ' ')"
  fi

  # A commit travels on its chunk's channel, after it: the .dim export (whose waits name
  # channels) replays to the same time.
  native=$(replay_time "$dir" --kind overlap-speculative --dim "$dir.dim") && exported=$(replay_time "$dir.dim")
  if [ -n "${native:-}" ] && [ "$native" = "${exported:-}" ]; then
    ok "$mpi: the .dim export of overlap-speculative replays to the same time ($native s)"
  else
    not_ok "$mpi: the .dim export of overlap-speculative" "${native:-?} s native, ${exported:-?} s exported"
  fi

  # ---- Where chunks and commits go (iteration 2; chunk k of 4 is produced by (k+1)/4) ---------
  python3 "$TESTS_DIR/vg/speculate_positions.py" "$dir" 4 2 >"$dir.positions" 2>&1
  # expected: WHAT TAG "fraction:bytes of chunks 0..3"
  while read -r what tag expected name; do
    got=$(awk -v w="$what" -v t="$tag" '$1 == w && $2 == t { printf "%s%s:%s", sep, $4, $5; sep = "," }' \
      "$dir.positions")
    if python3 -c "
import sys
got = [g.split(':') for g in '$got'.split(',') if g]
want = [w.split(':') for w in '$expected'.split(',')]
sys.exit(0 if len(got) == len(want) and all(abs(float(g[0]) - float(w[0])) <= 0.02 and g[1] == w[1]
                                            for g, w in zip(got, want)) else 1)"; then
      ok "$mpi: $name ($got)"
    else
      not_ok "$mpi: $name" "'$got', expected $expected (fractions ± 0.02)"
    fi
  done <<'EOF'
data 1 0.25:2048,0.50:2048,0.75:2048,1.00:2048 in order: each chunk leaves as production passes it, the last with the call
commit 1 0.25:0,0.50:0,0.75:0 in order: every commit a confirmation, with its chunk (none for the last)
data 2 0.00:2048,0.00:2048,0.00:2048,1.00:2048 backwards: the first store passes chunks 0-2
commit 2 1.00:2048,1.00:2048,1.00:2048 backwards: chunks 0-2 corrected at the call
data 3 0.20:2048,0.40:2048,0.60:2048,1.00:2048 chunk 1 revisited: it had left as production passed it
commit 3 0.20:0,1.00:2048,0.60:0 chunk 1 revisited: corrected at the call, the others confirmed
data 4 1.00:2048,1.00:2048,1.00:2048,1.00:2048 sizes alternate: no prediction, all with the call
EOF
done

# The rest does not depend on the MPI: the first one present.
mpi=${mpis[0]}

# ---- The three characteristic behaviours ------------------------------------------------------
# In order (linear patterns) production is sequential: speculation sends every chunk where the
# oracle does (the last one with the call, where the oracle's is ready anyway), but for the
# first message of each buffer, which it cannot predict and sends with its call: it lags
# overlap-real by less than that first iteration (a / 16: 16 iterations). Revisiting (four
# sweeps over the buffer, Sweep3D-like), the first sweep passes chunks 0-2 and the next one
# writes them again: every chunk is corrected with the call, and what speculation keeps is the
# postponed receptions (a chunk waited for where the receiver first needs it), where the
# oracle still sends each chunk early in the last sweep.
check_at_balance "ring, linear, communication = computation: speculative behind overlap-real by less than an iteration, at least 1.5x" \
  linear "r <= p <= r + a / 16 and s['speculative'] >= 1.5"
check_at_balance "ring, revisiting, communication = computation: speculative between authentic and overlap-real (chunks corrected at the call)" \
  revisit "1 <= s['speculative'] <= s['real'] - 0.05"

# on_ideal_network NAME PROGRAM PATTERN CHUNKS PYTHON-EXPRESSION: check (common.sh) on
# examples/overlap/PROGRAM PATTERN, 4 ranks, 16 iterations of 32 KiB messages in CHUNKS chunks,
# replayed on an ideal network.
on_ideal_network() {
  local dir="$scratch/$2-$3-$4"
  if TOOL_OPTIONS="--chunks=$4 --chunk-min=0" overlap_trace "$mpi" 4 "$dir" "$OVERLAP_EXAMPLES_BUILD/$mpi/$2" \
      "$3" 16 4096 16; then
    TIMES=$(replay_times "$dir" --ideal)
    check "$1" "$5"
  else
    not_ok "$2 $3 under the tool" "$(tail -3 "$dir.log" | tr '\n' ' ')"
  fi
}

# Micro-imbalanced halo exchange (4 ranks, a different rank computes twice as long each
# iteration): overlapped, a rank starts as soon as the first chunk of its slow neighbour's halo
# arrives, so the imbalance hides. Speculative behind overlap-real by less than the first
# iteration, at least 1.2x faster than the authentic run.
on_ideal_network "micro-imbalanced, linear, ideal network: speculative behind overlap-real by less than an iteration, at least 1.2x" \
  imbalance linear 4 "r <= p <= r + a / 16 and s['speculative'] >= 1.2"

# Cyclic pipeline, 4 ranks, c chunks, 16 iterations (overlap.sh: the oracle's speedup tends to
# min(p, c)). The authentic run computes one burst at a time: a burst is a / 64. The first
# message of each rank is not predicted and goes with its call, so the pipeline's first round
# goes as in the authentic run: each of the p ranks starts a whole burst after its predecessor
# instead of a chunk's (1/c of a burst): p (1 - 1/c) bursts behind the oracle (3 with 4 chunks,
# 2 with 2), after which speculation sends where the oracle does. Revisiting, speculation
# leaves the pipeline as it was (each rank needs chunk 0 at once, and it comes with the call).
for chunks in 2 4; do
  on_ideal_network "pipeline, linear, $chunks chunks, ideal network: speculative behind overlap-real by 4 (1 - 1/$chunks) bursts (± 10%)" \
    pipeline linear $chunks "abs((p - r) / (a / 64) - 4 * (1 - 1 / $chunks)) <= 0.1 * 4 * (1 - 1 / $chunks)"
done
on_ideal_network "pipeline, revisiting, ideal network: speculation gains nothing (within 1%), the oracle gains" \
  pipeline revisit 4 "abs(p - a) <= 0.01 * a and s['real'] > 1.1"

echo "# speculate: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
