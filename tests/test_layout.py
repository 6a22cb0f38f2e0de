"""The instance-dict removal: where it applies, its checks, and its fallback."""

import abc
import copy
import gc
import pickle
import platform
import random
import sys
import types
from typing import Generic, Protocol, TypeVar

import pytest
from support.platform_marks import MEMBER_FIELDS
from support.python_builder import python_builder

from records import Record, _accessors, _layout, field

T = TypeVar("T")
CPYTHON_KNOWN = platform.python_implementation() == "CPython" and sys.version_info[:2] in {
    (3, 10),
    (3, 11),
    (3, 12),
    (3, 13),
}


@pytest.fixture
def fallback(monkeypatch):
    """Pretend the layout patch is unavailable here (and so the C accelerator, which needs it)."""
    monkeypatch.setattr(_layout, "_resolved", True)
    monkeypatch.setattr(_layout, "_sealer", None)
    with python_builder():
        yield


@pytest.mark.skipif(not CPYTHON_KNOWN, reason="patched only on CPython 3.10-3.13")
class TestPatch:
    """On known CPythons the patch applies and is checked."""

    def test_supported(self):
        """The layout checks pass on this interpreter."""
        assert _layout.supported()

    def test_wrong_layout_assumption_is_caught(self):
        """The probes refuse a strategy meant for another version."""
        wrong = "managed" if sys.version_info < (3, 12) else "dictoffset"
        assert _layout._make_sealer(wrong) is None

    def test_unknown_version_falls_back(self, monkeypatch):
        """An interpreter version not listed is not patched."""
        monkeypatch.setattr(_layout, "SUPPORTED_VERSIONS", {})
        assert _layout._build_sealer() is None

    def test_ctypes_view_reads_this_object_header(self):
        """
        The pure path's view of PyTypeObject passes its probes here, whatever
        the object header (free-threaded builds have a larger one): on every
        path, so the C path's envs check it too.
        """
        strategy = _layout.SUPPORTED_VERSIONS[sys.version_info[:2]]
        assert _layout._make_sealer(strategy) is not None

    def test_identical_to_slots(self):
        """A patched record has the layout CPython builds for __slots__ = ()."""

        class Patched(Record):
            x: int

        class Slotted(tuple):
            __slots__ = ()

        for attribute in ("__itemsize__", "__dictoffset__", "__weakrefoffset__"):
            assert getattr(Slotted, attribute) == getattr(Patched, attribute)
        # With the accelerator, the layout also has room for the one field
        # (member descriptors); an instance takes a tuple's memory either way.
        room = Patched.__itemsize__ if MEMBER_FIELDS else 0
        assert Slotted.__basicsize__ + room == Patched.__basicsize__
        assert sys.getsizeof((1,)) == sys.getsizeof(Patched(1))
        managed_dict = 1 << 4
        assert 0 == Patched.__flags__ & managed_dict

    def test_user_slots_left_alone(self):
        """A record that declares __slots__ = () needs no patch."""

        class Slotted(Record):
            __slots__ = ()
            x: int

        assert sys.getsizeof(Slotted(1)) == sys.getsizeof((1,))

    def test_stress(self):
        """Randomised class shapes keep tuple size, immutability and behaviour."""
        rng = random.Random(20261203)

        class Plain:
            pass

        class Slotted:
            __slots__ = ()

        class Abstract(abc.ABC):  # noqa: B024
            __slots__ = ()

        class Proto(Protocol):
            def method(self) -> int: ...

        mixins = [Plain, Slotted, Abstract, Proto, Generic[T]]
        for round_number in range(300):
            base: type = Record
            values: list = []
            for depth in range(rng.randint(1, 4)):
                extra = [rng.choice(mixins)] if rng.random() < 0.4 else []
                count = rng.randint(0, 3)
                annotations = {f"f{round_number}_{depth}_{i}": int for i in range(count)}
                namespace = {"__annotations__": annotations}
                if rng.random() < 0.3:
                    namespace["method"] = lambda self: len(self)
                bases = (base, *extra)
                if any(b is Generic[T] for b in extra) and getattr(base, "__parameters__", ()):
                    bases = (base,)
                base = types.new_class(
                    f"C{round_number}_{depth}",
                    bases,
                    exec_body=lambda ns, n=namespace: ns.update(n),
                )
                values += range(count)
            record = base(*values)
            assert tuple(values) == record
            assert sys.getsizeof(tuple(values)) == sys.getsizeof(record)
            assert not hasattr(record, "__dict__")
            with pytest.raises(AttributeError):
                record.new_attribute = 1
            assert record == base._make(values)
            if record._fields:
                assert values[0] == getattr(record, record._fields[0])
            cycle = [record]
            cycle.append(cycle)
            del cycle, record, base
            if round_number % 50 == 0:
                gc.collect()
        gc.collect()


