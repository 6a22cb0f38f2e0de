"""The benchmark's start-up as a whole process (records/_bench/process_startup.py)."""

import collections
import sys

import pytest
from support import benchmarks

import records
from records._bench import dropin, harness, process_startup


@pytest.mark.parametrize("kind", ["Record", "NamedTuple", "namedtuple"])
def test_module_source_builds_the_classes_of_its_kind(kind):
    """N classes of five fields, the last three with defaults, importing only what they use."""
    source = process_startup.module_source(kind, 3)
    namespace = {"__name__": "generated"}
    exec(compile(source, "generated.py", "exec"), namespace)  # the module this test generated
    classes = [namespace[f"C{index}"] for index in range(3)]
    assert "C3" not in namespace
    for cls in classes:
        assert ("a", "b", "c", "d", "e") == cls._fields
        assert (1, 2, 0, "", 0.0) == tuple(cls(1, 2))
    imported = source.splitlines()[0]
    assert (
        imported
        == {
            "Record": "from records import Record",
            "NamedTuple": "from typing import NamedTuple",
            "namedtuple": "from collections import namedtuple",
        }[kind]
    )
    if kind == "Record":
        assert all(issubclass(cls, records.Record) for cls in classes)


def test_rows_and_their_targets():
    """The rows of the section, each with the target it is measured against."""
    rows = {row.label: row for row in process_startup.rows(opt_in=True)}
    expected = {
        "import records / python -c pass": 1.10,
        "import typing, records / import typing": 1.05,
        "1 Record class / 1 namedtuple": 1.00,
        "5 Record classes / 5 namedtuple": 0.97,
        "20 Record classes / 20 namedtuple": 0.90,
        "100 Record classes / 100 namedtuple": 0.80,
        "5 Record classes / 5 NamedTuple": 0.80,
        "20 Record classes / 20 NamedTuple": 0.75,
        "100 Record classes / 100 NamedTuple": 0.65,
        "opt-in on / off: python -c pass": 1.05,
        "opt-in on / off: import asyncio": 1.00,
        "opt-in on / off: a module of 100 namedtuple calls": 0.85,
    }
    assert expected == {label: rows[label].target for label in expected}
    libraries = set(rows) - set(expected)
    assert libraries <= {"opt-in on / off: import rich", "opt-in on / off: import joblib"}
    assert all(row.a.opt_in and not row.b.opt_in for row in rows.values() if "opt-in" in row.label)
    twenty = rows["20 Record classes / 20 NamedTuple"]
    assert ("import records_20", "import NamedTuple_20") == (twenty.a.code, twenty.b.code)
    assert twenty.modules["NamedTuple_20"] == process_startup.module_source("NamedTuple", 20)
    without = [row.label for row in process_startup.rows(opt_in=False)]
    assert without == [label for label in rows if "opt-in" not in label]


def test_measure_pairs_the_two_sides(tmp_path):
    """Each side runs once to warm up, then in turn; the ratio is the median of the pairs'."""
    row = process_startup.Row(
        "mine", process_startup.Side("import mine"), process_startup.Side("pass"), 2.0,
        {"mine": "import sys\n"},
    )  # fmt: skip
    found = process_startup.measure(row, 3, str(tmp_path))
    assert 3 == len(found["a"]) == len(found["b"])
    ratios = sorted(a / b for a, b in zip(found["a"], found["b"]))
    assert ratios[1] == found["ratio"]
    assert [ratios[0], ratios[-1]] == found["ratios"]
    assert 2.0 == found["target"]
    assert "import sys\n" == (tmp_path / "mine.py").read_text()


def test_opt_in_side_sets_the_variable(monkeypatch):
    """A side with the opt-in runs with RECORDS_NAMEDTUPLE=1, the other without it at all."""
    monkeypatch.setenv("RECORDS_NAMEDTUPLE", "1")
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    assert "RECORDS_NAMEDTUPLE" not in harness.process_environment(opt_in=False)
    assert "1" == harness.process_environment(opt_in=True)["RECORDS_NAMEDTUPLE"]
    assert "PYTHONDONTWRITEBYTECODE" not in harness.process_environment(opt_in=True)


def test_a_side_that_fails_stops_the_run(tmp_path):
    """A side whose interpreter fails is an error, never a figure."""
    row = process_startup.Row("bad", process_startup.Side("import no_such_module_here"),
                              process_startup.Side("pass"))  # fmt: skip
    with pytest.raises(Exception, match="returned non-zero exit status 1"):
        process_startup.measure(row, 1, str(tmp_path))


def test_markdown_puts_each_ratio_beside_its_target():
    """Met, not met, or no target (a library's row)."""
    section = {
        "fast / slow": {"a": [0.010], "b": [0.020], "ratio": 0.5, "ratios": [0.4, 0.6],
                        "target": 0.8},
        "slow / fast": {"a": [0.030], "b": [0.020], "ratio": 1.5, "ratios": [1.4, 1.6],
                        "target": 1.05},
        "library": {"a": [0.021], "b": [0.020], "ratio": 1.05, "ratios": [1.0, 1.1],
                    "target": None},
    }  # fmt: skip
    lines = process_startup.markdown(section)
    assert "## Start-up as a whole process" in lines
    assert "| fast / slow | 0.50× [0.40, 0.60] | ≤ 0.80× met | 10.0 ms | 20.0 ms |" in lines
    assert "| slow / fast | 1.50× [1.40, 1.60] | ≤ 1.05× not met | 30.0 ms | 20.0 ms |" in lines
    assert "| library | 1.05× [1.00, 1.10] |  | 21.0 ms | 20.0 ms |" in lines


def test_module_rows_import_what_a_fresh_interpreter_finds(tmp_path, monkeypatch):
    """The generated modules import in a fresh interpreter from the run's folder."""
    row = next(r for r in process_startup.rows(opt_in=False) if r.label.startswith("5 Record"))
    found = process_startup.measure(row, 1, str(tmp_path))
    assert found["ratio"] > 0
    assert {"records_5.py", "namedtuple_5.py"} <= {p.name for p in tmp_path.iterdir()}
    assert collections.namedtuple.__module__ == "collections"  # this process: untouched
    assert sys.modules.get("records_5") is None


script = benchmarks.load("process_startup")


def test_script_refuses_fewer_than_one_pair(capsys):
    """--pairs below 1 is refused by name, before anything runs."""
    with pytest.raises(SystemExit) as exit_info:
        script.main(["--pairs", "0"])
    assert 2 == exit_info.value.code
    assert "--pairs must be at least 1, not 0" in capsys.readouterr().err


@pytest.mark.slow
def test_script_prints_every_row(capsys, monkeypatch):
    """One pair a row: the interpreter and path, then a table row for each row it measures."""
    every_row = process_startup.rows  # the first and the last: test_rows_and_their_targets has all
    monkeypatch.setattr(process_startup, "rows", lambda opt_in=True: every_row(opt_in)[::-1][:2])
    assert 0 == script.main(["--pairs", "1"])
    output = capsys.readouterr().out.splitlines()
    assert output[0].endswith(f"{records.ACCELERATOR}; 1 pairs a row")
    table = output[output.index("|---|---|---|---|---|") + 1 :]
    expected = every_row(dropin.opt_in_installed())[::-1][:2]
    assert [row.label for row in expected] == [
        line.split(" | ")[0].removeprefix("| ") for line in table
    ]
