#!/usr/bin/env bash
# Power cuts on one machine: Kumiko's RocksDB store on lossyfs (scripts/lib/lossyfs.py), a FUSE
# file system that forgets, at each cut, every byte not fsynced and every name change whose
# directory was not fsynced (docs/durability.md, "Power cuts").
#
# 1. Self-test of the layer: files in each durability state, a cut, exactly the durable state back
#    (so that the checks below cannot pass because nothing was lost).
# 2. `--durability fsync`: FSYNC_ROUNDS cuts during a boto3 load (PutItem, UpdateItem ADD,
#    BatchWriteItem, TransactWriteItems); each cut is kill -9 of the server, then the unmount that
#    drops what was not durable, then a fresh mount and server. No acknowledged write may be lost.
#    The load pauses once early on, so that the server flushes and compacts under it, and every
#    other round is cut as soon as a new table file appears. Then FSYNC_TORN_ROUNDS more where a
#    cut keeps a random part of each file's unsynced tail, so the log may end mid-record.
# 3. `--durability process` with the kernel's writeback modelled (unsynced data is written back
#    WRITEBACK_SECONDS after it was first dirtied, as Linux does after about 30 s): only writes
#    acknowledged in the last WRITEBACK_SECONDS (plus the layer's writeback period) may be lost.
#    Its cuts keep a random part of the unsynced tails too.
# 4. `--durability process` with no writeback at all: the loss is counted, not bounded.
# In every run: the store opens, no transaction is half-applied, and what survives of each writer
# is a prefix of its writes (a point in time).
#
#   bash scripts/smoke-powercut.sh       # closes with "smoke-powercut: N passed, M failed"
# Needs root (or fusermount), /dev/fuse and Debian's python3-fusepy (.ci/run installs it).
# Experiments: KUMIKO_POWERCUT_FSYNC_LOSSYFS_ARGS adds lossyfs options to the fsync run (e.g.
# --ignore-dir-fsync, which must make it fail); KUMIKO_POWERCUT_ONLY_FSYNC=1 stops after it.
set -uo pipefail

# shellcheck source=scripts/lib/smoke-common.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/smoke-common.sh"
SMOKE_SUMMARY_LABEL=smoke-powercut

LIB="$SMOKE_REPO_ROOT/scripts/lib"
TABLE=kumiko-smoke-powercut
FSYNC_ROUNDS=3
FSYNC_TORN_ROUNDS=2
PROCESS_ROUNDS=3
WRITEBACK_SECONDS=2
# The layer writes back every 0.5 s; a write acknowledged just before a writeback may have been
# dirtied up to that much earlier, the client stamps its acknowledgement after the answer, and a
# busy machine delays the writeback thread: 2 s of slack.
LOSS_WINDOW_SECONDS=4
# Load before the kill, from the first LOAD_START_ACKS acknowledgements on: long enough for writes
# to be in flight and, in process mode, for the writeback to have made the earlier ones durable;
# short enough to keep the script to minutes.
FSYNC_LOAD_SECONDS_MIN=3
PROCESS_LOAD_SECONDS_MIN=6
LOAD_SECONDS_SPREAD=3
# The client stops by itself after this, should the kill not end it.
LOAD_SECONDS_MAX=60
LOAD_START_ACKS=20
LOAD_START_WAIT_SECONDS=30
FLUSH_WAIT_SECONDS=10
MOUNT_WAIT_SECONDS=10
UNMOUNT_WAIT_SECONDS=30

LOSSYFS_PID=""
MOUNT_POINT=""
MOUNT_COUNT=0

# mount_lossy DIR [LOSSYFS-ARGS...]: mounts DIR/backing at DIR/mnt through lossyfs. A --torn-seed S
# becomes S plus the number of mounts so far, so that each cut tears differently.
mount_lossy() {
  local dir=$1 arg
  shift
  local -a args=()
  for arg in "$@"; do
    if [[ ${args[*]: -1} == --torn-seed ]]; then arg=$((arg + MOUNT_COUNT)); fi
    args+=("$arg")
  done
  MOUNT_COUNT=$((MOUNT_COUNT + 1))
  mkdir -p "$dir/backing" "$dir/stash" "$dir/mnt"
  rm -f "$dir/power-off"
  MOUNT_POINT="$dir/mnt"
  "$PY" "$LIB/lossyfs.py" "$dir/backing" "$dir/stash" "$MOUNT_POINT" --report "$dir/cut.json" \
    --power-off-file "$dir/power-off" "${args[@]}" >>"$dir/lossyfs.log" 2>&1 &
  LOSSYFS_PID=$!
  local deadline=$((SECONDS + MOUNT_WAIT_SECONDS))
  while ((SECONDS < deadline)); do
    mountpoint -q "$MOUNT_POINT" && return 0
    kill -0 "$LOSSYFS_PID" 2>/dev/null || break
    sleep 0.1
  done
  fail "lossyfs mounts $MOUNT_POINT within ${MOUNT_WAIT_SECONDS}s"
  sed 's/^/    | /' "$dir/lossyfs.log"
  return 1
}

