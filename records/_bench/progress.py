"""
Progress of a benchmark run, on stderr.

On a terminal, with rich installed (it comes with the ``bench`` extra), a
live bar counts every unit of work and names the round and the measurement
(not on free-threaded 3.13: see ``_threads_change_classes``).
Anywhere else (a pipe, a log, a CI job) one plain line is written when a
measurement starts a round, with the share of the work done before it:
``[ 37%] round 3/5: instance operations``. The share only grows, and every
line is written once.
"""

from __future__ import annotations

import importlib.util
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _rich_available() -> bool:
    return importlib.util.find_spec("rich") is not None


def _threads_change_classes() -> bool:
    """
    Tell whether starting a thread changes the classes made after it, as on
    free-threaded 3.13, where they are immortal and records cannot seal them:
    the live bar, which redraws from a thread of its own, would then change
    what is measured.
    """
    from .._accelerator import free_threaded

    return free_threaded() and sys.version_info[:2] == (3, 13)


class Progress:
    """Count *total* units of work, announced round by round."""

    def __init__(self, total: int, stream: Any = None, *, live: bool | None = None) -> None:
        self.total = total
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        if live is None:
            live = (
                bool(getattr(self.stream, "isatty", lambda: False)())
                and _rich_available()
                and not _threads_change_classes()
            )
        self.live = live
        self._heading = ""
        self._bar: Any = None
        self._task: Any = None

    def round(self, measurement: str, index: int | None = None, rounds: int | None = None) -> None:
        """
        Announce that *measurement* starts its round *index* (from 1) of
        *rounds*, or starts at all where it has no rounds.
        """
        heading = measurement if index is None else f"round {index}/{rounds}: {measurement}"
        if heading == self._heading:
            return
        self._heading = heading
        if self.live:
            self._live_bar().update(self._task, description=heading)
        else:
            share = 100 * self.done / self.total if self.total else 100.0
            self.stream.write(f"[{share:3.0f}%] {heading}\n")
            self.stream.flush()

    def step(self, detail: str = "") -> None:
        """Count one unit of work done; *detail* (a peer's name) shows on the live bar."""
        self.done += 1
        if self.live:
            text = f"{self._heading}: {detail}" if detail else self._heading
            self._live_bar().update(self._task, advance=1, description=text)

    def finish(self) -> None:
        """Close the live bar (it leaves nothing behind)."""
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def _live_bar(self) -> Any:
        if self._bar is None:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
            )
            from rich.progress import Progress as Bar

            self._bar = Bar(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(file=self.stream),
                transient=True,
            )
            self._task = self._bar.add_task(self._heading, total=self.total)
            self._bar.start()
        return self._bar
