#!/usr/bin/env python3
"""Kumiko's load harness: the same DynamoDB requests against several servers, side by side.

  harness.py run  --target NAME=URL [--target NAME=URL ...] [--pid NAME=PID ...] [options]
  harness.py load --endpoint URL [--items N]

`run` loads each server's table (unless --no-load NAME), then per workload: an unmeasured warmup
on every target, then --rounds rounds, each target measured once per round, the order reversed
every other round (A B C, C B A, ...) so that no target gains from its position. Medians over the
rounds go into DIR/results.md (one table) and DIR/<NAME>/results.json (per target).

Modules: harness.py (this command) -> check_answers.py (ddb.lua's checks, before a run), wrkrun.py
(one wrk run) and ddb.py (client, table, preload) -> tables.py (markdown). Nothing imports harness.py.
"""
import argparse
import json
import os
import random
import signal
import statistics
import sys
import time

import check_answers
import ddb
import tables
import wrkrun

ALL_WORKLOADS = ["put", "get", "query", "query_gsi", "update", "batch", "mixed"]
FAILED_ERROR_SHARE_MIN = 0.99   # a workload this broken in warmup is reported as failed, not measured


def parse_pairs(values, what):
    out = {}
    for v in values or []:
        name, sep, rest = v.partition("=")
        if not sep or not name or not rest:
            raise SystemExit("%s must be NAME=VALUE: %s" % (what, v))
        out[name] = rest
    return out


class Target:
    def __init__(self, name, url, pid):
        self.name, self.url, self.pid = name, url.rstrip("/"), int(pid) if pid else None
        self.endpoint = ddb.Endpoint(self.url, name)
        self.runs = {}      # workload -> measured results, one per round
        self.status = {}    # workload -> failure reason


