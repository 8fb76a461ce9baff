#!/usr/bin/env bash
# Drives an in-memory Kumiko server with the AWS CLI v2 and with boto3, unchanged, through the
# foundation operations: table lifecycle, tags, single-item put/get/delete, and a stream reading a
# TTL delete.
#
#   bash scripts/smoke-clients.sh        # closes with "smoke: N passed, M failed"; non-zero on failure
#   KUMIKO_SMOKE_KEEP=1 ...              # keep the temp dir (server log) for a look afterwards
set -uo pipefail

# shellcheck source=scripts/lib/smoke-common.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/smoke-common.sh"
SMOKE_SUMMARY_LABEL=smoke

CLI_TABLE=kumiko-smoke-cli
BOTO_TABLE=kumiko-smoke-boto3
TABLE_WAIT_SECONDS=10

# cli OPERATION ARGS...: runs `aws dynamodb`, stdout in CLI_OUT, stderr in $SMOKE_TMP/cli.err.
cli() {
  CLI_OUT=$("$AWS" dynamodb "$@" --endpoint-url "$ENDPOINT" \
    --cli-connect-timeout 5 --cli-read-timeout 15 2>"$SMOKE_TMP/cli.err")
}

cli_error() {
  tr '\n' ' ' <"$SMOKE_TMP/cli.err" | cut -c 1-400
}

# cli_check NAME OPERATION ARGS...: PASS if the call succeeds.
cli_check() {
  local name=$1
  shift
  if cli "$@"; then
    pass "$name"
  else
    fail "$name: $(cli_error)"
  fi
}

# cli_expect NAME WANT OPERATION ARGS...: PASS if the call succeeds and prints WANT.
cli_expect() {
  local name=$1 want=$2
  shift 2
  if cli "$@"; then
    expect_eq "$name" "$want" "$CLI_OUT"
  else
    fail "$name: $(cli_error)"
  fi
}

# A new table may be CREATING for a while, as in DynamoDB; poll (bounded) until it is ACTIVE.
cli_wait_active() {
  local deadline=$((SECONDS + TABLE_WAIT_SECONDS))
  while ((SECONDS < deadline)); do
    if cli describe-table --table-name "$CLI_TABLE" --query Table.TableStatus --output text &&
      [[ $CLI_OUT == ACTIVE ]]; then
      return 0
    fi
    sleep 0.2
  done
  return 1
}

# After DeleteTable, DescribeTable must end in ResourceNotFoundException (DELETING may come first).
cli_wait_gone() {
  local deadline=$((SECONDS + TABLE_WAIT_SECONDS))
  while ((SECONDS < deadline)); do
    if ! cli describe-table --table-name "$CLI_TABLE" &&
      grep -q ResourceNotFoundException "$SMOKE_TMP/cli.err"; then
      return 0
    fi
    sleep 0.2
  done
  return 1
}

