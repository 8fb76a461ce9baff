#!/usr/bin/env python3
"""Start time and idle footprint of a DynamoDB-API server process.

  startup.py --port P [--runs 5] [--idle-seconds 5] -- COMMAND...

Launches COMMAND --runs times. Each time measures milliseconds from launch (just before fork) to
the first HTTP 200 answer to a SigV4-shaped ListTables on 127.0.0.1:P (polled every millisecond
over a fresh connection), then waits --idle-seconds and reads the resident set size of the process
and its children, then stops it (SIGTERM, SIGKILL after 10 s). Prints one JSON object.
"""
import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time

REQUEST = (b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n"
           b"X-Amz-Target: DynamoDB_20120810.ListTables\r\nX-Amz-Date: 20250101T000000Z\r\n"
           b"Authorization: AWS4-HMAC-SHA256 Credential=bench/20250101/us-east-1/dynamodb/aws4_request, "
           b"SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=" + b"0" * 64 + b"\r\n"
           b"Content-Length: 2\r\nConnection: close\r\n\r\n{}")
START_TIMEOUT_S = 60


def answers(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
            s.sendall(REQUEST)
            return s.recv(16).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


def tree(pid):
    """pid and its descendants, from /proc."""
    kids = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open("/proc/%s/stat" % d) as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                kids.setdefault(ppid, []).append(int(d))
            except (OSError, ValueError, IndexError):
                pass
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, []))
    return out


def rss_mb(pid):
    total = 0
    for p in tree(pid):
        try:
            with open("/proc/%d/status" % p) as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return round(total / 1024, 1)


def one_run(cmd, port, idle_s):
    if answers(port):
        raise SystemExit("port %d already answers; refusing to measure" % port)
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        while not answers(port):
            if p.poll() is not None:
                raise SystemExit("server exited with %s before answering: %s" % (p.returncode, " ".join(cmd)))
            if time.monotonic() - t0 > START_TIMEOUT_S:
                raise SystemExit("server did not answer within %d s" % START_TIMEOUT_S)
            time.sleep(0.001)
        start_ms = (time.monotonic() - t0) * 1000
        time.sleep(idle_s)
        return start_ms, rss_mb(p.pid)
    finally:
        os.killpg(p.pid, signal.SIGTERM)
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--idle-seconds", type=float, default=5)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    if not cmd:
        ap.error("no command")
    starts, rss = [], []
    for _ in range(a.runs):
        s, r = one_run(cmd, a.port, a.idle_seconds)
        starts.append(round(s, 1))
        rss.append(r)
    print(json.dumps({"start_ms": starts, "start_ms_median": round(statistics.median(starts), 1),
                      "idle_rss_mb": rss, "idle_rss_mb_median": round(statistics.median(rss), 1),
                      "idle_seconds": a.idle_seconds, "cmd": cmd}))


if __name__ == "__main__":
    sys.exit(main())
