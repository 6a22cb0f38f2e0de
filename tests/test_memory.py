"""Creating and dropping record classes leaves memory flat."""

import gc
import sys
import weakref

import pytest
from support.platform_marks import cpython_only

import records
from records import Record, field


def _make_class(i: int) -> type:
    names = [f"f{(i + j) % 11}_{j}" for j in range(1 + i % 6)]
    defaults = {names[-1]: field(default_factory=list)} if i % 3 == 0 else {}
    return Record.define(f"Dropped{i}", [(name, int) for name in names], defaults=defaults)


def test_classes_are_collected():
    """No cache keeps a record class alive."""

    class Point(Record):
        x: int
        y: list = field(default_factory=list)

    Point(1)
    ref = weakref.ref(Point)
    nt_ref = weakref.ref(records.namedtuple("Temporary", "a b"))
    del Point
    gc.collect()
    assert ref() is None
    assert nt_ref() is None


@pytest.mark.slow
@cpython_only
def test_100000_classes_memory_flat():
    """100,000 record classes created and dropped leave memory flat."""
    for i in range(5_000):  # warm the shape caches and the allocator
        _make_class(i)(*range(1 + i % 6))
    gc.collect()
    before = sys.getallocatedblocks()
    for i in range(100_000):
        cls = _make_class(i)
        cls(*range(1 + i % 6))
        if i % 10_000 == 0:
            gc.collect()
    del cls
    gc.collect()
    after = sys.getallocatedblocks()
    # A leak of one object per class would be 100,000 blocks or more.
    assert after - before < 2_000, (before, after)
