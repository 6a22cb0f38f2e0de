"""
What one pytest run reports to the test command's summary.

``tests/scripts/test_command.sh`` sets ``RECORDS_TEST_SUMMARY`` to a folder;
each pytest run then writes one JSON file there (``tests/conftest.py`` calls
``write``), which ``tests/scripts/summarize.py`` reads back per tox env. An
env whose script installs what it runs on (``tests/scripts/run_on_pypy.sh``,
``run_on_debug_python.sh``) reports that time the same way, from the shell:
``python tests/support/run_summary.py install SECONDS``.
"""

from __future__ import annotations

import json
import os
import sys
import time

OUTCOMES = ("passed", "failed", "error", "skipped", "xfailed", "xpassed")


def label() -> str:
    """
    Name the interpreter and path of this run: ``3.13.0, C`` (CPython, the C
    accelerator), ``3.13.0, pure`` (the pure-Python path), ``3.11.2 debug, C``
    or ``PyPy 3.9.16, pure``.
    """
    implementation = sys.implementation.name
    name = {"cpython": "", "pypy": "PyPy "}.get(implementation, implementation + " ")
    version = name + ".".join(map(str, sys.version_info[:3]))
    if hasattr(sys, "gettotalrefcount"):
        version += " debug"
    from records._accelerator import is_on  # here: the install step runs without records

    pure = implementation != "cpython" or is_on(os.environ.get("RECORDS_PURE_PYTHON"))
    path = "pure" if pure else "C"
    return f"{version}, {path}"


def write(
    directory: str, stats: dict[str, list[object]], exit_status: int, seconds: float
) -> None:
    """
    Write this run's counts by outcome, how long it took and the processor
    time it used (with the processes it waited for) into *directory*.
    """
    counts = {outcome: len(stats.get(outcome, [])) for outcome in OUTCOMES}
    record = {"run": label(), "exit status": int(exit_status), "seconds": seconds, **counts}
    _save(directory, {**record, "cpu seconds": _processor_seconds()})


def _processor_seconds() -> float:
    try:
        import resource
    except ImportError:  # not on this platform
        return float("nan")
    own, children = (
        resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def write_install(directory: str, seconds: float) -> None:
    """Write how long this env's own script took to install what it runs on."""
    _save(directory, {"install seconds": seconds})


def _save(directory: str, record: dict[str, object]) -> None:
    env = os.environ.get("TOX_ENV_NAME", "pytest")
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{env}-{os.getpid()}-{time.monotonic_ns()}.json")
    with open(path, "w", encoding="utf-8") as file:
        json.dump({"env": env, **record}, file)


if __name__ == "__main__":
    # python tests/support/run_summary.py install SECONDS (from a tox env's script)
    if len(sys.argv) != 3 or sys.argv[1] != "install":
        sys.exit("usage: python tests/support/run_summary.py install SECONDS")
    if os.environ.get("RECORDS_TEST_SUMMARY"):
        write_install(os.environ["RECORDS_TEST_SUMMARY"], float(sys.argv[2]))
