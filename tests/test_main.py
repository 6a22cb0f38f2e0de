"""`python -m records`: the quick comparison and the full suite."""

import json
import subprocess
import sys

import pytest

import records
from records._bench import dropin, harness, peers, plot, report, run, suite


def test_quick_run_prints_key_table():
    """The default run prints the key ratios for the installed peers."""
    result = subprocess.run(
        [sys.executable, "-m", "records", "--rounds", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = result.stdout.splitlines()
    header = next(line for line in lines if line.startswith("| |"))
    for name in ("collections.namedtuple", "records.Record", "records.namedtuple"):
        assert name in header
    for row in (
        "class creation",
        "start-up",
        "instance, positional",
        "attribute access",
        "_replace",
        "copy.copy",
        "copy.deepcopy",
        "pickle round trip",
        "memory",
    ):
        assert any(line.startswith(f"| {row}") for line in lines), row
    assert "(1.00×)" in result.stdout  # the baseline column
    assert "[" in result.stderr  # the progress indicator


def test_help_documents_options():
    """--help explains --full, --output and --rounds."""
    output = subprocess.check_output([sys.executable, "-m", "records", "--help"], text=True)
    for option in ("--full", "--output", "--rounds"):
        assert option in output


def test_missing_peer_is_skipped(monkeypatch, capsys):
    """A peer that cannot be imported is reported in one line and left out."""
    missing = peers.Peer("nothing.Here", "no_such_module_here", "", lambda *a: "")
    monkeypatch.setattr(run, "PEERS", (*peers.PEERS[:1], missing, peers.PEERS[5]))
    from records.__main__ import main

    assert 0 == main(["--rounds", "1"])
    output = capsys.readouterr().out
    assert "skipped nothing.Here: not installed" in output
    assert "nothing.Here |" not in output


def test_full_run_writes_results(tmp_path, monkeypatch):
    """A small full run writes JSON and Markdown with every section."""
    monkeypatch.setattr(run, "PEERS", (peers.PEERS[0], peers.PEERS[5]))
    monkeypatch.setattr(dropin, "STARTUP_MODULES", ("asyncio",))
    results = run.full(str(tmp_path), rounds=1, sizes=(1, 3), memory_count=1000, echo=(2, 20))
    variant = "" if records.ACCELERATED else "-pure"  # the path records ran on
    stem = f"results-{results['meta']['python'].rsplit('.', 1)[0]}{variant}"
    data = json.loads((tmp_path / f"{stem}.json").read_text())
    for section in (
        "class creation",
        "start-up",
        "import time",
        "operations",
        "attribute access by origin",
        "memory",
        "scaling",
    ):
        assert section in data
    origins = data["attribute access by origin"]
    assert ["module level", "in a function", "in __main__", "functional form"] == list(origins)
    assert {"collections.namedtuple", "records.Record"} == set(origins["in a function"]["median"])
    assert [1, 3] == data["scaling"]["sizes"]
    assert 1.0 == data["class creation"]["5 fields"]["ratio"]["collections.namedtuple"]
    markdown = (tmp_path / f"{stem}.md").read_text()
    assert "## Scaling with the number of fields" in markdown
    assert "| attribute access, in a function |" in markdown
    assert "records.Record" in markdown
    assert f"records ran on its {records.ACCELERATOR}." in markdown
    drop_in = data["namedtuple drop-in"]
    assert {"collections.namedtuple", "records.namedtuple"} <= set(drop_in["_replace"]["median"])
    assert "## records.namedtuple, the drop-in" in markdown
    if dropin.opt_in_installed():
        assert {"asyncio"} == set(data["opt-in start-up"]["classes built"])
        assert data["opt-in start-up"]["classes built"]["asyncio"] > 5
        assert 2 == data["opt-in echo server"]["clients"]
        assert "## The RECORDS_NAMEDTUPLE opt-in" in markdown


def test_charts(tmp_path):
    """With matplotlib, charts are written; without it, none and no error."""
    results = {
        "meta": {
            "python": "3.99.0",
            "peers": {"collections.namedtuple": "", "records.Record": ""},
        },
        "class creation": {
            "5 fields": {"ratio": {"collections.namedtuple": 1.0, "records.Record": 0.4}}
        },
        "start-up": {"ratio": {"collections.namedtuple": 1.0, "records.Record": 0.6}},
        "operations": {
            name: {"ratio": {"collections.namedtuple": 1.0, "records.Record": 1.0}}
            for name in report.KEY_OPERATIONS
        },
        "scaling": {
            "sizes": [1, 2],
            "class creation": {
                "collections.namedtuple": [1e-5, 2e-5],
                "records.Record": [5e-6, 6e-6],
            },
            "instance creation": {
                "collections.namedtuple": [1e-7, 2e-7],
                "records.Record": [1e-7, 2e-7],
            },
        },
    }
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert [] == plot.charts(results, str(tmp_path))
        return
    written = plot.charts(results, str(tmp_path))
    assert 6 == len(written)
    assert all((tmp_path / path).stat().st_size > 1000 for path in written)


def test_startup_module_is_the_same_shape_for_every_peer():
    """The start-up modules define the same 200 shapes for each peer."""
    sources = [suite.startup_module(peer) for peer in peers.PEERS]
    for source in sources:
        assert "Type199" in source
        assert "Type200" not in source
    namespace: dict = {}
    exec(suite.startup_module(peers.PEERS[5]), namespace)
    other: dict = {}
    exec(suite.startup_module(peers.PEERS[0]), other)
    for index in range(200):
        assert namespace[f"Type{index}"]._fields == other[f"Type{index}"]._fields
        assert namespace[f"Type{index}"]._field_defaults == other[f"Type{index}"]._field_defaults


def test_ratios_and_medians():
    """Medians per key, ratios to the baseline, and nothing without one."""
    values = harness.medians({"a": [3.0, 1.0, 2.0], "b": [4.0]})
    assert {"a": 2.0, "b": 4.0} == values
    assert {"a": 1.0, "b": 2.0} == harness.ratios(values, "a")
    assert {} == harness.ratios(values, "missing")
    summary = report.summarise(
        {"empty module": [1.0], peers.BASELINE.name: [3.0], "x": [2.0]},
        baseline_key="empty module",
    )
    assert {peers.BASELINE.name: 2.0, "x": 1.0} == summary["median"]
    assert pytest.approx(0.5) == summary["ratio"]["x"]
