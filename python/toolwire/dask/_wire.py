"""How a report crosses from a Dask worker to the client.

A ``Report`` reads its findings from the Rust core, whose objects cannot be
pickled, and the workflow text must not travel. So a worker packs every
finding of a report into plain tuples (``pack``), and the client rebuilds a
``Report`` equal to the one ``toolwire.check_files`` gives (``unpack``):
same violations, warnings, stats and error, the CMP-9 groups as the core
made them, violations built only when read.

Packing costs the worker about a third of what checking the file did (the
benchmark's small files, four violations each), so it is kept plain: tuples
of what the core says, read once each.

A report whose findings are far larger than its file (one toolbox of clashes
wired into a million agents, paths through a 100,000-box chain) is not
packed past ``MAX_SHIPPED_IDS``: its report comes back with ``error`` set to
``FindingsTooLarge``, which says how to read it instead.
"""

from __future__ import annotations

import errno
import os
from typing import TYPE_CHECKING, Any, Iterator, List, Optional, Sequence, Tuple

from .._errors import WorkflowError
from .._report import (
    _NO_BOXES,
    Location,
    Rename,
    Report,
    Stats,
    Tool,
    Violation,
    Violations,
    WiringWarning,
)

if TYPE_CHECKING:
    from .._groups import ClashGroup
    from .._toolwire import CoreReport

MAX_SHIPPED_IDS = 10_000_000
"""The most ids (one per violation, plus one per tool and per id of its
path) a worker sends back for one report: about 100 MB of tuples on the
client. A report over it comes back as ``FindingsTooLarge``."""

Packed = Tuple[Any, ...]
"""A packed report: ``("report", stats, warnings, violations, groups)`` or
``("error", kind, ...)``; only this module reads it."""


class FindingsTooLarge(Exception):
    """The findings of a file are too large to send back from the cluster;
    ``Report.error`` of that file. The file was checked: ``violation_count``
    is exact."""

    def __init__(self, violation_count: int) -> None:
        self.violation_count = violation_count
        super().__init__(
            f"its {violation_count:,} violations are too large to send back from the cluster "
            f"(more than {MAX_SHIPPED_IDS:,} ids with their paths); check this file with "
            "toolwire.check_file(), or read its findings with toolwire.dask.findings()"
        )


class _TooLarge(Exception):
    """Raised inside the packer when the budget runs out."""


# --- worker side -----------------------------------------------------------------


def pack(report: Report, budget: int = MAX_SHIPPED_IDS) -> Packed:
    """A report of ``toolwire.check_files`` as plain, picklable tuples."""
    if report.error is not None:
        return pack_error(report.error)
    violations = report.violations
    assert isinstance(violations, Violations), "reports from a check read from the core"
    core = violations._core
    try:
        packed_violations = _violations(core, budget)
    except _TooLarge:
        return ("error", "too-large", core.violation_count)
    assert report.stats is not None
    return ("report", tuple(report.stats), [tuple(w) for w in report.warnings], packed_violations, _groups(core))


def pack_error(error: BaseException) -> Packed:
    """What ``Report.error`` holds, without the path (the client knows it,
    and puts it back as the path it was given)."""
    if isinstance(error, WorkflowError):
        return ("error", "workflow", error.message, error.line, error.column)
    if isinstance(error, FindingsTooLarge):
        return ("error", "too-large", error.violation_count)
    if isinstance(error, OSError):
        return ("error", "os", error.errno, error.strerror or str(error))
    return ("error", "other", type(error).__name__, str(error))


def _violations(core: "CoreReport", budget: int) -> List[Packed]:
    packed: List[Packed] = []
    left = budget
    path_of = core.tool_path
    for index in range(core.violation_count):
        v = core.violation(index)
        left -= 1
        rule = v.rule
        if rule != "CMP-9":
            packed.append((rule, v.message, v.location, v.edge, v.edge_id, v.edge_type, v.suggestion))
            continue
        tools = []
        for t, tool in enumerate(v.tools):
            length = tool.path_len
            left -= length + 1
            if left < 0:
                raise _TooLarge
            tools.append((tool.id, tool.label, tuple(path_of(index, t, 0, length)), tool.location))
        fix = tuple((r.node, r.label, r.new_label, r.new_name) for r in v.fix)
        packed.append((rule, v.message, v.location, v.consumer, v.name, tuple(tools), fix, tuple(v.box_labels)))
    return packed


