#!/usr/bin/env bash
# `bin/kumiko model check` as a CI job runs it: every example model checks and exits 0, a budget
# lowered below the measured cost exits 1 naming the pattern, and the examples validate against
# examples/models/model.schema.json (Debian's python3-jsonschema).
#
#   bash scripts/smoke-model.sh          # closes with "smoke-model: N passed, M failed"
set -uo pipefail

# shellcheck source=scripts/lib/smoke-common.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/smoke-common.sh"
SMOKE_SUMMARY_LABEL=smoke-model
MODELS="$SMOKE_REPO_ROOT/examples/models"

check_examples() {
  local model status
  for model in chat mbc-cqrs sql-to-nosql; do
    status=0
    "$KUMIKO_BIN" model check "$MODELS/$model.json" >"$SMOKE_TMP/$model.out" 2>"$SMOKE_TMP/$model.err" || status=$?
    if ((status == 0)) && grep -q '^Budgets: every pattern is within its budget.$' "$SMOKE_TMP/$model.out"; then
      pass "model check $model.json exits 0"
    else
      fail "model check $model.json: exit $status: $(head -c 300 "$SMOKE_TMP/$model.err")"
    fi
  done
}

check_lowered_budget() {
  local status=0
  # roomMessages measures 1 RCU at the default --scale; a budget of 0.5 must fail the check.
  sed 's/"maxRcu": 2,/"maxRcu": 0.5,/' "$MODELS/chat.json" >"$SMOKE_TMP/chat-lowered.json"
  "$KUMIKO_BIN" model check "$SMOKE_TMP/chat-lowered.json" --format markdown \
    >"$SMOKE_TMP/lowered.out" 2>"$SMOKE_TMP/lowered.err" || status=$?
  expect_eq "a lowered budget exits 1" 1 "$status"
  if grep -q 'budget exceeded: chat / roomMessages: RCU 1 > maxRcu 0.5' "$SMOKE_TMP/lowered.err"; then
    pass "the failure names the pattern"
  else
    fail "the failure names the pattern: $(head -c 300 "$SMOKE_TMP/lowered.err")"
  fi
}

check_schema() {
  local out="$SMOKE_TMP/schema.out" status=0
  "$PY" - "$MODELS" >"$out" 2>&1 <<'PY' || status=$?
import json
import sys
from pathlib import Path

try:
    import jsonschema
except ImportError as e:
    print(f"FAIL jsonschema import: {e} (install Debian's python3-jsonschema)")
    sys.exit(1)

models = Path(sys.argv[1])
validator = jsonschema.Draft202012Validator(json.loads((models / "model.schema.json").read_text()))
for name in ("chat", "mbc-cqrs", "sql-to-nosql"):
    errors = [e.message for e in validator.iter_errors(json.loads((models / f"{name}.json").read_text()))]
    print(f"PASS {name}.json matches the schema" if not errors else f"FAIL {name}.json: {errors[:3]}")
broken = json.loads((models / "chat.json").read_text())
broken["accessPatterns"][0]["maxRCU"] = 1
print("PASS the schema rejects a misspelt budget" if list(validator.iter_errors(broken))
      else "FAIL the schema accepts a misspelt budget")
PY
  report_client_output "$out" "$status" "schema check"
}

main() {
  build_server || { smoke_summary; exit 1; }
  check_examples
  check_lowered_budget
  check_schema
  smoke_summary
}

main "$@"
