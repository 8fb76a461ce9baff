#!/usr/bin/env bash
# Compares two Kumiko jars side by side (before and after a change) with the load harness.
#
#   bench/compare-jars.sh OLD.jar NEW.jar [--duration 20] [--warmup 5] [--rounds 4] [--store memory|rocksdb]
#                         [--workloads put,get,query,query_gsi,update,batch,mixed] [--items 100000]
#                         [--connections 32] [--max-regression 5] [--durability process|fsync] [--out DIR]
#
# Both servers run at once on free 127.0.0.1 ports with the same JVM options ($HEAP, default
# "-Xms1g -Xmx1g", -XX:+AlwaysPreTouch, plus $KUMIKO_JAVA_OPTS). The heap is touched at start
# because the first touches of its pages otherwise land in the measured runs as page faults, more
# in one server than the other depending on where its young generation happens to lie. While one
# is under load the other is stopped (SIGSTOP, harness.py --pause-idle), so that its background
# work (RocksDB's flushes and compactions) does not run beside the measured one. Per workload: an
# unmeasured --warmup on each, then --rounds measured runs each in the order old new, new old, ...
# so that neither gains from going second; "÷ old" is the median of the per-round ratios. Exits 3 if NEW's ops/s is more than
# --max-regression percent (default 5) below OLD's in any workload, so a regression check is:
#
#   bench/compare-jars.sh /tmp/kumiko-before.jar kumiko-server/target/kumiko.jar --duration 20
#
# --durability applies to --store rocksdb (default process; fsync syncs the write-ahead log before
# each write's answer, docs/durability.md).
#
# Take OLD.jar from a build of the commit before the change (cp kumiko-server/target/kumiko.jar
# somewhere first). On a busy machine a 5 % difference is within the noise: compare on a quiet one,
# and look at the per-round ratios in DIR/new/results.json before believing a small one.
set -euo pipefail

bench_dir="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd -P)"
repo_root="$(cd "$bench_dir/.." && pwd -P)"
# shellcheck source=harness/lib.sh
source "$bench_dir/harness/lib.sh"

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
[[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
[[ $# -ge 2 ]] || { usage >&2; exit 2; }
old_jar="$1" new_jar="$2"
shift 2
duration=20 warmup=5 rounds=4 store=memory items=100000 connections=32 max_regression=5 out=""
durability=process
workloads="put,get,query,query_gsi,update,batch,mixed"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --duration) duration="$2"; shift ;;
    --warmup) warmup="$2"; shift ;;
    --rounds) rounds="$2"; shift ;;
    --store) store="$2"; shift ;;
    --workloads) workloads="$2"; shift ;;
    --items) items="$2"; shift ;;
    --connections) connections="$2"; shift ;;
    --max-regression) max_regression="$2"; shift ;;
    --durability) durability="$2"; shift ;;
    --out) out="$2"; shift ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
  shift
done
for j in "$old_jar" "$new_jar"; do [[ -f $j ]] || die "no such jar: $j"; done
[[ $store == memory || $store == rocksdb ]] || die "--store is memory or rocksdb"
[[ $durability == process || $durability == fsync ]] || die "--durability is process or fsync"
[[ $durability == process || $store == rocksdb ]] || die "--durability fsync needs --store rocksdb"

out="${out:-$repo_root/bench-results/compare-$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out/old" "$out/new"
out="$(cd "$out" && pwd -P)"
export KUMIKO_JAVA_OPTS="-XX:+AlwaysPreTouch ${KUMIKO_JAVA_OPTS:-}"
stop_on_exit
install_wrk || die "wrk is needed: apt-get install -y wrk"

args=()
for side in old new; do
  jar="$old_jar"
  [[ $side == new ]] && jar="$new_jar"
  serve=(--in-memory)
  if [[ $store == rocksdb ]]; then
    dir="$(mktemp -d "${TMPDIR:-/tmp}/kumiko-compare-$side.XXXXXX")"
    temp_dirs+=("$dir")
    serve=(--data-dir "$dir" --durability "$durability")
  fi
  port="$(free_port)"
  start_kumiko_jar "$jar" "$port" "$out/$side/server.log" "${serve[@]}"
  note "$side: $jar on 127.0.0.1:$port (pid $server_pid)"
  sha256sum "$jar" >"$out/$side/jar.txt"
  args+=(--target "$side=http://127.0.0.1:$port" --pid "$side=$server_pid")
done

status=0
python3 "$bench_dir/harness/harness.py" run "${args[@]}" --pause-idle --reference old --workloads "$workloads" \
  --duration "$duration" --warmup "$warmup" --rounds "$rounds" --items "$items" --connections "$connections" \
  --max-regression "new/old:$max_regression" --out "$out" | tee "$out/stdout.txt" || status=${PIPESTATUS[0]}
exit "$status"
