# shellcheck shell=bash
# Shared parts of the smoke scripts: client selection, dummy credentials, PASS/FAIL counting and a
# Kumiko server started in the background that is always stopped on exit. Source it; don't run it.

SMOKE_REPO_ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd -P)"
# KUMIKO_SMOKE_BIN runs the smoke against another launcher (an installed build, say); it must take
# `serve ARGS` and honour KUMIKO_BUILD_ONLY=1 as bin/kumiko does.
KUMIKO_BIN="${KUMIKO_SMOKE_BIN:-$SMOKE_REPO_ROOT/bin/kumiko}"

# Debian's packages are the ones CI installs: awscli (v2) and python3-boto3. An older v1 CLI or a
# pyenv Python may come first on PATH, so the Debian paths win when they exist.
# shellcheck disable=SC2034 # used by the scripts that source this file
if [[ -x /usr/bin/aws ]]; then AWS=/usr/bin/aws; else AWS=aws; fi
if [[ -x /usr/bin/python3 ]]; then PY=/usr/bin/python3; else PY=python3; fi

SERVER_START_TIMEOUT_SECONDS=30
SERVER_STOP_TIMEOUT_SECONDS=10

SMOKE_TMP="$(mktemp -d "${TMPDIR:-/tmp}/kumiko-smoke.XXXXXX")"
SERVER_PID=""
SERVER_LOG=""
SMOKE_PASSED=0
SMOKE_FAILED=0

# Dummy credentials, and no user config or profile that could point the clients elsewhere.
: >"$SMOKE_TMP/aws-config"
: >"$SMOKE_TMP/aws-credentials"
unset AWS_PROFILE AWS_SESSION_TOKEN AWS_ENDPOINT_URL AWS_ENDPOINT_URL_DYNAMODB AWS_CA_BUNDLE
export AWS_ACCESS_KEY_ID=dummy
export AWS_SECRET_ACCESS_KEY=dummy
export AWS_DEFAULT_REGION=us-east-1
export AWS_REGION=us-east-1
export AWS_PAGER=""
export AWS_EC2_METADATA_DISABLED=true
export AWS_CONFIG_FILE="$SMOKE_TMP/aws-config"
export AWS_SHARED_CREDENTIALS_FILE="$SMOKE_TMP/aws-credentials"
# One attempt per call: a smoke test must see a failure, not a retry that hides it.
export AWS_MAX_ATTEMPTS=1
export AWS_RETRY_MODE=standard

pass() {
  SMOKE_PASSED=$((SMOKE_PASSED + 1))
  printf 'PASS %s\n' "$*"
}

fail() {
  SMOKE_FAILED=$((SMOKE_FAILED + 1))
  printf 'FAIL %s\n' "$*"
}

# expect_eq NAME WANT GOT
expect_eq() {
  if [[ $3 == "$2" ]]; then
    pass "$1"
  else
    fail "$1: want '$2', got '$3'"
  fi
}

# Counts the PASS/FAIL lines that another program (the boto3 scripts) printed to FILE.
count_results_from() {
  local file=$1 n
  n=$(grep -c '^PASS ' "$file" || true)
  SMOKE_PASSED=$((SMOKE_PASSED + n))
  n=$(grep -c '^FAIL ' "$file" || true)
  SMOKE_FAILED=$((SMOKE_FAILED + n))
}

# report_client_output FILE STATUS WHAT: shows a client script's output, counts its PASS/FAIL
# lines, and counts a failure when it exited non-zero without printing a FAIL line itself.
report_client_output() {
  local file=$1 status=$2 what=$3
  cat "$file"
  count_results_from "$file"
  if ((status != 0)) && ! grep -q '^FAIL ' "$file"; then
    fail "$what exited with status $status"
  fi
}

free_port() {
  "$PY" -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()'
}

# Builds the jar now (if stale), so that the start-up wait below never includes a Maven build.
build_server() {
  if KUMIKO_BUILD_ONLY=1 "$KUMIKO_BIN"; then
    pass "build kumiko.jar"
  else
    fail "build kumiko.jar"
    return 1
  fi
}

# start_server LOGFILE SERVE-ARGS...: starts `bin/kumiko serve ARGS` in the background.
start_server() {
  SERVER_LOG=$1
  shift
  # bin/kumiko execs java, so $! is the JVM itself and a kill reaches it.
  "$KUMIKO_BIN" serve "$@" >>"$SERVER_LOG" 2>&1 &
  SERVER_PID=$!
}

# wait_ready PORT: true once GET / gets any HTTP answer; false if the server died or the bounded
# wait ran out.
wait_ready() {
  local port=$1 code
  local deadline=$((SECONDS + SERVER_START_TIMEOUT_SECONDS))
  while ((SECONDS < deadline)); do
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      return 1
    fi
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$port/" || true)
    if [[ -n $code && $code != 000 ]]; then
      return 0
    fi
    sleep 0.2
  done
  return 1
}

# start_and_wait NAME PORT LOGFILE SERVE-ARGS...: one PASS/FAIL for a server that starts and answers.
start_and_wait() {
  local name=$1 port=$2 log=$3
  shift 3
  start_server "$log" --port "$port" "$@"
  if wait_ready "$port"; then
    pass "$name (port $port)"
  else
    # smoke_summary shows the server log.
    if kill -0 "$SERVER_PID" 2>/dev/null; then
      fail "$name: no answer on GET / within ${SERVER_START_TIMEOUT_SECONDS}s"
    else
      fail "$name: the server exited before answering"
    fi
    return 1
  fi
}

show_server_log() {
  if [[ -n $SERVER_LOG && -f $SERVER_LOG ]]; then
    tail -n 40 "$SERVER_LOG" | sed 's/^/    | /'
  fi
}

# kill_server_hard: SIGKILL, the crash test's "power cut" for the process.
kill_server_hard() {
  if [[ -n $SERVER_PID ]]; then
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
  fi
}

# stop_server: SIGTERM, a bounded wait for a clean exit, then SIGKILL.
stop_server() {
  [[ -n $SERVER_PID ]] || return 0
  kill -TERM "$SERVER_PID" 2>/dev/null || true
  local deadline=$((SECONDS + SERVER_STOP_TIMEOUT_SECONDS))
  while kill -0 "$SERVER_PID" 2>/dev/null && ((SECONDS < deadline)); do
    sleep 0.1
  done
  kill_server_hard
}

SMOKE_SUMMARY_LABEL=smoke
SMOKE_SUMMARY_DONE=0

# smoke_summary: the server log if anything failed, then the closing line, which stays the last
# line printed; returns non-zero on any failure.
smoke_summary() {
  if ((SMOKE_FAILED > 0)) && [[ -s $SERVER_LOG ]]; then
    echo "server log $SERVER_LOG (last 40 lines):"
    show_server_log
  fi
  printf '%s: %d passed, %d failed\n' "$SMOKE_SUMMARY_LABEL" "$SMOKE_PASSED" "$SMOKE_FAILED"
  SMOKE_SUMMARY_DONE=1
  ((SMOKE_FAILED == 0))
}

smoke_cleanup() {
  local status=$?
  stop_server
  # A script that stopped early (a bug, Ctrl-C) still closes with a summary that counts it failed.
  if ((SMOKE_SUMMARY_DONE == 0)); then
    fail "script stopped early (exit status $status)"
    smoke_summary || true
    status=1
  fi
  if [[ ${KUMIKO_SMOKE_KEEP:-} == 1 ]]; then
    echo "kept $SMOKE_TMP" >&2
  else
    rm -rf "$SMOKE_TMP"
  fi
  exit "$status"
}

trap smoke_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
