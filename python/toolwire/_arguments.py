"""Argument checks shared by every way in: toolwire's checking functions
(``_api``) and toolwire.dask's, which refuse the same mistakes with the same
messages before anything is submitted. Package-internal."""

from __future__ import annotations

import os
from typing import Iterable


def type_names(option: str, values: Iterable[str]) -> list[str]:
    """``values`` (``passthrough_types`` or ``edge_types``) as a list of
    names; a ``TypeError`` or ``ValueError`` naming ``option`` otherwise."""
    # A bare string is an iterable of characters: almost certainly a mistake.
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{option} must be a collection of strings, not a single string")
    listed = list(values)
    for value in listed:
        if not isinstance(value, str):
            raise TypeError(f"{option} must contain strings, got {type(value).__name__}")
        if not value:
            # No node type or data.edgeType is "": as the CLI and the
            # configuration file refuse it, so does the API.
            raise ValueError(f"{option} must not contain an empty string")
    return listed


def refuse_single_path(paths: object, function: str, instead: str) -> None:
    """A ``TypeError`` for one path where a sequence of paths is expected: a
    str is a sequence of its characters, each of which would be checked as
    a file of its own. `instead` says what to call for one file."""
    if isinstance(paths, (str, bytes, bytearray, memoryview, os.PathLike)):
        raise TypeError(
            f"{function}() takes a sequence of paths, not a single {type(paths).__name__} path: "
            f"pass a list ({function}([path])), or {instead}"
        )
