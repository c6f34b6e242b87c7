"""Speed of ``toolwire explain`` against ``toolwire check`` on the same
preset, in the same run (issue 23, item 15).

Explain writes far more than check (every tool of every consumer: on
`medium`, 346 MB of text against check's 18 MB), so the two are compared as
commands, end to end, each writing its default text (or explain's JSON) to
a sink that encodes and counts the bytes and notes when the first came.
Each explain entry gets ``vs_baseline`` in the JSON output (its best time
over check's, added by conftest.pytest_benchmark_update_json), and every
entry ``first_output_seconds`` (the best time to the first byte out) and
``output_bytes``. Ratios are reported, never asserted.

Run with ``--presets medium --benchmark-enable`` for the issue's numbers;
the smoke pass runs `small`.
"""

from __future__ import annotations

import contextlib
import io
import time
from typing import Any, Iterator, List, Optional

import pytest

from toolwire.cli import main

from workloads import Workload

BASELINE = "toolwire check (text)"
COMMANDS = {
    BASELINE: ["check"],
    "toolwire explain (text)": ["explain"],
    "toolwire explain (json)": ["explain", "--format", "json"],
}
# Presets explain is measured on: on the others its output is gigabytes
# (`large`: every tool of a million-node workflow; `fanout`: 50k tools seen
# by each of 20k agents), which measures the disk, not toolwire.
EXPLAINED = {"small", "medium"}
ROUNDS = {"medium": 3}


class _Sink(io.RawIOBase):
    """Standard output's bytes, counted and dropped; when the first came."""

    def __init__(self, started: float) -> None:
        super().__init__()
        self.started = started
        self.first: Optional[float] = None
        self.written = 0

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        if self.first is None:
            self.first = time.perf_counter() - self.started
        self.written += len(data)
        return len(data)


@contextlib.contextmanager
def _stdout_to(sink: _Sink) -> Iterator[None]:
    text = io.TextIOWrapper(io.BufferedWriter(sink), encoding="utf-8")
    with contextlib.redirect_stdout(text):
        yield
    text.flush()


@pytest.mark.parametrize("command", list(COMMANDS))
def test_explain_speed_against_check(benchmark: Any, workload: Workload, command: str) -> None:
    if workload.preset not in EXPLAINED:
        pytest.skip(f"explain's output on {workload.preset} is too large to time usefully")
    benchmark.group = f"explain vs check: {workload.preset}"
    benchmark.name = command
    benchmark.extra_info.update(preset=workload.preset, bytes=workload.size, implementation=command)
    if command != BASELINE:
        benchmark.extra_info["baseline"] = BASELINE
    firsts: List[float] = []
    sinks: List[_Sink] = []

    def run() -> int:
        sink = _Sink(time.perf_counter())
        with _stdout_to(sink):
            code = main([*COMMANDS[command], str(workload.path)])
        if sink.first is not None:
            firsts.append(sink.first)
        sinks.append(sink)
        return code

    rounds = ROUNDS.get(workload.preset)
    if rounds:
        code = benchmark.pedantic(run, rounds=rounds, iterations=1, warmup_rounds=0)
    else:
        code = benchmark(run)
    expected_code = 1 if command == BASELINE and workload.expected.violations else 0
    assert code == expected_code, f"{command} exited {code} on {workload.preset}"
    assert len({s.written for s in sinks}) == 1, "every round writes the same output"
    benchmark.extra_info.update(output_bytes=sinks[0].written, first_output_seconds=min(firsts))
