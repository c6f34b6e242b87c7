"""The pre-commit hook (.pre-commit-hooks.yaml): a valid manifest whose
entry is toolwire's own command, selecting workflow files, and giving the
verdict pre-commit acts on. Running pre-commit itself is not needed: it
would build the Rust extension in a fresh virtualenv, minutes per run; what
it does with a hook (match files, then run entry + args + filenames) is
reproduced here."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest
import yaml
from identify.identify import tags_from_filename

from support import DATA, REPO

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

MANIFEST = REPO / ".pre-commit-hooks.yaml"

# pre-commit's manifest schema (pre_commit/clientlib.py, MANIFEST_HOOK_DICT):
# the required keys, and the type of every key this manifest may use.
REQUIRED = {"id": str, "name": str, "entry": str, "language": str}
OPTIONAL = {
    "alias": str, "files": str, "exclude": str, "types": list, "types_or": list, "exclude_types": list,
    "additional_dependencies": list, "args": list, "always_run": bool, "fail_fast": bool,
    "pass_filenames": bool, "description": str, "language_version": str, "log_file": str,
    "require_serial": bool, "stages": list, "verbose": bool, "minimum_pre_commit_version": str,
}  # fmt: skip


def hooks() -> List[Dict[str, Any]]:
    loaded = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    assert isinstance(loaded, list)
    return loaded


def hook() -> Dict[str, Any]:
    (only,) = [h for h in hooks() if h["id"] == "toolwire"]
    return only


def test_the_manifest_follows_pre_commits_schema() -> None:
    assert [h["id"] for h in hooks()] == ["toolwire"]
    for key, kind in REQUIRED.items():
        assert isinstance(hook().get(key), kind), key
    for key, value in hook().items():
        assert key in REQUIRED or key in OPTIONAL, f"pre-commit does not know the key {key!r}"
        assert isinstance(value, {**REQUIRED, **OPTIONAL}[key]), key
    assert hook()["language"] == "python"  # installed with pip from this repository
    assert hook()["pass_filenames"] is True and hook()["require_serial"] is False


def test_the_entry_is_the_console_script_the_package_declares() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    command, *arguments = shlex.split(hook()["entry"])
    assert command in project["scripts"]
    assert project["scripts"][command] == "toolwire.cli:main"
    assert arguments == ["check"]


def selected(path: str, narrowed_to: str = "") -> bool:
    """Whether pre-commit passes ``path`` to the hook: ``files`` (the user's
    value when set, else the manifest's, default '') and ``exclude`` are
    searched as regexes, and the file must have every tag of ``types``."""
    files = narrowed_to or hook().get("files", "")
    exclude = hook().get("exclude", "^$")
    tags = tags_from_filename(path) | {"file"}
    return bool(
        re.search(files, path)
        and not re.search(exclude, path)
        and set(hook().get("types", ["file"])) <= tags
        and (not hook().get("types_or") or set(hook()["types_or"]) & tags)
    )


def test_workflow_json_files_are_selected() -> None:
    assert selected("workflows/agent.json")
    assert selected("agent.json")
    assert not selected("workflows/agent.yaml")
    assert not selected("README.md")


def test_drupal_workflow_yaml_is_selected_and_other_yaml_is_not() -> None:
    # As a directory given to toolwire stands for (issue 21, item 2).
    assert selected("config/sync/flowdrop_workflow.flowdrop_workflow.chat.yml")
    assert selected("flowdrop_workflow.flowdrop_workflow.chat.yaml")
    assert not selected("config/sync/flowdrop_node_type.flowdrop_node_type.reason.yml")
    assert not selected(".github/workflows/ci.yml")
    assert not selected("config/sync/flowdrop_workflow.flowdrop_workflow.chat.yml.orig")
    assert not selected("config/sync/flowdrop_workflow.flowdrop_workflow.chat.txt")
    # The README's advice for a Drupal site, as the user's own `files`.
    site = r"^config/sync/flowdrop_workflow\."
    assert selected("config/sync/flowdrop_workflow.flowdrop_workflow.chat.yml", narrowed_to=site)
    assert not selected("config/sync/flowdrop_node_type.flowdrop_node_type.reason.yml", narrowed_to=site)


def test_users_narrow_the_selection_to_their_workflows() -> None:
    # The README's example configuration: `files: ^workflows/`.
    assert selected("workflows/agent.json", narrowed_to="^workflows/")
    assert not selected("package.json", narrowed_to="^workflows/")
    assert not selected("workflows/notes.txt", narrowed_to="^workflows/")


def run_hook(*filenames: str) -> subprocess.CompletedProcess[str]:
    """Runs the hook as pre-commit does (entry + args + filenames, from the
    repository root), with ``python -m toolwire`` for the console script:
    the script may not be on PATH where the tests run."""
    command, *arguments = shlex.split(hook()["entry"])
    assert command == "toolwire"
    argv = [sys.executable, "-m", "toolwire", *arguments, *hook().get("args", []), *filenames]
    return subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(
    ("filenames", "status"),
    [
        (["spec-cmp9-accepted.json"], 0),
        (["spec-cmp9-refused.json"], 1),
        (["spec-cmp9-accepted.json", "spec-cmp9-refused.json"], 1),
    ],
)
def test_the_hook_passes_accepted_workflows_and_fails_refused_ones(filenames: List[str], status: int) -> None:
    paths = [str((DATA / name).relative_to(REPO)) for name in filenames]
    done = run_hook(*paths)
    assert done.returncode == status, done.stdout + done.stderr
    for path in paths:
        assert path in done.stdout  # pre-commit shows the output: every file is named


def test_json_that_is_not_a_workflow_passes_or_fails_naming_the_file(tmp_path: Path) -> None:
    # What an unnarrowed `files` meets in a typical repository: an object
    # without nodes or edges is an empty workflow; JSON with comments or a
    # top-level array cannot be checked, and the message says which file.
    package = tmp_path / "package.json"
    package.write_text('{"name": "site", "dependencies": {}}', encoding="utf-8")
    assert run_hook(str(package)).returncode == 0
    tsconfig = tmp_path / "tsconfig.json"
    tsconfig.write_text('{\n  // comments are not JSON\n  "compilerOptions": {}\n}\n', encoding="utf-8")
    done = run_hook(str(package), str(tsconfig))
    assert done.returncode == 2
    assert f"{tsconfig}:2:3: error: invalid JSON" in done.stdout
