"""The report of one check: plain, immutable data.

The records inside a report (tools, violations, warnings, counts) are named
tuples: a report may hold tens of thousands of them, and a named tuple is
built in a fraction of the time a frozen dataclass takes, with the same
immutability and attribute access."""

from __future__ import annotations

import json
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Mapping, NamedTuple, Optional, Sequence, Tuple

from ._errors import CompilationError, ToolNameCollision, WorkflowError

if TYPE_CHECKING:
    from ._groups import ClashGroup


class Location(NamedTuple):
    """A place in the JSON text checked, both 1-based; the column counts
    characters, as Python's ``json`` module does."""

    line: int
    column: int

    def to_dict(self) -> Dict[str, int]:
        return {"line": self.line, "column": self.column}


def _location_dict(location: Optional[Location]) -> Optional[Dict[str, int]]:
    return None if location is None else location.to_dict()


class Tool(NamedTuple):
    """A tool that reaches a consumer."""

    id: str
    label: str
    """The label as written (``data.label``, or the node id when it has none)."""
    path: List[str]
    """A shortest chain of node ids over tool edges: ``[tool, box, ..., consumer]``."""
    location: Optional[Location] = None
    """Where the tool's node object starts (for a node that is never declared,
    the first tool edge naming it); None when the input was not text."""

    def to_dict(self) -> Dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "path": list(self.path),
            "location": _location_dict(self.location),
        }


class Rename(NamedTuple):
    """One step of a suggested fix: give node ``node`` the label ``new_label``
    (whose tool name is ``new_name``) instead of ``label``."""

    node: str
    label: str
    new_label: str
    new_name: str

    def to_dict(self) -> Dict[str, str]:
        return dict(self._asdict())


_NO_BOXES: Mapping[str, str] = MappingProxyType({})


class Violation(NamedTuple):
    """One reason a workflow is refused.

    ``rule == "CMP-9"``: ``consumer``, ``name`` and ``tools`` (two or more,
    sorted by id) are set, and ``fix`` renames all but one of the tools so
    that every name is unique wherever they arrive. ``rule == "EDGE-5"``:
    ``edge`` (its index), ``edge_id`` and ``edge_type`` are set, and
    ``suggestion`` is the closest recognised edge type, if one is close.

    ``location`` is the consumer's node object (or, for a consumer that is
    never declared, the first tool edge into it) for CMP-9, the edge for
    EDGE-5; None when the input was not text.
    """

    rule: str
    message: str
    consumer: Optional[str] = None
    name: Optional[str] = None
    tools: Sequence[Tool] = ()
    edge: Optional[int] = None
    edge_id: Optional[str] = None
    edge_type: Optional[str] = None
    location: Optional[Location] = None
    fix: Sequence[Rename] = ()
    suggestion: Optional[str] = None
    box_labels: Mapping[str, str] = _NO_BOXES
    """CMP-9: the ``data.label`` of each toolbox on the tools' paths whose
    label is not its id, by id, for showing paths in words (on paths of up to
    64 nodes: a longer one is a machine-made chain nobody reads hop by hop)."""

    @property
    def help(self) -> Optional[str]:
        """The suggested fix in words, or None when there is none."""
        if self.fix:
            return "rename " + ", ".join(f"{_quoted(r.node)} to {_quoted(r.new_label)}" for r in self.fix)
        if self.suggestion is not None:
            return f"did you mean {_quoted(self.suggestion)}?"
        return None

    def to_dict(self) -> Dict[str, Any]:
        if self.rule == "CMP-9":
            return {
                "rule": self.rule,
                "consumer": self.consumer,
                "name": self.name,
                "message": self.message,
                "location": _location_dict(self.location),
                "tools": [t.to_dict() for t in self.tools],
                "box_labels": dict(self.box_labels),
                "fix": [r.to_dict() for r in self.fix],
            }
        return {
            "rule": self.rule,
            "edge": self.edge,
            "edge_id": self.edge_id,
            "edge_type": self.edge_type,
            "message": self.message,
            "location": _location_dict(self.location),
            "suggestion": self.suggestion,
        }


def _quoted(text: str) -> str:
    """A string as a JSON literal, as the core quotes ids and labels."""
    return json.dumps(text, ensure_ascii=False)


class WiringWarning(NamedTuple):
    """Worth knowing, never a refusal (unless the CLI runs with ``--strict``).

    ``code`` is ``"R8"`` when a tool edge names a node that is never declared
    (``edge`` is that edge's index); ``"NAME-LOSSY"`` when a tool's label
    loses characters on the way to its name (non-ASCII characters are
    dropped: ``"Café" -> caf``); ``"NAME-UNNAMED"`` when nothing is left of
    it but ``unnamed_tool``. ``location`` is the edge (R8) or the node."""

    code: str
    node: str
    edge: Optional[int]
    message: str
    location: Optional[Location] = None

    def to_dict(self) -> Dict[str, Any]:
        return {
            "code": self.code,
            "node": self.node,
            "edge": self.edge,
            "message": self.message,
            "location": _location_dict(self.location),
        }


class Stats(NamedTuple):
    nodes: int
    edges: int
    tool_edges: int
    consumers: int
    passthroughs: int

    def to_dict(self) -> Dict[str, int]:
        return dict(self._asdict())


