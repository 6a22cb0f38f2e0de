"""
Reference-leak check of the C accelerator, for a debug build of CPython.

Runs every C path (constructor, _replace, _asdict, __repr__, _make, the
class builder, layout patch and install on new classes), good calls and failing ones, in
rounds, and fails if the interpreter's total reference count grows with the
work done. Run by tests/scripts/run_on_debug_python.sh; tests/test_accelerator.py runs the same
workload against sys.getallocatedblocks on any build.
"""

import contextlib
import copy
import gc
import pickle
import sys

import records
from records import Record, field


def _broken():
    raise LookupError


class Point(Record):
    x: int
    y: int = 0
    tags: list = field(default_factory=list)


class Bad(Record):
    items: list = field(default_factory=_broken)


def exercise(calls):
    """Run every C path *calls* times, good calls and failing ones, then make classes."""
    p = Point(0)
    failing = (
        lambda: Point(),
        lambda: Point(1, z=2),
        lambda: Point(1, x=1),
        lambda: Bad(),
        lambda: p._replace(w=1),
        lambda: Point._make((1,)),
        lambda: p._replace(1),
    )
    for i in range(calls):
        p = Point(i, y=i)
        Point(i, tags=[i])
        p._replace(y=1, tags=[i])
        p._asdict()
        repr(p)
        Point._make((1, 2, []))
        copy.copy(p)
        pickle.loads(pickle.dumps(p))
        for call in failing:
            with contextlib.suppress(TypeError, ValueError, LookupError):
                call()
    for i in range(calls // 10):
        fields = [("a", int), ("b", list)]
        cls = Record.define(f"R{i}", fields, defaults={"b": field(default_factory=list)})
        cls(1)
        del cls
        _define_classes(i)
    gc.collect()


# Class bodies for the C class builder: built in C, declined to the Python
# path, and failing in C (an invalid name) or in Python.
_BODIES = (
    {"__annotations__": {"x": int, "y": "int"}, "y": 0, "__doc__": None},
    {"__annotations__": {"x": list, "y": int}, "x": field(default_factory=list, doc="d"), "y": 1},
    {"__annotations__": {"c": "ClassVar[int]", "x": int}, "c": 1},
    {"__annotations__": {"x": list}, "x": []},
    {"__annotations__": {"x": int, "y": int}, "x": 0},
    {"__annotations__": {"class": int}},
    {"__annotations__": {"_x": int}},
    {"method": len},
)


def _define_classes(i):
    for number, body in enumerate(_BODIES):
        with contextlib.suppress(TypeError, ValueError):
            cls = type(f"B{i}_{number}", (Point,) if "method" in body else (Record,), dict(body))
            cls._make(range(len(cls._fields)))
        fresh = {"__annotations__": {f"fresh_{i % 50}_{number}": int}}  # caches stay warm
        type(f"F{i}_{number}", (Record,), fresh)(1)


def main():
    """Compare the reference-count growth of a small and a three-times-larger round."""
    if not hasattr(sys, "gettotalrefcount"):
        sys.exit("needs a debug build of CPython (sys.gettotalrefcount)")
    if not records.ACCELERATED:
        sys.exit(f"needs the C accelerator: {records.ACCELERATOR}")
    for _ in range(3):
        exercise(1000)
    growth = {}
    for calls in (1000, 3000):
        before = sys.gettotalrefcount()
        exercise(calls)
        growth[calls] = sys.gettotalrefcount() - before
    print(f"total reference count growth per round: {growth}")
    # A leak of even one reference per call would grow with the calls.
    if abs(growth[3000] - growth[1000]) > 50 or growth[3000] > 100:
        sys.exit("reference count grows with the work done: a leak")


if __name__ == "__main__":
    main()
