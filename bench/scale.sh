#!/usr/bin/env bash
# Issue #7 target 5, the scale benchmark: on RocksDB, load N items (default 10 million) with
# BatchWriteItem, then compare GetItem and Query p99 with the same workloads on a 100k-item table
# measured in the same run, while sampling the server's RSS, Java heap and data directory.
#
#   bench/scale.sh [--items 10000000] [--baseline-items 100000] [--duration 20] [--warmup 5]
#                  [--connections 32] [--threads 1] [--load-deadline-s auto] [--stall-s 120]
#                  [--segments 4] [--sample 2000] [--verify-deadline-s 900] [--sample-interval-s 10]
#                  [--data-root DIR] [--out DIR] [--doc docs/benchmarks-scale.md] [--no-doc]
#                  [--label TEXT] [--skip-build]
#
# For each size, baseline first (a quick check that everything works before the long load), on a
# fresh server and a fresh data directory, each server alone on the machine:
#   1. bin/kumiko serve --data-dir <fresh dir> with the launcher's defaults (KUMIKO_JAVA_OPTS is
#      passed through if set, and recorded either way); ports 8680 (baseline) and 8681 (large);
#   2. the harness's table (scale_check.py create), then the load: wrk with bench/lua/scale_load.lua,
#      --connections connections, every item of the harness's layout exactly once, 25 sequential
#      items per BatchWriteItem (scale_load.py: items/s, errors, stops wrk when done, stalled or
#      past --load-deadline-s, default 300 s + 1 s per 10,000 items);
#   3. verification (scale_check.py verify): parallel Scan Select=COUNT (--segments, bounded by
#      --verify-deadline-s) must equal N, and BatchGetItem of --sample random keys must return them;
#   4. ../shared/bench/run.sh --no-load --items N, workload get then query (--duration s each after
#      --warmup s);
#   throughout: scale_sample.py samples RSS, heap (jstat) and data-directory size every
#   --sample-interval-s seconds, labelled with the current step.
# Then scale_report.py writes the results section of docs/benchmarks-scale.md (--no-doc: only the
# raw results in --out, default bench-results/scale-<time>/, git-ignored).
#
# Bounded: every step has a deadline, so the script stops by itself; on exit (also Ctrl-C) it stops
# what it started and removes the data directories (--data-root, default $TMPDIR or /tmp: 10 million
# items need a few GB there). The machine should be quiet: the numbers include whatever else runs.
# Environment: KUMIKO_SHARED (default <repo>/../shared), KUMIKO_JAVA_OPTS (extra JVM options).
set -euo pipefail

script_path="$(readlink -f "${BASH_SOURCE[0]}")"
bench_dir="$(dirname "$script_path")"
repo_root="$(cd "$bench_dir/.." && pwd -P)"
shared="${KUMIKO_SHARED:-$(cd "$repo_root/.." && pwd -P)/shared}"

items=10000000 baseline_items=100000 duration=20 warmup=5 connections=32 threads=1
load_deadline_s="" stall_s=120 segments=4 sample=2000 verify_deadline_s=900 sample_interval_s=10
data_root="${TMPDIR:-/tmp}" out="" doc="$repo_root/docs/benchmarks-scale.md" write_doc=1 label="" build=1
port_baseline=8680 port_large=8681
# How long a started server may take to answer ListTables.
server_start_deadline_s=60

orig_args=("$@")
usage() { sed -n '2,/^set -euo/p' "$script_path" | sed '$d' | sed 's/^# \{0,1\}//'; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --items) items="$2"; shift ;;
    --baseline-items) baseline_items="$2"; shift ;;
    --duration) duration="$2"; shift ;;
    --warmup) warmup="$2"; shift ;;
    --connections) connections="$2"; shift ;;
    --threads) threads="$2"; shift ;;
    --load-deadline-s) load_deadline_s="$2"; shift ;;
    --stall-s) stall_s="$2"; shift ;;
    --segments) segments="$2"; shift ;;
    --sample) sample="$2"; shift ;;
    --verify-deadline-s) verify_deadline_s="$2"; shift ;;
    --sample-interval-s) sample_interval_s="$2"; shift ;;
    --data-root) data_root="$2"; shift ;;
    --out) out="$2"; shift ;;
    --doc) doc="$2"; shift ;;
    --no-doc) write_doc=0 ;;
    --label) label="$2"; shift ;;
    --skip-build) build=0 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "scale: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

