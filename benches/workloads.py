"""Generated workflows for the benchmarks, with what toolwire must report."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any, Dict, List, Tuple

from toolwire import generate
from toolwire.generate import FAMILIES, FamilyExpected, drupal_yaml

SEED = 0

# A small workflow, a few KB: many of them make a batch where per-file
# overhead matters, which is what parallelism must beat.
BATCH_OPTIONS = generate.PRESETS["small"].scaled(0.25)

# Presets whose findings are far larger than the file (issue "Findings that
# cost what they say"), and `fanout`, the first of the kind: their targets are
# time per byte within 2x `large`'s and a peak RSS of at most
# HOSTILE_RSS_FACTOR times the file plus HOSTILE_RSS_HEADROOM.
HOSTILE = frozenset({"fanout"} | {name for name, o in generate.PRESETS.items() if o.clash_pairs or o.chain_depth})
HOSTILE_RSS_FACTOR = 2
HOSTILE_RSS_HEADROOM = 300_000_000
PER_BYTE_TARGET = 2.0  # time per byte, relative to `large`


def hostile_rss_target(size: int) -> int:
    """The peak RSS allowed for ``check_file`` on a hostile file of ``size`` bytes."""
    return HOSTILE_RSS_FACTOR * size + HOSTILE_RSS_HEADROOM


def matches(report: Any, expected: generate.Expected) -> bool:
    """Whether ``report`` has exactly the expected violations and counts,
    compared one by one: neither side is ever listed whole (10M violations)."""
    if report.stats.to_dict() != expected.stats() or len(report.violations) != len(expected.violations):
        return False
    return all(
        (v.consumer or "", v.name or "", tuple(t.id for t in v.tools)) == want
        for v, want in zip(report.violations, expected.violations)
    )


@dataclass
class Workload:
    """One generated workflow, with what toolwire must report on it."""

    preset: str
    path: Path
    expected: generate.Expected

    @property
    def size(self) -> int:
        return self.path.stat().st_size

    @cached_property
    def data(self) -> bytes:
        return self.path.read_bytes()

    @cached_property
    def parsed(self) -> Dict[str, Any]:
        parsed: Dict[str, Any] = json.loads(self.data)
        return parsed


def generated(cache_dir: Path, preset: str, seed: int = SEED) -> Workload:
    """The workflow of ``preset`` and ``seed``, generated on first use."""
    path = cache_dir / f"{preset}-{seed}.json"
    expect = cache_dir / f"{preset}-{seed}.expected.json"
    if not (path.exists() and expect.exists()):
        expected = generate.generate(path, preset, seed=seed)
        expect.write_text(json.dumps(expected.to_dict()), encoding="utf-8")
    return Workload(preset, path, generate.Expected.from_dict(json.loads(expect.read_text(encoding="utf-8"))))


def generated_yaml(cache_dir: Path, preset: str, seed: int = SEED) -> Workload:
    """The workflow of ``preset`` and ``seed`` in the Drupal YAML layout
    (issue 21), generated on first use, named as Drupal names it. Its
    expectation is its JSON twin's (``generated``), checked on generation."""
    path = cache_dir / drupal_yaml.WORKFLOW_FILE.format(f"{preset.replace('-', '_')}_{seed}")
    twin = generated(cache_dir, preset, seed)
    if not path.exists():
        expected = generate.generate(path, replace(generate.PRESETS[preset], layout="drupal-yaml"), seed=seed)
        if expected != twin.expected:
            path.unlink()
            raise AssertionError(f"the YAML of {preset} expects other findings than its JSON")
    return Workload(preset, path, twin.expected)


def batch_files(cache_dir: Path, count: int) -> List[Path]:
    """``count`` small generated workflows (``BATCH_OPTIONS``, seeds 0 to
    count - 1), made once and kept in ``cache_dir``."""
    folder = cache_dir / "batch"
    folder.mkdir(exist_ok=True)
    paths = []
    for seed in range(count):
        path = folder / f"w{seed:04d}.json"
        expect = expected_path(path)
        if not (path.exists() and expect.exists()):
            expected = generate.generate(path, BATCH_OPTIONS, seed=seed)
            expect.write_text(json.dumps(expected.to_dict()), encoding="utf-8")
        paths.append(path)
    return paths


