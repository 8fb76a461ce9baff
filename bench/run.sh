#!/usr/bin/env bash
# Benchmarks Kumiko against its peers in one run: every workload, every target side by side, one
# markdown table (throughput, p50/p99, ÷ floor, ÷ DynamoDB Local).
#
#   bench/run.sh [--duration 20] [--warmup 5] [--rounds 1] [--items 100000] [--connections 32]
#                [--threads 1] [--targets kumiko-mem,kumiko-rocksdb,ddblocal-mem,dynalite,floor]
#                [--workloads put,get,query,query_gsi,update,batch,mixed] [--jar PATH] [--skip-build]
#                [--out DIR] [--startup] [--doc [FILE]] [--label TEXT] [--pin SERVER_CPUS:WRK_CPUS]
#
# Targets (all started on free 127.0.0.1 ports before the first workload and stopped at the end;
# the JVMs get the same heap, $HEAP, default "-Xms1g -Xmx1g"):
#   kumiko-mem      Kumiko, in memory                   (java -jar kumiko.jar serve --in-memory)
#   kumiko-rocksdb  Kumiko on RocksDB, fresh temp dir   (serve --data-dir DIR --durability process)
#   ddblocal-mem    DynamoDB Local -inMemory            (Maven Central, com.amazonaws:DynamoDBLocal)
#   ddblocal-file   DynamoDB Local on SQLite, fresh -dbPath
#   dynalite        dynalite in memory                  (npm)
#   floor           nginx answering canned responses, no database work: the ceiling of this
#                   machine's HTTP stack + harness, what "÷ floor" divides by
# Peers missing on the machine are installed first (bench/harness/peers.sh install).
#
# Per workload: an unmeasured --warmup on each target, then --rounds measured runs of each target
# (order reversed every other round). While one target is warmed up or measured, the others are
# stopped (SIGSTOP, continued after), so that no idle server's background work (a JIT still
# compiling after its warmup, a GC, RocksDB's compactions) runs beside the measured one.
# --startup also measures Kumiko's start time and idle RSS (five starts of bin/kumiko, after one
# that builds the jar and trains the class-data archive if needed), and the cold starts of
# Engine.inMemory() and of Kumiko.inMemory() (the embedded server), five fresh JVMs each.
# --doc rewrites the generated part of docs/benchmarks.md (or FILE).
# --pin 1:0 runs every server on CPU 1 and wrk on CPU 0 (taskset lists), so that they do not take
# each other's cores: a server's p99 then shows its own tail rather than the scheduler's
# (docs/performance-notes.md, target 3). A JVM sees only its CPUs, so Kumiko runs one event loop there.
# Output: --out (default bench-results/run-<time>/, git-ignored): results.md, <target>/results.json,
# server logs. Check a change for regressions with bench/compare-jars.sh instead.
set -euo pipefail

bench_dir="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd -P)"
repo_root="$(cd "$bench_dir/.." && pwd -P)"
# shellcheck source=harness/lib.sh
source "$bench_dir/harness/lib.sh"

duration=20 warmup=5 rounds=1 items=100000 connections=32 threads=1
targets="kumiko-mem,kumiko-rocksdb,ddblocal-mem,dynalite,floor"
workloads="put,get,query,query_gsi,update,batch,mixed"
jar="" build=1 out="" startup=0 doc="" label=""
orig_args=("$@")
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --duration) duration="$2"; shift ;;
    --warmup) warmup="$2"; shift ;;
    --rounds) rounds="$2"; shift ;;
    --items) items="$2"; shift ;;
    --connections) connections="$2"; shift ;;
    --threads) threads="$2"; shift ;;
    --targets) targets="$2"; shift ;;
    --workloads) workloads="$2"; shift ;;
    --jar) jar="$2"; build=0; shift ;;
    --skip-build) build=0 ;;
    --out) out="$2"; shift ;;
    --startup) startup=1 ;;
    --doc) doc="$repo_root/docs/benchmarks.md"
           if [[ $# -gt 1 && $2 != --* ]]; then doc="$2"; shift; fi ;;
    --label) label="$2"; shift ;;
    --pin) [[ $2 =~ ^[0-9,-]+:[0-9,-]+$ ]] || die "--pin takes SERVER_CPUS:WRK_CPUS, e.g. 1:0"
           export BENCH_SERVER_CPUS="${2%%:*}" BENCH_WRK_CPUS="${2#*:}"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
  shift
done

out="${out:-$repo_root/bench-results/run-$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out"
out="$(cd "$out" && pwd -P)"
stop_on_exit

install_wrk || die "wrk is needed: apt-get install -y wrk"
if [[ $build == 1 ]]; then
  note "building kumiko-server/target/kumiko.jar if stale"
  KUMIKO_BUILD_ONLY=1 "$repo_root/bin/kumiko"
fi
jar="${jar:-$repo_root/kumiko-server/target/kumiko.jar}"
[[ -f $jar ]] || die "no jar at $jar (build with: mvn -B -q -DskipTests package)"

