"""
Memory safety of freeing a record: the C accelerator gives the classes it
lays out a deallocator of their own (``record_dealloc`` in
``records/_c/members.h``), in place of CPython's default for a class. Each
route CPython's default takes that it must take too is run here in a child
Python (``support.child``), so that a wrong step (the class released twice,
a resurrected record freed, a finalizer skipped) crashes the child or fails
its assertions, on both paths.
"""

import pytest
from support.child import run_child
from support.platform_marks import PYPY

#: PyPy's collector frees objects and runs __del__ when it runs, not when the
#: last reference goes, which these tests count on.
pytestmark = pytest.mark.skipif(PYPY, reason="PyPy frees objects when its collector runs")


def test_del_in_the_class_runs_once():
    """A __del__ of the class runs when the record is freed, once."""
    output = run_child(
        """
        from records import Record
        seen = []
        class Tracked(Record):
            x: int
            def __del__(self):
                seen.append(self.x)
        Tracked(1)
        Tracked(2)
        print(seen)
        """
    )
    assert output.strip() == "[1, 2]"


def test_del_assigned_after_the_class_runs():
    """A __del__ given to the class after it is made runs too."""
    output = run_child(
        """
        from records import Record
        seen = []
        class Later(Record):
            x: int
        Later(0)
        Later.__del__ = lambda self: seen.append(self.x)
        Later(7)
        print(seen)
        """
    )
    assert output.strip() == "[7]"


def test_record_resurrected_by_its_del_stays_whole():
    """A __del__ that keeps the record alive keeps it whole; freed later, it does not run again."""
    output = run_child(
        """
        import gc
        from records import Record
        kept = []
        class Phoenix(Record):
            items: object
            def __del__(self):
                kept.append(self)
        Phoenix([1, 2])
        record = kept.pop()
        print(record.items, record)
        del record
        gc.collect()
        print(len(kept))
        """
    )
    assert output.splitlines() == ["[1, 2] Phoenix(items=[1, 2])", "0"]


def test_subclass_with_a_dict_frees_its_dict_and_its_class():
    """
    An enum of records (a subclass whose members keep a __dict__, freed by
    CPython's default, which calls the record's deallocator after it) frees
    the members' dicts and the classes, however many are made and dropped.
    """
    output = run_child(
        """
        import enum, gc, sys, weakref
        from records import Record
        class Pair(Record):
            x: int
            y: object
        class Note:
            pass
        refs = []
        for _ in range(300):
            class Choice(Pair, enum.Enum):
                A = (1, [])
                B = (2, [])
            Choice.A.note = Note()
            refs.append((weakref.ref(Choice), weakref.ref(Choice.A.note)))
            del Choice
        gc.collect()
        print(sum(cls() is None and note() is None for cls, note in refs), sys.getrefcount(Pair) < 50)
        """
    )
    assert output.strip() == "300 True"


def test_subclass_with_its_own_del_runs_it_once():
    """A record subclass's __del__ runs once, and its base's deallocator frees it."""
    output = run_child(
        """
        from records import Record
        seen = []
        class Base(Record):
            x: int
            def __del__(self):
                seen.append(("base", self.x))
        class Child(Base):
            y: int = 0
            def __del__(self):
                seen.append(("child", self.x))
        Child(3)
        Base(4)
        print(seen)
        """
    )
    assert output.strip() == "[('child', 3), ('base', 4)]"


def test_long_chain_of_nested_records_frees_without_deep_recursion():
    """Freeing a record that holds a record ... 300,000 deep does not exhaust the C stack."""
    output = run_child(
        """
        from records import Record
        class Link(Record):
            next: object
        chain = None
        for _ in range(300_000):
            chain = Link(chain)
        del chain
        print("freed")
        """
    )
    assert output.strip() == "freed"


def test_classes_made_and_dropped_are_freed():
    """Each record class is released with its last instance: none leaks, none is freed twice."""
    output = run_child(
        """
        import gc, weakref
        from records import Record
        refs = []
        for index in range(500):
            class Temporary(Record):
                x: int
                y: int = 0
            instances = [Temporary(index), Temporary(index, 1)._replace(y=2)]
            refs.append(weakref.ref(Temporary))
            del Temporary, instances
        gc.collect()
        print(sum(ref() is None for ref in refs))
        """
    )
    assert output.strip() == "500"


def test_namedtuple_classes_and_their_subclasses_free_what_they_hold():
    """
    records.namedtuple's classes use the same deallocator: a subclass that
    keeps a __dict__ (freed by CPython's default first), a __del__, a deep
    chain, and classes dropped with their instances.
    """
    output = run_child(
        """
        import gc, weakref
        from records import namedtuple
        class Note:
            pass
        seen = []
        refs = []
        for index in range(300):
            Pair = namedtuple("Pair", "x y")
            class Noted(Pair):
                def __del__(self):
                    seen.append(self.x)
            noted = Noted(index, None)
            noted.note = Note()
            refs.append((weakref.ref(Pair), weakref.ref(noted.note)))
            del Pair, Noted, noted
        gc.collect()
        Link = namedtuple("Link", "next")
        chain = None
        for _ in range(300_000):
            chain = Link(chain)
        del chain
        print(len(seen), sum(cls() is None and note() is None for cls, note in refs))
        """
    )
    assert output.strip() == "300 300"
