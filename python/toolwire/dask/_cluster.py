"""The client's side: which cluster, how many files per task, and running
the tasks so that every file gets exactly one answer.

Tasks are submitted in a sliding window (a few per worker thread) rather
than all at once: ten million paths would otherwise sit in the scheduler as
one graph of hundreds of megabytes. Each task covers a contiguous slice of
the files, and its answer is stored by that slice, so a task that runs twice
(its worker died and the scheduler ran it again, or a retry) still fills its
slice once. A task that fails for good is run again file by file, so one
file that kills its worker costs only its own answer.
"""

from __future__ import annotations

import math
import pickle
import os
import uuid
from collections import Counter, deque
from typing import Any, Callable, Deque, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple, Union

import distributed
import fsspec

from .. import _catalogue
from .._arguments import refuse_single_path, type_names
from .._paths import Found
from .._report import Report, failed_report
from ._expand import expand
from ._wire import pack_error, site_from_answers, unpack
from ._worker import OwnCatalogues, check_batch, check_site_batch, is_local

TASKS_PER_THREAD = 4
"""Tasks per worker thread, for the default ``files_per_task`` and for the
window of tasks in flight: enough that no thread waits for work while the
client hands out the next task, and that the last tasks are short."""

MAX_FILES_PER_TASK = 2000
"""The default's upper bound (docs/DISTRIBUTED.md has the model): about a
second of checking and 100 MB read for 50 KB files, so the scheduler's
~1 ms per task is lost in it, and a retry redoes little."""

RETRIES = 2
"""Times the scheduler runs again a task that raised (a storage client's
transient error). A task whose worker died is run again anyway, up to
distributed's ``allowed-failures``."""

RESUBMISSIONS = 3
"""Times a task whose answer was lost after it finished is submitted again."""

OPTIONS = ("passthrough_types", "edge_types", "node_types")

Paths = Sequence[Union[str, "os.PathLike[str]"]]
"""What the client's functions take: local paths or fsspec URLs."""


def client_or_default(client: Optional[distributed.Client], function: str) -> distributed.Client:
    """``client``, or the current ``distributed`` client."""
    if client is not None:
        return client
    try:
        current: distributed.Client = distributed.default_client()
    except ValueError:
        raise ValueError(
            f"toolwire.dask.{function}() needs a Dask cluster: pass client=, or start a "
            "distributed.Client first (distributed.Client(address), or distributed.Client() for one on "
            "this machine)"
        ) from None
    return current


def validated_options(options: Dict[str, Any], function: str) -> Dict[str, Any]:
    """The checking options, refused as ``toolwire.check_files`` refuses
    them, before anything is submitted."""
    for key in options:
        if key == "jobs":
            raise TypeError(
                f"{function}() takes no jobs on a cluster: each worker thread checks one batch at a time "
                "(see files_per_task)"
            )
        if key not in OPTIONS:
            raise TypeError(f"{function}() got an unexpected keyword argument {key!r}")
    checked: Dict[str, Any] = {key: type_names(key, options[key]) for key in OPTIONS[:2] if key in options}
    files = _catalogue.catalogue_paths(options.get("node_types"), function)
    if files is not None:
        # Read here first, so a catalogue that cannot be used stops the run
        # before anything is submitted; workers read the same files (by
        # absolute path: their working directory may differ).
        _catalogue.load(files, function)
        checked["node_types"] = [os.path.abspath(f) for f in files]
    return checked


def given_paths(paths: Iterable[Any], function: str) -> List[str]:
    """The paths as given, refused as ``toolwire.check_files`` refuses them."""
    refuse_single_path(paths, f"toolwire.dask.{function}", "call toolwire.check_file(path) for one local file")
    given = [os.fspath(p) for p in paths]
    for path in given:
        if not isinstance(path, str):
            raise TypeError(f"{function}() takes str paths, fsspec URLs or os.PathLike of str")
    return given


def path_to_read(path: str) -> str:
    """A file as the workers read it: a local path made absolute, so it
    means the same on a worker whose working directory differs; a
    ``file://`` URL made a local path, so the Rust batch reads it."""
    if is_local(path):
        return os.path.abspath(path)
    if "::" not in path and fsspec.utils.get_protocol(path) == "file":
        return str(fsspec.core.url_to_fs(path)[1])
    return path


def worker_threads(client: distributed.Client) -> int:
    """Threads the cluster has now (at least 1: a cluster still starting)."""
    threads: Dict[str, int] = client.nthreads()
    return max(1, sum(threads.values()))


