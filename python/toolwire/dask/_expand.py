"""What a PATH stands for on a cluster: local paths as everywhere else
(``toolwire._paths``, the one home of those rules), fsspec URLs by the same
rules as far as an object store has them: a URL ending in ``/`` stands for
the workflow files below it (hidden ones skipped), a URL with a wildcard
for the files it matches; each in component order, and an error entry
when it stands for nothing. Expanded on the client, before any task."""

from __future__ import annotations

from typing import List, Sequence

import fsspec

from .._errors import PathError
from .._paths import WORKFLOW_FILES, Expansion, Found, expand as expand_local, has_magic, is_hidden, is_workflow_name
from ._worker import is_local


def expand(paths: Sequence[str]) -> Expansion:
    """The files (and problems) each of ``paths`` stands for, in order:
    local paths by ``toolwire._paths.expand``, URLs here."""
    expansion = Expansion()
    for path in paths:
        if is_local(path):
            one = expand_local([path])
            expansion.found.extend(one.found)
            expansion.directories.extend(one.directories)
            expansion.walked += one.walked
        else:
            expansion.found.extend(_expand_url(path))
    return expansion


def _url_key(path: str) -> List[str]:
    return path.split("/")


def _expand_url(url: str) -> List[Found]:
    if "::" in url:  # a chained URL (simplecache::s3://...): read as given
        return [Found(url, url)]
    fs, inner = fsspec.core.url_to_fs(url)
    try:
        if has_magic(inner):
            matched = [p for p, info in fs.glob(inner, detail=True).items() if info.get("type") != "directory"]
            missing = "no file matches this pattern"
        elif url.endswith("/"):
            root = inner.rstrip("/")
            matched = [p for p in fs.find(root) if _is_workflow_below(p, root)]
            missing = f"no workflow file below this URL (looked for {WORKFLOW_FILES}; hidden ones skipped)"
        else:
            return [Found(url, url)]
    except OSError as e:
        return [Found(url, url, None, PathError(url, f"cannot list it: {e.strerror or e}"))]
    if not matched:
        return [Found(url, url, None, PathError(url, missing))]
    # A prefix is walked as a directory is: its files are a site of their
    # own under a catalogue given (SEMANTICS 12), whose errors it names.
    # It is still not their catalogue (only a local directory is).
    directory = url if url.endswith("/") and not has_magic(inner) else None
    return [Found(fs.unstrip_protocol(p), url, directory) for p in sorted(matched, key=_url_key)]


def _is_workflow_below(path: str, root: str) -> bool:
    """A file found below a URL prefix is a workflow by name, and none of
    the folders between is hidden."""
    below = path[len(root) :].strip("/").split("/")
    return is_workflow_name(below[-1]) and not any(is_hidden(part) for part in below)
