"""`python -m records --versions`: the key rows on every CPython on PATH."""

import os
import sys
from pathlib import Path

import pytest

import records
from records.__main__ import main
from records._bench import versions
from records._bench.report import KEY_ROWS

TERSE_ROWS = [terse for _, terse, _, _ in KEY_ROWS]


def _entry(python, path, ratio):
    """An entry as a child reports it, every ratio the same."""
    ratios = {row: {"records.Record": ratio, "records.namedtuple": None} for row in TERSE_ROWS}
    return {"python": python, "implementation": "CPython", "records path": path, "ratios": ratios}


def _fake_path(tmp_path, names):
    """A PATH directory where each of *names* runs this interpreter."""
    directory = tmp_path / "bin"
    directory.mkdir()
    for name in names:
        (directory / name).symlink_to(sys.executable)
    return str(directory)


def test_interpreters_are_the_versions_on_path(tmp_path, monkeypatch):
    """Each pythonX.Y of 3.10-3.15 on PATH is found, in order; others are not."""
    monkeypatch.setenv("PATH", _fake_path(tmp_path, ["python3.15", "python3.11", "python3.9"]))
    found = versions.interpreters()
    assert [version for version, _ in found] == ["3.11", "3.15"]
    assert all(Path(path).parent == tmp_path / "bin" for _, path in found)


def test_table_has_a_column_per_version_and_a_row_per_key_row():
    """Versions across, key rows down, Record/drop-in in each cell; pure runs and failures said."""
    entries = [
        _entry("3.14.1", "C accelerator (records._accelerator_c)", 0.25),
        _entry("3.15.0", "pure Python (the C accelerator is not available: ...)", 1.5),
        {"python": "3.10", "error": "ModuleNotFoundError: No module named 'records'"},
    ]
    table = versions.rows(entries)
    assert table[0] == ["", "3.14.1", "3.15.0 pure"]
    assert [row[0] for row in table[1:]] == TERSE_ROWS
    assert all(row[1:] == ["0.25/n/a", "1.50/n/a"] for row in table[1:])
    markdown = versions.markdown_table(entries)
    assert "| row | 3.14.1 | 3.15.0 pure |" in markdown
    assert "Python 3.10: ModuleNotFoundError: No module named 'records'" in markdown
    text = versions.terminal_table(entries)
    assert max(len(line) for line in text.splitlines()) <= 100


@pytest.mark.slow
def test_each_interpreter_reports_records_ratios(tmp_path, monkeypatch, capsys):
    """
    A run over PATH measures every key row in each interpreter, with the
    records this process imports, and writes the Markdown table.
    """
    minor = f"{sys.version_info[0]}.{sys.version_info[1]}"
    monkeypatch.setenv(
        "PATH", _fake_path(tmp_path, [f"python{minor}"]) + os.pathsep + os.environ["PATH"]
    )
    monkeypatch.setattr(versions, "VERSIONS", (minor,))
    output = tmp_path / "versions.md"
    assert main(["--versions", "--rounds", "1", "--markdown", str(output)]) == 0
    printed = capsys.readouterr().out
    assert f"The key rows on {minor}: medians of 1 rounds each." in printed
    header = [line for line in printed.splitlines() if line.strip().startswith(minor)]
    assert header
    pure = not records.ACCELERATED
    assert header[0].strip().endswith("pure") == pure
    for row in TERSE_ROWS:
        line = next(line for line in printed.splitlines() if line.startswith(row + " "))
        record, dropin = line.split()[-1].split("/")
        assert float(record) > 0 and float(dropin) > 0
    assert output.read_text().startswith(f"| row | {minor}")


@pytest.mark.parametrize("other", [["--full"], ["--threads"], ["--chart", "x.svg"]])
def test_versions_refuses_options_of_one_interpreter(other, capsys):
    """--versions runs other interpreters: the options of a run of this one are refused."""
    with pytest.raises(SystemExit):
        main(["--versions", *other])
    assert "argument --versions: not with --full, --chart or --threads" in capsys.readouterr().err
