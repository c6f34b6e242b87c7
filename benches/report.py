"""Turns a pytest-benchmark JSON file into the tables of docs/BENCHMARKS.md:
per preset, every implementation's time and its ratio to toolwire's
`check_file`, the targets of the scale issues with their measured ratios
(and the ratios the benchmark gate of `.ci/run` keeps to, benches/gate.py),
where toolwire's time goes, peak memory, the hostile presets (findings
far larger than the file) against their targets, and the worst-case families
of issue "Every shape costs what its file costs" (benches/test_families.py)
against theirs.

    python3 benches/report.py bench.json                # prints the tables
    python3 benches/report.py bench.json --write docs/BENCHMARKS.md

``--write`` replaces the table between each ``<!-- report.py: NAME -->`` and
the ``<!-- /report.py -->`` after it with table NAME (one of TABLES) made
from this run, so the doc is regenerated, never edited by hand; it needs a
run of every preset (``--presets all``), so that no table loses rows.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from typing import Any, Callable, Dict, List, Optional

# The order of the tables.
SPEED_PRESETS = (
    "small", "medium", "large", "deep", "fanout", "flat-names",
    "clash-fanout-small", "clash-fanout", "deep-fanout", "deep-fanout-100k", "clash-deep",
)  # fmt: skip
# Presets whose findings dwarf the file (benches/workloads.py HOSTILE): time
# per byte at most 2x `large`'s, peak RSS at most 2x the file + 300 MB.
HOSTILE_PRESETS = ("fanout", "clash-fanout-small", "clash-fanout", "deep-fanout", "deep-fanout-100k", "clash-deep")
PER_BYTE_TARGET = 2.0
# Issue "Parse at SIMD speed", on `large`: `check_file` and `check_json` at
# least this many times faster than `json.loads`, and within this many times
# simdjson's parse (one parser, reused, as simdjson is measured).
VS_JSON_LOADS = 15.0
VS_SIMDJSON = 2.5
# Unchanged since the first scale issue.
VS_REFERENCE = 10.0
RSS_PER_FILE_BYTE = 1.5
BATCH_SPEEDUP = 1.6

# The benchmark gate of `.ci/run` (benches/gate.py): on GATE_PRESET, each of
# GATED against GATE_BASELINE in the same run must stay at least GATE_FLOOR
# times the ratio the targets table documents (its gate rows, written here).
GATE_PRESET = "medium"
GATE_BASELINE = "json.loads"
GATED = ("toolwire.check_file", "toolwire.check_json")
GATE_FLOOR = 0.5

Groups = Dict[str, Dict[str, Dict[str, Any]]]


def entry_point(implementation: str) -> str:
    """``toolwire.check_file`` -> ``check_file``."""
    return implementation.rsplit(".", 1)[-1]


def gate_measure(implementation: str) -> str:
    """The first cell of the targets table's gate row for ``implementation``."""
    return f"`{entry_point(implementation)}` on `{GATE_PRESET}` vs `{GATE_BASELINE}` (the `.ci/run` gate)"


