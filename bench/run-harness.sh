#!/usr/bin/env bash
# Runs the shared load harness (../shared/bench) against Kumiko and its yardsticks, measures start
# time and idle footprint, and writes the results table into docs/benchmarks.md.
#
#   bench/run-harness.sh [--duration 20] [--warmup 5] [--items 100000] [--connections 32]
#                        [--targets kumiko-mem,kumiko-rocksdb,ddblocal-mem,ddblocal-file,dynalite,floor]
#                        [--workloads put,get,query,query_gsi,update,batch,mixed]
#                        [--heap "-Xms1g -Xmx1g"] [--startup-runs 5] [--label "preliminary: ..."]
#                        [--out DIR] [--doc docs/benchmarks.md] [--no-doc] [--skip-build] [--skip-startup]
#
# Targets (each started alone, benchmarked with ../shared/bench/run.sh, then stopped, so the
# servers never compete for the two cores; ports 8620-8627):
#   kumiko-mem      bin/kumiko serve --in-memory                         (launcher's JVM defaults + --heap)
#   kumiko-rocksdb  bin/kumiko serve --data-dir <fresh temp dir>          (--durability process: WAL, no fsync)
#   ddblocal-mem    ../shared/tools/ddblocal.sh start --inMemory          (DynamoDB Local, same --heap)
#   ddblocal-file   ../shared/tools/ddblocal.sh start, fresh -dbPath      (SQLite file mode, same --heap)
#   dynalite        ../shared/tools/dynalite.sh start                     (Node.js, in memory)
#   floor           ../shared/bench/floor.sh start                        (nginx, canned answers, no load)
#
# Also measured (unless --skip-startup): ms from launching `bin/kumiko serve --in-memory` (jar built,
# launcher defaults, no KUMIKO_JAVA_OPTS) to its first answered ListTables, and its RSS after 5 s idle
# (bench/startup.py); the same for DynamoDB Local in memory with its script's default JVM options;
# and Engine.inMemory() cold in a fresh JVM (dev.kumiko.bench.EngineStart).
#
# Environment: KUMIKO_SHARED (default <repo>/../shared), MVN_FLAGS (extra Maven flags, e.g. -o).
# Raw output: --out (default <repo>/bench-results/harness-<timestamp>, git-ignored).
set -euo pipefail

script_path="$(readlink -f "${BASH_SOURCE[0]}")"
bench_dir="$(dirname "$script_path")"
repo_root="$(cd "$bench_dir/.." && pwd -P)"
shared="${KUMIKO_SHARED:-$(cd "$repo_root/.." && pwd -P)/shared}"

duration=20 warmup=5 items=100000 connections=32 startup_runs=5
targets="kumiko-mem,kumiko-rocksdb,ddblocal-mem,ddblocal-file,dynalite,floor"
workloads="put,get,query,query_gsi,update,batch,mixed"
# DynamoDB Local's script defaults to -Xms512m -Xmx4g; both JVMs get the same fixed heap so RSS and GC
# behaviour reflect the servers, not two heap-sizing policies.
heap="-Xms1g -Xmx1g"
label="" out="" doc="$repo_root/docs/benchmarks.md" write_doc=1 build=1 startup=1

orig_args=("$@")
usage() { sed -n '2,/^set -euo/p' "$script_path" | sed '$d' | sed 's/^# \{0,1\}//'; }

while [[ $# -gt 0 ]]; do
  case "$1" in
    --duration) duration="$2"; shift ;;
    --warmup) warmup="$2"; shift ;;
    --items) items="$2"; shift ;;
    --connections) connections="$2"; shift ;;
    --targets) targets="$2"; shift ;;
    --workloads) workloads="$2"; shift ;;
    --heap) heap="$2"; shift ;;
    --startup-runs) startup_runs="$2"; shift ;;
    --label) label="$2"; shift ;;
    --out) out="$2"; shift ;;
    --doc) doc="$2"; shift ;;
    --no-doc) write_doc=0 ;;
    --skip-build) build=0 ;;
    --skip-startup) startup=0 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run-harness: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

