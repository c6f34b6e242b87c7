"""The checking functions: one per kind of input, all with the same options."""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from . import _catalogue, _toolwire
from ._arguments import refuse_single_path, type_names
from ._catalogue import NodeTypesArg
from ._errors import SiteError, WorkflowError
from ._explain_site import SiteViews, index_of
from ._paths import Found, expand
from ._progress import chunks
from ._records import CallView, ConsumerView
from ._report import (
    CallTuple,
    Report,
    SiteWarningTuple,
    failed_report,
    report_from_core,
    view_from_core,
    with_site,
)

DEFAULT_PASSTHROUGH_TYPES = tuple(_toolwire.DEFAULT_PASSTHROUGH_TYPES)
"""Node types that forward every tool wired into them."""
DEFAULT_EDGE_TYPES = tuple(_toolwire.DEFAULT_EDGE_TYPES)
"""``data.edgeType`` values recognised by EDGE-5."""
TOOL_EDGE_TYPE = "tool_availability"
"""The declaration that makes an edge a tool edge (EDGE-5): recognised
whatever ``edge_types`` says, as the core has it (src/config.rs)."""


def _json_text(data: Union[str, bytes, bytearray, memoryview], function: str) -> Union[str, bytes]:
    """JSON text the core can read without the GIL: mutable buffers are
    copied first."""
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    if not isinstance(data, (str, bytes)):
        raise TypeError(f"{function}() takes str or bytes, not {type(data).__name__}")
    return data


INPUT_FORMATS = ("json", "yaml")
"""What ``input_format`` may name; None reads a file by its name (YAML for
``.yml`` and ``.yaml``, JSON otherwise)."""


def _input_format(input_format: Optional[str], function: str) -> Optional[str]:
    if input_format is not None and input_format not in INPUT_FORMATS:
        raise ValueError(f"{function}() takes input_format 'json', 'yaml' or None, not {input_format!r}")
    return input_format


def _file_path(path: Union[str, "os.PathLike[str]"], function: str) -> str:
    fspath = os.fspath(path)
    if not isinstance(fspath, str):
        raise TypeError(f"{function}() takes a str path or an os.PathLike of str")
    return fspath


def check(
    workflow: Mapping[str, Any],
    *,
    passthrough_types: Iterable[str] = DEFAULT_PASSTHROUGH_TYPES,
    edge_types: Iterable[str] = DEFAULT_EDGE_TYPES,
    node_types: NodeTypesArg = None,
) -> Report:
    """Checks an already-parsed workflow (as ``json.loads`` returns it).
    ``node_types``: a node-type catalogue (a file, a Drupal config
    directory, or a sequence of them) to check CMP-10 against; without one
    CMP-10 is not checked (``Report.stats.node_types_checked``)."""
    passthrough, edges = type_names("passthrough_types", passthrough_types), type_names("edge_types", edge_types)
    catalogue = _catalogue.load(node_types, "check")
    return report_from_core(_toolwire.check_mapping(workflow, passthrough, edges, catalogue))


def check_json(
    data: Union[str, bytes, bytearray, memoryview],
    *,
    passthrough_types: Iterable[str] = DEFAULT_PASSTHROUGH_TYPES,
    edge_types: Iterable[str] = DEFAULT_EDGE_TYPES,
    node_types: NodeTypesArg = None,
) -> Report:
    """Checks a workflow given as JSON text. Mutable buffers are copied first,
    because the check runs without the GIL. ``node_types``: as for ``check``."""
    return _check_text(_toolwire.check_json, "check_json", data, passthrough_types, edge_types, node_types)


def _check_text(
    check_in_core: Callable[..., Any],
    function: str,
    data: Union[str, bytes, bytearray, memoryview],
    passthrough_types: Iterable[str],
    edge_types: Iterable[str],
    node_types: NodeTypesArg,
) -> Report:
    """``check_json`` or ``check_yaml``: the text checked by the core's
    `check_in_core`, its arguments checked as `function` takes them."""
    text = _json_text(data, function)
    passthrough, edges = type_names("passthrough_types", passthrough_types), type_names("edge_types", edge_types)
    catalogue = _catalogue.load(node_types, function)
    try:
        return report_from_core(check_in_core(text, passthrough, edges, catalogue))
    except WorkflowError as e:
        if isinstance(text, str) and e.line is None:
            raise _locate_surrogate(text, e) from None
        raise


