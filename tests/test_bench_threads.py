"""
The benchmark's one thread against two (``records/_bench/threads.py``): run
in a tiny configuration on every interpreter, with or without the GIL; what
it returns and prints, never how fast. The tests that start threads are
marked so (tests/conftest.py runs them last on free-threaded 3.13).
"""

import copy
import io
import sysconfig

import pytest

from records.__main__ import main
from records._bench import harness, peers, report, run, terminal, threads

OPERATIONS = ["instance, positional", "attribute access"]


@pytest.fixture(scope="module")
def section():
    """
    The section of a real run of two rounds over every peer installed, each
    thread running about 0.1 ms of work, and the progress it counted.
    """
    available, _ = run.available_peers()
    progress = harness.Progress(threads.steps(available, 2), io.StringIO(), live=False)
    equivalent = {"instance, positional": [["collections.namedtuple", "typing.NamedTuple"]]}
    found = run.in_parallel(available, 2, progress, equivalent, threads.gil_enabled(), target=1e-4)
    return found, progress


def _results(section):
    """Return results as a run holds them, with only the section and its metadata."""
    available, missing = run.available_peers()
    return {"meta": report.metadata(available, missing, "quick"), "rounds": 1, "threads": section}


def test_free_threaded_build_is_recognised():
    """A build is free-threaded where it was configured so; a build with the GIL has it on."""
    configured = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
    assert configured == threads.free_threaded()
    if not configured:
        assert threads.gil_enabled()


@pytest.mark.starts_threads
def test_section_has_every_peer_and_the_reference(section):
    """Both operations, one thread and two, for the four tuple-based peers and plain tuples."""
    found, progress = section
    assert progress.total == progress.done
    assert list(threads.PEER_NAMES) == found["peers"]  # all four are always installed
    assert [] == found["left out"]
    assert "tuple" == found["reference"]
    assert [1, 2] == found["threads"]
    assert 2 == found["rounds"]
    assert threads.free_threaded() == found["free-threaded build"]
    assert {"before", "after"} == set(found["GIL enabled"])
    timed = [*found["peers"], found["reference"]]
    assert OPERATIONS == list(found["operations"])
    for operation, result in found["operations"].items():
        assert ["1 thread", "2 threads", "speed-up"] == list(result)
        for label in ("1 thread", "2 threads"):
            summary = result[label]
            assert timed == list(summary["median"])
            assert 1.0 == summary["ratio"]["collections.namedtuple"]
            for name, median in summary["median"].items():
                assert 0 < summary["min"][name] <= median <= summary["max"][name]
        assert timed == list(result["speed-up"])
        assert all(speed > 0 for speed in result["speed-up"].values())
        assert all(count >= 10 for count in found["operations per thread"][operation].values())
    counts = found["operations per thread"]["attribute access"]
    assert all(0 == count % 10 for count in counts.values())  # ten reads to a loop


def test_speed_up_is_a_ratio_of_medians():
    """Two threads each taking the time one took to run the same work is a speed-up of 2."""
    one = {"median": {"a": 10.0, "b": 10.0, "c": 10.0}}
    two = {"median": {"a": 10.0, "b": 20.0}}
    assert {"a": 2.0, "b": 1.0} == report.speed_ups(one, two, 2)


def test_threads_run_their_own_classes():
    """Each thread's loop runs on a class of its own, made before the threads start."""
    record = next(peer for peer in peers.PEERS if peer.name == "records.Record")
    works = threads.loops(record, "attribute access", 2)
    first, second = (work.__globals__["P"] for work in works)
    assert first is not second
    assert first._fields == second._fields
    assert [] == [
        work for work in threads.loops(None, "attribute access", 2) if "P" in work.__globals__
    ]


@pytest.mark.starts_threads
def test_an_error_in_a_thread_is_raised():
    """A thread that fails breaks the barrier for the others, and its error is raised."""
    works = threads.loops(None, "instance, positional", 1)

    def broken(number):
        raise LookupError("broken")

    with pytest.raises(LookupError, match="broken"):
        threads.per_operation([*works, broken], "instance, positional", 10)


@pytest.mark.starts_threads
def test_time_per_operation_in_threads():
    """One thread's and two threads' times per operation are measured, on any build."""
    works = threads.loops(None, "attribute access", 2)
    assert 0 < threads.per_operation(works[:1], "attribute access", 10)
    assert 0 < threads.per_operation(works, "attribute access", 10)