[[ -x $shared/bench/run.sh ]] || { echo "run-harness: no load harness at $shared/bench (set KUMIKO_SHARED)" >&2; exit 1; }
out="${out:-$repo_root/bench-results/harness-$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out"
# Several invocations may share one --out (e.g. rerunning the floor when the machine is quiet); the
# report then uses the newest results of every target, and these logs keep every invocation.
commands="$out/commands.txt"
python3 -c 'import shlex, sys; print(shlex.join(sys.argv[1:]))' bench/run-harness.sh \
  ${orig_args[@]+"${orig_args[@]}"} >>"$out/invocations.txt"

note() { printf 'run-harness: %s\n' "$*" >&2; }
# Runs a command and records it, so the report can list exactly what was run.
run() {
  printf '%s\n' "$*" >>"$commands"
  "$@"
}

port_kumiko_mem=8620 port_kumiko_rocksdb=8621 port_ddblocal_mem=8622 port_ddblocal_file=8623
port_dynalite=8624 port_floor=8625 port_startup=8626 port_startup_ddblocal=8627

# ---------------------------------------------------------------- cleanup of everything we start
kumiko_pid=""
started_ddblocal=() started_dynalite=() started_floor=()
temp_dirs=()
cleanup() {
  if [[ -n $kumiko_pid ]] && kill -0 "$kumiko_pid" 2>/dev/null; then
    kill "$kumiko_pid" 2>/dev/null || true
    wait "$kumiko_pid" 2>/dev/null || true
  fi
  local p
  for p in ${started_ddblocal[@]+"${started_ddblocal[@]}"}; do "$shared/tools/ddblocal.sh" stop "$p" >/dev/null 2>&1 || true; done
  for p in ${started_dynalite[@]+"${started_dynalite[@]}"}; do "$shared/tools/dynalite.sh" stop "$p" >/dev/null 2>&1 || true; done
  for p in ${started_floor[@]+"${started_floor[@]}"}; do "$shared/bench/floor.sh" stop "$p" >/dev/null 2>&1 || true; done
  for p in ${temp_dirs[@]+"${temp_dirs[@]}"}; do rm -rf "$p"; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

answers() { # port -> true when ListTables answers 200
  local code
  code=$(curl -s -o /dev/null -w '%{http_code}' -m 2 -X POST "http://127.0.0.1:$1/" \
    -H 'Content-Type: application/x-amz-json-1.0' -H 'X-Amz-Target: DynamoDB_20120810.ListTables' \
    -H 'Authorization: AWS4-HMAC-SHA256 Credential=bench/20250101/us-east-1/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=0000000000000000000000000000000000000000000000000000000000000000' \
    -H 'X-Amz-Date: 20250101T000000Z' -d '{}' 2>/dev/null || true)
  [[ $code == 200 ]]
}

wait_answers() { # port pid
  local i
  for i in $(seq 1 600); do
    answers "$1" && return 0
    kill -0 "$2" 2>/dev/null || { note "server (pid $2) exited before answering on port $1"; return 1; }
    sleep 0.1
  done
  note "nothing answered on port $1 within 60 s"
  return 1
}

save_cmdline() { # pid name: the server's real command line, for the report's JVM settings
  tr '\0' ' ' <"/proc/$1/cmdline" >"$out/$2/cmdline.txt" 2>/dev/null || true
}

harness() { # name url pid [extra run.sh args]
  local name="$1" url="$2" pid="$3"
  shift 3
  mkdir -p "$out/$name"
  save_cmdline "$pid" "$name"
  note "benchmarking $name ($url, pid $pid)"
  run "$shared/bench/run.sh" --endpoint "$url" --label "$name" --pid "$pid" \
    --duration "$duration" --warmup "$warmup" --items "$items" --connections "$connections" \
    --workloads "$workloads" --out "$out/$name" "$@" >"$out/$name/stdout.txt"
}

# ---------------------------------------------------------------- targets
start_kumiko() { # name port [serve args]: starts bin/kumiko in the background, sets kumiko_pid
  local name="$1" port="$2"
  shift 2
  mkdir -p "$out/$name"
  # The commit measured; changes to docs/ (this report) do not count as local changes.
  { git -C "$repo_root" rev-parse --short HEAD
    if [[ -n "$(git -C "$repo_root" status --porcelain --untracked-files=no -- . ':!docs')" ]]; then
      echo "with local changes"
    fi
  } | paste -sd' ' >"$out/$name/git.txt"
  printf 'KUMIKO_JAVA_OPTS="%s" bin/kumiko serve --port %s %s &\n' "$heap" "$port" "$*" >>"$commands"
  # bin/kumiko execs java, so $! is the JVM itself.
  KUMIKO_JAVA_OPTS="$heap" "$repo_root/bin/kumiko" serve --port "$port" "$@" >"$out/$name/server.log" 2>&1 &
  kumiko_pid=$!
  wait_answers "$port" "$kumiko_pid"
}

stop_kumiko() {
  kill "$kumiko_pid"
  wait "$kumiko_pid" 2>/dev/null || true
  kumiko_pid=""
}

bench_kumiko_mem() {
  start_kumiko kumiko-mem "$port_kumiko_mem" --in-memory
  harness kumiko-mem "http://127.0.0.1:$port_kumiko_mem" "$kumiko_pid"
  stop_kumiko
}

bench_kumiko_rocksdb() {
  local dir
  dir="$(mktemp -d "${TMPDIR:-/tmp}/kumiko-bench-rocksdb.XXXXXX")"
  temp_dirs+=("$dir")
  start_kumiko kumiko-rocksdb "$port_kumiko_rocksdb" --data-dir "$dir" --durability process
  harness kumiko-rocksdb "http://127.0.0.1:$port_kumiko_rocksdb" "$kumiko_pid"
  stop_kumiko
  du -sm "$dir" | cut -f1 >"$out/kumiko-rocksdb/data-dir-mb.txt"
}

bench_ddblocal() { # name port [--inMemory]
  local name="$1" port="$2" pid dir
  shift 2
  mkdir -p "$out/$name"
  started_ddblocal+=("$port")
  if [[ $# -eq 0 ]]; then
    dir="$(mktemp -d "${TMPDIR:-/tmp}/ddblocal-bench-file.XXXXXX")"
    temp_dirs+=("$dir")
    printf 'DDBLOCAL_JAVA_OPTS="%s" DDBLOCAL_DB_DIR=<fresh temp dir> %s start %s\n' "$heap" \
      "$shared/tools/ddblocal.sh" "$port" >>"$commands"
    pid="$(DDBLOCAL_JAVA_OPTS="$heap" DDBLOCAL_DB_DIR="$dir" "$shared/tools/ddblocal.sh" start "$port" | tail -1)"
  else
    printf 'DDBLOCAL_JAVA_OPTS="%s" %s start %s %s\n' "$heap" "$shared/tools/ddblocal.sh" "$port" "$*" >>"$commands"
    pid="$(DDBLOCAL_JAVA_OPTS="$heap" "$shared/tools/ddblocal.sh" start "$port" "$@" | tail -1)"
  fi
  harness "$name" "http://127.0.0.1:$port" "$pid"
  "$shared/tools/ddblocal.sh" stop "$port" >/dev/null
}

bench_dynalite() {
  local pid
  mkdir -p "$out/dynalite"
  started_dynalite+=("$port_dynalite")
  pid="$(run "$shared/tools/dynalite.sh" start "$port_dynalite" | tail -1)"
  harness dynalite "http://127.0.0.1:$port_dynalite" "$pid"
  "$shared/tools/dynalite.sh" stop "$port_dynalite" >/dev/null 2>&1
}

bench_floor() {
  local pid
  mkdir -p "$out/floor"
  started_floor+=("$port_floor")
  pid="$(run "$shared/bench/floor.sh" start "$port_floor" | tail -1)"
  harness floor "http://127.0.0.1:$port_floor" "$pid" --no-load
  "$shared/bench/floor.sh" stop "$port_floor" >/dev/null
}

# ---------------------------------------------------------------- start time and footprint
measure_startup() {
  mkdir -p "$out/startup"
  note "start time and idle RSS of bin/kumiko serve --in-memory ($startup_runs runs)"
  # No KUMIKO_JAVA_OPTS: the target is about the launcher's defaults.
  run env -u KUMIKO_JAVA_OPTS python3 "$bench_dir/startup.py" --port "$port_startup" --runs "$startup_runs" -- \
    "$repo_root/bin/kumiko" serve --in-memory --port "$port_startup" >"$out/startup/kumiko.json"
  local lib="${DDBLOCAL_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/kumiko-peers/ddblocal}/${DDBLOCAL_VERSION:-3.3.1}/lib"
  if [[ -f $lib/DynamoDBLocal.jar ]]; then
    note "start time and idle RSS of DynamoDB Local in memory ($startup_runs runs)"
    # ddblocal.sh polls every 0.5 s, so its JVM is launched directly, with that script's default options.
    run python3 "$bench_dir/startup.py" --port "$port_startup_ddblocal" --runs "$startup_runs" -- \
      java -Xms512m -Xmx4g -Djava.library.path="$lib" -Dsqlite4java.library.path="$lib" -cp "$lib/*" \
      software.amazon.dynamodb.services.local.main.ServerRunner -port "$port_startup_ddblocal" -inMemory \
      -disableTelemetry >"$out/startup/ddblocal.json"
  fi
  note "Engine.inMemory() cold in a fresh JVM ($startup_runs runs)"
  local i
  for i in $(seq 1 "$startup_runs"); do
    run java -cp "$bench_dir/target/benchmarks.jar" dev.kumiko.bench.EngineStart
  done >"$out/startup/engine.jsonl"
}

# ---------------------------------------------------------------- main
if [[ $build == 1 ]]; then
  note "building the server jar and bench/target/benchmarks.jar in one reactor"
  # One reactor, so the benchmarks run against this checkout's modules, never ~/.m2's.
  # shellcheck disable=SC2086
  (cd "$repo_root" && run mvn -B -q ${MVN_FLAGS:-} -Pbench -DskipTests package)
fi
[[ -f $repo_root/kumiko-server/target/kumiko.jar ]] || { note "no kumiko.jar; build first"; exit 1; }
# The launcher's own preparation (its class-data archive after a build) must not be timed as start.
run env KUMIKO_BUILD_ONLY=1 "$repo_root/bin/kumiko"

printf '%s %s\n' "$(date +%H:%M:%S)" "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/loadavg-before.txt"
[[ $startup == 1 ]] && measure_startup

IFS=',' read -r -a target_list <<<"$targets"
for t in "${target_list[@]}"; do
  case "$t" in
    kumiko-mem) bench_kumiko_mem ;;
    kumiko-rocksdb) bench_kumiko_rocksdb ;;
    ddblocal-mem) bench_ddblocal ddblocal-mem "$port_ddblocal_mem" --inMemory ;;
    ddblocal-file) bench_ddblocal ddblocal-file "$port_ddblocal_file" ;;
    dynalite) bench_dynalite ;;
    floor) bench_floor ;;
    *) note "unknown target $t"; exit 2 ;;
  esac
done
printf '%s %s\n' "$(date +%H:%M:%S)" "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/loadavg-after.txt"

# The label of an earlier invocation into the same --out is kept unless a new one is given.
if [[ -z $label && -f $out/settings.json ]]; then
  label="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("label", ""))' "$out/settings.json")"
fi
cat >"$out/settings.json" <<EOF
{"duration": $duration, "warmup": $warmup, "items": $items, "connections": $connections,
 "heap": "$heap", "targets": "$targets", "workloads": "$workloads", "label": "${label//\"/\\\"}"}
EOF
if [[ $write_doc == 1 ]]; then
  python3 "$bench_dir/report.py" --results "$out" --doc "$doc" --repo "$repo_root" --shared "$shared"
  note "wrote $doc"
fi
note "raw results in $out"
