"""The worst-case families of issue "Every shape costs what its file costs"
(``toolwire.generate.FAMILIES``), at the sizes ``--families`` selects
(benches/conftest.py; by default each at a small size, the smoke pass):

(a) ``check_file``'s time, with its time per byte (``seconds_per_mb``), which
    the JSON output compares with `large`'s (``per_byte_vs_large``) when
    ``--presets large`` runs too. Target: at most 3x `large`'s time per
    byte, or under 0.1 s. Recorded, never asserted (a ratio of two times
    measured minutes apart on a shared machine); the answer (violation count
    and first violation) is asserted, as benches/test_check.py does.
(b) peak RSS of ``check_file`` in a fresh process. Target: 2x the file +
    300 MB, asserted, as benches/test_memory.py does for the hostile presets.
(c) reading the violations' paths as the report formats read them, in
    microseconds per tool, the violations themselves read beforehand (a
    fresh report's first violation costs some 60 us of cold start, which
    would be most of the time of a family with one violation of two
    tools). Target: 20 us. Recorded.
(d) family 8: ``python -m toolwire check --format F`` with default options
    on ``private-roots-box`` at M = K = 2,000 (2,000,000 violations in 1,000
    clashes), in a fresh process: its wall time and peak RSS. Targets: 10 s
    (recorded) and 400 MB (asserted). Only at that size when benchmarks run
    and ``--families`` selects it (``all`` or ``formats``); small otherwise.

Each measure records its targets in ``extra_info``; benches/report.py
tables them ("Worst-case families") with met / not met.

    python3 -m pytest benches/test_families.py --benchmark-enable --families all --presets large
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Sequence, Tuple

import pytest

import toolwire
from toolwire.generate import FAMILIES, FORMAT_MEASUREMENT

from workloads import FamilyWorkload, family_matches, hostile_rss_target, peak_rss

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")

PER_BYTE_TARGET = 3.0
"""``check_file``'s time per byte, relative to `large`'s in the same run..."""
SECONDS_TARGET = 0.1
"""...or its time, whichever is met: a file of a few MB checks in a few ms
per MB, where a ratio of two tiny times means little."""
PATH_US_TARGET = 20.0
"""Reading one tool's path as the formats do, in microseconds."""

ALL_PATHS_UP_TO = 100_000
"""Violations up to which every violation's paths are read..."""
PATH_SAMPLE = 10_000
"""...and beyond which an evenly spaced sample of this many is read."""
WHOLE_PATH_UP_TO = 64
"""A path of at most this many ids is read whole, a longer one by its ends
(``path[:32]``, ``path[-32:]``), as the formats show it (``--max-path``)."""

ROUND_BUDGET = 2.0
MAX_ROUNDS = 20


def timed(run: Callable[[], Any]) -> Tuple[Any, float]:
    started = time.perf_counter()
    result = run()
    return result, time.perf_counter() - started


def rounds(benchmark: Any, round_trip: Callable[[], Any]) -> int:
    """Rounds for a measure, sized by one untimed run of ``round_trip`` (all
    a round costs, setup included): about ROUND_BUDGET seconds' worth, 1 to
    MAX_ROUNDS. A check that takes a minute on a core still to be fixed is
    timed once, not twenty times; one of milliseconds gets enough rounds
    that its minimum is not one slow spell. One, with nothing run, when
    benchmarks are disabled (they run once)."""
    if benchmark.disabled:
        return 1
    _, seconds = timed(round_trip)
    return max(1, min(MAX_ROUNDS, int(ROUND_BUDGET / max(seconds, 1e-6))))


def describe(benchmark: Any, w: FamilyWorkload, measure: str) -> None:
    benchmark.extra_info.update(
        measure=measure,
        family=w.family,
        number=FAMILIES[w.family].number,
        n=w.n,
        bytes=w.size,
        violations=w.expected.violations,
        clashes=w.expected.clashes,
    )


# -- (a) check_file's time -----------------------------------------------------------


def test_family_check_speed(benchmark: Any, family_workload: FamilyWorkload) -> None:
    w = family_workload
    benchmark.group = f"family {w.label}"
    benchmark.name = "toolwire.check_file"
    describe(benchmark, w, "check")
    benchmark.extra_info["implementation"] = "toolwire.check_file"  # what conftest compares with `large`
    report = benchmark.pedantic(
        toolwire.check_file, args=(w.path,), rounds=rounds(benchmark, lambda: toolwire.check_file(w.path)),
        iterations=1, warmup_rounds=0,
    )  # fmt: skip
    correct = benchmark.extra_info["correct"] = family_matches(report, w.expected)
    del report
    if benchmark.stats is not None:  # None with --benchmark-disable
        benchmark.extra_info.update(
            seconds_per_mb=benchmark.stats.stats.min / (w.size / 1e6),
            per_byte_vs_large_target=PER_BYTE_TARGET,
            seconds_target=SECONDS_TARGET,
        )
    assert correct, f"toolwire.check_file disagrees with the construction of {w.label}"


# -- (b) peak memory ---------------------------------------------------------------


@linux_only
def test_family_peak_memory(benchmark: Any, family_workload: FamilyWorkload) -> None:
    w = family_workload
    benchmark.group = f"family {w.label} peak memory"
    benchmark.name = "toolwire.check_file"
    describe(benchmark, w, "memory")
    result: Dict[str, int] = {}

    def run() -> None:
        result["peak"] = peak_rss("toolwire.check_file(path)", str(w.path))

    benchmark.pedantic(run, rounds=1, iterations=1, warmup_rounds=0)
    target = hostile_rss_target(w.size)
    benchmark.extra_info.update(
        peak_rss=result["peak"], peak_rss_target=target, rss_per_file_byte=round(result["peak"] / w.size, 3)
    )
    assert result["peak"] <= target, (
        f"peak RSS {result['peak']} exceeds 2 x the file ({w.size}) + 300 MB = {target} on {w.label}"
    )


