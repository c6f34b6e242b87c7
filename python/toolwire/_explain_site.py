"""``explain`` inside a site (issue 22, SEMANTICS 12): what a consumer
inside a called workflow sees in each call into it. The site's files are
read once by the core (``_toolwire.read_site``: each parsed once, only the
facts the site check takes kept), then asked about each workflow explained
(``SiteViews.views``). Which files form a site is what ``check`` says:
``sites_of`` groups an expansion as ``_api.check_found`` does.
Package-internal: ``_api.explain_calls`` and the CLI ask here."""

from __future__ import annotations

import gc
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import _catalogue, _toolwire
from ._paths import Found
from ._records import CallView
from ._report import call_view_from_core


class SiteViews:
    """The facts of one site's workflow files, read once. ``failed``: the
    exception of each file that could not be read or parsed, by its index
    in ``files`` (no call from it is known)."""

    def __init__(
        self,
        files: Sequence[str],
        catalogue: "_toolwire.NodeTypeCatalogue",
        passthrough: List[str],
        edges: List[str],
        threads: int,
        fmt: Optional[str],
    ) -> None:
        self.files = list(files)
        self._facts, failed = _toolwire.read_site(self.files, passthrough, edges, threads, fmt, node_types=catalogue)
        self.failed: Dict[int, Exception] = dict(failed)

    def views(self, index: int, consumer: Optional[str]) -> List[CallView]:
        """What each consumer inside ``files[index]`` (or only ``consumer``)
        sees in each call into it, by consumer id, then calling workflow and
        node."""
        # Many small acyclic objects are made here at once (a workflow
        # called from 10,000 places: 10,000 views); the collector's passes
        # over the growing heap cost more than making them (measured: 4x),
        # and none of them can be garbage in a cycle.
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            return [call_view_from_core(view) for view in self._facts.call_views(index, consumer)]
        finally:
            if was_enabled:
                gc.enable()


def index_of(files: Sequence[str], path: str) -> Optional[int]:
    """The index of the file ``path`` names among ``files``, compared as
    files (a path may name a site's file another way); None when it is not
    one of them. One ``stat`` per file: to look up many, ``file_indexes``."""
    key = file_key(path)
    if key is None:
        return None
    return next((i for i, file in enumerate(files) if file_key(file) == key), None)


def file_indexes(files: Sequence[str]) -> Dict[Tuple[int, int], int]:
    """Each file of ``files`` by its device and inode (``file_key``), the
    first index when one is named twice."""
    indexes: Dict[Tuple[int, int], int] = {}
    for i, file in enumerate(files):
        key = file_key(file)
        if key is not None:
            indexes.setdefault(key, i)
    return indexes


def file_key(path: str) -> Optional[Tuple[int, int]]:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino)


SiteKey = Tuple[Optional[str], Optional[str]]


def sites_of(
    found: Sequence[Found],
    catalogue: Optional["_toolwire.NodeTypeCatalogue"],
    own: _catalogue.DirectoryCatalogues,
) -> Tuple[Dict[int, Tuple[SiteKey, int]], Dict[SiteKey, Tuple[List[str], Any]]]:
    """The sites of an expansion, grouped as ``check`` groups them: with
    ``catalogue``, each directory walked is a site and the files named
    alone are one; without, each directory walked that holds node types of
    its own. Returns each file's site (by its index in ``found``; files in
    no site are left out) and each site's files and catalogue (or the
    exception reading that catalogue gave); a file's site is its site's
    key and its index among that site's files."""
    of: Dict[int, Tuple[SiteKey, int]] = {}
    sites: Dict[SiteKey, Tuple[List[str], Any]] = {}
    for i, entry in enumerate(found):
        if entry.error is not None or entry.path == "-":
            continue
        if catalogue is not None:
            key: SiteKey = (None, entry.directory)
            used: Any = catalogue
        else:
            used = own.of(entry.directory)
            if used is None:
                continue
            key = (entry.directory, entry.directory)
        files = sites.setdefault(key, ([], used))[0]
        of[i] = (key, len(files))
        files.append(entry.path)
    return of, sites
