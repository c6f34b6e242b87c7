"""Workloads for the benchmark suite: generated workflows, cached between runs.

Presets come from ``toolwire.generate``. By default only ``small`` runs (the
smoke pass CI makes); choose others with ``--presets medium,large`` or
``--presets all``. Files are generated once per preset and seed and kept in
pytest's cache directory, since ``large`` takes a while to write.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Dict, List

import pytest

from toolwire import generate

from workloads import Workload, generated

DEFAULT_PRESETS = "small"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--presets",
        default=DEFAULT_PRESETS,
        help=f"comma-separated generator presets to benchmark, or 'all' (default: {DEFAULT_PRESETS}; "
        f"known: {', '.join(generate.PRESETS)})",
    )
    parser.addoption("--batch-files", default="40", help="files in the check_files benchmark (default: 40)")
    parser.addoption(
        "--dask-files",
        default=None,
        help="files in the toolwire.dask benchmark (default: 2000; 200 in the smoke pass, --benchmark-disable)",
    )


def selected_presets(config: pytest.Config) -> List[str]:
    chosen = str(config.getoption("--presets"))
    names = list(generate.PRESETS) if chosen == "all" else [n.strip() for n in chosen.split(",") if n.strip()]
    unknown = [n for n in names if n not in generate.PRESETS]
    if unknown:
        raise pytest.UsageError(f"unknown presets: {', '.join(unknown)}")
    return names


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "workload" in metafunc.fixturenames:
        # Session scope groups the tests by preset, and pytest drops one
        # preset's workload (and its parsed data) before building the next.
        metafunc.parametrize("workload", selected_presets(metafunc.config), indirect=True, scope="session")


@pytest.fixture(scope="session")
def cache_dir(pytestconfig: pytest.Config) -> Path:
    return Path(pytestconfig.cache.mkdir(f"toolwire-workloads-{generator_key()}"))


def generator_key(package: Path = Path(generate.__file__).parent) -> str:
    """A digest of the generator's source, every module of its package in
    order of name: a change to any of them means new cached workloads, never
    files made by an older generator."""
    digest = hashlib.sha256()
    for module in sorted(package.glob("*.py")):
        digest.update(module.name.encode() + b"\0" + module.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


@pytest.fixture(scope="session")
def workload(request: pytest.FixtureRequest, cache_dir: Path) -> Workload:
    return generated(cache_dir, request.param)


def pytest_benchmark_update_json(config: pytest.Config, benchmarks: Any, output_json: Dict[str, Any]) -> None:
    """Time per byte against `large`'s, for each implementation, when both
    are in the run: added here, once every preset has run, whatever order
    ``--presets`` gave them."""
    entries = output_json.get("benchmarks", [])
    large = {
        b["extra_info"].get("implementation"): b["extra_info"]["seconds_per_mb"]
        for b in entries
        if b["extra_info"].get("preset") == "large" and "seconds_per_mb" in b["extra_info"]
    }
    for b in entries:
        info = b["extra_info"]
        base = large.get(info.get("implementation"))
        if base and "seconds_per_mb" in info:
            info["per_byte_vs_large"] = round(info["seconds_per_mb"] / base, 3)
