"""What the machine formats (sarif, github, junit) say alike: which file a
report is about, how a path is named, how a clashing tool is described, and
what to do about a finding."""

from __future__ import annotations

from pathlib import Path, PurePath
from typing import Optional

from .._report import Tool, _quoted
from .._rules import RULES

STDIN = "-"
"""The path of a workflow read from standard input."""


def source(path: Optional[str]) -> Optional[str]:
    """The file a report is about, or None when it was read from standard
    input or built without one."""
    return None if path is None or path == STDIN else path


def repo_path(path: str) -> str:
    """``path`` as GitHub names files: relative to the repository root, with
    forward slashes. CI runs toolwire from the root, so an absolute path
    inside the working directory is made relative to it; ``./`` and doubled
    separators go. Any other absolute path stays absolute."""
    pure = PurePath(path)
    if pure.is_absolute():
        try:
            pure = pure.relative_to(Path.cwd())
        except ValueError:
            pass
    return pure.as_posix()


def tool_line(tool: Tool) -> str:
    """One tool of a CMP-9 clash and the way it arrives:
    ``tool_a "Web Search" via tool_a -> box_1 -> agent_1``."""
    return f"{tool.id} {_quoted(tool.label)} via {' -> '.join(tool.path)}"


def finding_help(code: str, own_help: Optional[str]) -> Optional[str]:
    """What to do about a finding: its own fix when it has one, else what its
    rule says. For the formats whose reader sees no rule descriptions."""
    if own_help is not None:
        return own_help
    return RULES[code].help if code in RULES else None
