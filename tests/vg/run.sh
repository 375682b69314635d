#!/usr/bin/env bash
# Regression tests of the Valgrind tool, in the Valgrind style: run a small MPI program under
# the tool and compare the trace it leaves with the one it must leave (tests/vg/expected/).
# Burst lengths are blanked in that comparison (they are stable for one binary, but Open MPI and
# MPICH builds are different binaries), and checked for stability by running twice.
#
# Environment (set by `make check`): TAREADOR, REPLAY, EXAMPLES_BUILD (the built
# examples/mpi), VG_TESTS_BUILD (the built tests/vg programs), TESTS_DIR, EXAMPLES_DIR.
set -u
: "${TAREADOR:?}" "${REPLAY:?}" "${EXAMPLES_BUILD:?}" "${TESTS_DIR:?}" "${EXAMPLES_DIR:?}"
: "${VG_TESTS_BUILD:?}"
. "$TESTS_DIR/vg/common.sh"

expected="$TESTS_DIR/vg/expected"

mpis=()
command -v mpirun.openmpi >/dev/null && [ -d "$EXAMPLES_BUILD/openmpi" ] && mpis+=(openmpi)
command -v mpiexec.mpich >/dev/null && [ -d "$EXAMPLES_BUILD/mpich" ] && mpis+=(mpich)
[ ${#mpis[@]} -gt 0 ] || { echo "not ok - no MPI and examples to test with"; exit 1; }

# run_children MPI EXAMPLE RANKS DIR: tareador --trace-children=yes mpirun -np RANKS EXAMPLE.
run_children() {
  local mpi=$1 example=$2 ranks=$3 dir=$4
  rm -rf "$dir"
  timeout 300 "$TAREADOR" --trace-children=yes --trace-dir="$dir" "$(launcher "$mpi")" \
    -np "$ranks" "$EXAMPLES_BUILD/$mpi/$example" >"$dir.log" 2>&1
}

# run_test MPI PROGRAM DIR [ARGS...]: tests/vg's PROGRAM, built with MPI, on 2 ranks under the
# tool into DIR (its output in DIR.log).
run_test() {
  local mpi=$1 program=$2 dir=$3
  shift 3
  rm -rf "$dir"
  timeout 300 "$(launcher "$mpi")" -np 2 "$TAREADOR" --trace-dir="$dir" \
    "$VG_TESTS_BUILD/$mpi/$program" "$@" >"$dir.log" 2>&1
}

# The trace set DIR of EXAMPLE matches the expected streams, is valid and replays.
check_set() {
  local name=$1 dir=$2 example=$3 ranks=$4 r
  for ((r = 0; r < ranks; r++)); do
    if [ ! -f "$dir/authentic.$r.trc" ]; then
      not_ok "$name" "no stream for rank $r ($(tail -3 "$dir.log" | tr '\n' ' '))"
      return
    fi
    if ! diff <(sed 's/^cpu [0-9]*$/cpu/' "$dir/authentic.$r.trc") "$expected/$example.$r.trc" \
        >"$scratch/diff" 2>&1; then
      not_ok "$name" "rank $r differs from the expected trace: $(head -8 "$scratch/diff" | tr '\n' '|')"
      return
    fi
  done
  grep -q 'status = "complete"' "$dir/rank-0.toml" || { not_ok "$name" "rank 0 not complete"; return; }
  "$REPLAY" --validate "$dir" >"$scratch/validate" 2>&1 ||
    { not_ok "$name" "not valid: $(head -3 "$scratch/validate" | tr '\n' ' ')"; return; }
  "$REPLAY" -q --config "$EXAMPLES_DIR/marenostrum.cfg" "$dir" >"$scratch/replay" 2>&1 ||
    { not_ok "$name" "replay failed: $(head -3 "$scratch/replay" | tr '\n' ' ')"; return; }
  ok "$name"
}

# ---- Every example, with each MPI --------------------------------------------------------------
examples=("ring 4" "imbalance 3" "pipeline 3" "pingpong 2" "collectives 4" "wildcard 3" "ring_f 3")
for mpi in "${mpis[@]}"; do
  for spec in "${examples[@]}"; do
    read -r example ranks <<<"$spec"
    [ -x "$EXAMPLES_BUILD/$mpi/$example" ] || { not_ok "$example ($mpi)" "not built"; continue; }
    run "$mpi" "$example" "$ranks" "$scratch/$mpi-$example"
    check_set "$example ($mpi): $(launcher "$mpi") -np $ranks tareador $example" \
      "$scratch/$mpi-$example" "$example" "$ranks"
  done
done

# ---- The other launch form gives the same set, and no trace of the launcher ----------------------
for mpi in "${mpis[@]}"; do
  dir="$scratch/$mpi-children"
  run_children "$mpi" ring 4 "$dir"
  check_set "ring ($mpi): tareador --trace-children=yes $(launcher "$mpi") -np 4 ring" "$dir" ring 4
  if ls "$dir" | grep -qvE '^(manifest\.toml|rank-[0-3]\.toml|authentic\.[0-3]\.trc|replay)$'; then
    not_ok "no trace of the launcher ($mpi)" "unexpected files: $(ls "$dir" | tr '\n' ' ')"
  elif grep -q rmdir "$dir.log"; then
    not_ok "no trace of the launcher ($mpi)" "it tried to remove the set: $(grep rmdir "$dir.log")"
  else
    ok "no trace of the launcher ($mpi), which leaves the set the ranks filled alone"
  fi
done

# ---- Bursts are exact: the same run twice gives the same bytes (but the run's id) ----------------
mpi=${mpis[0]}
run "$mpi" ring 4 "$scratch/again" && run "$mpi" ring 4 "$scratch/again2"
if diff -r -I '^run = "' "$scratch/again" "$scratch/again2" >"$scratch/again.diff"; then
  ok "the same binary and input give the same trace, bursts included"
else
  not_ok "repeatable bursts" "two runs of ring differ: $(head -12 "$scratch/again.diff" | tr '\n' '|')"
fi

# ---- Bursts count exactly the instructions run between MPI calls ---------------------------------
for mpi in "${mpis[@]}"; do
  dir="$scratch/$mpi-nops"
  rm -rf "$dir"
  timeout 300 "$(launcher "$mpi")" -np 2 "$TAREADOR" --trace-dir="$dir" "$VG_TESTS_BUILD/$mpi/nops" \
    >"$dir.log" 2>&1
  bursts=$(grep '^cpu' "$dir/authentic.0.trc" 2>/dev/null | sed -n '2,3s/^cpu //p' | tr '\n' ' ')
  read -r first second <<<"$bursts"
  # (a dozen instructions of the program's own around the no-ops: the call, the PLT's jump)
  if [ -n "${second:-}" ] && [ $((second - first)) -eq 2000 ] && [ "$first" -lt 1030 ]; then
    ok "bursts are exact ($mpi): 1000 and 3000 no-ops differ by 2000 instructions ($first, $second), the wrappers' left out"
  else
    not_ok "exact bursts ($mpi)" "bursts '$bursts' of $(cat "$dir/authentic.0.trc" 2>&1 | tr '\n' '|')"
  fi
done

# warns MPI DIR TEXT: rank 0's manifest of the set DIR has a warning with TEXT in it.
warns() {
  if grep -qF "$3" "$2/rank-0.toml" 2>/dev/null; then
    ok "the rank's manifest warns ($1): $3"
  else
    not_ok "warning ($1): $3" "$(grep warnings "$2/rank-0.toml" 2>&1)"
  fi
}

# check_overlap MPI PROGRAM: tests/vg's PROGRAM on 2 ranks under the tool with --overlap=yes
# gives kinds that are all valid and replay.
check_overlap() {
  local mpi=$1 program=$2 dir="$scratch/$1-$2-overlap"
  rm -rf "$dir"
  timeout 300 "$(launcher "$mpi")" -np 2 "$TAREADOR" --trace-dir="$dir" --overlap=yes \
    "$VG_TESTS_BUILD/$mpi/$program" >"$dir.log" 2>&1
  if "$REPLAY" --validate "$dir" >"$scratch/$program.validate" 2>&1 &&
      "$REPLAY" -q --config "$EXAMPLES_DIR/marenostrum.cfg" "$dir" >/dev/null 2>&1; then
    ok "$program ($mpi) with --overlap=yes: every kind valid and replayed"
  else
    not_ok "$program ($mpi) with --overlap=yes" \
      "$(grep -v ': valid$' "$scratch/$program.validate" | head -3 | tr '\n' ' ')"
  fi
}

# ---- Requests besides MPI_Isend and MPI_Irecv: persistent, non-blocking collectives --------------
for mpi in "${mpis[@]}"; do
  dir="$scratch/$mpi-requests"
  rm -rf "$dir"
  timeout 300 "$(launcher "$mpi")" -np 2 "$TAREADOR" --trace-dir="$dir" \
    "$VG_TESTS_BUILD/$mpi/requests" >"$dir.log" 2>&1
  check_set "requests ($mpi): MPI_Send_init and MPI_Recv_init started three times by \
MPI_Startall, a wildcard and a synchronous one by MPI_Start, a receive on a freed communicator, \
a cancelled receive left out, MPI_Iallreduce and MPI_Ialltoallw started at their calls and waited \
for" "$dir" requests 2
  check_overlap "$mpi" requests
done

# ---- Matched probes: the receive of a probed message is a receive from whom the probe found ----
for mpi in "${mpis[@]}"; do
  dir="$scratch/$mpi-mprobe"
  run_test "$mpi" mprobe "$dir"
  check_set "mprobe ($mpi): MPI_Mrecv and MPI_Imrecv receive from the source and with the tag \
MPI_Mprobe and MPI_Improbe found; a probe of MPI_PROC_NULL receives nothing" "$dir" mprobe 2
done

# ---- Neighbourhood collectives: a transfer with each neighbour of the topology -------------------
for mpi in "${mpis[@]}"; do
  dir="$scratch/$mpi-neighbor"
  run_test "$mpi" neighbor "$dir"
  check_set "neighbor ($mpi): a neighbourhood collective receives from each in-neighbour and \
sends to each out-neighbour of a Cartesian, graph or distributed graph topology" "$dir" neighbor 2
  check_overlap "$mpi" neighbor
done

# ---- Persistent collectives (MPI 4.0: MPICH here): each start the non-blocking collective ------
if [[ " ${mpis[*]} " == *" mpich "* ]]; then
  dir="$scratch/mpich-pcoll"
  run_test mpich pcoll "$dir"
  check_set "pcoll (mpich): each MPI_Start(all) of a request MPI_Allreduce_init, \
MPI_Neighbor_alltoall_init or MPI_Bcast_init made is the non-blocking collective" "$dir" pcoll 2
  check_overlap mpich pcoll
fi

# ---- Non-blocking collectives: started at the call, completed at the wait ---------------------
# nbcoll's rank 0 receives between its MPI_Ibarrier and its wait what rank 1 sends before its
# own: replayed as blocking at the call, the set would deadlock. --overlap keeps them whole with
# --collectives=keep, else breaks them up at their wait (docs/tool.md).
for mpi in "${mpis[@]}"; do
  dir="$scratch/$mpi-nbcoll"
  for mode in no yes keep; do
    options=(--overlap=$mode)
    [ "$mode" = keep ] && options=(--overlap=yes --collectives=keep)
    rm -rf "$dir-$mode"
    timeout 300 "$(launcher "$mpi")" -np 3 "$TAREADOR" --trace-dir="$dir-$mode" "${options[@]}" \
      "$VG_TESTS_BUILD/$mpi/nbcoll" 1000 >"$dir-$mode.log" 2>&1
    what="nbcoll ($mpi, ${options[*]}): every kind valid and replayed without a deadlock"
    if ! grep -q 'sum 6 (expected 6), broadcast 42, max 3, ring 6' "$dir-$mode.log"; then
      not_ok "$what" "the program's answer: $(grep -m1 nbcoll "$dir-$mode.log")"
    elif "$REPLAY" --validate "$dir-$mode" >"$dir-$mode.validate" 2>&1 &&
        "$REPLAY" -q --config "$EXAMPLES_DIR/marenostrum.cfg" "$dir-$mode" \
          >"$dir-$mode.replay" 2>&1; then
      ok "$what"
    else
      not_ok "$what" "$(grep -v ': valid$' "$dir-$mode.validate" "$dir-$mode.replay" | head -3 | tr '\n' ' ')"
    fi
  done
  # The barrier and its wait around the receive; one wait for a receive and a collective.
  records=$(grep -E '^(icoll|wait|recv)' "$dir-no/authentic.0.trc" | tr '\n' '|')
  want='icoll MPI_Ibarrier 0 -1 0 0 1|recv 1 5 0 4|wait 1|icoll MPI_Iallreduce 0 -1 8 8 2|'
  want+='icoll MPI_Ibcast 0 2 0 8 3|wait 3|wait 2|icoll MPI_Iallreduce 0 -1 8 8 5|wait 4 5|'
  if [ "$records" = "$want" ]; then
    ok "nbcoll ($mpi): each non-blocking collective is an icoll with its request, waited for where the program waits"
  else
    not_ok "nbcoll ($mpi): records of rank 0" "$records"
  fi
done

# ---- A receive from a known source cancelled: kept in the trace, never waited for -------------
# Its replay gives it no message: --validate pairs the receives after it with the messages they
# got (a note for it, no problem), in every kind; the manifest warns what it changes.
for mpi in "${mpis[@]}"; do
  dir="$scratch/$mpi-cancel"
  rm -rf "$dir"
  timeout 300 "$(launcher "$mpi")" -np 2 "$TAREADOR" --trace-dir="$dir" --overlap=yes \
    "$VG_TESTS_BUILD/$mpi/cancel" >"$dir.log" 2>&1
  what="cancel ($mpi): a cancelled receive noted by --validate, the receives after it valid"
  if ! grep -q 'cancel: cancelled 1, received 42 then 43' "$dir.log"; then
    not_ok "$what" "the program's answer: $(grep -m1 cancel "$dir.log")"
  elif ! "$REPLAY" --validate "$dir" >"$dir.validate" 2>&1; then
    not_ok "$what" "$(grep -v ': valid' "$dir.validate" | head -3 | tr '\n' ' ')"
  elif [ "$(grep -c 'authentic.0.trc:[0-9]*: an immediate receive from rank 1 to rank 0 (tag 7, comm 0) that nothing waits for' "$dir.validate")" != 1 ]; then
    not_ok "$what" "no note of the cancelled receive: $(head -3 "$dir.validate" | tr '\n' ' ')"
  elif ! grep -q 'later rendezvous sends on its channel may go earlier' "$dir/rank-0.toml"; then
    not_ok "$what" "the manifest's warning: $(grep -m1 cancelled "$dir/rank-0.toml")"
  else
    ok "$what"
  fi
done

# total_time TRACE: the replayed time on marenostrum.cfg, in seconds.
total_time() {
  "$REPLAY" -q --no-save --config "$EXAMPLES_DIR/marenostrum.cfg" --json - "$1" 2>/dev/null |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["traces"][0]["total_time_s"])'
}

# ---- Requests that share a handle: Open MPI gives every request that completes as it starts
# one handle (an inline send, a barrier of one member); each wait is the program's own ---------
for mpi in "${mpis[@]}"; do
  for mode in wait free; do
    dir="$scratch/$mpi-sharedreq-$mode"
    rm -rf "$dir"
    timeout 300 "$(launcher "$mpi")" -np 2 "$TAREADOR" --trace-dir="$dir" \
      "$VG_TESTS_BUILD/$mpi/sharedreq" $([ $mode = free ] && echo free) >"$dir.log" 2>&1
    records=$(grep -Ev '^(cpu|call|#)' "$dir/authentic.1.trc" 2>&1 |
              sed -E 's/^icoll MPI_Ibarrier [0-9]+ /icoll MPI_Ibarrier C /' | tr '\n' '|')
    want='isend 0 0 0 26 eager 1|icoll MPI_Ibarrier C -1 0 0 2|wait 2|icoll MPI_Ibarrier C -1 0 0 3|'
    want+='wait 3|recv 0 0 0 26|'
    [ $mode = wait ] && want+='wait 1|'
    want+='end|'
    if ! grep -q 'sharedreq: ok' "$dir.log"; then
      not_ok "sharedreq $mode ($mpi)" "the run failed: $(tail -2 "$dir.log" | tr '\n' ' ')"
    elif [ "$records" != "$want" ]; then
      not_ok "sharedreq $mode ($mpi): records of rank 1" "$records"
    elif ! "$REPLAY" -q --no-save --config "$EXAMPLES_DIR/marenostrum.cfg" --dim "$dir.dim" "$dir" \
           >/dev/null 2>&1; then
      not_ok "sharedreq $mode ($mpi)" "no .dim export"
    elif set_time=$(total_time "$dir") && [ -n "$set_time" ] && [ "$set_time" = "$(total_time "$dir.dim")" ]; then
      ok "sharedreq $mode ($mpi): each wait for the request the program waits for; the set and its .dim replay alike ($set_time s)"
    else
      not_ok "sharedreq $mode ($mpi)" "the set replays to '$set_time' s, its .dim export to '$(total_time "$dir.dim")' s"
    fi
  done
done

# ---- One-sided communication: opaque calls with a warning each, and the run goes on -----------
# (Open MPI's default one-sided component needs what this machine's settings turn off: pt2pt.)
for mpi in "${mpis[@]}"; do
  dir="$scratch/$mpi-onesided"
  rm -rf "$dir"
  OMPI_MCA_osc=pt2pt timeout 300 "$(launcher "$mpi")" -np 2 "$TAREADOR" --trace-dir="$dir" \
    "$VG_TESTS_BUILD/$mpi/onesided" >"$dir.log" 2>&1
  check_set "one-sided ($mpi): fence and passive-target epochs as opaque calls, then a barrier, \
a send and receive and an allreduce" "$dir" onesided 2
  for call in MPI_Put MPI_Get MPI_Accumulate MPI_Fetch_and_op; do
    warns "$mpi" "$dir" "$call is one-sided communication, which the trace does not model"
  done
  # A valid set that leaves the program's puts out says so when validated, not only when replayed.
  if "$REPLAY" --validate "$dir" >"$dir.validate" 2>&1 &&
     grep -q '^note: rank 0: MPI_Put is one-sided communication' "$dir.validate" &&
     grep -q '(authentic): valid' "$dir.validate"; then
    ok "one-sided ($mpi): replay --validate says valid, with the set's note that the puts are not modelled"
  else
    not_ok "one-sided validation ($mpi)" "$(tr '\n' '|' <"$dir.validate")"
  fi
done

# ---- Hybrid MPI+OpenMP: the threads that compute besides the traced one are said -------------
for mpi in "${mpis[@]}"; do
  for threads in 1 2; do
    OMP_NUM_THREADS=$threads OMP_WAIT_POLICY=passive run_test "$mpi" hybrid \
      "$scratch/$mpi-hybrid-$threads" "$([ "$threads" = 1 ] && echo idle)"
  done
  OMP_NUM_THREADS=1 run_test "$mpi" hybrid "$scratch/$mpi-hybrid-comm" comm
  one=$(grep -c 'other threads executed' "$scratch/$mpi-hybrid-1/rank-0.toml" 2>&1)
  talker=$(grep -c 'other threads executed' "$scratch/$mpi-hybrid-comm/rank-0.toml" 2>&1)
  grep -q 'a thread exchanged messages' "$scratch/$mpi-hybrid-comm.log" || talker="no MPI_THREAD_MULTIPLE"
  # The master's records only: its synchronous send, none of the other thread's (tag 7).
  sends=$(grep -c '^send 1 5 0 4 sync' "$scratch/$mpi-hybrid-comm/authentic.0.trc" 2>&1)
  others=$(grep -c '^[a-z]* [0-9]* 7 ' "$scratch/$mpi-hybrid-comm/authentic."[01].trc | awk -F: '{ s += $2 } END { print s }')
  left_out='2000 MPI calls of other threads are not in the trace (the first: MPI_Sendrecv)'
  if [ "$talker" = 0 ] && [ "$sends" = 1 ] && [ "$others" = 0 ] &&
     grep -qF "$left_out" "$scratch/$mpi-hybrid-comm/rank-0.toml" &&
     "$REPLAY" --validate "$scratch/$mpi-hybrid-comm" >/dev/null 2>&1; then
    ok "hybrid ($mpi): a thread that only exchanges messages (inside MPI) while the master computes: no warning of untraced computation; the master's send is in the trace, none of the thread's messages (counted and named), valid"
  else
    not_ok "hybrid comm ($mpi)" "'$talker' warnings; $(grep -o 'other threads executed[^,]*' "$scratch/$mpi-hybrid-comm/rank-0.toml"); master's sends: $sends of 1; the thread's records: $others"
  fi
  two=$(grep -o 'other threads executed [0-9]* instructions ([0-9]*%' \
    "$scratch/$mpi-hybrid-2/rank-0.toml" 2>&1)
  if [ "$one" = 0 ] && [[ "$two" =~ \(([0-9]+)%$ ]] && [ "${BASH_REMATCH[1]}" -ge 50 ]; then
    ok "hybrid ($mpi): 2 OpenMP threads a rank: the manifest says the other thread computed ($two of the bursts); 1 thread and an idle pthread: no warning"
  else
    not_ok "hybrid ($mpi)" "1 thread: '$one' warnings; 2 threads: '$two'; $(tail -2 "$scratch/$mpi-hybrid-2.log" | tr '\n' ' ')"
  fi
done

# ---- --thread-comm of an MPI program without threads of its own: the threads the MPI library
# starts (Open MPI's progress threads) share its state, not the program's data: no thread but
# the rank's own (they once made 850,000 events with it) ----------------------------------------
for mpi in "${mpis[@]}"; do
  dir="$scratch/$mpi-threadcomm"
  rm -rf "$dir"
  timeout 300 "$(launcher "$mpi")" -np 2 "$TAREADOR" --trace-dir="$dir" --thread-comm=yes \
    "$VG_TESTS_BUILD/$mpi/nops" >"$dir.log" 2>&1
  threads=$(cat "$dir/threadcomm.0.txt" "$dir/threadcomm.1.txt" 2>&1 | grep -v '^#' | awk '{ print $1, $2 }' | sort | uniq -c | tr -s ' \n' ' ')
  if [ "$threads" = " 2 end 2 thread 1 " ]; then
    ok "thread-comm ($mpi): an MPI program's ranks show their own thread only, not the library's"
  else
    not_ok "thread-comm ($mpi)" "records: $threads; $(tail -2 "$dir.log" | tr '\n' ' ')"
  fi
done

# ---- A rank that forks: the copy writes nothing of the rank's trace -------------------------------
for mpi in "${mpis[@]}"; do
  for mode in wait late; do
    dir="$scratch/$mpi-forked-$mode"
    run_test "$mpi" forked "$dir" "$mode"
    sleep 3  # (the late helper outlives the job)
    stream=$(grep -v '^cpu' "$dir/authentic.0.trc" 2>&1 | tr '\n' '|')
    if [ "$stream" = "# tareador stream v1 kind=authentic rank=0|call MPI_Comm_rank|coll MPI_Barrier 0 -1 0 0|coll MPI_Allreduce 0 -1 8 8|end|" ] &&
       grep -q 'status = "complete"' "$dir/rank-0.toml" &&
       grep -q 'the program forked a process, which is not traced' "$dir/rank-0.toml" &&
       "$REPLAY" --validate "$dir" >/dev/null 2>&1; then
      ok "forked ($mpi, $mode): the helper's exit leaves the rank's stream and manifest as the rank wrote them, which say it forked"
    else
      not_ok "forked ($mpi, $mode)" "stream '$stream'; $(grep -E '^(status|warnings)' "$dir/rank-0.toml" | tr '\n' ' ')"
    fi
  done
done

# ---- Polling for a message: the tests and probes that find nothing are said, and not recorded ---
for mpi in "${mpis[@]}"; do
  for mode in poll iprobe wait; do run_test "$mpi" polling "$scratch/$mpi-polling-$mode" "$mode"; done
  said='MPI tests or probes .* found nothing'
  polled=$(grep -c "$said" "$scratch/$mpi-polling-poll/rank-1.toml" 2>&1)
  probed=$(grep -c "$said" "$scratch/$mpi-polling-iprobe/rank-1.toml" 2>&1)
  waited=$(grep -c 'found nothing' "$scratch/$mpi-polling-wait/rank-1.toml" 2>&1)
  probes=$(grep -c '^call MPI_Iprobe$' "$scratch/$mpi-polling-iprobe/authentic.1.trc" 2>&1)
  if [ "$polled" = 1 ] && [ "$probed" = 1 ] && [ "$waited" = 0 ] && [ "$probes" = 4 ] &&
      grep -q 'polling: polled, ok' "$scratch/$mpi-polling-poll.log" &&
      grep -q 'polling: probed, ok' "$scratch/$mpi-polling-iprobe.log"; then
    ok "polling ($mpi): a rank that polls with MPI_Test or MPI_Iprobe is warned that its polling counts as computation, and only the probes that found the message are records; one that waits is not warned"
  else
    not_ok "polling ($mpi)" "poll: '$polled' warnings, iprobe: '$probed' warnings and '$probes' records, wait: '$waited'; $(tail -2 "$scratch/$mpi-polling-iprobe.log" | tr '\n' ' ')"
  fi
done

# ---- MPI_Comm_spawn: the workers it starts leave the parent job's set alone (Open MPI) -----------
if [[ " ${mpis[*]} " == *" openmpi "* ]]; then
  dir="$scratch/openmpi-spawned"
  rm -rf "$dir"
  timeout 300 "$TAREADOR" -q --trace-children=yes --trace-dir="$dir" "$(launcher openmpi)" -np 1 \
    "$VG_TESTS_BUILD/openmpi/spawned" >"$dir.log" 2>&1
  stream=$(grep -v '^cpu' "$dir/authentic.0.trc" 2>&1 | tr '\n' '|')
  if [[ "$stream" == *"call MPI_Comm_spawn|call MPI_Send|"* ]] && grep -q '^ranks = 1$' "$dir/manifest.toml" &&
     [ "$(grep -c 'started by MPI_Comm_spawn: not traced' "$dir.log")" = 2 ] &&
     grep -q 'MPI_Comm_spawn is the start of other processes (which are not traced)' "$dir/rank-0.toml" &&
     "$REPLAY" --validate "$dir" >/dev/null 2>&1; then
    ok "spawned (openmpi): the two workers MPI_Comm_spawn starts say they are not traced; the parent's rank 0 is the set's, which says so"
  else
    not_ok "spawned (openmpi)" "stream '$stream'; $(grep -E '^ranks' "$dir/manifest.toml" 2>&1); $(grep -c 'not traced' "$dir.log") notes"
  fi
fi

# ---- Communicators made by other calls: known (a graph), or not (a warning) ---------------------
for mpi in "${mpis[@]}"; do
  dir="$scratch/$mpi-comms"
  rm -rf "$dir"
  timeout 300 "$(launcher "$mpi")" -np 2 "$TAREADOR" --trace-dir="$dir" \
    "$VG_TESTS_BUILD/$mpi/comms" >"$dir.log" 2>&1
  check_set "communicators ($mpi): a sendrecv on a distributed graph, an allreduce on a \
communicator made by MPI_Comm_idup (opaque)" "$dir" comms 2
  warns "$mpi" "$dir" 'MPI_Allreduce on a communicator the trace does not know'
done

# ---- Sends through derived datatypes carry their unique cache lines (lines=U) ------------------
for mpi in "${mpis[@]}"; do
  dir="$scratch/$mpi-lines"
  rm -rf "$dir"
  timeout 300 "$(launcher "$mpi")" -np 2 "$TAREADOR" --trace-dir="$dir" "$VG_TESTS_BUILD/$mpi/lines" \
    >"$dir.log" 2>&1
  if ! diff <(grep '^send' "$dir/authentic.0.trc" 2>&1) "$expected/lines.sends" >"$scratch/lines.diff"; then
    not_ok "lines=U ($mpi)" "the sends differ: $(head -8 "$scratch/lines.diff" | tr '\n' '|')"
  elif ! "$REPLAY" -q --config "$EXAMPLES_DIR/marenostrum.cfg" --set marshal_line_cost=1e-8 "$dir" \
      >"$scratch/lines.replay" 2>&1; then
    not_ok "lines=U ($mpi)" "replay failed: $(head -3 "$scratch/lines.replay" | tr '\n' ' ')"
  else
    ok "lines=U ($mpi): a column of a matrix of doubles touches 64 lines, two columns off a line 128"
  fi
done

# ---- Replaying on an ideal network gives the critical path of the bursts ------------------------
critical_path() {
  python3 - "$1" <<'PY'
# A zero-cost network by hand: a receive or wait completes when the matching send was issued.
import re, sys
d = sys.argv[1]
mips = float(re.search(r"mips = ([0-9.]+)", open(d + "/manifest.toml").read()).group(1))
ranks = int(re.search(r"ranks = ([0-9]+)", open(d + "/manifest.toml").read()).group(1))
streams = [[l.split() for l in open(f"{d}/authentic.{r}.trc") if l.strip() and l[0] != "#"]
           for r in range(ranks)]
pos, clock, sent, matched, pending = [0] * ranks, [0.0] * ranks, {}, {}, [{} for _ in range(ranks)]
def sent_time(key, k):
    times = sent.get(key, [])
    return times[k] if k < len(times) else None
progress = True
while progress:
    progress = False
    for r in range(ranks):
        while pos[r] < len(streams[r]):
            rec = streams[r][pos[r]]
            op = rec[0]
            if op == "cpu":
                clock[r] += int(rec[1]) / (mips * 1e6)
            elif op in ("send", "isend"):
                sent.setdefault((r, int(rec[1]), rec[2], rec[3]), []).append(clock[r])
            elif op in ("recv", "irecv"):
                key = (int(rec[1]), r, rec[2], rec[3])
                k = matched.get(key, 0)
                if op == "recv":
                    t = sent_time(key, k)
                    if t is None: break
                    clock[r] = max(clock[r], t)
                else:
                    pending[r][rec[5]] = (key, k)
                matched[key] = k + 1
            elif op == "wait":
                times = [sent_time(*pending[r][q]) if q in pending[r] else clock[r] for q in rec[1:]]
                if None in times: break
                clock[r] = max([clock[r]] + times)
            pos[r] += 1
            progress = True
print(f"{max(clock):.12f}")
PY
}
dir="$scratch/$mpi-ring"
expected_time=$(critical_path "$dir")
replayed=$("$REPLAY" --config "$EXAMPLES_DIR/marenostrum.cfg" --ideal "$dir" --json - |
  python3 -c 'import json,sys; print("%.12f" % json.load(sys.stdin)["traces"][0]["total_time_s"])')
if [ -n "$expected_time" ] && [ "$expected_time" = "$replayed" ]; then
  ok "ring on an ideal network: total time = critical path of the bursts ($replayed s)"
else
  not_ok "ideal network" "replayed $replayed s, critical path $expected_time s"
fi

# ---- A program without MPI: a note, no trace ----------------------------------------------------
"$TAREADOR" --trace-dir="$scratch/none" /bin/true >"$scratch/none.log" 2>&1
if [ ! -e "$scratch/none" ] && grep -q "called neither MPI_Init nor tareador_ON: nothing traced" "$scratch/none.log"; then
  ok "a program without MPI gets a note and no trace"
else
  not_ok "program without MPI" "$(tail -2 "$scratch/none.log" | tr '\n' ' ')"
fi

# ---- --trace-dir expands %p as valgrind's --log-file does ----------------------------------------
run "${mpis[0]}" pingpong 2 "$scratch/pid-%p"
if ls -d "$scratch"/pid-[0-9]* >/dev/null 2>&1; then
  ok "--trace-dir expands %p"
else
  not_ok "--trace-dir %p" "$(ls "$scratch" | tr '\n' ' ')"
fi

# ---- A trace directory used again: the new run's set, not mixed with the old one's --------------
# The manifest names the run; each rank removes what an earlier run left of it (patterns, other
# kinds' streams, rank manifest); replay keeps only this run's replays in SET/replay/.
mpi=${mpis[0]}
dir="$scratch/reused"
rm -rf "$dir"
run_into() {  # the ring of 2 ranks into $dir (not emptied first), with ARGS
  timeout 300 "$(launcher "$mpi")" -np 2 "$TAREADOR" --trace-dir="$dir" "$@" \
    "$EXAMPLES_BUILD/$mpi/ring" >"$dir.log" 2>&1
}
run_of() { sed -n 's/^run = "\(.*\)"$/\1/p' "$dir/manifest.toml"; }
saved_run() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("run", ""))' "$1"; }
run_into --overlap=yes
first=$(run_of)
"$REPLAY" -q --config "$EXAMPLES_DIR/marenostrum.cfg" "$dir" >"$scratch/reused.replay" 2>&1
if [ -n "$first" ] && [ -f "$dir/patterns.1.txt" ] && [ -f "$dir/replay/overlap-real.json" ] &&
   [ "$(saved_run "$dir/replay/overlap-real.json")" = "$first" ]; then
  run_into
  second=$(run_of)
  "$REPLAY" -q --config "$EXAMPLES_DIR/marenostrum.cfg" "$dir" >"$scratch/reused.replay" 2>&1
  left=$(cd "$dir" && ls patterns.* overlap-* authentic-p2p.* replay/overlap-* 2>/dev/null | tr '\n' ' ')
  if [ -n "$second" ] && [ "$second" != "$first" ] && [ -z "$left" ] &&
     [ "$(saved_run "$dir/replay/authentic.json")" = "$second" ] &&
     "$REPLAY" --validate "$dir" >/dev/null 2>&1; then
    ok "a trace directory used again holds the new run only (runs $first, then $second)"
  else
    not_ok "a trace directory used again" "runs '$first' '$second', left of the first: '$left'"
  fi
else
  not_ok "a trace directory used again" "the first run (--overlap=yes, run '$first'): $(tail -3 "$dir.log" "$scratch/reused.replay" | tr '\n' ' ')"
fi

# ---- Calibration: a machine file with the measured MIPS rate, which replay uses -----------------
# (How well it predicts native runs is a measurement, not a test: bench/calibration.sh.) For C
# and for Fortran, whose Open MPI bindings call PMPI_Init and PMPI_Finalize directly.
calibrate="$(dirname "$TAREADOR")/tareador-calibrate"
for program in "${mpis[0]}/ring" openmpi/ring_f; do
  mpi=${program%%/*}
  [ -x "$EXAMPLES_BUILD/$program" ] || continue
  name="tareador-calibrate ($program)"
  if "$calibrate" -n 2 -r 1 -m "$(launcher "$mpi")" -o "$scratch/here.toml" \
       "$EXAMPLES_BUILD/$program" 200 >"$scratch/calibrate.log" 2>&1; then
    read -r instructions seconds mips < <(sed -n \
      's/^tareador-calibrate: \([0-9]*\) instructions (busiest rank) in \([0-9.e-]*\) s: \([0-9]*\) MIPS$/\1 \2 \3/p' \
      "$scratch/calibrate.log")
    run "$mpi" "${program#*/}" 2 "$scratch/calibrated" 200
    replayed=$("$REPLAY" --config "$scratch/here.toml" "$scratch/calibrated" --json - |
      python3 -c 'import json,sys; print(json.load(sys.stdin)["traces"][0]["total_time_s"])')
    # The replay turns the busiest rank's instructions into seconds at the calibrated rate.
    if [ -n "${mips:-}" ] && grep -q "^mips = $mips$" "$scratch/here.toml" &&
       awk -v i="$instructions" -v s="$seconds" -v m="$mips" -v r="$replayed" 'BEGIN {
         rate = i / s / 1e6; exit !(m >= 1 && (m - rate) ^ 2 <= 0.25 + 1e-9 * rate ^ 2 &&
                                   r >= i / (m * 1e6) * 0.999) }'; then
      ok "$name: $mips MIPS written to the machine file, used by replay ($replayed s)"
    else
      not_ok "$name" "mips '${mips:-}', replayed '$replayed': $(cat "$scratch/calibrate.log" "$scratch/here.toml" | tr '\n' ' ')"
    fi
  else
    not_ok "$name" "it failed: $(tail -3 "$scratch/calibrate.log" | tr '\n' ' ')"
  fi
