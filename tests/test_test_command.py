"""
The test command's summary (tests/scripts/summarize.py, tests/support/run_summary.py),
how it runs two commands at once (tests/scripts/concurrently.py, quick.py), and
the memory-safety children's allocator (tests/support/child.py).
"""

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from support import run_summary
from support.child import run_child

from records._accelerator import free_threaded

SCRIPTS = Path(__file__).parent / "scripts"


def load_script(name):
    """Import ``tests/scripts/<name>.py`` as a module."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # a dataclass looks its module up; quick imports concurrently
    spec.loader.exec_module(module)
    return module


summarize = load_script("summarize")
concurrently = load_script("concurrently")
quick = load_script("quick")


def write_tox_result(path, envs):
    """
    Write a tox --result-json file with *envs*: name -> None (not selected) or
    (success, seconds, seconds of each command).
    """
    testenvs = {".pkg": {}}
    for name, outcome in envs.items():
        if outcome is None:
            testenvs[name] = {}
            continue
        success, seconds, commands = outcome
        testenvs[name] = {
            "result": {"success": success, "duration": seconds},
            "test": [{"command": ["pytest"], "elapsed": elapsed} for elapsed in commands],
        }
    path.write_text(json.dumps({"testenvs": testenvs}))


def test_each_run_of_each_env_is_counted(tmp_path, monkeypatch):
    """Runs written by pytest sessions show under their env, C first, with their counts and times."""
    runs = tmp_path / "runs"
    monkeypatch.setenv("TOX_ENV_NAME", "3.13")
    monkeypatch.setattr(run_summary, "label", lambda: "3.13.0, pure")
    run_summary.write(str(runs), {"passed": [1, 2], "failed": [3], "error": [4]}, 1, 58.6)
    monkeypatch.setattr(run_summary, "label", lambda: "3.13.0, C")
    run_summary.write(str(runs), {"passed": [1, 2, 3], "skipped": [4], "failed": []}, 0, 61.2)
    monkeypatch.setenv("TOX_ENV_NAME", "on_pypy")
    run_summary.write_install(str(runs), 20.0)
    result = tmp_path / "result.json"
    write_tox_result(
        result,
        {
            "3.13": (False, 70.4, [62.0]),
            "lint": (True, 9.0, [1.5, 2.5]),
            "on_pypy": (True, 80.0, [79.0]),
            "docs": None,
        },
    )

    assert 1 == summarize.main([str(result), str(runs)])
    runs_found = summarize.load_runs(runs)
    lines = summarize.table(
        summarize.env_results(result, runs_found), runs_found, wall_seconds=95.0
    ).splitlines()
    assert [
        "env             result  total install  run                 time  pass  fail skip",
        "-" * 80,
        "3.13            FAILED    70s      8s  3.13.0, C            61s     3     0    1",
        "                                       3.13.0, pure         59s     2     2    0",
        "lint            ok         9s      5s  (no pytest run)",
        "on_pypy         ok        80s     21s  (no pytest run)",
        "",
        "2 of 3 envs passed; failed: 3.13",
        "The command took 95 s.",
        "The envs' times add up to 159 s: 34 s installing, 125 s testing.",
    ] == lines
    assert max(map(len, lines)) <= 80


@pytest.mark.parametrize("pure", [False, True])
def test_labels_name_the_interpreter_and_the_path(monkeypatch, pure):
    """A run's label fits the table: the version, PyPy or a debug build, and the path."""
    if pure:
        monkeypatch.setenv("RECORDS_PURE_PYTHON", "1")
    else:
        monkeypatch.delenv("RECORDS_PURE_PYTHON", raising=False)
    on_pypy = sys.implementation.name == "pypy"
    version = ".".join(map(str, sys.version_info[:3]))
    debug = " debug" if hasattr(sys, "gettotalrefcount") else ""
    path = "pure" if pure or on_pypy else "C"
    assert ("PyPy " if on_pypy else "") + f"{version}{debug}, {path}" == run_summary.label()
    assert len(run_summary.label()) <= 18  # the table's column


