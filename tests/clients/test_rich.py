"""rich lays records out field by field, as it does named tuples."""

import collections

import pytest
from rich.pretty import pretty_repr

import records

LONG = ["x" * 30, "y" * 30]


class TestParity:
    """The same text for a typing.NamedTuple and a Record with the same fields."""

    def test_long_values_expand(self, models):
        """A record too wide for the line is printed one field per line."""
        assert (
            "Wide(\n"
            "    name='w',\n"
            "    values=[\n"
            "        'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',\n"
            "        'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyy'\n"
            "    ],\n"
            "    note='-'\n"
            ")"
        ) == pretty_repr(models.Wide("w", LONG), max_width=40)

    def test_short_values_stay_on_one_line(self, models):
        """A record that fits is printed as its repr."""
        assert "Point(x=1, y=2)" == pretty_repr(models.Point(1, 2))

    def test_nested(self, models):
        """Records inside records and lists are laid out too."""
        segment = models.Segment(models.Point(1, 2), models.Point(3, 4), "a long label here")
        assert (
            "[\n"
            "    Segment(\n"
            "        start=Point(x=1, y=2),\n"
            "        end=Point(x=3, y=4),\n"
            "        label='a long label here'\n"
            "    )\n"
            "]"
        ) == pretty_repr([segment], max_width=40)

    def test_own_repr_is_kept(self, models):
        """A subclass with its own __repr__ is printed with it."""

        class Custom(models.Wide):
            __slots__ = ()

            def __repr__(self):
                return "custom"

        assert "custom" == pretty_repr(Custom("w", LONG), max_width=40)


@pytest.mark.parametrize("width", [20, 80])
def test_records_namedtuple_prints_like_collections(width):
    """records.namedtuple classes and subclasses print as collections.namedtuple's do."""
    outputs = []
    for namedtuple in (collections.namedtuple, records.namedtuple):
        cls = namedtuple("Row", "name values")

        class Sub(cls):
            __slots__ = ()

        class Custom(cls):
            __slots__ = ()

            def __repr__(self):
                return "custom"

        outputs.append([pretty_repr(c("r", LONG), max_width=width) for c in (cls, Sub, Custom)])
    assert outputs[0] == outputs[1]
