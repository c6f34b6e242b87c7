"""The README's examples run, and say what toolwire really prints, so the
documentation cannot drift from the code."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import mypy.api
import pytest

from toolwire import cli

README = Path(__file__).resolve().parent.parent / "README.md"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def _expected_lines(block: str) -> list[str]:
    """What a block says it prints: the comment after a `print(...)` call, and
    comment lines right below a line that prints (output of a loop)."""
    expected = []
    printing = False
    for line in block.splitlines():
        code, _, comment = line.partition("  # ")
        stripped = line.strip()
        if "print(" in code and comment:
            expected.append(comment.strip())
            printing = True
        elif printing and stripped.startswith("# "):
            expected.append(stripped[2:])
        else:
            printing = "print(" in line
    return expected


@pytest.mark.parametrize("index", range(len(_blocks("python"))))
def test_readme_python_examples_print_what_they_say(index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(README.parent)
    block = _blocks("python")[index]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, f"README.md python block {index}", "exec"), {})
    printed = out.getvalue().splitlines()
    expected = _expected_lines(block)
    assert expected, "each example documents its output"
    assert printed == expected


def test_readme_python_examples_type_check_under_strict_mypy(tmp_path: Path) -> None:
    # A user who copies an example into a typed code base gets it past mypy
    # --strict unchanged: the package's annotations really cover what the
    # README shows. Each block is its own module, as each runs in a fresh
    # namespace, padded with blank lines so that mypy's line numbers are
    # README.md's. No configuration file: the examples are checked as they
    # would be in someone else's project.
    text = README.read_text(encoding="utf-8")
    files = []
    for index, match in enumerate(re.finditer(r"```python\n(.*?)```", text, flags=re.S)):
        path = tmp_path / f"readme_block_{index}.py"
        path.write_text("\n" * text.count("\n", 0, match.start(1)) + match.group(1), encoding="utf-8")
        files.append(str(path))
    assert files
    argv = ["--strict", "--config-file", "", "--cache-dir", str(tmp_path / "cache"), *files]
    stdout, stderr, status = mypy.api.run(argv)
    assert status == 0, f"mypy --strict on README.md's examples (line numbers are README.md's):\n{stdout}{stderr}"


@pytest.mark.parametrize("command", ["check", "explain"])
def test_readme_terminal_samples_are_what_the_cli_prints(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(README.parent)
    sample = next(b for b in _blocks("text") if b.startswith(f"$ toolwire {command} "))
    line, *expected = sample.rstrip("\n").split("\n")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = cli.main(shlex.split(line)[2:])
    assert status == (1 if command == "check" else 0)
    printed = out.getvalue().rstrip("\n").split("\n")
    # Byte for byte: nothing in the report changes from run to run.
    assert printed == expected