def expected_path(path: Path) -> Path:
    """Where ``batch_files`` keeps what the generator expects of ``path``."""
    return path.with_suffix(".expected.json")


def batch_expected(path: Path) -> generate.Expected:
    """What the generator expects of a file of ``batch_files``."""
    return generate.Expected.from_dict(json.loads(expected_path(path).read_text(encoding="utf-8")))


# Peak RSS of a statement, in a fresh interpreter. The peak is read from
# /proc (VmHWM), not getrusage: Linux carries ru_maxrss across fork and exec,
# so a child of this (large) pytest process would report the parent's peak.
# The answer (a small JSON summary of what the statement computed) is printed
# too, so that a benchmark can check the work it measured was done right.
PEAK_RSS_SCRIPT = """
import json, sys, toolwire
def status_kib(field):
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith(field))
path = sys.argv[1]
start_kib = status_kib("VmRSS:")
{statement}
peak_kib = status_kib("VmHWM:")
print(json.dumps({answer}))
print(start_kib * 1024)
print(peak_kib * 1024)
"""


def peak_rss_and_answer(statement: str, answer: str, path: str) -> Tuple[int, Any]:
    """The peak RSS, in bytes, of a fresh Python running ``statement`` with
    ``path`` (the workflow) bound, and the value of the expression
    ``answer`` after it (through JSON)."""
    peak, _, answer_value = peak_rss_from_start(statement, answer, path)
    return peak, answer_value


def peak_rss_from_start(statement: str, answer: str, path: str) -> Tuple[int, int, Any]:
    """``peak_rss_and_answer``, with the RSS just before ``statement`` too
    (the interpreter with toolwire imported), so a measure can count what
    the statement itself added."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK_RSS_SCRIPT.format(statement=statement, answer=answer), path],
        check=True,
        capture_output=True,
        text=True,
    )
    *_, summary, start, peak = done.stdout.strip().splitlines()
    return int(peak), int(start), json.loads(summary)


def peak_rss(statement: str, path: str) -> int:
    """The peak RSS, in bytes, of a fresh Python running ``statement`` with
    ``path`` (the workflow) bound."""
    return peak_rss_and_answer(statement, "None", path)[0]


@dataclass
class FamilyWorkload:
    """A worst-case family (``toolwire.generate.FAMILIES``) at one size, with
    what toolwire must report on it."""

    family: str
    n: int
    path: Path
    expected: FamilyExpected

    @property
    def size(self) -> int:
        return self.path.stat().st_size

    @property
    def label(self) -> str:
        return f"{self.family} n={self.n}"


def generated_family(cache_dir: Path, family: str, n: int) -> FamilyWorkload:
    """Family ``family`` at size ``n``, generated on first use and kept in
    ``cache_dir`` (whose name changes with the generator's source)."""
    path = cache_dir / f"family-{family}-{n}.json"
    expect = cache_dir / f"family-{family}-{n}.expected.json"
    if not (path.exists() and expect.exists()):
        data, expected = FAMILIES[family].build(n)
        path.write_bytes(data)
        expect.write_text(json.dumps(expected.to_dict()), encoding="utf-8")
    return FamilyWorkload(family, n, path, FamilyExpected.from_dict(json.loads(expect.read_text(encoding="utf-8"))))


def family_matches(report: Any, expected: FamilyExpected) -> bool:
    """Whether ``report`` has the expected number of violations and the
    expected first one: what can be compared without reading millions."""
    if len(report.violations) != expected.violations:
        return False
    first = report.violations[0]
    return (first.consumer or "", first.name or "", tuple(t.id for t in first.tools)) == expected.first
