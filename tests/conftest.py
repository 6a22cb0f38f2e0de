"""Shared test configuration."""

import gc
import os
import sys
import time
from pathlib import Path

import pytest
from hypothesis import settings

# The fuzzer is a separate command (see tests/fuzz/fuzz_records.py); the
# type checkers' example modules and the do-nothing mypy plugin are inputs,
# not tests.
collect_ignore_glob = [
    "fuzz/*",
    "typing/checkers/*",
    "typing/noop_plugin.py",
    "support/refleak_check.py",  # a script for debug builds: tests/scripts/run_on_debug_python.sh
]
if sys.version_info < (3, 10):  # noqa: UP036 - PyPy 3.9 runs the suite
    collect_ignore_glob.append("*_310.py")  # match statements, for PyPy 3.9 (see tests/README.md)
if sys.version_info < (3, 12):
    collect_ignore_glob.append("*_312.py")  # PEP 695 syntax
if sys.version_info < (3, 14):
    collect_ignore_glob.append("*_314.py")  # deferred annotations (PEP 649/749)

settings.register_profile("ci", max_examples=200, deadline=None)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile("deep", max_examples=3000, deadline=None)  # by hand, for bug hunts
settings.load_profile(
    os.environ.get("RECORDS_HYPOTHESIS") or ("ci" if os.environ.get("CI") else "dev")
)


def pytest_collection_modifyitems(config, items):
    """
    On free-threaded 3.13, the tests that start threads run last: from the
    first thread on, CPython makes every new class immortal, whose reference
    count can no longer show that it has no instance, so the classes of the
    tests after it would not be sealed.
    """
    from records._accelerator import free_threaded

    if free_threaded() and sys.version_info[:2] == (3, 13):
        items.sort(key=lambda item: item.get_closest_marker("starts_threads") is not None)


@pytest.fixture(scope="session")
def mypy_caches(tmp_path_factory):
    """Fresh mypy caches that hold the standard library already (support/mypy_caches.py)."""
    from support.mypy_caches import MypyCaches

    return MypyCaches(tmp_path_factory.mktemp("mypy-caches"))


def pytest_addoption(parser):
    parser.addoption(
        "--pure-python",
        action="store_true",
        help="run records' pure-Python path even where the C accelerator is built",
    )


def pytest_configure(config):
    # Before any test module imports records: the choice is made at import.
    if config.getoption("--pure-python"):
        os.environ["RECORDS_PURE_PYTHON"] = "1"


STARTED = pytest.StashKey[float]()
GC_THRESHOLD = gc.get_threshold() if hasattr(gc, "get_threshold") else None  # not on PyPy


TYPING_TESTS = Path(__file__).parent / "typing"


def pytest_runtest_teardown(item):
    # mypy, run in this process (mypy.api.run, pytest-mypy-plugins), raises the
    # collector's thresholds for good and leaves millions of objects from its
    # cache behind: every later test that collects (many do) would scan them
    # again and again. Put the thresholds back, and collect once, here; but not
    # after the tests of tests/typing/, which run last and mostly run mypy.
    if GC_THRESHOLD is not None and gc.get_threshold() != GC_THRESHOLD:
        gc.set_threshold(*GC_THRESHOLD)
        if TYPING_TESTS not in item.path.parents:
            gc.collect()


def pytest_sessionstart(session):
    session.config.stash[STARTED] = time.monotonic()


def pytest_sessionfinish(session, exitstatus):
    # The test command's summary (tests/scripts/test_command.sh): this run's counts and time.
    directory = os.environ.get("RECORDS_TEST_SUMMARY")
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if directory and reporter is not None:
        from support import run_summary

        seconds = time.monotonic() - session.config.stash[STARTED]
        run_summary.write(directory, reporter.stats, exitstatus, seconds)
