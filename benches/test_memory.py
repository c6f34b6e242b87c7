"""Peak memory of one check, measured in a fresh subprocess (as msgspec's
large-JSON benchmark does), so nothing else this process holds counts.

The target is a peak RSS of at most 1.5 times the file size for
``check_file``; the file's own bytes are part of that peak, since toolwire
reads the whole file before parsing. Below 256 MiB the interpreter's own
footprint (some 30 MB) weighs too much for the ratio to mean anything, so it
is only recorded.

The hostile presets (``fanout`` and those whose findings dwarf the file:
``clash-fanout``, ``deep-fanout``...) have a target of their own, asserted
whatever their size: a peak RSS of at most 2 times the file plus 300 MB for
``check_file``, report included (``workloads.hostile_rss_target``).
"""

from __future__ import annotations

import sys
from typing import Any, Dict

import pytest

from workloads import HOSTILE, Workload, hostile_rss_target, peak_rss_and_answer

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")

# What is run, and the answer it must give (``answer`` of
# ``workloads.peak_rss_and_answer``), checked against the generator's
# expectation whatever the preset's size: a small peak of a wrong answer is
# no result.
MEASURED = {
    "python (no check)": ("pass", "None"),
    "toolwire.check_file": (
        "report = toolwire.check_file(path)",
        "[report.violation_count, report.stats.to_dict()]",
    ),
    "json.loads": (
        "document = json.loads(open(path, 'rb').read())",
        "[len(document['nodes']), len(document['edges'])]",
    ),
}


def expected_answer(measured: str, workload: Workload) -> Any:
    stats = workload.expected.stats()
    return {
        "python (no check)": None,
        "toolwire.check_file": [len(workload.expected.violations), stats],
        "json.loads": [stats["nodes"], stats["edges"]],
    }[measured]

RATIO_TARGET = 1.5
MEANINGFUL_FROM_BYTES = 256 << 20


@pytest.mark.parametrize("measured", list(MEASURED))
def test_peak_memory(benchmark: Any, workload: Workload, measured: str) -> None:
    benchmark.group = f"{workload.preset} peak memory"
    benchmark.name = measured
    result: Dict[str, Any] = {}

    def run() -> None:
        result["peak"], result["answer"] = peak_rss_and_answer(*MEASURED[measured], str(workload.path))

    benchmark.pedantic(run, rounds=1, iterations=1, warmup_rounds=0)
    benchmark.extra_info["correct"] = result["answer"] == expected_answer(measured, workload)
    assert benchmark.extra_info["correct"], (
        f"{measured} on {workload.preset} answered {result['answer']}, not {expected_answer(measured, workload)}"
    )
    ratio = result["peak"] / workload.size
    benchmark.extra_info.update(
        preset=workload.preset,
        bytes=workload.size,
        violations=len(workload.expected.violations),
        peak_rss=result["peak"],
        rss_per_file_byte=round(ratio, 3),
    )
    if measured != "toolwire.check_file":
        return
    if workload.preset in HOSTILE:
        target = benchmark.extra_info["peak_rss_target"] = hostile_rss_target(workload.size)
        assert result["peak"] <= target, (
            f"peak RSS {result['peak']} exceeds 2 x the file ({workload.size}) + 300 MB = {target} on {workload.preset}"
        )
    elif workload.size >= MEANINGFUL_FROM_BYTES:
        assert ratio <= RATIO_TARGET, f"peak RSS {result['peak']} is {ratio:.2f}x the file size"