def _locate_surrogate(text: str, error: WorkflowError) -> WorkflowError:
    """A `str` with a lone surrogate has no UTF-8 form, so the core never
    sees it; find the character here (only on this failure path)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        line = text.count("\n", 0, e.start) + 1
        column = e.start - (text.rfind("\n", 0, e.start) + 1) + 1
        return WorkflowError(error.message, line, column)
    return error


def check_yaml(
    data: Union[str, bytes, bytearray, memoryview],
    *,
    passthrough_types: Iterable[str] = DEFAULT_PASSTHROUGH_TYPES,
    edge_types: Iterable[str] = DEFAULT_EDGE_TYPES,
    node_types: NodeTypesArg = None,
) -> Report:
    """Checks a workflow given as YAML text, as Drupal's ``drush
    config:export`` writes it (``flowdrop_workflow.flowdrop_workflow.<id>.yml``):
    the same report as its JSON, located in the YAML. Invalid YAML, a
    repeated key, a second document and aliases that would expand past a
    budget raise ``WorkflowError``. ``node_types``: as for ``check``."""
    return _check_text(_toolwire.check_yaml, "check_yaml", data, passthrough_types, edge_types, node_types)


def check_file(
    path: Union[str, "os.PathLike[str]"],
    *,
    input_format: Optional[str] = None,
    passthrough_types: Iterable[str] = DEFAULT_PASSTHROUGH_TYPES,
    edge_types: Iterable[str] = DEFAULT_EDGE_TYPES,
    node_types: NodeTypesArg = None,
) -> Report:
    """Reads and checks a workflow file: YAML when its name ends ``.yml`` or
    ``.yaml``, JSON otherwise, unless ``input_format`` (``"json"`` or
    ``"yaml"``) says. A missing file raises ``FileNotFoundError``; an
    unreadable one another ``OSError``. ``node_types``: as for ``check``."""
    fspath = _file_path(path, "check_file")
    fmt = _input_format(input_format, "check_file")
    passthrough, edges = type_names("passthrough_types", passthrough_types), type_names("edge_types", edge_types)
    catalogue = _catalogue.load(node_types, "check_file")
    return report_from_core(
        _toolwire.check_file(fspath, passthrough, edges, fmt, node_types=catalogue), path=fspath
    )


def check_files(
    paths: Sequence[Union[str, "os.PathLike[str]"]],
    *,
    jobs: Optional[int] = None,
    input_format: Optional[str] = None,
    passthrough_types: Iterable[str] = DEFAULT_PASSTHROUGH_TYPES,
    edge_types: Iterable[str] = DEFAULT_EDGE_TYPES,
    node_types: NodeTypesArg = None,
) -> List[Report]:
    """Checks many files in parallel, one report per file in input order
    (``paths`` is a sequence of them: one ``str``, ``bytes`` or
    ``os.PathLike`` is a ``TypeError``). A directory stands for the workflow
    files under it and a glob (``config/**/*.json``) for its matches, in
    sorted order (see ``toolwire._paths``). A file that cannot be checked
    gets a report with ``error`` set (and ``ok`` false) instead of stopping
    the batch; so does a directory with no workflow file in it, a glob that
    matches nothing and a folder that cannot be listed (``PathError``).
    ``jobs``: threads to use (None or -1: one per core); the reports are the
    same for any value. ``input_format``: as in ``check_file``, for every
    file. ``node_types``: as for ``check``, read once for every file; a
    catalogue that cannot be used raises ``CatalogueError`` before any file
    is checked. Without it, a directory that holds Drupal node types
    (``flowdrop_node_type.flowdrop_node_type.*.yml``) is the catalogue of
    the workflows found in it (SEMANTICS 11). With a catalogue, either
    way, the files are checked as one site: a clash between the tools
    wired to a node that runs another workflow and the tools inside it is
    a call finding of the caller's report (``Report.calls``, SEMANTICS 12),
    and a cycle of calls is a report of its own (``SiteError``) after the
    files' reports."""
    return _check_paths(paths, jobs, input_format, passthrough_types, edge_types, node_types, expand_paths=True)


