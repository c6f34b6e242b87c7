"""The benchmark gate of `.ci/run`: toolwire's `check_file` and `check_json`
on the `medium` preset, against `json.loads` in the same run, fail the build
only on a regression far beyond this machine's noise: a ratio below half the
one documented in docs/BENCHMARKS.md (the gate rows of its targets table,
which benches/report.py writes).

    python3 benches/gate.py                  # run the benchmarks, keep their JSON, check it
    python3 benches/gate.py --check FILE     # check a pytest-benchmark JSON file only

A run keeps its pytest-benchmark JSON in .benchmarks/gate/latest.json
(git-ignored) and moves the one before it to previous.json; when there is a
previous run, its times and ratios are printed beside the new ones. The
workflow is generated once and cached by pytest (.pytest_cache), so only the
first run pays for it.

Exit status: 0 the gate holds; 1 a ratio fell below its floor, or a
benchmark failed (a wrong answer); 2 nothing to check (a benchmark or the
documented ratio is missing, or the benchmarks could not run).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional

from report import GATE_BASELINE, GATE_FLOOR, GATE_PRESET, GATED, Groups, by_group, fmt_time, gate_measure, load, seconds

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "BENCHMARKS.md"
KEPT = REPO / ".benchmarks" / "gate"
# Five rounds each (benches/test_check.py ROUNDS): `json.loads` takes most
# of the time, some 2.5 s a round on this project's machine.
SELECTION = f"({' or '.join((*GATED, GATE_BASELINE))}) and not orjson.loads"


class GateError(Exception):
    """Nothing to check: a benchmark or the documented ratio is missing."""


def documented(doc: str) -> Dict[str, float]:
    """The ratio of each gated entry point as the targets table documents it."""
    ratios: Dict[str, float] = {}
    for name in GATED:
        row = re.search(rf"^\| {re.escape(gate_measure(name))} \|[^|\n]*\| (\d+(?:\.\d+)?)x \|", doc, re.M)
        if row is None:
            raise GateError(
                f"docs/BENCHMARKS.md documents no ratio for {name} on {GATE_PRESET}: its targets table needs the row "
                f"'| {gate_measure(name)} | ... | N.Nx | ... |' (benches/report.py --write makes it)"
            )
        ratios[name] = float(row.group(1))
    return ratios


def measured(groups: Groups, source: str) -> Dict[str, float]:
    """``json.loads``' time over each gated entry point's, on the gate's preset."""
    group = groups.get(GATE_PRESET, {})
    missing = [name for name in (*GATED, GATE_BASELINE) if seconds(group.get(name)) is None]
    if missing:
        raise GateError(f"{source} has no {GATE_PRESET} benchmark of {', '.join(missing)}")
    baseline = seconds(group[GATE_BASELINE]) or 0.0
    return {name: baseline / (seconds(group[name]) or 0.0) for name in GATED}


def check(groups: Groups, doc: str, source: str) -> List[str]:
    """The gate's verdict lines; the first word of a failing one is FAILED.
    Raises GateError when there is nothing to compare."""
    ratios, documented_ratios = measured(groups, source), documented(doc)
    group = groups[GATE_PRESET]
    lines = []
    for name in GATED:
        ratio, floor = ratios[name], documented_ratios[name] * GATE_FLOOR
        wrong = group[name]["extra_info"].get("correct") is False
        verdict = "FAILED" if ratio < floor or wrong else "ok"
        lines.append(
            f"{verdict}: {name} on {GATE_PRESET} is {ratio:.1f}x faster than {GATE_BASELINE} "
            f"({fmt_time(seconds(group[name]))} vs {fmt_time(seconds(group[GATE_BASELINE]))}); "
            f"documented {documented_ratios[name]:.1f}x, floor {floor:.2f}x"
            + (" (and its answer was wrong)" if wrong else "")
        )
    return lines


def compare(previous: Groups, groups: Groups) -> List[str]:
    """The best time of each gated benchmark and of the baseline, this run
    beside the previous one, and the ratios."""
    before, now = previous.get(GATE_PRESET, {}), groups.get(GATE_PRESET, {})
    lines = []
    for name in (*GATED, GATE_BASELINE):
        old, new = seconds(before.get(name)), seconds(now.get(name))
        change = f" ({(new / old - 1) * 100:+.0f}%)" if old and new else ""
        lines.append(f"  {name}: {fmt_time(old)} -> {fmt_time(new)}{change}")
    try:
        old_ratios = measured(previous, "the previous run")
    except GateError:
        return lines
    for name, ratio in measured(groups, "this run").items():
        lines.append(f"  {name} vs {GATE_BASELINE}: {old_ratios[name]:.1f}x -> {ratio:.1f}x")
    return lines


def run_benchmarks(out: Path) -> int:
    """Runs the gate's benchmarks, writing their JSON to ``out``; pytest's exit status."""
    command = [
        sys.executable, "-m", "pytest", "benches/test_check.py", "-q", "--benchmark-enable",
        "--presets", GATE_PRESET, "-k", SELECTION, "--benchmark-json", str(out),
    ]  # fmt: skip
    print("gate: " + " ".join(command[1:]), flush=True)
    return subprocess.run(command, cwd=REPO).returncode


def gate(json_path: Path, doc_path: Path, previous: Optional[Path]) -> int:
    try:
        groups = by_group(load(str(json_path)))
        doc = doc_path.read_text(encoding="utf-8")
        if previous is not None and previous.exists():
            print(f"gate: against the previous run ({previous}):")
            print("\n".join(compare(by_group(load(str(previous))), groups)))
        lines = check(groups, doc, str(json_path))
    except (GateError, OSError, ValueError, KeyError) as e:
        sys.stderr.write(f"gate: cannot check: {e}\n")
        return 2
    for line in lines:
        print(f"gate: {line}")
    if any(line.startswith("FAILED") for line in lines):
        sys.stderr.write(
            f"gate: FAILED: a ratio fell below {GATE_FLOOR:g} times the one documented in docs/BENCHMARKS.md\n"
        )
        return 1
    return 0


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(prog="benches/gate.py", description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--check", metavar="FILE", type=Path, help="check this pytest-benchmark JSON, run nothing")
    parser.add_argument("--doc", metavar="FILE", type=Path, default=DOC, help="where the documented ratios are")
    args = parser.parse_args(argv[1:])
    if args.check is not None:
        return gate(args.check, args.doc, None)
    KEPT.mkdir(parents=True, exist_ok=True)
    latest, previous = KEPT / "latest.json", KEPT / "previous.json"
    if latest.exists():
        os.replace(latest, previous)
    started = time.monotonic()
    status = run_benchmarks(latest)
    print(f"gate: the benchmarks took {time.monotonic() - started:.0f} s; their JSON is {latest}")
    if status != 0:
        sys.stderr.write(f"gate: the benchmarks failed (pytest exit status {status})\n")
        return 1 if status == 1 else 2
    return gate(latest, args.doc, previous)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
