"""``[tool.toolwire]`` in pyproject.toml: where it is found, what it may say,
and how a mistake in it is reported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from toolwire._config import ConfigError, Settings, find, load, resolve


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """An empty repository: discovery stops at its root and never wanders
    into whatever sits above the test's temporary directory."""
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    return tmp_path / "repo"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# -- discovery -----------------------------------------------------------------


def test_found_from_a_nested_subdirectory(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = write(repo / "pyproject.toml", "[tool.toolwire]\nstrict = true\n")
    nested = repo / "src" / "flows" / "agents"
    nested.mkdir(parents=True)
    monkeypatch.chdir(nested)
    assert find(Path.cwd()) == config
    assert find(Path(".")) == config  # a relative start is the same place
    assert resolve(None, Path.cwd()) == Settings(strict=True, source=config)


def test_the_nearest_configured_pyproject_wins(repo: Path) -> None:
    write(repo / "pyproject.toml", "[tool.toolwire]\nstrict = true\n")
    inner = write(repo / "sub" / "pyproject.toml", "[tool.toolwire]\njobs = 2\n")
    assert find(repo / "sub") == inner
    assert resolve(None, repo / "sub") == Settings(jobs=2, source=inner)  # nothing is inherited


def test_a_pyproject_without_the_table_is_skipped(repo: Path) -> None:
    config = write(repo / "pyproject.toml", "[tool.toolwire]\nformat = \"json\"\n")
    write(repo / "lib" / "pyproject.toml", "[project]\nname = \"lib\"\n\n[tool.ruff]\nline-length = 100\n")
    assert find(repo / "lib") == config


def test_an_empty_table_is_found_and_sets_nothing(repo: Path) -> None:
    # How a subproject opts out of its parent's settings.
    write(repo / "pyproject.toml", "[tool.toolwire]\nstrict = true\n")
    inner = write(repo / "sub" / "pyproject.toml", "[tool.toolwire]\n")
    assert resolve(None, repo / "sub") == Settings(source=inner)


def test_the_search_stops_at_the_repository_root(tmp_path: Path, repo: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.toolwire]\nstrict = true\n")  # another project's
    (repo / "deep" / "er").mkdir(parents=True)
    assert find(repo / "deep" / "er") is None
    assert resolve(None, repo / "deep" / "er") == Settings()


def test_the_repository_root_itself_is_searched(repo: Path) -> None:
    config = write(repo / "pyproject.toml", "[tool.toolwire]\n")
    assert find(repo) == config


def test_a_git_file_marks_a_root_too(tmp_path: Path) -> None:
    # Worktrees and submodules have a .git file, not a directory.
    write(tmp_path / "pyproject.toml", "[tool.toolwire]\n")
    write(tmp_path / "worktree" / ".git", "gitdir: ../.git/worktrees/w\n")
    assert find(tmp_path / "worktree") is None


def test_outside_any_repository_the_search_goes_up_to_the_top(tmp_path: Path) -> None:
    config = write(tmp_path / "pyproject.toml", "[tool.toolwire]\n")
    (tmp_path / "a" / "b").mkdir(parents=True)
    assert find(tmp_path / "a" / "b") == config


def test_an_invalid_pyproject_on_the_way_is_an_error_not_skipped(repo: Path) -> None:
    write(repo / "pyproject.toml", "[tool.toolwire]\nstrict = true\n")
    write(repo / "sub" / "pyproject.toml", "[tool.toolwire\n")
    with pytest.raises(ConfigError, match="invalid TOML"):
        find(repo / "sub")


# -- each key --------------------------------------------------------------------


def settings(repo: Path, body: str) -> Settings:
    return load(write(repo / "pyproject.toml", "[tool.toolwire]\n" + body))


def test_every_key(repo: Path) -> None:
    loaded = settings(
        repo,
        'passthrough-types = ["toolbox", "kit"]\n'
        'edge-types = ["data", "tool_availability"]\n'
        "strict = true\n"
        'format = "sarif"\n'
        "jobs = 4\n",
    )
    assert loaded == Settings(
        passthrough_types=["toolbox", "kit"],
        edge_types=["data", "tool_availability"],
        strict=True,
        format="sarif",
        jobs=4,
        source=repo / "pyproject.toml",
    )


@pytest.mark.parametrize(
    ("body", "field", "value"),
    [
        ('passthrough-types = ["kit"]', "passthrough_types", ["kit"]),
        ("passthrough-types = []", "passthrough_types", []),  # no passthrough at all
        ('edge-types = ["data"]', "edge_types", ["data"]),
        ("strict = false", "strict", False),
        *[(f'format = "{name}"', "format", name) for name in ("text", "json", "sarif", "github", "junit")],
        ("jobs = 1", "jobs", 1),
        ("max-violations = 0", "max_violations", 0),  # no limit, as on the command line
        ("max-violations = 50", "max_violations", 50),
        ("max-path = 0", "max_path", 0),
        ("max-path = 2", "max_path", 2),
        ('json-violations = "each"', "json_violations", "each"),
        ('json-violations = "clashes"', "json_violations", "clashes"),
        ("max-consumers = 0", "max_consumers", 0),  # every consumer
        ("max-consumers = 10", "max_consumers", 10),
    ],
)
def test_each_key_alone_sets_only_its_field(repo: Path, body: str, field: str, value: Any) -> None:
    loaded = settings(repo, body + "\n")
    assert getattr(loaded, field) == value
    fields = (
        "passthrough_types",
        "edge_types",
        "strict",
        "format",
        "jobs",
        "max_violations",
        "max_path",
        "json_violations",
        "max_consumers",
    )
    unset = [f for f in fields if f != field]
    assert all(getattr(loaded, f) is None for f in unset)


def test_the_table_may_be_written_inline(repo: Path) -> None:
    path = write(repo / "pyproject.toml", '[tool]\ntoolwire = { jobs = 3, format = "github" }\n')
    assert load(path) == Settings(jobs=3, format="github", source=path)


# -- errors ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('strict = "yes"', '[tool.toolwire] strict must be true or false, got "yes"'),
        ("strict = 1", "[tool.toolwire] strict must be true or false, got 1"),
        ('format = "xml"', '[tool.toolwire] format must be one of "text", "json", "sarif", "github", "junit", got "xml"'),
        ("format = true", '[tool.toolwire] format must be one of "text", "json", "sarif", "github", "junit", got true'),
        ("jobs = 0", "[tool.toolwire] jobs must be an integer of at least 1, got 0"),
        ("jobs = -2", "[tool.toolwire] jobs must be an integer of at least 1, got -2"),
        ('jobs = "4"', '[tool.toolwire] jobs must be an integer of at least 1, got "4"'),
        ("jobs = 2.5", "[tool.toolwire] jobs must be an integer of at least 1, got 2.5"),
        ("jobs = true", "[tool.toolwire] jobs must be an integer of at least 1, got true"),
        ('passthrough-types = "kit"', '[tool.toolwire] passthrough-types must be a list of non-empty strings, got "kit"'),
        ('passthrough-types = ["kit", 3]', '[tool.toolwire] passthrough-types must be a list of non-empty strings, got ["kit", 3]'),
        ('edge-types = [""]', '[tool.toolwire] edge-types must be a list of non-empty strings, got [""]'),
        ("edge-types = { data = true }", "[tool.toolwire] edge-types must be a list of non-empty strings, got a table"),
        ("passthrough_types = []", '[tool.toolwire] unknown key "passthrough_types" (did you mean "passthrough-types"?)'),
        ("stict = true", '[tool.toolwire] unknown key "stict" (did you mean "strict"?)'),
        ("colour = true", '[tool.toolwire] unknown key "colour" (known keys: passthrough-types, edge-types, node-types, strict, format, jobs, max-violations, max-path, json-violations, max-consumers, select, ignore, quiet)'),
        ("max-violations = -1", "[tool.toolwire] max-violations must be an integer of at least 0 (0: no limit), got -1"),
        ('max-violations = "10"', '[tool.toolwire] max-violations must be an integer of at least 0 (0: no limit), got "10"'),
        ("max-violations = true", "[tool.toolwire] max-violations must be an integer of at least 0 (0: no limit), got true"),
        ("max-path = 1", "[tool.toolwire] max-path must be 0 (no limit) or an integer of at least 2, got 1"),
        ("max-path = 8.5", "[tool.toolwire] max-path must be 0 (no limit) or an integer of at least 2, got 8.5"),
        ("max_path = 8", '[tool.toolwire] unknown key "max_path" (did you mean "max-path"?)'),
        ('json-violations = "all"', '[tool.toolwire] json-violations must be one of "clashes", "each", got "all"'),
        ("max-consumers = -1", "[tool.toolwire] max-consumers must be an integer of at least 0 (0: no limit), got -1"),
        ("max_consumers = 5", '[tool.toolwire] unknown key "max_consumers" (did you mean "max-consumers"?)'),
    ],
)
def test_each_mistake_names_the_file_the_key_and_what_was_expected(
    repo: Path, monkeypatch: pytest.MonkeyPatch, body: str, message: str
) -> None:
    monkeypatch.chdir(repo)
    with pytest.raises(ConfigError) as caught:
        settings(repo, body + "\n")
    assert str(caught.value) == "pyproject.toml: " + message


