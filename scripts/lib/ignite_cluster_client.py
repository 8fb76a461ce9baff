"""Real-client checks for scripts/ignite-cluster.sh: two Kumiko servers over one Ignite cluster.

  suite EP1 EP2              the two-engine suite over HTTP, clients spread over both servers
  load EP1[,EP2] OUT SECONDS strict|tolerant   bounded write load; acknowledged keys appended to
                             OUT (OUT.first is created at the first); strict: FAIL on any error
                             (tolerant: errors only reported)
  verify EP IN               every key in IN reads back (consistent read); IN must not be empty
  await-writes EP SECONDS    a put through EP succeeds within SECONDS (after a failure, before the next)
Prints PASS/FAIL lines; the shell script counts them.
"""
import random
import sys
import threading
import time
import uuid

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

WAIT_SECONDS = 60
# The bank check's transfers must finish within this (20-50 s on a quiet 2-core machine); past
# it the check fails and says how far each client got, instead of holding the suite to its timeout.
BANK_SECONDS = 180
failures = 0


def client(endpoint, attempts=1):
    return boto3.session.Session(
        aws_access_key_id="dummy", aws_secret_access_key="dummy", region_name="us-east-1",
    ).client("dynamodb", endpoint_url=endpoint, config=Config(
        retries={"mode": "standard", "total_max_attempts": attempts}, connect_timeout=5, read_timeout=30,
        max_pool_connections=32))


def streams(endpoint):
    return boto3.session.Session(
        aws_access_key_id="dummy", aws_secret_access_key="dummy", region_name="us-east-1",
    ).client("dynamodbstreams", endpoint_url=endpoint, config=Config(retries={"total_max_attempts": 1}))


def check(name, fn):
    global failures
    try:
        detail = fn()
        print(f"PASS {name}{f' ({detail})' if detail else ''}", flush=True)
    except Exception as e:  # noqa: BLE001 - report and go on
        failures += 1
        print(f"FAIL {name}: {type(e).__name__}: {e}", flush=True)


def code(e):
    return e.response["Error"]["Code"] if isinstance(e, ClientError) else type(e).__name__


