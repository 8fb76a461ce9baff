#!/usr/bin/env python3
"""Server CPU and time of the operations the load harness does not cover, for two jars side by side.

  bench/paths/paths.py --jars OLD.jar NEW.jar [--rounds 2] [--cases getrecords,ttl,export,export_past,restore]

Each case starts a fresh in-memory server from each jar in turn (the order alternating per round),
loads its data with boto3, and measures the server process's CPU (utime + stime from /proc) and the
wall time of the measured work:
  getrecords   2,000 stream records (1,000 puts and 1,000 updates, NEW_AND_OLD_IMAGES) read with
               GetRecords 100 times after 30 of warmup: CPU per record
  ttl          a TTL pass over 100,000 items none of which has expired (POST /kumiko/admin/ttl/sweep),
               8 passes after 3: median time and CPU per pass
  export       a full export of 100,000 items to a local directory (DynamoDB JSON), 3 after 1
  export_past  the same as of 1.5 s before (read from the point-in-time history)
  restore      RestoreTableFromBackup of 100,000 items with a GSI, 3 after 1
Needs Java 17 and boto3. Prints one line per case, jar and round.
"""
import argparse
import os
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.request

import boto3
from botocore.config import Config

ITEM_TEXT = {"a": {"S": "x" * 40}, "b": {"S": "y" * 40}, "c": {"N": "3.25"}, "d": {"BOOL": True},
             "e": {"S": "z" * 30}, "f": {"SS": ["p", "q"]}}


class Server:
    """One in-memory Kumiko server of a jar, and clients for it."""

    def __init__(self, jar):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.process = subprocess.Popen(["java", "-XX:+UseParallelGC", "-Xms1g", "-Xmx1g", "-jar", jar, "serve",
                                         "--in-memory", "--port", str(self.port)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port)).close()
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.05)
        kw = dict(endpoint_url=f"http://127.0.0.1:{self.port}", region_name="us-east-1", aws_access_key_id="bench",
                  aws_secret_access_key="bench", config=Config(retries={"max_attempts": 1}))
        self.ddb = boto3.client("dynamodb", **kw)
        self.streams = boto3.client("dynamodbstreams", **kw)

    def cpu_s(self):
        fields = open(f"/proc/{self.process.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def load(self, table, count):
        for b in range(count // 25):
            items = [{"PutRequest": {"Item": {"pk": {"S": f"k{b:05d}-{i:02d}"}, "g": {"S": f"g{(b * 25 + i) % 997}"},
                                              "exp": {"N": str(int(time.time()) + 86400)}, **ITEM_TEXT}}}
                     for i in range(25)]
            self.ddb.batch_write_item(RequestItems={table: items})

    def table(self, name, **extra):
        return self.ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}], **extra)["TableDescription"]

    def close(self):
        self.process.terminate()
        self.process.wait()


def timed(server, work):
    cpu, start = server.cpu_s(), time.time()
    work()
    return time.time() - start, server.cpu_s() - cpu


def getrecords(s):
    t = s.table("records", StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
    for i in range(1000):
        key = {"pk": {"S": f"k{i:05d}"}}
        s.ddb.put_item(TableName="records", Item={**key, "n": {"N": str(i)}, **ITEM_TEXT})
        s.ddb.update_item(TableName="records", Key=key, UpdateExpression="SET n = n + :one",
                          ExpressionAttributeValues={":one": {"N": "1"}})
    arn = t["LatestStreamArn"]
    shard = s.streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]

    def read_all():
        it = s.streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        while it:
            r = s.streams.get_records(ShardIterator=it, Limit=1000)
            if not r["Records"]:
                break
            it = r.get("NextShardIterator")

    for _ in range(30):
        read_all()
    _, cpu = timed(s, lambda: [read_all() for _ in range(100)])
    return f"{1e6 * cpu / 200_000:.2f} µs of server CPU per record"


def ttl(s):
    s.table("expiring")
    s.load("expiring", 100_000)
    s.ddb.update_time_to_live(TableName="expiring", TimeToLiveSpecification={"Enabled": True, "AttributeName": "exp"})
    request = lambda: urllib.request.urlopen(urllib.request.Request(
        f"http://127.0.0.1:{s.port}/kumiko/admin/ttl/sweep", data=b"", method="POST")).read()
    for _ in range(3):
        request()
    runs = [timed(s, request) for _ in range(8)]
    return (f"pass {1000 * statistics.median(r[0] for r in runs):.0f} ms, "
            f"{1000 * statistics.median(r[1] for r in runs):.0f} ms of server CPU (medians of 8)")


def export(s, past):
    arn = s.table("exported")["TableArn"]
    s.ddb.update_continuous_backups(TableName="exported",
                                    PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    s.load("exported", 100_000)
    time.sleep(3)
    at = {"ExportTime": time.time() - 1.5} if past else {}
    runs = []
    for _ in range(4):
        directory = tempfile.mkdtemp(prefix="kumiko-paths-")
        try:
            def work():
                e = s.ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket=f"file:{directory}",
                                                        ExportFormat="DYNAMODB_JSON", **at)["ExportDescription"]["ExportArn"]
                while s.ddb.describe_export(ExportArn=e)["ExportDescription"]["ExportStatus"] == "IN_PROGRESS":
                    time.sleep(0.01)
            runs.append(timed(s, work))
        finally:
            shutil.rmtree(directory, ignore_errors=True)
    return ", ".join(f"{w:.2f} s ({c:.2f} s CPU)" for w, c in runs[1:])


def restore(s):
    s.ddb.create_table(TableName="source", BillingMode="PAY_PER_REQUEST",
                       AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                             {"AttributeName": "g", "AttributeType": "S"}],
                       KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                       GlobalSecondaryIndexes=[{"IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                                "Projection": {"ProjectionType": "ALL"}}])
    s.load("source", 100_000)
    arn = s.ddb.create_backup(TableName="source", BackupName="paths")["BackupDetails"]["BackupArn"]
    while s.ddb.describe_backup(BackupArn=arn)["BackupDescription"]["BackupDetails"]["BackupStatus"] != "AVAILABLE":
        time.sleep(0.05)
    runs = []
    for i in range(4):
        def work():
            s.ddb.restore_table_from_backup(TargetTableName=f"restored{i}", BackupArn=arn)
            while s.ddb.describe_table(TableName=f"restored{i}")["Table"]["TableStatus"] != "ACTIVE":
                time.sleep(0.01)
        runs.append(timed(s, work))
    return ", ".join(f"{w:.2f} s ({c:.2f} s CPU)" for w, c in runs[1:])


CASES = {"getrecords": getrecords, "ttl": ttl, "export": lambda s: export(s, False),
         "export_past": lambda s: export(s, True), "restore": restore}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jars", nargs=2, required=True, metavar=("OLD", "NEW"))
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--cases", default=",".join(CASES))
    a = ap.parse_args()
    for case in a.cases.split(","):
        if case not in CASES:
            ap.error(f"unknown case {case} (one of {', '.join(CASES)})")
        for r in range(a.rounds):
            for jar in (a.jars if r % 2 == 0 else reversed(a.jars)):
                server = Server(jar)
                try:
                    print(f"{case} round {r + 1} {jar}: {CASES[case](server)}", flush=True)
                finally:
                    server.close()


if __name__ == "__main__":
    main()