@dataclass(frozen=True, slots=True)
class Report:
    """The outcome of checking one workflow."""

    violations: List[Violation]
    """EDGE-5 violations in edge order, then CMP-9 ones by consumer id and name."""
    warnings: List[WiringWarning]
    stats: Optional[Stats]
    """Counts of what was read; None when the file could not be checked."""
    path: Optional[str] = None
    """The file checked, for reports made from files."""
    error: Optional[Exception] = None
    """Set only by ``check_files``: the ``WorkflowError`` or ``OSError`` that
    ``check_file`` would have raised for this file."""

    @property
    def ok(self) -> bool:
        """True when the workflow was checked and accepted."""
        return self.error is None and not self.violations

    @property
    def violation_count(self) -> int:
        """How many violations there are: ``len(self.violations)``."""
        return len(self.violations)

    def clash_groups(self) -> Iterator[ClashGroup]:
        """The CMP-9 violations grouped by cause (see ``_groups``)."""
        from ._groups import group_violations

        return group_violations(self.violations)

    def to_dict(self) -> Dict[str, Any]:
        """The per-file object of the CLI's ``--format json`` output."""
        return {
            "path": self.path,
            "ok": self.ok,
            "error": None if self.error is None else _error_to_dict(self.error),
            "violations": [v.to_dict() for v in self.violations],
            "warnings": [w.to_dict() for w in self.warnings],
            "stats": None if self.stats is None else self.stats.to_dict(),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    def raise_on_failure(self) -> None:
        """Raises ``CompilationError`` (cause: ``ToolNameCollision``) when
        refused, or the file's own error when it could not be checked."""
        if self.error is not None:
            raise self.error
        if self.ok:
            return
        cause = ToolNameCollision(self.violations)
        raise CompilationError(str(cause)) from cause

    @classmethod
    def _failed(cls, path: str, error: Exception) -> Report:
        return cls([], [], None, path, error)

    @classmethod
    def _from_core(cls, core: Tuple[Any, ...], path: Optional[str] = None) -> Report:
        """Builds a report from the binding's tuples (shapes in src/python/mod.rs)."""
        # Records are made with tuple.__new__, in field order: a report may
        # hold tens of thousands of them, and this skips the keyword handling
        # of each NamedTuple constructor (about a third of the cost).
        new = tuple.__new__
        core_violations, core_warnings, core_stats = core
        violations = []
        fields: Tuple[Any, ...]
        for v in core_violations:
            if v[0] == "CMP-9":
                rule, message, consumer, name, tools, at, fix, boxes = v
                fields = (
                    rule,
                    message,
                    consumer,
                    name,
                    [new(Tool, (i, label, p, a and new(Location, a))) for i, label, p, a in tools],
                    None,
                    None,
                    None,
                    at and new(Location, at),
                    [new(Rename, r) for r in fix],
                    None,
                    dict(boxes) if boxes else _NO_BOXES,
                )
            else:
                rule, message, edge, edge_id, edge_type, at, suggestion = v
                fields = (rule, message, None, None, (), edge, edge_id, edge_type, at and new(Location, at), (), suggestion, _NO_BOXES)
            violations.append(new(Violation, fields))
        warnings = [new(WiringWarning, (*w[:4], w[4] and new(Location, w[4]))) for w in core_warnings]
        return cls(violations, warnings, Stats(*core_stats), path)


class SeenTool(NamedTuple):
    """A tool as one consumer sees it (``explain``)."""

    name: str
    """The tool name the model is given."""
    id: str
    label: str
    path: List[str]
    """A shortest chain of node ids over tool edges: ``[tool, box, ..., consumer]``."""
    location: Optional[Location]
    collides: bool
    """Another tool in the same view has the same name (a CMP-9 violation)."""

    def to_dict(self) -> Dict[str, Any]:
        return {**self._asdict(), "path": list(self.path), "location": _location_dict(self.location)}


class ConsumerView(NamedTuple):
    """Every tool one consumer will be given, flattened through toolboxes,
    by name and then id."""

    consumer: str
    location: Optional[Location]
    tools: List[SeenTool]
    box_labels: Mapping[str, str] = _NO_BOXES
    """The ``data.label`` of each toolbox on the paths, as in ``Violation``."""

    def to_dict(self) -> Dict[str, Any]:
        return {
            "consumer": self.consumer,
            "location": _location_dict(self.location),
            "tools": [t.to_dict() for t in self.tools],
            "box_labels": dict(self.box_labels),
        }

    @classmethod
    def _from_core(cls, core: Tuple[Any, ...]) -> ConsumerView:
        consumer, at, tools, boxes = core
        seen = [SeenTool(name, i, label, path, _at(t_at), collides) for name, i, label, path, t_at, collides in tools]
        return cls(consumer, _at(at), seen, dict(boxes) if boxes else _NO_BOXES)


def _at(core: Optional[Tuple[int, int]]) -> Optional[Location]:
    return None if core is None else Location(*core)


def _error_to_dict(error: Exception) -> Dict[str, Any]:
    if isinstance(error, WorkflowError):
        return {"message": error.message, "line": error.line, "column": error.column}
    if isinstance(error, OSError) and error.strerror:
        return {"message": f"cannot read the file: {error.strerror}", "line": None, "column": None}
    return {"message": str(error), "line": None, "column": None}
