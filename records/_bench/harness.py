"""
Timing primitives: peers interleaved round by round, medians, progress.

Why a ``timeit`` harness and not pyperf: every ratio here compares peers timed
in the same process within the same few milliseconds, round after round, so
that a noisy neighbour on a shared machine slows all of them alike. pyperf's
strength, one calibrated worker process per benchmark, works against that,
and it would add a dependency for what ``timeit`` and ``statistics`` do.
``timeit`` turns the garbage collector off while timing, for every peer alike.
"""

from __future__ import annotations

import statistics
import sys
import time
import timeit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


class Progress:
    """A one-line progress indicator on stderr."""

    def __init__(self, total: int, stream: Any = None) -> None:
        self.total = total
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.live = bool(getattr(self.stream, "isatty", lambda: False)())
        self.started = time.perf_counter()
        self._last_label = ""

    def step(self, label: str) -> None:
        """Count one step done, labelled *label*."""
        self.done += 1
        elapsed = time.perf_counter() - self.started
        line = f"[{self.done}/{self.total}] {label} ({elapsed:.0f} s)"
        if self.live:
            self.stream.write("\r" + line[:100].ljust(100))
            self.stream.flush()
        elif label != self._last_label:
            self.stream.write(line + "\n")
        self._last_label = label

    def finish(self) -> None:
        """Clear the live line."""
        if self.live:
            self.stream.write("\r" + " " * 100 + "\r")
            self.stream.flush()


def time_statement(statement: str, namespace: dict[str, Any], number: int) -> float:
    """Seconds per execution of *statement* in *namespace*, over *number* runs."""
    return timeit.timeit(statement, globals=namespace, number=number) / number


def time_callable(function: Callable[[], object], number: int, *, gc_on: bool = False) -> float:
    """
    Seconds per call of *function*, over *number* calls; with the garbage
    collector on if *gc_on* (``timeit`` turns it off otherwise).
    """
    setup = "import gc; gc.enable()" if gc_on else "pass"
    return timeit.Timer(function, setup=setup).timeit(number=number) / number


def medians(samples: dict[str, list[float]]) -> dict[str, float]:
    """Return the median of each list of samples."""
    return {key: statistics.median(values) for key, values in samples.items() if values}


def ratios(values: dict[str, float], baseline: str) -> dict[str, float]:
    """Return each value divided by the baseline's."""
    base = values.get(baseline)
    if not base:
        return {}
    return {key: value / base for key, value in values.items()}
