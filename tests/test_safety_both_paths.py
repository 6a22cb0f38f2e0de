"""
Corners where the C path and the pure-Python path once disagreed (in C, some
unsafely): each behaves the same on both now. These run in this process.
"""

import pytest

from records import Record, field


class TestOneBehaviourOnBothPaths:
    """Corners where the C and Python paths once disagreed."""

    def test_named_tuple_base_is_refused(self):
        """A collections.namedtuple base, in either order, is refused at the class statement."""
        import collections

        pair = collections.namedtuple("NT", "a b")
        message = "record 'P': cannot inherit from the named tuple 'NT'"
        with pytest.raises(TypeError, match=message):

            class P(pair, Record):
                c: int

        with pytest.raises(TypeError, match=message):

            class P(Record, pair):
                c: int

    def test_field_named_cls(self):
        """Record.__new__ takes cls positionally only, so a field may be called cls."""

        class Klass(Record):
            cls: str

            def __new__(klass, name):
                return super().__new__(klass, cls=name.upper())

        assert ("A",) == Klass("a")

    def test_new_defaults_assigned_later(self):
        """The namedtuple idiom Q.__new__.__defaults__ = (...) is used by every call."""

        class Q(Record):
            x: int
            y: int = 0

        Q.__new__.__defaults__ = (99,)
        assert (1, 99) == Q(1)
        assert (1, 99) == Q.__new__(Q, 1)
        Q.__new__.__defaults__ = (5, 6)
        assert (5, 6) == Q()

    def test_str_subclass_names_are_checked(self):
        """A str subclass never takes the cached route for field names, however it hashes."""

        class Rigged(str):
            def __hash__(self):
                return hash("a")

            def __eq__(self, other):
                return True

        class Valid(Record):
            a: int

        for name in (Rigged("not an identifier!"), Rigged("class"), Rigged("a")):
            with pytest.raises(ValueError, match="field names must be strings, not 'Rigged'"):
                type("C", (Record,), {"__annotations__": {name: int}})

    def test_replace_on_a_short_record(self):
        """_replace on a record with too few items raises one TypeError naming the record."""
        short = tuple.__new__(Point, ())
        with pytest.raises(TypeError, match="record 'Point': cannot replace fields of a record"):
            short._replace(x=1)

    def test_factory_marker_passed_explicitly(self):
        """Passing the <factory> default explicitly calls the factory, as leaving it out does."""
        import inspect

        class Tagged(Record):
            name: str
            tags: list = field(default_factory=list)

        marker = inspect.signature(Tagged).parameters["tags"].default
        made = Tagged("a", tags=marker)
        assert [] == made.tags
        assert made.tags is not Tagged("b", marker).tags


class Point(Record):
    x: int
    y: int = 0
