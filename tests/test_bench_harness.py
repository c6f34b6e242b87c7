"""The benchmark harness's own logic (benches/ runs only on demand): the
hostile presets are the same everywhere, time per byte is compared with
`large`'s in the JSON output, and benches/report.py tables the hostile
presets against their targets."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Dict, List

import pytest

from support import REPO
from toolwire import generate
from toolwire.generate import PRESETS

BENCHES = REPO / "benches"


def load(name: str, path: Path) -> ModuleType:
    # Under names of their own: `conftest` would clash with tests/conftest.py.
    if str(BENCHES) not in sys.path:
        sys.path.insert(0, str(BENCHES))
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def bench() -> Dict[str, ModuleType]:
    return {
        "report": load("bench_report", BENCHES / "report.py"),
        "workloads": load("bench_workloads", BENCHES / "workloads.py"),
        "conftest": load("bench_conftest", BENCHES / "conftest.py"),
    }


def test_hostile_presets_agree(bench: Dict[str, ModuleType]) -> None:
    report, workloads = bench["report"], bench["workloads"]
    assert set(report.HOSTILE_PRESETS) == workloads.HOSTILE
    hostile = {"fanout", "clash-fanout", "clash-fanout-small", "deep-fanout", "deep-fanout-100k", "clash-deep"}
    assert workloads.HOSTILE == hostile
    assert set(report.SPEED_PRESETS) == set(PRESETS)
    assert workloads.hostile_rss_target(10_000_000) == 320_000_000


def entry(group: str, name: str, seconds: float, **info: Any) -> Dict[str, Any]:
    return {"group": group, "name": name, "stats": {"min": seconds}, "extra_info": info}


def benchmarks() -> List[Dict[str, Any]]:
    return [
        entry("large", "toolwire.check_file", 2.0, preset="large", bytes=500_000_000, implementation="toolwire.check_file",
              seconds_per_mb=0.004, correct=True),
        entry("clash-fanout", "toolwire.check_file", 0.012, preset="clash-fanout", bytes=2_000_000,
              implementation="toolwire.check_file", seconds_per_mb=0.006, violations=10_000_000, correct=True),
        entry("deep-fanout", "toolwire.check_file", 0.3, preset="deep-fanout", bytes=15_000_000,
              implementation="toolwire.check_file", seconds_per_mb=0.02, violations=20_000, correct=True),
        entry("clash-fanout peak memory", "toolwire.check_file", 1.0, preset="clash-fanout", bytes=2_000_000,
              violations=10_000_000, peak_rss=250_000_000, rss_per_file_byte=125.0, peak_rss_target=304_000_000),
        entry("deep-fanout peak memory", "toolwire.check_file", 1.0, preset="deep-fanout", bytes=15_000_000,
              violations=20_000, peak_rss=400_000_000, rss_per_file_byte=26.7, peak_rss_target=330_000_000),
    ]  # fmt: skip


def test_time_per_byte_is_compared_with_large_in_the_json(bench: Dict[str, ModuleType]) -> None:
    output = {"benchmarks": benchmarks()}
    bench["conftest"].pytest_benchmark_update_json(None, [], output)
    ratios = {b["group"]: b["extra_info"].get("per_byte_vs_large") for b in output["benchmarks"]}
    assert ratios == {"large": 1.0, "clash-fanout": 1.5, "deep-fanout": 5.0,
                      "clash-fanout peak memory": None, "deep-fanout peak memory": None}  # fmt: skip
    # Without `large` in the run there is nothing to compare with.
    alone = {"benchmarks": benchmarks()[1:]}
    bench["conftest"].pytest_benchmark_update_json(None, [], alone)
    assert all("per_byte_vs_large" not in b["extra_info"] for b in alone["benchmarks"])


def test_report_tables_the_hostile_presets_against_their_targets(bench: Dict[str, ModuleType]) -> None:
    groups = bench["report"].by_group(benchmarks())
    targets = "\n".join(bench["report"].targets_table(groups))
    assert "| time per byte, `clash-fanout` vs `large` | <= 2x | 1.50x | met |" in targets
    assert "| time per byte, `deep-fanout` vs `large` | <= 2x | 5.00x | NOT met |" in targets
    assert "| peak RSS of `check_file` on `clash-fanout` | <= 2x the file + 300 MB | 250 MB of 304 MB | met |" in targets
    assert "| peak RSS of `check_file` on `deep-fanout` | <= 2x the file + 300 MB | 400 MB of 330 MB | NOT met |" in targets
    assert "| time per byte, `deep-fanout-100k` vs `large` | <= 2x | not measured | - |" in targets
    hostile = bench["report"].hostile_table(groups)
    assert hostile[2] == (
        "| clash-fanout | 2.0 MB | 10000000 | 12.00 ms | 0.006 | 1.50x | 250 MB | 304 MB | time met, memory met |"
    )
    assert hostile[3].startswith("| deep-fanout | 15.0 MB | 20000 |")
    assert hostile[3].endswith("time NOT met, memory NOT met |")
    assert len(hostile) == 4  # presets not in the run are left out


def test_the_workload_cache_is_keyed_by_every_module_of_the_generator(
    bench: Dict[str, ModuleType], tmp_path: Path
) -> None:
    key = bench["conftest"].generator_key
    package = Path(generate.__file__).parent
    copy = tmp_path / "generate"
    copy.mkdir()
    for module in package.glob("*.py"):
        (copy / module.name).write_bytes(module.read_bytes())
    assert key(copy) == key() == key(package)
    with (copy / "plan.py").open("a", encoding="utf-8") as f:
        f.write("# a change far from __init__.py\n")
    assert key(copy) != key()
