"""What every worst-case family is made of (the registry is :mod:`.families`).

A family's construction returns a :class:`Generated`: the workflow's JSON
bytes, written record by record with the helpers below, and what toolwire
must report on it (:class:`FamilyExpected`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Iterable, NamedTuple

from .expected import ExpectedViolation, stats_of


@dataclass(frozen=True)
class FamilyExpected:
    """What toolwire must report on a family's workflow, from its construction."""

    violations: int
    """CMP-9 violations: one per (consumer, name)."""
    clashes: int
    """Distinct clashes: a name and the set of tools that share it at some
    consumer, however many consumers see it."""
    first: ExpectedViolation
    """The first violation in report order: ``(consumer id, name, tool ids)``,
    the tool ids sorted."""
    nodes: int
    edges: int
    tool_edges: int
    consumers: int
    passthroughs: int

    def stats(self) -> Dict[str, int]:
        """The counts, shaped like ``toolwire.Stats.to_dict()``."""
        return stats_of(self)

    def to_dict(self) -> Dict[str, Any]:
        consumer, name, tools = self.first
        return {
            "violation_count": self.violations,
            "clash_count": self.clashes,
            "first": {"consumer": consumer, "name": name, "tools": list(tools)},
            "stats": self.stats(),
        }

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> FamilyExpected:
        first = data["first"]
        return cls(
            violations=data["violation_count"],
            clashes=data["clash_count"],
            first=(first["consumer"], first["name"], tuple(first["tools"])),
            **data["stats"],
        )


class Generated(NamedTuple):
    """A family's workflow at one size, with what toolwire must report on it."""

    data: bytes
    expected: FamilyExpected


# Every id and label written here is made of ASCII letters, digits, spaces,
# dots, hyphens, tildes and carets, so records are formatted without JSON
# escaping.
_EDGE_TAIL = '","data":{"edgeType":"tool_availability"}}'


def tool_record(node: str, label: str) -> str:
    return f'{{"id":"{node}","type":"tool","data":{{"label":"{label}"}}}}'


def box_record(node: str) -> str:
    return f'{{"id":"{node}","type":"toolbox"}}'


def agent_record(node: str) -> str:
    return f'{{"id":"{node}","type":"agent"}}'


def edge_record(source: str, target: str) -> str:
    return f'{{"source":"{source}","target":"{target}{_EDGE_TAIL}'


def document(nodes: Iterable[str], edges: Iterable[str]) -> bytes:
    # One join per array: the records are built by comprehensions over
    # f-strings, which is what makes a 10 MB file take a fraction of a second.
    return ('{"nodes":[\n' + ",\n".join(nodes) + '\n],\n"edges":[\n' + ",\n".join(edges) + "\n]}\n").encode()


def id_width(count: int) -> int:
    """Digits of the largest of ``count`` numbers from 0: the zero-padded width."""
    return len(str(max(count - 1, 0)))


def family_expected(
    violations: int, clashes: int, first: ExpectedViolation, nodes: int, edges: int, consumers: int, passthroughs: int
) -> FamilyExpected:
    # Every edge a family writes is a tool edge.
    return FamilyExpected(violations, clashes, first, nodes, edges, edges, consumers, passthroughs)
