#!/usr/bin/env bash
# Regression tests of the overlap study (--overlap=yes): where the artificial streams put chunk
# sends and waits for known production/consumption patterns, that they replay to the authentic
# time when nothing is moved, the gains the thesis predicts for its characteristic behaviours,
# the point-to-point shape of decomposed collectives, that overlapping never slows a run of
# small messages down, that collectives packed at the end gain nothing over their baseline,
# that chunk tags stay apart for every MPI tag, and the patterns report.
#
# The placement and thesis tests chunk 32 KiB messages in 4: they pass --chunk-min=0 (by
# default no chunk is smaller than 32 KiB).
#
# Environment (set by `make check`): TAREADOR, REPLAY, VG_TESTS_BUILD (tests/vg programs),
# EXAMPLES_BUILD (examples/mpi), OVERLAP_EXAMPLES_BUILD (examples/overlap), TESTS_DIR,
# EXAMPLES_DIR, PATTERNS (tareador-patterns).
set -u
: "${TAREADOR:?}" "${REPLAY:?}" "${VG_TESTS_BUILD:?}" "${EXAMPLES_BUILD:?}"
: "${OVERLAP_EXAMPLES_BUILD:?}" "${TESTS_DIR:?}" "${EXAMPLES_DIR:?}" "${PATTERNS:?}"
. "$TESTS_DIR/vg/common.sh"
machine="$EXAMPLES_DIR/marenostrum.cfg"

