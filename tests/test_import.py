"""`import records` stays cheap."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.child import run_child
from support.platform_marks import cpython_only

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


def _without_site(code: str, **environment: str) -> str:
    """What *code* prints in ``python -S``, where nothing has imported ``os``."""
    package_parent = str(Path(records.__file__).parents[1])
    code = f"import sys; sys.path.insert(0, {package_parent!r})\n" + code
    env = {k: v for k, v in os.environ.items() if k != "RECORDS_PURE_PYTHON"}
    env.update(environment)
    return subprocess.check_output([sys.executable, "-S", "-c", code], text=True, env=env)


@pytest.mark.skipif(
    sys.implementation.name != "cpython", reason="PyPy imports os as it starts, -S or not"
)
def test_import_and_first_record_leave_os_unimported():
    """Where site has not imported os, records does not either: it reads its switch without it."""
    code = (
        "import records\n"
        "class P(records.Record):\n    x: int\n"
        "print('os' in sys.modules, records._accelerator.STATUS)"
    )
    imported, status = _without_site(code).strip().split(" ", 1)
    assert imported == "False"
    assert "RECORDS_PURE_PYTHON" not in status
    imported, status = _without_site(code, RECORDS_PURE_PYTHON="1").strip().split(" ", 1)
    assert imported == "False"
    assert status == "pure Python (RECORDS_PURE_PYTHON is set)"


def test_switch_set_in_os_environ_before_the_import_is_read():
    """A change to os.environ before the import counts, as os.environ.get would see it."""
    code = (
        "import os; os.environ['RECORDS_PURE_PYTHON'] = ' On '\n"
        "import records; print(records._accelerator.STATUS)"
    )
    assert _without_site(code).strip() == "pure Python (RECORDS_PURE_PYTHON is set)"


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


def test_errors_worded_before_any_module_that_words_them_is_loaded():
    """
    The messages of C methods come from records._rules, which a class
    statement does not load: the first error of a process imports it.
    """
    output = run_child(
        "import sys, records\n"
        "class P(records.Record):\n    x: int\n"
        "loaded = 'records._rules' in sys.modules\n"
        "try:\n    P(1)._replace(w=1)\nexcept (TypeError, ValueError) as error:\n"
        "    print(loaded, type(error).__name__ in ('TypeError', 'ValueError'), error)\n"
    )
    # On the pure path the class statement loaded it (the Python class builder words errors).
    loaded = "False" if records.ACCELERATED else "True"
    assert f"{loaded} True Got unexpected field names: ['w']\n" == output


def test_record_make_refused_before_any_class_is_built():
    """Record._make([]) in a process that built no record yet: refused, as Record() is."""
    output = run_child(
        "import records\n"
        "try:\n    records.Record._make([])\nexcept TypeError as error:\n    print(error)\n"
    )
    assert "Record cannot be instantiated directly" in output


def test_first_class_pickles_by_value():
    """
    The first record class of a process, made by a class statement alone,
    pickles by value (cloudpickle) with its fields: the module that tells
    copyreg how loads with the first class.
    """
    dumped = subprocess.check_output(
        [
            sys.executable,
            "-c",
            "import sys, cloudpickle\nfrom records import Record\n"
            "class P(Record):\n    x: int\n    y: int = 2\n"
            "sys.stdout.buffer.write(cloudpickle.dumps((P, P(1))))\n",
        ]
    )
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import pickle, sys\nP, p = pickle.loads(sys.stdin.buffer.read())\n"
            "print(p, P(5), p.y)\n",
        ],
        input=dumped,
        capture_output=True,
        check=True,
    )
    assert b"P(x=1, y=2) P(x=5, y=2) 2\n" == loaded.stdout


@cpython_only  # PyPy's fields are properties, which pickle does not take at all
def test_first_class_inside_a_sys_modules_snapshot_pickles():
    """
    The first record class of a process made where sys.modules is restored
    afterwards (mock.patch.dict, as tests of optional dependencies do): the
    modules it loaded are gone from sys.modules, and its fields still pickle
    by name, with pickle and, where it is installed and works, dill.
    """
    output = run_child(
        "import pickle, sys\n"
        "from unittest import mock\n"
        "from records import Record\n"
        "with mock.patch.dict(sys.modules):\n"
        "    class P(Record):\n        x: int\n        y: int = 2\n"
        "P.__module__ = '__main__'; sys.modules['__main__'].P = P\n"
        "accessor = pickle.loads(pickle.dumps(P.x))\n"
        "print(accessor.__get__(P(7), P) == 7, pickle.loads(pickle.dumps(P(1))))\n"
        # dill 0.4 cannot pickle a function on 3.15 (co_lnotab is gone): then pickle alone.
        "try:\n    import dill; dill.dumps(lambda: 0)\nexcept Exception:\n    print(True)\n"
        "else:\n    print(dill.loads(dill.dumps(P))(3).y == 2)\n"
    )
    assert "True P(x=1, y=2)\nTrue\n" == output


def test_dir_lists_the_public_names_and_no_helper_of_the_import():
    """dir(records) has every name of __all__, the lazy ones too, and not the import's own helpers."""
    names = dir(records)
    assert set(records.__all__) <= set(names)
    assert {"sys", "TYPE_CHECKING"}.isdisjoint(names)
