"""Markdown tables of the harness's results. Imports only the standard library."""
import statistics


def fmt_ops(v):
    if v is None:
        return "–"
    return "%.1fk" % (v / 1000) if v >= 1000 else "%.0f" % v


def fmt_ms(v):
    return "–" if v is None else "%.2f" % v


def pair_ratio(a, b):
    """a's ops/s over b's: the median of per-round ratios when both ran the same rounds (each pair
    measured close in time), else the ratio of medians."""
    ra, rb = a.get("rounds") or [], b.get("rounds") or []
    if ra and len(ra) == len(rb) and all(rb):
        return statistics.median(x / y for x, y in zip(ra, rb))
    if a.get("ops_per_s") and b.get("ops_per_s"):
        return a["ops_per_s"] / b["ops_per_s"]
    return None


def ratio_cell(by_target, name, other, workload):
    if not other or other == name or other not in by_target:
        return "–"
    a, b = by_target[name].get(workload), by_target[other].get(workload)
    if not a or not b or "failed" in (a.get("status"), b.get("status")):
        return "–"
    r = pair_ratio(a, b)
    return "–" if r is None else "%.2f" % r


def side_by_side(by_target, names, workloads, settings):
    """One table: a row per workload and target; ratios to the floor and to the reference server."""
    floor, reference = settings.get("floor"), settings.get("reference")
    header = ["workload", "target", "ops/s", "p50 ms", "p99 ms"]
    if floor:
        header.append("÷ %s" % floor)
    if reference:
        header.append("÷ %s" % reference)
    header += ["server CPU ms / 1k ops", "errors"]
    lines = ["| " + " | ".join(header) + " |", "|---|---|" + "---:|" * (len(header) - 2)]
    for w in workloads:
        for name in names:
            r = by_target.get(name, {}).get(w)
            if r is None:
                continue
            if r.get("status") == "failed":
                row = [w, name, "failed"] + ["–"] * (len(header) - 4) + [r.get("err_sample", "")[:80]]
            else:
                row = [w, name, fmt_ops(r["ops_per_s"]), fmt_ms(r["lat_p50_ms"]), fmt_ms(r["lat_p99_ms"])]
                if floor:
                    row.append(ratio_cell(by_target, name, floor, w))
                if reference:
                    row.append(ratio_cell(by_target, name, reference, w))
                cpu = r.get("server_cpu_ms_per_kop")
                row += ["–" if cpu is None else "%.1f" % cpu, str(r["errors"])]
            lines.append("| " + " | ".join(row) + " |")
    note = ("%s s measured per run after %s s warmup, %s round(s) (order reversed every other round), "
            "%s connections, %s wrk thread(s), %s preloaded items of ~%s bytes. ops/s: good answers per "
            "second, median of rounds (batch: requests of 25 items); ratios: median of per-round ratios."
            % (settings["duration"], settings["warmup"], settings["rounds"], settings["connections"],
               settings["threads"], settings["items"], settings["avg_item_bytes"]))
    return "\n".join(lines) + "\n\n" + note + "\n"