target_args=() pid_args=() no_load=""
add_target() { # name port
  target_args+=(--target "$1=http://127.0.0.1:$2")
  pid_args+=(--pid "$1=$server_pid")
  tr '\0' ' ' <"/proc/$server_pid/cmdline" >"$out/$1/cmdline.txt" 2>/dev/null || true
  note "$1 up on 127.0.0.1:$2 (pid $server_pid)"
}

start_target() { # name
  local name="$1" port dir
  port="$(free_port)"
  mkdir -p "$out/$name"
  case "$name" in
    kumiko-mem) start_kumiko_jar "$jar" "$port" "$out/$name/server.log" --in-memory ;;
    kumiko-rocksdb)
      dir="$(mktemp -d "${TMPDIR:-/tmp}/kumiko-bench-rocksdb.XXXXXX")"
      temp_dirs+=("$dir")
      start_kumiko_jar "$jar" "$port" "$out/$name/server.log" --data-dir "$dir" --durability process ;;
    ddblocal-mem) start_ddblocal "$port" "$out/$name/server.log" -inMemory ;;
    ddblocal-file)
      dir="$(mktemp -d "${TMPDIR:-/tmp}/ddblocal-bench-file.XXXXXX")"
      temp_dirs+=("$dir")
      start_ddblocal "$port" "$out/$name/server.log" -dbPath "$dir" ;;
    dynalite) start_dynalite "$port" "$out/$name/server.log" ;;
    floor)
      start_floor "$port" "$out/$name" "$out/$name/server.log"
      no_load="floor" ;;
    *) die "unknown target $name (see --help)" ;;
  esac
  add_target "$name" "$port"
}

git_state() {
  { git -C "$repo_root" rev-parse --short HEAD 2>/dev/null || echo "?"
    [[ -z "$(git -C "$repo_root" status --porcelain --untracked-files=no -- . ':!docs' 2>/dev/null)" ]] \
      || echo "with local changes"
  } | paste -sd' '
}

if [[ $startup == 1 ]]; then
  note "start time and idle RSS of Kumiko in memory"
  mkdir -p "$out/startup"
  port="$(free_port)"
  # The one-time work of a first start (building the jar, training the class-data archive) is done
  # before the timed starts, which measure what every later start pays.
  env -u KUMIKO_JAVA_OPTS KUMIKO_BUILD_ONLY=1 "$repo_root/bin/kumiko" serve --in-memory
  env -u KUMIKO_JAVA_OPTS python3 "$bench_dir/harness/startup.py" --port "$port" --runs 5 -- \
    "$repo_root/bin/kumiko" serve --in-memory --port "$port" >"$out/startup/kumiko.json"
  if [[ -f $bench_dir/jmh/target/benchmarks.jar ]]; then
    for _ in 1 2 3 4 5; do java -cp "$bench_dir/jmh/target/benchmarks.jar" dev.kumiko.bench.EngineStart; done \
      >"$out/startup/engine.jsonl"
    # Kumiko embedded (kumiko-junit) as a JUnit JVM starts it: after the JDK facilities a test
    # launcher has already used, so that the figure is Kumiko's own.
    for _ in 1 2 3 4 5; do
      java -cp "$bench_dir/jmh/target/benchmarks.jar" dev.kumiko.bench.EmbeddedStart --jdk-warmup
    done >"$out/startup/embedded.jsonl"
  else
    note "no bench/jmh/target/benchmarks.jar (mvn -B -q -Pbench -DskipTests package): Engine and embedded starts not measured"
  fi
fi

cut -d' ' -f1-3 /proc/loadavg >"$out/loadavg-before.txt"
IFS=',' read -r -a target_list <<<"$targets"
for t in "${target_list[@]}"; do
  start_target "$t"
done
git_state >"$out/git.txt"
for t in kumiko-mem kumiko-rocksdb; do [[ -d $out/$t ]] && cp "$out/git.txt" "$out/$t/git.txt"; done

reference="" floor=""
[[ ,$targets, == *,ddblocal-mem,* ]] && reference=ddblocal-mem
[[ ,$targets, == *,floor,* ]] && floor=floor
python3 "$bench_dir/harness/harness.py" run --pause-idle "${target_args[@]}" "${pid_args[@]}" \
  ${no_load:+--no-load "$no_load"} ${reference:+--reference "$reference"} ${floor:+--floor "$floor"} \
  --workloads "$workloads" --duration "$duration" --warmup "$warmup" --rounds "$rounds" --items "$items" \
  --connections "$connections" --threads "$threads" --out "$out" | tee "$out/stdout.txt"
cut -d' ' -f1-3 /proc/loadavg >"$out/loadavg-after.txt"
stop_started

python3 -c 'import json, sys; json.dump(dict(zip(sys.argv[2::2], sys.argv[3::2])), open(sys.argv[1], "w"))' \
  "$out/settings.json" duration "$duration" warmup "$warmup" rounds "$rounds" \
  items "$items" connections "$connections" heap "$heap" targets "$targets" workloads "$workloads" \
  label "$label" invocation "bench/run.sh ${orig_args[*]:-}"
if [[ -n $doc ]]; then
  python3 "$bench_dir/harness/report.py" --results "$out" --doc "$doc" --repo "$repo_root"
  note "wrote $doc"
fi
note "results: $out/results.md"
