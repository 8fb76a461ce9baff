#!/usr/bin/env bash
# The scale benchmark: on RocksDB, load N items (default 10 million) with
# BatchWriteItem, then compare GetItem and Query p99 with the same workloads on a 100k-item table
# measured in the same run, while sampling the server's RSS, Java heap and data directory.
#
#   bench/scale/scale.sh [--items 10000000] [--baseline-items 100000] [--duration 20] [--warmup 5] [--rounds 2]
#                  [--connections 32] [--threads 1] [--load-deadline-s auto] [--stall-s 120]
#                  [--segments 4] [--sample 2000] [--verify-deadline-s 900] [--sample-interval-s 10]
#                  [--data-root DIR] [--out DIR] [--doc docs/benchmarks-scale.md] [--no-doc]
#                  [--label TEXT] [--skip-build]
#
# Two servers, each on a fresh RocksDB data directory: "baseline" (--baseline-items) and
# "large" (--items, port 8681). Baseline first, so a broken step shows before the long load.
#   1. bin/kumiko serve --data-dir <fresh dir> with the launcher's defaults (KUMIKO_JAVA_OPTS is
#      passed through if set, and recorded either way);
#   2. the harness's table (scale_check.py create), then the load: wrk with bench/scale/lua/scale_load.lua,
#      --connections connections, --threads wrk threads, every item of the harness's layout exactly
#      once, 25 sequential items per BatchWriteItem (scale_load.py: items/s, errors; stops wrk when
#      done, stalled for --stall-s or past --load-deadline-s, default 300 s + 1 s per 10,000 items);
#   3. verification (scale_check.py verify): a parallel Scan Select=COUNT (--segments, bounded by
#      --verify-deadline-s) must equal N, and BatchGetItem of --sample random keys must return them;
#   4. with both servers up (the idle one costs almost nothing), per workload (get, then query)
#      --rounds rounds in ABBA order of bench/harness/harness.py run --no-load --items N (--duration s
#      after --warmup s each), so neither side gains from running later;
#   throughout: scale_sample.py samples each server's RSS, heap (jstat) and data-directory size
#   every --sample-interval-s seconds, labelled with the step it is in.
# Then scale_report.py writes the results section of docs/benchmarks-scale.md (--no-doc: to
# <out>/report.md instead). Raw results: --out, default bench-results/scale-<time>/ (git-ignored).
#
# Bounded: every step has a deadline, so the script stops by itself; on exit (also Ctrl-C, or
# SIGINT/SIGTERM to its process group: a signal to the script alone waits for the running step)
# it stops what it started and removes the data directories (--data-root, default $TMPDIR or /tmp: 10 million
# items need a few GB there). The machine should be quiet: the numbers include whatever else runs.
# Environment: KUMIKO_JAVA_OPTS (extra JVM options).
set -euo pipefail

script_path="$(readlink -f "${BASH_SOURCE[0]}")"
bench_dir="$(dirname "$script_path")"
repo_root="$(cd "$bench_dir/../.." && pwd -P)"
harness="$repo_root/bench/harness/harness.py"

items=10000000 baseline_items=100000 duration=20 warmup=5 rounds=2 connections=32 threads=1
load_deadline_s="" stall_s=120 segments=4 sample=2000 verify_deadline_s=900 sample_interval_s=10
data_root="${TMPDIR:-/tmp}" out="" doc="$repo_root/docs/benchmarks-scale.md" write_doc=1 label="" build=1
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port_baseline="$(free_port)" port_large="$(free_port)"
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
    --rounds) rounds="$2"; shift ;;
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
for n in "$duration" "$warmup" "$rounds" "$connections" "$threads" "$stall_s" "$segments" "$sample" \
    "$verify_deadline_s" "$sample_interval_s" ${load_deadline_s:+"$load_deadline_s"}; do
  [[ $n =~ ^[0-9]+$ ]] || die "numeric options take whole numbers: $n"
done
(( rounds >= 1 && threads >= 1 && segments >= 1 )) || die "--rounds, --threads and --segments must be >= 1"
command -v wrk >/dev/null || die "wrk not found: apt-get install -y wrk"
for tool in python3 jstat curl; do command -v "$tool" >/dev/null || die "$tool not found"; done

out="${out:-$repo_root/bench-results/scale-$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out"
commands="$out/commands.txt"
python3 -c 'import shlex, sys; print(shlex.join(sys.argv[1:]))' bench/scale/scale.sh \
  ${orig_args[@]+"${orig_args[@]}"} >"$out/invocation.txt"
