"""What a PATH stands for: the one place where directories and globs become
the workflow files they name, for every way in (``check_files``,
``toolwire.dask``, ``toolwire check``, ``toolwire explain``, ``--dask``, the
pre-commit hook). Issue 21, item 2.

- ``-`` is standard input, left as it is.
- A directory stands for the workflow files under it, at any depth:
  ``*.json`` and ``flowdrop_workflow.flowdrop_workflow.*.yml`` (or
  ``.yaml``), as Drupal's ``config/sync`` names a workflow. Hidden entries
  (a name starting with ``.``) inside it are skipped, folders and files; a
  hidden directory named itself is read. Symbolic links to directories
  inside it are not followed (as find, git and ripgrep do), so a link loop
  cannot make the walk endless; links to files are read. A directory with
  no workflow file is an error naming it.
- A path holding ``*``, ``?`` or ``[`` that does not exist as written is a
  glob (``**`` as a whole component: any number of folders); a file it
  matches is checked whatever its name (the pattern chose it), a directory
  it matches stands for its workflow files. Wildcards do not match a hidden
  name unless the pattern's component starts with ``.``, as in a shell. A
  glob that matches nothing is an error saying so.
- Anything else is itself: a file named is checked whatever its name, and a
  path that does not exist is reported missing when it is read.

Order: each directory's entries in code point order of their names, a
folder's files where its name sorts, which is the order of the paths
compared component by component (``a/b.json`` before ``a.json``, since
``a`` sorts before ``a.json``). Each file is named as the PATH was typed,
joined with what is below it, so a relative PATH gives relative names.

Problems met while expanding (a folder that cannot be listed, a glob that
matches nothing, a directory without workflows) are entries of their own,
each with its ``PathError``, in their place: the caller reports them per
path beside the files that could be read. The cost is one listing of each
folder walked, and a sort of its names: O(entries walked · log).
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Iterable, Iterator, List, NamedTuple, Optional, Sequence, Set, Tuple, Union

from ._errors import PathError

STDIN = "-"

JSON_SUFFIX = ".json"
YAML_WORKFLOW_PREFIX = "flowdrop_workflow.flowdrop_workflow."
"""How Drupal names a workflow's configuration file in config/sync."""
YAML_SUFFIXES = (".yml", ".yaml")

WORKFLOW_FILES = "*.json, flowdrop_workflow.flowdrop_workflow.*.yml and .yaml"
"""What a directory stands for, in words, for messages and help."""

_MAGIC_SEARCH = re.compile(r"[*?\[]").search
_ANY_DEPTH = "**"


def is_workflow_name(name: str) -> bool:
    """Whether a file found in a directory is taken as a workflow."""
    if name.endswith(JSON_SUFFIX):
        return True
    return name.startswith(YAML_WORKFLOW_PREFIX) and name.endswith(YAML_SUFFIXES)


def is_hidden(name: str) -> bool:
    return name.startswith(".")


def component_key(path: str) -> Tuple[str, ...]:
    """The sort key of expanded paths: their components, each compared by
    code point."""
    return tuple(path.split(os.sep))


def has_magic(path: str) -> bool:
    return _MAGIC_SEARCH(path) is not None


class Found(NamedTuple):
    """One entry of an expansion: a file to check (``error`` None) or a
    problem met while expanding. ``path`` names it in every report;
    ``given`` is the PATH it came from, as typed; ``directory`` the
    directory (given, or matched by a glob) whose walk found it, if any.
    A named tuple, cheap to make: a batch may hold a million files."""

    path: str
    given: str
    directory: Optional[str] = None
    error: Optional[PathError] = None


@dataclass
class Expansion:
    """What a list of PATHs stands for: ``found``, in order, one entry per
    file or problem; ``directories``, each directory walked as named (given
    or matched by a glob), so that a later step can look into them again
    (CMP-10: a checked directory holding node types is its own catalogue);
    ``walked``, how many directory entries were looked at (the work done,
    for tests of its cost)."""

    found: List[Found] = field(default_factory=list)
    directories: List[str] = field(default_factory=list)
    walked: int = 0

    @property
    def files(self) -> List[str]:
        """The paths to read: every entry without an error."""
        return [f.path for f in self.found if f.error is None]


PathLike = Union[str, "os.PathLike[str]"]


