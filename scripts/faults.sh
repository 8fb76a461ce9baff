#!/usr/bin/env bash
# Fault harness: checked workloads against real Kumiko servers while faults are injected, each
# history judged by a checker (kumiko-faults, docs/reliability.md).
#
#   bash scripts/faults.sh --short                 # CI-sized: Ignite, registers and bank, ~4 minutes
#   bash scripts/faults.sh --store ignite --seconds 300 --workloads register,bank,list-append,streams
#   bash scripts/faults.sh --network --seconds 120     # Ignite, with network faults too (root)
#   bash scripts/faults.sh --store rocksdb --seconds 60
#
# Stores:
#   ignite   3 Ignite nodes and 2 Kumiko servers on them (bin/kumiko ignite start, serve --store
#            ignite); clients spread every operation over both servers. Faults: kill -9 and restart
#            of a server, SIGSTOP/SIGCONT of a server, SIGSTOP/SIGCONT of an Ignite node, kill -9
#            and restart of an Ignite node; with --network also an Ignite node partitioned from
#            everything (then restarted: the others refuse it as stale), a server cut off from the
#            nodes (its clients still reach it), and lossy links between the nodes (NET_LOSS_PERCENT,
#            5; a node the others then refuse is restarted). Network faults run the whole harness in a network namespace of its own (root,
#            iptables; scripts/lib/faults-net.sh).
#   rocksdb  1 server on a RocksDB directory (one process owns it). Faults: kill -9 and restart of
#            the server, SIGSTOP/SIGCONT of it.
# Each workload runs --seconds while the nemesis cycles through the faults (one at a time: a fault
# held FAULT_HOLD_SECONDS (5; 3 with --short), then QUIET_SECONDS (4; 2) healed), then everything is healed and the workload
# reads every key it used through each server; the checker judges the history. Histories and logs
# stay in the run's directory with --keep. Closes with "faults: N passed, M failed".
set -uo pipefail

# shellcheck source=scripts/lib/smoke-common.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/smoke-common.sh"
SMOKE_SUMMARY_LABEL=faults
SERVER_START_TIMEOUT_SECONDS=90

STORE=ignite
SECONDS_PER_WORKLOAD=60
WORKLOADS=register,bank,list-append,streams
THREADS=6
CALL_TIMEOUT_MILLIS=3000
FINAL_SECONDS=90
FAULT_HOLD_SECONDS=5
QUIET_SECONDS=4
SEED=$RANDOM
IGNITE_START_SECONDS=360 # 1-2 minutes on an idle 2-core machine; over 4 under a load average of 19
CHECK_SECONDS=300

usage() {
  sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
  echo "options: --store ignite|rocksdb --seconds N (per workload, 5-86400) --workloads LIST --threads N"
  echo "         --faults kill-server,pause-server,kill-node,pause-node,partition-node,cut-server,lossy-links"
  echo "         --network (the default faults and the three network ones) --seed N --short --keep"
  exit 2
}

FAULTS=""
NETWORK=0
ARGS=("$@")
while (($#)); do
  case $1 in
    --store) STORE=$2; shift 2 ;;
    --seconds) SECONDS_PER_WORKLOAD=$2; shift 2 ;;
    --workloads) WORKLOADS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --faults) FAULTS=$2; shift 2 ;;
    --network) NETWORK=1; shift ;;
    --seed) SEED=$2; shift 2 ;;
    # CI-sized: a pause and a kill -9 in each workload's 30 s (a server's restart on Ignite takes
    # 5-15 s on a busy 2-core machine, and the nemesis waits for it before the next fault).
    --short)
      STORE=ignite SECONDS_PER_WORKLOAD=30 WORKLOADS=register,bank FINAL_SECONDS=60
      [[ -z $FAULTS ]] && FAULTS=pause-server,kill-server,pause-node
      FAULT_HOLD_SECONDS=3 QUIET_SECONDS=2
      shift
      ;;
    --keep) export KUMIKO_SMOKE_KEEP=1; shift ;;
    -h | --help) usage ;;
    *) echo "faults: unknown option $1" >&2; usage ;;
  esac
