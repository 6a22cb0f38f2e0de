"""
Code run in a child Python, so that a crash fails the test and not the run
(the memory-safety tests, ``tests/test_safety_*.py``).
"""

import os
import signal
import subprocess
import sys
import textwrap

import pytest

#: A prelude: a module "library" to define classes in, as an importable
#: module defines them; define() runs dedented code in it.
LIBRARY = """
import sys, textwrap, types
from records import Record
library = types.ModuleType("library")
sys.modules["library"] = library
def define(code):
    exec(textwrap.dedent(code), library.__dict__)
"""


def run_child(code, *, prelude=""):
    """
    Run *prelude* and then *code* (each dedented) in a fresh interpreter under
    ``-X dev``, with faulthandler on, the debug hooks on the memory allocators
    (whatever ``PYTHONMALLOC`` the run has) and on the path this run takes (the
    child inherits ``RECORDS_PURE_PYTHON``); return what it printed.

    A child that crashes, or ends with an exception (an ``assert`` in it
    included), fails the test with its exit status and its standard error.
    """
    source = textwrap.dedent(prelude) + textwrap.dedent(code)
    result = subprocess.run(
        [sys.executable, "-X", "dev", "-c", source],
        capture_output=True,
        text=True,
        # A crashing child's debug allocator may dump raw memory into its errors.
        errors="replace",
        env={**os.environ, "PYTHONFAULTHANDLER": "1", "PYTHONMALLOC": "debug"},
        check=False,
        timeout=120,
    )
    if result.returncode != 0:
        status = f"exit status {result.returncode}"
        if result.returncode < 0:
            status += f" ({signal.Signals(-result.returncode).name})"
        pytest.fail(
            f"the child Python failed, {status}\n"
            f"--- its output, last lines:\n{result.stdout[-1000:]}\n"
            f"--- its errors, last lines:\n{result.stderr[-3000:]}",
            pytrace=False,
        )
    return result.stdout
