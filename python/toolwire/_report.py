"""The report of one check: immutable data, read on demand.

A workflow can have far more violations than bytes (one toolbox of clashing
tools wired into thousands of agents), so a report does not hold them: the
core stores findings by cause, ``Report.violations`` is a sequence whose
items are built when they are read, and ``Tool.path`` walks the core's
shared path tree when it is read. The records themselves (``_records``:
tools, violations, warnings, counts) are named tuples, built by keyword
from the core's typed objects.

The functions at the end are the package's way to make reports
(``report_from_core``, ``failed_report``, ``view_from_core``; for a site
check, ``calls_from_core``, ``site_warnings`` and ``with_site``) and to read
them without building every record (``edge5_count``, ``edge5_prefix``,
``violations_from``, ``core_of``): package-internal, not exported by
``toolwire``. One module, though long: the lazy sequences and the functions
that make reports rely on the same private fields of each other."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Sequence, Tuple, TypeVar, Union, overload

from ._errors import CompilationError, ToolNameCollision, error_to_dict
from ._records import (
    NO_BOXES,
    CallFinding,
    CallStep,
    CallTool,
    CallSeenTool,
    CallView,
    NodePlace,
    PathPart,
    ClashGroup,
    ConsumerView,
    Location,
    Rename,
    SeenTool,
    Stats,
    Tool,
    Violation,
    WiredEdge,
    WiringWarning,
    call_message,
    group_violations,
)

if TYPE_CHECKING:  # the extension is imported by _api, not here
    from ._toolwire import CoreReport, CoreViolation


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
    section 6 (EDGE-5 by edge, CMP-10 by node id, then CMP-9 by consumer id
    and name).
    ``len()`` is exact however many there are; items are built when read
    (``v[i]``, slices, iteration)."""

    __slots__ = ("_start", "_skip")

    _CHUNK = 1  # each one is built: iterating builds no more than it yields
    _WHAT = "violation"

    def __init__(self, core: "CoreReport", start: int = 0, skip: Tuple[int, int] = (0, 0)) -> None:
        super().__init__(core, core.violation_count - start - (skip[1] - skip[0]))
        self._start = start
        """The core's index of this sequence's first violation."""
        self._skip = skip
        """Core indices ``[a, b)`` left out (at or after ``start``): the
        CMP-10 violations, between the EDGE-5 and CMP-9 ones, when a
        selection leaves CMP-10 out."""

    def _read(self, start: int, stop: int) -> List[Violation]:
        low, high = self._skip
        return [
            self._at(index + (high - low) if index >= low else index)
            for index in (self._start + i for i in range(start, min(stop, self._len)))
        ]

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
            box_labels=dict(v.box_labels) if v.box_labels else NO_BOXES,
            node_type=v.node_type,
            defined_at=v.defined_at,
            wired_edges=[WiredEdge(*e) for e in v.wired_edges] if v.rule == "CMP-10" else (),
        )

    def _tools(self, index: int, v: "CoreViolation") -> List[Tool]:
        return [
            Tool(id=t.id, label=t.label, path=ToolPath(self._core, index, i, t.path_len), location=_at(t.location))
            for i, t in enumerate(v.tools)
        ]

    def _group(self, g: int) -> ClashGroup:
        """The core's group ``g``, with its first violation built."""
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


class ClashGroups(_Lazy[ClashGroup]):
    """The CMP-9 clash groups of a report, in the order of their first
    violations: an exact ``len()`` at once, each group built when it is read
    (a workflow may have millions), like ``Violations``."""

    __slots__ = ("_violations",)

    _CHUNK = 1  # each group builds its first violation: build no more than is read
    _WHAT = "group"

    def __init__(self, violations: Violations) -> None:
        super().__init__(violations._core, violations._core.group_count)
        self._violations = violations

    def _read(self, start: int, stop: int) -> List[ClashGroup]:
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
    ``check_file`` would have raised for this file (or, for a site check,
    the ``SiteError`` of a report of its own)."""
    calls: Sequence[CallFinding] = ()
    """CMP-9 clashes found across this workflow's calls to other workflows
    of the site (SEMANTICS section 12), each located at the calling node
    that starts its chain. Only a site check finds any; a workflow checked
    alone has none."""

    @property
    def ok(self) -> bool:
        """True when the workflow was checked and accepted: no violation of
        its own and none across its calls."""
        return self.error is None and not self.violations and not self.calls

    @property
    def violation_count(self) -> int:
        """The exact number of violations (``len(violations)``)."""
        return len(self.violations)

    def clash_groups(self) -> Sequence[ClashGroup]:
        """The CMP-9 violations grouped: violations with the same name and
        the same clashing tools, reached through the same toolbox, are one
        group naming its consumers. Every CMP-9 violation is in exactly one
        group; groups come in the order of their first violations. From a
        check, a ``ClashGroups`` sequence: exact ``len()``, each group built
        when it is read; otherwise a list."""
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
            "error": None if self.error is None else error_to_dict(self.error),
            "violation_count": len(self.violations),
            "violations_omitted": 0,
            "violations": [v.to_dict() for v in self.violations],
            "call_count": len(self.calls),
            "calls": [c.to_dict() for c in self.calls],
            "calls_omitted": 0,
            "warnings": [w.to_dict() for w in self.warnings],
            "node_types_checked": None if self.stats is None else self.stats.node_types_checked,
            "stats": None if self.stats is None else self.stats.to_dict(),
        }

    def to_json(self) -> str:
        """``to_dict()`` as JSON text: time and memory grow with every
        violation it lists."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    def raise_on_failure(self) -> None:
        """Raises ``CompilationError`` (cause: ``ToolNameCollision``) when
        refused, or the file's own error when it could not be checked. The
        message lists every violation, then every call finding, so on a huge
        report building it takes time and memory in proportion."""
        if self.error is not None:
            raise self.error
        if self.ok:
            return
        cause = ToolNameCollision(self.violations, self.calls)
        raise CompilationError(str(cause)) from cause