def expand(paths: Iterable[PathLike]) -> Expansion:
    """The files (and problems) each of ``paths`` stands for, in order (see
    the module docstring). A file named costs one ``stat`` (is it a
    directory?), which also brings its inode into the cache for the read."""
    expansion = Expansion()
    found = expansion.found
    for given in paths:
        path = os.fspath(given)
        if not isinstance(path, str):
            raise TypeError("paths must be str or os.PathLike of str")
        if path == STDIN:
            found.append(Found(path, path))
            continue
        try:
            is_dir = stat.S_ISDIR(os.stat(path).st_mode)
            exists = True
        except (OSError, ValueError):  # ValueError: a NUL in the path, which reading reports
            is_dir = exists = False
        if is_dir:
            _directory(path, path, expansion, set())
        elif not exists and has_magic(path) and not os.path.lexists(path):
            _glob(path, expansion)
        else:
            found.append(Found(path, path))
    return expansion


def _directory(directory: str, given: str, out: Expansion, seen: Set[str]) -> None:
    """Appends the workflow files under ``directory`` in component order,
    each named by joining ``directory`` with its path below it; an error
    entry for a folder that cannot be listed, and one naming ``directory``
    when there is nothing under it at all. ``seen``: paths already found
    for this PATH (a glob may match a folder and files inside it)."""
    out.directories.append(directory)
    anything = False
    links = 0
    # A stack of what is left, nearest last: (path, is a folder to list).
    # Explicit, not recursive: a tree may be deeper than Python's stack.
    todo: List[Tuple[str, bool]] = [(directory, True)]
    while todo:
        path, is_folder = todo.pop()
        anything = anything or not is_folder
        if not is_folder:
            if path not in seen:
                seen.add(path)
                out.found.append(Found(path, given, directory, _special_file(path)))
            continue
        try:
            entries = _listed(path)
        except OSError as e:
            anything = True
            out.found.append(Found(path, given, directory, _unlisted(path, e)))
            continue
        out.walked += len(entries)
        below: List[Tuple[str, bool]] = []
        for entry in entries:
            if is_hidden(entry.name):
                continue
            if _is_folder(entry):
                below.append((os.path.join(path, entry.name), True))
            elif _is_folder_link(entry):
                links += 1  # not followed: a link may lead back up the tree
            elif is_workflow_name(entry.name):
                # A file, a link to one, or a broken link: reading it says which.
                below.append((os.path.join(path, entry.name), False))
        todo.extend(reversed(below))
    if not anything:
        out.found.append(Found(directory, given, directory, _no_workflow(directory, links)))


def _listed(path: str) -> List["os.DirEntry[str]"]:
    """A folder's entries sorted by name, by code point."""
    with os.scandir(path) as it:
        entries = list(it)
    entries.sort(key=lambda e: e.name)
    return entries


def _is_folder(entry: "os.DirEntry[str]") -> bool:
    """A directory itself, not a link to one."""
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _is_folder_link(entry: "os.DirEntry[str]") -> bool:
    try:
        return entry.is_symlink() and entry.is_dir()
    except OSError:
        return False