run() { # runs a command and records it for the report; a step interrupted (130) ends the run
  printf '%s\n' "$*" | sed "s|$repo_root/||g" >>"$commands"
  local rc=0
  "$@" || rc=$?
  if (( rc == 130 )); then exit 130; fi
  return $rc
}

# ---------------------------------------------------------------- cleanup of everything we start
# Per size (baseline, large): the server's pid, its sampler's pid, its data directory.
declare -A server_pid=() sampler_pid=() data_dir=() port_of=([baseline]=$port_baseline [large]=$port_large)
stop_size() { # name
  local name="$1"
  if [[ -n ${sampler_pid[$name]:-} ]]; then
    kill "${sampler_pid[$name]}" 2>/dev/null || true
    wait "${sampler_pid[$name]}" 2>/dev/null || true
  fi
  if [[ -n ${server_pid[$name]:-} ]] && kill -0 "${server_pid[$name]}" 2>/dev/null; then
    kill "${server_pid[$name]}" 2>/dev/null || true
    wait "${server_pid[$name]}" 2>/dev/null || true
  fi
  if [[ -n ${data_dir[$name]:-} ]]; then rm -rf "${data_dir[$name]}"; fi
  sampler_pid[$name]="" server_pid[$name]="" data_dir[$name]=""
}
cleanup() { stop_size baseline; stop_size large; }
trap cleanup EXIT
trap 'exit 130' INT TERM

