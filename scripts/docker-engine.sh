#!/usr/bin/env bash
# Starts and stops a Docker engine for kumiko-testcontainers' tests where none runs (CI; .ci/run).
#
#   bash scripts/docker-engine.sh start   # exit 0 once `docker info` answers, 1 if it cannot
#   bash scripts/docker-engine.sh stop    # stops the engine that `start` started, nothing else
#
# start installs Debian's docker.io when dockerd is missing (apt-get, as root or with sudo -n),
# then runs dockerd in the background without a bridge network and without iptables rules
# (--bridge=none --iptables=false): the tests run their containers on the host's network, and a
# machine that allows no bridge traffic still runs them. An engine that already answers is used
# as it is, and then `stop` leaves it running. State (pid file, log) is kept in
# ${KUMIKO_DOCKER_STATE:-/tmp/kumiko-dockerd}.
set -euo pipefail

state_dir="${KUMIKO_DOCKER_STATE:-/tmp/kumiko-dockerd}"
pid_file="$state_dir/dockerd.pid"
log_file="$state_dir/dockerd.log"
START_TIMEOUT_SECONDS=60
STOP_TIMEOUT_SECONDS=30

note() { printf 'docker-engine: %s\n' "$*" >&2; }

engine_answers() { command -v docker >/dev/null 2>&1 && timeout 10 docker info >/dev/null 2>&1; }

install_engine() {
  local sudo=()
  if ((EUID != 0)); then sudo=(sudo -n); fi
  note "installing docker.io from Debian"
  if ! { "${sudo[@]}" apt-get update -qq &&
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io; } \
    >"$state_dir/apt.log" 2>&1 </dev/null; then
    tail -n 20 "$state_dir/apt.log" >&2
    return 1
  fi
}

start() {
  mkdir -p "$state_dir"
  if engine_answers; then
    note "a Docker engine answers already; using it"
    return 0
  fi
  if ! command -v dockerd >/dev/null 2>&1; then
    install_engine || { note "could not install docker.io"; return 1; }
  fi
  if ((EUID != 0)); then
    note "dockerd needs root; not started"
    return 1
  fi
  # setsid: the engine is not in this shell's process group, so a Ctrl-C of a build does not end it
  # half-way; `stop` ends it by its pid.
  setsid dockerd --bridge=none --iptables=false --pidfile "$state_dir/dockerd.self.pid" \
    >"$log_file" 2>&1 </dev/null &
  echo $! >"$pid_file"
  local waited=0
  until engine_answers; do
    if ! kill -0 "$(cat "$pid_file")" 2>/dev/null || ((waited >= START_TIMEOUT_SECONDS)); then
      note "dockerd did not answer within ${waited} s; its log ends:"
      tail -n 20 "$log_file" >&2 || true
      stop
      return 1
    fi
    sleep 1
    waited=$((waited + 1))
  done
  note "dockerd $(dockerd --version | sed -n 's/^Docker version \([^,]*\).*/\1/p') answers (started in ${waited} s)"
}

stop() {
  [[ -f $pid_file ]] || return 0
  local pid waited=0
  pid="$(cat "$pid_file")"
  rm -f "$pid_file"
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null && ((waited < STOP_TIMEOUT_SECONDS)); do
    sleep 1
    waited=$((waited + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    note "dockerd did not stop within ${STOP_TIMEOUT_SECONDS} s; killed"
    kill -KILL "$pid" 2>/dev/null || true
  fi
}

case "${1:-}" in
start) start ;;
stop) stop ;;
*) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