def check_each_file(
    paths: Sequence[str],
    *,
    jobs: Optional[int] = None,
    input_format: Optional[str] = None,
    passthrough_types: Iterable[str] = DEFAULT_PASSTHROUGH_TYPES,
    edge_types: Iterable[str] = DEFAULT_EDGE_TYPES,
    node_types: NodeTypesArg = None,
) -> List[Report]:
    """``check_files`` of paths already expanded (toolwire.dask's workers):
    each is read as the file it names, whatever it looks like.
    Package-internal."""
    return _check_paths(paths, jobs, input_format, passthrough_types, edge_types, node_types, expand_paths=False)


def _check_paths(
    paths: Sequence[Union[str, "os.PathLike[str]"]],
    jobs: Optional[int],
    input_format: Optional[str],
    passthrough_types: Iterable[str],
    edge_types: Iterable[str],
    node_types: NodeTypesArg,
    expand_paths: bool,
) -> List[Report]:
    refuse_single_path(paths, "check_files", "call check_file(path) for one file")
    fmt = _input_format(input_format, "check_files")
    fspaths = [os.fspath(p) for p in paths]
    for fspath in fspaths:
        if not isinstance(fspath, str):
            raise TypeError("check_files() takes str paths or os.PathLike of str")
    threads = threads_for(jobs)
    passthrough, edges = type_names("passthrough_types", passthrough_types), type_names("edge_types", edge_types)
    catalogue = _catalogue.load(node_types, "check_files")
    found = expand(fspaths).found if expand_paths else [Found(p, p) for p in fspaths]
    return check_found(found, threads, passthrough, edges, fmt, catalogue)


def threads_for(jobs: Optional[int]) -> int:
    """``jobs`` as the core takes it (0: one thread per core), or a
    ``ValueError``. Package-internal."""
    if jobs is None or jobs == -1:
        return 0
    if isinstance(jobs, int) and not isinstance(jobs, bool) and jobs >= 1:
        return jobs
    raise ValueError(f"jobs must be a positive int, -1 or None, got {jobs!r}")