def warmup(target, workload, args):
    """Unmeasured load; returns a failure reason if the target cannot serve this workload.

    Two wrk runs (a third of the time, then the rest), so that the measured run is not the first to
    follow a turnover of connections. A JVM server's compiled request path has then seen its
    connections close and new ones open: the first time that happens, the JIT throws the path's
    compiled code away (an uncommon trap) and compiles it again, which took about 2 s of the measured
    10 s at the start of the measured run when the warmup was one run (-XX:+PrintCompilation).
    """
    if args.warmup <= 0:
        return None
    first_s = max(1, args.warmup // 3)
    if args.warmup > first_s:
        wrkrun.measure(target.url, workload, args.items, first_s, args.connections, args.threads)
    r = wrkrun.measure(target.url, workload, args.items, max(1, args.warmup - first_s), args.connections,
                       args.threads)
    answered = r["ops_per_s"] * r["seconds"] + r["errors"]
    # No answer at all within a very short warmup is slowness (a cold JVM), not failure.
    if r["errors"] and r["errors"] >= FAILED_ERROR_SHARE_MIN * answered:
        return "%d errors in warmup: %s" % (r["errors"], r["err_sample"])
    return None


class IdleOthersPaused:
    """With --pause-idle, the targets other than the one under load are stopped (SIGSTOP) while it
    runs, and continued (SIGCONT) after, so that an idle server's background work (RocksDB's flushes
    and compactions, a GC) does not take CPU from the measured one on a small machine."""

    def __init__(self, busy, targets, args):
        self.others = [t.pid for t in targets if t is not busy and t.pid] if args.pause_idle else []

    def __enter__(self):
        for pid in self.others:
            os.kill(pid, signal.SIGSTOP)

    def __exit__(self, *exc):
        for pid in self.others:
            os.kill(pid, signal.SIGCONT)
        return False


def run_workload(workload, targets, args):
    live = []
    for t in targets:
        with IdleOthersPaused(t, targets, args):
            reason = warmup(t, workload, args)
        if reason:
            t.status[workload] = reason
            ddb.log(t.name, workload, "failed:", reason)
        else:
            live.append(t)
    for rnd in range(args.rounds):
        for t in (live if rnd % 2 == 0 else live[::-1]):
            with IdleOthersPaused(t, targets, args):
                r = wrkrun.measure(t.url, workload, args.items, args.duration, args.connections, args.threads, t.pid)
            r["round"] = rnd + 1
            t.runs.setdefault(workload, []).append(r)
            ddb.log("%-16s %-9s round %d: %9.0f ops/s  p50 %6.2f ms  p99 %6.2f ms  errors %d" % (
                t.name, workload, rnd + 1, r["ops_per_s"], r["lat_p50_ms"], r["lat_p99_ms"], r["errors"]))


def median_result(runs):
    """The per-workload summary of a target: medians over rounds, errors summed."""
    out = dict(runs[0])
    for key in ("ops_per_s", "items_per_s", "lat_p50_ms", "lat_p90_ms", "lat_p99_ms", "lat_p999_ms",
                "server_cpu_ms_per_kop", "other_cpu_util_pct", "wrk_cpu_pct"):
        values = [r[key] for r in runs if r.get(key) is not None]
        out[key] = round(statistics.median(values), 3) if values else None
    out["server_rss_peak_mb"] = max((r.get("server_rss_peak_mb") or 0) for r in runs) or None
    out["errors"] = sum(r["errors"] for r in runs)
    out["err_sample"] = next((r["err_sample"] for r in runs if r["err_sample"]), "")
    out["rounds"] = [r["ops_per_s"] for r in runs]
    out.pop("round", None)
    return out


def summaries(target, workloads):
    out = []
    for w in workloads:
        if w in target.status:
            out.append(wrkrun.failed(w, target.status[w]))
        elif target.runs.get(w):
            out.append(median_result(target.runs[w]))
    return out


def write_results(out_dir, targets, workloads, settings, started):
    os.makedirs(out_dir, exist_ok=True)
    by_target = {}
    for t in targets:
        results = summaries(t, workloads)
        by_target[t.name] = {r["workload"]: r for r in results}
        os.makedirs(os.path.join(out_dir, t.name), exist_ok=True)
        meta = dict(settings, label=t.name, endpoint=t.url, pid=t.pid, started=started,
                    avg_item_bytes=settings["avg_item_bytes"])
        with open(os.path.join(out_dir, t.name, "results.json"), "w") as f:
            json.dump({"meta": meta, "results": results, "runs": t.runs}, f, indent=1)
    text = tables.side_by_side(by_target, [t.name for t in targets], workloads, settings)
    with open(os.path.join(out_dir, "results.md"), "w") as f:
        f.write(text)
    return by_target, text


def check_regression(by_target, spec):
    """--max-regression NEW/OLD:PCT -> list of workloads where NEW is more than PCT % below OLD."""
    pair, _, pct = spec.rpartition(":")
    new, _, old = pair.partition("/")
    worse = []
    for w, r_new in by_target.get(new, {}).items():
        r_old = by_target.get(old, {}).get(w)
        if not r_old or r_old.get("status") == "failed" or r_new.get("status") == "failed":
            worse.append("%s (failed)" % w)
            continue
        ratio = tables.pair_ratio(r_new, r_old)
        if ratio is not None and ratio < 1 - float(pct) / 100:
            worse.append("%s (%.3f)" % (w, ratio))
    return worse


def cmd_run(args):
    wrkrun.require_wrk()
    wrong = check_answers.failures()
    if wrong:
        raise SystemExit("lua/ddb.lua's answer checks are wrong (check_answers.py):\n  " + "\n  ".join(wrong))
    urls, pids = parse_pairs(args.target, "--target"), parse_pairs(args.pid, "--pid")
    no_load = set(filter(None, (args.no_load or "").split(",")))
    unknown = (set(pids) | no_load) - set(urls)
    if unknown:
        raise SystemExit("--pid/--no-load name no --target: %s" % ", ".join(sorted(unknown)))
    workloads = [w for w in args.workloads.split(",") if w]
    bad = [w for w in workloads if w not in ALL_WORKLOADS]
    if bad:
        raise SystemExit("unknown workloads %s (known: %s)" % (bad, ",".join(ALL_WORKLOADS)))
    ddb.check_items(args.items)
    targets = [Target(n, u, pids.get(n)) for n, u in urls.items()]
    started = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    for t in targets:
        if t.name not in no_load:
            ddb.ensure_loaded(t.endpoint, "bench", args.items)
    for w in workloads:
        run_workload(w, targets, args)
    sample = ddb.make_item(0, 0, random.Random(1))
    settings = {k: getattr(args, k) for k in ("duration", "warmup", "rounds", "items", "connections", "threads")}
    settings.update(workloads=workloads, avg_item_bytes=ddb.item_size_bytes(sample),
                    reference=args.reference, floor=args.floor)
    out_dir = args.out or os.path.join(os.environ.get("KUMIKO_BENCH_OUT", "bench-results"),
                                       "run-" + time.strftime("%Y%m%d-%H%M%S"))
    by_target, text = write_results(out_dir, targets, workloads, settings, started)
    print(text)
    ddb.log("results in", out_dir)
    if args.max_regression:
        worse = check_regression(by_target, args.max_regression)
        if worse:
            print("REGRESSION beyond %s %%: %s" % (args.max_regression.rpartition(":")[2], ", ".join(worse)))
            sys.exit(3)
        print("no regression beyond %s %%" % args.max_regression.rpartition(":")[2])


def cmd_load(args):
    ddb.ensure_loaded(ddb.Endpoint(args.endpoint, "load"), "bench", args.items)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("run", help="benchmark one or more servers side by side")
    p.add_argument("--target", action="append", required=True, help="NAME=URL, once per server (order kept)")
    p.add_argument("--pid", action="append", help="NAME=PID: sample this process tree's CPU and RSS")
    p.add_argument("--no-load", help="comma-separated target names that need no table (the floor)")
    p.add_argument("--pause-idle", action="store_true",
                   help="stop (SIGSTOP) every other --pid target while one is warmed up or measured")
    p.add_argument("--workloads", default=",".join(ALL_WORKLOADS))
    p.add_argument("--duration", type=int, default=20, help="measured seconds per run (20)")
    p.add_argument("--warmup", type=int, default=5,
                   help="unmeasured seconds per target and workload, in two wrk runs (5)")
    p.add_argument("--rounds", type=int, default=1, help="measured runs per target and workload (1)")
    p.add_argument("--items", type=int, default=100000, help="preloaded items, a multiple of 100 (100000)")
    p.add_argument("--connections", type=int, default=32)
    p.add_argument("--threads", type=int, default=1, help="wrk threads (1)")
    p.add_argument("--reference", help="target to divide by in the table (e.g. ddblocal-mem)")
    p.add_argument("--floor", help="the do-nothing target to divide by in the table (e.g. floor)")
    p.add_argument("--max-regression", help="NEW/OLD:PCT - exit 3 if NEW's ops/s is PCT %% below OLD's")
    p.add_argument("--out", help="output directory (default $KUMIKO_BENCH_OUT or bench-results, then run-<time>)")
    p.set_defaults(fn=cmd_run)
    p = sub.add_parser("load", help="only create and preload the table")
    p.add_argument("--endpoint", required=True)
    p.add_argument("--items", type=int, default=100000)
    p.set_defaults(fn=cmd_load)
    args = ap.parse_args()
    if args.cmd == "run" and (args.rounds < 1 or args.duration < 1 or args.threads > args.connections):
        raise SystemExit("--rounds and --duration must be >= 1, --threads <= --connections")
    args.fn(args)


if __name__ == "__main__":
    main()
