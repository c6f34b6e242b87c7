"""Speed of one check, per preset, for every way to do it, measured in the
same run: toolwire through each entry point, the pure-Python reference, and
the bare parsers (`json.loads`, `orjson.loads`, simdjson) as floors.

Each toolwire and reference run records in ``extra_info`` whether its
violations equal the generator's expectation (and fails when they do not), so
a fast wrong answer never passes as a result. Every timed run also records
its time per byte (``seconds_per_mb``, from the best round); in the JSON
output each gets ``per_byte_vs_large``, its ratio to the same
implementation's on ``large`` when ``large`` ran too (the target for the
hostile presets, `fanout` and the ones whose findings dwarf the file, is at
most 2x; it is reported, never asserted). ``benches/report.py`` turns a
``--benchmark-json`` file into the ratio table of docs/BENCHMARKS.md.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict

import orjson
import pytest

import toolwire
from toolwire import _toolwire, reference

from workloads import HOSTILE, PER_BYTE_TARGET, Workload, matches

try:
    import simdjson
except ImportError:  # pysimdjson has no wheel for some platforms
    simdjson = None

Run = Callable[[Workload], Any]

def with_violations_built(report: toolwire.Report) -> toolwire.Report:
    """``report``, once every violation of it is built, as the reference
    builds every one of its own."""
    list(report.violations)
    return report


CHECKERS: Dict[str, Run] = {
    "toolwire.check_file": lambda w: toolwire.check_file(w.path),
    "toolwire.check_json": lambda w: toolwire.check_json(w.data),
    # Measured against the reference: the same work, every violation built
    # inside the timing, as the reference does.
    "toolwire.check": lambda w: with_violations_built(toolwire.check(w.parsed)),
    "reference.check": lambda w: reference.check(w.parsed),
}
VS_REFERENCE = ("toolwire.check", "reference.check")

PARSERS: Dict[str, Run] = {
    "json.loads": lambda w: json.loads(w.data),
    "orjson.loads": lambda w: orjson.loads(w.data),
}
if simdjson is not None:
    # One parser, reused, as simdjson's authors measure it: a new Parser per
    # round would time the allocation of its buffers (gigabytes on `large`),
    # not the parse. Its buffers are sized by a warm-up parse before timing.
    _simdjson_parser = simdjson.Parser()

    def _simdjson_parse(workload: Workload) -> int:
        document = _simdjson_parser.parse(workload.data)
        # Its node count, for the test to check (a lookup and the count
        # the parse stored: nothing is converted to Python).
        nodes = len(document["nodes"]) if isinstance(document, simdjson.Object) else -1
        # A reused parser refuses to parse while a document of its lives on.
        del document
        return nodes

    PARSERS["simdjson.parse"] = _simdjson_parse

# Presets big enough that a run takes seconds: fewer rounds, and the slow
# pure-Python reference only once. `large` gets nine, every implementation
# alike: its targets are ratios of minimums, each measured minutes apart
# from the other, and on a shared host five rounds of a one-second check
# could all land in one slow spell (with five, the same code measured from
# 2.4x to 2.6x simdjson from run to run). The hostile presets check in
# milliseconds now that findings are grouped: twenty rounds, so their time
# per byte is not the first call's or one slow spell's.
ROUNDS = {"large": 9, "deep": 5, "flat-names": 5, "medium": 5, **dict.fromkeys(HOSTILE, 20)}
# Where the reference does not finish in reasonable time: on `fanout` it
# walks each of the 20k consumers' 50k-tool box afresh (10^9 steps), by
# design; on the others it walks the chain afresh for each consumer or lists
# ten million violations.
REFERENCE_TOO_SLOW = {"fanout", "clash-fanout", "deep-fanout", "deep-fanout-100k", "clash-deep"}


def measure(benchmark: Any, workload: Workload, implementation: str, run: Run) -> Any:
    benchmark.group = workload.preset
    benchmark.name = implementation
    benchmark.extra_info.update(
        preset=workload.preset,
        bytes=workload.size,
        implementation=implementation,
        violations=len(workload.expected.violations),
    )
    if workload.preset in ROUNDS:
        # The reference runs once on these; toolwire.check, whose ratio to
        # it is a target, as often: its first round, not its best of many.
        rounds = 1 if implementation in VS_REFERENCE else ROUNDS[workload.preset]
        result = benchmark.pedantic(run, args=(workload,), rounds=rounds, iterations=1, warmup_rounds=0)
    else:
        result = benchmark(run, workload)
    if benchmark.stats is not None:  # None with --benchmark-disable
        # Time per byte (the best round), compared with `large`'s in the
        # JSON output by conftest.pytest_benchmark_update_json.
        benchmark.extra_info["seconds_per_mb"] = benchmark.stats.stats.min / (workload.size / 1e6)
        if workload.preset in HOSTILE and implementation.startswith("toolwire."):
            benchmark.extra_info["per_byte_vs_large_target"] = PER_BYTE_TARGET
    return result


@pytest.mark.parametrize("implementation", list(CHECKERS))
def test_check_speed(benchmark: Any, workload: Workload, implementation: str) -> None:
    if implementation == "reference.check" and workload.preset in REFERENCE_TOO_SLOW:
        pytest.skip(f"the reference takes hours on {workload.preset}")
    if implementation != "toolwire.check_file":
        workload.data  # loaded before timing: these entry points start from memory
    if implementation in ("toolwire.check", "reference.check"):
        workload.parsed
    report = measure(benchmark, workload, implementation, CHECKERS[implementation])
    correct = matches(report, workload.expected)
    benchmark.extra_info["correct"] = correct
    if implementation == "toolwire.check_file":
        benchmark.extra_info["phases"] = _toolwire.phase_times(
            str(workload.path), list(toolwire.DEFAULT_PASSTHROUGH_TYPES), list(toolwire.DEFAULT_EDGE_TYPES)
        )
    assert correct, f"{implementation} disagrees with the generator on {workload.preset}"


@pytest.mark.parametrize("implementation", list(PARSERS))
def test_parse_floor(benchmark: Any, workload: Workload, implementation: str) -> None:
    workload.data
    if implementation == "simdjson.parse":
        PARSERS[implementation](workload)  # sizes the reused parser's buffers, untimed
    parsed = measure(benchmark, workload, implementation, PARSERS[implementation])
    benchmark.extra_info["correct"] = None  # a bare parse has no verdict
    # But it must have parsed the workflow: its nodes are all there.
    nodes = parsed if implementation == "simdjson.parse" else len(parsed["nodes"])
    assert nodes == workload.expected.stats()["nodes"], f"{implementation} read {nodes} nodes"