def test_the_file_is_named_as_it_is_reached_from_the_current_directory(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(repo / "pyproject.toml", "[tool.toolwire]\njobs = 0\n")
    (repo / "sub").mkdir()
    monkeypatch.chdir(repo / "sub")
    with pytest.raises(ConfigError, match=r"^\.\./pyproject\.toml: \[tool\.toolwire\] jobs ") as caught:
        resolve(None, Path.cwd())
    assert isinstance(caught.value, ValueError)


def test_tool_toolwire_that_is_not_a_table(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo)
    path = write(repo / "pyproject.toml", '[tool]\ntoolwire = "strict"\n')
    with pytest.raises(ConfigError) as caught:
        load(path)
    assert str(caught.value) == 'pyproject.toml: tool.toolwire must be a table, got "strict"'


def test_invalid_toml_names_the_file_line_and_column(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo)
    path = write(repo / "pyproject.toml", "[tool.toolwire]\nstrict = true\njobs = = 4\n")
    with pytest.raises(ConfigError) as caught:
        load(path)
    message = str(caught.value)
    assert message.startswith("pyproject.toml: invalid TOML: ")
    assert "line 3, column 8" in message


def test_a_file_that_is_not_utf8_is_invalid_toml(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo)
    path = repo / "pyproject.toml"
    path.write_bytes(b"[tool.toolwire]\nformat = \"\xe9\"\n")
    with pytest.raises(ConfigError, match=r"^pyproject\.toml: invalid TOML: not UTF-8"):
        load(path)


# -- an explicit file (--config) ---------------------------------------------------


def test_an_explicit_file_wins_over_discovery_and_may_have_any_name(repo: Path) -> None:
    write(repo / "pyproject.toml", "[tool.toolwire]\nstrict = true\n")
    chosen = write(repo / "ci" / "toolwire.toml", '[tool.toolwire]\nformat = "junit"\n')
    assert resolve(chosen, repo) == Settings(format="junit", source=chosen)


def test_an_explicit_file_must_exist(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo)
    with pytest.raises(ConfigError) as caught:
        resolve(Path("missing.toml"), repo)
    assert str(caught.value) == "missing.toml: cannot read: No such file or directory"


def test_an_explicit_file_must_have_the_table(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Pointing --config at a file that configures nothing is a mistake, not a no-op.
    monkeypatch.chdir(repo)
    write(repo / "pyproject.toml", "[project]\nname = \"x\"\n")
    with pytest.raises(ConfigError) as caught:
        resolve(Path("pyproject.toml"), repo)
    assert str(caught.value) == "pyproject.toml: no [tool.toolwire] table"


# -- end to end, through `python -m toolwire check` -----------------------------------
# These pass once cli.py reads the configuration (resolve(), --config, --no-config).

KIT_WORKFLOW = {
    # tool_a reaches agent_1 through the "kit" node, tool_b directly. Only when
    # "kit" is a passthrough type does agent_1 see two tools named web_search.
    "nodes": [
        {"id": "tool_a", "type": "http_request", "data": {"label": "Web Search"}},
        {"id": "tool_b", "type": "http_request", "data": {"label": "web-search"}},
        {"id": "kit_1", "type": "kit", "data": {"label": "Kit"}},
        {"id": "agent_1", "type": "agent", "data": {"label": "Agent"}},
    ],
    "edges": [
        {"source": "tool_a", "target": "kit_1", "data": {"edgeType": "tool_availability"}},
        {"source": "kit_1", "target": "agent_1", "data": {"edgeType": "tool_availability"}},
        {"source": "tool_b", "target": "agent_1", "data": {"edgeType": "tool_availability"}},
    ],
}


def check_in(directory: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolwire", "check", *argv],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


@pytest.fixture
def kit_project(repo: Path) -> Path:
    write(repo / "pyproject.toml", '[project]\nname = "flows"\n\n[tool.toolwire]\npassthrough-types = ["kit"]\n')
    write(repo / "workflows" / "agent.json", json.dumps(KIT_WORKFLOW))
    return repo


def test_cli_reads_passthrough_types_from_pyproject(kit_project: Path) -> None:
    done = check_in(kit_project / "workflows", "agent.json")
    assert done.returncode == 1, done.stdout + done.stderr
    assert '2 tools reaching "agent_1" share the name "web_search"' in done.stdout
    assert "tool_a" in done.stdout and "kit_1" in done.stdout


def test_cli_command_line_beats_the_configuration_file(kit_project: Path) -> None:
    # --passthrough-types replaces the file's list; --passthrough-type adds to it.
    done = check_in(kit_project, "--passthrough-types", "toolbox", "workflows/agent.json")
    assert done.returncode == 0, done.stdout + done.stderr
    done = check_in(kit_project, "--passthrough-type", "toolbox", "workflows/agent.json")
    assert done.returncode == 1, done.stdout + done.stderr


def test_cli_no_config_ignores_the_configuration_file(kit_project: Path) -> None:
    done = check_in(kit_project, "--no-config", "workflows/agent.json")
    assert done.returncode == 0, done.stdout + done.stderr


def test_cli_reports_a_bad_configuration_and_exits_2(kit_project: Path) -> None:
    write(kit_project / "pyproject.toml", "[tool.toolwire]\nstrict = \"yes\"\n")
    done = check_in(kit_project, "workflows/agent.json")
    assert done.returncode == 2
    assert 'pyproject.toml: [tool.toolwire] strict must be true or false, got "yes"' in done.stderr
    assert done.stdout == ""


def test_cli_explicit_config(kit_project: Path) -> None:
    write(kit_project / "pyproject.toml", "[tool.toolwire]\n")
    other = write(kit_project / "ci.toml", '[tool.toolwire]\npassthrough-types = ["kit"]\n')
    done = check_in(kit_project, "--config", str(other), "workflows/agent.json")
    assert done.returncode == 1, done.stdout + done.stderr
