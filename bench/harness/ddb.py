"""DynamoDB JSON 1.0 over HTTP for the harness: one small client, the table and its preload.

The lowest module of the harness: it imports only the Python standard library, and harness.py,
bench/scale/scale_check.py import it (never the other way round).

Item layout (lua/ddb.lua and bench/scale/lua/scale_load.lua build the same; keep them in sync):
item i is partition p = i // PER and sort index j = i % PER; PK "p#%06d", SK "o#%03d" for the first
ORD of a partition and "x#%03d" after, GSI1PK "g#%03d" (p % 100), GSI1SK "<SK>#<PK>", then name,
qty, price, payload: about 200 bytes by DynamoDB's size accounting.
"""
import datetime
import http.client
import json
import random
import string
import sys
import threading
import time
import urllib.parse

PER, ORD = 100, 80          # items per partition; the first ORD have SK "o#NNN"
GSI_PARTITIONS = 100
BATCH_ITEMS_MAX = 25        # DynamoDB's BatchWriteItem limit
LOADER_THREADS = 4
LOAD_ATTEMPTS_MAX = 12      # per batch, with exponential backoff for UnprocessedItems
TABLE_WAIT_SECONDS_MAX = 120
CALL_ATTEMPTS_MAX = 3       # connection errors only
MARKER_KEY = {"PK": {"S": "meta#harness"}, "SK": {"S": "loaded"}}
LAYOUT = "v1"
ALNUM = string.ascii_letters + string.digits


def log(*parts):
    print("[harness %s]" % time.strftime("%H:%M:%S"), *parts, file=sys.stderr, flush=True)


class DdbError(Exception):
    def __init__(self, op, status, doc):
        super().__init__("%s -> HTTP %s %s" % (op, status, json.dumps(doc)[:400]))
        self.status, self.doc = status, doc

    @property
    def type(self):
        return str(self.doc.get("__type", ""))


class Endpoint:
    """One server. Requests carry a SigV4-shaped header with a zero signature (see lua/ddb.lua)."""

    def __init__(self, url, label="target"):
        parsed = urllib.parse.urlparse(url)
        if parsed.scheme != "http":
            raise SystemExit("only http:// endpoints are supported: %s" % url)
        self.url, self.label = url.rstrip("/"), label
        self.host, self.port, self.netloc = parsed.hostname, parsed.port or 80, parsed.netloc
        self._local = threading.local()

    def _headers(self, op):
        amz_date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        auth = ("AWS4-HMAC-SHA256 Credential=bench/%s/us-east-1/dynamodb/aws4_request, "
                "SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=%s" % (amz_date[:8], "0" * 64))
        return {"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810." + op,
                "X-Amz-Date": amz_date, "Host": self.netloc, "Authorization": auth}

    def _send(self, op, body):
        for attempt in range(CALL_ATTEMPTS_MAX):
            try:
                conn = getattr(self._local, "conn", None)
                if conn is None:
                    conn = self._local.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
                conn.request("POST", "/", body=body, headers=self._headers(op))
                response = conn.getresponse()
                return response.status, response.read()
            except (ConnectionError, http.client.HTTPException, OSError):
                self._local.conn = None
                if attempt == CALL_ATTEMPTS_MAX - 1:
                    raise
                time.sleep(0.2)

    def call(self, op, payload, ok_errors=()):
        """(status, document); raises DdbError on a non-200 unless its __type ends with one of ok_errors."""
        status, data = self._send(op, json.dumps(payload, separators=(",", ":")).encode())
        try:
            doc = json.loads(data) if data else {}
        except ValueError:
            doc = {"__raw": data[:300].decode("utf-8", "replace")}
        if status != 200 and not any(str(doc.get("__type", "")).endswith(e) for e in ok_errors):
            raise DdbError(op, status, doc)
        return status, doc


def pkey(p):
    return "p#%06d" % p


def skey(j):
    return ("o#%03d" if j < ORD else "x#%03d") % j


def make_item(p, j, rnd):
    pk, sk = pkey(p), skey(j)
    return {"PK": {"S": pk}, "SK": {"S": sk}, "GSI1PK": {"S": "g#%03d" % (p % GSI_PARTITIONS)},
            "GSI1SK": {"S": "%s#%s" % (sk, pk)},
            "name": {"S": "".join(rnd.choice(ALNUM) for _ in range(32))},
            "qty": {"N": str(rnd.randint(1, 999))},
            "price": {"N": "%d.%02d" % (rnd.randint(1, 9999), rnd.randint(0, 99))},
            "payload": {"S": "".join(rnd.choice(ALNUM) for _ in range(94))}}


