"""The Python half of scripts/smoke-powercut.sh: the lossyfs self-test and the boto3 load and checks.

  selftest-write MNT            files in every durability state, on a lossyfs mount
  selftest-check MNT            after the cut: exactly the durable state is left
  create EP TABLE               the table (hash key pk), waits for ACTIVE
  load EP TABLE ROUND OUT SECONDS
                                writer threads, each a sequence of PutItem, UpdateItem ADD,
                                BatchWriteItem (25 items) and TransactWriteItems (2 puts); every
                                write is appended to OUT as a JSON line, acknowledged or not (a
                                write whose request got no answer is "unknown"). A thread stops at
                                its first error (the kill) or after SECONDS.
  verify EP TABLE MODE STATE ACKS...
                                reads the table and checks every write in ACKS (files of load)
                                against MODE: "fsync" (no acknowledged write lost), "process W CUT"
                                (losses allowed only for writes acknowledged within W seconds
                                before CUT, a Unix time; W = "none" for no bound) or "process-any".
                                Always: no write half-applied, and what survives of each thread is a
                                prefix of its acknowledged writes (RocksDB recovers a point in
                                time). STATE keeps each round's losses, so a later cut that loses an
                                older write is caught.
Prints PASS/FAIL lines; the shell script counts them.
"""
import json
import os
import sys
import threading
import time

WRITER_THREADS = 6
# The writers pause together once, from PAUSE_FROM_SECONDS after the first acknowledgement (a busy
# machine may take seconds to start the client) for PAUSE_SECONDS: the
# server's idle compaction (after a second without writes, checked each second) then flushes the
# memtable and compacts, so a kill soon after may cut into a flush or a compaction.
PAUSE_FROM_SECONDS = 1.0
PAUSE_SECONDS = 2.5
BATCH_ITEMS = 25
TABLE_WAIT_SECONDS = 20
failures = 0


def check(name, fn):
    global failures
    try:
        detail = fn()
        print(f"PASS {name}{f' ({detail})' if detail else ''}", flush=True)
        return True
    except Exception as e:  # noqa: BLE001 - report and go on
        failures += 1
        print(f"FAIL {name}: {type(e).__name__}: {e}", flush=True)
        return False


# --- the self-test of the layer -------------------------------------------------------------------
SELFTEST_BYTES = 10000


def write_file(path, data, sync):
    with open(path, "wb") as f:
        f.write(data)
        f.flush()
        if sync:
            os.fsync(f.fileno())


def sync_dir(path):
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def selftest_write(mnt):
    """Each name says what the cut must leave of it; selftest_check checks exactly that."""
    p = lambda name: os.path.join(mnt, name)  # noqa: E731
    write_file(p("synced"), b"s" * SELFTEST_BYTES, sync=True)
    write_file(p("appended"), b"a" * SELFTEST_BYTES, sync=True)
    write_file(p("overwritten"), b"o" * SELFTEST_BYTES, sync=True)
    write_file(p("unlinked"), b"u" * SELFTEST_BYTES, sync=True)
    write_file(p("renamed"), b"r" * SELFTEST_BYTES, sync=True)
    write_file(p("truncated"), b"t" * SELFTEST_BYTES, sync=True)
    write_file(p("unsynced"), b"", sync=False)
    os.mkdir(p("dir"))
    sync_dir(mnt)
    # Below, no fsync of the mount's root any more: its names stay as they are now.
    with open(p("unsynced"), "wb") as f:
        f.write(b"n" * SELFTEST_BYTES)
    with open(p("appended"), "ab") as f:
        f.write(b"A" * SELFTEST_BYTES)
    with open(p("overwritten"), "r+b") as f:
        f.seek(4000)
        f.write(b"O" * 5000)
    os.truncate(p("truncated"), 3000)
    write_file(p("synced-no-dir-sync"), b"d" * SELFTEST_BYTES, sync=True)
    write_file(p("dir/synced-dir-synced"), b"e" * SELFTEST_BYTES, sync=True)
    sync_dir(p("dir"))
    os.unlink(p("unlinked"))
    os.rename(p("renamed"), p("renamed-to"))
    seen = sorted(os.listdir(mnt))
    want = sorted(["synced", "appended", "overwritten", "renamed-to", "truncated", "unsynced", "dir",
                   "synced-no-dir-sync"])
    assert seen == want, f"before the cut the mount lists {seen}, want {want}"
    assert os.path.getsize(p("appended")) == 2 * SELFTEST_BYTES
    return "9 files in known states"