smoke_cli() {
  local key='{"PK":{"S":"user#1"},"SK":{"S":"profile"}}'
  local item='{"PK":{"S":"user#1"},"SK":{"S":"profile"},"name":{"S":"Ada"},"age":{"N":"36"},"tags":{"SS":["b","a"]}}'

  cli_expect "cli create-table" "$CLI_TABLE" create-table --table-name "$CLI_TABLE" \
    --attribute-definitions AttributeName=PK,AttributeType=S AttributeName=SK,AttributeType=S \
    --key-schema AttributeName=PK,KeyType=HASH AttributeName=SK,KeyType=RANGE \
    --billing-mode PAY_PER_REQUEST \
    --query TableDescription.TableName --output text

  if cli_wait_active; then
    pass "cli describe-table reaches ACTIVE"
  else
    fail "cli describe-table reaches ACTIVE: last status '${CLI_OUT:-}' $(cli_error)"
  fi

  cli_expect "cli describe-table key schema and billing mode" \
    "$(printf 'PK\tHASH\tSK\tRANGE\tPAY_PER_REQUEST')" \
    describe-table --table-name "$CLI_TABLE" --output text \
    --query '[Table.KeySchema[0].AttributeName, Table.KeySchema[0].KeyType, Table.KeySchema[1].AttributeName, Table.KeySchema[1].KeyType, Table.BillingModeSummary.BillingMode]'

  local arn=""
  if cli describe-table --table-name "$CLI_TABLE" --query Table.TableArn --output text &&
    [[ $CLI_OUT == arn:aws:dynamodb:us-east-1:*:table/$CLI_TABLE ]]; then
    arn=$CLI_OUT
    pass "cli describe-table TableArn ($arn)"
  else
    fail "cli describe-table TableArn: got '${CLI_OUT:-}' $(cli_error)"
  fi

  cli_expect "cli list-tables contains the table" true \
    list-tables --query "contains(TableNames, '$CLI_TABLE')" --output json

  cli_check "cli tag-resource" tag-resource --resource-arn "$arn" \
    --tags Key=env,Value=smoke Key=team,Value=kumiko
  cli_expect "cli list-tags-of-resource" "$(printf 'smoke\tkumiko')" \
    list-tags-of-resource --resource-arn "$arn" --output text \
    --query "[Tags[?Key=='env'].Value | [0], Tags[?Key=='team'].Value | [0]]"

  cli_check "cli put-item" put-item --table-name "$CLI_TABLE" --item "$item"
  cli_expect "cli get-item returns the item" "$(printf 'Ada\t36\ta,b')" \
    get-item --table-name "$CLI_TABLE" --key "$key" --consistent-read --output text \
    --query "[Item.name.S, Item.age.N, join(',', sort(Item.tags.SS))]"

  cli_expect "cli execute-statement (PartiQL SELECT)" "Ada" execute-statement \
    --statement "SELECT name FROM \"$CLI_TABLE\" WHERE PK = ? AND SK = 'profile'" \
    --parameters '[{"S":"user#1"}]' --query 'Items[0].name.S' --output text

  cli_check "cli delete-item" delete-item --table-name "$CLI_TABLE" --key "$key"
  cli_expect "cli get-item after delete-item finds nothing" null \
    get-item --table-name "$CLI_TABLE" --key "$key" --consistent-read --query Item --output json

  cli_expect "cli delete-table" "$CLI_TABLE" \
    delete-table --table-name "$CLI_TABLE" --query TableDescription.TableName --output text
  if cli_wait_gone; then
    pass "cli describe-table after delete-table: ResourceNotFoundException"
  else
    fail "cli describe-table after delete-table: want ResourceNotFoundException, got '${CLI_OUT:-}' $(cli_error)"
  fi
}

smoke_boto3() {
  local out="$SMOKE_TMP/boto3.out" status=0
  "$PY" - "$ENDPOINT" "$BOTO_TABLE" "$TABLE_WAIT_SECONDS" >"$out" 2>&1 <<'PY' || status=$?
import sys
import time
from decimal import Decimal

endpoint, table_name, wait_seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])

try:
    import boto3
    from botocore.config import Config
    from botocore.exceptions import ClientError
except ImportError as e:
    print(f"FAIL boto3 import: {e} (install Debian's python3-boto3)")
    sys.exit(1)

config = Config(retries={"mode": "standard", "total_max_attempts": 1},
                connect_timeout=5, read_timeout=15)
session = boto3.session.Session(aws_access_key_id="dummy", aws_secret_access_key="dummy",
                                region_name="us-east-1")
client = session.client("dynamodb", endpoint_url=endpoint, config=config)
resource = session.resource("dynamodb", endpoint_url=endpoint, config=config)
KEY = {"PK": {"S": "user#1"}, "SK": {"S": "profile"}}
failures = 0


def check(name, fn):
    global failures
    try:
        fn()
        print(f"PASS boto3 {name}", flush=True)
    except Exception as e:  # noqa: BLE001 - every failure is reported, none stops the run
        failures += 1
        print(f"FAIL boto3 {name}: {type(e).__name__}: {e}", flush=True)


def error_code(e):
    return e.response.get("Error", {}).get("Code")


def create_table():
    r = client.create_table(
        TableName=table_name,
        AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"},
                              {"AttributeName": "SK", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"},
                   {"AttributeName": "SK", "KeyType": "RANGE"}],
        BillingMode="PAY_PER_REQUEST")
    assert r["TableDescription"]["TableName"] == table_name, r


def wait_active():
    deadline = time.monotonic() + wait_seconds
    status = None
    while time.monotonic() < deadline:
        status = client.describe_table(TableName=table_name)["Table"]["TableStatus"]
        if status == "ACTIVE":
            return
        time.sleep(0.2)
    raise AssertionError(f"table status still {status}")


