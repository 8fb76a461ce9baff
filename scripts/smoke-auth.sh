#!/usr/bin/env bash
# Drives a Kumiko server running with --auth=sigv4 over HTTPS (--tls-cert/--tls-key with the test
# certificate for localhost / 127.0.0.1) with boto3 and the AWS CLI: the right key works, a wrong
# secret, an unknown key and a wrong session token get DynamoDB's errors, plain HTTP is refused.
#
#   bash scripts/smoke-auth.sh           # closes with "smoke-auth: N passed, M failed"
#   KUMIKO_SMOKE_AUTH_PORT=8611 ...      # another port (default 8610)
set -uo pipefail

# shellcheck source=scripts/lib/smoke-common.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/smoke-common.sh"
SMOKE_SUMMARY_LABEL=smoke-auth

PORT=${KUMIKO_SMOKE_AUTH_PORT:-8610}
TLS_DIR="$SMOKE_REPO_ROOT/kumiko-server/src/test/resources/tls"
CERT="$TLS_DIR/cert.pem"
ENDPOINT="https://localhost:$PORT"

write_credentials() {
  cat >"$SMOKE_TMP/credentials.json" <<'JSON'
{"keys": [
  {"accessKeyId": "AKIASMOKE", "secretAccessKey": "smoke-secret"},
  {"accessKeyId": "ASIASMOKE", "secretAccessKey": "temp-secret", "sessionToken": "smoke-token"}
]}
JSON
}

# wait_ready_tls: true once GET / over HTTPS (trusting the test certificate) answers 200.
wait_ready_tls() {
  local deadline=$((SECONDS + SERVER_START_TIMEOUT_SECONDS)) code
  while ((SECONDS < deadline)); do
    kill -0 "$SERVER_PID" 2>/dev/null || return 1
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 --cacert "$CERT" "$ENDPOINT/" || true)
    [[ $code == 200 ]] && return 0
    sleep 0.2
  done
  return 1
}

smoke_transport() {
  local body
  body=$(curl -s --max-time 5 --cacert "$CERT" "$ENDPOINT/")
  expect_eq "health check over HTTPS needs no signature (it names the Host)" "healthy: localhost:$PORT " "$body"
  if curl -s -o /dev/null --max-time 5 "http://127.0.0.1:$PORT/"; then
    fail "plain HTTP to the TLS port is refused"
  else
    pass "plain HTTP to the TLS port is refused"
  fi
  local code
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 --cacert "$CERT" -X POST "$ENDPOINT/kumiko/admin/ttl/sweep")
  expect_eq "admin endpoints are off with --auth=sigv4" 403 "$code"
}

smoke_cli_signed() {
  local out
  if out=$(AWS_ACCESS_KEY_ID=AKIASMOKE AWS_SECRET_ACCESS_KEY=smoke-secret "$AWS" dynamodb list-tables \
    --endpoint-url "$ENDPOINT" --ca-bundle "$CERT" --output text 2>"$SMOKE_TMP/cli.err"); then
    pass "cli list-tables signed by a known key over HTTPS"
  else
    fail "cli list-tables: $(tr '\n' ' ' <"$SMOKE_TMP/cli.err" | cut -c 1-300)"
  fi
  if AWS_ACCESS_KEY_ID=AKIASMOKE AWS_SECRET_ACCESS_KEY=wrong "$AWS" dynamodb list-tables \
    --endpoint-url "$ENDPOINT" --ca-bundle "$CERT" >/dev/null 2>"$SMOKE_TMP/cli.err"; then
    fail "cli with a wrong secret is refused"
  elif grep -q InvalidSignatureException "$SMOKE_TMP/cli.err"; then
    pass "cli with a wrong secret gets InvalidSignatureException"
  else
    fail "cli with a wrong secret: $(tr '\n' ' ' <"$SMOKE_TMP/cli.err" | cut -c 1-300)"
  fi
}

