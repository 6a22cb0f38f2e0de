"""`python -m records` runs and prints its table."""

import subprocess
import sys


def test_main_runs():
    """The demonstration and a one-round timing table are printed."""
    result = subprocess.run(
        [sys.executable, "-m", "records", "--rounds", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "Point(x=1, y=2, tags=[])" in result.stdout
    for row in ("records.Record", "records.namedtuple", "collections.namedtuple"):
        assert any(line.startswith(row) for line in result.stdout.splitlines()), row
    assert "1.00x" in result.stdout  # the baseline row


def test_help():
    """--help documents the options."""
    output = subprocess.check_output([sys.executable, "-m", "records", "--help"], text=True)
    assert "--rounds" in output
