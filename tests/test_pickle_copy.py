"""Records pickle with every protocol and copy like tuples."""

import copy
import pickle

import pytest
from support.child import run_child
from support.platform_marks import cpython_only

import records
from records import Record, field

PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)


class Point(Record):
    x: int
    y: int = 0
    tags: list = field(default_factory=list)


class Outer:
    class Inner(Record):
        value: int
        label: str = "inner"


class Point3(Point):
    z: int = 0


Functional = Record.define("Functional", [("a", int), ("b", str)], defaults={"b": "b"})
Plain = records.namedtuple("Plain", "a b")


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize(
    "record",
    [
        Point(1, 2, ["t"]),
        Outer.Inner(5),
        Point3(1, 2, [], 3),
        Functional(1),
        Plain(1, [2]),
    ],
    ids=["Point", "nested", "subclass", "functional", "namedtuple"],
)
def test_pickle_round_trip(protocol, record):
    """Every record kind survives pickling with every protocol."""
    loaded = pickle.loads(pickle.dumps(record, protocol))
    assert record == loaded
    assert type(record) is type(loaded)
    assert record._fields == loaded._fields


def test_pickle_does_not_call_factory_again():
    """A pickled field value is restored, not rebuilt by the factory."""
    point = Point(1, 2, ["kept"])
    assert ["kept"] == pickle.loads(pickle.dumps(point)).tags


@pytest.mark.parametrize("copier", [copy.copy, copy.deepcopy])
def test_copy(copier):
    """copy and deepcopy give equal records of the same class."""
    point = Point(1, 2, ["a"])
    copied = copier(point)
    assert point == copied
    assert type(copied) is Point


def test_deepcopy_copies_contents():
    """deepcopy copies mutable field values; copy shares them."""
    point = Point(1, 2, ["a"])
    assert copy.deepcopy(point).tags is not point.tags
    assert copy.copy(point).tags is point.tags


def test_sentinels_pickle():
    """MISSING survives pickling as the same object."""
    assert records.MISSING is pickle.loads(pickle.dumps(records.MISSING))


@cpython_only  # PyPy cannot copy a __slots__ descriptor at all
def test_reloaded_pickling_module_falls_back_as_before():
    """
    After importlib.reload(records._pickling), other member descriptors copy
    and pickle as they did (the reload's reducer does not fall back on the
    first load's, which would recurse), and record fields as records' do.
    """
    code = (
        "import copy, importlib, pickle\n"
        "import records, records._pickling\n"
        "class Slotted:\n    __slots__ = ('a',)\n"
        "class P(records.Record):\n    x: int\n"
        "importlib.reload(records._pickling)\n"
        "print(copy.copy(Slotted.a) is Slotted.a, pickle.loads(pickle.dumps(P(3))) == (3,))\n"
    )
    output = run_child(code)
    assert "True True\n" == output


class TestChangesAfterTheFirstCopy:
    """
    What a class changes after its records were first copied counts at the
    next copy: the C accelerator remembers what it checked on the class only
    while the class and its bases are unchanged.
    """

    @staticmethod
    def _copied_then(change):
        """Copy a fresh record once each way, apply *change* to its class, copy again."""

        class Base(Record):
            x: int

        class Leaf(Base):
            y: int = 0

        leaf = Leaf(1, 2)
        assert copy.copy(leaf) == leaf and copy.deepcopy(leaf) == leaf
        change(Base, Leaf)
        return copy.copy(leaf), copy.deepcopy(leaf)

    def test_reducer_registered_with_copyreg(self):
        """A copyreg reducer for the class, registered after a copy, is used."""
        import copyreg

        registered = []

        def register(base, leaf):
            copyreg.pickle(leaf, lambda record: (str, ("via copyreg",)))
            registered.append(leaf)

        try:
            assert self._copied_then(register) == ("via copyreg", "via copyreg")
        finally:
            for leaf in registered:
                del copyreg.dispatch_table[leaf]

    def test_reduce_given_to_the_class(self):
        """A __reduce__ given to the class after a copy is used."""

        def give(base, leaf):
            leaf.__reduce__ = lambda record: (str, ("reduced",))

        assert self._copied_then(give) == ("reduced", "reduced")

    def test_getnewargs_given_to_a_base(self):
        """A __getnewargs__ given to a base after a copy is used for its subclasses' records."""

        def give(base, leaf):
            base.__getnewargs__ = lambda record: (7, 8)

        assert self._copied_then(give) == ((7, 8), (7, 8))