def _at(core: Optional[Tuple[int, int]]) -> Optional[Location]:
    return None if core is None else Location(line=core[0], column=core[1])


# --- the package's way in (package-internal) --------------------------------------


def edge5_count(violations: Sequence[Violation], past: str = "CMP-9") -> int:
    """How many violations that stand alone (EDGE-5, then CMP-10) lead
    ``violations``, before every CMP-9 one: found by bisection, reading
    O(log n) items of a lazy sequence. With ``past="EDGE-5"``: how many
    EDGE-5 ones lead it (the CMP-10 ones follow them)."""
    low, high = 0, len(violations)
    while low < high:
        middle = (low + high) // 2
        rule = violations[middle].rule
        if (rule == "CMP-9") if past == "CMP-9" else (rule != "EDGE-5"):
            high = middle
        else:
            low = middle + 1
    return low


def edge5_prefix(report: Report) -> Tuple[Sequence[Violation], int]:
    """A sequence whose first items are the EDGE-5 violations of ``report``
    in edge order, and how many they are: its violations, which they lead,
    or, for a hand-built report, those of its violations that are EDGE-5."""
    violations = report.violations
    if isinstance(violations, list):
        # A hand-built report: any order will do.
        edge5 = [v for v in violations if v.rule != "CMP-9"]
        return edge5, len(edge5)
    return violations, edge5_count(violations)


def report_from_core(core: "CoreReport", path: Optional[str] = None) -> Report:
    """A report reading from the binding's ``CoreReport`` (checked here, or
    decoded from what a toolwire.dask worker shipped)."""
    s = core.stats
    stats = Stats(
        nodes=s.nodes,
        edges=s.edges,
        tool_edges=s.tool_edges,
        consumers=s.consumers,
        passthroughs=s.passthroughs,
        node_types_checked=core.node_types_checked,
    )
    return Report(Violations(core), Warnings(core), stats, path)


def failed_report(path: str, error: Exception) -> Report:
    """The report of a file that could not be checked: ``error`` is what
    ``check_file`` would have raised for it."""
    return Report([], [], None, path, error)


ViewTuple = Tuple[
    str,
    Optional[Tuple[int, int]],
    List[Tuple[str, str, str, List[str], Optional[Tuple[int, int]], bool]],
    List[Tuple[str, str]],
    bool,
]
"""A view as the binding hands it over (consumer, place, tools as (name,
id, label, path, place, collides), box labels, forwards): the stub's
``_ViewTuple``."""


At = Optional[Tuple[int, int]]
CallTuple = Tuple[
    str,
    int,
    List[Tuple[str, str, str, At, str]],
    Tuple[str, str, str, At],
    List[Tuple[str, str, str, str, At, List[Tuple[str, str, List[Tuple[str, At]]]]]],
]
"""A call finding as the binding's ``check_site`` hands it over: ``(name,
chains, chain, consumer, tools)``, a step ``(workflow, file, node, at,
runs)``, the consumer ``(workflow, file, node, at)``, a tool ``(workflow,
file, id, label, at, parts)``, a part ``(workflow, file, [(node, at),
...])``; ``at`` is ``(line, column)`` or None (the site contract)."""

SiteWarningTuple = Tuple[str, str, str, At]
"""A site warning as ``check_site`` hands it over: ``(code, node, message,
at)``."""


def calls_from_core(calls: Sequence[CallTuple]) -> List[CallFinding]:
    """The call findings of one report, from the tuples of ``check_site``,
    in the order given (the core sorts them), each with its message."""
    findings = []
    for name, chains, chain, consumer, tools in calls:
        steps = [CallStep(w, f, node, _at(at), runs) for w, f, node, at, runs in chain]
        inside = NodePlace(consumer[0], consumer[1], consumer[2], _at(consumer[3]))
        crossing = [
            CallTool(
                workflow,
                file,
                id,
                label,
                _at(at),
                tuple(
                    PathPart(pw, pf, tuple(n for n, _ in nodes), tuple(_at(a) for _, a in nodes))
                    for pw, pf, nodes in parts
                ),
            )
            for workflow, file, id, label, at, parts in tools
        ]
        message = call_message(name, steps, inside, crossing, chains)
        findings.append(CallFinding("CMP-9", message, name, steps, inside, crossing, chains))
    return findings


