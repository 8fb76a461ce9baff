#!/usr/bin/env bash
# Crash durability on the RocksDB store: every write the server acknowledged must survive kill -9.
#
# Starts `bin/kumiko serve --data-dir <tmp>`, creates a table, puts ITEM_COUNT items with boto3,
# kills the JVM with SIGKILL (no shutdown hook, no flush), starts a new server on the same data
# directory and reads every item back with a consistent GetItem (Scan may not exist yet).
#
#   bash scripts/smoke-crash.sh          # closes with "smoke-crash: N passed, M failed"
set -uo pipefail

# shellcheck source=scripts/lib/smoke-common.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/smoke-common.sh"
SMOKE_SUMMARY_LABEL=smoke-crash

TABLE=kumiko-smoke-crash
ITEM_COUNT=200
TABLE_WAIT_SECONDS=10

# The boto3 half, written once and run in two phases: "put" before the crash, "verify" after.
write_client_script() {
  cat >"$SMOKE_TMP/crash_client.py" <<'PY'
import sys
import time

phase, endpoint, table_name, count, wait_seconds = (
    sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5]))

try:
    import boto3
    from botocore.config import Config
except ImportError as e:
    print(f"FAIL boto3 import: {e} (install Debian's python3-boto3)")
    sys.exit(1)

client = boto3.session.Session(
    aws_access_key_id="dummy", aws_secret_access_key="dummy", region_name="us-east-1",
).client("dynamodb", endpoint_url=endpoint, config=Config(
    retries={"mode": "standard", "total_max_attempts": 1}, connect_timeout=5, read_timeout=15))
failures = 0


def check(name, fn):
    global failures
    try:
        detail = fn()
        print(f"PASS {name}{f' ({detail})' if detail else ''}", flush=True)
    except Exception as e:  # noqa: BLE001 - report and go on
        failures += 1
        print(f"FAIL {name}: {type(e).__name__}: {e}", flush=True)


def key(i):
    return {"PK": {"S": f"item#{i:04d}"}, "SK": {"N": str(i)}}


def payload(i):
    # Some bulk per item, so that the log holds more than a few bytes per write.
    return f"payload-{i}-" + "x" * (i % 97)


def wait_active():
    deadline = time.monotonic() + wait_seconds
    status = None
    while time.monotonic() < deadline:
        status = client.describe_table(TableName=table_name)["Table"]["TableStatus"]
        if status == "ACTIVE":
            return status
        time.sleep(0.2)
    raise AssertionError(f"table status still {status}")


def create_table():
    client.create_table(
        TableName=table_name,
        AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"},
                              {"AttributeName": "SK", "AttributeType": "N"}],
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"},
                   {"AttributeName": "SK", "KeyType": "RANGE"}],
        BillingMode="PAY_PER_REQUEST")
    return wait_active()


def put_all():
    for i in range(count):
        client.put_item(TableName=table_name,
                        Item={**key(i), "payload": {"S": payload(i)}, "n": {"N": str(i * 7)}})
    return f"{count} acknowledged"


def verify_all():
    missing, wrong = [], []
    for i in range(count):
        item = client.get_item(TableName=table_name, Key=key(i), ConsistentRead=True).get("Item")
        if item is None:
            missing.append(i)
        elif item.get("payload") != {"S": payload(i)} or item.get("n") != {"N": str(i * 7)}:
            wrong.append(i)
    if missing or wrong:
        raise AssertionError(f"{count - len(missing) - len(wrong)}/{count} intact; "
                             f"missing {missing[:10]}{'...' if len(missing) > 10 else ''}; "
                             f"wrong {wrong[:10]}{'...' if len(wrong) > 10 else ''}")
    return f"{count}/{count} intact"


if phase == "put":
    check("create_table on the RocksDB store", create_table)
    if failures == 0:
        check(f"put_item x{count}", put_all)
elif phase == "verify":
    check("table ACTIVE after kill -9 and restart", wait_active)
    check(f"all {count} acknowledged items readable after kill -9 (GetItem)", verify_all)
else:
    raise SystemExit(f"unknown phase {phase}")
sys.exit(1 if failures else 0)
PY
}

# run_client PHASE: runs the boto3 half against $ENDPOINT and counts its PASS/FAIL lines.
run_client() {
  local phase=$1 out="$SMOKE_TMP/client-$1.out" status=0
  "$PY" "$SMOKE_TMP/crash_client.py" "$phase" "$ENDPOINT" "$TABLE" "$ITEM_COUNT" \
    "$TABLE_WAIT_SECONDS" >"$out" 2>&1 || status=$?
  report_client_output "$out" "$status" "boto3 $phase phase"
  return "$status"
}

main() {
  echo "smoke-crash: $("$PY" --version 2>&1) at $PY, $ITEM_COUNT items"
  build_server || { smoke_summary; exit 1; }
  write_client_script

  local data_dir="$SMOKE_TMP/data" port
  mkdir -p "$data_dir"
  port=$(free_port)
  ENDPOINT="http://127.0.0.1:$port"
  if ! start_and_wait "server starts (--data-dir)" "$port" "$SMOKE_TMP/server-1.log" \
    --data-dir "$data_dir"; then
    smoke_summary
    exit 1
  fi
  if ! run_client put; then
    smoke_summary
    exit 1
  fi

  kill_server_hard
  if [[ -n "$(ls -A "$data_dir")" ]]; then
    pass "kill -9; data dir is not empty"
  else
    fail "kill -9; data dir $data_dir is empty: was --data-dir used?"
  fi

  # A new port: the old one may linger in TIME_WAIT, and which port is not what is under test.
  port=$(free_port)
  ENDPOINT="http://127.0.0.1:$port"
  if start_and_wait "server restarts on the same data dir" "$port" "$SMOKE_TMP/server-2.log" \
    --data-dir "$data_dir"; then
    run_client verify
  fi
  smoke_summary
}

main "$@"