def item_size_bytes(item):
    """DynamoDB's size accounting for S and N attributes: names plus values."""
    size = 0
    for name, value in item.items():
        (kind, text), = value.items()
        digits = len(text.lstrip("-").replace(".", ""))
        size += len(name) + (len(text.encode()) if kind == "S" else (digits + 1) // 2 + 1)
    return size


def table_schema(table):
    return {
        "TableName": table,
        "AttributeDefinitions": [{"AttributeName": a, "AttributeType": "S"} for a in ("PK", "SK", "GSI1PK", "GSI1SK")],
        "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
        "GlobalSecondaryIndexes": [{
            "IndexName": "GSI1",
            "KeySchema": [{"AttributeName": "GSI1PK", "KeyType": "HASH"},
                          {"AttributeName": "GSI1SK", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "ALL"}}],
        "BillingMode": "PAY_PER_REQUEST",
    }


def wait_table(ep, table, gone=False):
    deadline = time.time() + TABLE_WAIT_SECONDS_MAX
    while time.time() < deadline:
        status, doc = ep.call("DescribeTable", {"TableName": table}, ok_errors=("ResourceNotFoundException",))
        if status != 200 and gone:
            return
        if status == 200 and not gone:
            t = doc["Table"]
            if t.get("TableStatus") == "ACTIVE" and all(
                    g.get("IndexStatus") == "ACTIVE" for g in t.get("GlobalSecondaryIndexes", [])):
                return
        time.sleep(0.2)
    raise SystemExit("%s: table %s not %s after %d s" % (ep.label, table, "gone" if gone else "ACTIVE",
                                                         TABLE_WAIT_SECONDS_MAX))


def check_items(items):
    if items % PER or items < PER:
        raise SystemExit("--items must be a positive multiple of %d" % PER)


def is_loaded(ep, table, items):
    """True if the table exists and its marker says it holds `items` items of this layout."""
    status, _ = ep.call("DescribeTable", {"TableName": table}, ok_errors=("ResourceNotFoundException",))
    if status != 200:
        return False
    wait_table(ep, table)
    _, doc = ep.call("GetItem", {"TableName": table, "Key": MARKER_KEY, "ConsistentRead": True})
    marker = doc.get("Item") or {}
    return marker.get("n") == {"N": str(items)} and marker.get("layout") == {"S": LAYOUT}


def ensure_loaded(ep, table, items):
    """Creates the table if missing and loads items 0..items-1 unless the marker says they are there."""
    check_items(items)
    if is_loaded(ep, table, items):
        log(ep.label, "table %s already holds %d items" % (table, items))
        return {"loaded": False}
    status, _ = ep.call("DescribeTable", {"TableName": table}, ok_errors=("ResourceNotFoundException",))
    if status != 200:
        ep.call("CreateTable", table_schema(table))
        wait_table(ep, table)
    started = time.time()
    load_batches(ep, table, items)
    load_seconds = time.time() - started
    verify_count(ep, table, items)
    ep.call("PutItem", {"TableName": table, "Item": dict(MARKER_KEY, n={"N": str(items)}, layout={"S": LAYOUT})})
    log(ep.label, "loaded %d items in %.1f s" % (items, load_seconds))
    return {"loaded": True, "load_s": round(load_seconds, 2)}


def load_batches(ep, table, items):
    """BatchWriteItem of 25 in LOADER_THREADS threads; UnprocessedItems are retried with backoff."""
    batches, lock, next_batch, errors = items // BATCH_ITEMS_MAX, threading.Lock(), [0], []

    def worker(wid):
        rnd = random.Random(wid)
        while not errors:
            with lock:
                b = next_batch[0]
                next_batch[0] += 1
            if b >= batches:
                return
            pending = {table: [{"PutRequest": {"Item": make_item(i // PER, i % PER, rnd)}}
                               for i in range(b * BATCH_ITEMS_MAX, (b + 1) * BATCH_ITEMS_MAX)]}
            try:
                write_with_retries(ep, pending)
            except (DdbError, SystemExit) as e:
                errors.append(str(e))

    threads = [threading.Thread(target=worker, args=(w,)) for w in range(LOADER_THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise SystemExit("%s: load failed: %s" % (ep.label, errors[0]))


def write_with_retries(ep, pending):
    for attempt in range(LOAD_ATTEMPTS_MAX):
        try:
            _, out = ep.call("BatchWriteItem", {"RequestItems": pending})
            pending = out.get("UnprocessedItems") or {}
        except DdbError as e:
            if e.status < 500 and "Throttl" not in e.type and "ProvisionedThroughput" not in e.type:
                raise
        if not pending:
            return
        time.sleep(min(2.0, 0.05 * 2 ** attempt))
    raise SystemExit("a batch stayed unprocessed after %d attempts" % LOAD_ATTEMPTS_MAX)


def verify_count(ep, table, items):
    """The server must really hold the data: a paginated Scan Select=COUNT."""
    total, start_key = 0, None
    while True:
        request = {"TableName": table, "Select": "COUNT"}
        if start_key:
            request["ExclusiveStartKey"] = start_key
        _, out = ep.call("Scan", request)
        total += out.get("Count", 0)
        start_key = out.get("LastEvaluatedKey")
        if not start_key:
            break
    if total < items:
        raise SystemExit("%s: Scan COUNT %d < %d items loaded" % (ep.label, total, items))
