"""What toolwire must report on a generated workflow (:class:`Expected`),
known by construction; millions of violations kept as products
(:class:`ViolationGrid`) rather than listed."""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Iterator, List, Protocol, Sequence, Tuple, Union, overload

ExpectedViolation = Tuple[str, str, Tuple[str, ...]]


@dataclass(frozen=True)
class ViolationGrid:
    """Violations at every consumer of ``consumers`` for every name of
    ``names``: a product kept as one, since it can be far larger than the
    workflow (``clash-fanout``: 10,000 consumers times 1,000 names)."""

    consumers: Tuple[str, ...]
    """Consumer ids, sorted."""
    names: Tuple[Tuple[str, Tuple[str, ...]], ...]
    """``(name, sorted tool ids)`` pairs, sorted by name; the tools of a name
    are the same at every consumer."""

    def __len__(self) -> int:
        return len(self.consumers) * len(self.names)

    def __iter__(self) -> Iterator[ExpectedViolation]:
        names = self.names
        for consumer in self.consumers:
            for name, tools in names:
                yield consumer, name, tools

    def __getitem__(self, i: int) -> ExpectedViolation:
        c, k = divmod(i, len(self.names))
        name, tools = self.names[k]
        return self.consumers[c], name, tools

    def to_dict(self) -> Dict[str, Any]:
        return {"consumers": list(self.consumers), "names": [{"name": n, "tools": list(t)} for n, t in self.names]}

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> ViolationGrid:
        return cls(tuple(data["consumers"]), tuple((n["name"], tuple(n["tools"])) for n in data["names"]))


class ExpectedViolations(Sequence[ExpectedViolation]):
    """Sorted violations, held compactly: a list of some, plus grids of the
    rest (:class:`ViolationGrid`), merged in order when iterated. It equals
    any sequence with the same items in the same order (a list included), so
    ``found(report) == expected.violations`` works either way; iterating it
    never builds the whole list."""

    __slots__ = ("listed", "grids", "_len")

    def __init__(self, listed: Sequence[ExpectedViolation], grids: Sequence[ViolationGrid]) -> None:
        self.listed = list(listed)
        self.grids = [g for g in grids if len(g)]
        self._len = len(self.listed) + sum(len(g) for g in self.grids)

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[ExpectedViolation]:
        parts: List[Iterable[ExpectedViolation]] = list(self.grids)
        if self.listed:
            parts.insert(0, self.listed)
        if len(parts) == 1:
            return iter(parts[0])
        # Keys (consumer, name) are unique across the parts, so the merge
        # never compares tool tuples.
        return heapq.merge(*parts)

    @overload
    def __getitem__(self, i: int) -> ExpectedViolation: ...

    @overload
    def __getitem__(self, i: slice) -> List[ExpectedViolation]: ...

    def __getitem__(self, i: Union[int, slice]) -> Union[ExpectedViolation, List[ExpectedViolation]]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("violation index out of range")
        if not self.grids:
            return self.listed[i]
        if not self.listed and len(self.grids) == 1:
            return self.grids[0][i]
        return next(itertools.islice(iter(self), i, None))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ExpectedViolations) and (self.listed, self.grids) == (other.listed, other.grids):
            return True
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)) or len(other) != self._len:
            return False
        return all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<ExpectedViolations: {self._len} ({len(self.listed)} listed, {len(self.grids)} grids)>"


class Counts(Protocol):
    """What an expectation counts of the workflow, as ``toolwire.Stats`` does."""

    @property
    def nodes(self) -> int: ...
    @property
    def edges(self) -> int: ...
    @property
    def tool_edges(self) -> int: ...
    @property
    def consumers(self) -> int: ...
    @property
    def passthroughs(self) -> int: ...


def stats_of(counts: Counts) -> Dict[str, int]:
    """``counts``, shaped like ``toolwire.Stats.to_dict()``."""
    return {
        "nodes": counts.nodes,
        "edges": counts.edges,
        "tool_edges": counts.tool_edges,
        "consumers": counts.consumers,
        "passthroughs": counts.passthroughs,
    }


@dataclass(frozen=True)
class Expected:
    """What toolwire must report on the generated workflow."""

    violations: Sequence[ExpectedViolation]
    """CMP-9 only, as ``(consumer id, name, sorted tool ids)``, sorted by
    consumer then name. The generator writes no EDGE-5 violation. A list,
    or, when the workflow has a clash box or chain (``clash_pairs``,
    ``chain_depth``), an :class:`ExpectedViolations`: millions of violations
    are then known without being listed."""
    nodes: int
    """Declared nodes."""
    edges: int
    """All edges."""
    tool_edges: int
    """Edges classified as tool wiring."""
    consumers: int
    """Non-passthrough nodes receiving at least one tool edge."""
    passthroughs: int
    """Declared passthrough nodes."""

    @property
    def violation_count(self) -> int:
        return len(self.violations)

    def stats(self) -> Dict[str, int]:
        """The counts, shaped like ``toolwire.Stats.to_dict()``."""
        return stats_of(self)

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready. ``violations`` lists violations one by one; when there
        are grids, ``violation_grids`` holds the rest (each: every consumer
        of ``consumers`` has a violation for every entry of ``names``), and
        ``violation_count`` is always the total."""
        if isinstance(self.violations, ExpectedViolations):
            listed, grids = self.violations.listed, self.violations.grids
        else:
            listed, grids = list(self.violations), []
        data: Dict[str, Any] = {"violations": [{"consumer": c, "name": n, "tools": list(t)} for c, n, t in listed]}
        if grids:
            data["violation_grids"] = [g.to_dict() for g in grids]
        data["violation_count"] = len(self.violations)
        data["stats"] = self.stats()
        return data

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> Expected:
        violations: Sequence[ExpectedViolation] = [(v["consumer"], v["name"], tuple(v["tools"])) for v in data["violations"]]
        grids = [ViolationGrid.from_dict(g) for g in data.get("violation_grids", [])]
        if grids:
            violations = ExpectedViolations(violations, grids)
        return cls(violations=violations, **data["stats"])

