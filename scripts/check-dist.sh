#!/usr/bin/env bash
# Checks the distribution archive as a user meets it: unpacked into an empty directory, away from
# the clone, `bin/kumiko serve` must start and answer with only a JRE. A `mvn` that fails loudly is
# first on PATH, so any attempt to build is caught.
#
#   mvn -B package -DskipTests && bash scripts/check-dist.sh    # "dist: PASS" or "dist: FAIL ..."
set -euo pipefail

repo_root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)"
START_TIMEOUT_SECONDS=60

fail() {
  echo "dist: FAIL $*" >&2
  exit 1
}

shopt -s nullglob
archives=("$repo_root"/kumiko-dist/target/kumiko-*.tar.gz)
((${#archives[@]} == 1)) || fail "expected one kumiko-dist/target/kumiko-*.tar.gz (run mvn -B package first)"
archive="${archives[0]}"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/kumiko-dist.XXXXXX")"
server_pid=""
cleanup() {
  if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if [[ -n ${cluster:-} ]]; then stop_cluster; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

tar -xzf "$archive" -C "$tmp"
dist=("$tmp"/kumiko-*)
((${#dist[@]} == 1)) || fail "the archive must hold one top directory kumiko-VERSION/"
dist="${dist[0]}"
for f in bin/kumiko lib/kumiko.jar lib/ignite/kumiko-ignite-client.jar LICENSE NOTICE README.md docs/testing.md; do
  [[ -e $dist/$f ]] || fail "the archive lacks $f"
done
[[ -x $dist/bin/kumiko ]] || fail "bin/kumiko is not executable"
[[ ! -e $dist/pom.xml ]] || fail "the archive holds a pom.xml"

# A mvn that must never run.
mkdir -p "$tmp/no-maven"
printf '#!/bin/sh\necho "mvn was called: $*" >>"%s"\nexit 97\n' "$tmp/mvn-called" >"$tmp/no-maven/mvn"
chmod +x "$tmp/no-maven/mvn"

mkdir -p "$tmp/elsewhere"
log="$tmp/server.log"
(cd "$tmp/elsewhere" && PATH="$tmp/no-maven:$PATH" exec "$dist/bin/kumiko" serve --in-memory --port 0 \
  >"$log" 2>&1) &
server_pid=$!

port=""
deadline=$((SECONDS + START_TIMEOUT_SECONDS))
while ((SECONDS < deadline)); do
  port="$(sed -n 's|.*listening on http://127.0.0.1:\([0-9][0-9]*\).*|\1|p' "$log")"
  [[ -n $port ]] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.2
done
[[ -n $port ]] || fail "bin/kumiko serve did not start: $(tr '\n' ' ' <"$log" | cut -c 1-600)"

answer="$(curl -s --max-time 10 -X POST "http://127.0.0.1:$port/" \
  -H 'Content-Type: application/x-amz-json-1.0' -H 'X-Amz-Target: DynamoDB_20120810.ListTables' \
  -H 'Authorization: AWS4-HMAC-SHA256 Credential=dist/20250101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0' \
  -d '{}')"
[[ $answer == '{"TableNames":[]}' ]] || fail "ListTables answered: $answer"
[[ ! -e $tmp/mvn-called ]] || fail "$(cat "$tmp/mvn-called")"
version="$(PATH="$tmp/no-maven:$PATH" "$dist/bin/kumiko" --version)"
echo "dist: PASS $(basename "$archive") ($version) serves with a JRE only, started from another directory"

# The Ignite node archive, unpacked over the distribution: `bin/kumiko ignite start` runs a node with
# a JRE alone (no mvn), and serve --store ignite answers on it.
node_archives=("$repo_root"/kumiko-ignite-node/target/kumiko-ignite-node-*.tar.gz)
((${#node_archives[@]} == 1)) || fail "expected one kumiko-ignite-node/target/kumiko-ignite-node-*.tar.gz"
tar -xzf "${node_archives[0]}" -C "$tmp"
kill "$server_pid" 2>/dev/null || true
wait "$server_pid" 2>/dev/null || true
cluster="$tmp/cluster"
endpoints="$(cd "$tmp/elsewhere" && PATH="$tmp/no-maven:$PATH" "$dist/bin/kumiko" ignite start --nodes 1 \
  --base-port 10900 --work-dir "$cluster" 2>"$tmp/ignite.log" | tail -1)" ||
  fail "ignite start from the archives: $(tr '\n' ' ' <"$tmp/ignite.log" | cut -c 1-600)"
stop_cluster() { PATH="$tmp/no-maven:$PATH" "$dist/bin/kumiko" ignite stop --work-dir "$cluster" >/dev/null 2>&1 || true; }
(cd "$tmp/elsewhere" && PATH="$tmp/no-maven:$PATH" exec "$dist/bin/kumiko" serve --store ignite \
  --ignite-endpoints "$endpoints" --port 0 >"$log" 2>&1) &
server_pid=$!
port=""
deadline=$((SECONDS + START_TIMEOUT_SECONDS))
while ((SECONDS < deadline)); do
  port="$(sed -n 's|.*listening on http://127.0.0.1:\([0-9][0-9]*\).*|\1|p' "$log")"
  [[ -n $port ]] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.2
done
[[ -n $port ]] || { stop_cluster; fail "serve --store ignite did not start: $(tr '\n' ' ' <"$log" | cut -c 1-600)"; }
answer="$(curl -s --max-time 10 -X POST "http://127.0.0.1:$port/" \
  -H 'Content-Type: application/x-amz-json-1.0' -H 'X-Amz-Target: DynamoDB_20120810.ListTables' \
  -H 'Authorization: AWS4-HMAC-SHA256 Credential=dist/20250101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0' \
  -d '{}')"
stop_cluster
[[ $answer == '{"TableNames":[]}' ]] || fail "ListTables on Ignite answered: $answer"
[[ ! -e $tmp/mvn-called ]] || fail "$(cat "$tmp/mvn-called")"
echo "dist: PASS $(basename "${node_archives[0]}") over it: ignite start and serve --store ignite with a JRE only"
