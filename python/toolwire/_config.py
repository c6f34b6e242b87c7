"""``[tool.toolwire]`` in pyproject.toml: settings for ``toolwire check``.

Found the way mypy finds its configuration: from the current directory up
through its parents, the first ``pyproject.toml`` with a ``[tool.toolwire]``
table wins (one without the table is skipped, as ruff and mypy skip it), and
the search stops at the root of the repository, the first directory holding
``.git`` or ``.hg`` (a directory or, in worktrees and submodules, a file). A
pyproject.toml above the repository belongs to some other project, so it is
never read; outside any repository the search goes up to the filesystem root.
An empty ``[tool.toolwire]`` table counts as found: it stops the search and
sets nothing, which is how a subproject opts out of a parent's settings. A
pyproject.toml on the way that is not valid TOML stops the search with an
error rather than being skipped: it may be the very file meant to configure
toolwire, and checking with the defaults instead would hide that.

Keys are kebab-case, as in ruff::

    [tool.toolwire]
    passthrough-types = ["toolbox", "kit"]   # replaces the defaults, like --passthrough-type
    edge-types = ["data", "tool_availability"]   # replaces the defaults, like --edge-type
    node-types = ["config/sync"]             # CMP-10 catalogue, relative to this file, like --node-types
    strict = true                            # warnings fail a file too
    format = "sarif"                         # text, json, sarif, github or junit
    jobs = 4                                 # files checked in parallel
    max-violations = 100                     # findings listed per file (0: no limit), like --max-violations
    max-path = 16                            # ids shown of a long path (0: no limit), like --max-path
    json-violations = "each"                 # json: every violation, not each clash once, like --json-violations
    max-consumers = 1000                     # json: consumers listed per clash (0: no limit), like --max-consumers
    select = ["CMP-9", "EDGE"]               # codes (or families) reported, like --select
    ignore = ["NAME-LOSSY"]                  # codes not reported, like --ignore
    quiet = true                             # warnings counted, not listed, like --quiet

Every value is checked strictly: a typo in a configuration file must stop the
run with a message naming the file and the key, not be silently ignored
(``stict = true`` that changed nothing would be worse than an error).
"""

from __future__ import annotations

import difflib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from . import _select
from ._formats import FORMATS, JSON_VIOLATIONS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["ConfigError", "Settings", "find", "load", "resolve"]

_REPOSITORY_MARKERS = (".git", ".hg")
_TABLE = "[tool.toolwire]"


class ConfigError(ValueError):
    """A configuration file that cannot be used. The message names the file
    and, when one is to blame, the key and what was expected."""


@dataclass(frozen=True)
class Settings:
    """What a configuration file sets; None means "not set", so that the
    command line, then the file, then the defaults decide each option."""

    passthrough_types: Optional[List[str]] = None
    edge_types: Optional[List[str]] = None
    node_types: Optional[List[str]] = None
    """Node-type catalogue paths, made relative to the configuration
    file's directory (as given there) when the file is loaded."""
    strict: Optional[bool] = None
    format: Optional[str] = None
    jobs: Optional[int] = None
    max_violations: Optional[int] = None
    max_path: Optional[int] = None
    json_violations: Optional[str] = None
    max_consumers: Optional[int] = None
    select: Optional[List[str]] = None
    ignore: Optional[List[str]] = None
    quiet: Optional[bool] = None
    source: Optional[Path] = None
    """The file the settings came from (None: no file)."""

    def shown_source(self) -> Optional[str]:
        """``source`` as messages show it: relative to the current directory
        when that is shorter (``../pyproject.toml``), else absolute."""
        return None if self.source is None else _shown(self.source)


def find(start: Path) -> Optional[Path]:
    """The pyproject.toml that configures toolwire for ``start`` (the current
    directory), or None. See the module docstring for the search."""
    directory = Path(os.path.abspath(start))
    while True:
        candidate = directory / "pyproject.toml"
        if candidate.is_file() and _table(candidate) is not None:
            return candidate
        if any((directory / marker).exists() for marker in _REPOSITORY_MARKERS):
            return None
        if directory.parent == directory:
            return None
        directory = directory.parent


def load(path: Path) -> Settings:
    """The settings of ``path``'s ``[tool.toolwire]`` table, validated.
    Raises ConfigError when the file cannot be read or parsed, has no such
    table, or sets anything wrongly."""
    table = _table(path)
    if table is None:
        raise ConfigError(f"{_shown(path)}: no {_TABLE} table")
    unknown = [key for key in table if key not in _KEYS]
    if unknown:
        key = unknown[0]
        raise ConfigError(f"{_shown(path)}: {_TABLE} unknown key {json.dumps(key)}{_suggestion(key)}")
    values: Dict[str, Any] = {}
    for key, value in table.items():
        field, check, expected = _KEYS[key]
        if not check(value):
            raise ConfigError(f"{_shown(path)}: {_TABLE} {key} must be {expected}, got {_toml(value)}")
        values[field] = list(value) if isinstance(value, list) else value
    if "node_types" in values:
        # Paths in the file mean the same wherever toolwire is run from.
        values["node_types"] = [os.path.join(os.path.dirname(os.path.abspath(path)), p) for p in values["node_types"]]
    return Settings(**values, source=path)