def check_found(
    found: Sequence[Found],
    threads: int,
    passthrough: List[str],
    edges: List[str],
    fmt: Optional[str] = None,
    catalogue: Optional["_toolwire.NodeTypeCatalogue"] = None,
    own_catalogues: Optional[_catalogue.DirectoryCatalogues] = None,
    advance: Optional[Callable[[int], None]] = None,
    chunk: int = 0,
) -> List[Report]:
    """One report per entry of an expansion, in order: its files checked in
    batches of the core's (``threads``: 0 for one per core; ``fmt``:
    ``"json"``, ``"yaml"`` or None for by name), each problem met while
    expanding a report of its own. ``catalogue``: for every file; without
    one, each directory walked that holds node types is the catalogue of
    the files found in it (SEMANTICS 11), read once, and a catalogue there
    that cannot be used is the error of each of those files (CMP-10 is
    never skipped in silence). Files checked with a catalogue are a site:
    their calls into one another are followed (SEMANTICS 12), each report
    gets its call findings and site warnings, and each error of the site
    (a cycle of calls, a workflow id in two files) is a report of its own
    after the others (``SiteError``; its path the directory, or the first
    file it names). ``own_catalogues``: kept by a caller that
    checks one expansion in several calls, so each directory is read once.
    ``advance``: told how many files were checked after each batch, for a
    progress bar; ``chunk``: at most so many files in a batch that is no
    site (a site is always checked whole). Package-internal: the CLI
    expands once and checks here."""
    own = _catalogue.DirectoryCatalogues() if own_catalogues is None else own_catalogues
    results: List[Any] = [entry.error for entry in found]
    site_of: Dict[int, Tuple[Sequence[CallTuple], Sequence[SiteWarningTuple]]] = {}
    site_errors: List[Report] = []
    # Files checked together: by the directory whose own catalogue they use
    # (None: the catalogue given, or none), then by site. With a catalogue
    # given, each directory walked is a site of its own and the files named
    # alone are one, so two copies of a site checked at once do not define
    # each workflow twice.
    by_site: Dict[Tuple[Optional[str], Optional[str]], List[int]] = {}
    for i, entry in enumerate(found):
        if entry.error is not None:
            continue
        if catalogue is not None:
            key: Tuple[Optional[str], Optional[str]] = (None, entry.directory)
        else:
            own_directory = entry.directory if own.of(entry.directory) is not None else None
            key = (own_directory, own_directory)
        by_site.setdefault(key, []).append(i)
    for (own_directory, directory), indexes in by_site.items():
        used = catalogue if own_directory is None else own.of(own_directory)
        if isinstance(used, Exception):
            for i in indexes:
                results[i] = used
            continue
        files = [found[i].path for i in indexes]
        if used is None:
            for batch in chunks(indexes, chunk if chunk > 0 else len(indexes)):
                checked = _toolwire.check_files([found[i].path for i in batch], passthrough, edges, threads, fmt)
                for i, result in zip(batch, checked):
                    results[i] = result
                if advance is not None:
                    advance(len(batch))
            continue
        # With a catalogue the files are a site: calls between them are
        # followed (SEMANTICS 12).
        outcomes, calls, warnings, errors = _toolwire.check_site(
            files, passthrough, edges, threads, fmt, node_types=used
        )
        for i, outcome, its_calls, its_warnings in zip(indexes, outcomes, calls, warnings):
            results[i] = outcome
            site_of[i] = (its_calls, its_warnings)
        for message, workflows, error_files in errors:
            where = directory if directory is not None else (error_files[0] if error_files else files[0])
            site_errors.append(failed_report(where, SiteError(message, workflows, error_files)))
        if advance is not None:
            advance(len(files))
    if advance is not None:
        advance(sum(1 for entry in found if entry.error is not None))  # answered without a check
    reports = []
    for i, (entry, result) in enumerate(zip(found, results)):
        if isinstance(result, Exception):
            reports.append(failed_report(entry.path, result))
            continue
        report = report_from_core(result, path=entry.path)
        if i in site_of:
            report = with_site(report, *site_of[i])
        reports.append(report)
    return reports + site_errors



CHUNK_TOOLS = 4096
"""About how many tools the core hands over at a time while explaining (a
view counts as one more; a chunk holds whole views): enough that crossing
into Python costs little per tool, few enough that the first views are out
at once and a stream holds little more than its graph."""


class Views:
    """The views of one workflow as the core makes them, consumer by
    consumer on a thread of its own: iterating yields them in chunks (lists
    of views, in order), each made while the one before is read. ``count``:
    how many views there are in all. Internal: the CLI writes each chunk as
    it comes; the public functions gather them into a list."""

    def __init__(self, stream: "_toolwire.ViewStream") -> None:
        self._stream = stream
        self.count: int = stream.count

    @property
    def made(self) -> int:
        """How many views the core has made so far (for the tests: views are
        made only a few chunks ahead of the reader)."""
        return self._stream.made

    def __iter__(self) -> Iterator[List[ConsumerView]]:
        for chunk in self._stream:
            yield [view_from_core(view) for view in chunk]

    def all(self) -> List[ConsumerView]:
        return [view for chunk in self for view in chunk]


def _consumer(consumer: Optional[str], function: str) -> Optional[str]:
    if consumer is not None and not isinstance(consumer, str):
        raise TypeError(f"{function}() takes consumer as a str node id or None, not {type(consumer).__name__}")
    return consumer


