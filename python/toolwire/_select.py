"""Which codes a ``toolwire check`` run reports: ``--select``, ``--ignore``
and ``--quiet``, and the ``select``, ``ignore`` and ``quiet`` keys of
``[tool.toolwire]``, in the manner of ruff.

A selector is a code (``CMP-9``, ``EDGE-5``, ``R8``, ``NAME-LOSSY``,
``NAME-UNNAMED``: the keys of ``_rules.RULES``) or a family, the part of
codes before their last ``-`` (``CMP``, ``EDGE``, ``NAME``), standing for
every code of it; letter case does not matter. A selector that names no
code is an error, so a typo cannot silently report nothing.

What is left out by ``--ignore`` (or not named by ``--select``) is as if
the check had not looked for it: it is not listed, not counted and does not
fail the run, in every format. ``--quiet`` is different: warnings are not
listed, but they are still counted, and under ``--strict`` (where they fail
the file) they are listed anyway, since a failure must show its cause.

Violations are filtered without reading them (EDGE-5 ones lead the
report, CMP-9 ones follow); warnings are read once, their codes only kept
with the positions of the ones reported, so the warnings of a filtered
report are still read from the core as they are written.
"""

from __future__ import annotations

import json
from array import array
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Dict, FrozenSet, Iterable, Iterator, List, Optional, Sequence, Tuple, TypeVar, Union, overload

from ._records import Violation, WiringWarning
from ._report import Report, Violations, edge5_count, edge5_prefix, violations_from, violations_without
from ._rules import RULES

__all__ = ["CODES", "FAMILIES", "Selection", "SelectorError", "code_counts", "parse", "selected", "unknown"]

CODES: Tuple[str, ...] = tuple(RULES)
"""Every code a selector can name, in the order of ``_rules.RULES``: the
order the counts are given in."""

FAMILIES: Dict[str, Tuple[str, ...]] = {
    family: tuple(code for code in CODES if code.rsplit("-", 1)[0] == family)
    for family in dict.fromkeys(code.rsplit("-", 1)[0] for code in CODES if "-" in code)
    if family not in RULES and not any(family.startswith(f"{code}-") for code in RULES)
}
"""``NAME`` -> ``("NAME-LOSSY", "NAME-UNNAMED")``: each family of codes by
the part before their last ``-``. (R8 has no ``-``, so no family; nor have
CMP-10-UNKNOWN and CMP-9-PORT, whose family would be a code, nor
CMP-9-CALL-UNKNOWN, whose family would be a code's name and more: a
warning of a code is no member of the code's family, as ruff has it.)"""


class SelectorError(ValueError):
    """A selector that names no code, or an empty one; the message says
    which and lists the codes there are."""


def known() -> str:
    """The codes and families there are, for messages."""
    return f"codes: {', '.join(CODES)}; families: {', '.join(FAMILIES)}"


def expand(selector: str) -> Tuple[str, ...]:
    """The codes ``selector`` names (a code or a family, any case); empty
    when it names none."""
    wanted = selector.strip().upper()
    if wanted in RULES:
        return (wanted,)
    return FAMILIES.get(wanted, ())


def unknown(selectors: Iterable[str]) -> Optional[str]:
    """The first selector that names no code, or None."""
    for selector in selectors:
        if not expand(selector):
            return selector
    return None


def parse(text: str) -> List[str]:
    """The comma-separated selectors of ``--select`` or ``--ignore``,
    checked. Raises SelectorError naming the selector at fault."""
    selectors = [item.strip() for item in text.split(",")]
    if not any(selectors):
        raise SelectorError(f"no code given ({known()})")
    if not all(selectors):
        raise SelectorError(f"an empty code in {json.dumps(text)} ({known()})")
    bad = unknown(selectors)
    if bad is not None:
        raise SelectorError(f"unknown code {json.dumps(bad)} ({known()})")
    return selectors


Layer = Tuple[Optional[Sequence[str]], Optional[Sequence[str]]]
"""A ``select`` (None: not given) and an ``ignore`` of one source."""


def selected(layers: Sequence[Layer]) -> Tuple[str, ...]:
    """The codes reported, from the configuration file's layer, then the
    command line's: in each, a ``select`` starts again from the codes it
    names and an ``ignore`` takes codes away from what is selected so far.
    So ``--select`` on the command line replaces the file's selection,
    ``--ignore`` narrows whatever is selected, and a code the file ignores
    comes back when the command line selects it."""
    codes = set(CODES)
    for select, ignore in layers:
        if select is not None:
            codes = {code for selector in select for code in expand(selector)}
        for selector in ignore or ():
            codes.difference_update(expand(selector))
    return tuple(code for code in CODES if code in codes)


