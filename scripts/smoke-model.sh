#!/usr/bin/env bash
# `bin/kumiko model check` as a CI job runs it: every example model checks and exits 0, a budget
# lowered below the measured cost exits 1 naming the pattern, a pattern that finds nothing exits 1,
# a malformed file is refused with its line and column, --format junit is XML a CI system reads,
# and the examples validate against examples/models/model.schema.json (Debian's python3-jsonschema).
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

check_found_nothing() {
  local status=0
  # A prefix the Message items do not have: the Query reads nothing, which must fail the job.
  sed 's/":prefix": "MESSAGE#" }/":prefix": "MESSAGES#" }/' "$MODELS/chat.json" >"$SMOKE_TMP/chat-missed.json"
  "$KUMIKO_BIN" model check "$SMOKE_TMP/chat-missed.json" >"$SMOKE_TMP/missed.out" 2>"$SMOKE_TMP/missed.err" || status=$?
  expect_eq "a pattern that finds nothing exits 1" 1 "$status"
  if grep -q '^kumiko model check: found nothing: chat / roomMessages: ' "$SMOKE_TMP/missed.err"; then
    pass "the found-nothing failure names the pattern"
  else
    fail "the found-nothing failure names the pattern: $(head -c 300 "$SMOKE_TMP/missed.err")"
  fi
}

check_error_place() {
  local status=0
  # Line 7 of chat.json loses its comma; the parser stops at the next token, on line 8.
  sed '7s/"Connect40-Table",/"Connect40-Table"/' "$MODELS/chat.json" >"$SMOKE_TMP/chat-broken.json"
  "$KUMIKO_BIN" model check "$SMOKE_TMP/chat-broken.json" >/dev/null 2>"$SMOKE_TMP/broken.err" || status=$?
  expect_eq "a malformed model exits 2" 2 "$status"
  if grep -qF "kumiko model check: $SMOKE_TMP/chat-broken.json:8:5: not valid JSON" "$SMOKE_TMP/broken.err"; then
    pass "the malformed model's error says line and column"
  else
    fail "the malformed model's error says line and column: $(head -c 300 "$SMOKE_TMP/broken.err")"
  fi
}

check_junit() {
  local status=0 out="$SMOKE_TMP/junit.out"
  "$KUMIKO_BIN" model check "$SMOKE_TMP/chat-lowered.json" --format junit >"$SMOKE_TMP/chat.xml" 2>/dev/null || status=$?
  expect_eq "--format junit with a broken budget exits 1" 1 "$status"
  status=0
  "$PY" - "$SMOKE_TMP/chat.xml" >"$out" 2>&1 <<'PY' || status=$?
import sys
import xml.etree.ElementTree as ET

root = ET.parse(sys.argv[1]).getroot()
cases = list(root.iter("testcase"))
failed = [c.get("name") for c in cases if c.find("failure") is not None]
print("PASS the JUnit report has 9 test cases" if len(cases) == 9 else f"FAIL the JUnit report has {len(cases)} test cases")
print("PASS the JUnit report fails roomMessages" if failed == ["roomMessages"] else f"FAIL failed test cases: {failed}")
PY
  report_client_output "$out" "$status" "junit report"
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
  check_found_nothing
  check_error_place
  check_junit
  check_schema
  smoke_summary
}

main "$@"
