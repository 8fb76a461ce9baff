#!/usr/bin/env bash
# Checks that adding kumiko-junit to a project leaves the project's own dependency versions alone:
# `mvn dependency:list` of examples/junit (the AWS SDK's Netty client plus kumiko-junit) is compared
# with the same project without kumiko-junit. Every io.netty artifact must be there at the same
# version, and kumiko-junit may add nothing but itself (Netty, Jackson and picocli are relocated
# inside it; RocksDB is optional). Needs the kumiko artifacts in the local repository (mvn install).
#
#   mvn -B -q install -DskipTests && bash scripts/check-netty-unchanged.sh
set -euo pipefail

repo_root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)"
example="$repo_root/examples/junit"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/kumiko-netty.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# list POM OUT: the resolved test class path as sorted groupId:artifactId:type:version lines.
list() {
  (cd "$(dirname "$1")" && mvn -B -q -f "$1" dependency:list -DincludeScope=test -DoutputFile="$2" \
    -DexcludeTransitive=false -Dsort=true </dev/null 2>&1 | sed -e $'s/\x1b\\[0m//g')
  sed -n 's/^ *\([^ :]*:[^ :]*:[^ :]*:[^ :]*\):[^ ]*.*$/\1/p' "$2" | sort -u >"$2.sorted"
}

cp -r "$example" "$tmp/without"
sed -i '/KUMIKO-BEGIN/,/KUMIKO-END/d' "$tmp/without/pom.xml"
grep -q "<artifactId>kumiko-junit</artifactId>" "$tmp/without/pom.xml" && { echo "netty: FAIL the baseline still names kumiko-junit" >&2; exit 1; }

list "$example/pom.xml" "$tmp/with.txt"
list "$tmp/without/pom.xml" "$tmp/without.txt"

netty_with="$(grep '^io\.netty:' "$tmp/with.txt.sorted" || true)"
netty_without="$(grep '^io\.netty:' "$tmp/without.txt.sorted" || true)"
[[ -n $netty_without ]] || { echo "netty: FAIL the example resolves no Netty at all" >&2; exit 1; }
if [[ $netty_with != "$netty_without" ]]; then
  echo "netty: FAIL kumiko-junit changed the project's Netty:" >&2
  diff <(echo "$netty_without") <(echo "$netty_with") >&2 || true
  exit 1
fi
added="$(comm -13 "$tmp/without.txt.sorted" "$tmp/with.txt.sorted")"
removed="$(comm -23 "$tmp/without.txt.sorted" "$tmp/with.txt.sorted")"
if [[ -n $removed || $(grep -vc '^dev\.kumiko:kumiko-junit:' <<<"$added" || true) != 0 ]]; then
  echo "netty: FAIL kumiko-junit changed other dependencies; added: [$added] removed: [$removed]" >&2
  exit 1
fi
echo "netty: PASS $(wc -l <<<"$netty_with") io.netty artifacts unchanged with kumiko-junit; it adds only: $added"