done
[[ $STORE == ignite || $STORE == rocksdb ]] || usage
[[ $SECONDS_PER_WORKLOAD =~ ^[0-9]+$ ]] && ((SECONDS_PER_WORKLOAD >= 5 && SECONDS_PER_WORKLOAD <= 86400)) || usage
if [[ -z $FAULTS ]]; then
  # Pauses first: they take a fixed time, a restart after kill -9 takes what the server's start takes.
  if [[ $STORE == ignite ]]; then FAULTS=pause-server,kill-server,pause-node,kill-node; else FAULTS=pause-server,kill-server; fi
  ((NETWORK)) && [[ $STORE == ignite ]] && FAULTS+=,partition-node,cut-server,lossy-links
fi
if [[ $FAULTS == *partition-node* || $FAULTS == *cut-server* || $FAULTS == *lossy-links* ]]; then
  [[ $STORE == ignite ]] || { echo "faults: network faults need --store ignite" >&2; exit 2; }
  # shellcheck source=scripts/lib/faults-net.sh
  source "$SMOKE_REPO_ROOT/scripts/lib/faults-net.sh"
  if [[ -z ${KUMIKO_FAULTS_NETNS:-} ]]; then
    net_faults_possible || { echo "faults: network faults need root, iptables, ss and cgroup v2 at $NET_CGROUP_ROOT" >&2; exit 2; }
    rm -rf "$SMOKE_TMP"
    exec env KUMIKO_FAULTS_NETNS=1 unshare -n -- bash "$(readlink -f "$0")" "${ARGS[@]}"
  fi
  net_setup
fi
IFS=, read -r -a FAULT_LIST <<<"$FAULTS"
IFS=, read -r -a WORKLOAD_LIST <<<"$WORKLOADS"
RUN_DIR=$SMOKE_TMP
IGNITE_DIR="$RUN_DIR/ignite"
FAULTS_CP="$SMOKE_REPO_ROOT/kumiko-faults/target/kumiko-faults-0.9.0.jar:$SMOKE_REPO_ROOT/kumiko-faults/target/lib/*"
SERVERS=() # names; each has $RUN_DIR/NAME.port, .pid, .log
NEMESIS_PID=""

