"""A progress bar on standard error for long batches and large generated files.

Drawn only on a terminal: in CI logs, pipes and files a bar is noise (every
redraw would be kept), so by default it is enabled only when the stream is a
TTY and ``TERM`` is not ``dumb`` (a dumb terminal cannot erase a line). The
bar is redrawn at most every ``interval`` seconds, the first time only after
one interval has passed, so a fast run never draws at all; on close the line
is erased, so what is printed next (the report) starts on a clean line.
"""

from __future__ import annotations

import os
import sys
import time
from types import TracebackType
from typing import Callable, Iterator, Optional, Sequence, TextIO, Type, TypeVar

__all__ = ["Progress", "chunks", "is_terminal"]

T = TypeVar("T")

_BAR_WIDTH = 20
_ERASE_LINE = "\r\x1b[K"


def is_terminal(stream: TextIO) -> bool:
    """Whether `stream` is a terminal that can erase a line."""
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty(), or a closed stream
        return False


def _columns(stream: TextIO) -> int:
    # A line wider than the terminal wraps, and "\r" then returns to the
    # start of the last row only: every redraw would leave a row behind.
    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):  # io.UnsupportedOperation is both
        return 80
    return columns or 80  # a pseudo-terminal nobody sized reports 0


class Progress:
    """``with Progress(len(files), "checking", unit="files") as bar: ... bar.advance(k)``.

    ``stream``: None is ``sys.stderr`` as it is when the bar is made (not at
    import: tests and callers may have replaced it). ``enabled``: None draws
    only on a terminal (see the module docstring); True or False forces it.
    ``clock`` is injectable for tests."""

    def __init__(
        self,
        total: int,
        label: str,
        stream: Optional[TextIO] = None,
        enabled: Optional[bool] = None,
        *,
        unit: str = "",
        interval: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if total < 0:
            raise ValueError(f"total must be non-negative, got {total}")
        self.total = total
        self.label = label
        self.unit = unit
        self.done = 0
        if stream is None:
            stream = sys.stderr
        self.enabled = is_terminal(stream) if enabled is None else enabled
        self._stream = stream
        self._interval = interval
        self._clock = clock
        self._next_draw = clock() + interval
        self._drawn = False
        self._closed = False

    def advance(self, n: int = 1) -> None:
        """Counts ``n`` more items done, and redraws when it is time to."""
        self.done += n
        if not self.enabled or self._closed:
            return
        now = self._clock()
        if now >= self._next_draw:
            self._next_draw = now + self._interval
            self._draw()

    def line(self) -> str:
        """The bar as drawn: ``checking  412/1000 files [=======>      ] 41%``."""
        total = self.total
        done = min(self.done, total)  # an estimate that fell short never overflows the bar
        fraction = done / total if total else 1.0
        filled = int(fraction * _BAR_WIDTH)
        bar = "=" * filled + (">" if filled < _BAR_WIDTH else "") + " " * (_BAR_WIDTH - filled - 1)
        count = f"{done:>{len(str(total))}}/{total}" + (f" {self.unit}" if self.unit else "")
        return f"{self.label} {count} [{bar}] {int(fraction * 100)}%"

    def _draw(self) -> None:
        text = self.line()[: max(_columns(self._stream) - 1, 0)]
        self._stream.write("\r" + text)
        self._stream.flush()
        self._drawn = True

    def close(self) -> None:
        """Erases the bar, if it was ever drawn. Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self._drawn:
            self._stream.write(_ERASE_LINE)
            self._stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        # Also on an error or Ctrl-C: the traceback must not start mid-bar.
        self.close()


def chunks(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    """Consecutive slices of ``items`` of ``size`` items (the last may be shorter)."""
    if size < 1:
        raise ValueError(f"size must be at least 1, got {size}")
    for start in range(0, len(items), size):
        yield items[start : start + size]
