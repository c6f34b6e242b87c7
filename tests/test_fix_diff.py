"""``toolwire check --diff``: the unified diff is written from the fix's
edits (``_fix.unified_diff``), in time linear in the file, and is what
``difflib.unified_diff`` wrote before it, byte for byte.

difflib matches the file's lines, which is quadratic on a file whose changed
lines sit between unique unchanged ones (one node per line, every other one
renamed: 234 s at 6.7 MB). The edits say where the changes are, so no
matching is needed. Compared here with difflib on random small files with
random edits of the shapes a fix makes, and on the fixes of the repository's
fixtures and of every generated family, in several layouts; and, with edits
of any shape on files of repeated lines (where difflib may pair lines
otherwise), shown to be a diff that applies and gives the fixed text.
"""

from __future__ import annotations

import difflib
import json
import random
import re
from pathlib import Path
from typing import Iterator, List, Sequence, Tuple

import pytest

import toolwire
from toolwire._fix import Edit, FixError, _applied, _lines, fix_text, unified_diff
from toolwire.generate import FAMILIES
from support import DATA, SHARED


def by_difflib(path: str, before: str, after: str, autojunk: bool = True) -> str:
    """The diff as ``--diff`` wrote it with difflib: ``difflib.unified_diff``
    (``autojunk=False``: the same but with no line treated as junk, written
    here from difflib's grouped opcodes as ``unified_diff`` writes them)."""
    a, b = _lines(before), _lines(after)
    if autojunk:
        lines: Iterator[str] = difflib.unified_diff(a, b, path, path)
    else:
        lines = _unified(path, a, b)
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def _unified(path: str, a: List[str], b: List[str]) -> Iterator[str]:
    def span(start: int, stop: int) -> str:
        length = stop - start
        return str(start + 1) if length == 1 else f"{start + 1 if length else start},{length}"

    groups = list(difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(3))
    if groups:
        yield f"--- {path}\n"
        yield f"+++ {path}\n"
    for group in groups:
        yield f"@@ -{span(group[0][1], group[-1][2])} +{span(group[0][3], group[-1][4])} @@\n"
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                yield from (" " + line for line in a[i1:i2])
                continue
            yield from ("-" + line for line in a[i1:i2])
            yield from ("+" + line for line in b[j1:j2])