def create_table(c, name, stream=False):
    args = dict(TableName=name, BillingMode="PAY_PER_REQUEST",
                AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    if stream:
        args["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}
    c.create_table(**args)


def await_active(c, name):
    deadline = time.time() + WAIT_SECONDS
    while time.time() < deadline:
        try:
            if c.describe_table(TableName=name)["Table"]["TableStatus"] == "ACTIVE":
                return
        except ClientError as e:
            if code(e) != "ResourceNotFoundException":
                raise
        time.sleep(0.2)
    raise AssertionError(f"{name} not ACTIVE within {WAIT_SECONDS}s")


def backoff(streak):
    """Seconds to wait after streak refused transactions in a row: exponential backoff with full
    jitter, the AWS SDKs' kind of retry pause (their base and cap differ by SDK; 25 ms and 1 s here
    keep the check short). With a fixed 10 ms pause, 8 clients kept taking each other's items:
    93 % of attempts were refused on a quiet machine, and on a busy one the transfers did not
    finish in minutes."""
    return random.uniform(0, min(1.0, 0.025 * 2 ** min(streak, 6)))


def run_threads(target, count):
    errors = []

    def wrapped(i):
        try:
            target(i)
        except Exception as e:  # noqa: BLE001
            errors.append(f"{type(e).__name__}: {e}")

    threads = [threading.Thread(target=wrapped, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(WAIT_SECONDS * 3)
    if errors:
        raise AssertionError(f"{len(errors)} client(s) failed, first: {errors[0]}")


def suite(ep1, ep2):
    one, two = client(ep1), client(ep2)
    both = [one, two]
    table = "kumiko-ignite-" + uuid.uuid4().hex[:8]

    def created_on_one_used_on_other():
        create_table(one, table, stream=True)
        await_active(two, table)
        two.put_item(TableName=table, Item={"pk": {"S": "hello"}, "v": {"S": "from two"}})
        got = one.get_item(TableName=table, Key={"pk": {"S": "hello"}}, ConsistentRead=True)["Item"]["v"]["S"]
        assert got == "from two", got
    check("a table created on one server is used through the other", created_on_one_used_on_other)

    racers, increments = 8, 10

    def lost_update_race():
        one.put_item(TableName=table, Item={"pk": {"S": "counter"}, "n": {"N": "0"}})

        def racer(i):
            c = client(ep1 if i % 2 == 0 else ep2)
            done = 0
            while done < increments:
                seen = c.get_item(TableName=table, Key={"pk": {"S": "counter"}}, ConsistentRead=True)["Item"]["n"]["N"]
                try:
                    c.update_item(TableName=table, Key={"pk": {"S": "counter"}}, UpdateExpression="SET n = :next",
                                  ConditionExpression="n = :seen",
                                  ExpressionAttributeValues={":seen": {"N": seen}, ":next": {"N": str(int(seen) + 1)}})
                    done += 1
                except ClientError as e:
                    if code(e) not in ("ConditionalCheckFailedException", "TransactionConflictException"):
                        raise
        run_threads(racer, racers)
        n = int(one.get_item(TableName=table, Key={"pk": {"S": "counter"}}, ConsistentRead=True)["Item"]["n"]["N"])
        assert n == racers * increments, f"counter {n}, want {racers * increments}"
        return f"{racers} clients over both servers, {n} conditional increments"
    check("lost-update race: no update lost", lost_update_race)

    accounts, opening, transfers = 8, 100, 5

    def bank():
        for a in range(accounts):
            one.put_item(TableName=table, Item={"pk": {"S": f"acct{a}"}, "b": {"N": str(opening)}})
        stop = threading.Event()
        sums, audit_errors = [], []
        # Per client: transfers done and refusals by error code, to say how far a slow run got.
        done = [0] * 8
        refused = [dict() for _ in range(8)]
        deadline = time.time() + BANK_SECONDS

        def auditor():
            c = client(ep2)
            while not stop.is_set():
                try:
                    r = c.transact_get_items(TransactItems=[{"Get": {"TableName": table, "Key": {"pk": {"S": f"acct{a}"}}}}
                                                            for a in range(accounts)])
                except ClientError as e:
                    if code(e) not in ("TransactionCanceledException", "TransactionConflictException"):
                        audit_errors.append(f"{code(e)}: {e}")
                        return
                    continue
                sums.append(sum(int(x["Item"]["b"]["N"]) for x in r["Responses"]))

        def transferrer(i):
            c = client(ep1 if i % 2 == 0 else ep2)
            streak = 0  # refusals since the last transfer
            while done[i] < transfers and time.time() < deadline:
                src, dst = (i + done[i]) % accounts, (i + done[i] + 3) % accounts
                try:
                    c.transact_write_items(TransactItems=[
                        {"Update": {"TableName": table, "Key": {"pk": {"S": f"acct{src}"}}, "UpdateExpression": "SET b = b - :one",
                                    "ConditionExpression": "b >= :one", "ExpressionAttributeValues": {":one": {"N": "1"}}}},
                        {"Update": {"TableName": table, "Key": {"pk": {"S": f"acct{dst}"}}, "UpdateExpression": "SET b = b + :one",
                                    "ExpressionAttributeValues": {":one": {"N": "1"}}}}])
                    done[i] += 1
                    streak = 0
                except ClientError as e:
                    if code(e) not in ("TransactionCanceledException", "TransactionConflictException",
                                       "TransactionInProgressException"):
                        raise
                    refused[i][code(e)] = refused[i].get(code(e), 0) + 1
                    streak += 1
                    time.sleep(backoff(streak))
        audit = threading.Thread(target=auditor)
        audit.start()
        started = time.time()
        try:
            run_threads(transferrer, 8)
        finally:
            stop.set()
            audit.join(WAIT_SECONDS)
        took = time.time() - started
        assert sum(done) == 8 * transfers, (
            f"{sum(done)} of {8 * transfers} transfers in {took:.0f}s; per client done {done}, refused {refused}")
        assert not audit_errors, f"TransactGetItems failed: {audit_errors[0]}"
        total = sum(int(one.get_item(TableName=table, Key={"pk": {"S": f"acct{a}"}}, ConsistentRead=True)["Item"]["b"]["N"])
                    for a in range(accounts))
        assert total == accounts * opening, f"total {total}"
        bad = [s for s in sums if s != accounts * opening]
        assert not bad, f"{len(bad)} of {len(sums)} TransactGetItems saw a partial transfer: {bad[:3]}"
        refusals = sum(n for r in refused for n in r.values())
        return f"8 clients, {8 * transfers} transfers in {took:.0f}s ({refusals} refused), {len(sums)} audits all {total}"
    check("bank invariant under TransactWriteItems from both servers", bank)

    def token_replay():
        one.put_item(TableName=table, Item={"pk": {"S": "tok"}, "n": {"N": "0"}})
        token = uuid.uuid4().hex
        request = dict(ClientRequestToken=token, TransactItems=[{"Update": {
            "TableName": table, "Key": {"pk": {"S": "tok"}}, "UpdateExpression": "ADD n :one",
            "ExpressionAttributeValues": {":one": {"N": "1"}}}}])
        one.transact_write_items(**request)
        two.transact_write_items(**request)
        n = one.get_item(TableName=table, Key={"pk": {"S": "tok"}}, ConsistentRead=True)["Item"]["n"]["N"]
        assert n == "1", f"applied {n} times"
        request["TransactItems"][0]["Update"]["ExpressionAttributeValues"][":one"]["N"] = "2"
        try:
            two.transact_write_items(**request)
            raise AssertionError("a changed request under the same token was accepted")
        except ClientError as e:
            assert code(e) == "IdempotentParameterMismatchException", code(e)
    check("ClientRequestToken replayed on the other server answers once", token_replay)

    def stream_order():
        writes = 20
        for i in range(writes):
            both[i % 2].put_item(TableName=table, Item={"pk": {"S": "streamed"}, "i": {"N": str(i)}})
        s = streams(ep1)
        arn = one.describe_table(TableName=table)["Table"]["LatestStreamArn"]
        seen = []
        for shard in s.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]:
            it = s.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"], ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
            for _ in range(100):
                r = s.get_records(ShardIterator=it)
                for rec in r["Records"]:
                    if rec["dynamodb"]["Keys"]["pk"]["S"] == "streamed":
                        seen.append((int(rec["dynamodb"]["SequenceNumber"]), int(rec["dynamodb"]["NewImage"]["i"]["N"])))
                it = r.get("NextShardIterator")
                if not it or not r["Records"]:
                    break
        values = [v for _, v in sorted(seen)]
        assert values == list(range(writes)), f"stream order {values}"
        return f"{writes} writes alternating servers, in order"
    check("stream records of one item stay in write order", stream_order)

    ttl_table = table + "-ttl"

    def ttl_once():
        create_table(two, ttl_table, stream=True)
        await_active(one, ttl_table)
        one.update_time_to_live(TableName=ttl_table, TimeToLiveSpecification={"Enabled": True, "AttributeName": "exp"})
        expired = int(time.time()) - 100
        items = 10
        for i in range(items):
            both[i % 2].put_item(TableName=ttl_table, Item={"pk": {"S": f"t{i}"}, "exp": {"N": str(expired)}})
        deadline = time.time() + WAIT_SECONDS
        while time.time() < deadline:
            if one.scan(TableName=ttl_table, ConsistentRead=True)["Count"] == 0:
                break
            time.sleep(0.5)
        left = one.scan(TableName=ttl_table, ConsistentRead=True)["Count"]
        assert left == 0, f"{left} expired items left"
        s = streams(ep2)
        arn = one.describe_table(TableName=ttl_table)["Table"]["LatestStreamArn"]
        removes = []
        for shard in s.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]:
            it = s.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"], ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
            for _ in range(100):
                r = s.get_records(ShardIterator=it)
                removes += [rec["dynamodb"]["Keys"]["pk"]["S"] for rec in r["Records"] if rec["eventName"] == "REMOVE"]
                it = r.get("NextShardIterator")
                if not it or not r["Records"]:
                    break
        assert sorted(removes) == sorted(f"t{i}" for i in range(items)), f"REMOVE records {sorted(removes)}"
        return f"{items} items, one REMOVE each"
    check("TTL deletes each expired item once (both servers sweep)", ttl_once)


FIRST_ACK_SECONDS_MAX = 60


def load(endpoints, out, seconds, strict):
    table = "kumiko-ignite-load"
    c = client(endpoints[0], attempts=1)
    try:
        create_table(c, table)
    except ClientError as e:
        if code(e) != "ResourceInUseException":
            raise
    await_active(c, table)
    acked, errors = [], []
    lock = threading.Lock()
    # The load runs SECONDS from its first acknowledged write: on a busy machine the first write
    # through a server can take longer than the whole load would (seen: none in 14 s), and a load
    # that ends before it began proves nothing. FIRST_ACK_SECONDS_MAX bounds the wait for it.
    deadline = [time.time() + FIRST_ACK_SECONDS_MAX + seconds]

    def writer(i):
        w = client(endpoints[i % len(endpoints)])
        n = 0
        while time.time() < deadline[0]:
            key = f"w{i}-{n}-{uuid.uuid4().hex[:6]}"
            try:
                w.put_item(TableName=table, Item={"pk": {"S": key}, "v": {"N": str(n)}})
                with lock:
                    acked.append(key)
                    if len(acked) == 1:
                        deadline[0] = time.time() + seconds
                        # OUT.first: the load is under way (a script waits for it before a kill)
                        open(out + ".first", "w").close()
            except Exception as e:  # noqa: BLE001 - counted
                with lock:
                    errors.append(f"{type(e).__name__}: {e}")
            n += 1
    run_threads(writer, 4)
    with open(out, "a") as f:
        f.write("".join(k + "\n" for k in acked))
    detail = f"{len(acked)} acknowledged writes in {seconds}s, {len(errors)} errors"
    if errors and strict:
        print(f"FAIL load over {','.join(endpoints)}: {detail}; first: {errors[0]}", flush=True)
    else:
        print(f"PASS load over {','.join(endpoints)} ({detail})", flush=True)


def verify(endpoint, keys_file):
    c = client(endpoint, attempts=3)
    keys = [k.strip() for k in open(keys_file) if k.strip()]
    if not keys:
        print(f"FAIL no acknowledged writes to read back through {endpoint}: the load proved nothing", flush=True)
        return
    missing = []
    for i in range(0, len(keys), 100):
        chunk = keys[i:i + 100]
        request = {"kumiko-ignite-load": {"Keys": [{"pk": {"S": k}} for k in chunk], "ConsistentRead": True}}
        found = set()
        while request:
            r = c.batch_get_item(RequestItems=request)
            found |= {x["pk"]["S"] for x in r["Responses"].get("kumiko-ignite-load", [])}
            request = r.get("UnprocessedKeys") or None
        missing += [k for k in chunk if k not in found]
    if missing:
        print(f"FAIL acknowledged writes lost: {len(missing)} of {len(keys)}, e.g. {missing[:3]}", flush=True)
    else:
        print(f"PASS every acknowledged write is there ({len(keys)} read back through {endpoint})", flush=True)


def await_writes(endpoint, seconds):
    table = "kumiko-ignite-load"
    c = client(endpoint)
    start = time.time()
    last = None
    while time.time() - start < seconds:
        try:
            c.put_item(TableName=table, Item={"pk": {"S": f"probe-{uuid.uuid4().hex[:8]}"}, "v": {"N": "0"}})
            print(f"PASS a write through {endpoint} succeeds (after {time.time() - start:.1f}s)", flush=True)
            return
        except Exception as e:  # noqa: BLE001 - retried until the deadline
            last = f"{type(e).__name__}: {e}"
            time.sleep(0.5)
    print(f"FAIL no write through {endpoint} succeeded within {seconds}s; last: {last}", flush=True)


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "suite":
        suite(sys.argv[2], sys.argv[3])
    elif mode == "load":
        load(sys.argv[2].split(","), sys.argv[3], float(sys.argv[4]), sys.argv[5] == "strict")
    elif mode == "verify":
        verify(sys.argv[2], sys.argv[3])
    elif mode == "await-writes":
        await_writes(sys.argv[2], float(sys.argv[3]))
    sys.exit(1 if failures else 0)
