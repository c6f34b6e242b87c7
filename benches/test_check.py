"""Speed of one check, per preset, for every way to do it, measured in the
same run: toolwire through each entry point, the pure-Python reference, and
the bare parsers (`json.loads`, `orjson.loads`, simdjson) as floors.

Each toolwire and reference run records in ``extra_info`` whether its
violations equal the generator's expectation (and fails when they do not), so
a fast wrong answer never passes as a result. ``benches/report.py`` turns a
``--benchmark-json`` file into the ratio table of docs/BENCHMARKS.md.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Tuple

import orjson
import pytest

import toolwire
from toolwire import _toolwire, reference

from workloads import Workload

try:
    import simdjson
except ImportError:  # pysimdjson has no wheel for some platforms
    simdjson = None

Run = Callable[[Workload], Any]

CHECKERS: Dict[str, Run] = {
    "toolwire.check_file": lambda w: toolwire.check_file(w.path),
    "toolwire.check_json": lambda w: toolwire.check_json(w.data),
    "toolwire.check": lambda w: toolwire.check(w.parsed),
    "reference.check": lambda w: reference.check(w.parsed),
}

PARSERS: Dict[str, Run] = {
    "json.loads": lambda w: json.loads(w.data),
    "orjson.loads": lambda w: orjson.loads(w.data),
}
if simdjson is not None:
    PARSERS["simdjson.parse"] = lambda w: simdjson.Parser().parse(w.data)

# Presets big enough that a run takes seconds: fewer rounds, and the slow
# pure-Python reference only once.
ROUNDS = {"large": 3, "deep": 3, "fanout": 3, "flat-names": 3, "medium": 5}
# Where the reference does not finish in reasonable time: it walks each of
# the 20k consumers' 50k-tool box afresh (10^9 steps), by design.
REFERENCE_TOO_SLOW = {"fanout"}


def found(report: toolwire.Report) -> List[Tuple[str, str, Tuple[str, ...]]]:
    return [(v.consumer or "", v.name or "", tuple(t.id for t in v.tools)) for v in report.violations]


def measure(benchmark: Any, workload: Workload, implementation: str, run: Run) -> Any:
    benchmark.group = workload.preset
    benchmark.name = implementation
    benchmark.extra_info.update(preset=workload.preset, bytes=workload.size, implementation=implementation)
    if workload.preset in ROUNDS:
        rounds = 1 if implementation == "reference.check" else ROUNDS[workload.preset]
        return benchmark.pedantic(run, args=(workload,), rounds=rounds, iterations=1, warmup_rounds=0)
    return benchmark(run, workload)


@pytest.mark.parametrize("implementation", list(CHECKERS))
def test_check_speed(benchmark: Any, workload: Workload, implementation: str) -> None:
    if implementation == "reference.check" and workload.preset in REFERENCE_TOO_SLOW:
        pytest.skip(f"the reference takes hours on {workload.preset}")
    if implementation != "toolwire.check_file":
        workload.data  # loaded before timing: these entry points start from memory
    if implementation in ("toolwire.check", "reference.check"):
        workload.parsed
    report = measure(benchmark, workload, implementation, CHECKERS[implementation])
    correct = found(report) == workload.expected.violations and report.stats.to_dict() == workload.expected.stats()
    benchmark.extra_info["correct"] = correct
    if implementation == "toolwire.check_file":
        benchmark.extra_info["phases"] = _toolwire.phase_times(
            str(workload.path), list(toolwire.DEFAULT_PASSTHROUGH_TYPES), list(toolwire.DEFAULT_EDGE_TYPES)
        )
    assert correct, f"{implementation} disagrees with the generator on {workload.preset}"


@pytest.mark.parametrize("implementation", list(PARSERS))
def test_parse_floor(benchmark: Any, workload: Workload, implementation: str) -> None:
    workload.data
    parsed = measure(benchmark, workload, implementation, PARSERS[implementation])
    benchmark.extra_info["correct"] = None  # a bare parse has no verdict
    assert parsed is not None
