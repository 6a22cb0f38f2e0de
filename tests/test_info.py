"""``python -m records info``: which records runs, and whether in C."""

import os
import subprocess
import sys

import pytest

import records
from records import _info
from records._accelerator import free_threaded

HINT_START = "records works the same without the accelerator"


def run(code_or_args, **environment):
    """Run records in a child Python with *environment* added; return its output."""
    env = {**os.environ, **environment}
    for name in ("RECORDS_PURE_PYTHON", "RECORDS_NAMEDTUPLE"):
        if name not in environment:
            env.pop(name, None)
    args = code_or_args if isinstance(code_or_args, list) else ["-c", code_or_args]
    result = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, check=True
    )
    return result.stdout


def test_reports_this_interpreter_and_path():
    """The command names the version, the interpreter and the path records runs on."""
    pure = os.environ.get("RECORDS_PURE_PYTHON") if not records.ACCELERATED else None
    lines = run(["-m", "records", "info"], **({"RECORDS_PURE_PYTHON": pure} if pure else {}))
    lines = lines.splitlines()
    assert lines[0].startswith(f"records {records.__version__} (distribution records-tuple) at ")
    assert lines[1].startswith(f"Python {sys.version.split()[0]} (")
    if pure:
        assert "path: pure Python (RECORDS_PURE_PYTHON is set)" == lines[2]
    else:
        assert f"path: {records.ACCELERATOR}" == lines[2]
    assert "namedtuple opt-in: off (RECORDS_NAMEDTUPLE is unset)" == lines[3]


def test_pure_python_by_choice_gives_no_hint():
    """Asked for pure Python, the command does not tell how to build C."""
    output = run(["-m", "records", "info"], RECORDS_PURE_PYTHON="1")
    assert "path: pure Python (RECORDS_PURE_PYTHON is set)" in output.splitlines()
    assert HINT_START not in output


def test_missing_accelerator_says_why_and_how_to_build_it():
    """Without the compiled module, the command says so and how to get it."""
    code = (
        "import sys; sys.modules['records._accelerator_c'] = None\n"
        "from records import _info; print(_info.report())"
    )
    lines = run(code).splitlines()
    assert (
        "path: pure Python (the C accelerator is not available: "
        "import of records._accelerator_c halted; None in sys.modules)" == lines[2]
    )
    # After the opt-in's line (on a free-threaded build, the GIL's lines) and a blank one.
    hint = len(lines) - len(_info.REBUILD_HINT.splitlines())
    assert _info.REBUILD_HINT.splitlines() == lines[hint:]
    assert "" == lines[hint - 1]
    assert lines[3].startswith("namedtuple opt-in: ")
    assert lines[4].startswith("free-threaded: ") if free_threaded() else hint == 5


def test_opt_in_state():
    """The namedtuple opt-in is reported on once it is switched on."""
    code = "import records, records._info; records.use_for_namedtuple(); print(records._info.report())"
    output = run(code, RECORDS_NAMEDTUPLE="yes")
    assert "namedtuple opt-in: on (RECORDS_NAMEDTUPLE='yes')" in output.splitlines()


def test_help_names_the_command():
    """python -m records -h lists info among the other commands."""
    output = run(["-m", "records", "-h"])
    assert "python -m records info" in output


@pytest.mark.parametrize(("enabled", "state"), [(False, "off"), (True, "on")])
def test_free_threading_line_says_the_gil_and_the_layout(monkeypatch, enabled, state):
    """On a free-threaded build, info says the GIL's state and what instances weigh there."""
    monkeypatch.setattr(sys, "_is_gil_enabled", lambda: enabled, raising=False)
    line = _info.free_threading_line()
    assert line.startswith(f"free-threaded: the GIL is {state} (records leaves it as it was)\n")
    layout = "keep a __dict__ slot" if sys.version_info >= (3, 14) else "are tuple-sized"
    assert layout in " ".join(line.split())
    assert max(map(len, line.splitlines())) <= 80


def test_free_threading_line_only_on_free_threaded_builds():
    """The line is in the report exactly where the build is free-threaded."""
    assert free_threaded() == ("free-threaded: the GIL is" in _info.report())