def selftest_check(mnt):
    p = lambda name: os.path.join(mnt, name)  # noqa: E731
    seen = sorted(os.listdir(mnt))
    want = sorted(["synced", "appended", "overwritten", "unlinked", "renamed", "truncated", "unsynced",
                   "dir"])
    assert seen == want, f"after the cut the mount lists {seen}, want {want}"
    expect = {
        "synced": b"s" * SELFTEST_BYTES,  # fsynced, name durable
        "appended": b"a" * SELFTEST_BYTES,  # the unsynced append is gone
        "overwritten": b"o" * SELFTEST_BYTES,  # the unsynced overwrite is undone
        "unlinked": b"u" * SELFTEST_BYTES,  # the unlink was not durable
        "renamed": b"r" * SELFTEST_BYTES,  # nor the rename
        "truncated": b"t" * SELFTEST_BYTES,  # nor the truncation
        "unsynced": b"",  # its name was durable, its data never synced
        "dir/synced-dir-synced": b"e" * SELFTEST_BYTES,  # file and directory fsynced
    }
    for name, data in expect.items():
        with open(p(name), "rb") as f:
            got = f.read()
        assert got == data, f"{name}: {len(got)} bytes, want {len(data)} bytes of {data[:1]!r}"
    return "unsynced data, unsynced names dropped; fsynced data under fsynced names kept"


# --- boto3 ----------------------------------------------------------------------------------------
def client(endpoint):
    import boto3
    from botocore.config import Config
    return boto3.session.Session(
        aws_access_key_id="dummy", aws_secret_access_key="dummy", region_name="us-east-1",
    ).client("dynamodb", endpoint_url=endpoint, config=Config(
        retries={"mode": "standard", "total_max_attempts": 1}, connect_timeout=5, read_timeout=30,
        max_pool_connections=WRITER_THREADS + 2))


def wait_active(ddb, table):
    deadline = time.monotonic() + TABLE_WAIT_SECONDS
    status = None
    while time.monotonic() < deadline:
        status = ddb.describe_table(TableName=table)["Table"]["TableStatus"]
        if status == "ACTIVE":
            return status
        time.sleep(0.2)
    raise AssertionError(f"table status still {status}")


def create(endpoint, table):
    ddb = client(endpoint)
    ddb.create_table(TableName=table,
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     BillingMode="PAY_PER_REQUEST")
    return wait_active(ddb, table)


# --- the load -------------------------------------------------------------------------------------
def value(key):
    return f"v-{key}-" + "x" * (len(key) * 7 % 61)


def item(key):
    return {"pk": {"S": key}, "v": {"S": value(key)}}


def one_write(ddb, table, prefix, seq):
    """Does write seq of a thread; returns (the record of it, the function that sends it)."""
    kind = ("put", "add", "batch", "transact")[seq % 4]
    if kind == "put":
        key = f"{prefix}#put#{seq}"
        return {"op": kind, "keys": [key]}, lambda: ddb.put_item(TableName=table, Item=item(key))
    if kind == "add":
        key = f"{prefix}#counter"
        return {"op": kind, "keys": [key]}, lambda: ddb.update_item(
            TableName=table, Key={"pk": {"S": key}}, UpdateExpression="ADD n :one",
            ExpressionAttributeValues={":one": {"N": "1"}})
    if kind == "batch":
        keys = [f"{prefix}#batch#{seq}#{i}" for i in range(BATCH_ITEMS)]

        def send():
            answer = ddb.batch_write_item(RequestItems={table: [{"PutRequest": {"Item": item(k)}}
                                                               for k in keys]})
            return answer.get("UnprocessedItems") or {}
        return {"op": kind, "keys": keys}, send
    keys = [f"{prefix}#pair#{seq}#a", f"{prefix}#pair#{seq}#b"]
    return {"op": kind, "keys": keys}, lambda: ddb.transact_write_items(
        TransactItems=[{"Put": {"TableName": table, "Item": item(k)}} for k in keys])


