"""Generated workflows for the benchmarks, with what toolwire must report."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Dict, List

from toolwire import generate

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


def batch_files(cache_dir: Path, count: int) -> List[Path]:
    """``count`` small generated workflows (``BATCH_OPTIONS``, seeds 0 to
    count - 1), made once and kept in ``cache_dir``."""
    folder = cache_dir / "batch"
    folder.mkdir(exist_ok=True)
    paths = []
    for seed in range(count):
        path = folder / f"w{seed:04d}.json"
        if not path.exists():
            generate.generate(path, BATCH_OPTIONS, seed=seed)
        paths.append(path)
    return paths
