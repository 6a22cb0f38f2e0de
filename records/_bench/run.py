"""
The two runs: the quick one printed by ``python -m records`` and the full
suite of ``python -m records --full``.
"""

from __future__ import annotations

import os

from . import dropin, equivalence, harness, process_startup, report, suite, threads
from .peers import PEERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from .peers import Peer

SCALING_SIZES = (1, 2, 5, 10, 15, 20, 30)


def available_peers(only: Sequence[str] | None = None) -> tuple[list[Peer], list[Peer]]:
    """Return the peers importable here (those named *only*, if given), and those that are not."""
    chosen = [peer for peer in PEERS if only is None or peer.name in only]
    found = [peer for peer in chosen if peer.available()]
    missing = [peer for peer in chosen if peer not in found]
    return found, missing


def quick(
    rounds: int = 5,
    progress: harness.Progress | None = None,
    *,
    memory_count: int = 100_000,
    in_threads: bool | None = None,
    only: Sequence[str] | None = None,
) -> dict[str, Any]:
    """
    Measure the key comparisons, in well under 30 seconds; memory over
    *memory_count* instances of each peer; one thread against two if
    *in_threads*, by default on a free-threaded build; the peers named
    *only*, if given, else every peer.
    """
    gil_before = threads.gil_enabled()
    if in_threads is None:
        in_threads = threads.free_threaded()
    peers, missing = available_peers(only)
    steps = rounds * len(peers) * 2 + 2 * rounds + len(peers)
    steps += threads.steps(peers, rounds) if in_threads else 0
    progress = progress if progress is not None else harness.Progress(steps)
    progress.total = steps
    results: dict[str, Any] = {"meta": report.metadata(peers, missing, "quick"), "rounds": rounds}
    equivalent = equivalence.equivalent_peers(peers)
    results["equivalent peers"] = equivalent
    classes = suite.class_creation(peers, 5, 2, rounds, progress)
    results["class creation"] = {"5 fields": report.summarise(classes)}
    startup = suite.startup(peers, rounds, progress)
    results["start-up"] = report.summarise(startup, baseline_key="empty module")
    results["start-up, whole process"] = report.summarise(
        suite.process_startup(peers, rounds, progress)
    )
    results["operations"] = _operations(
        suite.operations(peers, rounds, progress, loops=10_000), equivalent
    )
    results["memory"] = suite.memory(peers, memory_count, progress)
    if in_threads:
        results["threads"] = in_parallel(peers, rounds, progress, equivalent, gil_before)
    progress.finish()
    return results


def in_parallel(
    peers: Sequence[Peer],
    rounds: int,
    progress: harness.Progress,
    equivalent: dict[str, list[list[str]]],
    gil_before: bool,
    *,
    target: float = 0.02,
) -> dict[str, Any]:
    """
    Time instance creation and attribute access in one thread and in two
    (``threads``), for the tuple-based *peers*, each thread running about
    *target* seconds' worth; say whether the GIL was on before the run
    (*gil_before*) and after it.
    """
    chosen = threads.thread_peers(peers)
    names = [peer.name for peer in chosen]
    numbers, samples, accessors = threads.measure(chosen, rounds, progress, target=target)
    section: dict[str, Any] = {
        "free-threaded build": threads.free_threaded(),
        "GIL enabled": {"before": gil_before, "after": threads.gil_enabled()},
        "rounds": rounds,
        "seconds per sample": target,
        "threads": list(threads.THREADS),
        "peers": names,
        "reference": threads.REFERENCE,
        "left out": [name for name in threads.PEER_NAMES if name not in names],
        "operations per thread": numbers,
        "field accessors": accessors,
        "operations": {},
    }
    for operation, by_count in samples.items():
        summaries = {
            count: report.summarise(found, equivalent=equivalent.get(operation, ()))
            for count, found in by_count.items()
        }
        one, two = (summaries[count] for count in threads.THREADS)
        section["operations"][operation] = {
            "1 thread": one,
            "2 threads": two,
            "speed-up": report.speed_ups(one, two, threads.THREADS[-1]),
        }
    return section


def _operations(
    samples: dict[str, dict[str, list[float]]], equivalent: dict[str, list[list[str]]]
) -> dict[str, Any]:
    return {
        name: report.summarise(found, equivalent=equivalent.get(name, ()))
        for name, found in samples.items()
    }