table_arn = None


def describe_table():
    global table_arn
    t = client.describe_table(TableName=table_name)["Table"]
    keys = [(k["AttributeName"], k["KeyType"]) for k in t["KeySchema"]]
    assert keys == [("PK", "HASH"), ("SK", "RANGE")], keys
    assert t["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST", t.get("BillingModeSummary")
    assert t["TableArn"].endswith(":table/" + table_name), t["TableArn"]
    table_arn = t["TableArn"]


def list_tables():
    names = client.list_tables()["TableNames"]
    assert table_name in names, names


def tags():
    client.tag_resource(ResourceArn=table_arn,
                        Tags=[{"Key": "env", "Value": "smoke"}, {"Key": "team", "Value": "kumiko"}])
    got = {t["Key"]: t["Value"] for t in client.list_tags_of_resource(ResourceArn=table_arn)["Tags"]}
    assert got == {"env": "smoke", "team": "kumiko"}, got


def put_item():
    client.put_item(TableName=table_name, Item={
        **KEY, "name": {"S": "Ada"}, "age": {"N": "36"}, "tags": {"SS": ["b", "a"]},
        "price": {"N": "012.50"},
        "blob": {"B": b"\x00\x01\xff"}, "active": {"BOOL": True}, "nothing": {"NULL": True},
        "doc": {"M": {"list": {"L": [{"N": "1"}, {"S": "two"}]}}}})


def get_item():
    item = client.get_item(TableName=table_name, Key=KEY, ConsistentRead=True).get("Item")
    assert item is not None, "no Item in the response"
    assert item["name"] == {"S": "Ada"}, item
    assert item["age"] == {"N": "36"}, item
    # DynamoDB returns numbers normalized: no leading or trailing zeros.
    assert item["price"] == {"N": "12.5"}, item["price"]
    assert sorted(item["tags"]["SS"]) == ["a", "b"], item
    assert item["blob"] == {"B": b"\x00\x01\xff"}, item
    assert item["active"] == {"BOOL": True}, item
    assert item["nothing"] == {"NULL": True}, item
    assert item["doc"] == {"M": {"list": {"L": [{"N": "1"}, {"S": "two"}]}}}, item


def resource_round_trip():
    # The high-level Table API (Decimal numbers, plain Python values) is what most code uses.
    table = resource.Table(table_name)
    table.put_item(Item={"PK": "user#2", "SK": "profile", "score": Decimal("12.50"), "ok": True})
    item = table.get_item(Key={"PK": "user#2", "SK": "profile"}, ConsistentRead=True).get("Item")
    assert item == {"PK": "user#2", "SK": "profile", "score": Decimal("12.5"), "ok": True}, item
    table.delete_item(Key={"PK": "user#2", "SK": "profile"})


def delete_item():
    client.delete_item(TableName=table_name, Key=KEY)
    r = client.get_item(TableName=table_name, Key=KEY, ConsistentRead=True)
    assert "Item" not in r, r


def delete_table():
    r = client.delete_table(TableName=table_name)
    assert r["TableDescription"]["TableName"] == table_name, r
    deadline = time.monotonic() + wait_seconds
    while time.monotonic() < deadline:
        try:
            client.describe_table(TableName=table_name)
        except ClientError as e:
            if error_code(e) == "ResourceNotFoundException":
                return
            raise
        time.sleep(0.2)
    raise AssertionError("table still described after delete_table")


def streams_and_ttl():
    # A table with a stream and TTL: an expired item is swept (the admin hook makes it happen now;
    # the background sweeper may have been first) and boto3's Streams client reads the INSERT and
    # the REMOVE, which carries the service identity of a TTL delete.
    import json
    import urllib.request
    name = table_name + "-streams"
    client.create_table(
        TableName=name,
        AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST",
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
    client.update_time_to_live(TableName=name,
                               TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"})
    ttl = client.describe_time_to_live(TableName=name)["TimeToLiveDescription"]
    assert ttl == {"TimeToLiveStatus": "ENABLED", "AttributeName": "ttl"}, ttl
    client.put_item(TableName=name, Item={"PK": {"S": "CONNECTION#1"},
                                          "ttl": {"N": str(int(time.time()) - 10)}})
    req = urllib.request.Request(endpoint + "/kumiko/admin/ttl/sweep", data=b"", method="POST")
    with urllib.request.urlopen(req, timeout=15) as r:
        assert "deletedItems" in json.loads(r.read()), "sweep answer"
    assert "Item" not in client.get_item(TableName=name, Key={"PK": {"S": "CONNECTION#1"}}), "not swept"
    streams = session.client("dynamodbstreams", endpoint_url=endpoint, config=config)
    arn = client.describe_table(TableName=name)["Table"]["LatestStreamArn"]
    assert streams.list_streams(TableName=name)["Streams"][0]["StreamArn"] == arn
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    it = streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                    ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    records = streams.get_records(ShardIterator=it)["Records"]
    assert [r["eventName"] for r in records] == ["INSERT", "REMOVE"], records
    assert records[1]["userIdentity"] == {"PrincipalId": "dynamodb.amazonaws.com", "Type": "Service"}, records[1]
    assert records[1]["dynamodb"]["OldImage"]["PK"] == {"S": "CONNECTION#1"}, records[1]
    client.delete_table(TableName=name)


def partiql():
    t = f'"{table_name}"'
    client.execute_statement(Statement=f"INSERT INTO {t} VALUE {{'PK': 'pq#1', 'SK': ?, 'n': 1}}",
                             Parameters=[{"S": "a"}])
    try:
        client.execute_statement(Statement=f"INSERT INTO {t} VALUE {{'PK': 'pq#1', 'SK': 'a'}}")
        raise AssertionError("a second INSERT of the same key succeeded")
    except client.exceptions.DuplicateItemException:
        pass
    client.execute_statement(Statement=f"UPDATE {t} SET n = n + 1 WHERE PK = 'pq#1' AND SK = 'a'")
    rows = client.execute_statement(Statement=f"SELECT n FROM {t} WHERE PK = ? AND begins_with(SK, 'a')",
                                    Parameters=[{"S": "pq#1"}])["Items"]
    assert rows == [{"n": {"N": "2"}}], rows
    batch = client.batch_execute_statement(Statements=[
        {"Statement": f"SELECT * FROM {t} WHERE PK = 'pq#1' AND SK = 'a'"},
        {"Statement": f"SELECT * FROM {t} WHERE n = 2"}])["Responses"]
    assert batch[0]["Item"]["n"] == {"N": "2"} and batch[1]["Error"]["Code"] == "ValidationError", batch
    client.execute_transaction(ClientRequestToken="smoke-pq-1", TransactStatements=[
        {"Statement": f"DELETE FROM {t} WHERE PK = 'pq#1' AND SK = 'a' AND n = 2"}])
    assert client.execute_statement(Statement=f"SELECT * FROM {t} WHERE PK = 'pq#1'")["Items"] == []


check("create_table", create_table)
check("streams and TTL: a swept item's REMOVE record carries the service identity", streams_and_ttl)
check("describe_table reaches ACTIVE", wait_active)
check("describe_table key schema, billing mode, ARN", describe_table)
check("list_tables contains the table", list_tables)
check("tag_resource + list_tags_of_resource", tags)
check("put_item", put_item)
check("get_item returns every attribute type", get_item)
check("Table resource put/get/delete with Decimal", resource_round_trip)
check("delete_item, then get_item finds nothing", delete_item)
check("PartiQL: INSERT, DuplicateItemException, UPDATE, SELECT, batch, transaction", partiql)
check("delete_table, then ResourceNotFoundException", delete_table)
sys.exit(1 if failures else 0)
PY
  report_client_output "$out" "$status" "boto3 script"
}

main() {
  echo "smoke: AWS CLI $("$AWS" --version 2>&1 | cut -d' ' -f1), $("$PY" --version 2>&1) at $PY"
  build_server || { smoke_summary; exit 1; }

  local port
  port=$(free_port)
  ENDPOINT="http://127.0.0.1:$port"
  if ! start_and_wait "server starts (--in-memory)" "$port" "$SMOKE_TMP/server.log" --in-memory; then
    smoke_summary
    exit 1
  fi

  smoke_cli
  smoke_boto3
  smoke_summary
}

main "$@"
