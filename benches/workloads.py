"""Generated workflows for the benchmarks, with what toolwire must report."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Dict

from toolwire import generate

SEED = 0


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
