"""The progress bar: drawn on a terminal only, throttled, erased on close;
and the bar of ``toolwire generate``."""

from __future__ import annotations

import functools
import io
from pathlib import Path
from typing import Any, List

import pytest

from test_generate import MIXES
import toolwire.cli
from toolwire import generate as gen
from toolwire._progress import Progress, chunks
from toolwire.generate import command
from toolwire.generate.plan import Plan
from toolwire.generate.writer import generate_plan

ERASE = "\r\x1b[K"


class Clock:
    """A monotonic clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def drawn(text: str) -> List[str]:
    """The lines a terminal showed, one per redraw."""
    return [line for line in text.replace(ERASE, "").split("\r") if line]


def test_the_bar_shows_count_unit_bar_and_percentage() -> None:
    bar = Progress(1000, "checking", io.StringIO(), enabled=True, unit="files")
    bar.advance(412)
    assert bar.line() == "checking  412/1000 files [========>           ] 41%"
    bar.advance(588)
    assert bar.line() == "checking 1000/1000 files [====================] 100%"


def test_a_total_that_fell_short_never_overflows_the_bar() -> None:
    bar = Progress(10, "generating", io.StringIO(), enabled=True)
    bar.advance(15)
    assert bar.line() == "generating 10/10 [====================] 100%"
    assert Progress(0, "checking", io.StringIO(), enabled=True).line() == "checking 0/0 [====================] 100%"


def test_redraws_at_most_once_per_interval_and_erases_the_line_on_close() -> None:
    clock, out = Clock(), io.StringIO()
    with Progress(100, "checking", out, enabled=True, clock=clock) as bar:
        bar.advance(10)  # too soon after the start: a fast run never draws
        assert out.getvalue() == ""
        clock.now += 0.1
        bar.advance(10)
        clock.now += 0.05
        bar.advance(10)  # within the interval of the last redraw
        clock.now += 0.05
        bar.advance(10)
        assert drawn(out.getvalue()) == ["checking  20/100 [====>               ] 20%", "checking  40/100 [========>           ] 40%"]
        assert out.getvalue().startswith("\r") and not out.getvalue().endswith(ERASE)
    assert out.getvalue().endswith(ERASE)


def test_a_bar_never_drawn_writes_nothing_on_close() -> None:
    out = io.StringIO()
    with Progress(100, "checking", out, enabled=True, clock=Clock()) as bar:
        bar.advance(100)
    assert out.getvalue() == ""


def test_the_line_is_erased_when_the_work_fails() -> None:
    clock, out = Clock(), io.StringIO()
    with pytest.raises(KeyboardInterrupt), Progress(10, "checking", out, enabled=True, clock=clock) as bar:
        clock.now += 1
        bar.advance()
        raise KeyboardInterrupt
    assert out.getvalue().endswith(ERASE)


def test_close_is_idempotent_and_a_closed_bar_stays_quiet() -> None:
    clock, out = Clock(), io.StringIO()
    bar = Progress(10, "checking", out, enabled=True, clock=clock)
    clock.now += 1
    bar.advance()
    bar.close()
    bar.close()
    clock.now += 1
    bar.advance()
    assert out.getvalue().count(ERASE) == 1 and len(drawn(out.getvalue())) == 1


def test_a_disabled_bar_writes_nothing_but_still_counts() -> None:
    clock, out = Clock(), io.StringIO()
    with Progress(10, "checking", out, enabled=False, clock=clock) as bar:
        clock.now += 1
        bar.advance(3)
    assert out.getvalue() == "" and bar.done == 3


def test_by_default_it_draws_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm-256color")
    assert not Progress(1, "x", io.StringIO()).enabled  # a pipe, a file, a CI log
    assert Progress(1, "x", Terminal()).enabled
    monkeypatch.setenv("TERM", "dumb")  # cannot erase a line
    assert not Progress(1, "x", Terminal()).enabled


def test_by_default_it_draws_on_the_standard_error_of_the_moment(capsys: pytest.CaptureFixture[str]) -> None:
    clock = Clock()
    with Progress(2, "checking", enabled=True, clock=clock) as bar:
        clock.now += 1
        bar.advance()
    assert capsys.readouterr().err == "\rchecking 1/2 [==========>         ] 50%" + ERASE


def test_a_line_wider_than_the_terminal_is_cut_rather_than_wrapped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("toolwire._progress._columns", lambda stream: 30)
    clock, out = Clock(), Terminal()
    bar = Progress(1000, "checking", out, enabled=True, clock=clock, unit="files")
    clock.now += 1
    bar.advance()
    assert drawn(out.getvalue()) == ["checking    1/1000 files [>  "]


def test_chunks_cover_the_items_in_order() -> None:
    assert list(chunks([1, 2, 3, 4, 5], 2)) == [[1, 2], [3, 4], [5]]
    assert list(chunks(["a"], 10)) == [["a"]]
    assert list(chunks([], 3)) == []
    with pytest.raises(ValueError):
        list(chunks([1], 0))


# -- toolwire generate ----------------------------------------------------------


@pytest.mark.parametrize("options", [*MIXES, "small", "medium-scaled", "deep-scaled"])
def test_generate_counts_its_records_before_writing_them(options: str) -> None:
    # The bar's total is the exact number of records the writer reports as it goes.
    chosen = {
        **MIXES,
        "small": gen.PRESETS["small"],
        "medium-scaled": gen.PRESETS["medium"].scaled(0.05),
        "deep-scaled": gen.PRESETS["deep"].scaled(0.02),
    }[options]
    plan = Plan(chosen, 7)
    written: List[int] = []
    expected = generate_plan(io.BytesIO(), plan, written.append)
    assert plan.records() == expected.nodes + expected.edges == sum(written)


def test_generate_advances_once_per_chunk_not_per_record() -> None:
    plan = Plan(gen.PRESETS["medium"].scaled(0.5), 0)
    written: List[int] = []
    generate_plan(io.BytesIO(), plan, written.append)
    assert len(written) < plan.records() // 1000


def test_generate_draws_its_bar_on_a_terminal_and_erases_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setenv("TERM", "xterm")
    # Every clock reading is a tenth of a second later: each chunk redraws.
    ticks = iter(range(10**6))
    monkeypatch.setattr(command, "Progress", functools.partial(Progress, clock=lambda: next(ticks) / 10))
    assert toolwire.cli.main(["generate", "--preset", "medium", "--scale", "0.2", str(tmp_path / "w.json")]) == 0
    text = terminal.getvalue()
    lines = drawn(text.rsplit(ERASE, 1)[0])
    assert lines and all(line.startswith("generating ") and " nodes and edges [" in line for line in lines)
    assert text.rsplit(ERASE, 1)[1].startswith(f"{tmp_path / 'w.json'}: ")  # the summary, on a clean line


def test_generate_draws_nothing_when_standard_error_is_not_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert toolwire.cli.main(["generate", "--preset", "small", str(tmp_path / "w.json")]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err and "\x1b" not in err and err.count("\n") == 1


def test_check_with_a_bar_keeps_a_site_larger_than_a_chunk_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The bar moves batch by batch; a site is one batch, however large, or
    # a clash across its calls would be lost between two (SEMANTICS 12).
    from toolwire import _check_command
    from toolwire.generate import sites

    site = sites.SITES["fan-in"].build(3 * _check_command._PROGRESS_CHUNK)
    site.write(tmp_path / "site")
    plain = tmp_path / "plain"
    plain.mkdir()
    for i in range(2 * _check_command._PROGRESS_CHUNK):
        (plain / f"w{i:03}.json").write_text('{"nodes": [], "edges": []}', encoding="utf-8")
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setenv("TERM", "xterm")
    ticks = iter(range(10**6))
    monkeypatch.setattr(_check_command, "Progress", functools.partial(Progress, clock=lambda: next(ticks) / 10))
    argv = ["check", "--format", "json", str(tmp_path / "site"), str(plain)]
    assert toolwire.cli.main(argv) == 1
    document = json_of(capsys.readouterr().out)
    assert sum(f["call_count"] for f in document["files"]) == 1
    chunk = _check_command._PROGRESS_CHUNK
    site_files, total = 3 * chunk + 1, 3 * chunk + 1 + 2 * chunk
    # The site in one step, then the plain files a chunk at a time.
    counts = [line.split()[1] for line in drawn(terminal.getvalue().rsplit(ERASE, 1)[0])]
    assert counts == [f"{done}/{total}" for done in (site_files, site_files + chunk, total)]


def json_of(text: str) -> Any:
    import json

    return json.loads(text)
