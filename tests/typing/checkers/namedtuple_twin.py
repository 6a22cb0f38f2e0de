"""
The ``typing.NamedTuple`` twin of ``records_examples.py``, made from it.

The checkers also read the rows written with ``typing.NamedTuple``: what
they understand of the standard library's named tuples, the anchor the
records rows are compared with. The twin is the records examples with each
spelling of records replaced by the standard library's (``SPELLINGS``), so
its rows, their docstrings and their ``# E`` marks are the same by
construction.
"""

from __future__ import annotations

import ast

#: The name the twin has where the checkers read it.
MODULE = "namedtuple_examples.py"

DOCSTRING = '''"""
The rows of ``records_examples.py`` written with ``typing.NamedTuple``.

The same behaviours and the same ``# E`` marks: what a type checker
understands of the standard library's named tuples, the anchor the records
rows are compared with. Where a named tuple cannot do what a row asks (add
fields in a subclass, define ``__new__``, mix in a class), the row is
written as a user would try it, and the checker's answer is recorded all the
same. Only type checkers read this module; it does not run.
"""'''

#: Each spelling of records in the records examples, and the standard
#: library's in its place.
SPELLINGS = [
    (
        "from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar\n",
        "from collections import namedtuple\n"
        "from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, TypeVar\n",
    ),
    ("from records import Record, field\n", ""),
    ("(Record)", "(NamedTuple)"),
    ("(Record, ", "(NamedTuple, "),
    ('field(default=0, doc="How many.")', "0"),
    ("field(default_factory=list)", "[]"),
    (
        'Record.define("Pixel", [("x", int), ("y", int)], defaults={"y": 0})',
        'namedtuple("Pixel", ["x", "y"], defaults=[0])',
    ),
    ('records.namedtuple("Pair", ', 'namedtuple("Pair", '),
]


def twin(records_examples: str) -> str:
    """The source of the twin of *records_examples*, the text of ``records_examples.py``."""
    end = ast.parse(records_examples).body[0].end_lineno
    text = DOCSTRING + "\n" + "".join(records_examples.splitlines(keepends=True)[end:])
    for spelling, standard in SPELLINGS:
        assert spelling in text, f"the records examples no longer spell {spelling!r}"
        text = text.replace(spelling, standard)
    left = sorted(
        node.lineno
        for node in ast.walk(ast.parse(text))
        if (isinstance(node, ast.Name) and node.id in ("Record", "field"))
        or (isinstance(node, ast.Attribute) and ast.unparse(node) == "records.namedtuple")
    )
    assert not left, f"{MODULE}, lines {left}: a spelling of records that SPELLINGS lacks"
    return text
