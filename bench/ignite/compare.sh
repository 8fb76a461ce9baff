#!/usr/bin/env bash
# Kumiko on Apache Ignite beside raw Ignite, in one run on one cluster (docs/benchmarks.md,
# "Kumiko on Ignite beside raw Ignite"):
#
#   bench/ignite/compare.sh [--nodes 1] [--duration 8] [--warmup 3] [--items 5000] [--out DIR]
#
# Starts a fresh local cluster of N nodes (bin/kumiko ignite start), measures Ignite's own client
# doing the raw equivalent of each workload (bench/ignite/RawIgnite.java, 32 threads), then one
# Kumiko server on the cluster under the load harness (bench/harness, 32 connections), and prints
# both with Kumiko's ratio to its raw equivalent:
#
#   get -> raw get   put, update -> raw rwtx   query, query_gsi -> raw range50   batch -> raw tx25
#
# Everything runs on this machine: run it while nothing else does. The cluster and server are
# stopped at the end; the cluster's files stay in DIR/cluster.
set -euo pipefail

script_path="$(readlink -f "${BASH_SOURCE[0]}")"
repo_root="$(cd "$(dirname "$script_path")/../.." && pwd -P)"
nodes=1 duration=8 warmup=3 items=5000 out=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --nodes) nodes="$2"; shift ;;
    --duration) duration="$2"; shift ;;
    --warmup) warmup="$2"; shift ;;
    --items) items="$2"; shift ;;
    --out) out="$2"; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$script_path" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "compare.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
out="${out:-$repo_root/bench-results/ignite-$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out"
kumiko="$repo_root/bin/kumiko"
base_port=10800
server_port=8190
client_jar="$repo_root/kumiko-ignite/target/kumiko-ignite-0.9.0-client.jar"

cleanup() {
  # bin/kumiko starts the server's JVM as its child: stop both.
  [[ -n ${java_pid:-} ]] && kill "$java_pid" 2>/dev/null || true
  [[ -n ${server_pid:-} ]] && kill "$server_pid" 2>/dev/null || true
  "$kumiko" ignite stop --work-dir "$out/cluster" >/dev/null 2>&1 || true
}
trap cleanup EXIT

echo "compare: starting $nodes node(s) in $out/cluster" >&2
endpoints="$("$kumiko" ignite start --nodes "$nodes" --base-port "$base_port" --work-dir "$out/cluster" | tail -1)"

echo "compare: raw Ignite ($endpoints)" >&2
java -cp "$client_jar" "$repo_root/bench/ignite/RawIgnite.java" --endpoints "$endpoints" --threads 32 \
  --seconds "$duration" --warmup "$warmup" --workloads get,rwtx,range50,range50ro,tx25,getall50 \
  2>"$out/raw.log" | tee "$out/raw.txt" >&2

echo "compare: Kumiko on the same cluster" >&2
"$kumiko" serve --store ignite --ignite-endpoints "$endpoints" --port "$server_port" >"$out/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 120); do
  grep -q listening "$out/server.log" && break
  sleep 1
done
java_pid="$(pgrep -f -- "--port $server_port" | head -1)"
python3 "$repo_root/bench/harness/harness.py" run --target "kumiko-ignite=http://127.0.0.1:$server_port" \
  --pid "kumiko-ignite=$java_pid" --items "$items" --workloads put,get,query,query_gsi,update,batch,mixed \
  --duration "$duration" --warmup "$warmup" --out "$out/harness" >"$out/harness.log" 2>&1

python3 - "$out" <<'EOF'
import json, pathlib, re, sys
out = pathlib.Path(sys.argv[1])
raw = {}
for line in (out / "raw.txt").read_text().splitlines():
    _, name, ops, p50, p99, errors = line.split()
    raw[name] = (float(ops), float(p50), float(p99), int(float(errors)))
kumiko = {}
for line in (out / "harness.log").read_text().splitlines():
    m = re.match(r"\| (\w+) \| kumiko-ignite \| ([\d.]+)(k?) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| (\d+) \|", line)
    if m:
        ops = float(m.group(2)) * (1000 if m.group(3) else 1)
        kumiko[m.group(1)] = (ops, float(m.group(4)), float(m.group(5)), float(m.group(6)), int(m.group(7)))
pairs = {"get": "get", "put": "rwtx", "update": "rwtx", "query": "range50", "query_gsi": "range50", "batch": "tx25", "mixed": None}
print("| workload | Kumiko ops/s (p50, p99 ms) | Kumiko CPU ms/op | errors | raw equivalent | raw ops/s (p50 ms) | Kumiko / raw |")
print("|---|---:|---:|---:|---|---:|---:|")
for w, r in pairs.items():
    k = kumiko.get(w)
    if k is None:
        continue
    cells = ["%s" % w, "%.0f (%.1f, %.1f)" % (k[0], k[1], k[2]), "%.2f" % (k[3] / 1000), str(k[4])]
    if r and r in raw:
        cells += [r, "%.0f (%.1f)" % (raw[r][0], raw[r][1]), "%.2f" % (k[0] / raw[r][0] if raw[r][0] else 0)]
    else:
        cells += ["–", "–", "–"]
    print("| " + " | ".join(cells) + " |")
for name in ("range50ro", "getall50"):
    if name in raw:
        print("\nraw %s: %.0f ops/s, p50 %.1f ms" % (name, raw[name][0], raw[name][1]))
EOF
