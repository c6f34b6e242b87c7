"""Turns a pytest-benchmark JSON file into the tables of docs/BENCHMARKS.md:
per preset, every implementation's time and its ratio to toolwire's
`check_file`, the targets of the scale issue with their measured ratios,
where toolwire's time goes, peak memory, and the hostile presets (findings
far larger than the file) against their targets.

    python benches/report.py bench.json > table.md
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from typing import Any, Dict, List, Optional

# The order of the tables.
SPEED_PRESETS = (
    "small", "medium", "large", "deep", "fanout", "flat-names",
    "clash-fanout-small", "clash-fanout", "deep-fanout", "deep-fanout-100k", "clash-deep",
)  # fmt: skip
# Presets whose findings dwarf the file (benches/workloads.py HOSTILE): time
# per byte at most 2x `large`'s, peak RSS at most 2x the file + 300 MB.
HOSTILE_PRESETS = ("fanout", "clash-fanout-small", "clash-fanout", "deep-fanout", "deep-fanout-100k", "clash-deep")
PER_BYTE_TARGET = 2.0


def load(path: str) -> List[Dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        benchmarks: List[Dict[str, Any]] = json.load(f)["benchmarks"]
    return benchmarks


def by_group(benchmarks: List[Dict[str, Any]]) -> Dict[str, Dict[str, Dict[str, Any]]]:
    groups: Dict[str, Dict[str, Dict[str, Any]]] = defaultdict(dict)
    for b in benchmarks:
        groups[b["group"]][b["name"]] = b
    return groups


def seconds(b: Optional[Dict[str, Any]]) -> Optional[float]:
    # The minimum: on a shared machine it is the least disturbed round.
    return None if b is None else float(b["stats"]["min"])


def fmt_time(t: Optional[float]) -> str:
    if t is None:
        return "-"
    return f"{t * 1000:.2f} ms" if t < 1 else f"{t:.2f} s"


def speed_table(groups: Dict[str, Dict[str, Dict[str, Any]]]) -> List[str]:
    lines = ["| preset | size | implementation | time (min) | MB/s | vs toolwire.check_file | correct |", "|---|---|---|---|---|---|---|"]
    for preset in SPEED_PRESETS:
        group = groups.get(preset)
        if not group:
            continue
        base = seconds(group.get("toolwire.check_file"))
        for name, b in sorted(group.items(), key=lambda item: seconds(item[1]) or 0.0):
            t = seconds(b)
            size = b["extra_info"]["bytes"]
            ratio = f"{t / base:.1f}x" if base and t else "-"
            correct = {True: "yes", False: "NO", None: "n/a"}[b["extra_info"].get("correct")]
            lines.append(
                f"| {preset} | {size / 1e6:.1f} MB | {name} | {fmt_time(t)} | {size / 1e6 / t:.0f} | {ratio} | {correct} |"
            )
    return lines


def ratio(groups: Dict[str, Dict[str, Dict[str, Any]]], preset: str, slow: str, fast: str) -> Optional[float]:
    group = groups.get(preset, {})
    s, f = seconds(group.get(slow)), seconds(group.get(fast))
    return s / f if s and f else None


def per_byte(groups: Dict[str, Dict[str, Dict[str, Any]]], preset: str) -> Optional[float]:
    b = groups.get(preset, {}).get("toolwire.check_file")
    t = seconds(b)
    return None if b is None or t is None else t / b["extra_info"]["bytes"]


def targets_table(groups: Dict[str, Dict[str, Dict[str, Any]]]) -> List[str]:
    rows = []

    def row(measure: str, target: str, value: Optional[float], ok: Optional[bool], shown: str) -> None:
        verdict = "-" if ok is None else ("met" if ok else "NOT met")
        rows.append(f"| {measure} | {target} | {shown if value is not None else 'not measured'} | {verdict} |")

    r = ratio(groups, "large", "json.loads", "toolwire.check_file")
    row("`check_file` on `large` vs `json.loads`", ">= 10x faster", r, None if r is None else r >= 10, f"{r:.1f}x" if r else "")
    r = ratio(groups, "large", "toolwire.check_file", "simdjson.parse")
    row("`check_file` on `large` vs simdjson's bare parse", "<= 4x its time", r, None if r is None else r <= 4, f"{r:.1f}x" if r else "")
    r = ratio(groups, "large", "reference.check", "toolwire.check")
    row("`check` on the parsed `large` dict vs the reference", ">= 10x faster", r, None if r is None else r >= 10, f"{r:.1f}x" if r else "")
    mem = groups.get("large peak memory", {}).get("toolwire.check_file")
    m = None if mem is None else mem["extra_info"]["rss_per_file_byte"]
    row("peak RSS of `check_file` on `large`", "<= 1.5x the file size", m, None if m is None else m <= 1.5, f"{m:.2f}x" if m else "")
    base = per_byte(groups, "large")
    for preset in ("deep", "flat-names", *HOSTILE_PRESETS):
        p = per_byte(groups, preset)
        r = p / base if p and base else None
        ok = None if r is None else r <= PER_BYTE_TARGET
        row(f"time per byte, `{preset}` vs `large`", "<= 2x", r, ok, f"{r:.2f}x" if r else "")
    for preset in HOSTILE_PRESETS:
        info = groups.get(f"{preset} peak memory", {}).get("toolwire.check_file", {}).get("extra_info", {})
        peak, target = info.get("peak_rss"), info.get("peak_rss_target")
        m = peak / target if peak and target else None
        shown = f"{peak / 1e6:.0f} MB of {target / 1e6:.0f} MB" if peak and target else ""
        row(f"peak RSS of `check_file` on `{preset}`", "<= 2x the file + 300 MB", m, None if m is None else m <= 1, shown)
    batch = next((g for name, g in groups.items() if name.startswith("check_files over")), {})
    one, two = seconds(batch.get("jobs=1")), seconds(batch.get("jobs=2"))
    r = one / two if one and two else None
    files = batch["jobs=1"]["extra_info"]["files"] if "jobs=1" in batch else 0
    row(f"`check_files` over {files} files, 2 jobs vs 1", ">= 1.6x faster", r, None if r is None else r >= 1.6, f"{r:.2f}x" if r else "")
    return ["| measure | target | measured | verdict |", "|---|---|---|---|", *rows]


def phases_table(groups: Dict[str, Dict[str, Dict[str, Any]]]) -> List[str]:
    """Phases of one extra run, beside the benchmark's best time; what the
    phases do not cover is building the Python report (plus noise)."""
    lines = [
        "| preset | read file | parse + graph | check | `check_file` (min) | rest: report to Python |",
        "|---|---|---|---|---|---|",
    ]
    for preset in SPEED_PRESETS:
        b = groups.get(preset, {}).get("toolwire.check_file")
        if b and "phases" in b["extra_info"]:
            p = b["extra_info"]["phases"]
            total = seconds(b) or 0.0
            rest = max(0.0, total - p["read"] - p["parse"] - p["check"])
            lines.append(
                f"| {preset} | {fmt_time(p['read'])} | {fmt_time(p['parse'])} | {fmt_time(p['check'])} "
                f"| {fmt_time(total)} | {fmt_time(rest)} |"
            )
    return lines


def _mib(b: Dict[str, Any]) -> str:
    return f"{b['extra_info']['peak_rss'] / 2**20:.0f} MiB"


def _per_byte(b: Dict[str, Any]) -> str:
    return f"{b['extra_info']['rss_per_file_byte']:.2f}x"


def memory_table(groups: Dict[str, Dict[str, Dict[str, Any]]]) -> List[str]:
    lines = [
        "| preset | file | python alone | `check_file` | ratio to file | `json.loads` | ratio to file |",
        "|---|---|---|---|---|---|---|",
    ]
    for preset in SPEED_PRESETS:
        group = groups.get(f"{preset} peak memory", {})
        alone, ours, theirs = (group.get(n) for n in ("python (no check)", "toolwire.check_file", "json.loads"))
        if not (alone and ours and theirs):
            continue
        size = ours["extra_info"]["bytes"] / 1e6
        lines.append(
            f"| {preset} | {size:.1f} MB | {_mib(alone)} | {_mib(ours)} | {_per_byte(ours)} "
            f"| {_mib(theirs)} | {_per_byte(theirs)} |"
        )
    return lines


def hostile_table(groups: Dict[str, Dict[str, Dict[str, Any]]]) -> List[str]:
    """The presets whose findings dwarf the file, against both targets."""
    lines = [
        "| preset | file | violations | `check_file` (min) | s/MB | per byte vs `large` | peak RSS "
        "| target: 2x file + 300 MB | verdict |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    base = per_byte(groups, "large")
    for preset in HOSTILE_PRESETS:
        speed = groups.get(preset, {}).get("toolwire.check_file")
        mem = groups.get(f"{preset} peak memory", {}).get("toolwire.check_file")
        if not (speed or mem):
            continue
        info = (speed or mem or {})["extra_info"]
        size = info["bytes"]
        t = seconds(speed)
        p = per_byte(groups, preset)
        r = p / base if p and base else None
        violations = info.get("violations")
        peak = mem["extra_info"]["peak_rss"] if mem else None
        target = mem["extra_info"].get("peak_rss_target") if mem else None
        verdicts = []
        if r is not None:
            verdicts.append("time met" if r <= PER_BYTE_TARGET else "time NOT met")
        if peak is not None and target:
            verdicts.append("memory met" if peak <= target else "memory NOT met")
        lines.append(
            f"| {preset} | {size / 1e6:.1f} MB | {violations if violations is not None else '-'} | {fmt_time(t)} "
            f"| {f'{t / (size / 1e6):.3f}' if t else '-'} | {f'{r:.2f}x' if r else '-'} "
            f"| {f'{peak / 1e6:.0f} MB' if peak else '-'} | {f'{target / 1e6:.0f} MB' if target else '-'} "
            f"| {', '.join(verdicts) or '-'} |"
        )
    return lines


def main(argv: List[str]) -> int:
    if len(argv) != 2:
        sys.stderr.write("usage: python benches/report.py BENCHMARK_JSON\n")
        return 2
    groups = by_group(load(argv[1]))
    sections = [
        ("Targets", targets_table(groups)),
        ("Speed", speed_table(groups)),
        ("Where toolwire's time goes (one `check_file` run)", phases_table(groups)),
        ("Peak memory (a fresh process per measure)", memory_table(groups)),
        ("Findings far larger than the file: time per byte and peak memory against their targets", hostile_table(groups)),
    ]
    for title, lines in sections:
        print(f"### {title}\n")
        print("\n".join(lines))
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