# -- (c) reading the paths ----------------------------------------------------------


def read_indices(count: int) -> Sequence[int]:
    """The violations whose paths are read: all of them, or an evenly spaced
    sample (the same every run) when there are too many to read in seconds."""
    if count <= ALL_PATHS_UP_TO:
        return range(count)
    return [i * count // PATH_SAMPLE for i in range(PATH_SAMPLE)]


def tools_of(report: toolwire.Report, indices: Sequence[int]) -> List[toolwire.Tool]:
    """The tools of the violations at ``indices``, their paths not read."""
    violations = report.violations
    return [tool for i in indices for tool in violations[i].tools]


def read_paths(tools: List[toolwire.Tool]) -> int:
    """Reads each tool's path as the formats read it; returns how many
    tools were read."""
    for tool in tools:
        path = tool.path
        if len(path) <= WHOLE_PATH_UP_TO:
            list(path)
        else:
            path[:32]
            path[-32:]
    return len(tools)


def test_family_path_reading(benchmark: Any, family_workload: FamilyWorkload) -> None:
    w = family_workload
    indices = read_indices(w.expected.violations)
    sampled = len(indices) < w.expected.violations
    benchmark.group = f"family {w.label} paths"
    benchmark.name = (
        f"read paths: an evenly spaced sample of {len(indices):,} of {w.expected.violations:,} violations"
        if sampled
        else "read paths: every violation"
    )
    describe(benchmark, w, "paths")

    def fresh() -> Tuple[Tuple[List[toolwire.Tool]], Dict[str, Any]]:
        # A new report each round: whatever the core caches as it is read
        # (worded findings, paths) must not make later rounds cheaper.
        return (tools_of(toolwire.check_file(w.path), indices),), {}

    def round_trip() -> int:
        (tools,), _ = fresh()
        return read_paths(tools)

    tools = benchmark.pedantic(read_paths, setup=fresh, rounds=rounds(benchmark, round_trip), iterations=1,
                               warmup_rounds=0)  # fmt: skip
    benchmark.extra_info.update(
        paths_read="sample" if sampled else "all",
        violations_read=len(indices),
        tools_read=tools,
        us_per_tool_target=PATH_US_TARGET,
    )
    if benchmark.stats is not None:
        benchmark.extra_info["us_per_tool"] = round(benchmark.stats.stats.min / max(tools, 1) * 1e6, 3)
    assert tools >= 2 * len(indices), "every violation names two tools or more"


# -- (d) family 8: the report formats -----------------------------------------------

# `python -m toolwire`, run by runpy in a process that then reads its own
# peak RSS (VmHWM) and writes it to a file: getrusage(RUSAGE_CHILDREN) in
# this process would report this (large) process's peak, which Linux
# carries across fork and exec (see workloads.PEAK_RSS_SCRIPT).
FORMAT_SCRIPT = """
import runpy, sys
peak_file = sys.argv.pop(1)
status = 0
try:
    runpy.run_module("toolwire", run_name="__main__", alter_sys=True)
except SystemExit as e:
    status = e.code if isinstance(e.code, int) else 1
with open("/proc/self/status") as s:
    peak_kib = next(int(line.split()[1]) for line in s if line.startswith("VmHWM:"))
with open(peak_file, "w") as f:
    f.write(str(peak_kib * 1024))
sys.exit(status)
"""


@linux_only
@pytest.mark.parametrize("fmt", FORMAT_MEASUREMENT.formats)
def test_family_formats(benchmark: Any, format_workload: FamilyWorkload, fmt: str, tmp_path: Path) -> None:
    w = format_workload
    benchmark.group = f"family 8: check --format on {w.label}"
    benchmark.name = f"--format {fmt}"
    describe(benchmark, w, "format")
    benchmark.extra_info["number"] = FORMAT_MEASUREMENT.number
    benchmark.extra_info["format"] = fmt
    out, peak_file = tmp_path / f"report.{fmt}", tmp_path / "peak"
    # Default options: no configuration file is read, wherever this runs.
    command = [sys.executable, "-c", FORMAT_SCRIPT, str(peak_file), "check", "--no-config", "--format", fmt,
               "--output", str(out), str(w.path)]  # fmt: skip
    result: Dict[str, Any] = {}

    def run() -> None:
        done, result["seconds"] = timed(lambda: subprocess.run(command, cwd=tmp_path, capture_output=True, text=True))
        result["status"], result["stderr"] = done.returncode, done.stderr

    benchmark.pedantic(run, rounds=1, iterations=1, warmup_rounds=0)
    peak = int(peak_file.read_text())
    written = out.stat().st_size if out.exists() else 0
    correct = result["status"] == 1 and written > 0  # refused, and the report written
    benchmark.extra_info.update(
        wall_seconds=round(result["seconds"], 3),
        seconds_target=FORMAT_MEASUREMENT.seconds_target,
        peak_rss=peak,
        peak_rss_target=FORMAT_MEASUREMENT.rss_target,
        output_bytes=written,
        correct=correct,
    )
    assert correct, f"--format {fmt}: exit status {result['status']}, {written} bytes written: {result['stderr']}"
    assert peak <= FORMAT_MEASUREMENT.rss_target, (
        f"--format {fmt} on {w.label}: peak RSS {peak} exceeds {FORMAT_MEASUREMENT.rss_target}"
    )
