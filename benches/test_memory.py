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

from workloads import HOSTILE, Workload, hostile_rss_target, peak_rss

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")

MEASURED = {
    "python (no check)": "pass",
    "toolwire.check_file": "toolwire.check_file(path)",
    "json.loads": "json.loads(open(path, 'rb').read())",
}

RATIO_TARGET = 1.5
MEANINGFUL_FROM_BYTES = 256 << 20


@pytest.mark.parametrize("measured", list(MEASURED))
def test_peak_memory(benchmark: Any, workload: Workload, measured: str) -> None:
    benchmark.group = f"{workload.preset} peak memory"
    benchmark.name = measured
    result: Dict[str, int] = {}

    def run() -> None:
        result["peak"] = peak_rss(MEASURED[measured], str(workload.path))

    benchmark.pedantic(run, rounds=1, iterations=1, warmup_rounds=0)
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