note() { printf '[scale %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { note "$*"; exit 1; }

for n in "$items" "$baseline_items"; do
  [[ $n =~ ^[0-9]+$ ]] && (( n > 0 && n % 100 == 0 )) || die "--items and --baseline-items must be positive multiples of 100 (the harness's partition size): $n"
done
command -v wrk >/dev/null || die "wrk not found: apt-get install -y wrk"
for tool in python3 jstat curl; do command -v "$tool" >/dev/null || die "$tool not found"; done
[[ -x $shared/bench/run.sh ]] || die "no load harness at $shared/bench (set KUMIKO_SHARED)"

out="${out:-$repo_root/bench-results/scale-$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out"
commands="$out/commands.txt"
python3 -c 'import shlex, sys; print(shlex.join(sys.argv[1:]))' bench/scale.sh \
  ${orig_args[@]+"${orig_args[@]}"} >"$out/invocation.txt"
run() { # runs a command and records it for the report
  printf '%s\n' "$*" | sed "s|$repo_root/||g; s|$shared/|../shared/|g" >>"$commands"
  "$@"
}

# ---------------------------------------------------------------- cleanup of everything we start
server_pid="" sampler_pid="" data_dir=""
stop_server() {
  if [[ -n $sampler_pid ]]; then kill "$sampler_pid" 2>/dev/null || true; wait "$sampler_pid" 2>/dev/null || true; fi
  sampler_pid=""
  if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  server_pid=""
  if [[ -n $data_dir ]]; then rm -rf "$data_dir"; fi
  data_dir=""
}
trap stop_server EXIT
trap 'exit 130' INT TERM

answers() { # port -> true when ListTables answers 200
  [[ "$(curl -s -o /dev/null -w '%{http_code}' -m 2 -X POST "http://127.0.0.1:$1/" \
    -H 'Content-Type: application/x-amz-json-1.0' -H 'X-Amz-Target: DynamoDB_20120810.ListTables' \
    -H 'Authorization: AWS4-HMAC-SHA256 Credential=bench/20250101/us-east-1/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=0000000000000000000000000000000000000000000000000000000000000000' \
    -H 'X-Amz-Date: 20250101T000000Z' -d '{}' 2>/dev/null || true)" == 200 ]]
}

start_server() { # name port: fresh data dir, server, sampler
  local name="$1" port="$2" i
  answers "$port" && die "something already answers on port $port"
  data_dir="$(mktemp -d "$data_root/kumiko-scale-$name.XXXXXX")"
  printf 'bin/kumiko serve --port %s --data-dir <fresh dir>   # KUMIKO_JAVA_OPTS=%q\n' "$port" \
    "${KUMIKO_JAVA_OPTS:-}" >>"$commands"
  # bin/kumiko execs java, so $! is the JVM itself.
  "$repo_root/bin/kumiko" serve --port "$port" --data-dir "$data_dir" >"$out/$name/server.log" 2>&1 &
  server_pid=$!
  for i in $(seq 1 $((server_start_deadline_s * 10))); do
    answers "$port" && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$out/$name/server.log" >&2; die "server exited before answering"; }
    (( i == server_start_deadline_s * 10 )) && die "server did not answer within ${server_start_deadline_s}s"
    sleep 0.1
  done
  tr '\0' ' ' <"/proc/$server_pid/cmdline" | sed "s|$repo_root/||g; s|$data_dir|<fresh dir>|g" >"$out/$name/cmdline.txt"
  echo start >"$out/$name/phase"
  python3 "$bench_dir/scale_sample.py" --pid "$server_pid" --data-dir "$data_dir" --phase-file "$out/$name/phase" \
    --out "$out/$name/samples.jsonl" --interval-s "$sample_interval_s" &
  sampler_pid=$!
  note "$name: server pid $server_pid on port $port, data in $data_dir"
}

phase() { echo "$2" >"$out/$1/phase"; }

server_alive() {
  kill -0 "$server_pid" 2>/dev/null && return 0
  note "$1: the server exited; last lines of its log:"
  tail -20 "$out/$1/server.log" >&2
  return 1
}

# RocksDB's own record of the settings that bound its memory (block cache, memtables).
save_rocksdb_settings() { # name
  grep -E 'RocksDB version|capacity :|Options\.(write_buffer_size|max_write_buffer_number|max_open_files|compression|max_background_jobs|max_total_wal_size):' \
    "$data_dir/LOG" 2>/dev/null | sed -E 's/^[0-9/]+-[0-9:.]+ [0-9]+ +//; s/^ +//' | sort -u >"$out/$1/rocksdb-settings.txt" || true
}

# Runs every step for one size; returns non-zero when a step failed. The caller stops the server
# (also when this returns early), so a failed size never leaves it running for the next one.
# (errexit does not apply inside a function called with ||, hence the explicit returns.)
one_size() { # name port items
  local name="$1" port="$2" n="$3" ok=0 deadline url w
  url="http://127.0.0.1:$port"
  deadline="${load_deadline_s:-$((300 + n / 10000))}"
  mkdir -p "$out/$name"
  printf '%s\n' "$n" >"$out/$name/items.txt"
  start_server "$name" "$port"
  phase "$name" create
  run python3 "$bench_dir/scale_check.py" create --endpoint "$url" || return 1
  phase "$name" load
  run python3 "$bench_dir/scale_load.py" --endpoint "$url" --items "$n" --server-pid "$server_pid" \
    --threads "$threads" --connections "$connections" --deadline-s "$deadline" --stall-s "$stall_s" \
    --out "$out/$name/load.json" --raw "$out/$name/wrk-load.txt" || ok=1
  server_alive "$name" || return 1
  du -sb "$data_dir" | cut -f1 >"$out/$name/data-dir-bytes-after-load.txt"
  phase "$name" verify
  run python3 "$bench_dir/scale_check.py" verify --endpoint "$url" --items "$n" --segments "$segments" \
    --sample "$sample" --deadline-s "$verify_deadline_s" --out "$out/$name/verify.json" || ok=1
  server_alive "$name" || return 1
  if [[ $ok != 0 ]]; then
    note "$name: load or verification failed; skipping its get/query runs"
  else
    for w in get query; do
      phase "$name" "$w"
      note "$name: $w for ${duration}s after ${warmup}s warmup"
      run "$shared/bench/run.sh" --endpoint "$url" --label "kumiko-$name" --pid "$server_pid" --no-load \
        --items "$n" --workloads "$w" --duration "$duration" --warmup "$warmup" --connections "$connections" \
        --out "$out/$name/harness-$w" >"$out/$name/harness-$w.txt" 2>&1 || ok=1
      grep -h "ops/s  p50" "$out/$name/harness-$w.txt" >&2 || true
    done
  fi
  phase "$name" done
  du -sb "$data_dir" | cut -f1 >"$out/$name/data-dir-bytes-end.txt"
  save_rocksdb_settings "$name"
  return $ok
}

if [[ $build == 1 ]]; then
  note "building the server jar if stale (bin/kumiko, KUMIKO_BUILD_ONLY=1)"
  KUMIKO_BUILD_ONLY=1 "$repo_root/bin/kumiko"
fi
{ git -C "$repo_root" rev-parse --short HEAD
  git -C "$repo_root" rev-parse --abbrev-ref HEAD
  if [[ -n "$(git -C "$repo_root" status --porcelain --untracked-files=no -- . ':!docs')" ]]; then
    echo "with local changes"
  fi
} | paste -sd' ' >"$out/git.txt"
cat >"$out/settings.json" <<EOF
{"items": $items, "baseline_items": $baseline_items, "duration": $duration, "warmup": $warmup,
 "connections": $connections, "threads": $threads, "segments": $segments, "sample": $sample,
 "verify_deadline_s": $verify_deadline_s, "load_deadline_s": "${load_deadline_s:-auto}", "stall_s": $stall_s,
 "sample_interval_s": $sample_interval_s, "kumiko_java_opts": "${KUMIKO_JAVA_OPTS:-}",
 "label": "${label//\"/\\\"}", "started": "$(date -Iseconds)", "loadavg_start": "$(cut -d' ' -f1-3 /proc/loadavg)"}
EOF

status=0
one_size baseline "$port_baseline" "$baseline_items" || status=1
stop_server
one_size large "$port_large" "$items" || status=1
stop_server
printf '%s %s\n' "$(date -Iseconds)" "$(cut -d' ' -f1-3 /proc/loadavg)" >"$out/finished.txt"

if [[ $write_doc == 1 ]]; then
  python3 "$bench_dir/scale_report.py" --results "$out" --doc "$doc" --repo "$repo_root"
  note "wrote $doc"
else
  python3 "$bench_dir/scale_report.py" --results "$out" --doc "$out/report.md" --repo "$repo_root"
  note "wrote $out/report.md"
fi
note "raw results in $out"
[[ $status == 0 ]] || note "some steps failed (see above)"
exit $status
