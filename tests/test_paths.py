"""Directories and globs wherever a path is taken (issue 21, item 2):
``toolwire._paths.expand`` itself (which files, in which order, what is
skipped, what stands for nothing), its cost counted in entries walked, and
its use by ``check_files``, ``toolwire check`` in every format and
``toolwire explain``."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Iterator, List, Optional, Tuple

import pytest

import toolwire
from toolwire import PathError
from toolwire._paths import Expansion, component_key, expand, is_workflow_name

from support import DATA, SHARED, need_shared
from test_cli import run, validate_output

REFUSED = DATA / "spec-cmp9-refused.json"
ACCEPTED = DATA / "spec-cmp9-accepted.json"
YAML_WORKFLOW = "flowdrop_workflow.flowdrop_workflow.{}.yml"
NODE_TYPE = "flowdrop_node_type.flowdrop_node_type.{}.yml"


def touch(root: Path, *names: str, text: str = "{}") -> None:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def paths(expansion: Expansion) -> List[Tuple[str, Optional[str]]]:
    """Each entry as (path, error message or None)."""
    return [(f.path, None if f.error is None else f.error.message) for f in expansion.found]


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp_path as the current directory, so that paths are given (and
    come back) relative, as a user types them."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- which files a directory stands for -------------------------------------------


def test_workflow_names_are_json_files_and_drupal_workflow_yaml() -> None:
    for name in ("a.json", "x.y.json", YAML_WORKFLOW.format("chat"), "flowdrop_workflow.flowdrop_workflow.chat.yaml"):
        assert is_workflow_name(name), name
    for name in (NODE_TYPE.format("reason"), "chat.yml", "a.json.bak", "README.md", "flowdrop_workflow.chat.yml"):
        assert not is_workflow_name(name), name


def test_a_directory_stands_for_its_workflow_files_at_any_depth_in_component_order(here: Path) -> None:
    touch(
        here / "site",
        "b.json",
        "a.json",
        "a/z.json",  # the folder a sorts before the file a.json
        "a/deeper/still/w.json",
        YAML_WORKFLOW.format("chat"),
        "flowdrop_workflow.flowdrop_workflow.other.yaml",
        NODE_TYPE.format("reason"),
        "notes.md",
        "B.json",  # code point order: capitals first
    )
    expansion = expand(["site"])
    assert paths(expansion) == [
        ("site/B.json", None),
        ("site/a/deeper/still/w.json", None),
        ("site/a/z.json", None),
        ("site/a.json", None),
        ("site/b.json", None),
        ("site/" + YAML_WORKFLOW.format("chat"), None),
        ("site/flowdrop_workflow.flowdrop_workflow.other.yaml", None),
    ]
    found = [f.path for f in expansion.found]
    assert found == sorted(found, key=component_key)
    assert expansion.directories == ["site"]
    assert {f.given for f in expansion.found} == {"site"} and {f.directory for f in expansion.found} == {"site"}


def test_paths_keep_the_form_they_were_given_in(here: Path) -> None:
    touch(here / "flows", "a.json")
    assert expand(["flows/"]).files == ["flows/a.json"]
    assert expand(["./flows"]).files == ["./flows/a.json"]
    assert expand([str(here / "flows")]).files == [str(here / "flows" / "a.json")]
    assert expand([Path("flows")]).files == ["flows/a.json"]


def test_hidden_entries_inside_are_skipped_but_a_hidden_directory_named_is_read(here: Path) -> None:
    touch(here / "site", "a.json", ".git/x.json", ".cache/deep/y.json", ".hidden.json", "sub/.tmp/z.json")
    assert expand(["site"]).files == ["site/a.json"]
    assert expand(["site/.cache"]).files == ["site/.cache/deep/y.json"]


def test_a_file_named_is_taken_whatever_its_name_and_stdin_and_missing_paths_are_left_alone(here: Path) -> None:
    touch(here, "notes.md", NODE_TYPE.format("reason"))
    assert paths(expand(["notes.md", NODE_TYPE.format("reason"), "-", "missing.json"])) == [
        ("notes.md", None),
        (NODE_TYPE.format("reason"), None),
        ("-", None),
        ("missing.json", None),  # read later, and reported missing then
    ]


def test_a_directory_without_workflows_is_an_error_naming_it(here: Path) -> None:
    touch(here / "empty", "README.md", ".hidden/a.json", NODE_TYPE.format("reason"))
    (expansion,) = expand(["empty"]).found
    assert expansion.path == "empty" and isinstance(expansion.error, PathError)
    assert expansion.error.path == "empty"
    assert expansion.error.message.startswith("no workflow file in this directory or below it (looked for *.json")


def test_links_to_folders_are_not_followed_so_a_loop_cannot_hang(here: Path) -> None:
    touch(here / "site", "a.json", "sub/b.json")
    (here / "site" / "sub" / "up").symlink_to("..")  # a loop
    (here / "site" / "self").symlink_to(".")
    (here / "site" / "link.json").symlink_to("a.json")  # a link to a file is read
    (here / "site" / "gone.json").symlink_to("nowhere.json")  # and a broken one reported when read
    expansion = expand(["site"])
    assert expansion.files == ["site/a.json", "site/gone.json", "site/link.json", "site/sub/b.json"]
    assert expansion.walked == 7  # every entry once
    (here / "only-links").mkdir()
    (here / "only-links" / "elsewhere").symlink_to(here / "site")
    (entry,) = expand(["only-links"]).found
    assert entry.error is not None and entry.error.message.endswith("; 1 symbolic link to a directory not followed")
    # Named itself, a link to a folder is read as the folder.
    assert expand(["only-links/elsewhere"]).files[0] == "only-links/elsewhere/a.json"


def test_a_folder_that_cannot_be_listed_is_reported_in_its_place(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Denied by the test rather than by chmod, which does not stop root.
    touch(here / "site", "a.json", "locked/b.json", "z.json")
    scandir = os.scandir

    def denying(path: Any) -> Any:
        if os.path.basename(os.fspath(path)) == "locked":
            raise PermissionError(13, "Permission denied", path)
        return scandir(path)

    monkeypatch.setattr(os, "scandir", denying)
    assert paths(expand(["site"])) == [
        ("site/a.json", None),
        ("site/locked", "cannot list the directory: Permission denied"),
        ("site/z.json", None),
    ]
    # Nothing could be listed: said once, of the directory itself.
    assert paths(expand(["site/locked"])) == [("site/locked", "cannot list the directory: Permission denied")]
    # A glob going into it says so too, in its place.
    assert paths(expand(["site/**/*.json"])) == [
        ("site/a.json", None),
        ("site/locked", "cannot list the directory: Permission denied"),
        ("site/z.json", None),
    ]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_pipe_with_a_workflows_name_is_reported_not_read(here: Path) -> None:
    # Reading a pipe waits for a writer: the walk would hang on it.
    touch(here / "site", "a.json")
    os.mkfifo(here / "site" / "pipe.json")
    assert paths(expand(["site"])) == [
        ("site/a.json", None),
        ("site/pipe.json", "not a regular file (a pipe, socket or device): not read"),
    ]
    assert paths(expand(["site/p*.json"])) == [("site/pipe.json", "not a regular file (a pipe, socket or device): not read")]


# --- globs --------------------------------------------------------------------------


def test_a_quoted_glob_is_expanded_with_recursive_stars(here: Path) -> None:
    touch(here / "config", "a.json", "sub/b.json", "sub/deep/c.json", "sub/notes.md", ".hidden/d.json", "x.yml")
    assert expand(["config/**/*.json"]).files == ["config/a.json", "config/sub/b.json", "config/sub/deep/c.json"]
    assert expand(["config/*.json"]).files == ["config/a.json"]
    assert expand(["config/*/*.json"]).files == ["config/sub/b.json"]
    assert expand(["config/?.json"]).files == ["config/a.json"]
    assert expand(["config/[ab].json"]).files == ["config/a.json"]
    # The pattern chose them: files it matches are taken whatever their name.
    assert expand(["config/**/*.md", "config/*.yml"]).files == ["config/sub/notes.md", "config/x.yml"]
    # A wildcard matches a hidden name only when the pattern says so.
    assert expand(["config/.*/*.json"]).files == ["config/.hidden/d.json"]
    assert expand(["**/d.json"]).found[0].error is not None


def test_a_glob_matching_folders_stands_for_their_workflows_once_each_in_order(here: Path) -> None:
    touch(here / "sites", "one/config/a.json", "one/config/notes.md", "two/config/b.json", "two/c.json")
    assert expand(["sites/*/config"]).files == ["sites/one/config/a.json", "sites/two/config/b.json"]
    assert expand(["sites/*/"]).files == ["sites/one/config/a.json", "sites/two/c.json", "sites/two/config/b.json"]
    everything = expand(["sites/**"])
    # The folders' workflows, and the other file the pattern names itself,
    # each once, in component order.
    assert everything.files == [
        "sites/one/config/a.json",
        "sites/one/config/notes.md",
        "sites/two/c.json",
        "sites/two/config/b.json",
    ]
    assert everything.directories == ["sites/one", "sites/two"]


def test_a_glob_that_matches_nothing_is_an_error_saying_so(here: Path) -> None:
    touch(here, "a.json")
    assert paths(expand(["*.yaml", "nowhere/**/*.json"])) == [
        ("*.yaml", "no file matches this pattern"),
        ("nowhere/**/*.json", "no file matches this pattern"),
    ]


def test_a_file_whose_name_looks_like_a_glob_is_itself(here: Path) -> None:
    touch(here, "flow[1].json", "flow1.json")
    assert expand(["flow[1].json"]).files == ["flow[1].json"]
    assert expand(["flow[0-9].json"]).files == ["flow1.json"]


def test_globs_do_not_follow_links_to_folders_with_stars(here: Path) -> None:
    touch(here / "site", "a.json")
    (here / "site" / "loop").symlink_to("..")
    assert expand(["site/**/*.json"]).files == ["site/a.json"]
    # One named component may go through a link: once per component.
    assert expand(["site/loop/site/*.json"]).files == ["site/loop/site/a.json"]


# --- what it costs ------------------------------------------------------------------


def test_the_walk_looks_at_each_entry_once(here: Path) -> None:
    # 40 folders of 50 files, half of them workflows: 2,040 entries.
    for folder in range(40):
        for file in range(50):
            touch(here / "tree" / f"f{folder:02}", f"w{file:02}.{'json' if file % 2 else 'txt'}")
    expansion = expand(["tree"])
    assert len(expansion.files) == 1000
    assert expansion.walked == 40 + 40 * 50
    # A glob lists each folder once, and a folder it matches once more.
    assert expand(["tree/**/*.json"]).walked == 40 + 40 * 50
    assert expand(["tree/**"]).walked <= 2 * (40 + 40 * 50)


def test_a_deep_chain_costs_its_entries_not_their_square(here: Path) -> None:
    # Depth 150: a walk that restarted at each level would look at ~11,000
    # entries; every folder matched by ** is inside the first one expanded.
    folder = here / "deep"
    for level in range(150):
        folder = folder / "d"
        touch(folder, "w.json")
    for pattern in ("deep", "deep/**/*.json", "deep/**"):
        expansion = expand([pattern])
        assert len(expansion.files) == 150
        assert expansion.walked <= 2 * 300, pattern


@pytest.fixture
def deep_chain(here: Path) -> Iterator[str]:
    """A chain of 1,100 folders (deeper than Python's default recursion
    limit; short names to stay within PATH_MAX) with a workflow at the
    bottom. Removed here one level at a time: shutil.rmtree recurses, and
    pytest's cleanup of old temporary folders would fail on it."""
    chain = ["t"]
    for _ in range(1100):  # os.makedirs recurses too
        os.mkdir(os.path.join(*chain))
        chain.append("d")
    bottom = os.path.join(*chain[:-1])
    touch(Path(bottom), "w.json")
    try:
        yield bottom
    finally:
        os.remove(os.path.join(bottom, "w.json"))
        for depth in range(len(chain) - 1, 0, -1):
            os.rmdir(os.path.join(*chain[:depth]))


