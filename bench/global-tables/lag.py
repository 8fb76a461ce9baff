#!/usr/bin/env python3
"""Replication lag of a global table between two Kumiko servers on this machine.

Starts two regions (`kumiko serve --region R --peer OTHER=URL`, memory store unless --store rocksdb),
makes a table global, writes --rate items per second into us-east-1 for --seconds, and reads
eu-west-1's stream: each item carries the time it was written, and its stream record in the other
region is timed when a GetRecords returns it. Prints p50, p99 and max of that lag (write sent to
record read in the other region, one machine's clock), how many writes arrived, the rate the
client reached, and the server's own ReplicationLatency gauge.

Needs boto3 and the server jar:
    mvn -B -q -pl kumiko-server -am package -DskipTests     # builds kumiko-server/target/kumiko.jar
    bench/global-tables/lag.py --rate 1000 --seconds 20
"""
import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import boto3
from botocore.config import Config

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(jar, port, region, peer, peer_port, store, workdir, log):
    store_args = ["--in-memory"] if store == "memory" else ["--data-dir", os.path.join(workdir, region)]
    cmd = ["java", "-jar", jar, "serve", "--port", str(port), "--region", region,
           "--peer", f"{peer}=http://127.0.0.1:{peer_port}"] + store_args
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)


def await_listening(port, deadline_s=60):
    end = time.time() + deadline_s
    while time.time() < end:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1)
            return
        except Exception:
            time.sleep(0.1)
    sys.exit(f"no server on port {port} after {deadline_s} s")


def client(port, region, service="dynamodb"):
    return boto3.client(service, endpoint_url=f"http://127.0.0.1:{port}", region_name=region,
                        aws_access_key_id="bench", aws_secret_access_key="bench",
                        config=Config(retries={"max_attempts": 0}, max_pool_connections=64))


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100.0 * (len(ordered) - 1))))]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jar", default=os.path.join(ROOT, "kumiko-server", "target", "kumiko.jar"))
    ap.add_argument("--rate", type=int, default=1000, help="writes per second into us-east-1")
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--threads", type=int, default=32, help="client threads writing")
    ap.add_argument("--store", choices=["memory", "rocksdb"], default="memory")
    args = ap.parse_args()
    if not os.path.exists(args.jar):
        sys.exit(f"{args.jar} is missing: build it with mvn -B -q -pl kumiko-server -am package -DskipTests")

    workdir = tempfile.mkdtemp(prefix="kumiko-gt-lag-")
    east_port, west_port = free_port(), free_port()
    log = open(os.path.join(workdir, "servers.log"), "w")
    procs = [serve(args.jar, east_port, "us-east-1", "eu-west-1", west_port, args.store, workdir, log),
             serve(args.jar, west_port, "eu-west-1", "us-east-1", east_port, args.store, workdir, log)]
    try:
        await_listening(east_port)
        await_listening(west_port)
        east, west = client(east_port, "us-east-1"), client(west_port, "eu-west-1")
        east.create_table(TableName="lag", BillingMode="PAY_PER_REQUEST",
                          AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                          KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                          StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
        east.update_table(TableName="lag", ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}}])
        end = time.time() + 30
        while True:
            try:
                arn = west.describe_table(TableName="lag")["Table"]["LatestStreamArn"]
                break
            except Exception:
                if time.time() > end:
                    sys.exit("the replica was not created within 30 s")
                time.sleep(0.1)

        lags_ms = []
        stop = threading.Event()
        streams = client(west_port, "eu-west-1", "dynamodbstreams")

        def read_stream():
            shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
            it = streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="TRIM_HORIZON")[
                "ShardIterator"]
            while not stop.is_set() and it:
                r = streams.get_records(ShardIterator=it, Limit=1000)
                now = time.time() * 1000
                for rec in r["Records"]:
                    image = rec["dynamodb"].get("NewImage", {})
                    if "t" in image:
                        lags_ms.append(now - float(image["t"]["N"]))
                it = r.get("NextShardIterator")
                if not r["Records"]:
                    time.sleep(0.005)

        reader = threading.Thread(target=read_stream, daemon=True)
        reader.start()

        total = args.rate * args.seconds
        sent = [0]
        lock = threading.Lock()
        start = time.time()

        def write():
            c = client(east_port, "us-east-1")
            while True:
                with lock:
                    i = sent[0]
                    if i >= total:
                        return
                    sent[0] += 1
                due = start + i / args.rate
                delay = due - time.time()
                if delay > 0:
                    time.sleep(delay)
                c.put_item(TableName="lag", Item={"pk": {"S": f"k{i}"}, "t": {"N": str(int(time.time() * 1000))}})

        writers = [threading.Thread(target=write) for _ in range(args.threads)]
        for w in writers:
            w.start()
        for w in writers:
            w.join()
        elapsed = time.time() - start
        end = time.time() + 60
        while len(lags_ms) < total and time.time() < end:
            time.sleep(0.1)
        stop.set()
        metrics = urllib.request.urlopen(f"http://127.0.0.1:{east_port}/metrics").read().decode()
        gauge = [l for l in metrics.splitlines() if l.startswith("dynamodb_ReplicationLatency_milliseconds{")]
        print(f"store {args.store}, {total} writes asked at {args.rate}/s, reached {total / elapsed:.0f}/s")
        print(f"arrived in eu-west-1: {len(lags_ms)} of {total}")
        if lags_ms:
            print(f"lag ms: p50 {percentile(lags_ms, 50):.1f}, p99 {percentile(lags_ms, 99):.1f}, "
                  f"max {max(lags_ms):.1f}, mean {statistics.mean(lags_ms):.1f}")
        print("server gauge: " + (gauge[0] if gauge else "none"))
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(timeout=30)
        log.close()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