smoke_boto3_signed() {
  local out="$SMOKE_TMP/boto3.out" status=0
  "$PY" - "$ENDPOINT" "$CERT" >"$out" 2>&1 <<'PY' || status=$?
import gzip
import sys

endpoint, cert = sys.argv[1], sys.argv[2]
try:
    import boto3
    from botocore.config import Config
    from botocore.exceptions import ClientError
except ImportError as e:
    print(f"FAIL boto3 import: {e} (install Debian's python3-boto3)")
    sys.exit(1)

config = Config(retries={"mode": "standard", "total_max_attempts": 1}, connect_timeout=5, read_timeout=15)
failures = 0


def client(key, secret, token=None, service="dynamodb"):
    return boto3.session.Session(aws_access_key_id=key, aws_secret_access_key=secret, aws_session_token=token,
                                 region_name="eu-central-1").client(service, endpoint_url=endpoint, verify=cert,
                                                                    config=config)


def check(name, fn):
    global failures
    try:
        fn()
        print(f"PASS boto3 {name}", flush=True)
    except Exception as e:  # noqa: BLE001 - every failure is reported, none stops the run
        failures += 1
        print(f"FAIL boto3 {name}: {type(e).__name__}: {e}", flush=True)


def refused(c, code, message):
    try:
        c.list_tables()
    except ClientError as e:
        got = (e.response["Error"]["Code"], e.response["Error"]["Message"])
        assert got == (code, message), got
        return
    raise AssertionError("the call was accepted")


good = client("AKIASMOKE", "smoke-secret")


def round_trip():
    good.create_table(TableName="smoke-auth", AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                      KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}], BillingMode="PAY_PER_REQUEST")
    good.put_item(TableName="smoke-auth", Item={"pk": {"S": "a b"}, "v": {"S": "x" * 100000}})
    item = good.get_item(TableName="smoke-auth", Key={"pk": {"S": "a b"}})["Item"]
    assert len(item["v"]["S"]) == 100000, len(item["v"]["S"])
    arn = good.describe_table(TableName="smoke-auth")["Table"]["TableArn"]
    assert arn.startswith("arn:aws:dynamodb:eu-central-1:"), arn


def streams():
    assert "Streams" in client("AKIASMOKE", "smoke-secret", service="dynamodbstreams").list_streams()


def session_token():
    assert "TableNames" in client("ASIASMOKE", "temp-secret", "smoke-token").list_tables()


def gzip_body():
    # botocore does not compress DynamoDB requests; compress this one before it is signed.
    c = client("AKIASMOKE", "smoke-secret")

    def compress(request, **kwargs):
        request.data = gzip.compress(request.body if isinstance(request.body, bytes) else request.body.encode())
        request.headers["Content-Encoding"] = "gzip"
        request.headers["Content-Length"] = str(len(request.data))

    sent = []

    def check_sent(request, **kwargs):
        encoding = request.headers.get("Content-Encoding")
        sent.append((bytes(request.body[:2]), encoding.decode() if isinstance(encoding, bytes) else encoding))

    c.meta.events.register("before-sign.dynamodb.PutItem", compress)
    c.meta.events.register("before-send.dynamodb.PutItem", check_sent)
    c.put_item(TableName="smoke-auth", Item={"pk": {"S": "gz"}, "v": {"S": "y" * 5000}})
    assert sent == [(b"\x1f\x8b", "gzip")], sent
    assert good.get_item(TableName="smoke-auth", Key={"pk": {"S": "gz"}})["Item"]["v"]["S"] == "y" * 5000


INVALID_SIGNATURE = ("The request signature we calculated does not match the signature you provided. Check your "
                     "AWS Secret Access Key and signing method. Consult the service documentation for details.")
INVALID_TOKEN = "The security token included in the request is invalid."

check("create/put/get/describe signed by a known key over HTTPS", round_trip)
check("streams list_streams signed", streams)
check("a session key with its token", session_token)
check("a gzip-compressed body signed as sent", gzip_body)
check("a wrong secret: InvalidSignatureException",
      lambda: refused(client("AKIASMOKE", "wrong"), "InvalidSignatureException", INVALID_SIGNATURE))
check("an unknown key: UnrecognizedClientException",
      lambda: refused(client("AKIANOBODY", "smoke-secret"), "UnrecognizedClientException", INVALID_TOKEN))
check("a wrong session token: UnrecognizedClientException",
      lambda: refused(client("ASIASMOKE", "temp-secret", "other-token"), "UnrecognizedClientException",
                      INVALID_TOKEN))
good.delete_table(TableName="smoke-auth")
sys.exit(1 if failures else 0)
PY
  report_client_output "$out" "$status" "boto3 script"
}

main() {
  echo "smoke-auth: AWS CLI $("$AWS" --version 2>&1 | cut -d' ' -f1), $("$PY" --version 2>&1) at $PY"
  build_server || { smoke_summary; exit 1; }
  write_credentials
  SERVER_LOG="$SMOKE_TMP/server.log"
  start_server "$SERVER_LOG" --port "$PORT" --in-memory --auth=sigv4 \
    --credentials-file "$SMOKE_TMP/credentials.json" --tls-cert "$CERT" --tls-key "$TLS_DIR/key.pem"
  if wait_ready_tls; then
    pass "server starts with --auth=sigv4 and TLS (port $PORT)"
  else
    fail "server starts with --auth=sigv4 and TLS: no HTTPS answer within ${SERVER_START_TIMEOUT_SECONDS}s"
    smoke_summary
    exit 1
  fi
  smoke_transport
  smoke_cli_signed
  smoke_boto3_signed
  smoke_summary
}

main
