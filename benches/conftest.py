"""Workloads for the benchmark suite: generated workflows, cached between runs.

Presets come from ``toolwire.generate``. By default only ``small`` runs (the
smoke pass CI makes); choose others with ``--presets medium,large`` or
``--presets all``. Files are generated once per preset and seed and kept in
pytest's cache directory, since ``large`` takes a while to write.

The worst-case families (``toolwire.generate.FAMILIES``, benches/
test_families.py) are chosen with ``--families``: by default every family
at a small size (milliseconds each: the smoke pass), ``all`` at the sizes
their issue gives, ``none``, or a list of names, each at its issue's sizes
or at ``NAME:N``. ``formats`` is family 8, the report formats on
``private-roots-box``: at its issue's size only when benchmarks run.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from toolwire import generate
from toolwire.generate import FAMILIES, FORMAT_MEASUREMENT

from workloads import FamilyWorkload, Workload, generated, generated_family, generated_yaml

DEFAULT_PRESETS = "small"
DEFAULT_FAMILIES = "small"
FORMATS = "formats"
"""What ``--families`` calls family 8, the report formats on family 2."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--presets",
        default=DEFAULT_PRESETS,
        help=f"comma-separated generator presets to benchmark, or 'all' (default: {DEFAULT_PRESETS}; "
        f"known: {', '.join(generate.PRESETS)})",
    )
    parser.addoption(
        "--families",
        default=DEFAULT_FAMILIES,
        help="worst-case families to benchmark: 'small' (default: every family at a small size), 'all' (every "
        "family at the sizes its issue gives), 'none', or a comma-separated list of names, each at its issue's "
        f"sizes or as NAME:N (known: {', '.join(FAMILIES)}, and {FORMATS}: family 8, the report formats)",
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


def parse_families(chosen: str) -> Tuple[List[Tuple[str, int]], str]:
    """``--families`` read: the (family, n) pairs to run, and how family 8
    (the formats) runs: ``"small"``, ``"issue"`` or ``"none"``."""
    chosen = chosen.strip()
    if chosen == "none":
        return [], "none"
    if chosen == "small":
        return [(name, f.small) for name, f in FAMILIES.items()], "small"
    if chosen == "all":
        return [(name, n) for name, f in FAMILIES.items() for n in f.sizes], "issue"
    pairs: List[Tuple[str, int]] = []
    formats = "none"
    for item in (i.strip() for i in chosen.split(",") if i.strip()):
        name, _, size = item.partition(":")
        if name == FORMATS:
            if size:
                raise pytest.UsageError(
                    f"--families {item}: {FORMATS} takes no size (family 2 at n = {FORMAT_MEASUREMENT.size:,}, "
                    f"or {FORMAT_MEASUREMENT.small} in the smoke pass)"
                )
            formats = "issue"
        elif name not in FAMILIES:
            raise pytest.UsageError(f"unknown family {name!r} in --families (known: {', '.join(FAMILIES)}, {FORMATS})")
        elif not size:
            pairs += [(name, n) for n in FAMILIES[name].sizes]
        elif not size.isdigit() or int(size) < FAMILIES[name].minimum:
            minimum = FAMILIES[name].minimum
            raise pytest.UsageError(f"--families {item}: the size of {name} is a whole number of at least {minimum}")
        else:
            pairs.append((name, int(size)))
    return list(dict.fromkeys(pairs)), formats


def benchmarks_disabled(config: pytest.Config) -> bool:
    """The smoke pass: ``--benchmark-disable`` (pyproject's default) without
    ``--benchmark-enable``."""
    return bool(config.getoption("benchmark_disable")) and not config.getoption("benchmark_enable")


def format_size(config: pytest.Config) -> int:
    """Family 8's n, 0 when it is not selected: the issue's only when
    benchmarks run (a check that is not timed need not list two million
    violations five times), a small one otherwise."""
    _, formats = parse_families(str(config.getoption("--families")))
    if formats == "none":
        return 0
    if formats == "issue" and not benchmarks_disabled(config):
        return FORMAT_MEASUREMENT.size
    return FORMAT_MEASUREMENT.small


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "workload" in metafunc.fixturenames:
        # Session scope groups the tests by preset, and pytest drops one
        # preset's workload (and its parsed data) before building the next.
        metafunc.parametrize("workload", selected_presets(metafunc.config), indirect=True, scope="session")
    if "yaml_workload" in metafunc.fixturenames:
        metafunc.parametrize("yaml_workload", selected_presets(metafunc.config), indirect=True, scope="session")
    if "family_workload" in metafunc.fixturenames:
        pairs, _ = parse_families(str(metafunc.config.getoption("--families")))
        ids = [f"{name}-{n}" for name, n in pairs]
        metafunc.parametrize("family_workload", pairs, ids=ids, indirect=True, scope="session")


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


@pytest.fixture(scope="session")
def yaml_workload(request: pytest.FixtureRequest, cache_dir: Path) -> Workload:
    """The preset written as Drupal YAML (benches/test_yaml_speed.py)."""
    return generated_yaml(cache_dir, request.param)


@pytest.fixture(scope="session")
def family_workload(request: pytest.FixtureRequest, cache_dir: Path) -> FamilyWorkload:
    name, n = request.param
    return generated_family(cache_dir, name, n)


@pytest.fixture(scope="session")
def format_workload(pytestconfig: pytest.Config, cache_dir: Path) -> FamilyWorkload:
    """Family 8's workflow: family 2 at its size (small in the smoke pass)."""
    n = format_size(pytestconfig)
    if not n:
        pytest.skip(f"--families does not select {FORMATS}")
    return generated_family(cache_dir, FORMAT_MEASUREMENT.family, n)


def pytest_benchmark_update_json(config: pytest.Config, benchmarks: Any, output_json: Dict[str, Any]) -> None:
    """Time per byte against `large`'s, for each implementation, when both
    are in the run: added here, once every preset has run, whatever order
    ``--presets`` gave them; and ratios to a named baseline."""
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
    # An entry naming a `baseline` (benches/test_explain_speed.py) gets its best
    # time over the baseline's in the same group of this run.
    best = {(b["group"], b["name"]): b["stats"]["min"] for b in entries if b.get("stats")}
    for b in entries:
        baseline = best.get((b["group"], b["extra_info"].get("baseline")))
        if baseline and b.get("stats"):
            b["extra_info"]["vs_baseline"] = round(b["stats"]["min"] / baseline, 2)
