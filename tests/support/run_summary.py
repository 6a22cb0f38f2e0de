"""
What one pytest run reports to the test command's summary.

``tests/scripts/test_command.sh`` sets ``RECORDS_TEST_SUMMARY`` to a folder;
each pytest run then writes one JSON file there (``tests/conftest.py`` calls
``write``), which ``tests/scripts/summarize.py`` reads back per tox env.
"""

from __future__ import annotations

import json
import os
import sys
import time

OUTCOMES = ("passed", "failed", "error", "skipped", "xfailed", "xpassed")


def label() -> str:
    """
    Name the interpreter and path of this run: ``CPython 3.13.0, C`` (the C
    accelerator) or ``CPython 3.13.0, pure`` (the pure-Python path).
    """
    implementation = sys.implementation.name
    name = {"cpython": "CPython", "pypy": "PyPy"}.get(implementation, implementation)
    version = ".".join(map(str, sys.version_info[:3]))
    if hasattr(sys, "gettotalrefcount"):
        version += " debug"
    pure = implementation != "cpython" or os.environ.get("RECORDS_PURE_PYTHON")
    path = "pure" if pure else "C"
    return f"{name} {version}, {path}"


def write(directory: str, stats: dict[str, list[object]], exit_status: int) -> None:
    """Write this run's counts by outcome into *directory*."""
    counts = {outcome: len(stats.get(outcome, [])) for outcome in OUTCOMES}
    record = {
        "env": os.environ.get("TOX_ENV_NAME", "pytest"),
        "run": label(),
        "exit status": int(exit_status),
        "finished": time.time(),
        **counts,
    }
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{record['env']}-{os.getpid()}-{time.monotonic_ns()}.json")
    with open(path, "w", encoding="utf-8") as file:
        json.dump(record, file)
