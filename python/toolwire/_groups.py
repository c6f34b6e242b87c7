"""Violations grouped for reports that show a shared clash once.

Violations are one group when they have the same name and the same clashing
tools, reached through the same toolbox: one toolbox of clashing tools wired
into 10,000 agents is one group of 10,000 consumers, not 10,000 findings.
Reports from the core come grouped already (``Report.clash_groups``); this
module groups plain lists, as tests and hand-made reports have them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

if TYPE_CHECKING:
    from ._report import Tool, Violation


class ClashGroup(NamedTuple):
    """CMP-9 violations with the same name and clashing tools, reached
    through the same toolbox."""

    name: str
    tools: Sequence["Tool"]
    """As in the group's first violation: paths lead to its first consumer."""
    through: Optional[str]
    """The toolbox, wired into every consumer of the group, that forwards the
    whole clash; None when the tools come by different routes."""
    consumers: Sequence[str]
    """By id; read on access, with an exact ``len()``."""
    first: "Violation"
    """The group's first violation (its consumer, location, fix, labels)."""

    @property
    def count(self) -> int:
        return len(self.consumers)


def _through(violation: "Violation") -> Optional[str]:
    """The toolbox just before the consumer on every tool's path, if one."""
    boxes = {tuple(t.path[-2:-1]) if len(t.path) >= 3 else None for t in violation.tools}
    if len(boxes) == 1:
        only = boxes.pop()
        return only[0] if only else None
    return None


def group_violations(violations: Sequence["Violation"]) -> Iterator[ClashGroup]:
    """Groups the CMP-9 violations of a list, in the order of each group's
    first violation. Holds one entry per group."""
    order: List[Tuple[str, Tuple[str, ...], Optional[str]]] = []
    members: Dict[Tuple[str, Tuple[str, ...], Optional[str]], List["Violation"]] = {}
    for v in violations:
        if v.rule != "CMP-9" or v.name is None or v.consumer is None:
            continue
        key = (v.name, tuple(t.id for t in v.tools), _through(v))
        if key not in members:
            members[key] = []
            order.append(key)
        members[key].append(v)
    for key in order:
        group = members[key]
        first = group[0]
        consumers = sorted(v.consumer for v in group if v.consumer is not None)
        yield ClashGroup(name=key[0], tools=first.tools, through=key[2], consumers=consumers, first=first)
