#!/usr/bin/env python3
"""Loads N items into the harness's table with wrk + bench/scale/lua/scale_load.lua (bench/scale/scale.sh step 2).

    scale_load.py --endpoint URL --items N --out load.json --raw wrk.txt [--server-pid PID]
                  [--threads 1] [--connections 32] [--deadline-s S] [--stall-s 120]

wrk cannot stop itself: its main thread sleeps for -d seconds whatever the script does. So wrk gets
-d as the hard deadline, its Lua threads print SCALE_DONE once every batch they own was answered, and
this script sends wrk SIGINT when all threads are done (or nothing progressed for --stall-s seconds:
a lost response after a socket error would otherwise keep it waiting until the deadline). On SIGINT
wrk prints its summary and the script's done() line, which this script turns into load.json.
The load rate is items answered OK over the time from the first batch sent to the last one answered.
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
LUA = os.path.join(HERE, "lua", "scale_load.lua")
BATCH_ITEMS = 25
POLL_S = 0.5
PROGRESS_PRINT_S = 10.0
# wrk's per-request timeout: long, so that a flush or compaction stall shows as latency, not errors.
REQUEST_TIMEOUT_S = 30
CLK_TCK = os.sysconf("SC_CLK_TCK")
LINE = re.compile(r"^(SCALE_PROGRESS|SCALE_DONE) (.*)$")


def log(msg):
    print("[scale-load %s] %s" % (time.strftime("%H:%M:%S"), msg), file=sys.stderr, flush=True)


def cpu_s(pid):
    """utime + stime of a process in seconds, or None once it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            s = f.read()
        fields = s[s.rindex(")") + 2:].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (OSError, ValueError, IndexError, TypeError):
        return None


def parse_fields(text):
    out = {}
    for kv in text.split():
        k, _, v = kv.partition("=")
        out[k] = float(v) if "." in v else int(v)
    return out


class Watch:
    """Reads wrk's output file as it grows; keeps the newest progress line per thread."""

    def __init__(self, path, threads):
        self.path, self.threads, self.pos = path, threads, 0
        self.latest, self.done, self.partial = {}, set(), ""

    def poll(self):
        with open(self.path) as f:
            f.seek(self.pos)
            chunk = f.read()
            self.pos = f.tell()
        lines = (self.partial + chunk).split("\n")
        self.partial = lines.pop()
        for line in lines:
            m = LINE.match(line.strip())
            if not m:
                continue
            fields = parse_fields(m.group(2))
            self.latest[fields["tid"]] = fields
            if m.group(1) == "SCALE_DONE":
                self.done.add(fields["tid"])

    def answered(self):
        return sum(f["answered"] for f in self.latest.values())

    def all_done(self):
        return len(self.done) == self.threads


def run(args):
    batches = args.items // BATCH_ITEMS
    env = dict(os.environ, SCALE_ITEMS=str(args.items), SCALE_THREADS=str(args.threads), SCALE_TABLE=args.table)
    cmd = ["wrk", "-t", str(args.threads), "-c", str(args.connections), "-d", "%ds" % args.deadline_s,
           "--timeout", "%ds" % REQUEST_TIMEOUT_S, "--latency", "-s", LUA, args.endpoint.rstrip("/") + "/"]
    with open(args.raw, "w") as raw:
        raw.write(" ".join(cmd) + "\n")
    server_cpu0 = cpu_s(args.server_pid) if args.server_pid else None
    log("loading %d items (%d batches of 25) into %s: %s" % (args.items, batches, args.endpoint, " ".join(cmd[:9])))
    out = open(args.raw, "a")
    t0 = time.time()
    proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        return watch_wrk(args, proc, out, t0, server_cpu0)
    except KeyboardInterrupt:
        # Stop our wrk (it may not share our process group) before giving up.
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log("interrupted")
        sys.exit(130)


