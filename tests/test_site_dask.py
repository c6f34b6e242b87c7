"""Issue 22, item 6: under toolwire.dask a site (SEMANTICS 12: a directory
with its node types, or files checked with a catalogue given) is one task on
one worker, its files read there and checked together, so its call findings
(CMP-9 across calls), site warnings and site errors (cycles, a workflow id
defined twice) come back as a local check gives them, whatever
``files_per_task`` says. Files in no site keep the batches of before.

The sites are the generator's (``toolwire.generate.sites``): fan-in at a
small size, the cycle, random sites with and without cycles of calls, and
two copies of one site in one call.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

import pytest

distributed = pytest.importorskip("distributed", reason="needs toolwire[dask]")
pytest.importorskip("dask.dataframe", reason="needs toolwire[dask]")
pytest.importorskip("pandas", reason="needs toolwire[dask]")

import toolwire  # noqa: E402
import toolwire.dask  # noqa: E402
from toolwire import _catalogue  # noqa: E402
from toolwire._errors import SiteError  # noqa: E402
from toolwire.cli import main  # noqa: E402
from toolwire.dask import _cluster, _worker  # noqa: E402
from toolwire.generate import sites  # noqa: E402

PLAIN = {"nodes": [{"id": "a", "type": "agent"}], "edges": []}
"""A workflow in no site (no catalogue anywhere near it)."""


def corpus(root: Path) -> List[str]:
    """Sites side by side (each directory its own catalogue), a folder
    without node types, and a file named alone: the PATHs to check."""
    sites.fan_in(4).write(root / "fan-in")
    sites.fan_in(3, one_parent=True).write(root / "fan-in-calls")
    sites.cycle().write(root / "cycle")
    sites.random_site(3).write(root / "random")
    sites.random_site(11, cycles=True).write(root / "random-cycles")
    (root / "plain").mkdir()
    for i in range(5):
        (root / "plain" / f"flow{i}.json").write_text(json.dumps(PLAIN), encoding="utf-8")
    alone = root / "alone.json"
    alone.write_text(json.dumps(PLAIN), encoding="utf-8")
    names = ["fan-in", "plain", "fan-in-calls", "cycle", "random", "random-cycles"]
    return [str(root / name) for name in names] + [str(alone)]


def error_of(report: toolwire.Report) -> Optional[Tuple[Any, ...]]:
    """A report's error as data (exceptions compare by identity)."""
    e = report.error
    if e is None:
        return None
    if isinstance(e, SiteError):
        return (type(e), str(e), e.workflows, e.files)
    return (type(e), str(e))


def assert_same(remote: Sequence[toolwire.Report], local: Sequence[toolwire.Report]) -> None:
    """Equal reports, in the same places: each file's (violations, call
    findings, warnings with the site's after the file's own, stats), then
    each site error's."""
    assert [r.path for r in remote] == [r.path for r in local]
    for r, l in zip(remote, local):
        assert error_of(r) == error_of(l)
        if l.error is None:
            assert r == l and list(r.calls) == list(l.calls) and list(r.warnings) == list(l.warnings)
        assert r.to_dict() == l.to_dict()


def what_the_sites_hold(reports: Sequence[toolwire.Report]) -> Tuple[int, int, int]:
    """Call findings, site warnings and site errors: what makes the
    equality above more than two runs that both skip the calls."""
    site_codes = ("CMP-9-CALL-UNKNOWN", "CMP-9-PORT", "CMP-9-ID")
    return (
        sum(len(r.calls) for r in reports),
        sum(1 for r in reports for w in r.warnings if w.code in site_codes),
        sum(1 for r in reports if isinstance(r.error, SiteError)),
    )


@pytest.fixture(scope="module")
def site_corpus(tmp_path_factory: pytest.TempPathFactory) -> Tuple[List[str], List[toolwire.Report]]:
    paths = corpus(tmp_path_factory.mktemp("sites"))
    local = toolwire.check_files(paths)
    calls, _, errors = what_the_sites_hold(local)
    assert calls >= 3 and errors >= 2, "the corpus has clashes across calls and cycles"
    return paths, local