def _views(
    open_stream: Callable[[Optional[str], List[str], List[str]], "_toolwire.ViewStream"],
    consumer: Optional[str],
    passthrough_types: Iterable[str],
    edge_types: Iterable[str],
    function: str,
) -> Views:
    """`open_stream(consumer, passthrough_types, edge_types)`, its
    arguments checked as `function` takes them."""
    consumer = _consumer(consumer, function)
    passthrough, edges = type_names("passthrough_types", passthrough_types), type_names("edge_types", edge_types)
    return Views(open_stream(consumer, passthrough, edges))


def views_of_mapping(
    workflow: Mapping[str, Any],
    consumer: Optional[str],
    passthrough_types: Iterable[str],
    edge_types: Iterable[str],
    chunk_tools: int = CHUNK_TOOLS,
    node_types: NodeTypesArg = None,
) -> Views:
    """The views of an already-parsed workflow, as they are made."""
    catalogue = _catalogue.load(node_types, "explain")
    return _views(
        lambda c, p, e: _toolwire.explain_mapping(workflow, c, p, e, chunk_tools, node_types=catalogue),
        consumer,
        passthrough_types,
        edge_types,
        "explain",
    )


def views_of_json(
    data: Union[str, bytes, bytearray, memoryview],
    consumer: Optional[str],
    passthrough_types: Iterable[str],
    edge_types: Iterable[str],
    chunk_tools: int = CHUNK_TOOLS,
    input_format: Optional[str] = None,
    node_types: NodeTypesArg = None,
) -> Views:
    """The views of a workflow given as JSON text (YAML when
    ``input_format`` is ``"yaml"``), as they are made."""
    text = _json_text(data, "explain_json")
    fmt = _input_format(input_format, "explain_json")
    catalogue = _catalogue.load(node_types, "explain_json")
    return _views(
        lambda c, p, e: _toolwire.explain_json(text, c, p, e, chunk_tools, fmt, node_types=catalogue),
        consumer,
        passthrough_types,
        edge_types,
        "explain_json",
    )


def views_of_file(
    path: Union[str, "os.PathLike[str]"],
    consumer: Optional[str],
    passthrough_types: Iterable[str],
    edge_types: Iterable[str],
    chunk_tools: int = CHUNK_TOOLS,
    input_format: Optional[str] = None,
    node_types: NodeTypesArg = None,
) -> Views:
    """The views of a workflow file, as they are made (YAML by its name, or
    as ``input_format`` says)."""
    fspath = _file_path(path, "explain_file")
    fmt = _input_format(input_format, "explain_file")
    catalogue = _catalogue.load(node_types, "explain_file")
    return _views(
        lambda c, p, e: _toolwire.explain_file(fspath, c, p, e, chunk_tools, fmt, node_types=catalogue),
        consumer,
        passthrough_types,
        edge_types,
        "explain_file",
    )


def explain(
    workflow: Mapping[str, Any],
    *,
    consumer: Optional[str] = None,
    passthrough_types: Iterable[str] = DEFAULT_PASSTHROUGH_TYPES,
    edge_types: Iterable[str] = DEFAULT_EDGE_TYPES,
    node_types: NodeTypesArg = None,
) -> List[ConsumerView]:
    """What every consumer of an already-parsed workflow (as ``json.loads``
    returns it) will be given: ``explain_json`` of the same workflow, without
    locations (there is no text to point into). With ``consumer``, only that
    node's view (a toolbox's view is what it forwards); ``LookupError`` when
    there is no such node. ``node_types``: a catalogue, as for ``check``;
    a type it says the Tool Box runs forwards its tools."""
    return views_of_mapping(workflow, consumer, passthrough_types, edge_types, node_types=node_types).all()