mpis=()
[ -x "$VG_TESTS_BUILD/openmpi/overlap_place" ] && mpis+=(openmpi)
[ -x "$VG_TESTS_BUILD/mpich/overlap_place" ] && mpis+=(mpich)
if [ ${#mpis[@]} -eq 0 ]; then
  echo "overlap.sh: no MPI example built" >&2
  exit 77
fi
# sweep_speedups DIR [REPLAY OPTIONS...]: one line per bandwidth from 1 to 10000 MB/s (9 values,
# one rank per node): "BANDWIDTH SPEEDUP-REAL SPEEDUP-IDEAL", the speedups of the overlap kinds
# over their baseline, after a first line "over BASELINE" (the CSV header names it).
sweep_speedups() {
  local dir=$1
  shift
  "$REPLAY" --no-progress --config "$machine" --set tasks_per_node=1 "$@" "$dir" --no-save \
    --sweep bandwidth=1:10000:9:log --csv | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
real = next(k for k in rows[0] if k.startswith("speedup_overlap-real_over_"))
ideal = next(k for k in rows[0] if k.startswith("speedup_overlap-ideal_over_"))
print("over", real[len("speedup_overlap-real_over_"):])
for r in rows:
    print(r["bandwidth"], r[real], r[ideal])'
}

# speedups_hold SPEEDUPS PYTHON-EXPRESSION: whether the lines of sweep_speedups are over
# authentic-p2p, nine, and each real speedup s satisfies the expression.
speedups_hold() {
  echo "$1" | python3 -c "
import sys
lines = sys.stdin.read().split('\n')[:-1]
sys.exit(0 if lines[0] == 'over authentic-p2p' and len(lines) == 10 and
         all((lambda s: $2)(float(l.split()[1])) for l in lines[1:]) else 1)"
}

# The real speedups of sweep_speedups, for the test's line.
real_speedups() { echo "$1" | tail -n +2 | awk '{ printf "%s%.3f", s, $2; s = " " }'; }

# never_slower NAME DIR: ok when the overlap-real stream of DIR takes no longer than its
# baseline at any bandwidth from 1 MB/s to 10 GB/s, with a latency of 5 us and of 50 us.
never_slower() {
  local name=$1 dir=$2 latency got
  for latency in 5e-6 5e-5; do
    if got=$(sweep_speedups "$dir" --set latency=$latency) && speedups_hold "$got" "s >= 1 - 1e-9"; then
      ok "$name, 1 chunk, latency $latency s: overlap-real never slower than authentic-p2p ($(real_speedups "$got"))"
    else
      not_ok "$name, 1 chunk, latency $latency s" "$(echo "$got" | tr '\n' ' ')"
    fi
  done
}

for mpi in "${mpis[@]}"; do
  # ---- Placement: tests/vg/overlap_place.c, 4 chunks -----------------------------------------
  # Its bursts do the same work per element, so the last store to chunk k (of 4) of a buffer
  # written in order is at (k+1)/4 of the production interval, its first store (where the
  # previous message's chunk k must have left) at k/4, and the first load of chunk k of one
  # read in order at k/4 of the consumption interval; the loop around each element and the
  # pack/unpack loops move them by well under 2%.
  dir="$scratch/place-$mpi"
  if ! TOOL_OPTIONS="--chunks=4 --chunk-min=0" overlap_trace "$mpi" 2 "$dir" "$VG_TESTS_BUILD/$mpi/overlap_place"; then
    not_ok "$mpi: overlap_place under the tool" "$(tail -3 "$dir.log" | tr '\n' ' ')"
    continue
  fi
  if "$REPLAY" --validate "$dir" >"$dir.validate" 2>&1 &&
      TIMES=$(replay_times "$dir"); then
    ok "$mpi: overlap_place's streams (strided and empty messages too) are valid and replay"
  else
    not_ok "$mpi: overlap_place's streams" "$(head -3 "$dir.validate" | tr '\n' ' ')"
  fi
  for kind in overlap-real overlap-ideal; do
    python3 "$TESTS_DIR/vg/overlap_positions.py" "$dir" "$kind" 4 >"$dir.$kind" 2>&1
  done
  # expected: WHAT TAG "fractions of chunks 0..3"
  while read -r kind what tag expected name; do
    got=$(awk -v w="$what" -v t="$tag" '$1 == w && $2 == t { print $3, $4 }' "$dir.$kind" | sort -n |
      awk '{ printf "%s%s", sep, $2; sep = " " }')
    if python3 -c "
import sys
got, want = [float(x) for x in '$got'.split()], [float(x) for x in '$expected'.split(',')]
sys.exit(0 if len(got) == len(want) and all(abs(g - w) <= 0.02 for g, w in zip(got, want)) else 1)"; then
      ok "$mpi: $kind: $name: chunks at $got"
    else
      not_ok "$mpi: $kind: $name" "chunks at '$got', expected $expected (± 0.02)"
    fi
  done <<'EOF'
overlap-real send 1 0.25,0.50,0.75,1.00 chunks sent as a linear producer finishes each
overlap-real send 2 1.00,0.75,0.50,0.25 chunks sent as a reversed producer finishes each
overlap-real send 3 1.00,1.00,1.00,1.00 all sent at the end when packed at the end
overlap-real send 4 0.00,0.00,0.00,0.00 sent at the start when not written in the interval
overlap-real sent 0 0.00,0.25,0.50,0.75 sends finished where a linear producer overwrites each chunk
overlap-real sent 1 0.75,0.50,0.25,0.00 sends finished where a reversed producer overwrites each chunk
overlap-real sent 2 1.00,1.00,1.00,1.00 sends finished at the end when the next message is packed at the end
overlap-real sent 3 1.00,1.00,1.00,1.00 sends finished at the next send when nothing overwrites them
overlap-real wait 0 0.00,0.25,0.50,0.75 waits where a linear consumer first needs each chunk
overlap-real wait 1 0.00,0.00,0.00,0.00 waits at the start when everything is read at the start
overlap-real wait 2 0.75,0.50,0.25,0.00 waits where a reversed consumer first needs each chunk
overlap-real wait 3 1.00,1.00,1.00,1.00 waits at the end when nothing is read
overlap-ideal send 3 0.25,0.50,0.75,1.00 ideal sends at (k+1)/4 whatever the pattern
overlap-real send 6 0.25,0.50,0.75,1.00 a strided message (MPI_Type_vector) chunked over the bytes sent
overlap-real wait 5 0.00,0.25,0.50,0.75 a strided message waited for where each chunk is needed
overlap-real send 10 0.25,0.50,0.75,1.00 a block of a matrix (subarray) chunked over the bytes sent
overlap-real wait 9 0.00,0.25,0.50,0.75 a block of a matrix waited for where each chunk is needed
overlap-ideal sent 2 0.00,0.25,0.50,0.75 ideal sends finished at k/4 of the next interval
overlap-ideal wait 1 0.00,0.25,0.50,0.75 ideal waits at k/4 whatever the pattern
EOF

  # ---- Nothing moved, one chunk: the authentic run again ----------------------------------------
  for program in ring pipeline; do
    dir="$scratch/same-$program-$mpi"
    if TOOL_OPTIONS="--chunks=1 --overlap-shift=no" overlap_trace "$mpi" 3 "$dir" \
        "$OVERLAP_EXAMPLES_BUILD/$mpi/$program" linear 4 1024 8; then
      TIMES=$(replay_times "$dir")
      check "$mpi: $program with 1 chunk, not shifted: the three replays take the same time" \
        "abs(r - a) <= 1e-12 * a and abs(i - a) <= 1e-12 * a"
    else
      not_ok "$mpi: $program under the tool" "$(tail -3 "$dir.log" | tr '\n' ' ')"
    fi
  done
  dir="$scratch/same-collectives-$mpi"
  if TOOL_OPTIONS="--chunks=1 --overlap-shift=no" overlap_trace "$mpi" 4 "$dir" \
      "$EXAMPLES_BUILD/$mpi/collectives"; then
    TIMES=$(replay_times "$dir")
    check "$mpi: collectives with 1 chunk, not shifted: the same time" \
      "abs(r - a) <= 1e-12 * a and abs(i - a) <= 1e-12 * a"
  else
    not_ok "$mpi: collectives under the tool" "$(tail -3 "$dir.log" | tr '\n' ' ')"
  fi

  # ---- Tags: chunks of unrelated messages never match ------------------------------------------
  # tests/vg/overlap_tags.c sends messages of tags 2^20, 2^20 + 1 (where collectives' tags once
  # began) and MPI_TAG_UB next to a broadcast and an allreduce, in 4 chunks of at least 1 KiB:
  # a message of tag T has chunks T x 4 + k, collective transfers negative tags; a message
  # shorter than the receive's room goes in as many chunks on both sides. The streams must be
  # valid (every send matches a receive of its size) and replay.
  dir="$scratch/tags-$mpi"
  if TOOL_OPTIONS="--chunks=4 --chunk-min=1024" overlap_trace "$mpi" 4 "$dir" "$VG_TESTS_BUILD/$mpi/overlap_tags" &&
      grep -q "overlap_tags: .*, ok" "$dir.log"; then
    tag_ub=$(sed -n 's/.*tag_ub \([0-9]*\),.*/\1/p' "$dir.log")
    if verdict=$(python3 "$TESTS_DIR/vg/overlap_tags.py" "$dir" "$tag_ub") &&
        "$REPLAY" --validate "$dir" >"$dir.validate" 2>&1 && TIMES=$(replay_times "$dir"); then
      ok "$mpi: overlap_tags: $verdict; the streams are valid and replay"
    else
      not_ok "$mpi: overlap_tags" "$verdict $(grep -v ': valid$' "$dir.validate" | head -3 | tr '\n' ' ')"
    fi
  else
    not_ok "$mpi: overlap_tags under the tool" "$(tail -3 "$dir.log" | tr '\n' ' ')"
  fi

  # ---- Collectives of blocks of their own sizes: every transfer carries what MPI moved ----------
  # tests/vg/overlap_vcoll.c exchanges keys as NAS IS does (MPI_Alltoall of the counts, then
  # MPI_Alltoallv of the keys: every pair of ranks a different number) and ragged blocks with
  # MPI_Allgatherv, MPI_Gatherv and MPI_Scatterv. Broken into transfers by each algorithm, the
  # sends and receives of every channel must carry the same bytes in the same order (in the
  # baseline and the overlap streams), and the streams be valid.
  # The non-blocking forms (MPI_Ialltoallv, ... and a wait) move the same blocks.
  for algorithm in binomial linear ring nonblocking; do
    dir="$scratch/vcoll-$algorithm-$mpi"
    form=()
    [ "$algorithm" = nonblocking ] && form=(3 nonblocking) && algorithm=binomial
    if TOOL_OPTIONS="--chunk-min=1024 --collectives=$algorithm" overlap_trace "$mpi" 4 "$dir" \
        "$VG_TESTS_BUILD/$mpi/overlap_vcoll" "${form[@]}" && grep -q "overlap_vcoll: .*, ok" "$dir.log"; then
      if verdict=$(python3 "$TESTS_DIR/vg/overlap_sizes.py" "$dir") &&
          "$REPLAY" --validate "$dir" >"$dir.validate" 2>&1; then
        ok "$mpi: v collectives${form[1]:+ (${form[1]})}, --collectives=$algorithm: $verdict; the streams are valid"
      else
        not_ok "$mpi: v collectives${form[1]:+ (${form[1]})}, --collectives=$algorithm" "$verdict $(grep -v ': valid$' "$dir.validate" | head -2 | tr '\n' ' ')"
      fi
    else
      not_ok "$mpi: overlap_vcoll under the tool" "$(tail -3 "$dir.log" | tr '\n' ' ')"
    fi
  done
done

# The rest does not depend on the MPI: the first one present.
mpi=${mpis[0]}

# ---- Balanced exchange (ring, 4 ranks, 4 chunks) where communicating takes as long as computing
check_at_balance "ring, linear patterns, communication = computation: overlap-real at least 1.5x faster" \
  linear "s['real'] >= 1.5"
check_at_balance "ring, packed at the end (NAS-BT): overlap-real gains under 10%, overlap-ideal 1.5x" \
  packed "s['real'] < 1.1 and s['ideal'] >= 1.5"

# ---- Cyclic pipeline, p = 4 ranks, c chunks, ideal network (infinite bandwidth) -----------------
# Authentic: one rank computes at a time, p bursts C per iteration. Overlapped with linear
# patterns: each rank starts a chunk (C/c) after its predecessor, so an iteration takes
# max(C, p C / c) and the speedup tends to min(p, c). Over n iterations the last one cannot be
# overlapped with a next one: the run takes about (n - 1) max(C, pC/c) + C + (p - 1) C / c, so
# with n = 16 the speedup is at least 0.9 min(p, c) (3.82 for c = 4, 1.94 for c = 2); it cannot
# exceed min(p, c) (+1% for the loop overheads that are not in the linear pattern).
for chunks in 2 4; do
  dir="$scratch/pipeline-$chunks"
  if TOOL_OPTIONS="--chunks=$chunks --chunk-min=0" overlap_trace "$mpi" 4 "$dir" "$OVERLAP_EXAMPLES_BUILD/$mpi/pipeline" \
      linear 16 4096 16; then
    TIMES=$(replay_times "$dir" --ideal)
    check "pipeline, 4 ranks, $chunks chunks, ideal network: overlap-real speedup tends to min(p, c) = $chunks" \
      "0.9 * $chunks <= s['real'] <= 1.01 * $chunks and 0.9 * $chunks <= s['ideal'] <= 1.01 * $chunks"
  else
    not_ok "pipeline $chunks chunks" "$(tail -3 "$dir.log" | tr '\n' ' ')"
  fi
done

# ---- Collectives as point-to-point transfers ----------------------------------------------------
# The first collective of examples/mpi/collectives is a broadcast from rank 0 on 4 ranks: its
# transfers (tags of the first collective of the communicator: -1 times the chunks, - k) go
# 0->1, 0->2, 0->3 (linear), 0->2, 0->1, 2->3 (binomial tree), 0->1, 1->2, 2->3 (ring).
for algorithm in linear:0-1,0-2,0-3 binomial:0-1,0-2,2-3 ring:0-1,1-2,2-3; do
  name=${algorithm%%:*} expected=${algorithm#*:}
  dir="$scratch/coll-$name"
  if ! TOOL_OPTIONS="--chunks=2 --chunk-min=0 --collectives=$name" overlap_trace "$mpi" 4 "$dir" \
      "$EXAMPLES_BUILD/$mpi/collectives"; then
    not_ok "collectives --collectives=$name" "$(tail -3 "$dir.log" | tr '\n' ' ')"
    continue
  fi
  got=$(for r in 0 1 2 3; do
          awk -v r=$r '$1 == "isend" && $3 < 0 && int(-$3 / 2) == 1 && $4 == 0 { print r "-" $2 }' \
            "$dir/overlap-real.$r.trc"
        done | sort -u | paste -sd, -)
  if [ "$got" = "$expected" ] && TIMES=$(replay_times "$dir") 2>/dev/null; then
    ok "collectives --collectives=$name: the broadcast goes $got, and the streams replay"
  else
    not_ok "collectives --collectives=$name" "the broadcast goes '$got', expected $expected; $TIMES"
  fi
done

# ---- Small messages: overlapping never slows a run down -----------------------------------------
# tests/vg/overlap_small.c: a wavefront of blocking sends, a halo exchange, a sendrecv and an
# allreduce, every message a few hundred bytes (latency dominates). With one chunk per message
# the overlap-real stream only sends earlier (in the program's order) and waits later: at no
# bandwidth does it take longer than its baseline (authentic-p2p, the authentic run with the
# allreduce as the same transfers), with a latency of 5 us or 50 us.
dir="$scratch/small"
if TOOL_OPTIONS=--chunks=1 overlap_trace "$mpi" 4 "$dir" "$VG_TESTS_BUILD/$mpi/overlap_small"; then
  never_slower "small messages" "$dir"
else
  not_ok "overlap_small under the tool" "$(tail -3 "$dir.log" | tr '\n' ' ')"
fi

# ---- The caution of a network without links or buses: only where messages were cut ------------
# (chunks sent together there each get the whole bandwidth; overlap_small with one chunk per
# message cuts none, overlap_place with 4 cuts every one)
caution='limits neither links nor buses'
small=$("$REPLAY" --config "$machine" --set links=0 "$dir" 2>&1 | grep -c "$caution")
place=$("$REPLAY" --config "$machine" --set links=0 "$scratch/place-$mpi" 2>&1 | grep -c "$caution")
if [ "$small" = 0 ] && [ "$place" = 1 ]; then
  ok "links=0: the caution below the speedups where messages were cut into chunks, not where none were"
else
  not_ok "links=0 caution" "said $small times for overlap_small (1 chunk), $place for overlap_place (4 chunks)"
fi

# ---- A message received first and used last (NAS LU) ----------------------------------------------
# tests/vg/overlap_order.c: a line received by a blocking receive and used only after a face
# received later from the same neighbour on the same tag (which arrives late). The first wait of
# each message keeps the authentic order (else the line's wait pays its latency after the face
# has arrived: slower than the baseline), and the waits of one channel the order of its
# receives (else the .dim export, whose waits name the channel, replays to another time).
dir="$scratch/order"
if TOOL_OPTIONS=--chunks=1 overlap_trace "$mpi" 4 "$dir" "$VG_TESTS_BUILD/$mpi/overlap_order"; then
  never_slower "LU's exchanges" "$dir"
  for kind in overlap-real overlap-ideal; do
    native=$(replay_time "$dir" --kind "$kind" --dim "$dir.$kind.dim") &&
      exported=$(replay_time "$dir.$kind.dim")
    if [ -n "${native:-}" ] && [ "$native" = "${exported:-}" ]; then
      ok "LU's exchanges: the .dim export of $kind replays to the same time ($native s)"
    else
      not_ok "LU's exchanges: the .dim export of $kind" "${native:-?} s native, ${exported:-?} s exported"
    fi
  done
else
  not_ok "overlap_order under the tool" "$(tail -3 "$dir.log" | tr '\n' ' ')"
fi

# ---- Collectives packed at the end gain nothing --------------------------------------------------
# examples/overlap/transpose packed: an alltoall, an allreduce and a broadcast per iteration,
# their buffers packed at the very end and unpacked at the very start. Nothing can be sent
# early or received late, so with the default options (4 chunks of at least 32 KiB, binomial
# collectives) overlap-real takes within 5% of its baseline at every bandwidth: the speedup is
# over authentic-p2p (over authentic it would measure the change of collective model).
dir="$scratch/transpose-packed"
if overlap_trace "$mpi" 4 "$dir" "$OVERLAP_EXAMPLES_BUILD/$mpi/transpose" packed 4 4096; then
  if got=$(sweep_speedups "$dir") && speedups_hold "$got" "abs(s - 1) <= 0.05"; then
    ok "collectives packed at the end: overlap-real within 5% of authentic-p2p at every bandwidth ($(real_speedups "$got"))"
  else
    not_ok "transpose packed" "$(echo "$got" | tr '\n' ' ')"
  fi
  # A binomial broadcast from rank 0 on 4 ranks goes 0->2->3: rank 2 passes it on and keeps it,
  # and its patterns have the receive (the consumption of what it keeps).
  if grep -Eq '^recv 0 -[0-9]+ 0 131072 ' "$dir/patterns.2.txt"; then
    ok "a broadcast a rank passes on and keeps has its receive pattern"
  else
    not_ok "patterns of a broadcast passed on" "no 'recv 0 -N 0 131072' in patterns.2.txt"
  fi
else
  not_ok "transpose under the tool" "$(tail -3 "$dir.log" | tr '\n' ' ')"
fi

# ---- Large blocks of a collective in chunks: its rounds stay in order --------------------------------
# tests/vg/overlap_fft.c: NAS FT's transposes, an MPI_Alltoall of 128 KiB blocks (4 chunks by
# default) packed at the end in the order of the send buffer, unpacked at the start. Nothing
# overlaps; chunked, the pairwise exchange's transfers must still leave round by round (the
# blocks were packed in another order), else chunks of later rounds hold the links earlier rounds
# wait for: the overlapped run was 0.63x its baseline at 1 MB/s. At no bandwidth may it lose
# more than 5% (chunks, each a message with its latency, may gain: they free links sooner).
dir="$scratch/fft"
if overlap_trace "$mpi" 4 "$dir" "$VG_TESTS_BUILD/$mpi/overlap_fft" 4 && grep -q "overlap_fft: .*, ok" "$dir.log"; then
  if got=$(sweep_speedups "$dir") && speedups_hold "$got" "s >= 0.95"; then
    ok "FT's transposes in chunks: overlap-real at least 0.95x authentic-p2p at every bandwidth ($(real_speedups "$got"))"
  else
    not_ok "FT's transposes in chunks" "$(echo "$got" | tr '\n' ' ')"
  fi
else
  not_ok "overlap_fft under the tool" "$(tail -3 "$dir.log" | tr '\n' ' ')"
fi

# ---- The patterns report ------------------------------------------------------------------------
# Medians over the transfers (the first message of each rank includes the program's start):
# a linear producer has a quarter of the message at about 25% of its interval; a packed one
# produces even its first element at the very end.
for pattern in linear packed; do
  dir="$scratch/ring-$pattern"
  if "$PATTERNS" -q "$dir" && [ -s "$dir/patterns.csv" ] && [ -s "$dir/patterns-scatter.svg" ]; then
    if python3 -c "
import json, sys
send = json.load(open('$dir/patterns.json'))['application']['send']['median']
ok = abs(send['quarter'] - 0.25) < 0.03 if '$pattern' == 'linear' else send['first'] > 0.95
sys.exit(0 if ok else 1)"; then
      ok "tareador-patterns on the $pattern ring: the medians of Table 5.1 are the pattern's"
    else
      not_ok "tareador-patterns $pattern" "$(python3 -c "import json; print(json.load(open('$dir/patterns.json'))['application']['send'])")"
    fi
  else
    not_ok "tareador-patterns $pattern" "no report written"
  fi
done

# ---- A non-blocking collective polled while messages flow ----------------------------------------
# Broken up at its wait, it deadlocks the replay of the overlap kinds (docs/tool.md): the report
# says why and what keeps it whole; traced with --collectives=keep, every kind replays.
for mpi in "${mpis[@]}"; do
  dir="$scratch/$mpi-iallreduce_poll"
  for mode in split keep; do
    options=(--overlap=yes)
    [ "$mode" = keep ] && options+=(--collectives=keep)
    rm -rf "$dir-$mode"
    timeout 300 "$(launcher "$mpi")" -np 2 "$TAREADOR" --trace-dir="$dir-$mode" "${options[@]}" \
      "$VG_TESTS_BUILD/$mpi/iallreduce_poll" >"$dir-$mode.log" 2>&1
  done
  what="iallreduce_poll ($mpi): broken up at its wait, the deadlock report says --collectives=keep keeps it whole"
  "$REPLAY" -q --no-save --config "$machine" --kind overlap-real "$dir-split" >"$dir-split.replay" 2>&1
  status=$?
  if ! grep -q 'iallreduce_poll: sum 2, rank 1 saw 2' "$dir-split.log"; then
    not_ok "$what" "the program's answer: $(grep -m1 iallreduce_poll "$dir-split.log")"
  elif [ "$status" -ne 2 ] || ! grep -q 'hint: a thread waits for a transfer of a collective' "$dir-split.replay" ||
      ! grep -q 'tracing with --collectives=keep keeps collectives whole' "$dir-split.replay"; then
    not_ok "$what" "exit $status: $(tail -3 "$dir-split.replay" | tr '\n' ' ')"
  else
    ok "$what"
  fi
  what="iallreduce_poll ($mpi, --collectives=keep): every kind replays"
  if "$REPLAY" -q --no-save --config "$machine" "$dir-keep" >"$dir-keep.replay" 2>&1; then
    ok "$what"
  else
    not_ok "$what" "$(tail -3 "$dir-keep.replay" | tr '\n' ' ')"
  fi
done

# ---- Empty blocks of an MPI_Alltoallv at the address of the next block -----------------------
# Displacements summed from the counts (an empty block starts where the next one does) or apart:
# the same transfers, so the same speedups (the empty block once ended the other's consumption
# at the call: real 0.900 and ideal 0.820 against 1.118 and 1.000 apart, on one bus).
for mpi in "${mpis[@]}"; do
  what="emptyblocks ($mpi): an empty Alltoallv block at the next block's address moves no wait"
  speedups=()
  for mode in prefix apart; do
    dir="$scratch/$mpi-emptyblocks-$mode"
    overlap_trace "$mpi" 4 "$dir" "$VG_TESTS_BUILD/$mpi/emptyblocks" "$mode"
    speedups+=("$("$REPLAY" --no-progress --no-save --config "$TESTS_DIR/fixtures/dimemas/cfg_4n_1bus.cfg" \
      "$dir" 2>&1 | grep ' over authentic-p2p: ' | tr -s ' \n' ' ')")
  done
  if [ -n "${speedups[0]}" ] && [ "${speedups[0]}" = "${speedups[1]}" ] &&
      grep -q 'overlap-ideal over authentic-p2p: 1\.000' <<<"${speedups[0]}"; then
    ok "$what (${speedups[0]})"
  else
    not_ok "$what" "summed: ${speedups[0]}; apart: ${speedups[1]}"
  fi
done

# ---- A hybrid rank's team fills the buffer it sends, and consumes what it receives -------------
# tests/vg/ompfill.c on two threads: the master writes (reads) the first half of each message,
# the other thread the second, each in order through the same parallel loop. The second half's
# parts must be produced (consumed) as the first half's are: through the loop, from its start
# (the other thread's accesses were once not seen: "never written", chunks sent before the loop).
# halves PATTERNS send|recv: for each line of the message (tag 7), whether each half of the
# buffer runs from the start of the interval (its first part below 0.1) to its end (its last
# part above 0.9), every part written (read).
halves() {
  awk '$1 == "'"$2"'" && $3 == 7 { n = NF - 6; h = int(n / 2);
    ok = $7 != "-" && $(7 + h) != "-" && $7 < 0.1 && $(7 + h) < 0.1 && $(6 + h) > 0.9 && $NF > 0.9;
    for (i = 7; i <= NF; i++) if ($i == "-") ok = 0;
    print ok ? "yes" : "no: " $7 " .. " $(6 + h) " | " $(7 + h) " .. " $NF }' "$1"
}
for mpi in "${mpis[@]}"; do
  what="ompfill ($mpi): the other thread's stores and loads are timed beside the master's"
  dir="$scratch/$mpi-ompfill"
  OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive overlap_trace "$mpi" 2 "$dir" "$VG_TESTS_BUILD/$mpi/ompfill"
  sends=$(halves "$dir/patterns.0.txt" send | sort | uniq -c | tr -s ' \n' ' ')
  receives=$(halves "$dir/patterns.1.txt" recv | sort | uniq -c | tr -s ' \n' ' ')
  if ! grep -q '^ompfill ' "$dir.log"; then
    not_ok "$what" "the run: $(tail -3 "$dir.log" | tr '\n' ' ')"
  elif [ "$sends" != " 4 yes " ] || [ "$receives" != " 4 yes " ]; then
    not_ok "$what" "sends:$sends receives:$receives"
  elif ! "$REPLAY" -q --no-save --config "$machine" "$dir" >"$dir.replay" 2>&1; then
    not_ok "$what" "$(tail -3 "$dir.replay" | tr '\n' ' ')"
  else
    ok "$what"
  fi
done

echo "# overlap: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
