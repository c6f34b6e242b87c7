"""The README's examples run, and say what toolwire really prints, so the
documentation cannot drift from the code."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import subprocess
import sys
from pathlib import Path

import mypy.api
import pytest
import yaml

from support import REPO

from toolwire import cli

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

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


# --- installing ----------------------------------------------------------------------

# What `pip install` may be given in the README: this repository (`.`,
# `-e .`, with extras), or toolwire from a git URL whose host and revision
# are visibly placeholders. Never a bare `toolwire`, which names a package
# no index has.
_FROM_SOURCE = re.compile(
    r"pip install (-e )?(\.|'\.\[[a-z,]+\]')(?=[\s`]|$)"
    r'|pip install "toolwire(\[[a-z,]+\])? @ git\+https://(github\.com/OWNER/toolwire@REV|\.\.\.)"'
)


def test_every_pip_install_in_the_readme_installs_from_source() -> None:
    text = README.read_text(encoding="utf-8")
    commands = [m.start() for m in re.finditer(r"pip install ", text)]
    assert len(commands) >= 6
    for start in commands:
        line = text[start : text.index("\n", start)]
        assert _FROM_SOURCE.match(line), f"README.md: {line!r} installs what no package index has"
    # Each extra named is one pyproject.toml declares.
    extras = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    for extra in re.findall(r"\[([a-z]+)\]'|toolwire\[([a-z]+)\]", text):
        assert (extra[0] or extra[1]) in extras


def _tags() -> list[str]:
    done = subprocess.run(["git", "tag"], cwd=REPO, capture_output=True, text=True)
    return done.stdout.split() if done.returncode == 0 else []


def test_the_pre_commit_rev_is_a_placeholder_or_a_tag_that_exists() -> None:
    # pre-commit clones the repository at `rev`: a tag that does not exist
    # (toolwire has made no release) fails the user's first commit.
    blocks = [b for b in _blocks("yaml") if "repos:" in b]
    assert blocks
    manifest = (REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    example = "\n".join(line[2:] for line in manifest.splitlines() if line.startswith("#   "))
    for block in [*blocks, "repos:\n" + example]:
        for repo in yaml.safe_load(block)["repos"]:
            assert repo["rev"] == "REV" or repo["rev"] in _tags(), repo
            assert "OWNER" in repo["repo"]
    assert "a full commit sha" in README.read_text(encoding="utf-8")