def writer(endpoint, table, prefix, first_ack, deadline, out, out_lock, outcome):
    """first_ack: a list that holds the monotonic time of the load's first acknowledgement."""
    ddb = client(endpoint)
    seq = 0
    paused = False
    while time.monotonic() < deadline:
        if not paused and first_ack and time.monotonic() >= first_ack[0] + PAUSE_FROM_SECONDS:
            time.sleep(max(0.0, first_ack[0] + PAUSE_FROM_SECONDS + PAUSE_SECONDS - time.monotonic()))
            paused = True
        record, send = one_write(ddb, table, prefix, seq)
        record.update(thread=prefix, seq=seq)
        try:
            unprocessed = send()
            if record["op"] == "batch" and unprocessed:
                done = {r["PutRequest"]["Item"]["pk"]["S"] for r in unprocessed.get(table, [])}
                record["unprocessed"] = sorted(done)
            record.update(acked=True, acked_at=time.time())
            if not first_ack:
                with out_lock:
                    if not first_ack:
                        first_ack.append(time.monotonic())
        except Exception as e:  # noqa: BLE001 - the kill ends every thread this way
            record.update(acked=False, error=f"{type(e).__name__}: {e}"[:200])
        with out_lock:
            out.write(json.dumps(record) + "\n")
            out.flush()
        if not record["acked"]:
            outcome[prefix] = (seq, record["error"])
            return
        seq += 1
    outcome[prefix] = (seq, None)