cleanup_faults() {
  local status=$? name pid
  [[ -n $NEMESIS_PID ]] && kill "$NEMESIS_PID" 2>/dev/null
  for name in "${SERVERS[@]}"; do
    pid=$(cat "$RUN_DIR/$name.pid" 2>/dev/null) && { kill -CONT "$pid"; kill -KILL "$pid"; } 2>/dev/null
  done
  if [[ $STORE == ignite ]]; then
    for pid in $(cat "$IGNITE_DIR"/node-*/pid 2>/dev/null); do kill -CONT "$pid" 2>/dev/null; done
    timeout 60 "$KUMIKO_BIN" ignite stop --work-dir "$IGNITE_DIR" >/dev/null 2>&1 || true
    # A stop that timed out (bin/kumiko rebuilding a stale jar first, on a busy machine) leaves
    # nodes behind: they go the hard way.
    for pid in $(cat "$IGNITE_DIR"/node-*/pid 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
  fi
  [[ -n ${KUMIKO_FAULTS_NETNS:-} ]] && net_teardown
  (exit "$status")
  smoke_cleanup
}
trap cleanup_faults EXIT
trap 'exit 143' TERM INT

note() { printf '%s faults: %s\n' "$(date -u +%H:%M:%S)" "$*"; }

# --- servers ---------------------------------------------------------------------------------------
start_kumiko() { # NAME: starts (or restarts) the server on its port, writes its pid file
  local name=$1 port
  port=$(cat "$RUN_DIR/$name.port")
  if [[ $STORE == ignite ]]; then
    "$KUMIKO_BIN" serve --store ignite --ignite-endpoints "$ENDPOINTS" --port "$port" >>"$RUN_DIR/$name.log" 2>&1 &
  else
    "$KUMIKO_BIN" serve --data-dir "$RUN_DIR/data" --port "$port" >>"$RUN_DIR/$name.log" 2>&1 &
  fi
  echo $! >"$RUN_DIR/$name.pid"
}

await_kumiko() { # NAME: true once it answers HTTP
  local name=$1
  SERVER_PID=$(cat "$RUN_DIR/$name.pid")
  wait_ready "$(cat "$RUN_DIR/$name.port")"
  local ok=$?
  SERVER_PID=""
  return $ok
}

endpoints() {
  local name list=""
  for name in "${SERVERS[@]}"; do list+="${list:+,}http://127.0.0.1:$(cat "$RUN_DIR/$name.port")"; done
  echo "$list"
}

# --- the nemesis: one fault at a time, each healed before the next ---------------------------------
apply_fault() { # FAULT: injects it, holds it, heals it; logs both
  local fault=$1 name pid node
  name=${SERVERS[$((RANDOM % ${#SERVERS[@]}))]}
  case $fault in
    kill-server)
      pid=$(cat "$RUN_DIR/$name.pid")
      note "kill -9 server $name (pid $pid)"
      kill -KILL "$pid" 2>/dev/null
      sleep "$FAULT_HOLD_SECONDS"
      start_kumiko "$name"
      if await_kumiko "$name"; then
        note "restarted server $name"
      else
        note "server $name did not come back within ${SERVER_START_TIMEOUT_SECONDS}s; its threads are in its log"
        jcmd "$(cat "$RUN_DIR/$name.pid")" Thread.print >>"$RUN_DIR/$name.log" 2>&1
      fi
      ;;
    pause-server)
      pid=$(cat "$RUN_DIR/$name.pid")
      note "SIGSTOP server $name (pid $pid)"
      kill -STOP "$pid"
      sleep "$FAULT_HOLD_SECONDS"
      kill -CONT "$pid"
      note "SIGCONT server $name"
      ;;
    kill-node)
      node=$((RANDOM % 3))
      note "kill -9 Ignite node $node (pid $(cat "$IGNITE_DIR/node-$node/pid"))"
      restart_node "$node"
      ;;
    pause-node)
      node=$((RANDOM % 3))
      pid=$(cat "$IGNITE_DIR/node-$node/pid")
      note "SIGSTOP Ignite node $node (pid $pid)"
      kill -STOP "$pid"
      sleep "$FAULT_HOLD_SECONDS"
      kill -CONT "$pid"
      note "SIGCONT Ignite node $node"
      ;;
    partition-node)
      node=$((RANDOM % 3))
      pid=$(cat "$IGNITE_DIR/node-$node/pid")
      note "partition Ignite node $node (pid $pid) from everything"
      net_partition "$pid" "node-$node"
      sleep $((2 * FAULT_HOLD_SECONDS)) # past failure detection (4 s), so the others drop it
      net_heal
      note "healed the partition of Ignite node $node"
      # The others dropped it from the topology and now refuse it as stale: Ignite 3 asks for a
      # restart of such a node (docs/distributed.md, "What survives which failure").
      restart_node "$node"
      ;;
    cut-server)
      pid=$(cat "$RUN_DIR/$name.pid")
      note "cut server $name (pid $pid) off from the Ignite nodes"
      net_cut "$pid" "server-$name" "$(node_client_ports)"
      sleep "$FAULT_HOLD_SECONDS"
      net_heal
      note "healed the cut of server $name"
      ;;
    lossy-links)
      note "lossy links: ${NET_LOSS_PERCENT}% of the packets to and from the nodes dropped"
      local lines=()
      for node in 0 1 2; do lines+=("$(wc -l <"$IGNITE_DIR/node-$node/node.log")"); done
      net_loss "$(node_ports)"
      sleep "$FAULT_HOLD_SECONDS"
      net_heal
      note "healed the lossy links"
      sleep 3
      restart_stale_nodes "${lines[@]}"
      ;;
    *) note "unknown fault $fault" ;;
  esac
}

# NODE: kill -9 and restart of one Ignite node (it keeps its data and rejoins).
restart_node() {
  local node=$1 classpath="$IGNITE_DIR/ignite-lib/*"
  compgen -G "$IGNITE_DIR/ignite-lib/*.jar" >/dev/null || classpath="$SMOKE_REPO_ROOT/kumiko-faults/target/ignite-node-lib/*"
  if timeout "$IGNITE_START_SECONDS" "$KUMIKO_BIN" ignite restart --node "$node" --work-dir "$IGNITE_DIR" \
      --node-classpath "$classpath" >>"$RUN_DIR/ignite-restart.log" 2>&1; then
    note "restarted Ignite node $node (pid $(cat "$IGNITE_DIR/node-$node/pid"))"
  else
    note "Ignite node $node did not come back: see ignite-restart.log"
  fi
}

