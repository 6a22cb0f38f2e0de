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


#: Named tuples as rich's own pretty-printing tests make them, printed.
RICH_CASES = """
import collections, json
from typing import NamedTuple
from rich.pretty import pretty_repr

class Item(NamedTuple):
    name: str
    notes: list
    price: float = 0.5

class OwnRepr(NamedTuple):
    def __repr__(self):
        return "own"

class Empty(NamedTuple):
    pass

Plain = collections.namedtuple("Plain", "a b")
One = collections.namedtuple("One", "a")
Weird = collections.namedtuple("Weird", "a")
Weird._fields = 5
long_notes = ["a" * 30, "b" * 30]
cases = [
    Item("water", long_notes), Item("tea", []), OwnRepr(), Empty(), Plain(1, [Plain(2, 3)]),
    One(1), Weird(1), [Item("x", long_notes)] * 2,
]
print(json.dumps([[pretty_repr(case, max_width=width) for width in (20, 80)] for case in cases]
                 + [pretty_repr(Item("deep", [[[1]]]), max_depth=2)]))
"""


@pytest.mark.parametrize("pure", [False, True])
def test_named_tuples_print_the_same_with_the_opt_in(pure):
    """
    rich prints a process's named tuples as before when RECORDS_NAMEDTUPLE=1
    gives them records.namedtuple: rich tells a named tuple's own __repr__
    from collections' by inspect.getfile of its __repr__, which must answer.
    """
    import os
    import subprocess
    import sys

    outputs = []
    for opt_in in (None, "1"):
        environment = {k: v for k, v in os.environ.items() if k != "RECORDS_NAMEDTUPLE"}
        environment["RECORDS_PURE_PYTHON"] = "1" if pure else "0"
        if opt_in is not None:
            environment["RECORDS_NAMEDTUPLE"] = opt_in
        check = (
            "import collections, sys; sys.exit('records' not in collections.namedtuple.__module__)"
        )
        result = subprocess.run(
            [sys.executable, "-c", check if opt_in else "pass"], env=environment, check=False
        )
        assert result.returncode == 0, "the opt-in did not take (is records installed?)"
        result = subprocess.run(
            [sys.executable, "-c", RICH_CASES],
            env=environment,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1]
