"""`import records` stays cheap."""

import subprocess
import sys

EXPENSIVE = {
    "typing",
    "inspect",
    "dataclasses",
    "typing_extensions",
    "ctypes",
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


def test_first_record_loads_ctypes_lazily():
    """ctypes arrives with the first record class, not with the import."""
    code = (
        "import sys, records; a = 'ctypes' in sys.modules\n"
        "class P(records.Record):\n    x: int\n"
        "print(a, 'ctypes' in sys.modules)"
    )
    output = subprocess.check_output([sys.executable, "-c", code], text=True).split()
    expected_after = "True" if sys.implementation.name == "cpython" else "False"
    assert ["False", expected_after] == output
