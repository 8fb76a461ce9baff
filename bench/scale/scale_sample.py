#!/usr/bin/env python3
"""Samples a Kumiko server's memory and data directory for bench/scale/scale.sh until the server exits.

    scale_sample.py --pid PID --data-dir DIR --phase-file FILE --out samples.jsonl [--interval-s 10]

One JSON line per sample: wall time, the phase named in --phase-file (written by scale.sh: load,
verify, get, ...), RSS and its high-water mark from /proc, the Java heap (used and committed, old
generation, GC counts and seconds) from `jstat -gc`, and the data directory's size in bytes.

jstat runs once, continuously (`jstat -gc PID <interval>ms`): it reads the JVM's perf-data file, so
unlike `jcmd GC.heap_info` it neither attaches to the server nor starts a JVM per sample, and the
sampler costs the measured machine almost nothing. Each jstat line triggers one sample.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time

# jstat -gc columns (KB) that make up the Java heap: survivor 0/1, eden, old.
HEAP_USED = ("S0U", "S1U", "EU", "OU")
HEAP_COMMITTED = ("S0C", "S1C", "EC", "OC")


def proc_kb(pid, field):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return None


def dir_bytes(path):
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                pass  # RocksDB deletes obsolete files while we walk
    return total


def read_phase(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return ""


def sample(pid, header, values, data_dir, phase_file):
    col = dict(zip(header, values))

    def mb(names):
        return round(sum(float(col[n]) for n in names) / 1024, 1)

    rss, hwm = proc_kb(pid, "VmRSS"), proc_kb(pid, "VmHWM")
    return {"t": round(time.time(), 1), "phase": read_phase(phase_file),
            "rss_mb": round(rss / 1024, 1) if rss is not None else None,
            "rss_hwm_mb": round(hwm / 1024, 1) if hwm is not None else None,
            "heap_used_mb": mb(HEAP_USED), "heap_committed_mb": mb(HEAP_COMMITTED),
            "old_used_mb": mb(("OU",)), "young_gc": int(col["YGC"]), "full_gc": int(col["FGC"]),
            "gc_s": float(col["GCT"]), "data_dir_bytes": dir_bytes(data_dir)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pid", type=int, required=True)
    ap.add_argument("--data-dir", required=True)
    ap.add_argument("--phase-file", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--interval-s", type=float, default=10)
    args = ap.parse_args()
    jstat = subprocess.Popen(["jstat", "-gc", str(args.pid), "%dms" % int(args.interval_s * 1000)],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    # scale.sh stops the sampler with SIGTERM at cleanup; jstat must not outlive it.
    signal.signal(signal.SIGTERM, lambda *_: (jstat.terminate(), jstat.wait(), sys.exit(0)))
    header = None
    with open(args.out, "a") as out:
        # jstat ends by itself when the server exits.
        for line in jstat.stdout:
            fields = line.split()
            if not fields:
                continue
            if fields[0] == "S0C":
                header = fields
                continue
            if header is None or len(fields) != len(header):
                continue
            out.write(json.dumps(sample(args.pid, header, fields, args.data_dir, args.phase_file)) + "\n")
            out.flush()
    jstat.wait()


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(0)
