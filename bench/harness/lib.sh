# Shell functions of the load harness, sourced by bench/run.sh, bench/compare-jars.sh and
# bench/harness/peers.sh. Installs the peers from Debian (wrk, nginx), Maven Central (DynamoDB
# Local) and npm (dynalite), starts servers on free loopback ports, and stops exactly the processes
# it started (their PIDs are kept in started_pids; call stop_started on exit). The start_* functions
# set server_pid; call them directly, not in $(...), so that started_pids keeps the PID.
#
# Environment:
#   KUMIKO_PEERS       where peers are installed (default ~/.cache/kumiko-peers, outside the repo)
#   DDBLOCAL_VERSION   com.amazonaws:DynamoDBLocal version (default 2.6.1, from Maven Central)
#   DYNALITE_VERSION   dynalite version from npm (default 4.0.0)
#   HEAP               JVM heap options for every JVM server (default "-Xms1g -Xmx1g": the same for
#                      Kumiko and DynamoDB Local, so RSS and GC reflect the servers, not two policies)

harness_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
peers_home="${KUMIKO_PEERS:-${XDG_CACHE_HOME:-$HOME/.cache}/kumiko-peers}"
ddblocal_version="${DDBLOCAL_VERSION:-2.6.1}"
dynalite_version="${DYNALITE_VERSION:-4.0.0}"
heap="${HEAP:--Xms1g -Xmx1g}"
# How long a started server may take to answer ListTables.
start_deadline_tenths=600
# apt-get waits this long for another apt-get (the machine may be shared).
apt_lock_timeout_s=300
started_pids=()

note() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { note "$*"; exit 1; }

