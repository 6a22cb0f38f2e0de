"""
typer builds a command line from a record's signature, as from a function's:
string annotations (``from __future__ import annotations``) resolve in the
record's module, as for a typing.NamedTuple made by hand.
"""

import importlib
import sys
import textwrap

import pytest

typer = pytest.importorskip("typer")
from typer.testing import CliRunner  # noqa: E402

MODULE = """
from __future__ import annotations

import enum
from pathlib import Path

from records import Record


class Level(enum.Enum):
    low = "low"
    high = "high"


class Job(Record):
    source: Path
    count: int = 1
    level: Level = Level.low


def job(source: Path, count: int = 1, level: Level = Level.low):
    return Job(source, count, level)
"""


@pytest.fixture
def module(tmp_path, monkeypatch):
    (tmp_path / "typer_jobs.py").write_text(textwrap.dedent(MODULE))
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("typer_jobs", None)
    yield importlib.import_module("typer_jobs")
    sys.modules.pop("typer_jobs", None)


def command_line(command):
    app = typer.Typer()
    app.command()(command)
    return app


@pytest.mark.parametrize(
    "arguments", [["data.csv"], ["data.csv", "--count", "3", "--level", "high"]]
)
def test_a_record_as_a_command(module, arguments):
    """typer parses the arguments into the record as into the function of the same parameters."""
    ours, theirs = (
        typer.main.get_command(command_line(command)).main(arguments, standalone_mode=False)
        for command in (module.Job, module.job)
    )
    assert theirs == ours
    assert type(ours) is module.Job
    assert isinstance(ours.source, module.Path) and isinstance(ours.level, module.Level)


def test_help_lists_the_fields(module):
    """--help lists each field with its type and default, as for the function."""
    ours, theirs = (
        CliRunner().invoke(command_line(command), ["--help"], terminal_width=100).output
        for command in (module.Job, module.job)
    )
    assert theirs.split("Arguments")[1] == ours.split("Arguments")[1]
    assert "--count" in ours and "[default: 1]" in ours and "low|high" in ours
