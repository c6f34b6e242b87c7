"""CMP-9 violations grouped by clash.

One toolbox holding two tools of the same name, wired into 10,000 agents,
makes 10,000 violations (one per consumer and name) with a single cause and
a single fix. A ``ClashGroup`` is that cause, a *clash*: the same name and
the same clashing tools (by id), however each consumer is reached. Every
CMP-9 violation belongs to exactly one group; the report formats show a
group once, naming its consumers, instead of repeating it per consumer.

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
    """CMP-9 violations with one cause: the same ``name`` and the same
    clashing tools, at every consumer they reach together."""

    name: str
    tools: Sequence[Tool]
    """The clashing tools, sorted by id, as in the group's first violation
    (so their paths lead to its first consumer)."""
    through: Optional[str]
    """The id of the toolbox where the clashing tools meet, when they meet in
    one box only; None when they first meet at the consumers themselves, or
    in several places."""
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
    """Where tools meet, read off their paths to one consumer: the first box
    on the first tool's path that is on every other tool's path too (the
    consumer, at the end, is no box); None when there is none. A checked
    report knows more (where the tools meet for every consumer, and whether
    that is one box only); this is for reports built by hand."""
    if not tools:
        return None
    others = [set(tool.path[1:-1]) for tool in tools[1:]]
    for box in tools[0].path[1:-1]:
        if all(box in other for other in others):
            return box
    return None


_Key = Tuple[str, Tuple[str, ...]]


def group_violations(violations: Sequence[Violation]) -> List[ClashGroup]:
    """The CMP-9 violations of ``violations`` grouped by (name, tool ids), in
    the order of each group's first violation; consumers sorted by id;
    ``through`` from the first violation's paths. A list, one entry per
    group: meant for list-backed reports, whose violations are all in memory
    already."""
    firsts: Dict[_Key, Violation] = {}
    consumers: Dict[_Key, List[str]] = {}
    for violation in violations:
        if violation.rule != "CMP-9" or violation.consumer is None or violation.name is None:
            continue
        key = (violation.name, tuple(t.id for t in violation.tools))
        if key not in firsts:
            firsts[key] = violation
            consumers[key] = []
        consumers[key].append(violation.consumer)
    return [
        ClashGroup(key[0], first.tools, through(first.tools), sorted(consumers[key]), first)
        for key, first in firsts.items()
    ]
