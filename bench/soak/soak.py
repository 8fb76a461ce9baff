#!/usr/bin/env python3
"""soak: a steady, rate-limited DynamoDB load against a running Kumiko, with heap and RSS samples.

Standard library only. Drives a mixed workload (PutItem, GetItem, Query, UpdateItem over a bounded
key space, so the data set stops growing after the first pass) at a fixed rate below capacity from
a few threads on keep-alive connections, samples the server every --sample-seconds (heap via jstat,
RSS via /proc), and prints a Markdown report: errors, achieved rate, latency, and first-minute vs
last-minute heap and RSS. Run it through bench/soak/soak.sh, which starts and stops the server.
"""
import argparse
import http.client
import json
import os
import random
import subprocess
import sys
import threading
import time

AUTH = ("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/us-east-1/dynamodb/aws4_request, "
        "SignedHeaders=host;x-amz-date;x-amz-target, Signature=0000")
TABLE = "soak"
PARTITIONS = 5000      # key space: PARTITIONS x SORTS items, about 15 MB of data at most
SORTS = 4
MIX = (("put", 35), ("get", 35), ("query", 15), ("update", 15))


def request(conn, op, body):
    data = json.dumps(body).encode()
    conn.request("POST", "/", body=data, headers={
        "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810." + op,
        "Authorization": AUTH})
    r = conn.getresponse()
    payload = r.read()
    return r.status, payload