# LINES...: restarts each node whose log, past line LINES[i], says the others refuse it as stale.
restart_stale_nodes() {
  local node=0 from
  for from in "$@"; do
    if tail -n +"$((from + 1))" "$IGNITE_DIR/node-$node/node.log" | grep -q "rejected by initiator: kumiko-$node:"; then
      note "Ignite node $node is stale to the others"
      restart_node "$node"
    fi
    node=$((node + 1))
  done
}

node_client_ports() { echo "$((IGNITE_BASE + 1)),$((IGNITE_BASE + 4)),$((IGNITE_BASE + 7))"; }
node_ports() { seq -s, "$IGNITE_BASE" $((IGNITE_BASE + 8)); }

nemesis() { # UNTIL (epoch seconds): cycles through the faults until then
  local until=$1 i=0
  trap 'exit 0' TERM
  sleep "$QUIET_SECONDS"
  while (($(date +%s) + FAULT_HOLD_SECONDS < until)); do
    apply_fault "${FAULT_LIST[$((i % ${#FAULT_LIST[@]}))]}"
    i=$((i + 1))
    sleep "$QUIET_SECONDS"
  done
}

# Every server answers again and nothing is paused (after the nemesis, before the final reads).
heal_all() {
  local name pid
  [[ -n ${KUMIKO_FAULTS_NETNS:-} ]] && net_heal
  for name in "${SERVERS[@]}"; do
    pid=$(cat "$RUN_DIR/$name.pid")
    kill -CONT "$pid" 2>/dev/null
    if ! kill -0 "$pid" 2>/dev/null; then
      start_kumiko "$name"
    fi
  done
  if [[ $STORE == ignite ]]; then
    local node
    for node in 0 1 2; do
      pid=$(cat "$IGNITE_DIR/node-$node/pid" 2>/dev/null)
      kill -CONT "$pid" 2>/dev/null || restart_node "$node"
    done
  fi
  for name in "${SERVERS[@]}"; do
    await_kumiko "$name" || fail "server $name does not answer ${SERVER_START_TIMEOUT_SECONDS}s after healing"
  done
}

faults_java() { java -Xmx512m -cp "$FAULTS_CP" dev.kumiko.faults.FaultsMain "$@"; }

run_workload() { # WORKLOAD
  local workload=$1 history="$RUN_DIR/$1.jsonl" out="$RUN_DIR/$1.out" start until status faults_done
  start=$(date +%s)
  until=$((start + SECONDS_PER_WORKLOAD))
  note "workload $workload: ${SECONDS_PER_WORKLOAD}s, $THREADS threads, faults $FAULTS, seed $SEED"
  faults_java run "$workload" --endpoints "$(endpoints)" --history "$history" --seconds "$SECONDS_PER_WORKLOAD" \
    --threads "$THREADS" --call-timeout-millis "$CALL_TIMEOUT_MILLIS" --final-seconds "$FINAL_SECONDS" \
    --seed "$SEED" >"$out" 2>&1 &
  local client=$!
  nemesis "$until" >>"$RUN_DIR/nemesis-$workload.log" 2>&1 &
  NEMESIS_PID=$!
  wait "$NEMESIS_PID"
  NEMESIS_PID=""
  heal_all
  wait "$client"
  status=$?
  cat "$RUN_DIR/nemesis-$workload.log"
  grep -v '^SLF4J:' "$out" # the SDK's note that no logger is bound
  faults_done=$(grep -c -E 'kill -9|SIGSTOP|partition Ignite|cut server|lossy links:' "$RUN_DIR/nemesis-$workload.log")
  if grep -q 'did not come back: see' "$RUN_DIR/nemesis-$workload.log"; then
    fail "workload $workload: an Ignite node did not come back after its restart"
  fi
  if ((status != 0)); then
    fail "workload $workload exited with status $status"
    return
  fi
  pass "workload $workload ran under $faults_done faults ($(($(date +%s) - start))s)"
  local verdict
  verdict=$(timeout "$CHECK_SECONDS" java -Xmx1g -cp "$FAULTS_CP" dev.kumiko.faults.FaultsMain check "$workload" "$history" 2>&1)
  status=$?
  echo "$verdict"
  case $status in
    0) pass "$workload history checked: valid" ;;
    1) fail "$workload history: INVALID (kept: run with --keep to look at $history)" ;;
    3) fail "$workload history: the checker could not decide within its bound" ;;
    *) fail "$workload history: the checker failed (status $status)" ;;
  esac
  ((faults_done > 0)) || fail "workload $workload: no fault was injected"
  # A server that does not come back is no wrong answer, but it is a failure of availability.
  if grep -q 'did not come back' "$RUN_DIR/nemesis-$workload.log"; then
    fail "workload $workload: a server did not answer within ${SERVER_START_TIMEOUT_SECONDS}s of its restart"
  fi
}