def resolve(explicit: Optional[Path], start: Path) -> Settings:
    """The settings for one run: ``explicit`` (``--config FILE``, which must
    have a ``[tool.toolwire]`` table) if given, else the file :func:`find`
    finds from ``start``, else no settings at all."""
    path = explicit if explicit is not None else find(start)
    return Settings() if path is None else load(path)


# -- reading -------------------------------------------------------------------


def _table(path: Path) -> Optional[Mapping[str, Any]]:
    """``[tool.toolwire]`` of a TOML file, or None when it has none."""
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as e:
        raise ConfigError(f"{_shown(path)}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{_shown(path)}: invalid TOML: not UTF-8 ({e.reason} at byte {e.start})") from None
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        # tomllib's message carries the line and column: "... (at line 3, column 9)".
        raise ConfigError(f"{_shown(path)}: invalid TOML: {e}") from None
    tool = document.get("tool")
    if not isinstance(tool, dict) or "toolwire" not in tool:
        return None
    table = tool["toolwire"]
    if not isinstance(table, dict):
        raise ConfigError(f"{_shown(path)}: tool.toolwire must be a table, got {_toml(table)}")
    return table


def _shown(path: Path) -> str:
    # Relative to the current directory when that is shorter, as mypy shows
    # its configuration file; absolute across Windows drives.
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return str(path)
    return relative if len(relative) < len(str(os.path.abspath(path))) else str(os.path.abspath(path))


def _toml(value: Any) -> str:
    """A value as it is written in TOML, so that the message shows what the user wrote."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    if isinstance(value, dict):
        return "a table"
    return str(value)  # numbers, dates and times


# -- the keys --------------------------------------------------------------------


def _names(value: Any) -> bool:
    # An empty list is meaningful (no passthrough types at all); an empty
    # name never is: no node type or edgeType is "".
    return isinstance(value, list) and all(isinstance(item, str) and item for item in value)


def _boolean(value: Any) -> bool:
    return isinstance(value, bool)


def _format(value: Any) -> bool:
    return isinstance(value, str) and value in FORMATS


def _jobs(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _whole(value: Any) -> bool:
    """An integer of at least 0: max-violations, max-consumers."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _max_path(value: Any) -> bool:
    return _whole(value) and value != 1


def _json_violations(value: Any) -> bool:
    return isinstance(value, str) and value in JSON_VIOLATIONS


def _codes(value: Any) -> bool:
    """``select``, ``ignore``: a list of codes or families (``_select``)."""
    return _names(value) and _select.unknown(value) is None


# TOML key -> (Settings field, check, what is expected, for the message).
_KEYS: Dict[str, Tuple[str, Callable[[Any], bool], str]] = {
    "passthrough-types": ("passthrough_types", _names, "a list of non-empty strings"),
    "edge-types": ("edge_types", _names, "a list of non-empty strings"),
    "node-types": ("node_types", _names, "a list of non-empty paths (files or directories)"),
    "strict": ("strict", _boolean, "true or false"),
    "format": ("format", _format, "one of " + ", ".join(f'"{name}"' for name in FORMATS)),
    "jobs": ("jobs", _jobs, "an integer of at least 1"),
    "max-violations": ("max_violations", _whole, "an integer of at least 0 (0: no limit)"),
    "max-path": ("max_path", _max_path, "0 (no limit) or an integer of at least 2"),
    "json-violations": ("json_violations", _json_violations, "one of " + ", ".join(f'"{v}"' for v in JSON_VIOLATIONS)),
    "max-consumers": ("max_consumers", _whole, "an integer of at least 0 (0: no limit)"),
    "select": ("select", _codes, f"a list of codes or families ({_select.known()})"),
    "ignore": ("ignore", _codes, f"a list of codes or families ({_select.known()})"),
    "quiet": ("quiet", _boolean, "true or false"),
}


def _suggestion(key: str) -> str:
    # passthrough_types -> passthrough-types: the likeliest mistake, since the
    # Python options and the Settings fields use underscores.
    close = difflib.get_close_matches(key.replace("_", "-").lower(), _KEYS, n=1)
    known = ", ".join(_KEYS)
    return f" (did you mean {json.dumps(close[0])}?)" if close else f" (known keys: {known})"
