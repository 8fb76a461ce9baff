#!/usr/bin/env bash
# Records one JFR file per workload of the load harness (bench/harness) against a Kumiko server,
# and summarizes each with bench/profile/jfr_top.py.
#
#   bench/profile/profile.sh [--workloads put,get,update,batch] [--duration 15] [--warmup 5] [--items 100000]
#                    [--store memory|rocksdb] [--heap "-Xms1g -Xmx1g"] [--out DIR]
#                    [--profiler jfr|async]
#
# One server (a free loopback port) serves every workload; per workload: an unrecorded warmup run and a
# 5 s settle run (a new harness run's first requests cost a round of recompiling; see below), then a
# recording (JFR "profile" settings: 10 ms Java samples, 20 ms native samples, allocation samples,
# lock events over 10 ms) that covers exactly one measured harness run. Throughput under the
# recorder is a little lower than without it: quote docs/benchmarks.md's table, not these runs.
# Output: DIR/<workload>.jfr, DIR/<workload>.txt (summary), DIR/<workload>/ (harness results).
#
# --profiler async uses async-profiler instead (cpu event, 1 ms, every thread, kernel frames too),
# attached with jcmd JVMTI.agent_load; set ASYNC_PROFILER_LIB to its libasyncProfiler.so, e.g.
# unzipped from Maven Central's tools.profiler:async-profiler:3.0 jar (linux-x64/). Output:
# DIR/<workload>.collapsed and its summary by bench/profile/collapsed_top.py.
set -euo pipefail

script_path="$(readlink -f "${BASH_SOURCE[0]}")"
bench_dir="$(dirname "$script_path")"
repo_root="$(cd "$bench_dir/../.." && pwd -P)"
harness_py="$repo_root/bench/harness/harness.py"

settle_seconds=5
workloads="put,get,update,batch" duration=15 warmup=5 items=100000 store=memory heap="-Xms1g -Xmx1g" out=""
profiler=jfr
while [[ $# -gt 0 ]]; do
  case "$1" in
    --workloads) workloads="$2"; shift ;;
    --duration) duration="$2"; shift ;;
    --warmup) warmup="$2"; shift ;;
    --items) items="$2"; shift ;;
    --store) store="$2"; shift ;;
    --heap) heap="$2"; shift ;;
    --out) out="$2"; shift ;;
    --profiler) profiler="$2"; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$script_path" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "profile: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
if [[ $profiler == async && ! -f ${ASYNC_PROFILER_LIB:-} ]]; then
  echo "profile: --profiler async needs ASYNC_PROFILER_LIB=/path/to/libasyncProfiler.so" >&2; exit 2
fi
out="${out:-$repo_root/bench-results/profile-$store-$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
note() { printf 'profile: %s\n' "$*" >&2; }

serve_args=(--in-memory)
data_dir=""
if [[ $store == rocksdb ]]; then
  data_dir="$(mktemp -d "${TMPDIR:-/tmp}/kumiko-profile.XXXXXX")"
  serve_args=(--data-dir "$data_dir")
elif [[ $store != memory ]]; then
  note "--store must be memory or rocksdb"; exit 2
fi

# JFR keeps 64 frames per stack by default; Netty's pipeline alone is ~30 deep, so the outer frames
# the stage table needs (DynamoHandler.channelRead0, ...) would be cut off.
# Without DebugNonSafepoints a compiled method's samples are credited to the nearest safepoint's
# frame (async-profiler, attached after the start, cannot turn it on for code compiled before): in
# profiles of batch without it, an allocation and a hash-map merge were each a tenth of the samples.
KUMIKO_JAVA_OPTS="$heap -XX:FlightRecorderOptions:stackdepth=256 -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints" \
  "$repo_root/bin/kumiko" serve --port "$port" \
  "${serve_args[@]}" >"$out/server.log" 2>&1 &
pid=$!
cleanup() {
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [[ -n $data_dir ]]; then rm -rf "$data_dir"; fi
}
trap cleanup EXIT
for _ in $(seq 1 300); do
  grep -q "listening" "$out/server.log" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || { note "server exited"; cat "$out/server.log" >&2; exit 1; }
  sleep 0.1
done
tr '\0' ' ' <"/proc/$pid/cmdline" >"$out/cmdline.txt"

harness() { # label workload duration warmup
  python3 "$harness_py" run --target "kumiko=http://127.0.0.1:$port" --pid "kumiko=$pid" --workloads "$2" \
    --duration "$3" --warmup "$4" --items "$items" --out "$out/$1" >"$out/$1.harness.txt" 2>&1
}

# jcmd's argument parser splits at commas unless the agent's option string is quoted inside.
agent() { jcmd "$pid" JVMTI.agent_load "$ASYNC_PROFILER_LIB" "\"$1\"" >/dev/null; }

start_recording() {
  if [[ $profiler == async ]]; then
    agent "start,event=cpu,interval=1ms,threads"
  else
    jcmd "$pid" JFR.start name="$1" settings=profile filename="$out/$1.jfr" >/dev/null
  fi
}

stop_recording() {
  if [[ $profiler == async ]]; then
    agent "stop,file=$out/$1.collapsed,collapsed,ann"
    python3 "$bench_dir/collapsed_top.py" "$out/$1.collapsed" >"$out/$1.txt"
  else
    jcmd "$pid" JFR.stop name="$1" >/dev/null
    python3 "$bench_dir/jfr_top.py" "$out/$1.jfr" >"$out/$1.txt"
  fi
}

IFS=',' read -r -a list <<<"$workloads"
for w in "${list[@]}"; do
  note "$w: warmup ${warmup}s"
  harness "$w-warmup" "$w" "$warmup" 0
  # A harness run's first requests (its table check, its fresh connections) take branches the
  # warmup's compiled code has not seen. After the first warmup they deoptimized the event loop's
  # inlined code and a third of the next 10 s went to recompiling it, so a short run settles that
  # before the recording.
  harness "$w-settle" "$w" "$settle_seconds" 0
  start_recording "$w"
  note "$w: recording ${duration}s"
  harness "$w" "$w" "$duration" 0
  stop_recording "$w"
  grep -h " round " "$out/$w.harness.txt" >&2 || true
done
note "recordings and summaries in $out"
