"""records.as_namedtuple: at run time, records' own names (the stub is for type checkers)."""

import ast
import pickle
from pathlib import Path

import pytest

import records
import records.as_namedtuple
from records.as_namedtuple import Record, define, field

STUB = Path(records.__file__).with_name("as_namedtuple.pyi")


class Point(Record):
    x: int
    y: int = 0
    tags: list[str] = field(default_factory=list)


class Point3(Point):
    z: int = 0


class TestSameNames:
    """Every name of records.as_namedtuple is the name of records it re-exports."""

    def test_record_is_records_record(self):
        """Record is records.Record itself, so its classes are records."""
        assert Record is records.Record
        assert issubclass(Point, records.Record)
        assert records.fields(Point) == records.as_namedtuple.fields(Point)

    @pytest.mark.parametrize("name", sorted(set(records.as_namedtuple.__all__) - {"define"}))
    def test_each_name_is_the_one_of_records(self, name):
        """Each name but define is records' name of the same name."""
        assert getattr(records, name) is getattr(records.as_namedtuple, name)

    def test_define_is_record_define(self):
        """define is Record.define, whose classes belong to the caller's module."""
        assert Record.define == define
        Pixel = define("Pixel", [("x", int), ("y", int)], defaults={"y": 0})
        assert issubclass(Pixel, Record)
        assert (1, 0) == Pixel(1)
        assert __name__ == Pixel.__module__
        assert pickle.loads(pickle.dumps(Point3(1))) == Point3(1)

    def test_records_are_records(self):
        """A record declared through the module adds fields in subclasses, as any record does."""
        assert ("x", "y", "tags", "z") == Point3._fields
        assert (1, 2, [], 3) == Point3(1, 2, z=3)
        assert {"x": 1, "y": 0, "tags": []} == records.as_namedtuple.asdict(Point(1))
        assert Point(1, 5) == records.as_namedtuple.replace(Point(1), y=5)


class TestNames:
    """What the module offers, at run time and in its stub."""

    def test_names_a_record_module_needs(self):
        """records' public names, but the process-wide switches and the accelerator's status."""
        assert sorted(
            set(records.__all__)
            - {"ACCELERATED", "ACCELERATOR", "use_for_namedtuple", "restore_namedtuple"}
            | {"define"}
        ) == sorted(records.as_namedtuple.__all__)

    def test_the_stub_offers_the_same_names(self):
        """The stub's __all__ is the module's (a stub re-exports `NamedTuple as Record` by it)."""
        tree = ast.parse(STUB.read_text())
        (stub_all,) = (
            node.value
            for node in tree.body
            if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "__all__"
        )
        assert records.as_namedtuple.__all__ == ast.literal_eval(stub_all)

    def test_the_stub_presents_record_as_named_tuple(self):
        """The stub imports typing.NamedTuple as Record, on a line of its own (the plugin reads it)."""
        assert "\nfrom typing import NamedTuple as Record\n" in STUB.read_text()

    def test_dir_lists_every_name(self):
        """dir() lists the names given when first asked for."""
        assert set(records.as_namedtuple.__all__) <= set(dir(records.as_namedtuple))

    def test_unknown_name(self):
        """A name the module does not have raises AttributeError, naming it."""
        with pytest.raises(AttributeError, match=r"'records.as_namedtuple' has no attribute 'x'"):
            records.as_namedtuple.x
        with pytest.raises(AttributeError):
            records.as_namedtuple.use_for_namedtuple
