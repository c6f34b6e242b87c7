"""The report of one check: immutable data, read on demand.

A workflow can have far more violations than bytes (one toolbox of clashing
tools wired into thousands of agents), so a report does not hold them: the
core stores findings by cause, ``Report.violations`` is a sequence whose
items are built when they are read, and ``Tool.path`` walks the core's
shared path tree when it is read. The records themselves (tools,
violations, warnings, counts) are named tuples, built by keyword from the
core's typed objects."""

from __future__ import annotations

import json
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Dict, Iterator, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union, overload

from ._errors import CompilationError, ToolNameCollision, WorkflowError

from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:  # the extension is imported by _api, not here
    from ._groups import ClashGroup
    from ._toolwire import CoreReport, CoreViolation, _ViewTuple


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
    path: Sequence[str]
    """A shortest chain of node ids over tool edges: ``[tool, box, ..., consumer]``.
    In a report from the core it is a ``ToolPath``: its length is known at
    once, and its ids are read from the core when indexed or iterated."""
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
    it but ``unnamed_tool``; ``"DUPLICATE-KEY"`` when a key toolwire reads
    appears twice in one object of the JSON text (the last value is read;
    ``node`` is the node's id, or ``""`` outside a node, and ``edge`` the
    edge's index in an edge). ``location`` is the edge (R8), the repeated
    key (DUPLICATE-KEY) or the node."""

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


_T = TypeVar("_T")


class _Lazy(Sequence[_T]):
    """Items held by the core, read on access in the stretches asked for: a
    sequence of any length costs nothing until it is read, and its ends
    (``items[:3]``, ``items[-3:]``) cost only what they hold."""

    __slots__ = ("_core", "_len")

    _CHUNK = 4096
    """Items read at a time while iterating."""
    _WHAT = "item"

    def __init__(self, core: "CoreReport", length: int) -> None:
        self._core = core
        self._len = length

    def _read(self, start: int, stop: int) -> List[_T]:
        """Items ``start`` to ``stop`` (exclusive), from the core."""
        raise NotImplementedError

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> _T: ...
    @overload
    def __getitem__(self, index: slice) -> List[_T]: ...
    def __getitem__(self, index: Union[int, slice]) -> Union[_T, List[_T]]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._len)
            if step != 1 or start >= stop:
                return [self[i] for i in range(start, stop, step)]
            return self._read(start, stop)
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError(f"{self._WHAT} index out of range")
        return self._read(index, index + 1)[0]

    def __iter__(self) -> Iterator[_T]:
        for start in range(0, self._len, self._CHUNK):
            yield from self._read(start, start + self._CHUNK)

    def __eq__(self, other: object) -> bool:
        """Equal to a sequence of the same kind, a list or a tuple holding
        equal items in the same order."""
        if isinstance(other, (type(self), list, tuple)):
            return len(other) == self._len and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


class ToolPath(_Lazy[str]):
    """A tool's path to its consumer, read from the core's shared path tree
    on access: a chain of a hundred thousand toolboxes costs nothing until
    its ids are read. Equal to any list or tuple of the same ids."""

    __slots__ = ("_violation", "_tool")

    _WHAT = "path"

    def __init__(self, core: "CoreReport", violation: int, tool: int, length: int) -> None:
        super().__init__(core, length)
        self._violation = violation
        self._tool = tool

    def _read(self, start: int, stop: int) -> List[str]:
        return self._core.tool_path(self._violation, self._tool, start, stop)

    def __repr__(self) -> str:
        if self._len <= 8:
            return repr(list(self))
        return f"ToolPath({self[:3]!r} ... {self._len - 6} more ... {self[-3:]!r})"


class Violations(_Lazy[Violation]):
    """The violations of a report, in the order of docs/SEMANTICS.md
    section 6 (EDGE-5 by edge, then CMP-9 by consumer id and name).
    ``len()`` is exact however many there are; items are built when read
    (``v[i]``, slices, iteration)."""

    __slots__ = ("_start",)

    _CHUNK = 1  # each one is built: iterating builds no more than it yields
    _WHAT = "violation"

    def __init__(self, core: "CoreReport", start: int = 0) -> None:
        super().__init__(core, core.violation_count - start)
        self._start = start
        """The core's index of this sequence's first violation."""

    def _after(self, start: int) -> "Violations":
        """The violations from ``start`` on, read from the same core: the
        CMP-9 ones, when ``start`` is the number of EDGE-5 ones (``--ignore
        EDGE-5``); their clash groups are the report's."""
        return Violations(self._core, self._start + start)

    def _read(self, start: int, stop: int) -> List[Violation]:
        return [self._at(self._start + i) for i in range(start, min(stop, self._len))]

    def __repr__(self) -> str:
        return f"<Violations: {self._len}>"

    def _at(self, index: int) -> Violation:
        core = self._core
        v = core.violation(index)
        return Violation(
            rule=v.rule,
            message=v.message,
            consumer=v.consumer,
            name=v.name,
            tools=self._tools(index, v) if v.rule == "CMP-9" else (),
            edge=v.edge,
            edge_id=v.edge_id,
            edge_type=v.edge_type,
            location=_at(v.location),
            fix=[Rename(node=r.node, label=r.label, new_label=r.new_label, new_name=r.new_name) for r in v.fix]
            if v.rule == "CMP-9"
            else (),
            suggestion=v.suggestion,
            box_labels=dict(v.box_labels) if v.box_labels else _NO_BOXES,
        )

    def _tools(self, index: int, v: "CoreViolation") -> List[Tool]:
        return [
            Tool(id=t.id, label=t.label, path=ToolPath(self._core, index, i, t.path_len), location=_at(t.location))
            for i, t in enumerate(v.tools)
        ]

    def _group(self, g: int) -> "ClashGroup":
        """The core's group ``g``, with its first violation built."""
        from ._groups import ClashGroup  # _groups reads this module's records

        core = self._core
        group = core.group(g)
        first = self._at(group.first)
        return ClashGroup(
            name=group.name,
            tools=first.tools,
            through=group.through,
            consumers=_GroupConsumers(core, g, group.count),
            first=first,
        )


class ClashGroups(_Lazy["ClashGroup"]):
    """The CMP-9 clash groups of a report, in the order of their first
    violations: an exact ``len()`` at once, each group built when it is read
    (a workflow may have millions), like ``Violations``."""

    __slots__ = ("_violations",)

    _CHUNK = 1  # each group builds its first violation: build no more than is read
    _WHAT = "group"

    def __init__(self, violations: Violations) -> None:
        super().__init__(violations._core, violations._core.group_count)
        self._violations = violations

    def _read(self, start: int, stop: int) -> List["ClashGroup"]:
        return [self._violations._group(g) for g in range(start, min(stop, self._len))]

    def __repr__(self) -> str:
        return f"<ClashGroups: {self._len}>"


class _GroupConsumers(_Lazy[str]):
    """The consumers of a group, by id, read from the core on access."""

    __slots__ = ("_group",)

    _WHAT = "consumer"

    def __init__(self, core: "CoreReport", group: int, length: int) -> None:
        super().__init__(core, length)
        self._group = group

    def _read(self, start: int, stop: int) -> List[str]:
        return self._core.group_consumers(self._group, start, stop)

    def __repr__(self) -> str:
        return f"<{self._len} consumers>"


class Warnings(_Lazy[WiringWarning]):
    """The warnings of a report, in the order of docs/SEMANTICS.md section 6, read from the core in
    chunks as they are asked for. Equal to any list or tuple of the same
    warnings."""

    __slots__ = ()

    _WHAT = "warning"

    def __init__(self, core: "CoreReport") -> None:
        super().__init__(core, core.warning_count)

    def _read(self, start: int, stop: int) -> List[WiringWarning]:
        return [
            WiringWarning(code=w.code, node=w.node, edge=w.edge, message=w.message, location=_at(w.location))
            for w in self._core.warnings(start, stop)
        ]

    def __repr__(self) -> str:
        if self._len <= 8:
            return repr(list(self))
        return f"<Warnings: {self._len}>"


@dataclass(frozen=True, slots=True)
class Report:
    """The outcome of checking one workflow."""

    violations: Sequence[Violation]
    """EDGE-5 violations in edge order, then CMP-9 ones by consumer id and
    name. From a check, a ``Violations`` sequence: exact ``len()``, items
    built when read, so a report with millions of violations costs what its
    workflow costs until they are read."""
    warnings: Sequence[WiringWarning]
    """From a check, a ``Warnings`` sequence, read from the core as it is
    asked for (a workflow can have a warning per node)."""
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
        """The exact number of violations (``len(violations)``)."""
        return len(self.violations)

    def clash_groups(self) -> Sequence["ClashGroup"]:
        """The CMP-9 violations grouped: violations with the same name and
        the same clashing tools, reached through the same toolbox, are one
        group naming its consumers. Every CMP-9 violation is in exactly one
        group; groups come in the order of their first violations. From a
        check, a ``ClashGroups`` sequence: exact ``len()``, each group built
        when it is read; otherwise a list."""
        from ._groups import group_violations  # _groups reads this module's records

        if isinstance(self.violations, Violations):
            return ClashGroups(self.violations)
        return group_violations(self.violations)

    def to_dict(self) -> Dict[str, Any]:
        """The per-file object of the CLI's ``--format json
        --json-violations each`` output, but for its ``clash_count``, with
        every violation and every path whole: its size is what it lists, so
        on a report with millions of violations use the CLI's streaming
        ``--format json``, which lists each clash once, instead."""
        return {
            "path": self.path,
            "ok": self.ok,
            "error": None if self.error is None else _error_to_dict(self.error),
            "violation_count": len(self.violations),
            "violations_omitted": 0,
            "violations": [v.to_dict() for v in self.violations],
            "warnings": [w.to_dict() for w in self.warnings],
            "stats": None if self.stats is None else self.stats.to_dict(),
        }

    def to_json(self) -> str:
        """``to_dict()`` as JSON text: time and memory grow with every
        violation it lists."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    def raise_on_failure(self) -> None:
        """Raises ``CompilationError`` (cause: ``ToolNameCollision``) when
        refused, or the file's own error when it could not be checked. The
        message lists every violation, so on a huge report building it takes
        time and memory in proportion."""
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
    def _from_core(cls, core: "CoreReport", path: Optional[str] = None) -> Report:
        """A report reading from the binding's ``CoreReport``."""
        s = core.stats
        stats = Stats(
            nodes=s.nodes, edges=s.edges, tool_edges=s.tool_edges, consumers=s.consumers, passthroughs=s.passthroughs
        )
        return cls(Violations(core), Warnings(core), stats, path)


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
    forwards: bool = False
    """The node is a passthrough (a toolbox): ``tools`` is what it forwards.
    Names shared among them are no violation at the box (CMP-9 exempts
    passthroughs), only at each consumer they reach together."""

    def to_dict(self) -> Dict[str, Any]:
        return {
            "consumer": self.consumer,
            "location": _location_dict(self.location),
            "tools": [t.to_dict() for t in self.tools],
            "box_labels": dict(self.box_labels),
            "forwards": self.forwards,
        }

    @classmethod
    def _from_core(cls, core: "_ViewTuple") -> ConsumerView:
        consumer, location, tools, box_labels, forwards = core
        # A million tools cross here on a large workflow: positional
        # construction, without a call per field.
        seen = [
            SeenTool(name, id, label, path, None if at is None else Location(*at), collides)
            for name, id, label, path, at, collides in tools
        ]
        return cls(consumer, _at(location), seen, dict(box_labels) if box_labels else _NO_BOXES, forwards)


def _at(core: Optional[Tuple[int, int]]) -> Optional[Location]:
    return None if core is None else Location(line=core[0], column=core[1])


def _error_to_dict(error: Exception) -> Dict[str, Any]:
    if isinstance(error, WorkflowError):
        return {"message": error.message, "line": error.line, "column": error.column}
    if isinstance(error, OSError) and error.strerror:
        return {"message": f"cannot read the file: {error.strerror}", "line": None, "column": None}
    return {"message": str(error), "line": None, "column": None}
