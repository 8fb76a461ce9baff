#!/usr/bin/env python3
"""Summarizes an async-profiler CPU profile in collapsed form (options collapsed,threads,ann).

  collapsed_top.py PROFILE.collapsed [--top 30]

Unlike JFR's execution samples, async-profiler's cpu event samples every thread on a CPU wherever it
is, kernel included (frames marked _[k]), so this answers "where does the server's CPU time go"
whole: system calls, JIT compiler and GC threads too. Prints samples per thread group, self samples
per component, and the hottest frames by self and by total samples.
"""
import argparse
import collections
import re
import sys

from buckets import STAGES, component  # the same buckets as the JFR summary

KERNEL = re.compile(r"_\[k\]$")
ANNOTATION = re.compile(r"_\[[a-z0-9]\]$")


def clean(frame):
    return ANNOTATION.sub("", frame).replace("/", ".")


def bucket(frame_raw, frames):
    if KERNEL.search(frame_raw):
        # Attribute kernel time to what the thread asked the kernel for.
        java = next((clean(f) for f in reversed(frames) if not KERNEL.search(f) and "." in clean(f)
                     and not clean(f).startswith(("[", "libc", "__"))), "")
        if "EPoll" in java or "epoll" in frame_raw:
            return "kernel: epoll"
        if "write" in java.lower() or "FileDispatcherImpl.write" in java:
            return "kernel: socket write"
        if "read" in java.lower():
            return "kernel: socket read"
        return "kernel: other"
    f = clean(frame_raw)
    if f.startswith(("dev.", "com.", "io.", "java.", "jdk.", "sun.", "org.")):
        return component(f)
    return "native/JVM: " + (f.split("::")[0] if "::" in f else f)[:60]




def thread_group(name):
    return re.sub(r"\d+", "N", re.sub(r" tid=\d+", "", name.strip("[]")))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("profile")
    ap.add_argument("--top", type=int, default=30)
    a = ap.parse_args()
    threads, comps, self_f, total_f = (collections.Counter() for _ in range(4))
    total = 0
    with open(a.profile) as fh:
        for line in fh:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not stack:
                continue
            n = int(count)
            frames = stack.split(";")
            thread = frames[0] if frames[0].startswith("[") and "tid=" in frames[0] else "?"
            body = frames[1:] if thread != "?" else frames
            if not body:
                continue
            total += n
            threads[thread_group(thread)] += n
            comps[bucket(body[-1], body)] += n
            self_f[clean(body[-1])] += n
            seen = set(clean(x) for x in body)
            group = thread_group(thread)
            if group.startswith(("GC Thread", "VM Thread")):
                seen.add("[GC]")
            if "CompilerThread" in group:
                seen.add("[JIT]")
            for f in seen:
                total_f[f] += n
    print("# %s: %d samples" % (a.profile, total))
    print("\n## Request stages, inclusive")
    for title, frame in STAGES:
        print("%6.1f%%  %7d  %s" % (100.0 * total_f[frame] / total if total else 0, total_f[frame], title))
    for title, c in (("Samples by thread group", threads), ("Self samples by component", comps),
                     ("Hottest frames, self", self_f), ("Hottest frames, total (on the stack)", total_f)):
        print("\n## %s" % title)
        for name, n in c.most_common(a.top):
            print("%6.1f%%  %7d  %s" % (100.0 * n / total if total else 0, n, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
