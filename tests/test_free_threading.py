"""
Threads using records at once (tests/support/thread_stress.py), in a child
process: every result checked, and on a free-threaded build the GIL left off.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.opt_in import pth_installed

from records._accelerator import free_threaded

STRESS = Path(__file__).parent / "support" / "thread_stress.py"


@pytest.mark.parametrize("opt_in", [False, True], ids=["plain", "RECORDS_NAMEDTUPLE=1"])
def test_threads_build_and_use_records_at_once(opt_in):
    """Eight threads released by a barrier: classes, instances, replace, copy, pickle."""
    env = {k: v for k, v in os.environ.items() if k != "RECORDS_NAMEDTUPLE"}
    if opt_in:
        env["RECORDS_NAMEDTUPLE"] = "1"
    arguments = ["-X", "gil=0"] if free_threaded() else []
    result = subprocess.run(
        [sys.executable, *arguments, "-W", "error", str(STRESS)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert 0 == result.returncode, result.stderr[-3000:]
    assert "" == result.stderr
    report = json.loads(result.stdout)
    assert [] == report["errors"]
    assert 8 * 60 * 14 == report["checked"]
    if free_threaded():
        assert report["gil_before"] is False
        assert report["gil_after"] is False
    # Runs from the source tree (PyPy's, the debug build's) have no start-up hook.
    assert (opt_in and pth_installed()) == report["namedtuple_is_records"]
