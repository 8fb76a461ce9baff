#!/usr/bin/env bash
# A bounded soak run (docs/soak.md): starts `bin/kumiko serve`, drives a steady rate below capacity
# with bench/soak/soak.py, samples heap and RSS every 10 s, stops the server, prints the report.
#
#   bench/soak/soak.sh [--minutes 5] [--rate 2000] [--port 8650] [--rocksdb] [--write]
#
# --minutes is 1..10 (default 5); --rocksdb serves from a temporary RocksDB directory instead of
# memory; --write also replaces the result section of docs/soak.md with this run's report.
set -euo pipefail

soak_dir="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd -P)"
repo_root="$(cd "$soak_dir/../.." && pwd -P)"
minutes=5 rate=2000 port=8650 store=memory write=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --minutes) minutes=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --rocksdb) store=rocksdb; shift ;;
    --write) write=1; shift ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
if (( minutes < 1 || minutes > 10 )); then
  echo "--minutes must be 1..10: a soak here is bounded" >&2
  exit 2
fi

KUMIKO_BUILD_ONLY=1 "$repo_root/bin/kumiko"
data_dir=""
serve_args=(serve --port "$port")
if [[ $store == memory ]]; then
  serve_args+=(--in-memory)
else
  data_dir="$(mktemp -d /tmp/kumiko-soak.XXXXXX)"
  serve_args+=(--data-dir "$data_dir")
fi
log="$(mktemp /tmp/kumiko-soak-log.XXXXXX)"
"$repo_root/bin/kumiko" "${serve_args[@]}" >"$log" 2>&1 &
server_pid=$!
cleanup() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  [[ -n $data_dir ]] && rm -rf "$data_dir"
  rm -f "$log"
}
trap cleanup EXIT
for _ in $(seq 1 100); do
  grep -q "listening" "$log" && break
  sleep 0.2
done
grep -q "listening" "$log" || { cat "$log" >&2; echo "server did not start" >&2; exit 1; }

started="$(date -u +%Y-%m-%dT%H:%MZ)"
load="$(cut -d' ' -f1-3 /proc/loadavg)"
report="$(python3 "$soak_dir/soak.py" --port "$port" --pid "$server_pid" --rate "$rate" \
  --seconds $((minutes * 60)))"
internal_errors="$(grep -c "SEVERE" "$log" || true)"
header="Run $started, $minutes min, $store store, $(nproc) cores, load average at start $load; \
$(git -C "$repo_root" rev-parse --abbrev-ref HEAD) as committed \
$(TZ=UTC git -C "$repo_root" log -1 --date='format-local:%Y-%m-%d %H:%M UTC' --format=%cd); \
server log lines at SEVERE: $internal_errors."
printf '%s\n\n%s\n' "$header" "$report"

if [[ $write == 1 ]]; then
  doc="$repo_root/docs/soak.md"
  python3 "$soak_dir/soak_doc.py" "$doc" "$header" "$report"
  echo "wrote $doc" >&2
fi