def load(endpoint, table, round_name, out_path, seconds):
    deadline = time.monotonic() + seconds
    first_ack = []
    out_lock = threading.Lock()
    outcome = {}
    with open(out_path, "a") as out:
        threads = [threading.Thread(target=writer, args=(endpoint, table, f"{round_name}#t{t}", first_ack,
                                                         deadline, out, out_lock, outcome))
                   for t in range(WRITER_THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    acked = sum(n for n, _ in outcome.values())
    errors = sorted({e.split(":")[0] for _, e in outcome.values() if e})
    print(f"load {round_name}: {acked} writes acknowledged by {WRITER_THREADS} threads; "
          f"threads ended by {errors or ['the deadline']}", flush=True)
    if acked == 0:
        raise SystemExit(f"FAIL load {round_name}: no write was acknowledged")


# --- the checks after a cut -----------------------------------------------------------------------
def scan_all(ddb, table):
    items, start = {}, None
    while True:
        kwargs = {"TableName": table, "ConsistentRead": True}
        if start:
            kwargs["ExclusiveStartKey"] = start
        page = ddb.scan(**kwargs)
        for it in page["Items"]:
            items[it["pk"]["S"]] = it
        start = page.get("LastEvaluatedKey")
        if not start:
            return items


def read_writes(paths):
    writes = []
    for path in paths:
        with open(path) as f:
            writes.extend(json.loads(line) for line in f if line.strip())
    return writes


def survival(writes, items):
    """Each write with 'survived': True, False or 'part' (a batch); counters by their value."""
    counters = {}
    for w in sorted(writes, key=lambda w: (w["thread"], w["seq"])):
        if w["op"] == "add":
            key = w["keys"][0]
            counters[key] = counters.get(key, 0) + 1
            have = int(items[key]["n"]["N"]) if key in items else 0
            w["survived"] = have >= counters[key]
            continue
        keys = [k for k in w["keys"] if k not in set(w.get("unprocessed", []))]
        present = [k for k in keys if k in items]
        for k in present:
            assert items[k].get("v") == {"S": value(k)}, f"{k} holds {items[k]}"
        w["survived"] = True if len(present) == len(keys) else (False if not present else "part")
        if w["op"] == "transact":
            assert w["survived"] != "part", f"transaction {w['keys']} half-applied: only {present}"
    return writes


def check_counters_bounded(writes, items):
    attempted = {}
    for w in writes:
        if w["op"] == "add":
            attempted[w["keys"][0]] = attempted.get(w["keys"][0], 0) + 1
    for key, n in attempted.items():
        have = int(items[key]["n"]["N"]) if key in items else 0
        assert have <= n, f"counter {key} is {have}, but only {n} increments were sent"


def check_prefixes(writes):
    """Per thread, the surviving writes come first: no survivor after a lost write."""
    by_thread = {}
    for w in writes:
        by_thread.setdefault(w["thread"], []).append(w)
    for thread, ws in by_thread.items():
        ws.sort(key=lambda w: w["seq"])
        lost_at = None
        for w in ws:
            if w["survived"] is not True and lost_at is None:
                lost_at = w["seq"]
            elif w["survived"] is not False and lost_at is not None and w["seq"] > lost_at:
                raise AssertionError(f"{thread}: write {w['seq']} ({w['op']}) survived after "
                                     f"write {lost_at} was lost: not a point in time")


def verify(endpoint, table, mode, state_path, ack_paths):
    ddb = client(endpoint)
    if not check("table ACTIVE after the cut and restart", lambda: wait_active(ddb, table)):
        return
    items = scan_all(ddb, table)
    writes = read_writes(ack_paths)
    check("no transaction half-applied, every surviving item has its written value",
          lambda: survival(writes, items) and f"{len(items)} items scanned")
    if any("survived" not in w for w in writes):
        return
    acked = [w for w in writes if w["acked"]]
    lost = [w for w in acked if w["survived"] is not True]
    check("counters never above the increments sent", lambda: check_counters_bounded(writes, items))
    check("what survives of each writer is a prefix of its writes (a point in time)",
          lambda: check_prefixes(writes))
    lost_before = set()
    check("writes that survived an earlier cut survive this one",
          lambda: check_lost_against_state(acked, lost, state_path, lost_before))
    # What this cut took: the losses of earlier cuts were checked then.
    lost = [w for w in lost if write_id(w) not in lost_before]
    acked = [w for w in acked if write_id(w) not in lost_before]
    summary = (f"this cut: {len(lost)} of {len(acked)} acknowledged writes lost, "
               f"{sum(1 for w in writes if not w['acked'])} unanswered at the kills")
    if mode[0] == "fsync":
        def none_lost():
            assert not lost, f"{summary}; first: {lost[:3]}"
            return summary
        check("no acknowledged write lost (--durability fsync)", none_lost)
    elif mode[0] == "process":
        window, cut_at = mode[1], float(mode[2])

        def recent_only():
            if not lost:
                return summary
            oldest = min(w["acked_at"] for w in lost)
            age = cut_at - oldest
            detail = f"{summary}; the oldest was acknowledged {age:.2f} s before the cut"
            if window != "none":
                assert age <= float(window), f"{detail}, more than the allowed {window} s"
            return detail
        check(f"lost writes are only the last ones before the cut (window {window} s)", recent_only)
    else:
        raise SystemExit(f"unknown mode {mode}")
    check("a write after the restart is acknowledged and read back", lambda: write_after(ddb, table))


def write_id(w):
    return f"{w['thread']}/{w['seq']}"


def check_lost_against_state(acked, lost, state_path, lost_before_out):
    """A write that survived one cut must survive every later one (STATE: the last verify's view)."""
    before = {"known": [], "lost": []}
    if os.path.exists(state_path):
        with open(state_path) as f:
            before = json.load(f)
    known, lost_before = set(before["known"]), set(before["lost"])
    lost_before_out.update(lost_before)
    lost_now = {write_id(w) for w in lost}
    with open(state_path, "w") as f:
        json.dump({"known": sorted(write_id(w) for w in acked), "lost": sorted(lost_now)}, f)
    newly = sorted((lost_now & known) - lost_before)
    assert not newly, f"writes that survived an earlier cut are lost now: {newly[:5]}"
    return f"{len(lost_before)} lost at earlier cuts, of {len(known)} acknowledged before"


def write_after(ddb, table):
    key = f"after#{time.time_ns()}"
    ddb.put_item(TableName=table, Item=item(key))
    got = ddb.get_item(TableName=table, Key={"pk": {"S": key}}, ConsistentRead=True).get("Item")
    assert got == item(key), f"read back {got}"


def main(argv):
    command = argv[1]
    if command == "selftest-write":
        check("lossyfs self-test: files written in every durability state", lambda: selftest_write(argv[2]))
    elif command == "selftest-check":
        check("lossyfs self-test: the cut left exactly the durable state", lambda: selftest_check(argv[2]))
    elif command == "create":
        check("create_table on the lossy file system", lambda: create(argv[2], argv[3]))
    elif command == "load":
        load(argv[2], argv[3], argv[4], argv[5], float(argv[6]))
    elif command == "verify":
        endpoint, table, mode_text, state = argv[2], argv[3], argv[4], argv[5]
        verify(endpoint, table, mode_text.split(":"), state, argv[6:])
    else:
        raise SystemExit(f"unknown command {command}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