# cut_power DIR NAME: unmounts (the cut), waits for lossyfs to undo what was not durable, and
# checks its report: no internal error. Prints what the cut dropped.
cut_power() {
  local dir=$1 name=$2 deadline=$((SECONDS + UNMOUNT_WAIT_SECONDS))
  rm -f "$dir/cut.json"
  while mountpoint -q "$MOUNT_POINT" && ((SECONDS < deadline)); do
    umount "$MOUNT_POINT" 2>/dev/null || fusermount -u "$MOUNT_POINT" 2>/dev/null || sleep 0.2
  done
  while kill -0 "$LOSSYFS_PID" 2>/dev/null && ((SECONDS < deadline)); do
    sleep 0.1
  done
  if kill -0 "$LOSSYFS_PID" 2>/dev/null || [[ ! -s $dir/cut.json ]]; then
    fail "$name: lossyfs did not finish the cut within ${UNMOUNT_WAIT_SECONDS}s"
    sed 's/^/    | /' "$dir/lossyfs.log"
    return 1
  fi
  LOSSYFS_PID=""
  local report errors
  report=$(cat "$dir/cut.json")
  errors=$("$PY" -c 'import json,sys; print(json.load(sys.stdin)["errors"])' <<<"$report")
  expect_eq "$name: lossyfs cut with no internal error ($report)" 0 "$errors"
}

# bytes_dropped DIR: from the last cut's report.
bytes_dropped() {
  "$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["bytes_dropped"])' "$1/cut.json"
}

client() {
  local out="$SMOKE_TMP/client.out" status=0
  "$PY" "$LIB/powercut_client.py" "$@" >"$out" 2>&1 || status=$?
  report_client_output "$out" "$status" "powercut_client $1"
  return "$status"
}

self_test() {
  local dir="$SMOKE_TMP/selftest"
  mount_lossy "$dir" || return 1
  client selftest-write "$MOUNT_POINT" || { cut_power "$dir" "self-test"; return 1; }
  cut_power "$dir" "self-test" || return 1
  local dropped
  dropped=$(bytes_dropped "$dir")
  if ((dropped > 0)); then pass "self-test: the cut dropped $dropped unsynced bytes"; else
    fail "self-test: the cut dropped nothing"
  fi
  mount_lossy "$dir" || return 1
  client selftest-check "$MOUNT_POINT"
  cut_power "$dir" "self-test, second mount"
}

# start_on_mount NAME DURABILITY: a server on the mounted store.
start_on_mount() {
  local port
  port=$(free_port)
  ENDPOINT="http://127.0.0.1:$port"
  start_and_wait "$1" "$port" "$SMOKE_TMP/server.log" --data-dir "$MOUNT_POINT" --durability "$2"
}

# table_files DIR: the names of the store's table files, one a line.
table_files() {
  find "$1/backing" -maxdepth 1 -name '*.sst' -printf '%f\n' | sort
}

# await_new_table_file DIR BEFORE SECONDS: true as soon as a table file not in BEFORE (a list from
# table_files) appears, that is when a flush or compaction has begun writing one.
await_new_table_file() {
  local dir=$1 before=$2 deadline=$((SECONDS + $3))
  while ((SECONDS < deadline)); do
    if [[ -n $(comm -13 <(printf '%s\n' "$before") <(table_files "$dir")) ]]; then
      return 0
    fi
    sleep 0.05
  done
  return 1
}

# one_round DIR DURABILITY ROUND LOAD_SECONDS MODE [LOSSYFS-ARGS...]: load, kill -9, cut, remount,
# restart, verify. The server of the next round is the one started here. An even round under
# fsync is cut as soon as a new table file appears (a flush or compaction under way: the load
# pauses early on, which starts the server's idle compaction), if one does within
# FLUSH_WAIT_SECONDS.
one_round() {
  local dir=$1 durability=$2 round=$3 load_seconds=$4 mode=$5
  shift 5
  local tables_before
  tables_before=$(table_files "$dir")
  "$PY" "$LIB/powercut_client.py" load "$ENDPOINT" "$TABLE" "r$round" "$dir/acks-r$round.jsonl" \
    "$LOAD_SECONDS_MAX" >"$dir/load-r$round.out" 2>&1 &
  local load_pid=$!
  # The load time counts from the first acknowledgements: a busy machine may take seconds to
  # start the client.
  local deadline=$((SECONDS + LOAD_START_WAIT_SECONDS))
  while (($(wc -l <"$dir/acks-r$round.jsonl" 2>/dev/null || echo 0) < LOAD_START_ACKS)) &&
    ((SECONDS < deadline)) && kill -0 "$load_pid" 2>/dev/null; do
    sleep 0.1
  done
  local when="after ${load_seconds}s of load"
  if [[ $durability == fsync ]] && ((round % 2 == 0)); then
    if await_new_table_file "$dir" "$tables_before" "$FLUSH_WAIT_SECONDS"; then
      when="as soon as a new table file appeared"
    else
      when="after ${FLUSH_WAIT_SECONDS}s of load (no new table file appeared)"
    fi
  else
    sleep "$load_seconds"
  fi
  # The power goes off (lossyfs writes nothing back from now on), and the server dies with it.
  local cut_at
  cut_at=$(date +%s.%N)
  touch "$dir/power-off"
  kill_server_hard
  wait "$load_pid"
  report_client_output "$dir/load-r$round.out" $? "load round $round"
  cut_power "$dir" "$durability round $round: cut $when" || return 1
  echo "  the cut dropped $(bytes_dropped "$dir") bytes"
  mount_lossy "$dir" "$@" || return 1
  start_on_mount "$durability round $round: the store opens after the cut" "$durability" || return 1
  [[ $mode == process:* ]] && mode="$mode:$cut_at"
  client verify "$ENDPOINT" "$TABLE" "$mode" "$dir/state.json" "$dir"/acks-r*.jsonl
}

