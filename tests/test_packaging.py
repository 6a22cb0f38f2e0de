"""The built wheel holds the code, the stub and py.typed."""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


@pytest.mark.skipif(
    sys.version_info < (3, 10), reason="pip builds nothing below requires-python (PyPy 3.9)"
)
def test_wheel_contents(tmp_path):
    """records/__init__.pyi (from stubs/) and records/py.typed are in the wheel."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--quiet",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
    )
    (wheel,) = tmp_path.glob("records_tuple-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"records/__init__.py", "records/__init__.pyi", "records/py.typed"} <= names
    stub = zipfile.ZipFile(wheel).read("records/__init__.pyi").decode()
    assert stub == (ROOT / "stubs" / "records" / "__init__.pyi").read_text()
