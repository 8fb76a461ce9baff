#!/usr/bin/env python3
"""Summarizes a JFR recording of the server: where the CPU samples land, per thread, and locks/GC.

  jfr_top.py RECORDING.jfr [--top 25] [--frames 1]

Reads `jfr print --json` (the JDK's own tool) for jdk.ExecutionSample, jdk.NativeMethodSample,
jdk.ThreadCPULoad, jdk.JavaMonitorEnter, jdk.ThreadPark, jdk.GarbageCollection and
jdk.ObjectAllocationSample, and prints:
  - samples per thread group (thread names with digits stripped) and their share;
  - hottest methods by self samples (top frame) and by total samples (anywhere on the stack);
  - self samples grouped by component (Netty, Jackson, JDK zip, Kumiko packages, ...);
  - allocation weight by the first Kumiko frame; monitor/park time; GC pauses.
Execution samples cover threads running Java code only: time in system calls (socket reads and
writes) shows in jdk.NativeMethodSample and in the per-thread CPU load, not in the method tables.
"""
import argparse
import collections
import json
import re
import subprocess
import sys

from buckets import STAGES, component


def frame_name(f):
    m = f.get("method") or {}
    return "%s.%s" % ((m.get("type") or {}).get("name", "?").replace("/", "."), m.get("name", "?"))




def thread_group(t):
    name = (t or {}).get("javaName") or (t or {}).get("osName") or "?"
    return re.sub(r"\d+", "N", name)


def events(path, types):
    # jfr print keeps 5 frames per stack unless told otherwise.
    out = subprocess.run(["jfr", "print", "--json", "--stack-depth", "512", "--events", ",".join(types), path],
                         capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)["recording"]["events"]


def duration_ms(v):
    """JFR JSON durations look like 'PT0.001234S'."""
    m = re.match(r"PT(?:(\d+)M)?([\d.]+)S", v or "")
    return (int(m.group(1) or 0) * 60 + float(m.group(2))) * 1000 if m else 0.0


def pct(n, total):
    return 100.0 * n / total if total else 0.0


def print_table(title, counter, total, top):
    print("\n## %s (%d samples)" % (title, total))
    for name, n in counter.most_common(top):
        print("%6.1f%%  %6d  %s" % (pct(n, total), n, name))


def first_kumiko(frames):
    for f in frames:
        n = frame_name(f)
        if n.startswith("dev.kumiko."):
            return n
    return frame_name(frames[0]) if frames else "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("recording")
    ap.add_argument("--top", type=int, default=25)
    a = ap.parse_args()
    evs = events(a.recording, ["jdk.ExecutionSample", "jdk.NativeMethodSample", "jdk.ThreadCPULoad",
                               "jdk.JavaMonitorEnter", "jdk.ThreadPark", "jdk.GarbageCollection",
                               "jdk.ObjectAllocationSample"])
    by_type = collections.defaultdict(list)
    for e in evs:
        by_type[e["type"]].append(e["values"])

    samples = by_type["jdk.ExecutionSample"]
    total = len(samples)
    threads, self_m, total_m, comps = (collections.Counter() for _ in range(4))
    for s in samples:
        frames = (s.get("stackTrace") or {}).get("frames") or []
        threads[thread_group(s.get("sampledThread"))] += 1
        if not frames:
            continue
        top = frame_name(frames[0])
        self_m[top] += 1
        comps[component(top)] += 1
        for n in {frame_name(f) for f in frames}:
            total_m[n] += 1
    print("# %s" % a.recording)
    print("\n## Request stages, inclusive (Java samples only: no kernel or GC time)")
    for title, frame in STAGES:
        if not frame.startswith("["):
            print("%6.1f%%  %7d  %s" % (pct(total_m[frame], total), total_m[frame], title))
    print_table("Java execution samples by thread", threads, total, a.top)
    print_table("Self samples by component", comps, total, a.top)
    print_table("Hottest methods, self", self_m, total, a.top)
    print_table("Hottest methods, total (on the stack)", total_m, total, a.top)

    native = by_type["jdk.NativeMethodSample"]
    nat = collections.Counter(
        "%s  [%s]" % (frame_name(((n.get("stackTrace") or {}).get("frames") or [{}])[0]),
                      thread_group(n.get("sampledThread"))) for n in native)
    print_table("Native method samples (threads in JNI or system calls)", nat, len(native), 12)

    loads = collections.defaultdict(list)
    for l in by_type["jdk.ThreadCPULoad"]:
        loads[thread_group(l.get("eventThread"))].append((l.get("user", 0) + l.get("system", 0),
                                                          l.get("system", 0)))
    if loads:
        print("\n## Mean CPU load per thread group (share of the machine, user+system / system)")
        rows = []
        for g, vals in loads.items():
            rows.append((sum(v[0] for v in vals) / len(vals), sum(v[1] for v in vals) / len(vals), g, len(vals)))
        for both, system, g, n in sorted(rows, reverse=True)[:15]:
            print("%6.1f%% / %5.1f%%  %s (%d readings)" % (100 * both, 100 * system, g, n))

    alloc = collections.Counter()
    for s in by_type["jdk.ObjectAllocationSample"]:
        frames = (s.get("stackTrace") or {}).get("frames") or []
        alloc["%s -> %s" % (first_kumiko(frames), ((s.get("objectClass") or {}).get("name") or "?"))] += \
            s.get("weight", 0)
    if alloc:
        total_alloc = sum(alloc.values())
        print("\n## Allocation by first Kumiko frame -> class (%.0f MB sampled weight)" % (total_alloc / 1e6))
        for name, w in alloc.most_common(a.top):
            print("%6.1f%%  %8.1f MB  %s" % (pct(w, total_alloc), w / 1e6, name))

    for typ, title in (("jdk.JavaMonitorEnter", "Blocked on monitors"), ("jdk.ThreadPark", "Parked (locks, waits)")):
        c, t = collections.Counter(), collections.Counter()
        for e in by_type[typ]:
            frames = (e.get("stackTrace") or {}).get("frames") or []
            key = "%s  [%s]" % (first_kumiko(frames), thread_group(e.get("eventThread")))
            c[key] += 1
            t[key] += duration_ms(e.get("duration"))
        if c:
            print("\n## %s (events over the recording's threshold, total ms)" % title)
            for key, ms in t.most_common(10):
                print("%9.1f ms  %5d  %s" % (ms, c[key], key))

    gcs = by_type["jdk.GarbageCollection"]
    if gcs:
        pauses = [duration_ms(g.get("sumOfPauses")) for g in gcs]
        names = collections.Counter(g.get("name") for g in gcs)
        print("\n## GC: %d collections %s, pauses total %.1f ms, max %.1f ms" % (
            len(gcs), dict(names), sum(pauses), max(pauses)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