def load(path: str) -> List[Dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        benchmarks: List[Dict[str, Any]] = json.load(f)["benchmarks"]
    return benchmarks


def by_group(benchmarks: List[Dict[str, Any]]) -> Groups:
    groups: Groups = defaultdict(dict)
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


def speed_table(groups: Groups) -> List[str]:
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


def ratio(groups: Groups, preset: str, slow: str, fast: str) -> Optional[float]:
    group = groups.get(preset, {})
    s, f = seconds(group.get(slow)), seconds(group.get(fast))
    return s / f if s and f else None


def per_byte(groups: Groups, preset: str) -> Optional[float]:
    b = groups.get(preset, {}).get("toolwire.check_file")
    t = seconds(b)
    return None if b is None or t is None else t / b["extra_info"]["bytes"]


def targets_table(groups: Groups) -> List[str]:
    rows = []

    def row(measure: str, target: str, value: Optional[float], ok: Optional[bool], shown: str) -> None:
        verdict = "-" if ok is None else ("met" if ok else "NOT met")
        rows.append(f"| {measure} | {target} | {shown if value is not None else 'not measured'} | {verdict} |")

    def at_least(measure: str, target: str, r: Optional[float], floor: float) -> None:
        row(measure, target, r, None if r is None else r >= floor, f"{r:.1f}x" if r else "")

    def at_most(measure: str, target: str, r: Optional[float], ceiling: float, digits: int = 1) -> None:
        row(measure, target, r, None if r is None else r <= ceiling, f"{r:.{digits}f}x" if r else "")

    for name in GATED:
        r = ratio(groups, "large", "json.loads", name)
        at_least(f"`{entry_point(name)}` on `large` vs `json.loads`", f">= {VS_JSON_LOADS:g}x faster", r, VS_JSON_LOADS)
    for name in GATED:
        r = ratio(groups, "large", name, "simdjson.parse")
        at_most(f"`{entry_point(name)}` on `large` vs simdjson's parse (one parser, reused)", f"<= {VS_SIMDJSON:g}x its time",
                r, VS_SIMDJSON)  # fmt: skip
    r = ratio(groups, "large", "reference.check", "toolwire.check")
    at_least("`check` on the parsed `large` dict vs the reference", f">= {VS_REFERENCE:g}x faster", r, VS_REFERENCE)
    mem = groups.get("large peak memory", {}).get("toolwire.check_file")
    m = None if mem is None else mem["extra_info"]["rss_per_file_byte"]
    at_most("peak RSS of `check_file` on `large`", f"<= {RSS_PER_FILE_BYTE:g}x the file size", m, RSS_PER_FILE_BYTE, 2)
    base = per_byte(groups, "large")
    for preset in ("deep", "flat-names", *HOSTILE_PRESETS):
        p = per_byte(groups, preset)
        r = p / base if p and base else None
        at_most(f"time per byte, `{preset}` vs `large`", f"<= {PER_BYTE_TARGET:g}x", r, PER_BYTE_TARGET, 2)
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
    row(f"`check_files` over {files} files, 2 jobs vs 1", f">= {BATCH_SPEEDUP:g}x faster", r,
        None if r is None else r >= BATCH_SPEEDUP, f"{r:.2f}x" if r else "")  # fmt: skip
    for name in GATED:
        # What benches/gate.py reads back: the ratio, with one decimal.
        r = ratio(groups, GATE_PRESET, GATE_BASELINE, name)
        shown = f"{r:.1f}x" if r else ""
        floor = f": {float(shown[:-1]) * GATE_FLOOR:.2f}x" if r else ""
        row(gate_measure(name), f"`.ci/run` fails below {GATE_FLOOR:g} of this{floor}", r, None, shown)
    return ["| measure | target | measured | verdict |", "|---|---|---|---|", *rows]


def phases_table(groups: Groups) -> List[str]:
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


def memory_table(groups: Groups) -> List[str]:
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


def hostile_table(groups: Groups) -> List[str]:
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


def _verdict(what: str, ok: bool) -> str:
    return f"{what} {'met' if ok else 'NOT met'}"


def families_table(groups: Groups) -> List[str]:
    """The worst-case families (benches/test_families.py), each measure
    against the target its benchmark recorded: `check_file`'s time per byte
    against `large`'s (or its time), peak RSS, microseconds per tool to read
    the paths; then family 8, `toolwire check --format F` on family 2."""
    lines = [
        "| # | family | n | file | violations | time (min) | per byte vs `large` | peak RSS of target "
        "| reading paths | verdict |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    rows: Dict[Any, Dict[str, Dict[str, Any]]] = defaultdict(dict)
    formats = []
    for group in groups.values():
        for b in group.values():
            info = b["extra_info"]
            if info.get("measure") == "format":
                formats.append(b)
            elif info.get("measure") in ("check", "memory", "paths"):
                rows[(info["number"], info["family"], info["n"])][info["measure"]] = b
    base = per_byte(groups, "large")

    def memory(info: Dict[str, Any], verdicts: List[str]) -> str:
        peak, target = info.get("peak_rss"), info.get("peak_rss_target")
        if not (peak and target):
            return "-"
        verdicts.append(_verdict("memory", peak <= target))
        return f"{peak / 1e6:.0f} MB of {target / 1e6:.0f} MB"

    for (number, family, n), measures in sorted(rows.items()):
        any_info = next(iter(measures.values()))["extra_info"]
        verdicts: List[str] = []
        check = measures.get("check")
        t = seconds(check)
        r = None
        if check is not None and t is not None:
            info = check["extra_info"]
            r = t / info["bytes"] / base if base else None
            floor, most = info.get("seconds_target"), info.get("per_byte_vs_large_target")
            if floor is not None and most is not None and (t < floor or r is not None):
                verdicts.append(_verdict("time", t < floor or (r is not None and r <= most)))
            if info.get("correct") is False:
                verdicts.append("WRONG answer")
        peak = memory(measures["memory"]["extra_info"], verdicts) if "memory" in measures else "-"
        reading = "-"
        if "paths" in measures:
            info = measures["paths"]["extra_info"]
            us = info.get("us_per_tool")
            if us is not None:
                sample = f", sample of {info['violations_read']:,}" if info.get("paths_read") == "sample" else ""
                reading = f"{us:.1f} us/tool{sample}"
                verdicts.append(_verdict("paths", us <= info["us_per_tool_target"]))
        lines.append(
            f"| {number} | {family} | {n:,} | {any_info['bytes'] / 1e6:.1f} MB | {any_info['violations']:,} "
            f"| {fmt_time(t)} | {f'{r:.2f}x' if r else '-'} | {peak} | {reading} | {', '.join(verdicts) or '-'} |"
        )
    for b in sorted(formats, key=lambda b: (b["extra_info"]["n"], b["extra_info"]["format"])):
        info = b["extra_info"]
        verdicts = []
        wall = info.get("wall_seconds")
        if wall is not None:
            verdicts.append(_verdict("time", wall <= info["seconds_target"]))
        peak = memory(info, verdicts)
        if info.get("correct") is False:
            verdicts.append("WRONG answer")
        lines.append(
            f"| {info['number']} | `check --format {info['format']}` on {info['family']} | {info['n']:,} "
            f"| {info['bytes'] / 1e6:.1f} MB | {info['violations']:,} | {fmt_time(wall)} (command) | - | {peak} | - "
            f"| {', '.join(verdicts) or '-'} |"
        )
    return lines


# Issue 21, benches/test_yaml_speed.py: `check_file` on a preset written as Drupal
# YAML against PyYAML's C loader alone and against `check_file` on its JSON.
YAML_VS_PYYAML = 30.0
YAML_VS_JSON = 15.0


def yaml_table(groups: Groups) -> List[str]:
    """Per preset: the YAML check beside its two baselines, the two ratios
    against their targets, and what the check adds to the RSS (its peak
    less the interpreter's before it) against the file."""
    lines = [
        "| preset | YAML file | `check_file` on YAML (min) | PyYAML `CSafeLoader` alone | PyYAML / toolwire "
        "| `check_file` on JSON | YAML / JSON | RSS `check_file` on YAML adds (peak) | verdict |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for preset in SPEED_PRESETS:
        group = groups.get(f"{preset} yaml", {})
        ours, pyyaml, json_check = (group.get(n) for n in ("toolwire.check_file (yaml)", "yaml.load (CSafeLoader)",
                                                            "toolwire.check_file (json)"))  # fmt: skip
        mem = groups.get(f"{preset} yaml peak memory", {}).get("toolwire.check_file (yaml)")
        if not (ours or pyyaml or mem):
            continue
        size = (ours or pyyaml or mem or {})["extra_info"]["bytes"]
        t, p, j = seconds(ours), seconds(pyyaml), seconds(json_check)
        verdicts = []
        vs_pyyaml = p / t if p and t else None
        vs_json = t / j if t and j else None
        if vs_pyyaml is not None:
            verdicts.append(_verdict("PyYAML", vs_pyyaml >= YAML_VS_PYYAML))
        if vs_json is not None:
            verdicts.append(_verdict("JSON", vs_json <= YAML_VS_JSON))
        peak = "-"
        if mem is not None:
            info = mem["extra_info"]
            ratio_to_file = info["rss_per_file_byte"]
            added = (info["peak_rss"] - info.get("rss_before_check", 0)) / 2**20
            peak = f"{added:.0f} MiB, {ratio_to_file:.2f}x ({_mib(mem)})"
            verdicts.append(_verdict("memory", ratio_to_file <= RSS_PER_FILE_BYTE))
        if ours is not None and ours["extra_info"].get("correct") is False:
            verdicts.append("WRONG answer")
        lines.append(
            f"| {preset} | {size / 1e6:.1f} MB | {fmt_time(t)} | {fmt_time(p)} "
            f"| {f'{vs_pyyaml:.1f}x (>= {YAML_VS_PYYAML:g}x)' if vs_pyyaml else '-'} | {fmt_time(j)} "
            f"| {f'{vs_json:.1f}x (<= {YAML_VS_JSON:g}x)' if vs_json else '-'} | {peak} | {', '.join(verdicts) or '-'} |"
        )
    return lines


TABLES: Dict[str, Callable[[Groups], List[str]]] = {
    "targets": targets_table,
    "speed": speed_table,
    "phases": phases_table,
    "memory": memory_table,
    "hostile": hostile_table,
    "families": families_table,
    "yaml": yaml_table,
}
TITLES = {
    "targets": "Targets",
    "speed": "Speed",
    "phases": "Where toolwire's time goes (one `check_file` run)",
    "memory": "Peak memory (a fresh process per measure)",
    "hostile": "Findings far larger than the file: time per byte and peak memory against their targets",
    "families": "Worst-case families (issue \"Every shape costs what its file costs\"): `check_file`'s time per byte "
    "within 3x `large`'s or under 0.1 s, peak RSS within 2x the file + 300 MB, paths read in 20 us a tool; family 8, "
    "`toolwire check --format F` on family 2, within 10 s and 400 MB",
    "yaml": "Workflows stored as Drupal YAML (issue 21): `check_file` at least 30x faster than PyYAML's C loader alone, "
    "within 15x its own time on the same workflow as JSON, peak RSS within 1.5x the file",
}
BLOCK = re.compile(r"^(<!-- report\.py: ([\w-]+) -->\n)(.*?)^(<!-- /report\.py -->)$", re.S | re.M)


def rewrite(doc: str, groups: Groups, only: Optional[List[str]] = None) -> str:
    """``doc`` with the table of each marked block made anew from ``groups``
    (only the blocks of the tables ``only`` names, when given)."""

    def table(block: "re.Match[str]") -> str:
        name = block.group(2)
        if name not in TABLES:
            raise ValueError(f"unknown table {name!r} in a report.py block (known: {', '.join(TABLES)})")
        if only is not None and name not in only:
            return block.group(0)
        return block.group(1) + "\n" + "\n".join(TABLES[name](groups)) + "\n\n" + block.group(4)

    text, count = BLOCK.subn(table, doc)
    if not count:
        raise ValueError("no <!-- report.py: NAME --> ... <!-- /report.py --> block to rewrite")
    return text


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(prog="benches/report.py", description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("json", metavar="BENCHMARK_JSON", help="a pytest-benchmark --benchmark-json file")
    parser.add_argument("--write", metavar="DOC", help="rewrite the marked tables of DOC (docs/BENCHMARKS.md)")
    parser.add_argument(
        "--only",
        metavar="TABLES",
        help=f"with --write, rewrite only these comma-separated tables ({', '.join(TABLES)}); a run of the presets "
        "they show is enough",
    )
    args = parser.parse_args(argv[1:])
    groups = by_group(load(args.json))
    only = None if args.only is None else [t.strip() for t in args.only.split(",") if t.strip()]
    if only is not None and (not only or any(t not in TABLES for t in only)):
        parser.error(f"--only takes table names among {', '.join(TABLES)}")
    if args.write is None:
        for name, make in TABLES.items():
            print(f"### {TITLES[name]}\n")
            print("\n".join(make(groups)))
            print()
        return 0
    missing = [preset for preset in SPEED_PRESETS if preset not in groups]
    if missing and only is None:
        sys.stderr.write(
            f"report.py: {args.json} has no run of {', '.join(missing)}; --write needs every preset "
            "(--presets all), so that no table loses rows\n"
        )
        return 2
    with open(args.write, encoding="utf-8") as f:
        doc = f.read()
    try:
        text = rewrite(doc, groups, only)
    except ValueError as e:
        sys.stderr.write(f"report.py: {args.write}: {e}\n")
        return 2
    with open(args.write, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