# --- build and start ---------------------------------------------------------------------------------
build_args=()
[[ $STORE == ignite ]] && build_args=(ignite)
if KUMIKO_BUILD_ONLY=1 "$KUMIKO_BIN" "${build_args[@]}" >/dev/null &&
  (cd "$SMOKE_REPO_ROOT" && mvn -B -q ${KUMIKO_FAULTS_NETNS:+-o} -Pquick -Dmaven.test.skip=true package -pl kumiko-faults -am 2>&1 |
    sed -e $'s/\x1b\\[0m//g' -e '/^$/d'); then
  pass "build kumiko.jar and kumiko-faults"
else
  fail "build"
  exit 1
fi

if [[ $STORE == ignite ]]; then
  base=$("$PY" - <<'PY'
import random, socket
for _ in range(100):
    base = random.randrange(20000, 32700)
    socks = []
    try:
        for p in range(base, base + 9):
            s = socket.socket(); s.bind(("127.0.0.1", p)); socks.append(s)
        print(base); break
    except OSError:
        pass
    finally:
        for s in socks: s.close()
PY
  )
  # The nodes' jars (139 MB) are resolved with mvn into the first run's work directory and kept
  # under target/ for the next runs: resolving them again took a minute of a busy machine.
  IGNITE_BASE=$base
  node_lib="$SMOKE_REPO_ROOT/kumiko-faults/target/ignite-node-lib"
  node_args=()
  compgen -G "$node_lib/*.jar" >/dev/null && node_args=(--node-classpath "$node_lib/*")
  if ENDPOINTS=$(timeout "$IGNITE_START_SECONDS" "$KUMIKO_BIN" ignite start --nodes 3 --base-port "$base" \
      --work-dir "$IGNITE_DIR" "${node_args[@]}" 2>"$RUN_DIR/ignite-start.log" | tail -n 1) && [[ -n $ENDPOINTS ]]; then
    pass "ignite start: 3 nodes, endpoints $ENDPOINTS"
    if ((${#node_args[@]} == 0)) && compgen -G "$IGNITE_DIR/ignite-lib/*.jar" >/dev/null; then
      rm -rf "$node_lib.tmp" && cp -r "$IGNITE_DIR/ignite-lib" "$node_lib.tmp" && mv "$node_lib.tmp" "$node_lib"
    fi
  else
    fail "ignite start"
    tail -n 20 "$RUN_DIR/ignite-start.log"
    exit 1
  fi
  SERVERS=(a b)
else
  SERVERS=(a)
fi
for name in "${SERVERS[@]}"; do
  free_port >"$RUN_DIR/$name.port"
  start_kumiko "$name"
done
for name in "${SERVERS[@]}"; do
  if await_kumiko "$name"; then
    pass "server $name on $STORE (port $(cat "$RUN_DIR/$name.port"))"
  else
    fail "server $name did not start"
    tail -n 20 "$RUN_DIR/$name.log"
    exit 1
  fi
done

for workload in "${WORKLOAD_LIST[@]}"; do
  run_workload "$workload"
done
smoke_summary