def create_table(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    status, payload = request(conn, "CreateTable", {
        "TableName": TABLE, "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "sk", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]})
    if status != 200 and b"ResourceInUseException" not in payload:
        sys.exit("CreateTable failed: %d %s" % (status, payload[:200]))


def body_for(op, rnd):
    pk = {"S": "p%05d" % rnd.randrange(PARTITIONS)}
    sk = {"S": "s%d" % rnd.randrange(SORTS)}
    if op == "put":
        return {"TableName": TABLE, "Item": {"pk": pk, "sk": sk, "n": {"N": str(rnd.randrange(10**6))},
                                             "text": {"S": "x" * rnd.randrange(50, 250)},
                                             "tags": {"SS": ["a", "b", "c"]}}}
    if op == "get":
        return {"TableName": TABLE, "Key": {"pk": pk, "sk": sk}}
    if op == "query":
        return {"TableName": TABLE, "KeyConditionExpression": "pk = :p",
                "ExpressionAttributeValues": {":p": pk}, "Limit": 10}
    return {"TableName": TABLE, "Key": {"pk": pk, "sk": sk}, "UpdateExpression": "ADD c :one SET t = :t",
            "ExpressionAttributeValues": {":one": {"N": "1"}, ":t": {"N": str(int(time.time()))}}}


OPS = [op for op, weight in MIX for _ in range(weight)]


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.ok = 0
        self.errors = 0
        self.error_samples = []
        self.latencies_ms = []

    def record(self, ok, latency_ms, detail=None):
        with self.lock:
            if ok:
                self.ok += 1
            else:
                self.errors += 1
                if len(self.error_samples) < 5:
                    self.error_samples.append(detail)
            if len(self.latencies_ms) < 2_000_000:
                self.latencies_ms.append(latency_ms)


def worker(port, rate, deadline, stats, seed):
    rnd = random.Random(seed)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    interval = 1.0 / rate
    next_at = time.monotonic()
    while True:
        now = time.monotonic()
        if now >= deadline:
            return
        if now < next_at:
            time.sleep(next_at - now)
        next_at += interval
        op = rnd.choice(OPS)
        start = time.monotonic()
        try:
            status, payload = request(conn, {"put": "PutItem", "get": "GetItem", "query": "Query",
                                             "update": "UpdateItem"}[op], body_for(op, rnd))
            stats.record(status == 200, (time.monotonic() - start) * 1000,
                         None if status == 200 else "%s %d %s" % (op, status, payload[:200]))
        except Exception as e:  # noqa: BLE001 - every failure is an error of the run
            stats.record(False, (time.monotonic() - start) * 1000, "%s %r" % (op, e))
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def heap_kb(pid):
    """(used, old used) in KB from jstat -gc: eden + survivors + old, and old alone."""
    out = subprocess.run(["jstat", "-gc", str(pid)], capture_output=True, text=True, timeout=30).stdout.split("\n")
    # Columns a collector does not have (CGC, CGCT for Parallel GC) print as "-".
    g = {k: float(v) for k, v in zip(out[0].split(), out[1].split()) if v != "-"}
    return int(g["S0U"] + g["S1U"] + g["EU"] + g["OU"]), int(g["OU"])


def live_heap_kb(pid):
    """Heap used right after a full GC (jcmd GC.run): what the server really retains."""
    subprocess.run(["jcmd", str(pid), "GC.run"], capture_output=True, timeout=60)
    return heap_kb(pid)[0]


def percentile(sorted_values, p):
    if not sorted_values:
        return 0.0
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * p))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--pid", type=int, required=True)
    ap.add_argument("--rate", type=float, default=2000, help="total requests per second")
    ap.add_argument("--seconds", type=int, default=300)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--sample-seconds", type=int, default=10)
    a = ap.parse_args()
    if not 60 <= a.seconds <= 600:
        sys.exit("--seconds must be between 60 and 600 (a soak is bounded: at most 10 minutes)")
    create_table(a.port)
    stats = Stats()
    start = time.monotonic()
    deadline = start + a.seconds
    threads = [threading.Thread(target=worker, args=(a.port, a.rate / a.threads, deadline, stats, i), daemon=True)
               for i in range(a.threads)]
    for t in threads:
        t.start()
    samples = []  # (t, ops so far, heap used KB, old used KB, rss KB)
    live_first = None
    while time.monotonic() < deadline:
        time.sleep(min(a.sample_seconds, max(0.0, deadline - time.monotonic())))
        t = time.monotonic() - start
        used, old = heap_kb(a.pid)
        with stats.lock:
            done = stats.ok + stats.errors
        samples.append((t, done, used, old, rss_kb(a.pid)))
        print("t=%4.0fs ops=%8d heap=%7d KB old=%7d KB rss=%7d KB" % samples[-1], file=sys.stderr, flush=True)
        if live_first is None and t >= 60:
            live_first = live_heap_kb(a.pid)
    for t in threads:
        t.join()
    live_last = live_heap_kb(a.pid)
    report(a, stats, samples, live_first, live_last, time.monotonic() - start)


def report(a, stats, samples, live_first, live_last, elapsed):
    first = [s for s in samples if s[0] <= 60]
    last = [s for s in samples if s[0] >= samples[-1][0] - 60]

    def avg(rows, i):
        return sum(r[i] for r in rows) / max(1, len(rows))

    lat = sorted(stats.latencies_ms)
    total = stats.ok + stats.errors
    print("| measure | value |")
    print("|---|---|")
    print("| duration | %d s (%d samples every %d s) |" % (round(elapsed), len(samples), a.sample_seconds))
    print("| target rate | %d req/s (%d threads, keep-alive) |" % (a.rate, a.threads))
    print("| achieved rate | %.0f req/s |" % (total / elapsed))
    print("| requests | %d |" % total)
    print("| errors | %d |" % stats.errors)
    print("| latency p50 / p99 / max | %.2f / %.2f / %.1f ms |" % (percentile(lat, 0.5), percentile(lat, 0.99),
                                                                 lat[-1] if lat else 0))
    print("| heap used, mean of first minute -> last minute | %.0f -> %.0f MB |" % (avg(first, 2) / 1024,
                                                                                    avg(last, 2) / 1024))
    print("| old generation, first minute -> last minute | %.0f -> %.0f MB |" % (avg(first, 3) / 1024,
                                                                                 avg(last, 3) / 1024))
    if live_first is not None:
        print("| live heap after full GC, at 1 min -> at end | %.1f -> %.1f MB |" % (live_first / 1024,
                                                                                   live_last / 1024))
    print("| RSS, first minute -> last minute | %.0f -> %.0f MB |" % (avg(first, 4) / 1024, avg(last, 4) / 1024))
    if stats.error_samples:
        print("\nFirst errors:\n")
        for e in stats.error_samples:
            print("- `%s`" % e)
    print("\nSamples (t s, requests so far, heap used MB, old gen MB, RSS MB):\n")
    print("```")
    for s in samples:
        print("%4.0f %9d %7.1f %7.1f %7.1f" % (s[0], s[1], s[2] / 1024, s[3] / 1024, s[4] / 1024))
    print("```")


if __name__ == "__main__":
    main()
