"""What ``toolwire check`` and ``toolwire explain`` share around their run:
the exit statuses, refusing a command line that would overwrite an input
with the report or read standard input twice, writing the report (whole or
not at all), and saying on stderr which files could not be checked."""

from __future__ import annotations

import argparse
import io
import os
import stat
import sys
from pathlib import Path
from typing import Callable, Optional, Sequence, TextIO

from ._cli_options import read_settings
from ._config import ConfigError, Settings
from ._files import write_text_atomically
from ._formats.common import printable
from ._formats.text_format import display_path
from ._report import Report

EXIT_ACCEPTED, EXIT_REFUSED, EXIT_ERROR = 0, 1, 2


class Refused(Exception):
    """The command line asks for what cannot be done; the message says why."""


def _same_file_as_output(output: Optional[str], inputs: Sequence[str]) -> Optional[str]:
    """The first of `inputs` that is the file `output` names, by identity
    (device and inode: whatever the spelling, through symlinks and hard
    links), ``-`` standing for what standard input reads; None when there is
    none. Looks at no file's contents. Only an existing regular file can be
    overwritten, so any other output (a new file, /dev/null, a pipe) is
    never one."""
    if output is None:
        return None
    try:
        target = os.stat(output)
    except OSError:
        return None
    if not stat.S_ISREG(target.st_mode):
        return None
    for path in inputs:
        try:
            found = os.fstat(sys.stdin.fileno()) if path == "-" else os.stat(path)
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            continue  # not a file here (a URL, a glob, a closed or captured stdin): nothing to overwrite
        if os.path.samestat(found, target):
            return path
    return None


def refuse_output_input(output: Optional[str], inputs: Sequence[str], what: str = "the input") -> None:
    """Raises ``Refused`` when writing the report to `output` would
    overwrite one of the `inputs` (`what` says what they are)."""
    same = _same_file_as_output(output, inputs)
    if same is None:
        return
    if same == "-":
        named = "the file standard input reads"
    else:
        named = f"{what} {same}" if same == output else f"{what} {same} (the same file)"
    raise Refused(f"--output {output} is {named}: writing the report there would overwrite it; choose another file")


def refuse_misused_inputs(paths: Sequence[str], output: Optional[str], config: Optional[Path]) -> None:
    """Raises ``Refused``, before any input is read, when standard input is
    named twice (it can be read only once) or the report would overwrite an
    input (a workflow, or the configuration file named)."""
    stdin = paths.count("-")
    if stdin > 1:
        raise Refused(f"standard input ('-') is named {stdin} times, but it can be read only once")
    refuse_output_input(output, paths)
    if config is not None:
        refuse_output_input(output, [str(config)], "the configuration file")


INPUT_FORMATS = ("auto", "json", "yaml")
"""``--input-format``: auto reads a file by its name (YAML for ``.yml`` and
``.yaml``) and standard input as JSON."""


def file_format(input_format: str) -> Optional[str]:
    """``--input-format`` as ``check_files`` and ``explain_file`` take it:
    None lets the core go by each file's name."""
    return None if input_format == "auto" else input_format


def stdin_format(input_format: str) -> str:
    """How standard input is read: JSON unless ``--input-format yaml``."""
    return "yaml" if input_format == "yaml" else "json"


def is_yaml(path: str, input_format: str) -> bool:
    """Whether `path` is read as YAML under ``--input-format``."""
    if input_format == "auto":
        return path != "-" and path.lower().endswith((".yml", ".yaml"))
    return input_format == "yaml"


def checked_settings(args: argparse.Namespace) -> Optional[Settings]:
    """The configuration a command runs with, once its inputs are known not
    to be misused (``refuse_misused_inputs``); None, after saying why on
    stderr, when they are or the configuration is wrong."""
    try:
        refuse_misused_inputs(args.paths, args.output, args.config)
        return read_settings(args)
    except (Refused, ConfigError) as e:
        sys.stderr.write(f"toolwire: {e}\n")
        return None


def deliver(output: Optional[str], write: Callable[[TextIO], None]) -> bool:
    """Writes a report to standard output or, atomically, to `output`.
    False (after saying why on stderr) when the file cannot be written."""
    if output is None:
        write(sys.stdout)
        return True
    try:
        write_text_atomically(output, write)
    except OSError as e:
        sys.stderr.write(f"toolwire: cannot write {output}: {e.strerror or e}\n")
        return False
    return True


def say_errors(reports: Sequence[Report]) -> None:
    """Each file that could not be checked, on stderr, where it went wrong."""
    for report in reports:
        if report.error is not None:
            error = report.to_dict()["error"]
            where = f":{error['line']}:{error['column']}" if error["line"] is not None else ""
            sys.stderr.write(f"{display_path(report.path)}{where}: error: {printable(error['message'])}\n")