CallViewTuple = Tuple[
    Tuple[str, str, str, At],
    Tuple[str, str, str, At, str],
    List[Tuple[str, str, str, str, str, At, List[Tuple[str, str, List[Tuple[str, At]]]], bool]],
    int,
]
"""A per-call view as ``SiteFacts.call_views`` hands it over: ``(consumer,
call, tools, outer_calls)``, a tool ``(name, workflow, file, id, label, at,
parts, collides)``, places, steps and parts as in ``CallTuple``."""


def call_view_from_core(core: CallViewTuple) -> CallView:
    """One per-call view (``explain_calls``) from the binding's tuple."""
    consumer, (w, f, node, at, runs), tools, outer_calls = core
    seen = [
        CallSeenTool(
            name,
            workflow,
            file,
            id,
            label,
            _at(place),
            tuple(
                PathPart(pw, pf, tuple(n for n, _ in nodes), tuple(_at(a) for _, a in nodes)) for pw, pf, nodes in parts
            ),
            collides,
        )
        for name, workflow, file, id, label, place, parts, collides in tools
    ]
    inside = NodePlace(consumer[0], consumer[1], consumer[2], _at(consumer[3]))
    return CallView(inside, CallStep(w, f, node, _at(at), runs), seen, outer_calls)


def site_warnings(warnings: Sequence[SiteWarningTuple]) -> List[WiringWarning]:
    """The site's warnings of one report (``CMP-9-CALL-UNKNOWN``,
    ``CMP-9-PORT``), from the tuples of ``check_site``."""
    return [WiringWarning(code, node, None, message, _at(at)) for code, node, message, at in warnings]


class Chained(Sequence[_T]):
    """One sequence, then another: a report's own warnings (a ``Warnings``
    read from the core on demand) followed by the few its site adds, with
    neither read until asked for. Equal to any list or tuple of the same
    items."""

    __slots__ = ("_first", "_then")

    def __init__(self, first: Sequence[_T], then: Sequence[_T]) -> None:
        self._first = first
        self._then = then

    def __len__(self) -> int:
        return len(self._first) + len(self._then)

    @overload
    def __getitem__(self, index: int) -> _T: ...
    @overload
    def __getitem__(self, index: slice) -> List[_T]: ...
    def __getitem__(self, index: Union[int, slice]) -> Union[_T, List[_T]]:
        split = len(self._first)
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return [self[i] for i in range(start, stop, step)]
            head = list(self._first[start:min(stop, split)]) if start < split else []
            tail = list(self._then[max(start - split, 0):max(stop - split, 0)]) if stop > split else []
            return head + tail
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("warning index out of range")
        return self._first[index] if index < split else self._then[index - split]

    @property
    def then(self) -> Sequence[_T]:
        """The second sequence (a site's warnings after a file's own)."""
        return self._then

    def __iter__(self) -> Iterator[_T]:
        yield from self._first
        yield from self._then

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Chained, list, tuple)):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Chained: {len(self._first)} + {len(self._then)}>"


def with_site(report: Report, calls: Sequence[CallTuple], warnings: Sequence[SiteWarningTuple]) -> Report:
    """``report`` (a file's, from ``check_site``'s outcomes) with what the
    site check found for it: its call findings and the site's warnings,
    after its own (which are not read here)."""
    extra = site_warnings(warnings)
    own = report.warnings
    # No finding is the default `()`, as a report made any other way has it.
    return dataclasses.replace(
        report, calls=calls_from_core(calls) if calls else (), warnings=Chained(own, extra) if extra else own
    )


def view_from_core(core: ViewTuple) -> ConsumerView:
    """One consumer's view (``explain``) from the tuple the binding hands
    over."""
    consumer, location, tools, box_labels, forwards = core
    # A million tools cross here on a large workflow: positional
    # construction, without a call per field.
    seen = [
        SeenTool(name, id, label, path, None if at is None else Location(*at), collides)
        for name, id, label, path, at, collides in tools
    ]
    return ConsumerView(consumer, _at(location), seen, dict(box_labels) if box_labels else NO_BOXES, forwards)


def violations_from(violations: Violations, start: int) -> Violations:
    """The violations from ``start`` on, read from the same core: the CMP-9
    ones, when ``start`` is the number of EDGE-5 ones (``--ignore EDGE-5``);
    their clash groups are the report's."""
    return Violations(violations._core, violations._start + start)


def violations_without(violations: Violations, start: int, stop: int) -> Violations:
    """The violations but those from ``start`` to ``stop`` (positions in
    ``violations``, which must keep its own items whole), read from the same
    core: the EDGE-5 and CMP-9 ones when ``start..stop`` holds the CMP-10
    ones (``--ignore CMP-10``)."""
    base = violations._start
    return Violations(violations._core, base, (base + start, base + stop))


def core_of(violations: Violations) -> "CoreReport":
    """The core a checked report's violations read from: toolwire.dask encodes
    it to ship a report, and reads its findings without building records."""
    return violations._core