def full(
    output: str,
    rounds: int = 15,
    *,
    sizes: tuple[int, ...] = SCALING_SIZES,
    memory_count: int = 1_000_000,
    echo: tuple[int, int] = (20, 500),
    startup_pairs: int = 41,
    progress: harness.Progress | None = None,
    in_threads: bool | None = None,
) -> dict[str, Any]:
    """
    Everything, written to *output* as JSON and Markdown (charts: see
    ``plot``); the opt-in's figures where records is installed with its
    ``.pth`` file, *echo* giving the echo server's clients and requests;
    start-up as a whole process over *startup_pairs* pairs of interpreters;
    one thread against two if *in_threads*, by default on a free-threaded
    build.
    """
    gil_before = threads.gil_enabled()
    if in_threads is None:
        in_threads = threads.free_threaded()
    peers, missing = available_peers()
    scaling_rounds = max(3, rounds // 3)
    opt_in = dropin.opt_in_installed()
    per_peer_rounds = rounds * len(peers)
    steps = (
        7 * per_peer_rounds  # class creation, seven configurations
        + 2 * rounds  # start-up: 200 types in-process, 20 types whole process
        + 7  # import time
        + per_peer_rounds  # instance operations
        + per_peer_rounds  # attribute access by where the class is made
        + len(peers)  # memory
        + len(sizes) * (scaling_rounds * len(peers) + 1)
        + rounds * len(dropin._factories())  # the drop-in namedtuple
        + (2 * scaling_rounds if opt_in else 0)  # start-up and the echo server with the opt-in
        + len(process_startup.rows(opt_in))  # start-up as a whole process
        + (threads.steps(peers, rounds) if in_threads else 0)  # 1 and 2 threads
    )
    progress = progress if progress is not None else harness.Progress(steps)
    progress.total = steps
    results: dict[str, Any] = {"meta": report.metadata(peers, missing, "full"), "rounds": rounds}
    equivalent = equivalence.equivalent_peers(peers)
    results["equivalent peers"] = equivalent
    # First: once a process has made tens of thousands of classes (as the
    # rest of the run does), making one more costs every factory 1-2 µs more.
    dropin_operations = dropin.namedtuple_operations(rounds, progress)
    results["namedtuple drop-in"] = {
        name: report.summarise(samples) for name, samples in dropin_operations.items()
    }
    creation: dict[str, Any] = {}
    for label, count, defaults, options in (
        ("5 fields", 5, 2, {}),
        ("5 fields, garbage collector on", 5, 2, {"gc_on": True}),
        ("5 fields, functional form", 5, 0, {"functional": True}),
        ("5 fields, new names every class", 5, 2, {"fresh_names": True}),
        ("1 field", 1, 0, {}),
        ("10 fields", 10, 2, {}),
        ("30 fields", 30, 2, {}),
    ):
        samples = suite.class_creation(
            peers, count, defaults, rounds, progress, per_round=100, label=label, **options
        )
        creation[label] = report.summarise(samples)
    results["class creation"] = creation
    startup = suite.startup(peers, rounds, progress)
    results["start-up"] = report.summarise(startup, baseline_key="empty module")
    results["start-up, whole process"] = report.summarise(
        suite.process_startup(peers, rounds, progress)
    )
    results["import time"] = report.summarise(suite.import_time(peers, 7, progress))
    results["operations"] = _operations(suite.operations(peers, rounds, progress), equivalent)
    by_origin = suite.attribute_access_by_origin(peers, rounds, progress)
    same_reads = equivalent.get("attribute access", [])
    results["attribute access by origin"] = {
        origin: report.summarise(samples, equivalent=same_reads)
        for origin, samples in by_origin.items()
    }
    results["memory"] = suite.memory(peers, memory_count, progress)
    results["scaling"] = suite.scaling(peers, sizes, scaling_rounds, progress)
    if opt_in:
        results["opt-in start-up"] = dropin.startup(scaling_rounds, progress)
        clients, requests = echo
        results["opt-in echo server"] = dropin.echo_server(
            scaling_rounds, progress, clients=clients, requests=requests
        )
        results["opt-in pth cost"] = dropin.pth_cost()
    results["start-up as a whole process"] = process_startup.run(
        startup_pairs, progress, opt_in=opt_in
    )
    if in_threads:
        results["threads"] = in_parallel(peers, rounds, progress, equivalent, gil_before)
    progress.finish()

    os.makedirs(output, exist_ok=True)
    stem = os.path.join(output, f"results-{report.run_label(results)}")
    report.write_json(results, stem + ".json")
    with open(stem + ".md", "w") as file:
        file.write(report.full_markdown(results))
    return results