def default_files_per_task(files: int, threads: int) -> int:
    """``TASKS_PER_THREAD`` tasks per thread, at most ``MAX_FILES_PER_TASK``
    files each."""
    return max(1, min(MAX_FILES_PER_TASK, math.ceil(files / (TASKS_PER_THREAD * threads))))


def validated_files_per_task(files_per_task: Optional[int]) -> Optional[int]:
    if files_per_task is None:
        return None
    if isinstance(files_per_task, bool) or not isinstance(files_per_task, int) or files_per_task < 1:
        raise ValueError(f"files_per_task must be a positive int or None, got {files_per_task!r}")
    return files_per_task


class Unit(NamedTuple):
    """What one task checks: files of a run (indexes into its ``read``, in
    order), either a batch of files checked each on its own or, ``site``
    true, the whole of one site (SEMANTICS 12), checked together whatever
    ``files_per_task`` says, its errors reported at ``where`` (the site's
    directory, or None: the first file an error names)."""

    files: Tuple[int, ...]
    site: bool = False
    where: Optional[str] = None


SiteKey = Tuple[bool, Optional[str]]
"""Which site a file is in: (by its directory's own catalogue, the
directory walked or None)."""


def site_keys(
    checked: Sequence[Found],
    catalogues: Sequence[Optional[List[str]]],
    catalogue_given: bool,
) -> List[Optional[SiteKey]]:
    """For each file to check, its site, or None for a file in none.
    Files are grouped into sites as ``toolwire.check_found`` groups them:
    with a catalogue given, by the directory walked (files named alone
    being one site); without, by the directory whose own catalogue they
    use (a URL prefix never has one: docs/DISTRIBUTED.md). A file without
    a catalogue is in none: no call is known."""
    return [
        (own is not None, entry.directory) if catalogue_given or own is not None else None
        for entry, own in zip(checked, catalogues)
    ]


def units(keys: Sequence[Optional[SiteKey]], files_per_task: int) -> List[Unit]:
    """The tasks of a run, in the order of their first file: each site
    (``site_keys``) one task, however many files it has, so its calls are
    followed on one worker with all its files; the other files cut into
    batches of ``files_per_task``."""
    sites: Dict[SiteKey, List[int]] = {}
    alone: List[int] = []
    for k, key in enumerate(keys):
        if key is None:
            alone.append(k)
        else:
            sites.setdefault(key, []).append(k)
    found = [Unit(tuple(files), True, directory) for (_, directory), files in sites.items()]
    found.extend(Unit(tuple(alone[i : i + files_per_task])) for i in range(0, len(alone), files_per_task))
    return sorted(found, key=lambda unit: unit.files[0])


def check_on_cluster(
    client: distributed.Client,
    given: Sequence[str],
    read: Sequence[str],
    options: Dict[str, Any],
    tasks: Sequence[Unit],
    on_done: Callable[[int], None] = lambda files: None,
    catalogues: Optional[Sequence[Optional[List[str]]]] = None,
) -> Tuple[List[Report], List[Report]]:
    """One report per path of ``read``, in order, checked on the cluster by
    ``tasks`` (``check_batch`` for a batch, ``check_site_batch`` for a
    site) and named by the path as ``given``; and after them the reports
    of the sites' errors (``SiteError``), site by site in the order of
    ``tasks``. ``on_done(n)``: n more files answered. ``catalogues``: for
    each path of ``read``, the node-type files of its directory's own
    catalogue, or None (see ``own_catalogues``)."""
    run = _Run(client, given, read, options, on_done, catalogues)
    run.todo.extend(tasks)
    return run.answers()