@pytest.fixture
def client(dask_cluster: Any) -> Iterator[Any]:
    with distributed.Client(dask_cluster, set_as_default=False) as connected:
        yield connected


@pytest.mark.parametrize("files_per_task", [1, 4, None])
def test_cmp9_calls_dask_check_files_equals_a_local_check(
    client: Any, site_corpus: Tuple[List[str], List[toolwire.Report]], files_per_task: Optional[int]
) -> None:
    paths, local = site_corpus
    remote = toolwire.dask.check_files(paths, client=client, files_per_task=files_per_task)
    assert_same(remote, local)
    assert what_the_sites_hold(remote) == what_the_sites_hold(local)


def two_copies(root: Path) -> Tuple[List[str], List[str]]:
    """One site written twice, and the node-type files of the first copy."""
    site = sites.random_site(5)
    site.write(root / "a")
    site.write(root / "b")
    return ["a", "b"], _catalogue.node_type_files(root / "a")


@pytest.mark.parametrize("given", [False, True], ids=["own-catalogues", "node_types"])
def test_cmp9_calls_dask_two_copies_of_a_site_in_one_call(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: bool
) -> None:
    # Relative paths: the workers read each file by its absolute path, and
    # the findings and errors still name it as given.
    monkeypatch.chdir(tmp_path)
    paths, catalogue = two_copies(tmp_path)
    options: Dict[str, Any] = {"node_types": catalogue} if given else {}
    if given:
        # Files named alone with a catalogue are one site: the same
        # workflow ids twice, a site error naming both files.
        first = sites.random_site(5).workflows[0]["id"]
        paths += [f"{d}/flowdrop_workflow.flowdrop_workflow.{first}.yml" for d in ("a", "b")]
    local = toolwire.check_files(paths, **options)
    for files_per_task in (1, None):
        remote = toolwire.dask.check_files(paths, client=client, files_per_task=files_per_task, **options)
        assert_same(remote, local)
    calls, _, _ = what_the_sites_hold(local)
    assert calls >= 2 and calls % 2 == 0, "each copy finds its own clashes across calls"
    twice = [r for r in local if isinstance(r.error, SiteError) and "is defined by 2 files" in r.error.message]
    if given:
        assert [r.error.files for r in twice] == [paths[-2:]], "named as given, relative"
    else:
        assert twice == [], "each directory is a site of its own"


def test_cmp9_calls_dask_findings_has_the_rows_of_a_local_check(
    client: Any, site_corpus: Tuple[List[str], List[toolwire.Report]]
) -> None:
    paths, local = site_corpus
    with client.as_current():
        rows = toolwire.dask.findings(paths, files_per_task=2).compute()
    expected = [row for r in local for row in _worker.finding_rows(str(r.path), r)]
    got = list(rows.itertuples(index=False, name=None))

    def key(row: Tuple[Any, ...]) -> Tuple[str, ...]:
        return tuple("" if v is None or v is getattr(__import__("pandas"), "NA") else str(v) for v in row)

    # A site's errors are rows of its own partition, right after its
    # files'; every other row is in file order.
    assert sorted(map(key, got)) == sorted(map(key, expected))
    calls = rows[rows.kind == "call"]
    assert len(calls) == sum(len(r.calls) for r in local) and set(calls.code) == {"CMP-9"}
    finding = next(c for r in local for c in r.calls)
    row = calls[(calls.path == next(str(r.path) for r in local if finding in r.calls))].iloc[0]
    assert (row["node"], row["consumer"], row["message"]) == (finding.chain[0].node, finding.consumer.node, finding.message)
    assert (row["line"], row["column"]) == tuple(finding.location)
    assert set(rows[rows.kind == "error"].code) == {"SiteError"}


# --- a site is one task on one worker ---------------------------------------------