def _groups(core: "CoreReport") -> List[Packed]:
    """The core's CMP-9 groups: ``(first violation, through)`` for a group
    of one violation (most of them), whose name and consumer are that
    violation's; else ``(first, through, name, consumers)``."""
    groups: List[Packed] = []
    for g in range(core.group_count):
        group = core.group(g)
        count = group.count
        if count == 1:
            groups.append((group.first, group.through))
        else:
            groups.append((group.first, group.through, group.name, tuple(core.group_consumers(g, 0, count))))
    return groups


# --- client side -----------------------------------------------------------------


def unpack(packed: Packed, path: str) -> Report:
    """The ``Report`` a worker packed, for the file the client named ``path``."""
    if packed[0] == "error":
        return Report._failed(path, _error(packed, path))
    _, stats, warnings, violations, groups = packed
    return Report(
        _ShippedViolations(violations, groups),
        [WiringWarning(code, node, edge, message, _at(location)) for code, node, edge, message, location in warnings],
        Stats(*stats),
        path,
    )


def _error(packed: Packed, path: str) -> Exception:
    kind = packed[1]
    if kind == "workflow":
        return WorkflowError(packed[2], packed[3], packed[4])
    if kind == "os":
        # OSError(errno, ...) makes the subclass check_files makes
        # (FileNotFoundError for ENOENT), with the path as it was given.
        return OSError(packed[2], packed[3], path)
    if kind == "too-large":
        return FindingsTooLarge(packed[2])
    return RuntimeError(f"{packed[2]}: {packed[3]}")


def read_error(error: BaseException) -> OSError:
    """An error from an fsspec filesystem as ``check_files`` would give it
    for a local file: an ``OSError`` with the errno and the operating
    system's words for it, whatever the filesystem raised."""
    for kind, number in ((FileNotFoundError, errno.ENOENT), (PermissionError, errno.EACCES), (IsADirectoryError, errno.EISDIR)):
        if isinstance(error, kind):
            return OSError(number, os.strerror(number))
    if isinstance(error, OSError) and error.errno is not None and error.strerror:
        return OSError(error.errno, error.strerror)
    # A storage client's own exception (an HTTP error, a denied request):
    # its words, after its name, with no errno.
    return OSError(None, f"{type(error).__name__}: {error}" if str(error) else type(error).__name__)


class _ShippedViolations(Violations):
    """``Violations`` from packed tuples instead of the core: items built
    when read, and the core's own CMP-9 groups."""

    __slots__ = ("_packed", "_packed_groups")

    def __init__(self, packed: Sequence[Packed], groups: Sequence[Packed]) -> None:
        # Not Violations.__init__: there is no core here.
        self._len = len(packed)
        self._packed = packed
        self._packed_groups = groups

    def _at(self, index: int) -> Violation:
        v = self._packed[index]
        if v[0] != "CMP-9":
            rule, message, location, edge, edge_id, edge_type, suggestion = v
            return Violation(
                rule=rule,
                message=message,
                edge=edge,
                edge_id=edge_id,
                edge_type=edge_type,
                location=_at(location),
                suggestion=suggestion,
            )
        rule, message, location, consumer, name, tools, fix, boxes = v
        return Violation(
            rule=rule,
            message=message,
            consumer=consumer,
            name=name,
            tools=[Tool(id=i, label=label, path=list(path), location=_at(at)) for i, label, path, at in tools],
            location=_at(location),
            fix=[Rename(node=n, label=label, new_label=new, new_name=new_name) for n, label, new, new_name in fix],
            box_labels=dict(boxes) if boxes else _NO_BOXES,
        )

    def _groups(self) -> Iterator["ClashGroup"]:
        from .._groups import ClashGroup

        for group in self._packed_groups:
            first = self._at(group[0])
            if len(group) == 2:
                assert first.name is not None and first.consumer is not None
                name, consumers = first.name, (first.consumer,)
            else:
                name, consumers = group[2], group[3]
            yield ClashGroup(name=name, tools=first.tools, through=group[1], consumers=consumers, first=first)


def _at(location: Optional[Tuple[int, int]]) -> Optional[Location]:
    return None if location is None else Location(line=location[0], column=location[1])
