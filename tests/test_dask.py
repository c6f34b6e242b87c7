"""``toolwire.dask`` and ``toolwire check --dask`` on a ``LocalCluster`` of
two worker processes: the same reports, output and exit status as a local
run, findings as a DataFrame, and the faults a cluster has (a file that
cannot be read, a task that fails, a worker killed while it works).

Skipped, and only then, where the optional extra is not installed
(``pip install -e '.[test]'`` installs it); tests/test_dask_extra.py checks
what happens there.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

import pytest

EXTRA = "needs the optional extra: pip install -e '.[dask]'"
distributed = pytest.importorskip("distributed", reason=EXTRA)
pytest.importorskip("dask.dataframe", reason=EXTRA)
pytest.importorskip("fsspec", reason=EXTRA)
pandas = pytest.importorskip("pandas", reason=EXTRA)

import fsspec  # noqa: E402

import toolwire  # noqa: E402
import toolwire.dask  # noqa: E402
from toolwire import generate  # noqa: E402
from toolwire.cli import main  # noqa: E402
from toolwire.dask import _cluster, _wire  # noqa: E402

from support import DATA  # noqa: E402

# --- the corpus and the cluster --------------------------------------------------

# A few hundred small workflows, the spec's examples (warnings, EDGE-5), a
# few whose findings dwarf them (one clash at 60 consumers, grouped), a
# broken one and a missing one.
SMALL = generate.PRESETS["small"].scaled(0.05)
FANOUT = replace(generate.PRESETS["clash-fanout-small"], agents=60, clash_fanout=60, clash_pairs=3)
GENERATED = 300


def make_corpus(folder: Path) -> List[str]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for seed in range(GENERATED):
        path = folder / f"w{seed:04d}.json"
        generate.generate(path, SMALL, seed=seed)
        paths.append(str(path))
        if seed % 100 == 50:
            fan = folder / f"w{seed:04d}-fanout.json"
            generate.generate(fan, FANOUT, seed=seed)
            paths.append(str(fan))
    for example in sorted(DATA.glob("*.json")):
        paths.append(str(shutil.copy(example, folder / example.name)))
    broken = folder / "broken.json"
    broken.write_text('{"nodes": [{"id": "a"}, {"id": "a"}]}', encoding="utf-8")
    not_json = folder / "not-json.json"
    not_json.write_bytes(b'{"nodes": [\xff]}')
    paths[GENERATED // 2 : GENERATED // 2] = [str(broken), str(folder / "missing.json"), str(not_json)]
    return paths


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> List[str]:
    return make_corpus(tmp_path_factory.mktemp("corpus"))


@pytest.fixture(scope="session")
def local(corpus: List[str]) -> List[toolwire.Report]:
    return toolwire.check_files(corpus, jobs=2)


def local_cluster(workers: int = 2) -> Any:
    return distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0")


@pytest.fixture(scope="session")
def cluster() -> Iterator[Any]:
    with local_cluster() as started:
        yield started


@pytest.fixture
def client(cluster: Any) -> Iterator[Any]:
    # Not the default client: each test says which cluster it uses.
    with distributed.Client(cluster, set_as_default=False) as connected:
        yield connected


# --- what "the same report" means ------------------------------------------------


def groups(report: toolwire.Report) -> List[Tuple[Any, ...]]:
    """Clash groups as plain data (a core group's consumers are a lazy
    sequence that compares by identity)."""
    return [(g.name, g.tools, g.through, list(g.consumers), g.first) for g in report.clash_groups()]


def error_of(report: toolwire.Report) -> Optional[Tuple[Any, ...]]:
    """An error as data: exceptions compare by identity."""
    e = report.error
    if e is None:
        return None
    if isinstance(e, toolwire.WorkflowError):
        return (type(e), e.message, e.line, e.column, str(e))
    if isinstance(e, OSError):
        return (type(e), e.errno, e.strerror, e.filename, str(e))
    return (type(e), str(e))


def assert_same(remote: Sequence[toolwire.Report], local: Sequence[toolwire.Report]) -> None:
    assert len(remote) == len(local)
    for r, l in zip(remote, local):
        assert type(r) is toolwire.Report
        assert (r.path, r.ok, r.violation_count, error_of(r)) == (l.path, l.ok, l.violation_count, error_of(l))
        if l.error is None:
            assert r == l  # violations (tools, paths, fixes), warnings, stats
            assert groups(r) == groups(l)
        assert r.to_dict() == l.to_dict()


# --- check_files -----------------------------------------------------------------


def test_reports_equal_check_files(client: Any, corpus: List[str], local: List[toolwire.Report]) -> None:
    remote = toolwire.dask.check_files(corpus, client=client)
    assert_same(remote, local)
    assert sum(r.error is not None for r in remote) == 3
    assert any(g.count == FANOUT.clash_fanout for r in remote for g in r.clash_groups())
    assert any(r.warnings for r in remote) and any(v.rule == "EDGE-5" for r in remote for v in r.violations)


@pytest.mark.parametrize("files_per_task", [1, 7, 10_000])
def test_any_batch_size_gives_the_same_reports(
    client: Any, corpus: List[str], local: List[toolwire.Report], files_per_task: int
) -> None:
    assert_same(toolwire.dask.check_files(corpus, client=client, files_per_task=files_per_task), local)


def test_options_reach_the_workers(client: Any, corpus: List[str]) -> None:
    options: Dict[str, Any] = {"passthrough_types": ["nothing"], "edge_types": ["data"]}
    assert_same(toolwire.dask.check_files(corpus, client=client, **options), toolwire.check_files(corpus, **options))


def test_missing_and_broken_files_fail_as_locally(client: Any, corpus: List[str], local: List[toolwire.Report]) -> None:
    failed = [i for i, report in enumerate(local) if report.error is not None]
    remote = toolwire.dask.check_files([corpus[i] for i in failed], client=client)
    missing = next(r for r in remote if isinstance(r.error, FileNotFoundError))
    assert missing.error.errno == 2 and missing.error.strerror == os.strerror(2)  # type: ignore[union-attr]
    assert missing.to_dict()["error"]["message"] == "cannot read the file: " + os.strerror(2)
    broken = next(r for r in remote if r.path is not None and r.path.endswith("broken.json"))
    assert isinstance(broken.error, toolwire.WorkflowError) and "duplicate node id" in broken.error.message
    assert_same(remote, [local[i] for i in failed])


def test_directories_and_globs_stand_for_their_workflows_as_locally(
    client: Any, corpus: List[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Expanded on the client by toolwire._paths, as check_files expands
    # them; what stands for nothing is answered without a task.
    folder = Path(corpus[0]).parent
    monkeypatch.chdir(folder.parent)
    (tmp_path / "empty").mkdir()
    given = [folder.name, f"{folder.name}/*.json", str(tmp_path / "empty"), "nothing-*.json"]
    remote = toolwire.dask.check_files(given, client=client)
    assert_same(remote, toolwire.check_files(given))
    assert [r.path for r in remote[-2:]] == [str(tmp_path / "empty"), "nothing-*.json"]
    assert all(isinstance(r.error, toolwire.PathError) for r in remote[-2:])
    with client.as_current():
        rows = toolwire.dask.findings(given, files_per_task=50).compute()
    errors = rows[rows.kind == "error"]
    assert list(errors.code).count("PathError") == 2
    assert list(errors[errors.code == "PathError"].path) == [str(tmp_path / "empty"), "nothing-*.json"]


def test_the_current_client_is_the_default(client: Any, corpus: List[str], local: List[toolwire.Report]) -> None:
    with client.as_current():
        assert_same(toolwire.dask.check_files(corpus[:20]), local[:20])


def test_no_cluster_is_a_clear_error(corpus: List[str]) -> None:
    with pytest.raises(ValueError, match=r"toolwire.dask.check_files\(\) needs a Dask cluster: pass client="):
        toolwire.dask.check_files(corpus)


def test_a_wrong_option_fails_as_locally_before_anything_is_submitted(corpus: List[str]) -> None:
    # No cluster at all: the error must come before one is looked for.
    with pytest.raises(TypeError) as here:
        toolwire.check_files(corpus, passthrough_type=["box"])  # type: ignore[call-arg]
    with pytest.raises(TypeError) as there:
        toolwire.dask.check_files(corpus, passthrough_type=["box"])
    assert str(there.value) == str(here.value) == "check_files() got an unexpected keyword argument 'passthrough_type'"
    with pytest.raises(TypeError, match="edge_types must be a collection of strings, not a single string"):
        toolwire.dask.check_files(corpus, edge_types="data")
    with pytest.raises(TypeError, match="takes no jobs on a cluster"):
        toolwire.dask.check_files(corpus, jobs=2)
    with pytest.raises(ValueError, match="files_per_task must be a positive int"):
        toolwire.dask.check_files(corpus, client=object(), files_per_task=0)  # type: ignore[arg-type]


@pytest.mark.parametrize("function", ["check_files", "findings"])
def test_one_path_for_a_sequence_of_them_is_a_type_error_before_anything_is_submitted(
    corpus: List[str], function: str
) -> None:
    call = getattr(toolwire.dask, function)
    for single in (corpus[0], corpus[0].encode(), Path(corpus[0]), "s3://bucket/flows/a.json"):
        with pytest.raises(TypeError, match=rf"^toolwire.dask.{function}\(\) takes a sequence of paths, not a single"):
            call(single)


def test_an_empty_list_needs_no_work(client: Any) -> None:
    assert toolwire.dask.check_files([], client=client) == []


def test_progress_counts_every_file_once(client: Any, corpus: List[str]) -> None:
    ticks: List[int] = []
    _cluster.check_paths(corpus, client, 25, {}, ticks.append)
    assert sum(ticks) == len(corpus) and len(ticks) == -(-len(corpus) // 25)


# --- fsspec URLs -----------------------------------------------------------------


def test_file_urls_are_read_by_the_workers(client: Any, corpus: List[str], local: List[toolwire.Report]) -> None:
    urls = [Path(p).as_uri() for p in corpus]
    remote = toolwire.dask.check_files(urls, client=client)
    assert [r.path for r in remote] == urls
    renamed = [
        replace(r, path=url, error=OSError(r.error.errno, r.error.strerror, url) if isinstance(r.error, OSError) else r.error)
        for r, url in zip(local, urls)
    ]
    assert_same(remote, renamed)


def _put_in_memory(files: Dict[str, bytes]) -> None:
    """Writes files into this process's fsspec memory filesystem."""
    memory = fsspec.filesystem("memory")
    for path, data in files.items():
        memory.pipe_file(path, data)


