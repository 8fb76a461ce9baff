"""One wrk run of one workload against one server, with the server's CPU and RSS sampled.

Imports only the standard library; harness.py uses it.
"""
import json
import os
import resource
import shutil
import subprocess
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
LUA = os.path.join(HERE, "lua", "ddb.lua")
CLK_TCK = os.sysconf("SC_CLK_TCK")
SAMPLE_INTERVAL_SECONDS = 0.2
WRK_GRACE_SECONDS = 30      # beyond --duration, before a hung wrk is killed
BATCH_ITEMS = 25


def require_wrk():
    if not shutil.which("wrk"):
        raise SystemExit("wrk not found: bench/harness/peers/install.sh wrk (or apt-get install -y wrk)")


def proc_tree(root):
    """root and all its descendants (a launcher script's JVM, nginx's workers)."""
    children = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                stat = f.read()
            children.setdefault(int(stat[stat.rindex(")") + 2:].split()[1]), []).append(int(d))
        except (OSError, ValueError):
            pass
    out, stack = [], [root]
    while stack:
        p = stack.pop()
        out.append(p)
        stack.extend(children.get(p, []))
    return out


def cpu_seconds(pids):
    total = 0.0
    for p in pids:
        try:
            with open("/proc/%d/stat" % p) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime + stime
        except (OSError, ValueError, IndexError):
            pass
    return total


def rss_mb(pids):
    total_kb = 0
    for p in pids:
        try:
            with open("/proc/%d/status" % p) as f:
                total_kb += next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)
        except (OSError, ValueError):
            pass
    return total_kb / 1024


def machine_cpu_seconds():
    """(busy, total) CPU seconds of the whole machine since boot."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    busy = v[0] + v[1] + v[2] + v[5] + v[6] + (v[7] if len(v) > 7 else 0)
    return busy / CLK_TCK, (busy + v[3] + v[4]) / CLK_TCK


class Sampler(threading.Thread):
    """Peak RSS of a process tree while a run lasts."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.peak_mb, self.stop_event = pid, 0.0, threading.Event()

    def run(self):
        while not self.stop_event.is_set():
            self.peak_mb = max(self.peak_mb, rss_mb(proc_tree(self.pid)))
            self.stop_event.wait(SAMPLE_INTERVAL_SECONDS)


def run_wrk(url, workload, items, duration_s, connections, threads, table="bench"):
    """Runs wrk; returns (summary dict from ddb.lua, wrk CPU seconds)."""
    env = dict(os.environ, DDB_WORKLOAD=workload, DDB_ITEMS=str(items), DDB_TABLE=table)
    cmd = ["wrk", "-t", str(threads), "-c", str(connections), "-d", "%ds" % duration_s, "--timeout", "10s",
           "-s", LUA, url + "/"]
    if os.environ.get("BENCH_WRK_CPUS"):  # run.sh --pin: wrk on its own CPUs
        cmd = ["taskset", "-c", os.environ["BENCH_WRK_CPUS"]] + cmd
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=duration_s + WRK_GRACE_SECONDS)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    wrk_cpu_s = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    line = next((l for l in done.stdout.splitlines() if l.startswith("DDB_JSON ")), None)
    if line is None:
        raise SystemExit("wrk gave no summary (exit %d): %s %s" % (done.returncode, done.stdout[-500:],
                                                                    done.stderr[-500:]))
    return json.loads(line[len("DDB_JSON "):]), wrk_cpu_s


def measure(url, workload, items, duration_s, connections=32, threads=1, pid=None):
    """One measured run: throughput of good answers, latency, errors, server CPU and RSS."""
    pids = proc_tree(pid) if pid else []
    sampler = Sampler(pid) if pid else None
    if sampler:
        sampler.start()
    cpu_before, (busy_before, _) = cpu_seconds(pids), machine_cpu_seconds()
    summary, wrk_cpu_s = run_wrk(url, workload, items, duration_s, connections, threads)
    server_cpu_s = cpu_seconds(proc_tree(pid)) - cpu_before if pid else None
    busy_after, _ = machine_cpu_seconds()
    if sampler:
        sampler.stop_event.set()
        sampler.join()
    seconds = summary["duration_us"] / 1e6
    errors = (summary["bad"] + summary["non200"] + summary["err_connect"] + summary["err_read"]
              + summary["err_write"] + summary["err_timeout"])
    ops = summary["good"] / seconds if seconds else 0.0
    result = {
        "workload": workload, "status": "ok", "seconds": round(seconds, 2), "ops_per_s": round(ops, 1),
        "items_per_s": round(ops * BATCH_ITEMS, 1) if workload == "batch" else None,
        "errors": errors, "err_sample": summary["sample"],
        "lat_p50_ms": summary["lat_p50_us"] / 1000, "lat_p90_ms": summary["lat_p90_us"] / 1000,
        "lat_p99_ms": summary["lat_p99_us"] / 1000, "lat_p999_ms": summary["lat_p999_us"] / 1000,
        "wrk_cpu_pct": round(100 * wrk_cpu_s / seconds, 1) if seconds else None,
        "server_cpu_s": round(server_cpu_s, 2) if server_cpu_s is not None else None,
        "server_cpu_ms_per_kop": (round(1e6 * server_cpu_s / summary["good"], 2)
                                  if server_cpu_s is not None and summary["good"] else None),
        "server_rss_peak_mb": round(sampler.peak_mb, 1) if sampler else None,
    }
    # CPU of the machine used by neither the server nor wrk: how noisy the run was (100 = one core)
    machine_busy_s = busy_after - busy_before
    other_s = machine_busy_s - wrk_cpu_s - (server_cpu_s or 0)
    result["other_cpu_util_pct"] = round(100 * max(0.0, other_s) / seconds, 0) if seconds else None
    result["machine_cpu_util_pct"] = round(100 * machine_busy_s / seconds, 0) if seconds else None
    return result


def failed(workload, reason):
    return {"workload": workload, "status": "failed", "err_sample": reason}
