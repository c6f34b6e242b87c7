"""Node-type catalogues (docs/SEMANTICS.md section 11): which node types
accept tools (CMP-10) and which forward them. ``node_types=`` and
``--node-types`` take files (the editor's ``GET /api/flowdrop/nodes`` body
or a bare array of NodeMetadata, as JSON; Drupal ``flowdrop_node_type``
config entities, as YAML) and Drupal config directories, whose node-type
files are read. Package-internal: the core reads every file."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _toolwire
from ._errors import CatalogueError, WorkflowError

NODE_TYPE_PATTERN = "flowdrop_node_type.flowdrop_node_type.*.yml"
"""The files ``drush config:export`` writes, one node type each. (The
module's own ``flowdrop_node_type.settings.yml`` is not a type.)"""

PathArg = Union[str, "os.PathLike[str]"]
NodeTypesArg = Union[None, PathArg, Sequence[PathArg], "_toolwire.NodeTypeCatalogue"]
"""``node_types=``: files and directories, or a catalogue already read
(the CLI reads it once for every file it checks)."""


def node_type_files(directory: PathArg) -> List[str]:
    """The node-type config files of a Drupal config directory (such as
    ``config/sync``), sorted by name; empty when it holds none. A checked
    directory that holds some is its own catalogue (SEMANTICS 11)."""
    return sorted(str(p) for p in Path(directory).glob(NODE_TYPE_PATTERN) if p.is_file())


def catalogue_paths(node_types: NodeTypesArg, function: str) -> Optional[List[str]]:
    """The files ``node_types`` names, directories expanded; None for no
    catalogue. A directory without node-type files is an error: it would
    otherwise leave CMP-10 unchecked without a word."""
    if node_types is None:
        return None
    if isinstance(node_types, _toolwire.NodeTypeCatalogue):
        raise TypeError(f"{function}() needs node_types as paths here, not a catalogue already read")
    given: Sequence[PathArg]
    if isinstance(node_types, (str, os.PathLike)):
        given = [node_types]
    elif isinstance(node_types, (bytes, bytearray, memoryview)):
        raise TypeError(f"{function}() takes node_types as a str path, an os.PathLike or a sequence of them")
    else:
        given = list(node_types)
    if not given:
        raise ValueError(f"{function}() takes node_types=None for no catalogue, not an empty sequence")
    files: List[str] = []
    for entry in given:
        path = os.fspath(entry)
        if not isinstance(path, str):
            raise TypeError(f"{function}() takes node_types as str paths or os.PathLike of str")
        if os.path.isdir(path):
            found = node_type_files(path)
            if not found:
                raise CatalogueError(
                    f"the directory holds no node-type files ({NODE_TYPE_PATTERN})", path=path
                )
            files.extend(found)
        else:
            files.append(path)
    return files


def load(node_types: NodeTypesArg, function: str) -> Optional["_toolwire.NodeTypeCatalogue"]:
    """The catalogue ``node_types`` names, read by the core; None for none.
    Raises ``CatalogueError`` for a file that cannot be used."""
    if isinstance(node_types, _toolwire.NodeTypeCatalogue):
        return node_types
    files = catalogue_paths(node_types, function)
    return None if files is None else _toolwire.load_node_types(files)


class DirectoryCatalogues:
    """What each checked directory holding Drupal node types is to the
    workflows found in it: their catalogue (SEMANTICS 11). Each directory
    is looked into and read once, however many of its files are checked
    and in however many calls; the check, ``explain`` and ``toolwire.dask``
    all ask here."""

    def __init__(self) -> None:
        self._looked: Dict[str, Tuple[List[str], Any]] = {}

    def _look(self, directory: str) -> Tuple[List[str], Any]:
        if directory not in self._looked:
            files = node_type_files(directory)
            own: Any = None
            if files:
                try:
                    own = load(directory, "check_files")
                except (WorkflowError, OSError) as e:
                    own = e
            self._looked[directory] = (files, own)
        return self._looked[directory]

    def of(self, directory: Optional[str]) -> Any:
        """The directory's catalogue, or the error reading it gave (to be
        each of its workflows' error: CMP-10 is never skipped in silence);
        None for no directory, or one that holds no node types."""
        return None if directory is None else self._look(directory)[1]

    def files_of(self, directory: str) -> List[str]:
        """The directory's node-type files, sorted (``node_type_files``)."""
        return self._look(directory)[0]
