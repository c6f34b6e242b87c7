"""Exceptions. Findings are data (see ``Report``); these are raised only when
a workflow cannot be checked, or when a caller asks for a refusal to raise.
``error_to_dict`` is how every report format and ``Report.to_dict`` write
such an error down."""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

from ._records import CallFinding, Violation

COMPILATION_FAILED = "Workflow compilation failed: "


class WorkflowError(ValueError):
    """The input is not a workflow toolwire can check: not JSON, a wrong
    shape, a missing or duplicate id. ``message`` says what and where (node
    index, edge index and id); ``line`` and ``column`` (1-based) locate it in
    JSON text when the input was text."""

    def __init__(self, message: str, line: Optional[int] = None, column: Optional[int] = None) -> None:
        self.message = message
        self.line = line
        self.column = column
        where = f" at line {line}, column {column}" if line is not None else ""
        super().__init__(f"{message}{where}")


class PathError(OSError):
    """A PATH that stands for no file to check: a directory with no workflow
    file under it, a glob that matches nothing, a folder inside a directory
    that cannot be listed. ``path`` is the one at fault, as named;
    ``message`` says what is wrong. It is the ``error`` of that path's
    report, beside the reports of the files that could be read."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.message = message
        super().__init__(message)

    def __reduce__(self) -> Any:
        # OSError pickles its args, not ours: toolwire.dask ships it.
        return (PathError, (self.path, self.message))


class CatalogueError(WorkflowError):
    """A node-type catalogue (``node_types=``, ``--node-types``) that cannot
    be used: not readable, not JSON or YAML, a wrong shape, a type without
    an id or defined twice. ``path`` is the file; ``line`` and ``column``
    locate the problem in it. Never a silent pass: CMP-10 is not checked
    against half a catalogue."""

    def __init__(
        self, message: str, line: Optional[int] = None, column: Optional[int] = None, path: str = ""
    ) -> None:
        self.path = path
        super().__init__(f"node-type catalogue {path}: {message}" if path else message, line, column)


class SiteError(WorkflowError):
    """A site (a directory, or files checked with a node-type catalogue)
    whose calls cannot all be followed (SEMANTICS section 12): a cycle of
    calls (W runs V runs W), or a workflow id defined by two files.
    ``workflows`` are the ids concerned (those on the cycle, sorted),
    ``files`` the files they are read from, in the same order. It is the
    ``error`` of a report of its own; everything else is still checked."""

    def __init__(self, message: str, workflows: Sequence[str] = (), files: Sequence[str] = ()) -> None:
        self.workflows = list(workflows)
        self.files = list(files)
        super().__init__(message)

    def __reduce__(self) -> Any:
        # Exceptions pickle their args, not these fields: toolwire.dask ships it.
        return (SiteError, (self.message, self.workflows, self.files))


class ToolNameCollision(Exception):
    """The tool-wiring stage's own failure: every CMP-9 and EDGE-5 violation
    found in the workflow (a sequence read on demand, as in ``Report``), and
    every CMP-9 clash found across its calls (``calls``, from a site
    check)."""

    def __init__(self, violations: Sequence[Violation], calls: Sequence[CallFinding] = ()) -> None:
        self.violations = violations
        self.calls = calls
        count = len(self.violations)
        own = [f"{v.rule}: {v.message}" for v in self.violations]
        listed = "; ".join([*own, *(f"{c.rule}: {c.message}" for c in self.calls)])
        refused = f"{count} violation{'s' if count != 1 else ''}"
        if self.calls:
            refused += f", {len(self.calls)} across calls"
        super().__init__(f"tool wiring refused ({refused}): {listed}")


class CompilationError(Exception):
    """A refused workflow, as a compiler reports it (CMP-1): the message is
    the failing stage's message prefixed exactly once with
    ``Workflow compilation failed: ``; the stage's error is ``__cause__``."""

    def __init__(self, stage_message: str) -> None:
        if stage_message.startswith(COMPILATION_FAILED):
            stage_message = stage_message[len(COMPILATION_FAILED):]
        super().__init__(COMPILATION_FAILED + stage_message)


def error_to_dict(error: Exception) -> Dict[str, Any]:
    """A file's error (``Report.error``) as the reports write it: its message,
    and its line and column when it has them (None otherwise). Package-internal."""
    if isinstance(error, SiteError):
        return {
            "message": error.message,
            "line": None,
            "column": None,
            "workflows": list(error.workflows),
            "files": list(error.files),
        }
    if isinstance(error, WorkflowError):
        return {"message": error.message, "line": error.line, "column": error.column}
    if isinstance(error, PathError):
        return {"message": error.message, "line": None, "column": None}
    if isinstance(error, OSError) and error.strerror:
        return {"message": f"cannot read the file: {error.strerror}", "line": None, "column": None}
    return {"message": str(error), "line": None, "column": None}
