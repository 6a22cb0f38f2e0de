"""
Timing primitives: peers interleaved round by round, and their statistics.

Why a ``timeit`` harness and not pyperf: every ratio here compares peers timed
in the same process within the same few milliseconds, round after round, so
that a noisy neighbour on a shared machine slows all of them alike. pyperf's
strength, one calibrated worker process per benchmark, works against that,
and it would add a dependency for what ``timeit`` and ``statistics`` do.
``timeit`` turns the garbage collector off while timing, for every peer alike.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
import timeit

from .progress import Progress

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = [
    "Progress",
    "medians",
    "process_environment",
    "process_seconds",
    "ratios",
    "spread",
    "time_callable",
    "time_statement",
]


def time_statement(statement: str, namespace: dict[str, Any], number: int) -> float:
    """Seconds per execution of *statement* in *namespace*, over *number* runs."""
    return timeit.timeit(statement, globals=namespace, number=number) / number


def process_environment(*, opt_in: bool = False) -> dict[str, str]:
    """
    Return the environment of a fresh interpreter that is timed: this one's,
    with the ``RECORDS_NAMEDTUPLE`` opt-in on only if *opt_in*, and bytecode
    written as a program's is (no ``PYTHONDONTWRITEBYTECODE``).
    """
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONDONTWRITEBYTECODE", "RECORDS_NAMEDTUPLE")
    }
    if opt_in:
        environment["RECORDS_NAMEDTUPLE"] = "1"
    return environment


def process_seconds(code: str, *, opt_in: bool = False, cwd: str | None = None) -> float:
    """Wall-clock seconds of a fresh interpreter running *code* in *cwd*, start to exit."""
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=process_environment(opt_in=opt_in), check=True
    )
    return time.perf_counter() - started


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


def spread(samples: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    """Return the smallest and the largest of each list: ``{"min": {...}, "max": {...}}``."""
    present = {key: values for key, values in samples.items() if values}
    return {
        "min": {key: min(values) for key, values in present.items()},
        "max": {key: max(values) for key, values in present.items()},
    }


def ratios(values: dict[str, float], baseline: str) -> dict[str, float]:
    """Return each value divided by the baseline's."""
    base = values.get(baseline)
    if not base:
        return {}
    return {key: value / base for key, value in values.items()}
