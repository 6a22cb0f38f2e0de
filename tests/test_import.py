"""`import records` stays cheap."""

import subprocess
import sys

import records

EXPENSIVE = {
    "typing",
    "inspect",
    "dataclasses",
    "typing_extensions",
    "ctypes",
    "_ctypes",
    "linecache",
    "re",
    "operator",
    "types",
}


def test_import_does_not_load_expensive_modules():
    """Importing records loads none of the modules it defers."""
    code = (
        "import sys; before = set(sys.modules); import records; "
        "print(' '.join(sorted(set(sys.modules) - before)))"
    )
    loaded = set(subprocess.check_output([sys.executable, "-c", code], text=True).split())
    assert "records" in loaded
    assert set() == loaded & EXPENSIVE


def test_first_record_loads_only_the_c_half_of_ctypes():
    """
    _ctypes arrives with the first record class, not with the import, on the
    pure path of CPython; never with the C accelerator. ctypes never.
    """
    code = (
        "import sys, records; a = '_ctypes' in sys.modules\n"
        "class P(records.Record):\n    x: int\n"
        "print(a, '_ctypes' in sys.modules, 'ctypes' in sys.modules)"
    )
    output = subprocess.check_output([sys.executable, "-c", code], text=True).split()
    pure_cpython = sys.implementation.name == "cpython" and not records.ACCELERATED
    assert ["False", str(pure_cpython), "False"] == output
