"""
One thread against two: how instance creation and attribute access scale
where threads run in parallel, on free-threaded CPython (PEP 703).

Each thread works on a class and an instance of its own, made before any of
the section's threads starts, as a program makes its classes when it imports
its modules: on free-threaded 3.13, every class made once a second thread
has run is immortal, which records cannot seal (see ``records/_sealing.py``),
so a ``Record`` made then would read its fields as a named tuple does. A
measurement starts its threads together behind a ``threading.Barrier``; each
does the same fixed amount of work, and the sample is the wall time from the
first thread's start to the last thread's end, per operation of one thread.
With two threads on two free cores that time stays as it was with one: two
threads then do twice the operations per second, a speed-up of 2.00×. Under
a GIL it doubles, and the speed-up stays near 1.00×.

The peers are the tuple-based ones: ``records.Record``, the drop-in
``records.namedtuple``, ``collections.namedtuple`` and ``typing.NamedTuple``.
Beside them, for reference, plain tuples: built by a tuple display and read by
index, they share nothing between the threads: where their speed-up falls
short of 2.00× too, other work on the machine held a core. The rounds
interleave the peers, and one thread and two alternate which goes first; the
garbage collector is off while timing, as ``timeit`` turns it off.
"""

from __future__ import annotations

import gc
import inspect
import sys
import threading
import time

from .._accelerator import free_threaded
from .peers import field_names

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from . import harness
    from .peers import Peer

#: The peers timed in threads, by name: records and the named tuples.
PEER_NAMES = (
    "collections.namedtuple",
    "typing.NamedTuple",
    "records.Record",
    "records.namedtuple",
)

#: The operations timed in threads, and their statements (``P`` the class,
#: ``p`` an instance of it, as in the single-thread operations).
OPERATIONS = {"instance, positional": "P(1, 2, 3, 4, 5)", "attribute access": "p.f2"}

#: How many times each operation's statement is written out in the loop, so
#: that the loop around a read of a few nanoseconds weighs little.
_UNROLLED = {"attribute access": 10}

#: The name of the reference, plain tuples, in the results.
REFERENCE = "tuple"

#: The reference's statements, by operation (``p`` a plain 5-tuple, ``_`` the
#: loop's counter, so that each display builds a new tuple).
REFERENCE_STATEMENTS = {"instance, positional": "(_, 2, 3, 4, 5)", "attribute access": "p[2]"}

#: The thread counts compared.
THREADS = (1, 2)


__all__ = ["free_threaded", "gil_enabled", "measure", "per_operation", "steps", "thread_peers"]


def gil_enabled() -> bool:
    """Whether the GIL is on now: always, before CPython 3.13 and on a default build."""
    check: Callable[[], bool] | None = getattr(sys, "_is_gil_enabled", None)
    return True if check is None else bool(check())


def thread_peers(peers: Sequence[Peer]) -> list[Peer]:
    """Return the peers of *peers* timed in threads, in their order."""
    return [peer for peer in peers if peer.name in PEER_NAMES]


def steps(peers: Sequence[Peer], rounds: int) -> int:
    """Return the progress steps of ``measure``: one per round and peer, the reference included."""
    return rounds * (len(thread_peers(peers)) + 1)


def _loop(peer: Peer | None, operation: str) -> Callable[[int], None]:
    """
    Return ``work(number)``, which runs *operation* *number* times (written
    out as ``_UNROLLED`` says) on a class and an instance of *peer* made for
    it alone, in a namespace of its own; on a plain tuple where *peer* is
    ``None``, the reference.
    """
    namespace: dict[str, object] = {}
    if peer is None:
        namespace["p"] = (1, 2, 3, 4, 5)
        text = REFERENCE_STATEMENTS[operation]
    else:
        exec(peer.setup, namespace)  # fixed import statements of the peer
        exec(peer.define("P", field_names(5), 2), namespace)  # generated names only
        namespace["p"] = eval("P(1, 2, 3, 4, 5)", namespace)  # fixed text
        text = OPERATIONS[operation]
    statement = "; ".join([text] * _UNROLLED.get(operation, 1))
    exec(f"def work(number):\n    for _ in range(number):\n        {statement}\n", namespace)
    work: Callable[[int], None] = namespace["work"]  # type: ignore[assignment]
    return work