def _special_file(path: str) -> Optional[PathError]:
    """None for what reading will tell about (a file, a link to one, a
    broken link, one gone since it was listed); an error for a pipe, a
    socket or a device with a workflow's name, which a walk must not read
    (reading a pipe waits for a writer)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode):
        return None
    return PathError(path, "not a regular file (a pipe, socket or device): not read")


def _unlisted(path: str, error: OSError) -> PathError:
    return PathError(path, f"cannot list the directory: {error.strerror or error}")


def _no_workflow(directory: str, links: int) -> PathError:
    message = f"no workflow file in this directory or below it (looked for {WORKFLOW_FILES}; hidden ones skipped)"
    if links:
        message += f"; {links} symbolic link{'s' if links != 1 else ''} to a directory not followed"
    return PathError(directory, message)


# --- globs ------------------------------------------------------------------------


def _glob(pattern: str, out: Expansion) -> None:
    """Appends what ``pattern`` matches, in component order: files as they
    are, directories as their workflow files; an error entry naming the
    pattern when it matches nothing. O(entries walked · log): the walk
    lists each folder once, and a folder the pattern matches is expanded
    once more."""
    base, parts, folders_only = _split_pattern(pattern)
    before = len(out.found)
    seen: Set[str] = set()
    walked_root: Optional[str] = None
    for path, is_dir in _matches(pattern, base, parts, folders_only, out):
        if is_dir:
            # The glob walk goes on below a folder it matched, and what it
            # matches there is already in that folder's expansion: each
            # folder is expanded once.
            if walked_root is not None and path.startswith(walked_root + os.sep):
                continue
            walked_root = path
            _directory(path, pattern, out, seen)
        elif path not in seen:
            seen.add(path)
            out.found.append(Found(path, pattern, None, _special_file(path)))
    if len(out.found) == before:
        out.found.append(Found(pattern, pattern, None, PathError(pattern, "no file matches this pattern")))
    # A folder's expansion comes where the folder matched, before the other
    # files the pattern matches inside it (``config/**``): one sort puts
    # them back in component order.
    out.found[before:] = sorted(out.found[before:], key=lambda f: component_key(f.path))


def _split_pattern(pattern: str) -> Tuple[str, List[str], bool]:
    """The leading components without wildcards (the folder the walk
    starts from, as typed; "" for the current one), the components from the
    first wildcard on (consecutive ``**`` merged, empty ones dropped), and
    whether the pattern ends with a separator (only folders match)."""
    components = pattern.split(os.sep)
    root = os.sep if components[0] == "" and len(components) > 1 else ""
    components = [c for c in components if c]
    first = next(i for i, c in enumerate(components) if has_magic(c))
    base = root + os.sep.join(components[:first])
    parts: List[str] = []
    for c in components[first:]:
        if not (c == _ANY_DEPTH and parts and parts[-1] == _ANY_DEPTH):
            parts.append(c)
    return base, parts, pattern.endswith(os.sep)


def _closure(states: Iterable[int], parts: Sequence[str]) -> Set[int]:
    """``states`` with every state a ``**`` reaches by matching no folder."""
    reached = set(states)
    todo = list(reached)
    while todo:
        i = todo.pop()
        if i < len(parts) and parts[i] == _ANY_DEPTH and i + 1 not in reached:
            reached.add(i + 1)
            todo.append(i + 1)
    return reached


def _component_matches(part: str, name: str) -> bool:
    if not has_magic(part):
        return part == name
    # A wildcard does not match a leading dot unless the pattern has it.
    if is_hidden(name) and not is_hidden(part):
        return False
    return fnmatchcase(name, part)


def _matches(
    pattern: str, base: str, parts: Sequence[str], folders_only: bool, out: Expansion
) -> Iterator[Tuple[str, bool]]:
    """The paths below ``base`` that ``parts`` match, with whether each is a
    directory, in component order. One walk, each folder listed once, the
    pattern followed as a set of positions in it (states): O(entries walked
    · components). ``**`` does not enter hidden folders nor follow links to
    folders (so a link loop cannot make it endless); a component that is
    not ``**`` follows a link, which it can do only as many times as the
    pattern has components."""
    # What is left, nearest last: a match to yield (path, is a directory),
    # or a folder to list (as listed, as named, the states to go on from).
    todo: List[Union[Tuple[str, bool], Tuple[str, str, Set[int]]]] = [(base or os.curdir, base, {0})]
    ends = len(parts)
    while todo:
        item = todo.pop()
        if len(item) == 2:
            yield item
            continue
        listed, named, states = item
        try:
            entries = _listed(listed)
        except (FileNotFoundError, NotADirectoryError):
            continue  # the folders the pattern starts from are not there: nothing matches
        except OSError as e:
            # A folder the pattern goes into but that cannot be listed may
            # hold matches: said, not passed over (glob.glob is silent).
            out.found.append(Found(named or os.curdir, pattern, None, _unlisted(named or os.curdir, e)))
            continue
        out.walked += len(entries)
        here = _closure(states, parts)
        below: List[Union[Tuple[str, bool], Tuple[str, str, Set[int]]]] = []
        for entry in entries:
            consumed: Set[int] = set()
            stayed: Set[int] = set()
            for i in here:
                if i == ends:
                    continue
                if parts[i] == _ANY_DEPTH:
                    if not is_hidden(entry.name):
                        stayed.add(i)
                elif _component_matches(parts[i], entry.name):
                    consumed.add(i + 1)
            if not consumed and not stayed:
                continue
            path = os.path.join(named, entry.name) if named else entry.name
            is_dir = _is_dir(entry)
            if ends in _closure(consumed | stayed, parts) and (is_dir or not folders_only):
                below.append((path, is_dir))
            # A link to a folder is entered only by a component that is
            # not **, which moves on in the pattern: never in a loop.
            go_on = consumed | stayed if _is_folder(entry) else consumed if is_dir else set()
            if any(i < ends for i in _closure(go_on, parts)):
                below.append((os.path.join(listed, entry.name), path, go_on))
        # Each entry's match comes before what is below it.
        todo.extend(reversed(below))


def _is_dir(entry: "os.DirEntry[str]") -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False