done
if "$calibrate" --help | grep -q '^  *tareador-calibrate \[-n RANKS\]' &&
   ! "$calibrate" --bogus >/dev/null 2>&1 && ! "$calibrate" -x >/dev/null 2>&1; then
  ok "tareador-calibrate --help prints the usage; a bad option is an error"
else
  not_ok "tareador-calibrate options" "$("$calibrate" --help 2>&1 | head -3 | tr '\n' ' ')"
fi

# ---- Options found wrong once read: the run stops before the program runs -----------------------
touch "$scratch/not-a-directory"
bad_options=(
  "--trace-dir=$scratch/not-a-directory/set|cannot create the directory"
  "--trace-dir=/proc|cannot create the directory /proc, or write into it"
  "--potential-tasks=functions --overlap=yes|--overlap=yes is not for --potential-tasks"
  "--comm=function --sample-error=0|expected z > 0, an error > 0"
)
for case in "${bad_options[@]}"; do
  options=${case%%|*} said=${case#*|}
  # shellcheck disable=SC2086 # the options are a list
  timeout 120 "$TAREADOR" -q $options "$VG_TESTS_BUILD/taskdeps" >"$scratch/badopt.out" 2>&1
  status=$?
  if [ "$status" = 1 ] && grep -qF -- "$said" "$scratch/badopt.out" &&
     ! grep -q 'task instances' "$scratch/badopt.out"; then
    ok "$options: exit 1 before the program runs, saying '$said'"
  else
    not_ok "$options" "exit $status: $(head -4 "$scratch/badopt.out" | tr '\n' ' ')"
  fi
done

echo "# $passed passed, $failed failed"
[ "$failed" -eq 0 ]
