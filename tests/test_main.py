"""`python -m records`: the quick comparison and the full suite."""

import copy
import io
import json
import subprocess
import sys

import pytest

import records
from records.__main__ import main
from records._bench import (
    dropin,
    equivalence,
    harness,
    peers,
    plot,
    process_startup,
    report,
    run,
    suite,
    terminal,
    threads,
)


@pytest.mark.slow
def test_quick_run_prints_key_table():
    """The default run prints the key ratios, within 100 columns, and its progress by round."""
    result = subprocess.run(
        [sys.executable, "-m", "records", "--rounds", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 100
    header = next(line for line in lines if line.lstrip().startswith("namedtuple"))
    for name in ("namedtuple", "Record", "r.namedtuple"):
        assert name in header.split()
    for row in (
        "class creation",
        "start-up, 200 types",
        "process of 20 types",
        "instance, positional",
        "attribute access",
        "_replace",
        "copy.copy",
        "copy.deepcopy",
        "pickle round trip",
        "memory, bytes",
    ):
        assert any(line.startswith(row) for line in lines), row
    assert "r.namedtuple: records.namedtuple" in lines
    progress = result.stderr.splitlines()
    if threads.free_threaded():  # then one thread against two comes last
        assert progress.pop().endswith("] round 1/1: 1 and 2 threads")
        assert any(line.startswith("One thread against two on Python") for line in lines)
    assert "round 1/1: instance operations" in progress[-2]
    assert progress[-1].endswith("] memory")


def test_help_documents_options():
    """--help explains --full, --output and --rounds."""
    output = subprocess.check_output([sys.executable, "-m", "records", "--help"], text=True)
    for option in ("--full", "--output", "--rounds"):
        assert option in output


@pytest.mark.slow
@pytest.mark.starts_threads  # on a free-threaded build, as the command times threads there
def test_missing_peer_is_skipped(monkeypatch, capsys):
    """A peer that cannot be imported is reported in one line and left out."""
    missing = peers.Peer("nothing.Here", "no_such_module_here", "", lambda *a: "")
    monkeypatch.setattr(run, "PEERS", (*peers.PEERS[:1], missing, peers.PEERS[5]))
    assert 0 == main(["--rounds", "1"])
    output = capsys.readouterr().out
    assert "skipped nothing.Here: not installed" in output
    assert "nothing.Here" not in output.split("skipped nothing.Here: not installed")[1]


@pytest.mark.slow
@pytest.mark.starts_threads
def test_full_run_writes_results(tmp_path, monkeypatch):
    """A small full run writes JSON and Markdown with every section."""
    monkeypatch.setattr(run, "PEERS", (peers.PEERS[0], peers.PEERS[5]))
    monkeypatch.setattr(dropin, "STARTUP_MODULES", ("asyncio",))
    every_row = process_startup.rows  # two of them: tests/test_bench_process_startup.py has all
    monkeypatch.setattr(process_startup, "rows", lambda opt_in=True: every_row(opt_in)[3:5])
    progress = harness.Progress(0, io.StringIO(), live=False)
    results = run.full(
        str(tmp_path),
        rounds=1,
        sizes=(1, 3),
        memory_count=1000,
        echo=(2, 20),
        startup_pairs=1,
        progress=progress,
        in_threads=True,
    )
    assert progress.done == progress.total
    build = "t" if threads.free_threaded() else ""
    variant = "" if records.ACCELERATED else "-pure"  # the path records ran on
    stem = f"results-{results['meta']['python'].rsplit('.', 1)[0]}{build}{variant}"
    data = json.loads((tmp_path / f"{stem}.json").read_text())
    for section in (
        "class creation",
        "start-up",
        "import time",
        "operations",
        "attribute access by origin",
        "memory",
        "scaling",
        "start-up as a whole process",
        "start-up, whole process",
        "threads",
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
    assert ["collections.namedtuple", "records.Record"] == data["threads"]["peers"]
    assert "| attribute access, speed-up | " in markdown
    whole = data["start-up as a whole process"]
    assert ["5 Record classes / 5 namedtuple", "20 Record classes / 20 namedtuple"] == list(whole)
    assert "| 20 Record classes / 20 namedtuple | " in markdown
    assert all(1 == len(row["a"]) == len(row["b"]) and row["ratio"] > 0 for row in whole.values())
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
    assert 3 == len(written)
    assert all(path.endswith(".svg") for path in written)
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


@pytest.fixture(scope="module")
def quick_results():
    """
    The results of a real quick run of one round, and its progress display
    (memory over fewer instances than the command's 100,000: the same figures,
    sooner; test_quick_run_prints_key_table runs the command itself), without
    threads (tests/test_bench_threads.py has them).
    """
    stream = io.StringIO()
    progress = harness.Progress(0, stream, live=False)
    results = run.quick(rounds=1, progress=progress, memory_count=2_000, in_threads=False)
    return results, progress, stream.getvalue()


@pytest.mark.slow
def test_progress_counts_every_step_once(quick_results):
    """Plain progress: one line per round of each measurement, shares that only grow, all done."""
    _, progress, text = quick_results
    assert progress.done == progress.total
    lines = text.splitlines()
    assert [line.split("] ", 1)[1] for line in lines] == [
        "round 1/1: class creation, 5 fields",
        "round 1/1: start-up, 200 types in a fresh process",
        "round 1/1: start-up, 20 types, whole process",
        "round 1/1: instance operations",
        "memory",
    ]
    shares = [int(line[1:4]) for line in lines]
    assert shares == sorted(shares)
    assert 0 == shares[0]


def test_progress_lines_per_round():
    """Each round is announced once, with its number, and a repeated announcement is not."""
    stream = io.StringIO()
    progress = harness.Progress(4, stream, live=False)
    for index in (1, 2):
        progress.round("instance operations", index, 2)
        progress.round("instance operations", index, 2)
        progress.step("a")
        progress.step("b")
    progress.round("memory")
    progress.finish()
    assert stream.getvalue() == (
        "[  0%] round 1/2: instance operations\n"
        "[ 50%] round 2/2: instance operations\n"
        "[100%] memory\n"
    )


def test_progress_is_live_only_on_a_terminal():
    """A stream that is not a terminal gets plain lines, even with rich installed."""
    assert not harness.Progress(1, io.StringIO()).live


def _widest(results):
    """Return *results* with the widest figures of the table (9999.9 µs, 999.99×), all flagged."""
    widest = copy.deepcopy(results)
    scale = {"µs": 1e6, "ns": 1e9, "ms": 1e3}
    for _, _, find, unit in report.KEY_ROWS:
        summary = find(widest)
        for name in summary["median"]:
            summary["median"][name] = 9999.9 / scale[unit]
            summary["ratio"][name] = 999.99
        summary["flags"] = [{"peers": ["collections.namedtuple", "typing.NamedTuple"], "ratio": 9}]
    widest["memory"]["traced bytes per instance"] = dict.fromkeys(widest["meta"]["peers"], 9999.9)
    return widest


@pytest.mark.slow
def test_terminal_table_fits_100_columns(quick_results):
    """The key table of a real quick run, with its widest figures and every flag, fits 100 columns."""
    results, _, _ = quick_results
    measured = {*results["meta"]["peers"], *results["meta"]["missing peers"]}
    assert measured == {peer.name for peer in peers.PEERS}
    for table in (terminal.key_table(results), terminal.key_table(_widest(results))):
        assert max(len(line) for line in table.splitlines()) <= 100
    flagged = terminal.key_table(_widest(results))
    assert "copy.copy ⚑" in flagged
    assert (
        "⚑ copy.copy: typing.NamedTuple took 9.00× the time of collections.namedtuple" in flagged
    )


@pytest.mark.slow
def test_results_carry_spread_and_equivalent_peers(quick_results):
    """Every timed cell has min <= median <= max; the groups of equivalent peers are recorded."""
    results, _, _ = quick_results
    for summary in [results["class creation"]["5 fields"], *results["operations"].values()]:
        for name, median in summary["median"].items():
            assert summary["min"][name] <= median <= summary["max"][name]
        assert [] == summary["flags"]  # one round: no flag, the noise is unknown
    groups = results["equivalent peers"]
    assert ["collections.namedtuple", "typing.NamedTuple"] in groups["instance, positional"]
    assert any({"collections.namedtuple", "typing.NamedTuple"} <= set(g) for g in groups["hash"])
    assert "class creation" not in groups


@pytest.mark.slow
def test_whole_process_start_up_has_every_peer(quick_results):
    """The whole-process row times each peer's module of 20 types, as a ratio to namedtuple's."""
    results, _, _ = quick_results
    summary = results["start-up, whole process"]
    assert set(results["meta"]["peers"]) == set(summary["median"]) == set(summary["ratio"])
    assert 1.0 == summary["ratio"]["collections.namedtuple"]
    for name, median in summary["median"].items():
        assert 0 < summary["min"][name] <= median <= summary["max"][name]


def test_flags_differences_beyond_the_noise():
    """Two equivalent peers 0.64× apart are flagged; within the noise, or on too few rounds, not."""
    same = [["a", "b"]]
    apart = {"a": [10.0, 10.1, 10.2], "b": [15.6, 15.7, 15.8]}
    assert [{"peers": ["a", "b"], "ratio": pytest.approx(15.7 / 10.1)}] == equivalence.flags(
        apart, same
    )
    noisy = {"a": [10.0, 10.1, 16.0], "b": [15.6, 15.7, 15.8]}  # a's spread is 59%
    assert [] == equivalence.flags(noisy, same)
    close = {"a": [10.0, 10.0, 10.0], "b": [10.4, 10.4, 10.4]}  # 4%: under the 5% floor
    assert [] == equivalence.flags(close, same)
    assert [] == equivalence.flags({"a": [10.0, 10.0], "b": [20.0, 20.0]}, same)
    assert [] == equivalence.flags(apart, [["a", "c"]])
    summary = report.summarise(apart, equivalent=same)
    assert {"a": 10.0, "b": 15.6} == summary["min"]
    assert {"a": 10.2, "b": 15.8} == summary["max"]
    assert 1 == len(summary["flags"])


def test_equivalent_peers_follow_the_classes():
    """Peers are grouped by what their classes run: named tuples together, slots together."""
    available, _ = run.available_peers()  # PyPy 3.9: no slotted dataclass, no msgspec
    groups = equivalence.equivalent_peers(available)
    assert ["collections.namedtuple", "typing.NamedTuple"] in groups["_replace"]
    reads = groups.get("attribute access", [])
    if "dataclass(frozen, slots)" in {peer.name for peer in available}:
        slotted = next(group for group in reads if "dataclass(frozen, slots)" in group)
        assert "attrs.frozen" in slotted
        assert "collections.namedtuple" not in slotted
    together = any(
        "records.Record" in group and "collections.namedtuple" in group for group in reads
    )
    if sys.implementation.name == "cpython":  # PyPy's accessors are its own
        pure = records.ACCELERATOR.startswith("pure")
        assert together == (pure or sys.version_info < (3, 11))


def test_markdown_cells_show_the_spread():
    """A Markdown cell reads median [min, max] (ratio), and a flagged row has its note."""
    summary = report.summarise(
        {"collections.namedtuple": [1e-8, 2e-8, 3e-8], "typing.NamedTuple": [5e-8, 5e-8, 5e-8]},
        equivalent=[["collections.namedtuple", "typing.NamedTuple"]],
    )
    row = report._row("hash", summary, ["collections.namedtuple", "typing.NamedTuple"], "ns")
    assert "| hash ⚑ | 20.0 ns [10.0, 30.0] (1.00×) | 50.0 ns [50.0, 50.0] (2.50×) |" == row
    assert report.flag_notes([("hash", summary)]) == [
        "⚑ hash: typing.NamedTuple took 2.50× the time of collections.namedtuple, though both"
        " run the same code for it: more than the noise of this run."
    ]


def _error(capsys, *argv):
    """Return the exit code and the last line of stderr of ``python -m records *argv``."""
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    return exit_info.value.code, capsys.readouterr().err.splitlines()[-1]


@pytest.mark.parametrize("rounds", ["0", "-3", "abc", "2.5"])
def test_bad_rounds(capsys, rounds):
    """--rounds takes a whole number of at least 1, and says so."""
    assert (
        2,
        f"python -m records: error: argument --rounds: must be a whole number of at least 1,"
        f" not '{rounds}'",
    ) == _error(capsys, "--rounds", rounds)


def test_bad_output(capsys, tmp_path):
    """An --output that cannot be written in is refused before anything runs."""
    file = tmp_path / "file"
    file.write_text("")
    assert (
        2,
        f"python -m records: error: argument --output: '{file}' is not a directory",
    ) == _error(capsys, "--full", "--output", str(file))
    assert (
        2,
        f"python -m records: error: argument --output: cannot make '{file}/sub': Not a directory",
    ) == _error(capsys, "--full", "--output", str(file / "sub"))
    assert (
        2,
        "python -m records: error: argument --output: only with --full"
        " (the quick run writes --markdown FILE)",
    ) == _error(capsys, "--output", str(tmp_path))


def test_bad_markdown_and_chart(capsys, tmp_path, monkeypatch):
    """--markdown and --chart need a writable directory, and --chart a known format and matplotlib."""
    missing = tmp_path / "no" / "table.md"
    assert (
        2,
        f"python -m records: error: argument --markdown: no directory '{missing.parent}'",
    ) == _error(capsys, "--markdown", str(missing))
    assert (
        2,
        f"python -m records: error: argument --chart: '{tmp_path}' is a directory, not a file",
    ) == _error(capsys, "--chart", str(tmp_path))
    gif = tmp_path / "chart.gif"
    assert (
        2,
        f"python -m records: error: argument --chart: '{gif}' must end in .svg, .png or .pdf",
    ) == _error(capsys, "--chart", str(gif))
    monkeypatch.setattr(plot, "available", lambda: False)
    assert (
        2,
        "python -m records: error: argument --chart: needs matplotlib:"
        " pip install 'records-tuple[plot]'",
    ) == _error(capsys, "--chart", str(tmp_path / "chart.svg"))


@pytest.mark.slow
def test_markdown_and_chart_files(quick_results, tmp_path, monkeypatch, capsys):
    """--markdown writes the key table with its spread; --chart draws the key ratios."""
    results, _, _ = quick_results
    monkeypatch.setattr(run, "quick", lambda rounds, in_threads=None: results)
    table, chart = tmp_path / "table.md", tmp_path / "chart.svg"
    arguments = ["--markdown", str(table)]
    if plot.available():
        arguments += ["--chart", str(chart)]
    assert 0 == main(arguments)
    output = capsys.readouterr().out
    assert f"Wrote the key table, with its spread, to {table}." in output
    markdown = table.read_text()
    assert markdown.startswith("| | collections.namedtuple |")
    median = results["operations"]["attribute access"]["median"]["collections.namedtuple"]
    low = results["operations"]["attribute access"]["min"]["collections.namedtuple"]
    assert f"| attribute access | {median * 1e9:.1f} ns [{low * 1e9:.1f}, " in markdown
    if plot.available():
        assert f"Wrote the key ratios chart to {chart}." in output
        assert chart.read_text().startswith("<?xml")


def test_live_progress_uses_rich():
    """The live display is a rich bar that counts every step and leaves no plain lines."""
    pytest.importorskip("rich", reason="rich comes with the bench extra")
    stream = io.StringIO()
    progress = harness.Progress(2, stream, live=True)
    progress.round("instance operations", 1, 1)
    progress.step("records.Record")
    progress.step("collections.namedtuple")
    bar = progress._bar
    assert bar.tasks[0].completed == 2
    assert bar.tasks[0].total == 2
    assert "round 1/1: instance operations: collections.namedtuple" == bar.tasks[0].description
    progress.finish()
    assert "[  0%]" not in stream.getvalue()


def test_equivalence_of_methods_without_python_code():
    """A method whose ``__code__`` is not Python bytecode (PyPy's built-ins) is told by identity."""

    class BuiltinLike:
        __code__ = object()

    method = BuiltinLike()
    assert equivalence._code(method) == equivalence._code(method)
    assert equivalence._code(method) != equivalence._code(BuiltinLike())
    assert equivalence._code(len) == equivalence._code(len)


@pytest.mark.slow
def test_terminal_table_states_the_spread(quick_results):
    """Below the table, one line gives the typical and the widest spread, or says there is none."""
    results, _, _ = quick_results
    assert "One round: no spread to show; more rounds give it (--rounds)." in terminal.key_table(
        results
    )
    summary = {
        "median": {"a": 10.0, "b": 10.0, "c": 10.0},
        "min": {"a": 9.5, "b": 9.9, "c": 9.0},
        "max": {"a": 10.5, "b": 10.1, "c": 13.0},
    }
    assert terminal.noise_line([("hash", summary)]) == (
        "Spread, (max - min) / median over the rounds: 10% for half the figures or less,"
        " at most 40% (hash, c); every cell's: --markdown FILE."
    )


@pytest.mark.parametrize(
    ("path", "hint"),
    [
        ("C accelerator (records._accelerator_c)", False),
        ("pure Python (RECORDS_PURE_PYTHON is set)", False),
        ("pure Python (the C accelerator is not available: No module named 'x')", True),
    ],
)
def test_header_says_how_to_get_the_accelerator(capsys, path, hint):
    """The header names the path, and how to build C where it is missing, not chosen."""
    from records.__main__ import _print_header

    meta = {"python": "3.13.0", "implementation": "CPython", "machine": "x86_64, 2 cores"}
    _print_header({"meta": {**meta, "records path": path, "missing peers": []}, "rounds": 5})
    text = " ".join(capsys.readouterr().out.split())
    assert f"records runs on its {path}." in text
    assert hint == text.endswith(
        "Without it records is slower: python -m records info says how to build it."
    )
