#!/usr/bin/env bash
# Vector search benchmark: one command. Builds what it needs (no install), then runs VectorBench
# (bench/vector/VectorBench.java) for 100,000 vectors of 128 dimensions and 20,000 of 768, and the
# searcher comparison (Kumiko's HNSW, Lucene's HNSW, exact) at the same sizes.
#
#   bench/vector/run.sh                 # full sizes
#   bench/vector/run.sh --scale 0.1     # a tenth of each size (a quick look on a busy machine)
#   bench/vector/run.sh --no-compare    # skip the searcher comparison
#   STORE=MEMORY bench/vector/run.sh    # on the memory store (default ROCKSDB)
set -euo pipefail
cd "$(dirname "$0")/../.."
scale=1
compare=1
while [ $# -gt 0 ]; do
  case "$1" in
    --scale) scale="$2"; shift 2 ;;
    --no-compare) compare=0; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
store="${STORE:-ROCKSDB}"
out="bench-results/vector-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
size() { python3 -c "print(max(1000, int($1 * $scale)))"; }

mvn -B -q -o -Pquick test-compile -pl kumiko-server -am -DskipTests
mvn -B -q -o dependency:build-classpath -pl kumiko-server -am -Dmdep.includeScope=test \
  -Dmdep.outputFile="$PWD/$out/classpath.txt" >/dev/null
# This build's classes first; Kumiko's own jars (an installed older version) are left out.
deps="$(tr ':' '\n' < "$out/classpath.txt" | grep -v '/dev/kumiko/' | paste -sd: -)"
cp="kumiko-server/target/classes:kumiko-server/target/test-classes:kumiko-engine/target/classes:kumiko-engine/target/test-classes:kumiko-rocksdb/target/classes:$deps"

{
  echo "# vector benchmark $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, scale $scale, store $store"
  for shape in "100000 128" "20000 768"; do
    set -- $shape
    java -Xmx6g -cp "$cp" bench/vector/VectorBench.java "$(size "$1")" "$2" "$store"
  done
  if [ "$compare" = 1 ]; then
    for shape in "100000 128" "20000 768"; do
      set -- $shape
      mvn -B -q -o -Pbench,quick test -pl bench/vector/lucene -am -Dtest=SearcherComparisonTest \
        -Dsurefire.failIfNoSpecifiedTests=false \
        -DargLine="-Xmx6g -Dvector.count=$(size "$1") -Dvector.dimensions=$2" >/dev/null
      cat bench/vector/lucene/target/surefire-reports/*SearcherComparisonTest-output.txt
    done
  fi
} | tee "$out/results.txt"
echo "results: $out/results.txt"