class _Run:
    """The tasks of one ``check_on_cluster`` call, and their answers."""

    def __init__(
        self,
        client: distributed.Client,
        given: Sequence[str],
        read: Sequence[str],
        options: Dict[str, Any],
        on_done: Callable[[int], None],
        catalogues: Optional[Sequence[Optional[List[str]]]] = None,
    ) -> None:
        self.client, self.given, self.read, self.options, self.on_done = client, given, read, options, on_done
        self.catalogues = catalogues
        self.todo: Deque[Unit] = deque()
        self.running: Dict["distributed.Future[bytes]", Unit] = {}
        self.lost: Counter[Unit] = Counter()
        self.window = TASKS_PER_THREAD * worker_threads(client)
        self.name = f"toolwire-check-{uuid.uuid4().hex}"
        # Answers are fetched as tasks finish, on the client's event loop,
        # not one round trip at a time from here.
        self.done = distributed.as_completed(loop=client.loop, with_results=True, raise_errors=False)
        self.answered: List[Optional[Report]] = [None] * len(read)
        self.site_errors: Dict[int, List[Report]] = {}
        """By a site's first file: the reports of its errors."""

    def answers(self) -> Tuple[List[Report], List[Report]]:
        try:
            self.submit()
            for future, answer in self.done:
                self.settle(future, answer)
                future.release()
                self.submit()
        finally:
            # Ctrl-C or a lost client: nothing left running on the cluster.
            if self.running:
                self.client.cancel(list(self.running))
        assert all(a is not None for a in self.answered), "every file is answered"
        errors = [report for first in sorted(self.site_errors) for report in self.site_errors[first]]
        return self.answered, errors  # type: ignore[return-value]

    def submit(self) -> None:
        """Tasks from ``todo`` until the window is full."""
        while self.todo and len(self.running) < self.window:
            unit = self.todo.popleft()
            files = unit.files
            # A task's files are unique to it (a site, a batch, or one file
            # of a batch run again alone): its first file, its size and its
            # kind name it.
            key = f"{self.name}-{'site' if unit.site else 'batch'}-{files[0]}-{len(files)}-{self.lost[unit]}"
            read = [self.read[i] for i in files]
            own = None if self.catalogues is None else [self.catalogues[i] for i in files]
            if unit.site:
                names = [self.given[i] for i in files]
                future = self.client.submit(
                    check_site_batch, read, names, self.options, None if own is None else own[0], key=key, retries=RETRIES
                )
            else:
                own_files = None if own is None else task_catalogues(own)
                future = self.client.submit(check_batch, read, self.options, own_files, key=key, retries=RETRIES)
            self.running[future] = unit
            self.done.add(future)

    def settle(self, future: "distributed.Future[bytes]", answer: Any) -> None:
        """Stores a task's answers by its files, so that files answered
        twice (their task run again) are still answered once. They are made
        reports here, as each task ends, so that the client's share of the
        work overlaps the workers' instead of following the last task."""
        unit = self.running.pop(future)
        files = unit.files
        if future.status == "finished":
            # From this project's own workers, as every Dask result is.
            if unit.site:
                packed, tuples = pickle.loads(answer)
                names = [self.given[i] for i in files]
                reports = site_from_answers(packed, tuples, names, unit.where)
                for i, report in zip(files, reports):
                    self.answered[i] = report
                self.site_errors[files[0]] = reports[len(files) :]
            else:
                for i, p in zip(files, pickle.loads(answer)):
                    self.answered[i] = unpack(p, self.given[i])
            self.on_done(len(files))
        elif future.status != "error" and self.lost[unit] < RESUBMISSIONS:
            # Its answer died with a worker before it reached us (or the
            # scheduler dropped the task): the same files, as a new task.
            self.lost[unit] += 1
            self.todo.appendleft(unit)
        elif len(files) > 1 and not unit.site:
            # Which file failed is unknown: each is tried on its own.
            self.todo.extendleft(Unit((i,)) for i in reversed(files))
        else:
            # A site is not cut up: its files checked apart would lose the
            # calls between them, a silent pass. Each is answered with the
            # failure instead.
            failure = pack_error(_failure(future, answer))
            for i in files:
                self.answered[i] = unpack(failure, self.given[i])
            self.on_done(len(files))


def _failure(future: "distributed.Future[bytes]", answer: Any) -> BaseException:
    """What a failed task raised (as_completed hands over its exception,
    type and traceback)."""
    if isinstance(answer, BaseException):  # cancelled
        return answer
    if isinstance(answer, tuple) and len(answer) == 3 and isinstance(answer[1], BaseException):
        return answer[1]
    return RuntimeError(f"the task ended as {future.status}")


# --- a directory's own node types (SEMANTICS 11) ------------------------------------


def own_catalogues(
    found: Sequence[Found], options: Dict[str, Any]
) -> Tuple[List[Optional[Exception]], List[Optional[List[str]]]]:
    """What ``toolwire.check_found`` does with a checked directory that
    holds Drupal node types, done on the client before any task: for each
    entry of ``found``, the error that answers it without a task (its own
    ``PathError``, or its directory's catalogue that cannot be used, read
    here once per directory as ``check_files`` reads it, so the error is
    the local one word for word); and for each entry left to check, the
    node-type files (absolute: a worker's working directory may differ)
    of its directory's catalogue, or None. A catalogue given wins: then
    every file is None here. Local directories only: the core reads a
    catalogue from local files, and a URL prefix's files are not local
    (docs/DISTRIBUTED.md)."""
    given = options.get("node_types") is not None
    directories = _catalogue.DirectoryCatalogues()
    looked: Dict[str, Union[None, Exception, List[str]]] = {}
    errors: List[Optional[Exception]] = []
    catalogues: List[Optional[List[str]]] = []
    for entry in found:
        own: Union[None, Exception, List[str]] = None
        if entry.error is None and not given and entry.directory is not None and is_local(entry.directory):
            if entry.directory not in looked:
                looked[entry.directory] = _look(directories, entry.directory)
            own = looked[entry.directory]
        if entry.error is not None or isinstance(own, Exception):
            errors.append(entry.error if entry.error is not None else own)  # type: ignore[arg-type]
            continue
        errors.append(None)
        catalogues.append(own)
    return errors, catalogues


