#!/usr/bin/env bash
# Exports and imports with real clients: boto3 exports a table to s3rver (a real S3-compatible
# server from npm, installed by `npm ci --prefix scripts/s3rver`), reads the manifest back with
# boto3's own S3 client, imports the data into a new table and compares every item; then
# `bin/kumiko export` and `bin/kumiko import --replace` dump and reload a table through a folder.
#
#   bash scripts/smoke-exports.sh        # closes with "smoke-exports: N passed, M failed"
set -uo pipefail

# shellcheck source=scripts/lib/smoke-common.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/smoke-common.sh"
SMOKE_SUMMARY_LABEL=smoke-exports
S3RVER="$SMOKE_REPO_ROOT/scripts/s3rver/node_modules/s3rver/bin/s3rver.js"
S3RVER_PID=""

stop_s3rver() {
  if [[ -n $S3RVER_PID ]]; then
    kill -TERM "$S3RVER_PID" 2>/dev/null || true
    wait "$S3RVER_PID" 2>/dev/null || true
    S3RVER_PID=""
  fi
}
trap 'stop_s3rver; smoke_cleanup' EXIT

start_s3rver() {
  local port=$1 deadline=$((SECONDS + SERVER_START_TIMEOUT_SECONDS))
  if [[ ! -f $S3RVER ]]; then
    fail "s3rver is not installed (npm ci --prefix scripts/s3rver)"
    return 1
  fi
  mkdir -p "$SMOKE_TMP/s3"
  node "$S3RVER" -d "$SMOKE_TMP/s3" -a 127.0.0.1 -p "$port" --silent --configure-bucket smoke-bucket \
    >"$SMOKE_TMP/s3rver.log" 2>&1 &
  S3RVER_PID=$!
  while ((SECONDS < deadline)); do
    if curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$port/"; then
      pass "s3rver answers (port $port)"
      return 0
    fi
    kill -0 "$S3RVER_PID" 2>/dev/null || break
    sleep 0.2
  done
  fail "s3rver did not start: $(head -c 300 "$SMOKE_TMP/s3rver.log")"
  return 1
}

boto3_round_trip() {
  local port=$1 s3port=$2 out="$SMOKE_TMP/boto3.out" status=0
  KUMIKO_PORT=$port S3_PORT=$s3port timeout 120 "$PY" - >"$out" 2>&1 <<'PY' || status=$?
import os, time, boto3
ddb = boto3.client("dynamodb", endpoint_url="http://127.0.0.1:%s" % os.environ["KUMIKO_PORT"])
s3 = boto3.client("s3", endpoint_url="http://127.0.0.1:%s" % os.environ["S3_PORT"],
                  aws_access_key_id="S3RVER", aws_secret_access_key="S3RVER")
keys = dict(AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}], BillingMode="PAY_PER_REQUEST")
ddb.create_table(TableName="smoke", **keys)
for i in range(50):
    ddb.put_item(TableName="smoke", Item={"pk": {"S": "k%d" % i}, "n": {"N": str(i)},
                 "b": {"B": bytes([i])}, "m": {"M": {"l": {"L": [{"BOOL": True}, {"NULL": True}]}}}})
arn = ddb.describe_table(TableName="smoke")["Table"]["TableArn"]
for fmt in ("DYNAMODB_JSON", "ION"):
    e = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="smoke-bucket", S3Prefix="x/" + fmt,
                                          ExportFormat=fmt)["ExportDescription"]
    deadline = time.time() + 60
    while e["ExportStatus"] == "IN_PROGRESS" and time.time() < deadline:
        time.sleep(0.2)
        e = ddb.describe_export(ExportArn=e["ExportArn"])["ExportDescription"]
    print("PASS" if e["ExportStatus"] == "COMPLETED" and e["ItemCount"] == 50 else "FAIL", "export", fmt, e["ExportStatus"])
    summary = s3.get_object(Bucket="smoke-bucket", Key=e["ExportManifest"])["Body"].read().decode()
    print("PASS" if '"itemCount":50' in summary else "FAIL", "manifest-summary.json read by boto3's S3 client", fmt)
    data = e["ExportManifest"].rsplit("/", 1)[0] + "/data/"
    i = ddb.import_table(S3BucketSource={"S3Bucket": "smoke-bucket", "S3KeyPrefix": data}, InputFormat=fmt,
                         InputCompressionType="GZIP",
                         TableCreationParameters=dict(TableName="copy_" + fmt, **keys))["ImportTableDescription"]
    deadline = time.time() + 60
    while i["ImportStatus"] == "IN_PROGRESS" and time.time() < deadline:
        time.sleep(0.2)
        i = ddb.describe_import(ImportArn=i["ImportArn"])["ImportTableDescription"]
    a = sorted(map(repr, ddb.scan(TableName="smoke")["Items"]))
    b = sorted(map(repr, ddb.scan(TableName="copy_" + fmt)["Items"]))
    print("PASS" if i["ImportStatus"] == "COMPLETED" and a == b and len(a) == 50 else "FAIL",
          "import", fmt, "has every item", i["ImportStatus"], len(b))
print("PASS" if len(ddb.list_exports(TableArn=arn)["ExportSummaries"]) == 2 else "FAIL", "list_exports")
print("PASS" if len(ddb.list_imports()["ImportSummaryList"]) == 2 else "FAIL", "list_imports")
PY
  report_client_output "$out" "$status" "boto3 export/import"
}

cli_dump_and_reset() {
  local port=$1 dump="$SMOKE_TMP/dump" status=0
  "$KUMIKO_BIN" export smoke --to "$dump" --endpoint "http://127.0.0.1:$port" >"$SMOKE_TMP/cli.out" 2>&1 || status=$?
  expect_eq "kumiko export exits 0" 0 "$status"
  aws dynamodb delete-item --endpoint-url "http://127.0.0.1:$port" --table-name smoke \
    --key '{"pk":{"S":"k1"}}' >/dev/null 2>&1
  status=0
  "$KUMIKO_BIN" import --from "$dump" --replace --endpoint "http://127.0.0.1:$port" >>"$SMOKE_TMP/cli.out" 2>&1 || status=$?
  expect_eq "kumiko import --replace exits 0" 0 "$status"
  local count
  count=$(aws dynamodb scan --endpoint-url "http://127.0.0.1:$port" --table-name smoke --select COUNT \
    --query Count --output text 2>/dev/null)
  expect_eq "the reset table has every item again" 50 "$count"
}

main() {
  build_server || { smoke_summary; exit 1; }
  local port s3port
  port=$(free_port)
  s3port=$(free_port)
  start_s3rver "$s3port" || { smoke_summary; exit 1; }
  start_and_wait "serve --s3-endpoint" "$port" "$SMOKE_TMP/server.log" --in-memory \
    --s3-endpoint "http://127.0.0.1:$s3port" --s3-access-key-id S3RVER --s3-secret-access-key S3RVER \
    --import-log-dir "$SMOKE_TMP/import-logs" || { smoke_summary; exit 1; }
  boto3_round_trip "$port" "$s3port"
  cli_dump_and_reset "$port"
  smoke_summary
}

main "$@"
