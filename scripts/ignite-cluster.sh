#!/usr/bin/env bash
# Scale-out on Apache Ignite 3, with real processes and real clients: 3 Ignite nodes and 2 Kumiko
# servers on loopback (`bin/kumiko ignite start`, `bin/kumiko serve --store ignite`), then over HTTP
# with boto3: the two-engine suite with clients spread over both servers (table created on one and
# used through the other, lost-update race, bank invariant with 8 clients, ClientRequestToken
# replay on the other server, stream order, TTL deleting each item once); kill -9 of one Ignite
# node under a bounded write load (no acknowledged write lost, writes go on); kill -9 of one Kumiko
# server (the other's clients see no error, none of the killed server's acknowledged writes lost).
#
#   bash scripts/ignite-cluster.sh      # closes with "ignite-cluster: N passed, M failed"
set -uo pipefail

# shellcheck source=scripts/lib/smoke-common.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/smoke-common.sh"
SMOKE_SUMMARY_LABEL=ignite-cluster
CLIENT="$SMOKE_REPO_ROOT/scripts/lib/ignite_cluster_client.py"
IGNITE_DIR="$SMOKE_TMP/ignite"
# Each wait is bounded; the whole script takes 4-6 minutes on 2 cores (.ci/run gives it 15).
IGNITE_START_SECONDS=240
SERVER_START_TIMEOUT_SECONDS=90
CLIENT_SECONDS=420
NODE_KILL_LOAD_SECONDS=20
SERVER_KILL_LOAD_SECONDS=12
FIRST_ACK_SECONDS_MAX=60 # as in ignite_cluster_client.py
AWAIT_WRITES_SECONDS=120
PIDS=()

cleanup_cluster() {
  local status=$? pid
  for pid in "${PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  timeout 60 "$KUMIKO_BIN" ignite stop --work-dir "$IGNITE_DIR" >/dev/null 2>&1 || true
  (exit "$status") # smoke_cleanup reads the script's status from $?
  smoke_cleanup
}
trap cleanup_cluster EXIT
# A timeout (.ci/run's) ends the script through its EXIT trap, which stops the nodes and servers.
trap 'exit 143' TERM INT

# A base port with 9 free ports above it (3 per node), away from Ignite's defaults and below
# Linux's ephemeral range (32768+), where another process's outgoing connection could take one.
free_base_port() {
  "$PY" - <<'PY'
import random, socket
for _ in range(100):
    base = random.randrange(20000, 32700)
    try:
        socks = []
        for p in range(base, base + 9):
            s = socket.socket(); s.bind(("127.0.0.1", p)); socks.append(s)
        print(base); break
    except OSError:
        pass
    finally:
        for s in socks: s.close()
PY
}

run_client() { # NAME ARGS...: runs the boto3 client, bounded, and counts its PASS/FAIL lines;
  # returns non-zero when the client failed a check or exited non-zero (a timeout, a crash)
  local name=$1 out="$SMOKE_TMP/client-$1.log" status=0
  shift
  timeout "$CLIENT_SECONDS" "$PY" "$CLIENT" "$@" >"$out" 2>&1 || status=$?
  report_client_output "$out" "$status" "$name"
  ((status == 0))
}

start_kumiko() { # LOG PORT: a server on the cluster; echoes its pid
  "$KUMIKO_BIN" serve --store ignite --ignite-endpoints "$ENDPOINTS" --port "$2" \
    --ttl-sweep-interval-millis 500 >>"$1" 2>&1 &
  echo $!
}

show_errors_of_servers() { # the servers' last logged errors, for a failed check
  local log
  for log in "$log_a" "$log_b"; do
    echo "errors in $log (last 30 lines):"
    grep -E 'SEVERE|Exception|Caused by' "$log" | tail -n 30 | sed 's/^/    | /'
  done
}

await_kumiko() { # PID PORT
  SERVER_PID=$1
  wait_ready "$2"
}

if ! KUMIKO_BUILD_ONLY=1 "$KUMIKO_BIN" ignite >/dev/null; then
  fail "build kumiko.jar and the Ignite store"
  smoke_summary
  exit 1
fi
pass "build kumiko.jar and the Ignite store"

base=$(free_base_port)
if ENDPOINTS=$(timeout "$IGNITE_START_SECONDS" "$KUMIKO_BIN" ignite start --nodes 3 --base-port "$base" \
    --work-dir "$IGNITE_DIR" 2>"$SMOKE_TMP/ignite-start.log" | tail -n 1) && [[ -n $ENDPOINTS ]]; then
  pass "ignite start: 3 nodes, endpoints $ENDPOINTS"