def patched(before: str, diff: str) -> str:
    """``before`` with the unified diff applied, each context and removed
    line checked against it."""
    old = _lines(before)
    out: List[str] = []
    lines = diff.splitlines(keepends=True)
    assert lines[:2] == ["--- p\n", "+++ p\n"]
    at, k = 0, 2
    while k < len(lines):
        header = re.fullmatch(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@\n", lines[k])
        assert header is not None, lines[k]
        start = int(header[1]) - (0 if header[2] == "0" else 1)
        assert start >= at
        out.extend(old[at:start])
        at = start
        k += 1
        while k < len(lines) and not lines[k].startswith("@@"):
            line = lines[k]
            cut = k + 1 < len(lines) and lines[k + 1] == "\\ No newline at end of file\n"
            body = line[1:-1] if cut else line[1:]
            if line[0] in " -":
                assert old[at] == body
                at += 1
            if line[0] in " +":
                out.append(body)
            k += 2 if cut else 1
    out.extend(old[at:])
    return "".join(out)


def _fix_shaped(rng: random.Random, size: int) -> Tuple[str, List[Edit]]:
    """A file of unique lines, some shaped like a workflow's, and the edits
    a fix makes: a qualifier added to a label, a label's string replaced, a
    member inserted in a line of its own (before the first member of an
    object, after its indent), at most one edit per line."""
    lines = []
    for i in range(size):
        lines.append(rng.choice([f'    "label": "L{i}",', f'  {{"id": "n{i}", "data": {{"label": "L{i}"}}}},', f"  x{i}"]))
    text = "\n".join(lines) + ("\n" if rng.random() < 0.8 else "")
    edits: List[Edit] = []
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    for i in sorted(rng.sample(range(size), rng.randrange(0, size + 1))):
        line, start = lines[i], starts[i]
        quote = line.find('"L')
        kind = rng.randrange(3)
        if kind == 0 and quote >= 0:
            end = line.index('"', quote + 1)
            edits.append(Edit(start + end, start + end, f" (q{i})"))
        elif kind == 1 and quote >= 0:
            end = line.index('"', quote + 1) + 1
            edits.append(Edit(start + quote, start + end, f'"New {i}"'))
        else:
            indent = len(line) - len(line.lstrip())
            edits.append(Edit(start + indent, start + indent, f'"data": {{"label": "M{i}"}},\n' + " " * indent))
    return text, edits


@pytest.mark.parametrize("seed", range(4))
def test_diff_is_difflibs_on_random_files_with_the_edits_a_fix_makes(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(1_000):
        # Under 200 lines, where difflib treats no line as junk.
        text, edits = _fix_shaped(rng, rng.randrange(1, 60))
        after = _applied(text, edits)
        assert unified_diff("p", text, edits) == by_difflib("p", text, after)


@pytest.mark.parametrize("seed", range(4))
def test_diff_of_any_edits_applies_and_gives_the_fixed_text(seed: int) -> None:
    """Edits of any shape (adding or taking line breaks, several at one
    place) on files of repeated lines, where difflib may pair lines
    otherwise: the diff still applies to the file and gives the text the
    edits make."""
    rng = random.Random(seed)
    for _ in range(1_000):
        size = rng.randrange(0, 25)
        text = "\n".join(rng.choice(["a", "b", "}", "  },", ""]) for _ in range(size))
        if size and rng.random() < 0.8:
            text += "\n"
        places = sorted(rng.randrange(0, len(text) + 1) for _ in range(2 * rng.randrange(0, 6)))
        edits = []
        for start, end in zip(places[::2], places[1::2]):
            end = start if rng.random() < 0.4 else end
            edits.append(Edit(start, end, rng.choice(["", "a", "\n", "a\n", "\nb", "}\n", "c\nd"])))
        after = _applied(text, edits)
        diff = unified_diff("p", text, edits)
        if after == text:
            assert diff == ""
        else:
            assert patched(text, diff) == after


def _layouts(data: bytes) -> Iterator[str]:
    """The file as it is, indented by 2 and by 4 (ASCII only), and on one line."""
    text = data.decode("utf-8")
    yield text
    document = json.loads(text)
    yield json.dumps(document, indent=2)
    yield json.dumps(document, indent=4, ensure_ascii=True) + "\n"
    yield json.dumps(document)


def _workflows() -> Iterator[Tuple[str, bytes]]:
    for path in sorted(DATA.glob("*.json")):
        yield path.name, path.read_bytes()
    for path in sorted((SHARED / "real-workflows").glob("*.json")):
        yield path.name, path.read_bytes()
    for name, family in FAMILIES.items():
        for n in (2, 4, 6):
            try:
                data, _ = family.build(n)
            except ValueError:
                continue  # a size the family is not built at
            if len(data) < 60_000:  # difflib, the reference, is quadratic
                yield f"{name}({n})", data


def test_diff_is_difflibs_on_the_fixes_of_fixtures_and_families() -> None:
    """Every fix of the fixtures, the real workflows and every family, laid
    out four ways: the diff is difflib's; on files of 200 lines or more,
    that of difflib with no line taken as junk (difflib's ``autojunk``
    leaves lines found more than once in a hundred, ``}`` and the like, out
    of its matching, and then may show a stretch of unchanged lines as
    removed and added again: the diff from the edits does not)."""
    fixes = 0
    for name, data in _workflows():
        for text in _layouts(data):
            try:
                fix = fix_text(text, toolwire.check_json(text.encode("utf-8")))
            except FixError:
                continue
            if fix.after == fix.before:
                continue
            fixes += 1
            diff = unified_diff("p", fix.before, fix.edits)
            autojunk = len(_lines(fix.before)) < 200
            assert diff == by_difflib("p", fix.before, fix.after, autojunk), name
    assert fixes > 500


def test_diff_matches_no_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """One node per line, every other line renamed: what made difflib
    quadratic. The diff is written without difflib."""

    def no_matching(*args: object, **kwargs: object) -> None:
        raise AssertionError("the diff is written from the edits")

    nodes = [{"id": "agent", "type": "ai_agent"}]
    edges = []
    for i in range(300):
        nodes += [{"id": f"a{i}", "data": {"label": f"X {i}"}}, {"id": f"b{i}", "data": {"label": f"X {i}"}}]
        edges += [{"source": t, "target": "agent", "data": {"edgeType": "tool_availability"}} for t in (f"a{i}", f"b{i}")]
    text = '{"nodes": [\n' + ",\n".join(map(json.dumps, nodes)) + "\n],\n"
    text += '"edges": [\n' + ",\n".join(map(json.dumps, edges)) + "\n]}\n"
    fix = fix_text(text, toolwire.check_json(text.encode("utf-8")))
    expected = by_difflib("p", fix.before, fix.after, autojunk=False)
    monkeypatch.setattr(difflib, "SequenceMatcher", no_matching)
    assert len(fix.edits) == 300
    assert unified_diff("p", fix.before, fix.edits) == expected