class TestFallback:
    """Without the patch, records keep the dict slot but stay immutable."""

    def test_fallback_record(self, fallback):
        """Everything works; only the size differs from a tuple."""

        class Point(Record):
            x: int
            y: int = 0
            tags: list = field(default_factory=list)

        point = Point(1)
        assert (1, 0, []) == point
        assert "Point(x=1, y=0, tags=[])" == repr(point)
        assert point == copy.deepcopy(point)
        reduced = point.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
        assert (1, 0, []) == reduced[1][-3:]
        assert 2 == len(reduced)  # no instance state: the same pickle as when sealed
        assert Point(1, 5) == point._replace(y=5, tags=[])

    def test_fallback_attributes_are_kept(self, fallback):
        """What a record that keeps its dict holds there is pickled and copied with it."""
        import functools

        class Circle(Record):
            radius: float

            @functools.cached_property
            def area(self):
                return 3 * self.radius**2

        circle = Circle(2.0)
        assert 12.0 == circle.area  # cached in the instance's __dict__
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            reduced = circle.__reduce_ex__(protocol)
            assert {"area": 12.0} == reduced[2]
        for copied in (copy.copy(circle), copy.deepcopy(circle)):
            assert circle == copied
            assert {"area": 12.0} == vars(copied)

    def test_fallback_is_immutable(self, fallback):
        """Setting or deleting attributes raises what a record without __dict__ says."""

        class Point(Record):
            x: int

        class Sealed(tuple):  # what a sealed Point is below Record: no __dict__, an accessor
            __slots__ = ()
            x = _accessors.accessor(0, "x")

        Sealed.__name__ = "Point"

        def message(action):
            with pytest.raises(AttributeError) as info:
                action()
            return str(info.value)

        point, sealed = Point(1), Sealed((1,))
        immutable = "records are immutable; make a changed copy with _replace(x=...)"
        assert f"record 'Point': cannot assign to field 'x': {immutable}" == message(
            lambda: setattr(point, "x", 2)
        )
        assert f"record 'Point': cannot delete field 'x': {immutable}" == message(
            lambda: delattr(point, "x")
        )
        assert "'Point' object has no attribute 'z'" == message(lambda: setattr(point, "z", 1))
        assert "'Point' object has no attribute 'z'" == message(lambda: delattr(point, "z"))
        assert message(lambda: object.__setattr__(sealed, "x", 2)) == message(
            lambda: object.__setattr__(point, "x", 2)
        )
        assert (1,) == point

    def test_fallback_without_dictoffset(self, fallback):
        """Where types have no __dictoffset__ (PyPy), seal sets and reports a possible dict."""

        class HidesDictOffset(type):
            def __getattribute__(cls, name):
                if name == "__dictoffset__":
                    raise AttributeError(name)
                return super().__getattribute__(name)

        target = HidesDictOffset("Target", (tuple,), {})
        assert _layout.seal(target) is False
        _layout.write(target, {"value": 1})
        assert 1 == target.value

    def test_fallback_keeps_user_setattr(self, fallback):
        """A __setattr__ defined in the body is not replaced."""

        class Point(Record):
            x: int

            def __setattr__(self, name, value):
                msg = "custom"
                raise AttributeError(msg)

        with pytest.raises(AttributeError, match="custom"):
            Point(1).y = 2
