"""The report formats of ``toolwire check --format``. Each module has one
``write(run, out)`` that renders a whole run (every file's report) to text."""

from __future__ import annotations

import importlib
from typing import Callable, TextIO

from .run import DEFAULT_MAX_CONSUMERS, DEFAULT_MAX_PATH, FORMATS, JSON_VIOLATIONS, Run

__all__ = ["DEFAULT_MAX_CONSUMERS", "DEFAULT_MAX_PATH", "FORMATS", "JSON_VIOLATIONS", "Run", "Writer", "writer"]

Writer = Callable[[Run, TextIO], None]


def writer(format: str) -> Writer:
    """The ``write`` function of a format in FORMATS."""
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; choose one of {', '.join(FORMATS)}")
    module = importlib.import_module(f"{__name__}.{format}_format")
    write: Writer = module.write
    return write
