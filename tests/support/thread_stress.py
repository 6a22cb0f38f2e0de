"""
Threads that use records all at once, for tests/test_free_threading.py.

Run as a script in a child process: each thread, released together by a
barrier, builds record classes and drop-in named tuples, makes instances,
replaces, copies and pickles them, and checks every result against what it
built; shared classes are used by every thread at once too. Prints one JSON
line: the errors seen, the results checked, and the GIL's state before and
after (None where the interpreter has no switch).
"""

from __future__ import annotations

import collections
import copy
import json
import pickle
import sys
import threading

import records
from records import Record, field

THREADS = 8
ROUNDS = 60


class Shared(Record):
    """One class every thread uses at once."""

    x: int
    y: str = "y"
    tags: list[int] = field(default_factory=list)


SharedTuple = records.namedtuple("SharedTuple", "a b c", defaults=(3,))
StdlibTuple = collections.namedtuple("StdlibTuple", "p q")  # records' with the opt-in


def gil_enabled() -> bool | None:
    """The GIL's state, where the interpreter can switch it (3.13+)."""
    check = getattr(sys, "_is_gil_enabled", None)
    return None if check is None else check()


def work(worker: int, barrier: threading.Barrier, checked: list[int]) -> None:
    """One thread's rounds: every result is compared with what was asked."""
    barrier.wait()
    count = 0
    for round_ in range(ROUNDS):
        names = [f"f{worker}_{index}" for index in range(1 + round_ % 4)]
        own = Record.define(
            f"Own{worker}_{round_}", [(name, int) for name in names], defaults={names[-1]: -1}
        )
        values = tuple(range(len(names)))
        instance = own(*values)
        assert values == instance and type(instance) is own
        assert own(*values[:-1]) == (*values[:-1], -1)
        replaced = instance._replace(**{names[0]: "r"})
        assert ("r", *values[1:]) == replaced
        assert instance == copy.copy(instance) == copy.deepcopy(instance)
        assert values == tuple(pickle.loads(pickle.dumps(tuple(instance))))

        dropin = records.namedtuple(f"Drop{worker}_{round_}", names)
        made = dropin._make(values)
        assert values == made and made._asdict() == dict(zip(names, values))

        shared = Shared(round_, tags=[worker])
        assert (round_, "y", [worker]) == shared
        assert shared == pickle.loads(pickle.dumps(shared))
        assert (round_, "z", [worker]) == shared._replace(y="z")
        assert (worker, round_, 3) == SharedTuple(worker, round_)
        assert SharedTuple(1, 2) == pickle.loads(pickle.dumps(SharedTuple(1, 2)))
        stdlib = StdlibTuple(worker, round_)
        assert (worker, round_) == stdlib and stdlib.q == round_
        count += 14
    checked[worker] = count


def main() -> None:
    """Run the threads, then print what they saw."""
    before = gil_enabled()
    barrier = threading.Barrier(THREADS)
    checked = [0] * THREADS
    errors: list[str] = []

    def guarded(worker: int) -> None:
        try:
            work(worker, barrier, checked)
        except BaseException as error:  # reported to the test
            errors.append(f"thread {worker}: {error!r}")
            barrier.abort()

    threads = [threading.Thread(target=guarded, args=(worker,)) for worker in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(
        json.dumps(
            {
                "errors": errors,
                "checked": sum(checked),
                "gil_before": before,
                "gil_after": gil_enabled(),
                "accelerated": records.ACCELERATED,
                "namedtuple_is_records": collections.namedtuple is records.namedtuple,
            }
        )
    )


if __name__ == "__main__":
    main()