else
  fail "ignite start (see below)"
  tail -n 20 "$SMOKE_TMP/ignite-start.log"
  tail -n 20 "$IGNITE_DIR"/node-0/node.log 2>/dev/null
  smoke_summary
  exit 1
fi

port_a=$(free_port)
port_b=$(free_port)
log_a="$SMOKE_TMP/server-a.log"
log_b="$SMOKE_TMP/server-b.log"
pid_a=$(start_kumiko "$log_a" "$port_a")
pid_b=$(start_kumiko "$log_b" "$port_b")
PIDS+=("$pid_a" "$pid_b")
ready=1
SERVER_LOG=$log_a
await_kumiko "$pid_a" "$port_a" || ready=0
SERVER_LOG=$log_b
await_kumiko "$pid_b" "$port_b" || ready=0
SERVER_PID=""
if ((ready)); then
  pass "two servers on the cluster (ports $port_a, $port_b)"
else
  fail "two servers on the cluster"
  tail -n 20 "$log_a" "$log_b"
  smoke_summary
  exit 1
fi
ep_a="http://127.0.0.1:$port_a"
ep_b="http://127.0.0.1:$port_b"

run_client suite suite "$ep_a" "$ep_b" || show_errors_of_servers

# --- kill -9 of one Ignite node under a bounded write load ---------------------------------------
acked="$SMOKE_TMP/acked-node-kill.txt"
: >"$acked"
timeout "$CLIENT_SECONDS" "$PY" "$CLIENT" load "$ep_a,$ep_b" "$acked" "$NODE_KILL_LOAD_SECONDS" tolerant \
  >"$SMOKE_TMP/client-node-kill.log" 2>&1 &
load_pid=$!
sleep 5
victim=$(cat "$IGNITE_DIR/node-2/pid" 2>/dev/null || true)
if [[ -n $victim ]] && kill -KILL "$victim" 2>/dev/null; then
  pass "kill -9 Ignite node 2 (pid $victim) under load"
else
  fail "kill -9 Ignite node 2: no pid"
fi
wait "$load_pid"
report_client_output "$SMOKE_TMP/client-node-kill.log" $? "load during the node kill"
run_client node-kill-verify verify "$ep_b" "$acked"
: >"$SMOKE_TMP/acked-after.txt"
run_client after-node-kill load "$ep_a,$ep_b" "$SMOKE_TMP/acked-after.txt" 5 strict
run_client after-node-kill-verify verify "$ep_a" "$SMOKE_TMP/acked-after.txt"
# Both servers write again before one of them is killed, so that its load below acknowledges
# writes to check (right after the node kill, one server's writes may still be waiting).
run_client await-writes-a await-writes "$ep_a" "$AWAIT_WRITES_SECONDS"
run_client await-writes-b await-writes "$ep_b" "$AWAIT_WRITES_SECONDS"

# --- kill -9 of one Kumiko server: the other's clients see no error ------------------------------
acked_a="$SMOKE_TMP/acked-a.txt"
acked_b="$SMOKE_TMP/acked-b.txt"
: >"$acked_a"
: >"$acked_b"
rm -f "$acked_a.first" "$acked_b.first"
timeout "$CLIENT_SECONDS" "$PY" "$CLIENT" load "$ep_a" "$acked_a" "$SERVER_KILL_LOAD_SECONDS" tolerant \
  >"$SMOKE_TMP/client-a.log" 2>&1 &
load_a=$!
timeout "$CLIENT_SECONDS" "$PY" "$CLIENT" load "$ep_b" "$acked_b" "$SERVER_KILL_LOAD_SECONDS" strict \
  >"$SMOKE_TMP/client-b.log" 2>&1 &
load_b=$!
# Killed once its load is under way (its first write acknowledged, then 2 s more), not after a
# fixed wait: on a busy machine the client's start alone can take seconds. The load waits up to
# FIRST_ACK_SECONDS_MAX (ignite_cluster_client.py) for its first write; so does this loop, and if
# none came, server A's threads go to its log before the kill, to show where the write waited.
for _ in $(seq "$((FIRST_ACK_SECONDS_MAX * 10))"); do
  [[ -e $acked_a.first ]] && break
  sleep 0.1
done
if [[ ! -e $acked_a.first ]]; then
  echo "server A acknowledged no write in ${FIRST_ACK_SECONDS_MAX}s; its threads:" >>"$log_a"
  jcmd "$pid_a" Thread.print >>"$log_a" 2>&1 || true
fi
sleep 2
kill -KILL "$pid_a" 2>/dev/null && pass "kill -9 Kumiko server A (pid $pid_a) under load"
wait "$load_a" || true
wait "$load_b"
report_client_output "$SMOKE_TMP/client-b.log" $? "server B's clients while A was killed"
run_client server-kill-verify verify "$ep_b" "$acked_a"

smoke_summary