def test_no_recursion_limit_on_deep_trees(deep_chain: str) -> None:
    assert expand(["t"]).files == [os.path.join(deep_chain, "w.json")]
    assert expand(["t/**/*.json"]).files == [os.path.join(deep_chain, "w.json")]


# --- the checking functions and the command line ---------------------------------


@pytest.fixture
def site(here: Path) -> Path:
    """A folder of three workflows (one refused, one not JSON) and a note."""
    (here / "site" / "sub").mkdir(parents=True)
    shutil.copyfile(REFUSED, here / "site" / "refused.json")
    shutil.copyfile(ACCEPTED, here / "site" / "sub" / "accepted.json")
    (here / "site" / "broken.json").write_text("{", encoding="utf-8")
    (here / "site" / "notes.md").write_text("not a workflow", encoding="utf-8")
    return here / "site"


SITE_FILES = ["site/broken.json", "site/refused.json", "site/sub/accepted.json"]


def test_check_files_takes_directories_and_globs_and_names_each_file(site: Path) -> None:
    (site.parent / "empty").mkdir()
    reports = toolwire.check_files(["site", "empty", "site/sub/*.json", "nothing-*.json"], jobs=2)
    assert [r.path for r in reports] == [*SITE_FILES, "empty", "site/sub/accepted.json", "nothing-*.json"]
    assert [r.ok for r in reports] == [False, False, True, False, True, False]
    assert isinstance(reports[0].error, toolwire.WorkflowError)  # one bad file hides no other
    assert reports[1].error is None and reports[1].violation_count == 1
    assert isinstance(reports[3].error, PathError) and "no workflow file" in reports[3].error.message
    assert isinstance(reports[5].error, PathError) and reports[5].to_dict()["error"] == {
        "message": "no file matches this pattern",
        "line": None,
        "column": None,
    }