def explain_json(
    data: Union[str, bytes, bytearray, memoryview],
    *,
    consumer: Optional[str] = None,
    passthrough_types: Iterable[str] = DEFAULT_PASSTHROUGH_TYPES,
    edge_types: Iterable[str] = DEFAULT_EDGE_TYPES,
    node_types: NodeTypesArg = None,
) -> List[ConsumerView]:
    """What every consumer of a workflow given as JSON text will be given:
    its tools flattened through toolboxes, each with its name and path. With
    ``consumer``, only that node's view (a toolbox's view is what it
    forwards); ``LookupError`` when there is no such node. ``node_types``:
    as for ``explain``."""
    return views_of_json(data, consumer, passthrough_types, edge_types, node_types=node_types).all()


def explain_file(
    path: Union[str, "os.PathLike[str]"],
    *,
    consumer: Optional[str] = None,
    input_format: Optional[str] = None,
    passthrough_types: Iterable[str] = DEFAULT_PASSTHROUGH_TYPES,
    edge_types: Iterable[str] = DEFAULT_EDGE_TYPES,
    node_types: NodeTypesArg = None,
) -> List[ConsumerView]:
    """``explain_json`` of a workflow file, read as ``check_file`` reads it
    (YAML for ``.yml`` and ``.yaml``, unless ``input_format`` says).
    ``node_types``: as for ``explain``."""
    return views_of_file(
        path, consumer, passthrough_types, edge_types, input_format=input_format, node_types=node_types
    ).all()


def explain_calls(
    path: Union[str, "os.PathLike[str]"],
    site: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]],
    *,
    consumer: Optional[str] = None,
    input_format: Optional[str] = None,
    passthrough_types: Iterable[str] = DEFAULT_PASSTHROUGH_TYPES,
    edge_types: Iterable[str] = DEFAULT_EDGE_TYPES,
    node_types: NodeTypesArg = None,
    jobs: Optional[int] = None,
) -> List[CallView]:
    """What each consumer inside the workflow file ``path`` that its ``tool``
    input ports reach sees in each call into it from another workflow of
    ``site`` (SEMANTICS 12): its own tools and those wired to the calling
    node, each with its path across the call; one level of calls (a view
    counts the calls further out, ``CallView.outer_calls``). ``site``: the
    site's workflows (a directory, files or globs, as ``check_files`` takes
    them; ``path`` belongs to it in any case), each read once.
    ``node_types``: the catalogue that says which node types run which
    workflow; without it, that of the one directory of ``site`` holding
    node types of its own (``ValueError`` when there is none: no call is
    known without one). ``consumer``: only that node's views. A file of the
    site that cannot be read brings no call (``check_files`` reports it);
    ``path`` itself raises as ``explain_file`` does."""
    fspath = _file_path(path, "explain_calls")
    consumer = _consumer(consumer, "explain_calls")
    fmt = _input_format(input_format, "explain_calls")
    passthrough, edges = type_names("passthrough_types", passthrough_types), type_names("edge_types", edge_types)
    given = [site] if isinstance(site, (str, os.PathLike)) else list(site)
    expansion = expand(given)
    for entry in expansion.found:
        if entry.error is not None:
            raise entry.error
    catalogue = _catalogue.load(node_types, "explain_calls")
    if catalogue is None:
        own = _catalogue.DirectoryCatalogues()
        found = [(d, own.of(d)) for d in dict.fromkeys(expansion.directories) if own.of(d) is not None]
        if len(found) != 1:
            raise ValueError(
                "explain_calls() needs the node types that say which node runs which workflow: give node_types, "
                f"or a site with one directory holding them (it has {len(found)})"
            )
        catalogue = found[0][1]
        if isinstance(catalogue, Exception):
            raise catalogue
    files = expansion.files
    index = index_of(files, fspath)
    if index is None:
        files, index = [*files, fspath], len(files)
    site_views = SiteViews(files, catalogue, passthrough, edges, threads_for(jobs), fmt)
    if index in site_views.failed:
        raise site_views.failed[index]
    return site_views.views(index, consumer)


def normalize_name(label: str) -> str:
    """The tool name a label becomes: ``"Web Search"`` -> ``"web_search"``."""
    if not isinstance(label, str):
        raise TypeError(f"normalize_name() takes a str, not {type(label).__name__}")
    return _toolwire.normalize_name(label)