@pytest.mark.parametrize(
    ("build", "before", "after", "sentence"),
    [
        (False, True, True, "A build with the GIL: threads take turns"),
        (True, False, False, "The GIL stayed off, before the run and after it."),
        (True, False, True, "The GIL was turned on during the run"),
        (True, True, True, "The GIL was on from the start"),
    ],
)
def test_gil_sentence(build, before, after, sentence):
    """The section says whether the GIL was off, and when it was turned on."""
    found = {"free-threaded build": build, "GIL enabled": {"before": before, "after": after}}
    assert report.gil_sentence(found).startswith(sentence)


@pytest.mark.starts_threads
def test_terminal_table_fits_80_columns(section):
    """The table names every peer and the reference, and fits 80 columns, its widest figures too."""
    found, _ = section
    results = _results(found)
    widest = copy.deepcopy(results)
    for result in widest["threads"]["operations"].values():
        for label in ("1 thread", "2 threads"):
            result[label]["median"] = dict.fromkeys(result[label]["median"], 99999.9e-9)
        result["speed-up"] = dict.fromkeys(result["speed-up"], 99.99)
    for table in (terminal.threads_table(results), terminal.threads_table(widest)):
        lines = table.splitlines()
        assert max(len(line) for line in lines) <= 80
        assert lines[0].startswith("One thread against two on Python ")
        header = next(line for line in lines if line.startswith(" ") and "speed-up" in line)
        assert ["1", "thread", "2", "threads", "speed-up"] == header.split()
        for row in (*OPERATIONS, "  namedtuple", "  Record", "  r.namedtuple", "  tuple (ref.)"):
            # A peer's row holds its figures; the notes below the table may
            # also begin a line with a peer's name.
            rows = [line for line in lines if line.startswith(row)]
            if row[0] == " ":
                rows = [line for line in rows if " ns " in line]
            assert len(rows) == (2 if row[0] == " " else 1), row
        assert report.gil_sentence(found).split()[-1] in table.split()
    assert "99999.9 ns" in terminal.threads_table(widest)


@pytest.mark.starts_threads
def test_markdown_table(section):
    """The results' Markdown gives every cell with its spread, and each speed-up."""
    found, _ = section
    text = "\n".join(report.threads_markdown(_results(found)))
    assert "## One thread and two" in text
    header = "| | collections.namedtuple | typing.NamedTuple | records.Record | records.namedtuple"
    assert header + " | tuple |" in text
    for operation in OPERATIONS:
        for label in ("1 thread", "2 threads", "speed-up"):
            assert f"| {operation}, {label} | " in text
    assert [] == report.threads_markdown({"meta": {}})


@pytest.mark.parametrize(
    ("free", "path", "label"),
    [
        (False, "C accelerator (records._accelerator_c)", "3.13"),
        (True, "C accelerator (records._accelerator_c)", "3.13t"),
        (True, "pure Python (RECORDS_PURE_PYTHON is set)", "3.13t-pure"),
    ],
)
def test_free_threaded_results_are_named_apart(free, path, label):
    """A free-threaded run's files are named 3.13t, beside 3.13's."""
    meta = {"python": "3.13.15", "records path": path, "free-threaded": free}
    assert label == report.run_label({"meta": meta})


@pytest.mark.parametrize(
    ("argv", "asked"), [([], None), (["--threads"], True), (["--no-threads"], False)]
)
@pytest.mark.starts_threads
def test_threads_option(section, monkeypatch, capsys, argv, asked):
    """--threads and --no-threads reach the run; the table is printed where the run has it."""
    found, _ = section
    calls = []

    def quick(rounds, in_threads=None):
        calls.append(in_threads)
        results = _results(found)
        if not (threads.free_threaded() if in_threads is None else in_threads):
            del results["threads"]
        return results

    monkeypatch.setattr(run, "quick", quick)
    monkeypatch.setattr(terminal, "key_table", lambda results: "the key table")
    assert 0 == main(["--rounds", "1", *argv])
    assert [asked] == calls
    printed = "One thread against two on Python" in capsys.readouterr().out
    assert printed == (threads.free_threaded() if asked is None else asked)