def test_the_command_line_checks_a_directory_in_every_format(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for form in ("text", "json", "sarif", "github", "junit"):
        result = run(capsys, "check", "--no-config", "--format", form, "site")
        assert result.code == 2, form  # broken.json could not be checked
        for path in SITE_FILES:
            assert path in result.out, (form, path)
    document = run(capsys, "check", "--no-config", "--format", "json", "site").json()
    validate_output(document)
    assert [f["path"] for f in document["files"]] == SITE_FILES
    glob = run(capsys, "check", "--no-config", "--format", "json", "site/**/*.json").json()
    assert [f["path"] for f in glob["files"]] == SITE_FILES


def test_the_command_line_reports_what_stands_for_nothing_and_checks_the_rest(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (site.parent / "empty").mkdir()
    result = run(capsys, "check", "--no-config", "empty", "*.yaml", "site/sub")
    assert result.code == 2
    assert "empty: error: no workflow file in this directory or below it" in result.out
    assert "*.yaml: error: no file matches this pattern" in result.out
    assert "site/sub/accepted.json: ok" in result.out
    json_result = run(capsys, "check", "--no-config", "--format", "json", "empty")
    assert "empty: error: no workflow file" in json_result.err  # said on stderr for a log too
    entry = json_result.json()["files"][0]
    assert entry["path"] == "empty" and entry["error"]["message"].startswith("no workflow file")


def test_an_output_inside_a_directory_checked_is_refused_before_reading(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = (site / "refused.json").read_bytes()
    for given in ("site", "site/*.json"):
        result = run(capsys, "check", "--no-config", "-o", "site/refused.json", given)
        assert (result.code, result.out) == (2, "")
        assert result.err.startswith("toolwire: --output site/refused.json is the input site/refused.json"), result.err
    assert (site / "refused.json").read_bytes() == before


def test_explain_takes_directories_too(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "explain", "--no-config", "site/sub")
    assert result.code == 0 and "site/sub/accepted.json" in result.out
    result = run(capsys, "explain", "--no-config", "site")
    assert result.code == 2  # broken.json
    assert "site/broken.json:1:2: error:" in result.err
    assert "site/refused.json" in result.out and "site/sub/accepted.json" in result.out
    result = run(capsys, "explain", "--no-config", "--format", "json", "site")
    assert (result.code, result.out) == (2, "")
    assert "site stands for 3" in result.err
    (site.parent / "empty").mkdir()
    result = run(capsys, "explain", "--no-config", "empty")
    assert result.code == 2 and result.err.startswith("empty: error: no workflow file in this directory")


def test_a_drupal_site_is_checked_by_naming_its_config_sync() -> None:
    """The real site's config/sync: its 11 workflow files are found, its 41
    node types are not (they describe nodes; they are not workflows)."""
    sync = need_shared(SHARED / "real-sites" / "drupalai-hackathon-2026" / "config" / "sync")
    expansion = expand([str(sync)])
    names = [os.path.basename(p) for p in expansion.files]
    assert len(names) == 11 and names == sorted(names)
    assert all(n.startswith("flowdrop_workflow.flowdrop_workflow.") and n.endswith(".yml") for n in names)
    assert expansion.directories == [str(sync)]
