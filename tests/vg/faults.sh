#!/usr/bin/env bash
# Runs that die leave trace sets that read and replay: a rank that crashes (SIGSEGV) or calls
# MPI_Abort, one rank killed without warning (SIGKILL), the whole job killed, a full disk, a tasks
# program killed in the middle; and what such deaths leave in the files (a stream cut in the middle
# of a line, a stream or a rank manifest never written). Each set must be accepted by
# `replay --validate` as valid and truncated, and `replay` must simulate what was traced and write
# its timeline, saying what the truncation left unfinished.
#
# Environment (set by `make check`): TAREADOR, REPLAY, EXAMPLES_BUILD, TASK_EXAMPLES_BUILD,
# TESTS_DIR, EXAMPLES_DIR.
set -u
: "${TAREADOR:?}" "${REPLAY:?}" "${EXAMPLES_BUILD:?}" "${TASK_EXAMPLES_BUILD:?}" "${TESTS_DIR:?}"
: "${EXAMPLES_DIR:?}"
. "$TESTS_DIR/vg/common.sh"

mpis=()
command -v mpirun.openmpi >/dev/null && [ -d "$EXAMPLES_BUILD/openmpi" ] && mpis+=(openmpi)
command -v mpiexec.mpich >/dev/null && [ -d "$EXAMPLES_BUILD/mpich" ] && mpis+=(mpich)
[ ${#mpis[@]} -gt 0 ] || { echo "not ok - no MPI and examples to test with"; exit 1; }
machine="$EXAMPLES_DIR/marenostrum.cfg"

# replays_truncated NAME DIR [REPLAY OPTIONS...]: the set is valid and truncated, and replays to a
# timeline whose notes say why it stops.
replays_truncated() {
  local name=$1 dir=$2
  shift 2
  if ! "$REPLAY" --validate "$dir" "$@" >"$scratch/validate" 2>&1 ||
     ! grep -q 'valid, truncated: rank' "$scratch/validate"; then
    not_ok "$name" "validate: $(head -4 "$scratch/validate" | tr '\n' ' ')"
    return 1
  fi
  rm -f "$scratch/timeline.prv"
  if ! "$REPLAY" --config "$machine" "$dir" "$@" --prv "$scratch/timeline.prv" \
       >"$scratch/replay" 2>&1 || ! grep -q 'truncated' "$scratch/replay" ||
     ! grep -q '^1:' "$scratch/timeline.prv" 2>/dev/null; then
    not_ok "$name" "replay: $(head -6 "$scratch/replay" | tr '\n' ' ')"
    return 1
  fi
}

# wait_for_records FILE... : until every FILE holds 100 lines (the tool writes them out at least
# every quarter of a second); false after two minutes.
wait_for_records() {
  local i f ready
  for ((i = 0; i < 1200; i++)); do
    ready=1
    for f in "$@"; do
      [ -f "$f" ] && [ "$(wc -l <"$f")" -ge 100 ] || ready=0
    done
    [ $ready -eq 1 ] && return 0
    sleep 0.1
  done
  return 1
}

# ranks_of DIR: the pids of the tool's processes writing into DIR.
ranks_of() { pgrep -f -- "--tool=tareador.*--trace-dir=$1 "; }

# start_ring MPI RANKS DIR: a ring that runs far longer than the test, in the background.
start_ring() {
  rm -rf "$3"
  timeout 300 "$(launcher "$1")" -np "$2" "$TAREADOR" --trace-dir="$3" \
    "$EXAMPLES_BUILD/$1/ring" 10000000 >"$3.log" 2>&1 &
}

# ---- A rank crashes, or calls MPI_Abort: marked truncated with the reason ----------------------
for mpi in "${mpis[@]}"; do
  for fault in segv abort; do
    dir="$scratch/$mpi-$fault"
    run "$mpi" faults 2 "$dir" "$fault"
    want=$([ "$fault" = segv ] && echo 'killed by signal 11' || echo 'MPI_Abort with error code 3')
    if ! grep -q 'status = "truncated"' "$dir/rank-1.toml" 2>/dev/null ||
       ! grep -q "$want" "$dir/rank-1.toml"; then
      not_ok "faults $fault ($mpi)" "rank 1 not marked truncated with '$want': $(cat "$dir/rank-1.toml" 2>&1 | tr '\n' ' ')"
      continue
    fi
    replays_truncated "faults $fault ($mpi)" "$dir" &&
      if grep -q "rank 1 truncated: $want" "$scratch/replay"; then
        ok "faults $fault ($mpi): truncated, '$want', valid, replayed to a timeline"
      else
        not_ok "faults $fault ($mpi)" "the replay does not say why: $(head -6 "$scratch/replay" | tr '\n' ' ')"
      fi
  done
done
mpi=${mpis[0]}

# ---- A job killed while a rank waits (a deadlock ended by a time limit): the call is named -------
dir="$scratch/hang"
rm -rf "$dir"
timeout 300 "$(launcher "$mpi")" -np 2 "$TAREADOR" --trace-dir="$dir" "$EXAMPLES_BUILD/$mpi/faults" \
  hang >"$dir.log" 2>&1 &
for ((i = 0; i < 600; i++)); do
  grep -q 'MPI_Barrier' "$dir/authentic.1.trc" 2>/dev/null && break  # (then it waits)
  sleep 0.1
done
sleep 1
kill -TERM $(ranks_of "$dir") 2>/dev/null
wait
if grep -q 'reason = "killed by a signal, inside MPI_Recv"' "$dir/rank-1.toml" 2>/dev/null; then
  ok "a job killed while rank 1 waits ($mpi): its manifest names the call it was in"
else
  not_ok "a job killed while rank 1 waits ($mpi)" "$(grep -E '^(status|reason)' "$dir/rank-1.toml" 2>&1 | tr '\n' ' ')"
fi

# ---- A rank killed without warning while it waits: what it did until then is on disk, and its
# manifest names the call it waited in ---------------------------------------------------------
# (its second barrier ended within a quarter of a second of the first, so only the wait that
# follows half a second later can write it out: Open MPI's waits make system calls, MPICH's poll
# without any)
for m in "${mpis[@]}"; do
  dir="$scratch/$m-stall"
  rm -rf "$dir"
  timeout 300 "$(launcher "$m")" -np 2 "$TAREADOR" --trace-dir="$dir" "$EXAMPLES_BUILD/$m/faults" \
    stall >"$dir.log" 2>&1 &
  for ((i = 0; i < 600; i++)); do
    [ "$(grep -c 'MPI_Barrier' "$dir/authentic.1.trc" 2>/dev/null)" = 2 ] &&
      grep -q 'reason = "inside MPI_Recv"' "$dir/rank-1.toml" && break
    sleep 0.1
  done
  kill -KILL $(ranks_of "$dir") 2>/dev/null
  wait
  barriers=$(grep -c 'MPI_Barrier' "$dir/authentic.1.trc" 2>/dev/null)
  if [ "$barriers" != 2 ] || ! grep -q 'status = "running"' "$dir/rank-1.toml" ||
     ! grep -q 'reason = "inside MPI_Recv"' "$dir/rank-1.toml"; then
    not_ok "SIGKILL of a blocked rank ($m)" "$barriers of 2 barriers on disk; $(grep -E '^(status|reason)' "$dir/rank-1.toml" 2>&1 | tr '\n' ' ')"
  elif replays_truncated "SIGKILL of a blocked rank ($m)" "$dir"; then
    if grep -q 'rank 1 truncated: its process did not finish .*, inside MPI_Recv' "$scratch/replay"; then
      ok "SIGKILL of a rank blocked in MPI_Recv ($m): both barriers before it are on disk, the manifest and the replay name the call"
    else
      not_ok "SIGKILL of a blocked rank ($m)" "the replay does not name the call: $(grep truncated "$scratch/replay" | tr '\n' ' ')"
    fi
  fi
done

# ---- A rank killed without warning while it computes: what it did until then is on disk -------
# (its two barriers ended within a quarter of a second, and no record follows to write them)
dir="$scratch/spin"
rm -rf "$dir"
timeout 300 "$(launcher "$mpi")" -np 2 "$TAREADOR" --trace-dir="$dir" "$EXAMPLES_BUILD/$mpi/faults" \
  spin >"$dir.log" 2>&1 &
for ((i = 0; i < 600; i++)); do
  [ "$(grep -c 'MPI_Barrier' "$dir/authentic.1.trc" 2>/dev/null)" = 2 ] && break
  sleep 0.1
done
kill -KILL $(ranks_of "$dir") 2>/dev/null
wait
barriers=$(grep -c 'MPI_Barrier' "$dir/authentic.1.trc" 2>/dev/null)
if [ "$barriers" = 2 ] && grep -q 'reason = ""' "$dir/rank-1.toml" &&
   replays_truncated "SIGKILL of a computing rank ($mpi)" "$dir"; then
  ok "SIGKILL of a rank that computes ($mpi): both barriers before it are on disk"
elif [ "$barriers" != 2 ]; then
  not_ok "SIGKILL of a computing rank ($mpi)" "$barriers of 2 barriers on disk"
fi

# ---- One rank killed without warning: its manifest says it did not finish -----------------------
dir="$scratch/kill-one"
start_ring "$mpi" 3 "$dir"
if wait_for_records "$dir"/authentic.{0,1,2}.trc; then
  kill -KILL "$(ranks_of "$dir" | tail -1)"
  wait
  if [ "$(grep -l 'status = "running"' "$dir"/rank-*.toml | wc -l)" -ge 1 ] &&
     replays_truncated "SIGKILL of one rank" "$dir"; then
    ok "SIGKILL of one rank ($mpi): its manifest says it did not finish; valid, truncated, replayed to a timeline"
  fi
else
  not_ok "SIGKILL of one rank" "the ring wrote no records: $(tail -3 "$dir.log" | tr '\n' ' ')"
fi

# ---- The whole job killed: no rank writes its end ----------------------------------------------
dir="$scratch/kill-all"
start_ring "$mpi" 2 "$dir"
if wait_for_records "$dir"/authentic.{0,1}.trc; then
  kill -KILL $(ranks_of "$dir")
  wait
  if [ "$(grep -l 'status = "running"' "$dir"/rank-*.toml | wc -l)" -eq 2 ] &&
     replays_truncated "SIGKILL of the job" "$dir" &&
     grep -q 'the trace stops early' "$scratch/replay"; then
    ok "SIGKILL of the whole job ($mpi): valid, truncated, replayed to a timeline with what never completed"
  fi
else
  not_ok "SIGKILL of the job" "the ring wrote no records: $(tail -3 "$dir.log" | tr '\n' ' ')"
fi

# ---- What a death leaves in the files: a cut line, a missing stream, a missing manifest ---------
if [ -f "$dir/authentic.0.trc" ]; then
  cp -r "$dir" "$scratch/cut"
  truncate -s -3 "$scratch/cut/authentic.0.trc"
  [ "$(tail -c 1 "$scratch/cut/authentic.0.trc")" = "" ] && truncate -s -1 "$scratch/cut/authentic.0.trc"
  if replays_truncated "a cut last line" "$scratch/cut" &&
     grep -q 'rank 0: the last line of .*authentic.0.trc is incomplete' "$scratch/replay"; then
    ok "a stream cut in the middle of a line: the line is left out and the notes say so"
  fi
  cp -r "$dir" "$scratch/missing"
  rm "$scratch/missing/authentic.1.trc" "$scratch/missing/rank-0.toml"
  if replays_truncated "a missing stream and manifest" "$scratch/missing" &&
     grep -q 'rank 1 has no authentic.1.trc' "$scratch/replay" &&
     grep -q 'rank 0 truncated: no rank manifest' "$scratch/replay"; then
    ok "a rank without its stream, a rank without its manifest (its calls' names read from its stream)"
  fi
fi

# ---- A full disk: the writes fail, the set says where it stops ----------------------------------
dir="$scratch/full"
rm -rf "$dir"
# (A file size limit fails writes as a full disk does, with SIGXFSZ ignored.)
timeout 300 "$(launcher "$mpi")" -np 2 bash -c "trap '' XFSZ; ulimit -f 64; exec \"\$0\" \"\$@\"" \
  "$TAREADOR" --trace-dir="$dir" "$EXAMPLES_BUILD/$mpi/ring" 3000 >"$dir.log" 2>&1
if grep -q "cannot write .*authentic.0.trc (is the disk full?): the trace stops there" "$dir.log" &&
   grep -q 'reason = "cannot write .*authentic.0.trc (is the disk full?)"' "$dir/rank-0.toml" &&
   replays_truncated "full disk" "$dir"; then
  ok "a full disk ($mpi): one message naming the file, the rank marked truncated with it; valid, replayed"
elif ! grep -q "cannot write" "$dir.log"; then
  not_ok "full disk" "no write error reported: $(tail -3 "$dir.log" | tr '\n' ' ')"
fi

# ---- A tasks program killed in the middle ------------------------------------------------------
dir="$scratch/tasks-kill"
rm -rf "$dir"
timeout 300 "$TAREADOR" --trace-dir="$dir" "$TASK_EXAMPLES_BUILD/cholesky" 40 >"$dir.log" 2>&1 &
if wait_for_records "$dir/tasks.0.trc"; then
  kill -KILL $(ranks_of "$dir")
  wait 2>/dev/null
  if replays_truncated "SIGKILL of a tasks program" "$dir" --kind tasks; then
    ok "SIGKILL of a tasks program: valid, truncated, its tasks replayed to a timeline"
  fi
else
  not_ok "SIGKILL of a tasks program" "no sections written: $(tail -3 "$dir.log" | tr '\n' ' ')"
fi

# ---- Two runs into one directory at once: the second leaves the first's set alone -------------
dir="$scratch/shared"
rm -rf "$dir" "$scratch/first.go"
mkfifo "$scratch/first.go"
timeout 300 "$TAREADOR" --trace-dir="$dir" "${VG_TESTS_BUILD:?}/waiting" <"$scratch/first.go" \
  >"$dir.first.log" 2>&1 &
exec 7>"$scratch/first.go"  # (the first run waits for a line on it)
for ((i = 0; i < 600; i++)); do [ -f "$dir/rank-0.lock" ] && break; sleep 0.1; done
timeout 300 "$TAREADOR" --trace-dir="$dir" "$VG_TESTS_BUILD/waiting" </dev/null >"$dir.second.log" 2>&1
echo >&7
exec 7>&-
wait
if grep -q 'rank 0: not traced: process [0-9]* (another run) is writing rank 0 of --trace-dir' "$dir.second.log" &&
   grep -q 'waiting: 523776' "$dir.second.log" && grep -q 'status = "complete"' "$dir/rank-0.toml" &&
   [ "$(grep -c '^task' "$dir/tasks.0.trc")" = 3 ] && [ ! -e "$dir/rank-0.lock" ] &&
   "$REPLAY" --validate "$dir" >/dev/null 2>&1; then
  ok "two runs into one directory: the second is not traced and says why; the first's set is whole and valid"
else
  not_ok "two runs into one directory" "second: $(tail -2 "$dir.second.log" | tr '\n' ' '); first: $(grep -E '^status' "$dir/rank-0.toml" 2>&1)"
fi

echo "# $passed passed, $failed failed"
[ "$failed" -eq 0 ]
