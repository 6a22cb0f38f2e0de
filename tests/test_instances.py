"""Instances are tuples: same memory, same behaviour, immutable."""

import collections
import copy
import pickle
import sys

import pytest
from support.platform_marks import needs_layout_patch

from records import Record, _layout, field


class Point(Record):
    x: int
    y: int = 0


class Bag(Record):
    name: str
    items: list = field(default_factory=list)


class Pair(Record):
    x: int
    y: int = 2


class TestTupleness:
    """Records behave exactly like the tuple of their values."""

    def test_is_tuple(self):
        """isinstance, equality with a tuple, conversion."""
        p = Point(1, 2)
        assert isinstance(p, tuple)
        assert (1, 2) == p
        assert (1, 2) == tuple(p)
        assert [1, 2] == list(p)

    def test_index_slice_len_iter(self):
        """Indexing, negative indexes, slices, len and iteration."""
        p = Point(1, 2)
        assert (1, 2, 2) == (p[0], p[1], p[-1])
        assert (1,) == p[:1]
        assert tuple is type(p[:1])
        assert 2 == len(p)
        assert [1, 2] == list(iter(p))
        with pytest.raises(IndexError):
            p[2]

    def test_unpacking(self):
        """Records unpack like tuples."""
        x, y = Point(1, 2)
        assert (1, 2) == (x, y)

    def test_concatenation_and_repetition(self):
        """+ and * give plain tuples."""
        p = Point(1, 2)
        assert (1, 2, 3) == p + (3,)
        assert tuple is type(p + (3,))
        assert (1, 2, 1, 2) == p * 2

    def test_comparison_and_hash(self):
        """Ordering and hashing are the tuple's."""
        assert Point(1, 2) < Point(1, 3)
        assert Point(2, 0) > (1, 9)
        assert hash((1, 2)) == hash(Point(1, 2))
        assert len({Point(1, 2), (1, 2)}) == 1

    def test_unhashable_items(self):
        """A record with unhashable items is unhashable, as a tuple would be."""
        with pytest.raises(TypeError):
            hash(Bag("b", []))

    def test_count_and_index_methods(self):
        """tuple.count and tuple.index stay available when not shadowed."""
        p = Point(1, 1)
        assert 2 == p.count(1)
        assert 0 == p.index(1)

    def test_getitem_is_tuples(self):
        """No per-class __getitem__ wraps tuple's."""
        assert tuple.__getitem__ == Point.__getitem__


class TestHash:
    """A record hashes as its tuple, however it was made (3.14+ caches a tuple's hash)."""

    @pytest.mark.parametrize(
        "make",
        [
            lambda: Pair(1, 2),
            lambda: Pair(y=2, x=1),
            lambda: Pair(1),
            lambda: Pair._make([1, 2]),
            lambda: Pair(1, 5)._replace(y=2),
            lambda: pickle.loads(pickle.dumps(Pair(1, 2))),
            lambda: copy.copy(Pair(1, 2)),
            lambda: copy.deepcopy(Pair(1, 2)),
            lambda: Pair.__new__(Pair, 1, 2),
        ],
        ids=[
            "positional",
            "keywords",
            "default",
            "_make",
            "_replace",
            "pickle",
            "copy",
            "deepcopy",
            "__new__",
        ],
    )
    def test_hash_is_the_tuples(self, make):
        """hash() equals the tuple's, and the record finds the tuple in a set (and back)."""
        record = make()
        assert hash((1, 2)) == hash(record)
        assert record in {(1, 2)}
        assert (1, 2) in {record}
        assert hash((1, 2)) == hash(record)  # again: the cached value