def test_other_urls_are_read_through_fsspec(client: Any, corpus: List[str], local: List[toolwire.Report]) -> None:
    # memory:// lives in each process, so each worker gets its own copy:
    # the workers read it through fsspec, as they would read s3://.
    texts = {f"/corpus/{Path(p).name}": Path(p).read_bytes() for p in corpus if os.path.exists(p)}
    client.run(_put_in_memory, texts)
    urls = [f"memory:///corpus/{Path(p).name}" for p in corpus]
    remote = toolwire.dask.check_files(urls, client=client)
    assert [r.path for r in remote] == urls
    for r, l, url in zip(remote, local, urls):
        if isinstance(l.error, OSError):
            assert error_of(r) == (FileNotFoundError, 2, os.strerror(2), url, f"[Errno 2] {os.strerror(2)}: {url!r}")
        else:
            assert_same([r], [replace(l, path=url)])


# --- findings --------------------------------------------------------------------


def expected_rows(reports: Sequence[toolwire.Report]) -> int:
    return sum(1 if r.error is not None else r.violation_count + len(r.warnings) for r in reports)


def test_findings_has_one_row_per_finding(client: Any, corpus: List[str], local: List[toolwire.Report], tmp_path: Path) -> None:
    with client.as_current():
        frame = toolwire.dask.findings(corpus, files_per_task=40)
        assert frame.npartitions == -(-len(corpus) // 40)
        rows = frame.compute()
        assert len(rows) == expected_rows(local)
        assert list(rows.columns) == ["path", "kind", "code", "consumer", "name", "node", "edge", "message", "line", "column"]
        violations = rows[rows.kind == "violation"]
        everything = [(r.path, v.rule, v.consumer, v.message, v.location) for r in local for v in r.violations]
        assert [
            (p, c, None if pandas.isna(n) else n, m, (line, column))
            for p, c, n, m, line, column in zip(
                violations.path, violations.code, violations.consumer, violations.message, violations.line, violations.column
            )
        ] == everything
        errors = rows[rows.kind == "error"]
        assert sorted(errors.code) == ["FileNotFoundError", "WorkflowError", "WorkflowError"]
        assert set(rows[rows.kind == "warning"].code) <= {"R8", "NAME-LOSSY", "NAME-UNNAMED"}
        frame.to_parquet(tmp_path / "findings")
    assert len(pandas.read_parquet(tmp_path / "findings")) == len(rows)


# --- faults ----------------------------------------------------------------------


def test_a_worker_killed_mid_run_costs_a_retry_not_a_report(corpus: List[str], local: List[toolwire.Report]) -> None:
    # Its own cluster: one of its workers dies. A task per file, each file
    # twice: hundreds of tasks are still queued or running when the first
    # answer arrives, so the worker killed then is at work.
    with local_cluster() as cluster, distributed.Client(cluster, set_as_default=False) as client:
        pids: Dict[str, int] = client.run(os.getpid)
        killed: List[str] = []

        def kill_a_busy_worker(files: int) -> None:
            # At the first answer after which a worker holds tasks still to
            # answer (answers come fast: there may be none at the first).
            busy = [worker for worker, tasks in client.processing().items() if tasks]
            if busy and not killed:
                os.kill(pids[busy[0]], signal.SIGKILL)
                killed.append(busy[0])

        remote = _cluster.check_paths(corpus * 2, client, 1, {}, kill_a_busy_worker)
        assert killed
        assert_same(remote, local * 2)
        client.wait_for_workers(2, timeout=30)  # the nanny restarted it
        assert set(client.run(os.getpid).values()) != set(pids.values())


def _fail_on_poison(paths: Sequence[str], options: Dict[str, Any], own: Any = None) -> List[Any]:
    if any(p.endswith("w0007.json") for p in paths):
        raise MemoryError("poison")
    from toolwire.dask._worker import check_batch

    return check_batch(paths, options, own)


def test_a_failing_task_is_run_again_file_by_file(
    monkeypatch: pytest.MonkeyPatch, corpus: List[str], local: List[toolwire.Report]
) -> None:
    # Workers in this process, so that they run the patched task.
    monkeypatch.setattr(_cluster, "check_batch", _fail_on_poison)
    monkeypatch.setattr(_cluster, "RETRIES", 0)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster, distributed.Client(cluster, set_as_default=False) as client:
        remote = toolwire.dask.check_files(corpus[:40], client=client, files_per_task=10)
    poison = next(i for i, p in enumerate(corpus[:40]) if p.endswith("w0007.json"))
    assert isinstance(remote[poison].error, RuntimeError) and "MemoryError: poison" in str(remote[poison].error)
    assert_same(remote[:poison] + remote[poison + 1 :], local[:poison] + local[poison + 1 : 40])


def ids_of(report: toolwire.Report) -> int:
    """The ids a report's findings name, as ``MAX_SHIPPED_IDS`` counts them."""
    return report.violation_count + sum(1 + len(t.path) for v in report.violations for t in v.tools)


def test_a_report_travels_as_the_cores_bytes_and_comes_back_equal(tmp_path: Path) -> None:
    path = tmp_path / "fanout.json"
    generate.generate(path, FANOUT, seed=1)
    for report in [toolwire.check_file(path), *(toolwire.check_file(p) for p in sorted(DATA.glob("*.json")))]:
        packed = _wire.pack(report)
        assert isinstance(packed, bytes)  # no Python object per finding
        shipped = _wire.unpack(packed, str(report.path))
        assert type(shipped) is toolwire.Report and shipped == report
        assert groups(shipped) == groups(report) and shipped.to_dict() == report.to_dict()
        assert _wire.pack(shipped) == packed  # a shipped report encodes as it came


def test_the_workers_batch_encoder_packs_what_pack_packs(corpus: List[str]) -> None:
    # Local files skip the reports: the core encodes them as it checks them.
    for options in [{}, {"passthrough_types": ["agent"], "edge_types": ["tool"]}]:
        expected = [_wire.pack(r) for r in toolwire.check_files(corpus, jobs=1, **options)]
        assert any(isinstance(p, tuple) for p in expected) and any(isinstance(p, bytes) for p in expected)
        assert _wire.pack_files(corpus, options) == expected
    fanout = [p for p in corpus if p.endswith("-fanout.json")]
    capped = [_wire.pack(r, budget=100) for r in toolwire.check_files(fanout, jobs=1)]
    assert capped[0][:2] == ("error", "too-large")
    assert _wire.pack_files(fanout, {}, budget=100) == capped


def test_findings_too_large_to_send_back_say_so(tmp_path: Path) -> None:
    path = tmp_path / "fanout.json"
    generate.generate(path, FANOUT, seed=1)
    report = toolwire.check_file(path)
    ids = ids_of(report)
    assert ids > report.violation_count * 3  # paths count, not only violations
    assert _wire.unpack(_wire.pack(report, budget=ids), str(path)) == report
    capped = _wire.unpack(_wire.pack(report, budget=ids - 1), str(path))
    assert isinstance(capped.error, toolwire.dask.FindingsTooLarge) and not capped.ok
    assert capped.error.violation_count == report.violation_count
    assert "toolwire.check_file()" in capped.to_dict()["error"]["message"]


def test_errors_travel_as_tuples_and_come_back_as_they_were() -> None:
    expected = [
        (toolwire.WorkflowError("duplicate node id", 1, 25), lambda e: (type(e), e.message, e.line, e.column),
         (toolwire.WorkflowError, "duplicate node id", 1, 25)),
        # The path comes back as the client gave it, not as the worker read it.
        (OSError(2, os.strerror(2), "/worker/a.json"), lambda e: (type(e), e.errno, e.strerror, e.filename),
         (FileNotFoundError, 2, os.strerror(2), "a.json")),
        # A directory's own node types a worker could not read (SEMANTICS 11).
        (toolwire.CatalogueError("`id` must be a string", 1, 5, "t.yml"),
         lambda e: (type(e), e.message, e.line, e.column, e.path, str(e)),
         (toolwire.CatalogueError, "node-type catalogue t.yml: `id` must be a string", 1, 5, "t.yml",
          "node-type catalogue t.yml: `id` must be a string at line 1, column 5")),
        (toolwire.dask.FindingsTooLarge(12), lambda e: (type(e), e.violation_count), (toolwire.dask.FindingsTooLarge, 12)),
        (MemoryError("poison"), lambda e: (type(e), str(e)), (RuntimeError, "MemoryError: poison")),
    ]  # fmt: skip
    for error, fields, want in expected:
        packed = _wire.pack(toolwire._report.failed_report("a.json", error))
        assert isinstance(packed, tuple)
        assert fields(_wire.unpack(packed, "a.json").error) == want


def test_bytes_that_are_not_a_report_are_refused() -> None:
    good = _wire.pack(toolwire.check_file(DATA / "multi-violation.json"))
    assert isinstance(good, bytes)
    for bad in [b"", b"\x80\x04]", good[:-1], good + b"\x00", b"XXXX" + good[4:]]:
        with pytest.raises(ValueError, match="not a toolwire report snapshot"):
            _wire.unpack(bad, "a.json")


def test_storage_errors_read_as_the_operating_system_says_them() -> None:
    assert str(_wire.read_error(FileNotFoundError("bucket/key"))) == f"[Errno 2] {os.strerror(2)}"
    assert _wire.read_error(PermissionError("denied")).strerror == os.strerror(13)
    assert _wire.read_error(ValueError("Protocol not known: xyz")).strerror == "ValueError: Protocol not known: xyz"


# --- the command line ------------------------------------------------------------

FORMATS = ["text", "json", "sarif", "github", "junit"]


def without_time(text: str) -> str:
    """The run's elapsed time, the one thing two runs print differently."""
    text = re.sub(r" in \d+(\.\d+)?m?s: ", " in T: ", text)
    return re.sub(r'time="[0-9.]+"', 'time="T"', text)


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> Tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, without_time(captured.out), captured.err


@pytest.mark.parametrize("format", FORMATS)
def test_cli_prints_what_a_local_run_prints(
    capsys: pytest.CaptureFixture[str], cluster: Any, corpus: List[str], format: str
) -> None:
    argv = ["check", "--no-config", "--format", format, *corpus]
    local = cli(capsys, *argv)
    assert local[0] == 2  # a missing and a broken file
    assert cli(capsys, *argv, "--dask", cluster.scheduler_address) == local


def test_cli_exit_status_follows_the_verdicts(capsys: pytest.CaptureFixture[str], cluster: Any) -> None:
    accepted, refused = str(DATA / "spec-cmp9-accepted.json"), str(DATA / "spec-cmp9-refused.json")
    address = cluster.scheduler_address
    for argv, code in (([accepted], 0), ([refused], 1), ([refused, "--exit-zero"], 0), ([refused, "--strict"], 1)):
        assert cli(capsys, "check", "--no-config", *argv)[0] == code
        assert cli(capsys, "check", "--no-config", *argv, "--dask", address)[0] == code


def test_cli_expands_globs_directories_and_url_prefixes(
    capsys: pytest.CaptureFixture[str], cluster: Any, corpus: List[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = Path(corpus[0]).parent
    monkeypatch.chdir(folder.parent)
    files = sorted(f"{folder.name}/{p.name}" for p in folder.glob("*.json"))
    local = cli(capsys, "check", "--no-config", "--format", "json", *files)
    address = cluster.scheduler_address
    assert cli(capsys, "check", "--no-config", "--format", "json", f"{folder.name}/*.json", "--dask", address) == local
    assert cli(capsys, "check", "--no-config", "--format", "json", folder.name, "--dask", address) == local
    urls = cli(capsys, "check", "--no-config", "--format", "json", folder.as_uri() + "/", "--dask", address)
    assert urls[0] == local[0]
    assert [f["path"] for f in json.loads(urls[1])["files"]] == [(folder.parent / f).as_uri() for f in files]
    nothing = cli(capsys, "check", "--no-config", f"{folder.name}/*.yaml", "--dask", address)
    assert nothing[0] == 2 and f"{folder.name}/*.yaml: error: no file matches this pattern" in nothing[1]
    assert nothing == cli(capsys, "check", "--no-config", f"{folder.name}/*.yaml")
    # A URL prefix with no workflow below it says so too.
    (folder.parent / "no-flows").mkdir(exist_ok=True)
    empty = cli(capsys, "check", "--no-config", (folder.parent / "no-flows").as_uri() + "/", "--dask", address)
    assert empty[0] == 2 and "error: no workflow file below this URL" in empty[1]


def test_cli_refuses_an_output_inside_a_folder_or_glob_it_checks(
    capsys: pytest.CaptureFixture[str], cluster: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The folder given stands for its .json files, the output among them:
    # refused once expanded, before any is read.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "flows").mkdir()
    for name in ("a.json", "b.json"):
        shutil.copyfile(DATA / "spec-cmp9-refused.json", tmp_path / "flows" / name)
    before = (tmp_path / "flows" / "b.json").read_bytes()
    for given in ("flows", "flows/*.json"):
        code, out, err = cli(capsys, "check", "--no-config", "-o", "flows/b.json", given, "--dask", cluster.scheduler_address)
        assert (code, out) == (2, "")
        assert err.startswith("toolwire: --output flows/b.json is the input flows/b.json: "), err
        assert (tmp_path / "flows" / "b.json").read_bytes() == before


def test_cli_refuses_what_it_cannot_do(capsys: pytest.CaptureFixture[str], cluster: Any) -> None:
    refused = str(DATA / "spec-cmp9-refused.json")
    for spec in ("local:0", "local:two"):
        code, out, err = cli(capsys, "check", refused, "--dask", spec)
        assert (code, out) == (2, "") and "expected local:N with N at least 1" in err
    code, _, err = cli(capsys, "check", refused, "--jobs", "2", "--dask", cluster.scheduler_address)
    assert code == 2 and "--jobs and --dask do not go together" in err


def test_cli_starts_a_local_cluster(tmp_path: Path, corpus: List[str]) -> None:
    argv = [sys.executable, "-m", "toolwire", "check", "--no-config", "--format", "sarif", *corpus[:30]]
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    here = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env)
    there = subprocess.run([*argv, "--dask", "local:2"], cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env)
    assert (there.returncode, there.stdout) == (here.returncode, here.stdout)
    assert here.returncode == 1


def test_cli_with_dask_draws_progress_on_a_terminal(
    cluster: Any, corpus: List[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal = io.StringIO()
    terminal.isatty = lambda: True  # type: ignore[method-assign]
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setenv("TERM", "xterm")
    from toolwire import _progress

    made: List[_progress.Progress] = []
    real = _progress.Progress

    def recording(*args: Any, **kwargs: Any) -> _progress.Progress:
        # Redrawn at every step, however fast the cluster: what was drawn is
        # then every count the bar went through.
        made.append(real(*args, **kwargs, interval=0.0))
        return made[-1]

    monkeypatch.setattr("toolwire._check_command.Progress", recording)
    main(["check", "--no-config", "--format", "json", *corpus, "--dask", cluster.scheduler_address])
    assert made[0].enabled and made[0].done == made[0].total == len(corpus)
    drawn = terminal.getvalue()
    # The bar, then its erasure, then what the check says on stderr.
    assert _progress._ERASE_LINE in drawn, f"the bar is erased once done: {drawn!r}"
    bars = drawn[: drawn.index(_progress._ERASE_LINE)].split("\r")
    assert bars[0] == "" and len(bars) > 1, f"no bar drawn: {drawn!r}"
    drawn_bars = [re.fullmatch(r"checking +(\d+)/\d+ files \[[=> ]+\] \d+%", bar) for bar in bars[1:]]
    assert all(drawn_bars), f"not a bar: {bars}"
    counts = [int(bar[1]) for bar in drawn_bars if bar]
    assert counts == sorted(counts) and counts[-1] == len(corpus), bars
    assert bars[-1] == f"checking {len(corpus)}/{len(corpus)} files [{'=' * _progress._BAR_WIDTH}] 100%"
