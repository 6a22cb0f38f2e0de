"""The test command's summary (tests/scripts/summarize.py, tests/support/run_summary.py)."""

import importlib.util
import json
from pathlib import Path

from support import run_summary

SCRIPT = Path(__file__).parent / "scripts" / "summarize.py"
spec = importlib.util.spec_from_file_location("summarize", SCRIPT)
summarize = importlib.util.module_from_spec(spec)
spec.loader.exec_module(summarize)


def write_tox_result(path, envs):
    """Write a tox --result-json file with *envs*: name -> (success, seconds) or None."""
    testenvs = {".pkg": {}}
    for name, outcome in envs.items():
        testenvs[name] = (
            {} if outcome is None else {"result": {"success": outcome[0], "duration": outcome[1]}}
        )
    path.write_text(json.dumps({"testenvs": testenvs}))


def test_each_run_of_each_env_is_counted(tmp_path, monkeypatch):
    """Runs written by pytest sessions show under their env, in order, with their counts."""
    runs = tmp_path / "runs"
    monkeypatch.setenv("TOX_ENV_NAME", "3.13")
    monkeypatch.delenv("RECORDS_PURE_PYTHON", raising=False)
    run_summary.write(str(runs), {"passed": [1, 2, 3], "skipped": [4], "failed": []}, 0)
    first = run_summary.label()
    monkeypatch.setenv("RECORDS_PURE_PYTHON", "1")
    run_summary.write(str(runs), {"passed": [1, 2], "failed": [3], "error": [4]}, 1)
    second = run_summary.label()
    assert second.endswith(", pure")
    result = tmp_path / "result.json"
    write_tox_result(result, {"3.13": (False, 61.4), "lint": (True, 9.0), "docs": None})

    assert 1 == summarize.main([str(result), str(runs)])
    lines = summarize.table(summarize.env_results(result), summarize.load_runs(runs)).splitlines()
    assert [
        "env             result    time  run                             pass  fail  skip",
        "-" * 80,
        f"3.13            FAILED     61s  {first:<30}     3     0     1",
        f"                                {second:<30}     2     2     0",
        "lint            ok          9s  (no pytest run)",
        "",
        "1 of 2 envs passed; failed: 3.13",
    ] == lines
    assert max(map(len, lines)) <= 80


def test_all_passed_exits_zero(tmp_path):
    """When every env passed and no run failed, the summary exits 0."""
    result = tmp_path / "result.json"
    write_tox_result(result, {"lint": (True, 3.0)})
    assert 0 == summarize.main([str(result), str(tmp_path / "none")])


def test_missing_result_file_fails(tmp_path, capsys):
    """Without tox's result file (tox did not finish) the summary fails and says so."""
    assert 1 == summarize.main([str(tmp_path / "missing.json"), str(tmp_path)])
    assert "tox did not finish" in capsys.readouterr().err