def loops(peer: Peer | None, operation: str, threads: int) -> list[Callable[[int], None]]:
    """
    Return the loops of *operation* for *threads* threads, each on a class
    and an instance of *peer* of its own (``None``: the reference), made here.
    """
    return [_loop(peer, operation) for _ in range(threads)]


def per_operation(works: Sequence[Callable[[int], None]], operation: str, number: int) -> float:
    """
    Seconds per *operation* in each of as many threads as *works*, which
    start together, each running its loop *number* times: the wall time from
    the first start to the last end, over the operations of one thread.
    """
    barrier = threading.Barrier(len(works))
    spans: list[tuple[float, float]] = []
    errors: list[BaseException] = []

    def run(work: Callable[[int], None]) -> None:
        try:
            work(min(number, 100))  # the loop's first calls, untimed
            barrier.wait()
            started = time.perf_counter()
            work(number)
            spans.append((started, time.perf_counter()))
        except BaseException as error:  # raised again in the calling thread
            barrier.abort()
            errors.append(error)

    workers = [
        threading.Thread(target=run, args=(work,), name=f"records-bench-{index}")
        for index, work in enumerate(works)
    ]
    collecting = gc.isenabled()
    gc.disable()
    try:
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    finally:
        if collecting:
            gc.enable()
    if errors:  # the first error that is not another thread's broken barrier
        errors.sort(key=lambda error: isinstance(error, threading.BrokenBarrierError))
        raise errors[0]
    wall = max(end for _, end in spans) - min(start for start, _ in spans)
    return wall / (number * _UNROLLED.get(operation, 1))


def loops_per_sample(work: Callable[[int], None], target: float) -> int:
    """
    Return how many times one thread runs *work*'s loop per sample: about
    *target* seconds' worth, timed once here, and at least 10.
    """
    trial = 200
    work(trial)
    started = time.perf_counter()
    work(trial)
    seconds = (time.perf_counter() - started) / trial
    return max(10, int(target / seconds)) if seconds > 0 else trial


def accessor(work: Callable[[int], None]) -> str:
    """Return the type of the ``f2`` accessor of the class *work* runs on, or ``""`` for tuples."""
    cls = work.__globals__.get("P")
    return "" if cls is None else type(inspect.getattr_static(cls, "f2")).__name__


def measure(
    peers: Sequence[Peer], rounds: int, progress: harness.Progress, *, target: float = 0.02
) -> tuple[
    dict[str, dict[str, int]], dict[str, dict[int, dict[str, list[float]]]], dict[str, str]
]:
    """
    Time each operation of ``OPERATIONS`` on each of *peers*, and on the
    reference, in one thread and in two, *rounds* times, each thread running
    about *target* seconds' worth of work (as one thread runs it).

    Return the operations each thread runs per sample, by operation then
    peer; the samples: seconds per operation in each thread, by operation,
    thread count, then peer; and the type of each peer's field accessor.
    """
    timed: dict[str, Peer | None] = {peer.name: peer for peer in peers}
    timed[REFERENCE] = None
    made = {  # every class before the first thread: see the module's docstring
        operation: {name: loops(peer, operation, max(THREADS)) for name, peer in timed.items()}
        for operation in OPERATIONS
    }
    numbers = {
        operation: {name: loops_per_sample(works[0], target) for name, works in found.items()}
        for operation, found in made.items()
    }
    samples: dict[str, dict[int, dict[str, list[float]]]] = {
        operation: {threads: {name: [] for name in timed} for threads in THREADS}
        for operation in OPERATIONS
    }
    for index in range(1, rounds + 1):
        progress.round("1 and 2 threads", index, rounds)
        order = THREADS if index % 2 else THREADS[::-1]
        for name in timed:
            for operation in OPERATIONS:
                for threads in order:
                    works = made[operation][name][:threads]
                    seconds = per_operation(works, operation, numbers[operation][name])
                    samples[operation][threads][name].append(seconds)
            progress.step(name)
    done = {
        operation: {name: count * _UNROLLED.get(operation, 1) for name, count in found.items()}
        for operation, found in numbers.items()
    }
    accessors = {name: accessor(works[0]) for name, works in made["attribute access"].items()}
    return done, samples, {name: kind for name, kind in accessors.items() if kind}