def watch_wrk(args, proc, out, t0, server_cpu0):
    """Polls wrk's output until it exits; stops it (SIGINT) when done, stalled or past the deadline."""
    batches = args.items // BATCH_ITEMS
    watch = Watch(args.raw, args.threads)
    status, last_answered, last_change, last_print, last_print_answered = None, -1, t0, t0, 0
    rusage = None
    while True:
        pid, _, rusage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        watch.poll()
        now, answered = time.time(), watch.answered()
        if answered != last_answered:
            last_answered, last_change = answered, now
        if status is None and watch.all_done():
            status = "complete"
        elif status is None and now - last_change > args.stall_s:
            status = "stalled"
            log("no batch answered for %ds: stopping wrk" % args.stall_s)
        if status is not None and proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        if now - last_print >= PROGRESS_PRINT_S and status is None:
            rate = BATCH_ITEMS * (answered - last_print_answered) / (now - last_print)
            log("%d/%d items answered (%.1f%%), %.0f items/s over the last %.0f s, %.0f s elapsed" % (
                BATCH_ITEMS * answered, args.items, 100.0 * answered / batches, rate, now - last_print, now - t0))
            last_print, last_print_answered = now, answered
        time.sleep(POLL_S)
    out.close()
    watch.poll()
    if status is None and watch.all_done():
        status = "complete"
    elif status is None:
        status = "deadline" if time.time() - t0 >= args.deadline_s else "wrk exited early"
    server_cpu1 = cpu_s(args.server_pid) if args.server_pid else None
    with open(args.raw) as f:
        m = re.search(r"^SCALE_JSON (\{.*\})\s*$", f.read(), re.M)
    if not m:
        raise SystemExit("wrk printed no SCALE_JSON line; see %s" % args.raw)
    w = json.loads(m.group(1))
    return summarize(args, w, status, rusage, server_cpu0, server_cpu1)


def summarize(args, w, status, rusage, server_cpu0, server_cpu1):
    span_s = (w["last_at"] - w["first_at"]) if (w["first_at"] and w["last_at"] > w["first_at"]) else None
    ok_items = BATCH_ITEMS * w["ok"]
    errors = w["non200"] + w["unprocessed"] + w["err_connect"] + w["err_read"] + w["err_write"] + w["err_timeout"]
    wrk_cpu = (rusage.ru_utime + rusage.ru_stime) if rusage else None
    server_cpu = (server_cpu1 - server_cpu0) if (server_cpu0 is not None and server_cpu1 is not None) else None
    res = {
        "status": status, "items": args.items, "threads": args.threads, "connections": args.connections,
        "items_ok": ok_items, "batches_ok": w["ok"], "batches_unprocessed": w["unprocessed"],
        "batches_non200": w["non200"], "batches_unanswered": w["batches_expected"] - w["answered"],
        "socket_errors": {k: w[k] for k in ("err_connect", "err_read", "err_write", "err_timeout")},
        "errors": errors, "err_sample": w["err_sample"], "filler_requests": w["fillers"],
        "load_s": round(span_s, 2) if span_s else None,
        "items_per_s": round(ok_items / span_s) if span_s else None,
        "first_at": w["first_at"], "last_at": w["last_at"],
        "batch_lat_p50_ms": w["lat_p50_us"] / 1000, "batch_lat_p99_ms": w["lat_p99_us"] / 1000,
        "batch_lat_max_ms": w["lat_max_us"] / 1000,
        "wrk_cpu_s": round(wrk_cpu, 1) if wrk_cpu is not None else None,
        "server_cpu_s": round(server_cpu, 1) if server_cpu is not None else None,
    }
    if span_s:
        res["wrk_cpu_pct"] = round(100 * wrk_cpu / span_s) if wrk_cpu is not None else None
        res["server_cpu_pct"] = round(100 * server_cpu / span_s) if server_cpu is not None else None
    return res


def interrupt(signum, frame):
    raise KeyboardInterrupt


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--endpoint", required=True)
    ap.add_argument("--items", type=int, required=True)
    ap.add_argument("--out", required=True, help="load.json")
    ap.add_argument("--raw", required=True, help="wrk's raw output")
    ap.add_argument("--server-pid", type=int)
    ap.add_argument("--table", default="bench")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--connections", type=int, default=32)
    ap.add_argument("--deadline-s", type=int, default=3600)
    ap.add_argument("--stall-s", type=int, default=120)
    args = ap.parse_args()
    if args.items <= 0 or args.items % 100:
        raise SystemExit("--items must be a positive multiple of 100")
    if not 1 <= args.threads <= min(args.connections, args.items // BATCH_ITEMS):
        raise SystemExit("--threads must be between 1 and min(--connections, items/25)")
    # SIGTERM (kill of the process group) stops wrk as Ctrl-C does, so wrk never outlives us.
    signal.signal(signal.SIGTERM, interrupt)
    res = run(args)
    with open(args.out, "w") as f:
        json.dump(res, f, indent=1)
    log("%s: %d items OK in %s s = %s items/s; errors %d (unprocessed batches %d, non-200 %d, unanswered %d); "
        "server CPU %s s, wrk CPU %s s" % (res["status"], res["items_ok"], res["load_s"], res["items_per_s"],
                                          res["errors"], res["batches_unprocessed"], res["batches_non200"],
                                          res["batches_unanswered"], res["server_cpu_s"], res["wrk_cpu_s"]))
    sys.exit(0 if res["status"] == "complete" else 1)


if __name__ == "__main__":
    main()