# run_cuts NAME DURABILITY ROUNDS LOAD_SECONDS_MIN MODE [LOSSYFS-ARGS...]: a run of cuts in
# SMOKE_TMP/NAME; whatever happened, its server is stopped and its file system unmounted after.
run_cuts() {
  local dir="$SMOKE_TMP/$1"
  echo "smoke-powercut: $1: --durability $2, $3 cuts, lossyfs ${*:6}"
  run_cuts_in "$dir" "$@"
  stop_server
  if [[ -n $LOSSYFS_PID ]]; then
    cut_power "$dir" "$1: the last cut"
  fi
}

run_cuts_in() {
  local dir=$1 name=$2 durability=$3 rounds=$4 load_min=$5 mode=$6 round
  shift 6
  mount_lossy "$dir" "$@" || return 1
  # The table is created under the run's own durability. In process mode nothing syncs the log
  # while serving, so the clean stop and the cut after it check that a clean stop syncs it: else the
  # cut takes the table, and the first round's load fails on it.
  start_on_mount "$name: server starts on lossyfs" "$durability" || return 1
  client create "$ENDPOINT" "$TABLE" || return 1
  if [[ $durability != fsync ]]; then
    stop_server
    cut_power "$dir" "$name: cut after a clean stop (the table survives it)" || return 1
    mount_lossy "$dir" "$@" || return 1
    start_on_mount "$name: server restarts with --durability $durability" "$durability" || return 1
  fi
  for ((round = 1; round <= rounds; round++)); do
    one_round "$dir" "$durability" "$round" "$((load_min + RANDOM % (LOAD_SECONDS_SPREAD + 1)))" \
      "$mode" "$@" || return 1
  done
}

powercut_cleanup() {
  local status=$?
  stop_server
  if [[ -n $MOUNT_POINT ]] && mountpoint -q "$MOUNT_POINT"; then
    umount "$MOUNT_POINT" 2>/dev/null || umount -l "$MOUNT_POINT" 2>/dev/null || true
  fi
  if [[ -n $LOSSYFS_PID ]]; then
    kill "$LOSSYFS_PID" 2>/dev/null
    # It undoes the cut's changes in SMOKE_TMP, which smoke_cleanup then removes.
    local deadline=$((SECONDS + UNMOUNT_WAIT_SECONDS))
    while kill -0 "$LOSSYFS_PID" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.1; done
  fi
  (exit "$status")
  smoke_cleanup
}
trap powercut_cleanup EXIT

preflight() {
  if [[ ! -e /dev/fuse ]]; then
    fail "FUSE: /dev/fuse is missing (a container needs --device /dev/fuse)"
    return 1
  fi
  if ! "$PY" -c 'import fusepy' 2>/dev/null; then
    fail "FUSE: $PY cannot import fusepy (install Debian's python3-fusepy)"
    return 1
  fi
}

main() {
  echo "smoke-powercut: $("$PY" --version 2>&1) at $PY"
  preflight || { smoke_summary; exit 1; }
  self_test || { smoke_summary; exit 1; }
  build_server || { smoke_summary; exit 1; }
  # shellcheck disable=SC2086 # the experiment's lossyfs options are words
  run_cuts fsync fsync "$FSYNC_ROUNDS" "$FSYNC_LOAD_SECONDS_MIN" fsync ${KUMIKO_POWERCUT_FSYNC_LOSSYFS_ARGS:-}
  # A seed per run, printed, so that a failing torn cut can be replayed.
  local seed=$RANDOM
  run_cuts fsync-torn fsync "$FSYNC_TORN_ROUNDS" "$FSYNC_LOAD_SECONDS_MIN" fsync --torn-seed "$seed"
  [[ ${KUMIKO_POWERCUT_ONLY_FSYNC:-} == 1 ]] && { smoke_summary; return; }
  run_cuts process-writeback process "$PROCESS_ROUNDS" "$PROCESS_LOAD_SECONDS_MIN" \
    "process:$LOSS_WINDOW_SECONDS" --writeback-seconds "$WRITEBACK_SECONDS" --torn-seed "$((seed + 1))"
  run_cuts process-no-writeback process 1 "$PROCESS_LOAD_SECONDS_MIN" "process:none"
  smoke_summary
}

main "$@"