@needs_layout_patch
class TestMemory:
    """No per-instance __dict__: a record is as small as its tuple."""

    @pytest.mark.parametrize("size", [0, 1, 2, 5, 20])
    def test_getsizeof_equals_tuple(self, size):
        """sys.getsizeof of a record equals the plain tuple's."""
        names = [f"f{i}" for i in range(size)]
        cls = Record.define("Sized", [(name, int) for name in names])
        values = tuple(range(size))
        assert sys.getsizeof(values) == sys.getsizeof(cls(*values))

    def test_no_instance_dict(self):
        """Instances have no __dict__ and no __weakref__."""
        p = Point(1)
        assert not hasattr(p, "__dict__")
        assert "__dict__" not in Point.__dict__
        assert 0 == Point.__dictoffset__
        # With member descriptors, the layout holds room for the fields (which
        # record_alloc takes back: instances are the size of tuples).
        room = len(Point._fields) if type(Point.x).__name__ == "member_descriptor" else 0
        assert tuple.__basicsize__ + room * tuple.__itemsize__ == Point.__basicsize__
        assert sys.getsizeof(Point(1)) == sys.getsizeof(tuple(Point(1)))

    def test_subclass_memory(self):
        """Subclasses, with or without new fields, stay dict-free."""

        class Point3(Point):
            z: int = 0

        class Named(Point3):
            def name(self):
                return "n"

        for cls, values in ((Point3, (1, 2, 3)), (Named, (1, 2, 3))):
            record = cls(*values)
            assert sys.getsizeof(values) == sys.getsizeof(record)
            assert not hasattr(record, "__dict__")


class TestImmutability:
    """Setting or deleting any attribute raises AttributeError."""

    def test_set_field(self):
        """Fields are read-only, and the error names the record and the field."""
        p = Point(1, 2)
        immutable = "records are immutable; make a changed copy with _replace(x=...)"
        with pytest.raises(AttributeError) as info:
            p.x = 5
        assert f"record 'Point': cannot assign to field 'x': {immutable}" == str(info.value)
        with pytest.raises(AttributeError) as info:
            del p.x
        assert f"record 'Point': cannot delete field 'x': {immutable}" == str(info.value)
        assert 1 == p.x

    def test_set_field_of_subclass(self):
        """An inherited field is named with the subclass it is set on."""

        class Point3(Point):
            z: int = 0

        with pytest.raises(AttributeError, match=r"^record 'Point3': cannot assign to field 'x'"):
            Point3(1, 2).x = 0
        with pytest.raises(AttributeError, match=r"^record 'Point3': cannot assign to field 'z'"):
            Point3(1, 2).z = 0

    @needs_layout_patch  # without it, records' own __setattr__ on the class refuses all names
    def test_mixin_setattr_still_reached(self):
        """Names that are not fields go on to a mixin's __setattr__ after Record in the MRO."""
        seen = []

        class Recording:
            def __setattr__(self, name, value):
                seen.append(name)

        class Tracked(Record, Recording):
            x: int

        record = Tracked(1)
        record.note = "kept"
        assert ["note"] == seen
        with pytest.raises(AttributeError, match="cannot assign to field 'x'"):
            record.x = 2
        assert ["note"] == seen

    def test_set_new_attribute(self):
        """No new attributes can be added."""
        p = Point(1, 2)
        with pytest.raises(AttributeError):
            p.z = 5
        if _layout.supported():  # with a __dict__ slot, object.__setattr__ gets through
            with pytest.raises(AttributeError):
                object.__setattr__(p, "z", 5)
        with pytest.raises(AttributeError):
            del p.z

    def test_item_assignment(self):
        """Item assignment fails as on tuples."""
        p = Point(1, 2)
        with pytest.raises(TypeError):
            p[0] = 5  # type: ignore[index]


def test_a_field_missing_from_an_instance():
    """
    An instance made around the constructor, shorter than its fields: a missing
    field raises IndexError as a named tuple's does, except where fields are
    member descriptors (the C accelerator, 3.11+), which report AttributeError.
    """

    class Pair(Record):
        x: int
        y: int

    short = tuple.__new__(Pair, (1,))
    assert 1 == short.x
    member = type(vars(Pair)["y"]).__name__ == "member_descriptor"
    with pytest.raises(AttributeError if member else IndexError):
        short.y
    if member:
        assert not hasattr(short, "y")
    named = collections.namedtuple("Pair", "x y")
    with pytest.raises(IndexError):
        tuple.__new__(named, (1,)).y