RECORDED: List[Tuple[str, Tuple[str, ...], str]] = []
"""(kind, files as given or read, worker) of each task run: a module-level
list, so that the in-process workers below append to this one."""


def _recording_site(paths: Sequence[str], names: Sequence[str], options: Dict[str, Any], own: Any = None) -> bytes:
    RECORDED.append(("site", tuple(names), distributed.get_worker().address))
    return _worker.check_site_batch(paths, names, options, own)


def _recording_batch(paths: Sequence[str], options: Dict[str, Any], own: Any = None) -> bytes:
    RECORDED.append(("batch", tuple(paths), distributed.get_worker().address))
    return _worker.check_batch(paths, options, own)


@pytest.mark.parametrize("files_per_task", [1, 3])
def test_cmp9_calls_dask_a_site_bigger_than_files_per_task_stays_whole_on_one_worker(
    monkeypatch: pytest.MonkeyPatch, site_corpus: Tuple[List[str], List[toolwire.Report]], files_per_task: int
) -> None:
    paths, local = site_corpus
    monkeypatch.setattr(_cluster, "check_site_batch", _recording_site)
    monkeypatch.setattr(_cluster, "check_batch", _recording_batch)
    RECORDED.clear()
    # Workers in this process, so that they run the recording tasks.
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster, distributed.Client(cluster, set_as_default=False) as client:
        remote = toolwire.dask.check_files(paths, client=client, files_per_task=files_per_task)
    assert_same(remote, local)
    site_dirs = [p for p in paths if Path(p).is_dir() and _catalogue.node_type_files(p)]
    expected_sites = {
        d: sorted(str(r.path) for r in local if r.error is None and str(Path(str(r.path)).parent) == d) for d in site_dirs
    }
    site_tasks = [(files, worker) for kind, files, worker in RECORDED if kind == "site"]
    # One task per site, holding all of its files and nothing else,
    # however small files_per_task is (sites bigger than it among them).
    assert sorted(sorted(files) for files, _ in site_tasks) == sorted(expected_sites.values())
    assert sum(len(files) > files_per_task for files in expected_sites.values()) >= 3
    in_sites = {f for files in expected_sites.values() for f in files}
    batches = [files for kind, files, _ in RECORDED if kind == "batch"]
    assert not any(Path(f).name in {Path(s).name for s in in_sites} and "plain" not in f for b in batches for f in b)
    # The files in no site (the folder without node types, the file
    # alone) are batched as before, files_per_task at a time.
    assert sorted(Path(f).name for b in batches for f in b) == sorted([f"flow{i}.json" for i in range(5)] + ["alone.json"])
    assert all(len(b) <= files_per_task for b in batches)


def test_cmp9_calls_dask_units_follow_check_found_grouping() -> None:
    # The grouping alone: with a catalogue given, each directory walked (or
    # URL prefix) is a site and the files named alone are one; without, a
    # directory with its own node types is, and the other files are
    # batched, files_per_task at a time.
    from toolwire._paths import Found

    found = [Found("d/1", "d", "d"), Found("x.json", "x.json"), Found("d/2", "d", "d"), Found("e/1", "e", "e")]
    given = _cluster.units(_cluster.site_keys(found, [None] * 4, True), 1)
    assert given == [_cluster.Unit((0, 2), True, "d"), _cluster.Unit((1,), True, None), _cluster.Unit((3,), True, "e")]
    own = [["/r/d/types.yml"], None, ["/r/d/types.yml"], None]
    assert _cluster.units(_cluster.site_keys(found, own, False), 1) == [
        _cluster.Unit((0, 2), True, "d"),
        _cluster.Unit((1,)),
        _cluster.Unit((3,)),
    ]
    assert _cluster.units(_cluster.site_keys(found, [None] * 4, False), 2) == [
        _cluster.Unit((0, 1)),
        _cluster.Unit((2, 3)),
    ]


