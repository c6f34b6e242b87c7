"""CMP-9 violations grouped by cause.

One toolbox holding two tools of the same name, wired into 10,000 agents,
makes 10,000 violations (one per consumer and name) with a single cause and
a single fix. A ``ClashGroup`` is that cause: the same name, the same
clashing tools (by id), reached through the same toolbox. Every CMP-9
violation belongs to exactly one group; the report formats show a group
once, naming its consumers, instead of repeating it per consumer.

``group_violations`` is the pure-Python grouping, for reports whose
violations are a plain list (reports built by hand). A report backed by the
core provides its own groups, with the same meaning, as a lazy sequence
(``ClashGroups``), without walking every violation.
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

from ._report import Tool, Violation

__all__ = ["ClashGroup", "group_violations", "through"]


class ClashGroup(NamedTuple):
    """CMP-9 violations with one cause: the same ``name``, the same clashing
    tools, reached through the same toolbox."""

    name: str
    tools: Sequence[Tool]
    """The clashing tools, sorted by id, as in the group's first violation
    (so their paths lead to its first consumer)."""
    through: Optional[str]
    """The id of the toolbox, wired into the consumers, that forwards the
    whole clash; None when the tools come by different routes."""
    consumers: Sequence[str]
    """Every consumer the clash reaches, sorted by id. May be a lazy
    sequence with an exact ``len()``: index or slice it, do not walk it."""
    first: Violation
    """The group's first violation (its first consumer): location, fix,
    box labels, help."""

    # Shadows tuple.count(value) on purpose: what a group's count means is
    # how many violations it stands for; nobody counts a group's fields.
    @property
    def count(self) -> int:  # type: ignore[override]
        """How many violations the group stands for (one per consumer)."""
        return len(self.consumers)


def through(tools: Sequence[Tool]) -> Optional[str]:
    """The toolbox every tool's path passes last before the consumer
    (``path[-2]``), when they all have one and it is the same; else None."""
    shared: Optional[str] = None
    for tool in tools:
        if len(tool.path) < 3:
            return None
        box = tool.path[-2]
        if shared is None:
            shared = box
        elif box != shared:
            return None
    return shared


_Key = Tuple[str, Tuple[str, ...], Optional[str]]


def group_violations(violations: Sequence[Violation]) -> List[ClashGroup]:
    """The CMP-9 violations of ``violations`` grouped by (name, tool ids,
    through), in the order of each group's first violation; consumers sorted
    by id. A list, one entry per group: meant for list-backed reports, whose
    violations are all in memory already."""
    firsts: Dict[_Key, Violation] = {}
    consumers: Dict[_Key, List[str]] = {}
    for violation in violations:
        if violation.rule != "CMP-9" or violation.consumer is None or violation.name is None:
            continue
        key = (violation.name, tuple(t.id for t in violation.tools), through(violation.tools))
        if key not in firsts:
            firsts[key] = violation
            consumers[key] = []
        consumers[key].append(violation.consumer)
    return [ClashGroup(key[0], first.tools, key[2], sorted(consumers[key]), first) for key, first in firsts.items()]