def _look(directories: _catalogue.DirectoryCatalogues, directory: str) -> Union[None, Exception, List[str]]:
    """A directory's own catalogue as its files (absolute, for the
    workers), the error reading it gives, or None when it holds no node
    types."""
    own = directories.of(directory)
    if own is None or isinstance(own, Exception):
        return own
    return [os.path.abspath(f) for f in directories.files_of(directory)]


def task_catalogues(catalogues: Sequence[Optional[List[str]]]) -> Optional[OwnCatalogues]:
    """The own catalogues of one task's files as the task takes them: each
    distinct one once (files of one directory share one list), and for
    each file the index of its own, or -1; None when no file has one, so
    that a run without them sends nothing more."""
    distinct: List[List[str]] = []
    index: Dict[int, int] = {}
    of: List[int] = []
    for files in catalogues:
        if files is None:
            of.append(-1)
            continue
        if id(files) not in index:
            index[id(files)] = len(distinct)
            distinct.append(files)
        of.append(index[id(files)])
    return (distinct, of) if distinct else None


# --- the client's way in (toolwire.dask's functions and the CLI's --dask) --------


class Plan(NamedTuple):
    """A run, as ``prepare`` makes it before anything is submitted."""

    options: Dict[str, Any]
    found: List[Found]
    errors: List[Optional[Exception]]
    """For each entry of ``found``, what answers it without a task, or None."""
    read: List[str]
    """The entries to check (``errors`` None), as the workers read them."""
    catalogues: List[Optional[List[str]]]
    """For each of ``read``, its directory's own node-type files, or None."""
    client: distributed.Client
    per_task: int


def prepare(
    paths: Paths,
    client: Optional[distributed.Client],
    files_per_task: Optional[int],
    options: Any,
    caller: str,
    found: Optional[Sequence[Found]] = None,
) -> Plan:
    """What ``toolwire.dask.check_files`` and ``findings`` check before
    submitting anything: the options, the batch size, the paths (expanded
    here, on the client, unless ``found`` already holds them: the CLI's
    ``--dask`` expands before it reads anything), each directory's own
    catalogue (``own_catalogues``), the files as the workers read them,
    the client, and the batch size the cluster implies if none was given."""
    checked = validated_options(options, caller)
    per_task = validated_files_per_task(files_per_task)
    if found is None:
        found = expand(given_paths(paths, caller)).found
    errors, catalogues = own_catalogues(found, checked)
    read = [path_to_read(f.path) for f, error in zip(found, errors) if error is None]
    client = client_or_default(client, caller)
    if per_task is None:
        per_task = default_files_per_task(len(read), worker_threads(client))
    return Plan(checked, list(found), errors, read, catalogues, client, per_task)


def check_paths(
    paths: Paths,
    client: Optional[distributed.Client],
    files_per_task: Optional[int],
    options: Any,
    on_done: Callable[[int], None] = lambda files: None,
    found: Optional[Sequence[Found]] = None,
) -> List[Report]:
    """``toolwire.dask.check_files``, with ``on_done(n)`` called as n more
    files are answered: the CLI's ``--dask`` runs this, for its progress
    bar, which the public function has no place for, with the paths it
    has expanded (``found``). A path that stands for no file (``PathError``)
    is answered here, without a task; so is a file whose directory's own
    catalogue cannot be used, counted by ``on_done`` (the CLI counts the
    ``PathError`` entries itself)."""
    plan = prepare(paths, client, files_per_task, options, "check_files", found)
    checked = [f for f, error in zip(plan.found, plan.errors) if error is None]
    refused = sum(1 for f, error in zip(plan.found, plan.errors) if error is not None and f.error is None)
    if refused:
        on_done(refused)
    keys = site_keys(checked, plan.catalogues, plan.options.get("node_types") is not None)
    tasks = units(keys, plan.per_task)
    reports, site_errors = check_on_cluster(
        plan.client, [f.path for f in checked], plan.read, plan.options, tasks, on_done, plan.catalogues
    )
    checked_reports = iter(reports)
    # Each error of a site is a report of its own after the files', as
    # toolwire.check_files places it.
    return [
        next(checked_reports) if error is None else failed_report(f.path, error) for f, error in zip(plan.found, plan.errors)
    ] + site_errors