# --- the command line -------------------------------------------------------------


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> Tuple[int, str]:
    code = main(list(argv))
    out = capsys.readouterr().out
    out = re.sub(r" in \d+(\.\d+)?m?s: ", " in T: ", out)
    return code, re.sub(r'time="[0-9.]+"', 'time="T"', out)


@pytest.mark.parametrize("format", ["text", "json", "sarif", "github", "junit"])
def test_cmp9_calls_toolwire_check_dask_prints_what_a_local_run_prints(
    capsys: pytest.CaptureFixture[str],
    dask_cluster: Any,
    site_corpus: Tuple[List[str], List[toolwire.Report]],
    format: str,
) -> None:
    paths, _ = site_corpus
    argv = ["check", "--no-config", "--format", format, *paths]
    local = cli(capsys, *argv)
    if format == "json":
        document = json.loads(local[1])
        assert any(f.get("calls") for f in document["files"]), "the output shows clashes across calls"
    remote = cli(capsys, *argv, "--dask", dask_cluster.scheduler_address)
    if format == "json":
        remote, local = (
            (code, {k: v for k, v in json.loads(out).items() if k != "elapsed_seconds"}) for code, out in (remote, local)
        )
    assert remote == local and local[0] == 2, "a cycle is an input error of the site: exit 2"


# --- sites in object storage ---------------------------------------------------------


def test_cmp9_calls_dask_url_prefixes_are_sites_under_a_catalogue_given(tmp_path: Path) -> None:
    # A URL prefix is never its own catalogue, but with one given its files
    # are a site as a local directory's are: the worker fetches them and
    # checks them together. memory:// lives in this process, hence workers
    # in this process.
    fsspec = pytest.importorskip("fsspec")
    memory = fsspec.filesystem("memory")
    local_root = tmp_path / "sites"
    sites.fan_in(4).write(local_root / "fan")
    sites.cycle().write(local_root / "cyc")
    # Both sites' node types (the base types are the same in each).
    fan_types = _catalogue.node_type_files(local_root / "fan")
    names = {Path(f).name for f in fan_types}
    catalogue = fan_types + [f for f in _catalogue.node_type_files(local_root / "cyc") if Path(f).name not in names]
    for path in sorted(local_root.rglob("flowdrop_workflow.*.yml")):
        memory.pipe(f"/sites/{path.relative_to(local_root)}", path.read_bytes())
    try:
        urls = ["memory:///sites/fan/", "memory:///sites/cyc/"]
        local = toolwire.check_files([local_root / "fan", local_root / "cyc"], node_types=catalogue)
        with distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
        ) as cluster, distributed.Client(cluster, set_as_default=False) as client:
            remote = toolwire.dask.check_files(urls, client=client, node_types=catalogue, files_per_task=1)
            # Without a catalogue: no site, each file on its own, read as
            # YAML by its name as a local file is.
            alone = toolwire.dask.check_files(urls[:1], client=client, files_per_task=2)
        assert len(remote) == len(local) == 10
        as_url = str(local_root) + "/"
        for r, l in zip(remote, local):
            if isinstance(l.error, SiteError):
                assert isinstance(r.error, SiteError) and str(r.path) == "memory:///sites/cyc/"
                assert (r.error.message, r.error.workflows) == (l.error.message, l.error.workflows)
                assert r.error.files == [f.replace(as_url, "memory:///sites/") for f in l.error.files]
                continue
            assert json.dumps(r.to_dict()) == json.dumps(l.to_dict()).replace(as_url, "memory:///sites/")
        assert sum(len(r.calls) for r in remote) == 2, "one clash across calls in each site"
        by_file = [toolwire.check_file(p) for p in sorted((local_root / "fan").glob("flowdrop_workflow.*.yml"))]
        assert [r.error for r in alone] == [None] * 5
        assert [r.to_dict()["violations"] for r in alone] == [l.to_dict()["violations"] for l in by_file]
        assert not any(r.calls for r in alone)
    finally:
        memory.rm("/sites", recursive=True)