answers() { # port -> true when ListTables answers 200
  [[ "$(curl -s -o /dev/null -w '%{http_code}' -m 2 -X POST "http://127.0.0.1:$1/" \
    -H 'Content-Type: application/x-amz-json-1.0' -H 'X-Amz-Target: DynamoDB_20120810.ListTables' \
    -H 'Authorization: AWS4-HMAC-SHA256 Credential=bench/20250101/us-east-1/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=0000000000000000000000000000000000000000000000000000000000000000' \
    -H 'X-Amz-Date: 20250101T000000Z' -d '{}' 2>/dev/null || true)" == 200 ]]
}

start_server() { # name: fresh data dir, server, sampler
  local name="$1" port="${port_of[$1]}" dir pid i
  answers "$port" && die "something already answers on port $port"
  dir="$(mktemp -d "$data_root/kumiko-scale-$name.XXXXXX")"
  data_dir[$name]="$dir"
  printf 'bin/kumiko serve --port %s --data-dir <fresh dir>   # KUMIKO_JAVA_OPTS=%q\n' "$port" \
    "${KUMIKO_JAVA_OPTS:-}" >>"$commands"
  # bin/kumiko execs java, so $! is the JVM itself.
  "$repo_root/bin/kumiko" serve --port "$port" --data-dir "$dir" >"$out/$name/server.log" 2>&1 &
  pid=$!
  server_pid[$name]=$pid
  for i in $(seq 1 $((server_start_deadline_s * 10))); do
    answers "$port" && break
    kill -0 "$pid" 2>/dev/null || { cat "$out/$name/server.log" >&2; die "$name: server exited before answering"; }
    (( i == server_start_deadline_s * 10 )) && die "$name: server did not answer within ${server_start_deadline_s}s"
    sleep 0.1
  done
  tr '\0' ' ' <"/proc/$pid/cmdline" | sed "s|$repo_root/||g; s|$dir|<fresh dir>|g" >"$out/$name/cmdline.txt"
  echo start >"$out/$name/phase"
  python3 "$bench_dir/scale_sample.py" --pid "$pid" --data-dir "$dir" --phase-file "$out/$name/phase" \
    --out "$out/$name/samples.jsonl" --interval-s "$sample_interval_s" &
  sampler_pid[$name]=$!
  note "$name: server pid $pid on port $port, data in $dir"
}

phase() { echo "$2" >"$out/$1/phase"; }

server_alive() { # name
  kill -0 "${server_pid[$1]}" 2>/dev/null && return 0
  note "$1: the server exited; last lines of its log:"
  tail -20 "$out/$1/server.log" >&2
  return 1
}

# RocksDB's own record of the settings that bound its memory (block cache, memtables).
save_rocksdb_settings() { # name
  grep -E 'RocksDB version|capacity :|Options\.(write_buffer_size|max_write_buffer_number|max_open_files|compression|max_background_jobs|max_total_wal_size):' \
    "${data_dir[$1]}/LOG" 2>/dev/null | sed -E 's/^[0-9/]+-[0-9:.]+ [0-9]+ +//; s/^ +//' | sort -u \
    >"$out/$1/rocksdb-settings.txt" || true
}

# Steps 1-3 for one size: server, table, load, verification. Non-zero when a step failed.
# (errexit does not apply inside a function called with ||, hence the explicit returns.)
prepare() { # name items
  local name="$1" n="$2" ok=0 deadline url
  url="http://127.0.0.1:${port_of[$name]}"
  deadline="${load_deadline_s:-$((300 + n / 10000))}"
  mkdir -p "$out/$name"
  printf '%s\n' "$n" >"$out/$name/items.txt"
  start_server "$name"
  phase "$name" create
  run python3 "$bench_dir/scale_check.py" create --endpoint "$url" || return 1
  phase "$name" load
  run python3 "$bench_dir/scale_load.py" --endpoint "$url" --items "$n" --server-pid "${server_pid[$name]}" \
    --threads "$threads" --connections "$connections" --deadline-s "$deadline" --stall-s "$stall_s" \
    --out "$out/$name/load.json" --raw "$out/$name/wrk-load.txt" || ok=1
  server_alive "$name" || return 1
  du -sb "${data_dir[$name]}" | cut -f1 >"$out/$name/data-dir-bytes-after-load.txt"
  phase "$name" verify
  run python3 "$bench_dir/scale_check.py" verify --endpoint "$url" --items "$n" --segments "$segments" \
    --sample "$sample" --deadline-s "$verify_deadline_s" --out "$out/$name/verify.json" || ok=1
  server_alive "$name" || return 1
  phase "$name" idle
  return $ok
}

harness() { # name items workload round
  local name="$1" n="$2" w="$3" r="$4"
  phase "$name" "$w"
  note "$name: $w round $r, ${duration}s after ${warmup}s warmup"
  run python3 "$harness" run --target "kumiko-$name=http://127.0.0.1:${port_of[$name]}" \
    --pid "kumiko-$name=${server_pid[$name]}" --no-load "kumiko-$name" --items "$n" --workloads "$w" --duration "$duration" \
    --warmup "$warmup" --connections "$connections" --out "$out/$name/harness-$w-r$r" \
    >"$out/$name/harness-$w-r$r.txt" 2>&1 || { phase "$name" idle; return 1; }
  grep -h " round " "$out/$name/harness-$w-r$r.txt" >&2 || true
  phase "$name" idle
}

# Step 4: both servers stay up; per workload, rounds in ABBA order (baseline large, large baseline,
# ...), as the harness's compare.sh does, so that neither side gains from running later (JIT, page
# cache, drift of the machine's background load).
workloads() {
  local w r first second ok=0
  for w in get query; do
    for r in $(seq 1 "$rounds"); do
      if (( r % 2 == 1 )); then first=baseline second=large; else first=large second=baseline; fi
      for name in "$first" "$second"; do
        local n="$baseline_items"
        [[ $name == large ]] && n="$items"
        harness "$name" "$n" "$w" "$r" || ok=1
        server_alive "$name" || return 1
      done
    done
  done
  return $ok
}

finish_size() { # name: the data directory's size and RocksDB's settings, then stop it
  if [[ -n ${data_dir[$1]:-} ]]; then
    phase "$1" done
    du -sb "${data_dir[$1]}" | cut -f1 >"$out/$1/data-dir-bytes-end.txt"
    save_rocksdb_settings "$1"
  fi
  stop_size "$1"
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
# Written by Python so that any label or KUMIKO_JAVA_OPTS stays valid JSON.
python3 "$bench_dir/scale_settings.py" "$out/settings.json" items="$items" baseline_items="$baseline_items" \
  duration="$duration" warmup="$warmup" rounds="$rounds" connections="$connections" threads="$threads" \
  segments="$segments" sample="$sample" verify_deadline_s="$verify_deadline_s" \
  load_deadline_s="${load_deadline_s:-auto}" stall_s="$stall_s" sample_interval_s="$sample_interval_s" \
  kumiko_java_opts="${KUMIKO_JAVA_OPTS:-}" label="$label" started="$(date -Iseconds)" \
  loadavg_start="$(cut -d' ' -f1-3 /proc/loadavg)"

status=0
# Baseline first: a quick check that every step works before the long load.
if prepare baseline "$baseline_items" && prepare large "$items"; then
  workloads || status=1
else
  status=1
  note "load or verification failed; get/query not run"
fi
finish_size baseline
finish_size large
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