def test_all_passed_exits_zero(tmp_path):
    """When every env passed and no run failed, the summary exits 0."""
    result = tmp_path / "result.json"
    write_tox_result(result, {"lint": (True, 3.0, [2.0])})
    assert 0 == summarize.main([str(result), str(tmp_path / "none")])


def test_missing_result_file_fails(tmp_path, capsys):
    """Without tox's result file (tox did not finish) the summary fails and says so."""
    assert 1 == summarize.main([str(tmp_path / "missing.json"), str(tmp_path)])
    assert "tox did not finish" in capsys.readouterr().err


def test_commands_are_split_at_the_separator():
    """Words between ::: are one command each; an empty command is refused."""
    assert [["a", "b"], ["c"]] == concurrently.split(["a", "b", ":::", "c"])
    assert [["a"]] == concurrently.split(["a"])
    for words in (["a", ":::"], [":::", "a"], []):
        with pytest.raises(ValueError, match="an empty command"):
            concurrently.split(words)
    assert 2 == concurrently.main(["a", ":::"])


def _python(code):
    return [sys.executable, "-c", code]


def test_every_command_runs_at_once_and_the_held_output_follows(capfd, tmp_path, monkeypatch):
    """Both commands run together (each waits for the other); the second's output comes last."""
    monkeypatch.chdir(tmp_path)
    first = (
        "import os, time\n"
        "print('first', flush=True)\n"
        "while not os.path.exists('second-started'): time.sleep(0.01)\n"
        "open('first-done', 'w').close()\n"
        "print('first again')"
    )
    second = (
        "import os, time\n"
        "open('second-started', 'w').close()\n"
        "print('second')\n"
        "while not os.path.exists('first-done'): time.sleep(0.01)"
    )
    assert 0 == concurrently.run_all([_python(first), _python(second)])
    output = capfd.readouterr().out
    assert output.startswith(f"first\nfirst again\n\n--- {sys.executable} -c import os, time\n")
    assert output.endswith("\nsecond\n")


def test_the_first_failure_gives_the_status():
    """A failed command fails the whole; a signal counts as 1."""
    ok, fails = _python("pass"), _python("raise SystemExit(3)")
    assert 3 == concurrently.run_all([ok, fails])
    assert 3 == concurrently.run_all([fails, ok])
    killed = _python("import os, signal; os.kill(os.getpid(), signal.SIGTERM)")
    assert 1 == concurrently.run_all([killed, ok])


def test_the_quick_loop_runs_both_paths_without_the_slow_tests():
    """quick.py runs pytest twice, C and pure, each without the slow tests, with the arguments."""
    c_run, pure_run = concurrently.split(quick.commands(["-k", "replace"]))
    for run in (c_run, pure_run):
        assert [sys.executable, "-X", "dev", "-m", "pytest", "-m", "not slow"] == run[:7]
        assert ["-k", "replace"] == run[-2:]
    assert "--pure-python" in pure_run and "--pure-python" not in c_run


@pytest.mark.skipif(
    sys.implementation.name != "cpython", reason="the debug hooks are CPython's allocators"
)
def test_memory_safety_children_get_the_debug_allocator(monkeypatch):
    """A child of run_child has the debug hooks on, even where the run itself does not (pure envs)."""
    monkeypatch.setenv("PYTHONMALLOC", "malloc")
    output = run_child(
        """
        try:
            from _testinternalcapi import pymem_getallocatorsname
        except ImportError:
            from _testcapi import pymem_getallocatorsname
        print(pymem_getallocatorsname())
        """
    )
    # A free-threaded build allocates with mimalloc, whose debug hooks it names so.
    expected = "mimalloc_debug" if free_threaded() else "pymalloc_debug"
    assert expected == output.strip()