free_port() { # prints a TCP port that is free on 127.0.0.1 right now
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

answers() { # port -> true when ListTables answers 200
  local code
  code=$(curl -s -o /dev/null -w '%{http_code}' -m 2 -X POST "http://127.0.0.1:$1/" \
    -H 'Content-Type: application/x-amz-json-1.0' -H 'X-Amz-Target: DynamoDB_20120810.ListTables' \
    -H 'Authorization: AWS4-HMAC-SHA256 Credential=bench/20250101/us-east-1/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=0000000000000000000000000000000000000000000000000000000000000000' \
    -H 'X-Amz-Date: 20250101T000000Z' -d '{}' 2>/dev/null || true)
  [[ $code == 200 ]]
}

wait_answers() { # port pid log
  local i
  for ((i = 0; i < start_deadline_tenths; i++)); do
    answers "$1" && return 0
    kill -0 "$2" 2>/dev/null || { note "server (pid $2) exited before answering; log $3:"; tail -20 "$3" >&2; return 1; }
    sleep 0.1
  done
  note "nothing answered on port $1 within $((start_deadline_tenths / 10)) s; log $3"
  return 1
}

server_pid=""

spawn() { # log dir command... -> starts it in the background in dir; sets server_pid, records it
  local log="$1" dir="$2" pin=()
  shift 2
  # run.sh --pin: the server and its children on these CPUs only
  [[ -n ${BENCH_SERVER_CPUS:-} ]] && pin=(taskset -c "$BENCH_SERVER_CPUS")
  (cd "$dir" && exec "${pin[@]}" "$@") >"$log" 2>&1 </dev/null &
  server_pid=$!
  started_pids+=("$server_pid")
}

stop_started() { # stops every process spawn started, newest first
  local i pid
  for ((i = ${#started_pids[@]} - 1; i >= 0; i--)); do
    pid="${started_pids[$i]}"
    kill -0 "$pid" 2>/dev/null || continue
    kill -CONT "$pid" 2>/dev/null || true # a server harness.py --pause-idle left stopped cannot act on TERM
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null || true
  done
  started_pids=()
}

# ---------------------------------------------------------------- installers (idempotent)
temp_dirs=() # directories the run made; removed on exit with stop_on_exit

cleanup_started() { # stops what spawn started and removes temp_dirs
  stop_started
  local d
  for d in ${temp_dirs[@]+"${temp_dirs[@]}"}; do rm -rf "$d"; done
}

stop_on_exit() { # on any exit, Ctrl-C or SIGTERM: stop the servers this run started, remove its temp dirs
  trap cleanup_started EXIT
  trap 'exit 130' INT TERM
}

apt_install() { # command package
  command -v "$1" >/dev/null && return 0
  [[ -x /usr/sbin/$1 ]] && return 0
  note "installing $2 with apt-get"
  local sudo=""
  [[ $(id -u) == 0 ]] || sudo="sudo"
  $sudo apt-get -o DPkg::Lock::Timeout="$apt_lock_timeout_s" update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout="$apt_lock_timeout_s" \
    install -y -qq --no-install-recommends "$2" >/dev/null
}

install_wrk() { apt_install wrk wrk; }

# nginx-light: the small Debian build; the floor needs only its core and the map module.
install_nginx() { apt_install nginx nginx-light; }

ddblocal_lib() { echo "$peers_home/ddblocal/$ddblocal_version/lib"; }

install_ddblocal() {
  local lib
  lib="$(ddblocal_lib)"
  [[ -f $lib/.complete ]] && return 0
  command -v mvn >/dev/null || die "mvn not found: DynamoDB Local comes from Maven Central"
  note "installing DynamoDB Local $ddblocal_version from Maven Central into $lib"
  rm -rf "$lib.tmp"
  mkdir -p "$lib.tmp"
  # stripVersion: the native library must be named libsqlite4java-linux-amd64.so to be found.
  mvn -B -q -f "$harness_dir/peers/ddblocal/pom.xml" -Dddblocal.version="$ddblocal_version" \
    org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies \
    -DoutputDirectory="$lib.tmp" -DincludeScope=runtime -Dmdep.stripVersion=true >&2 \
    || die "could not resolve com.amazonaws:DynamoDBLocal:$ddblocal_version"
  [[ -f $lib.tmp/DynamoDBLocal.jar && -f $lib.tmp/libsqlite4java-linux-amd64.so ]] \
    || die "DynamoDB Local or its native SQLite library missing after mvn"
  rm -rf "$lib"
  mv "$lib.tmp" "$lib"
  touch "$lib/.complete"
}

dynalite_dir() { echo "$peers_home/dynalite/$dynalite_version"; }

install_dynalite() {
  local dir
  dir="$(dynalite_dir)"
  [[ -f $dir/node_modules/dynalite/cli.js ]] && return 0
  command -v npm >/dev/null || die "npm not found: dynalite comes from the npm registry"
  note "installing dynalite $dynalite_version from npm into $dir"
  mkdir -p "$dir"
  [[ -f $dir/package.json ]] || echo '{"name":"kumiko-bench-dynalite","private":true}' >"$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error "dynalite@$dynalite_version" >&2)
}

# ---------------------------------------------------------------- servers (each sets server_pid)
# Kumiko from a jar, with bin/kumiko's JVM options (ParallelGC, tenuring after one collection, no
# Netty leak detector) and $heap.
start_kumiko_jar() { # jar port log serve-args...
  local jar="$1" port="$2" log="$3"
  shift 3
  jar="$(readlink -f "$jar")"
  # shellcheck disable=SC2086
  spawn "$log" "$(dirname "$log")" java -XX:+UseParallelGC -XX:MaxTenuringThreshold=1 $heap -XX:+ExitOnOutOfMemoryError \
    -Dio.netty.leakDetection.level=disabled ${KUMIKO_JAVA_OPTS:-} -jar "$jar" serve --port "$port" "$@"
  wait_answers "$port" "$server_pid" "$log"
}

start_ddblocal() { # port log [-inMemory | -dbPath DIR]
  local port="$1" log="$2" lib
  shift 2
  install_ddblocal
  lib="$(ddblocal_lib)"
  # DynamoDB Local writes a metadata file into its working directory: keep it out of the repo.
  # shellcheck disable=SC2086
  spawn "$log" "$(dirname "$log")" java $heap -Djava.library.path="$lib" -Dsqlite4java.library.path="$lib" \
    -cp "$lib/*" com.amazonaws.services.dynamodbv2.local.main.ServerRunner -port "$port" -disableTelemetry "$@"
  wait_answers "$port" "$server_pid" "$log"
}

start_dynalite() { # port log  (in memory)
  local port="$1" log="$2"
  install_dynalite
  spawn "$log" "$(dirname "$log")" node "$(dynalite_dir)/node_modules/dynalite/cli.js" --host 127.0.0.1 --port "$port"
  wait_answers "$port" "$server_pid" "$log"
}

start_floor() { # port dir log: nginx in the foreground (daemon off), so server_pid is the master
  local port="$1" dir="$2" log="$3" nginx
  install_nginx
  nginx="$(command -v nginx || echo /usr/sbin/nginx)"
  python3 "$harness_dir/peers/floor_conf.py" --dir "$dir" --port "$port"
  "$nginx" -t -q -p "$dir/" -c "$dir/nginx.conf" -e "$dir/error.log" || return 1
  spawn "$log" "$dir" "$nginx" -p "$dir/" -c "$dir/nginx.conf" -e "$dir/error.log" -g 'daemon off;'
  wait_answers "$port" "$server_pid" "$log"
}
