"""
The ``records.as_namedtuple`` twin of ``records_examples.py``, made from it.

The records rows with ``Record`` imported from ``records.as_namedtuple``,
which type checkers read as ``typing.NamedTuple``, and the functional form
spelled as that module spells it (``define(...)``, where a named tuple has
no ``define``): what each checker understands of records through the view
that needs no checker setting. Nothing else changes, so the rows, their
docstrings and their ``# E`` marks are the same by construction.
"""

from __future__ import annotations

import ast

#: The name the twin has where the checkers read it.
MODULE = "as_namedtuple_examples.py"

DOCSTRING = '''"""
The rows of ``records_examples.py`` with ``Record`` from ``records.as_namedtuple``.

The same behaviours and the same ``# E`` marks: what a type checker
understands of records through ``records.as_namedtuple``, whose ``Record`` is
``typing.NamedTuple`` to the checkers that do not run the records mypy plugin.
"""'''

#: The import line and the functional form, and their as_namedtuple spellings.
SPELLINGS = [
    (
        "from records import Record, field\n",
        "from records.as_namedtuple import Record, define, field\n",
    ),
    ("Record.define(", "define("),
]


def twin(records_examples: str) -> str:
    """The source of the twin of *records_examples*, the text of ``records_examples.py``."""
    end = ast.parse(records_examples).body[0].end_lineno
    text = DOCSTRING + "\n" + "".join(records_examples.splitlines(keepends=True)[end:])
    for spelling, replacement in SPELLINGS:
        assert spelling in text, f"the records examples no longer spell {spelling!r}"
        text = text.replace(spelling, replacement)
    return text
