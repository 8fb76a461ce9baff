#!/usr/bin/env python3
"""Table creation and load verification for bench/scale/scale.sh.

    scale_check.py create --endpoint URL
    scale_check.py verify --endpoint URL --items N --out verify.json [--segments 4] [--sample 2000]
                          [--deadline-s 900]

create: the harness's own table (schema, GSI1 and ACTIVE wait from bench/harness/ddb.py), so
its get/query workloads run against the loaded table with --no-load.

verify, two bounded checks:
  1. a parallel Scan Select=COUNT (--segments threads, one segment each, stopped at --deadline-s).
     The table is fresh and the loader writes only keys of the layout's key space (items 0..N-1),
     so COUNT == N proves that every one of the N keys is present exactly once.
  2. BatchGetItem (ConsistentRead) of --sample random keys plus the first and last key: each must come
     back with the layout's GSI1PK/GSI1SK, so the items are whole and addressable by key, not just
     counted.
"""
import argparse
import json
import os
import random
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "harness"))
import ddb  # noqa: E402  (the harness's client, table schema and item layout)

TABLE = "bench"
BATCH_GET_KEYS_MAX = 100  # DynamoDB's BatchGetItem limit
PER = ddb.PER


def log(msg):
    print("[scale-check %s] %s" % (time.strftime("%H:%M:%S"), msg), file=sys.stderr, flush=True)


def endpoint(url):
    return ddb.Endpoint(url, "scale")


def cmd_create(args):
    ep = endpoint(args.endpoint)
    ep.call("CreateTable", ddb.table_schema(TABLE))
    ddb.wait_table(ep, TABLE)
    log("created table %s (harness schema, GSI1) on %s" % (TABLE, args.endpoint))


def scan_count(ep, segments, deadline):
    """Returns (count, pages, complete): Select=COUNT over all segments, each in its own thread."""
    counts, pages, finished, errors = [0] * segments, [0] * segments, [False] * segments, []

    def segment(s):
        req = {"TableName": TABLE, "Select": "COUNT", "Segment": s, "TotalSegments": segments}
        try:
            while time.time() < deadline:
                _, out = ep.call("Scan", req)
                counts[s] += out.get("Count", 0)
                pages[s] += 1
                esk = out.get("LastEvaluatedKey")
                if not esk:
                    finished[s] = True
                    return
                req["ExclusiveStartKey"] = esk
        except Exception as e:  # noqa: BLE001 - reported, not raised from a thread
            errors.append("segment %d: %s" % (s, e))

    threads = [threading.Thread(target=segment, args=(s,)) for s in range(segments)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise SystemExit("Scan failed: %s" % errors[0])
    return sum(counts), sum(pages), all(finished)


def key_of(i):
    return {"PK": {"S": ddb.pkey(i // PER)}, "SK": {"S": ddb.skey(i % PER)}}


def item_matches(item, i):
    p, sk = i // PER, ddb.skey(i % PER)
    return (item.get("GSI1PK") == {"S": "g#%03d" % (p % 100)}
            and item.get("GSI1SK") == {"S": "%s#%s" % (sk, ddb.pkey(p))}
            and "payload" in item)


def sample_get(ep, items, sample):
    """BatchGetItem of sample random indexes plus the first and last; returns (checked, missing, wrong)."""
    rnd = random.Random(items)
    idx = sorted(set([0, items - 1] + [rnd.randrange(items) for _ in range(sample)]))
    missing, wrong = [], []
    for at in range(0, len(idx), BATCH_GET_KEYS_MAX):
        chunk = idx[at:at + BATCH_GET_KEYS_MAX]
        pending = {TABLE: {"Keys": [key_of(i) for i in chunk], "ConsistentRead": True}}
        got = {}
        for _ in range(10):
            _, out = ep.call("BatchGetItem", {"RequestItems": pending})
            for it in out.get("Responses", {}).get(TABLE, []):
                got[(it["PK"]["S"], it["SK"]["S"])] = it
            pending = out.get("UnprocessedKeys") or {}
            if not pending:
                break
        for i in chunk:
            k = key_of(i)
            it = got.get((k["PK"]["S"], k["SK"]["S"]))
            if it is None:
                missing.append(i)
            elif not item_matches(it, i):
                wrong.append(i)
    return len(idx), missing, wrong


def cmd_verify(args):
    ep = endpoint(args.endpoint)
    t0 = time.time()
    log("Scan Select=COUNT with %d segments (deadline %d s)" % (args.segments, args.deadline_s))
    count, pages, complete = scan_count(ep, args.segments, t0 + args.deadline_s)
    scan_s = time.time() - t0
    log("Scan COUNT=%d (%s) in %.1f s, %d pages" % (count, "complete" if complete else "STOPPED AT DEADLINE",
                                                    scan_s, pages))
    t1 = time.time()
    checked, missing, wrong = sample_get(ep, args.items, args.sample)
    get_s = time.time() - t1
    log("BatchGetItem sample: %d keys, %d missing, %d with wrong attributes, %.1f s"
        % (checked, len(missing), len(wrong), get_s))
    ok = complete and count == args.items and not missing and not wrong
    res = {"ok": ok, "items": args.items, "scan_count": count, "scan_complete": complete,
           "scan_segments": args.segments, "scan_pages": pages, "scan_s": round(scan_s, 1),
           "sample_keys": checked, "sample_missing": missing[:20], "sample_missing_n": len(missing),
           "sample_wrong": wrong[:20], "sample_wrong_n": len(wrong), "sample_s": round(get_s, 1)}
    with open(args.out, "w") as f:
        json.dump(res, f, indent=1)
    log("verification %s" % ("OK" if ok else "FAILED"))
    sys.exit(0 if ok else 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("create")
    p.add_argument("--endpoint", required=True)
    p.set_defaults(fn=cmd_create)
    p = sub.add_parser("verify")
    p.add_argument("--endpoint", required=True)
    p.add_argument("--items", type=int, required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--segments", type=int, default=4)
    p.add_argument("--sample", type=int, default=2000)
    p.add_argument("--deadline-s", type=int, default=900)
    p.set_defaults(fn=cmd_verify)
    args = ap.parse_args()
    args.fn(args)


if __name__ == "__main__":
    main()