@dataclass(frozen=True)
class Selection:
    """The codes a run reports, applied to its reports."""

    codes: Tuple[str, ...] = CODES

    @property
    def left_out(self) -> FrozenSet[str]:
        """Known codes not reported. A code the selectors cannot name (none
        today) is always reported: no finding disappears unasked."""
        return frozenset(CODES) - frozenset(self.codes)

    def apply(self, report: Report) -> Report:
        """``report`` without the findings whose codes are left out. A file
        that could not be checked is reported whatever is selected."""
        out = self.left_out
        if report.error is not None or not out:
            return report
        violations = _violations(report.violations, "EDGE-5" not in out, "CMP-10" not in out, "CMP-9" not in out)
        warnings = report.warnings
        if out & {w for w in CODES if RULES[w].level == "warning"}:
            warnings = Picked.of(report.warnings, lambda w: w.code not in out)
        # A call finding is a CMP-9 clash (across calls): it goes with CMP-9.
        calls = report.calls if "CMP-9" not in out else ()
        return Report(violations, warnings, report.stats, report.path, report.error, calls)


def _violations(violations: Sequence[Violation], edge5: bool, cmp10: bool, cmp9: bool) -> Sequence[Violation]:
    """The EDGE-5, CMP-10 and CMP-9 violations asked for. EDGE-5 ones lead
    a report from a check, CMP-10 ones follow (both found by bisection, as
    the formats find them), so the CMP-9 ones are the lazy rest of it and
    still group into clashes; a hand-built report's list is filtered."""
    if edge5 and cmp10 and cmp9:
        return violations
    kept = {rule for rule, keep in (("EDGE-5", edge5), ("CMP-10", cmp10), ("CMP-9", cmp9)) if keep}
    if not isinstance(violations, Violations):
        return [v for v in violations if v.rule in kept]
    edge5_only = edge5_count(violations, past="EDGE-5")
    leading = edge5_count(violations)
    if cmp9:
        if edge5 and not cmp10:
            return violations_without(violations, edge5_only, leading)
        return violations_from(violations, edge5_only if cmp10 else leading)
    return [v for v in (violations[i] for i in range(leading)) if v.rule in kept]


_T = TypeVar("_T")


class Picked(Sequence[_T]):
    """Some items of a sequence, by position, read from it when they are
    read from here: the warnings of a report that a selection keeps.
    ``counts`` holds how many of each code were kept, counted as they were
    picked, so the run's counts need not read them again."""

    _RUN = 4096
    """Items read from the sequence at a time while iterating."""

    def __init__(self, items: Sequence[_T], positions: "array[int]", counts: Dict[str, int]) -> None:
        self._items = items
        self._positions = positions
        self.counts = counts

    @classmethod
    def of(cls, warnings: Sequence[WiringWarning], keep: Callable[[WiringWarning], bool]) -> "Picked[WiringWarning]":
        positions: "array[int]" = array("q")
        counts: Counter[str] = Counter()
        for index, warning in enumerate(warnings):
            if keep(warning):
                positions.append(index)
                counts[warning.code] += 1
        return Picked(warnings, positions, dict(counts))

    def __len__(self) -> int:
        return len(self._positions)

    @overload
    def __getitem__(self, index: int) -> _T: ...
    @overload
    def __getitem__(self, index: slice) -> List[_T]: ...
    def __getitem__(self, index: Union[int, slice]) -> Union[_T, List[_T]]:
        if isinstance(index, slice):
            return list(self._read(self._positions[index]))
        return self._items[self._positions[index]]

    def __iter__(self) -> Iterator[_T]:
        return self._read(self._positions)

    def _read(self, positions: Sequence[int]) -> Iterator[_T]:
        """The items at ``positions`` (ascending), each stretch of adjacent
        ones read in one slice."""
        start = 0
        while start < len(positions):
            stop = start + 1
            while stop < len(positions) and stop - start < self._RUN and positions[stop] == positions[stop - 1] + 1:
                stop += 1
            yield from self._items[positions[start] : positions[stop - 1] + 1]
            start = stop

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{len(self)} of {len(self._items)} picked>"


def code_counts(reports: Sequence[Report]) -> Dict[str, int]:
    """How many findings of each code the reports hold, over every file:
    violations (a CMP-9 clash at 10,000 consumers counts 10,000; a call
    finding counts one), then
    warnings, in the order of ``CODES`` (a code the selectors do not know
    after them, alphabetically); codes with none are left out. Counting
    CMP-9 and EDGE-5 reads no violation; counting warnings reads each once
    unless a selection has counted them already."""
    counts: Counter[str] = Counter()
    for report in reports:
        if report.error is not None:
            continue
        alone, leading = edge5_prefix(report)  # by bisection, as the formats count them
        # A hand-built report's list holds only those that stand alone, in
        # any order; a lazy sequence is bisected again, reading O(log n).
        edge5 = sum(1 for v in alone if v.rule == "EDGE-5") if isinstance(alone, list) else edge5_count(
            alone, past="EDGE-5"
        )
        counts["EDGE-5"] += edge5
        counts["CMP-10"] += leading - edge5
        # A call finding counts once, however many chains of calls bring it.
        counts["CMP-9"] += report.violation_count - leading + len(report.calls)
        warnings = report.warnings
        if isinstance(warnings, Picked):
            counts.update(warnings.counts)
        else:
            counts.update(w.code for w in warnings)
    order = {code: i for i, code in enumerate(CODES)}
    ranked = sorted((code for code, n in counts.items() if n), key=lambda c: (order.get(c, len(order)), c))
    return {code: counts[code] for code in ranked}

