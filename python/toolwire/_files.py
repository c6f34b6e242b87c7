"""The files toolwire writes (reports, fixed workflows): replaced in one
step, never left half-written, with the mode a plain write gives."""

from __future__ import annotations

import contextlib
import io
import os
import secrets
import stat
from typing import BinaryIO, Callable, TextIO, Tuple

__all__ = ["replace_atomically", "write_text_atomically"]


def replace_atomically(path: str, write: Callable[[BinaryIO], None]) -> None:
    """Writes the file at ``path`` so that a crash or a full disk never
    leaves a truncated one that a CI step could read as whole: into a
    temporary file beside it, flushed to disk, then renamed over it in one
    step. Through a symlink, the file it names is replaced and the link
    stays. The file keeps its mode (and owner, where allowed) when it
    exists; a new one gets what the umask leaves of 0o666, as from a plain
    ``open(path, "w")``."""
    target = os.path.realpath(path)
    try:
        existing: "os.stat_result | None" = os.stat(target)
    except FileNotFoundError:
        existing = None
    fd, temporary = _temporary_beside(target)
    try:
        with os.fdopen(fd, "wb") as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
        if existing is not None:
            os.chmod(temporary, stat.S_IMODE(existing.st_mode))
            if hasattr(os, "chown"):
                with contextlib.suppress(OSError):
                    os.chown(temporary, existing.st_uid, existing.st_gid)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_text_atomically(path: str, write: Callable[[TextIO], None]) -> None:
    """``replace_atomically`` for text, written as UTF-8."""

    def encoded(out: BinaryIO) -> None:
        text = io.TextIOWrapper(out, encoding="utf-8")
        write(text)
        text.flush()
        text.detach()  # the binary file is closed by replace_atomically

    replace_atomically(path, encoded)


def _temporary_beside(path: str) -> Tuple[int, str]:
    """A new file in the folder of ``path``, open for writing. Created with
    mode 0o666 for the system to narrow by the umask (and a default ACL), as
    it narrows any new file: ``tempfile.mkstemp`` would make it 0o600."""
    folder = os.path.dirname(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    while True:
        temporary = os.path.join(folder, f".toolwire-{secrets.token_hex(8)}.tmp")
        try:
            return os.open(temporary, flags, 0o666), temporary
        except FileExistsError:  # 64 random bits taken: only by a very unlucky draw
            continue
