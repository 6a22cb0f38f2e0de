"""
``python -m records migrate`` never changes what a class holds: a class
built on a functional form (``typing.NamedTuple("X", [...])``,
``collections.namedtuple("X", ...)``) keeps its fields, its ``__new__`` and
its methods, and the command refuses to write a file where a rewritten
class would hold other fields, in another order or with other defaults.
"""

import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("libcst", reason="libcst comes with the migrate extra (CPython envs)")

from records import _migrate

AFTERWARDS = _migrate.AFTERWARDS

#: The classes of the tests below: each on a functional form, with a
#: __new__ of its own (a default, and a count of its runs), a property, and
#: a result that shows how they behave.
FUNCTIONAL_BASES = '''
    import collections
    import copy
    import pickle
    import typing
    from typing import NamedTuple, Optional

    RUNS = []


    class Url(typing.NamedTuple("Url", [("scheme", Optional[str]), ("host", str)])):
        """A URL."""

        __slots__ = ()

        def __new__(cls, scheme=None, host="localhost"):
            RUNS.append("Url")
            return super().__new__(cls, scheme, host)

        @property
        def text(self):
            return f"{self.scheme or 'http'}://{self.host}"


    class Pair(collections.namedtuple("Pair", "left right", defaults=[0])):
        __slots__ = ()

        def __new__(cls, left, right=1):
            RUNS.append("Pair")
            return super().__new__(cls, left, right)

        @property
        def total(self):
            return self.left + self.right


    _Span = NamedTuple("_Span", [("start", int), ("end", int)])


    class Span(_Span):
        __slots__ = ()

        def __new__(cls, start, end=None):
            RUNS.append("Span")
            return super().__new__(cls, start, start if end is None else end)

        @property
        def length(self):
            return self.end - self.start


    _Cell = collections.namedtuple("_Cell", ["row", "column"], defaults=(0,))


    class Cell(_Cell):
        __slots__ = ()

        @property
        def name(self):
            return f"{self.row}:{self.column}"


    def behaviour(cls, *args):
        RUNS.clear()
        value = cls(*args)
        made = list(RUNS)
        copies = [copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))]
        return [
            repr(value), tuple(value), cls._fields, cls._field_defaults, made,
            [repr(each) for each in copies], all(each == value for each in copies),
            len(RUNS), repr(value._replace(**{cls._fields[0]: 7})),
            isinstance(value, tuple), hasattr(value, "__dict__"), cls.__doc__,
        ]


    result = [
        behaviour(Url), behaviour(Url, "https", "example.org"), Url().text,
        behaviour(Pair, 1), Pair(2).total, behaviour(Span, 3), Span(3, 5).length,
        behaviour(Cell, 4), Cell(4).name,
    ]
    '''


def write(folder, name, source):
    path = folder / name
    path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
    return path


def migrate(capsys, *args):
    """Run the command in this process; return its exit status and output lines."""
    status = _migrate.main([str(arg) for arg in args])
    return status, capsys.readouterr().out.splitlines()


def run(path):
    """Run the module at *path* in a fresh process; return what its ``result`` prints."""
    code = f"import runpy; print(runpy.run_path({str(path)!r})['result'])"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(path.parent), *sys.path])}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    ).stdout


def test_a_class_on_a_functional_form_is_reported_once(tmp_path, capsys):
    """
    A class whose base is ``typing.NamedTuple("X", [...])`` is left, with
    one line that says why; a ``collections.namedtuple(...)`` base becomes
    ``records.namedtuple(...)``, the drop-in; each class is reported once.
    """
    path = write(tmp_path, "functional.py", FUNCTIONAL_BASES)
    status, lines = migrate(capsys, path)
    assert 0 == status
    assert [
        f'{path}:10: left class Url(typing.NamedTuple("Url", ...)): its base is the functional '
        "form, which records has no base for that mypy reads as a tuple (Record.define(...) is "
        "a dynamic base class there): declare the fields in the body of a Record by hand",
        f'{path}:24: collections.namedtuple("Pair", ...) -> records.namedtuple',
        f'{path}:36: left NamedTuple("_Span", ...): the functional form; its records spelling '
        "is Record.define(name, fields), by hand",
        f'{path}:51: collections.namedtuple("_Cell", ...) -> records.namedtuple',
        "changed 2 definitions in 1 file of 1; left 2 (see above).",
        AFTERWARDS,
    ] == lines
    text = path.read_text(encoding="utf-8")
    assert 'class Url(typing.NamedTuple("Url", [("scheme", Optional[str]), ("host", str)])):' in (
        text
    )
    assert 'class Pair(records.namedtuple("Pair", "left right", defaults=[0])):' in text


def test_classes_on_functional_forms_behave_as_before(tmp_path, capsys):
    """
    Migrated, each class on a functional form holds the same fields and
    defaults, and its ``__new__``, properties, copies, pickles and
    ``_replace`` give what they gave.
    """
    path = write(tmp_path, "functional.py", FUNCTIONAL_BASES)
    before = run(path)
    status, _ = migrate(capsys, path)
    assert 0 == status
    assert before == run(path)
    # The migrated module reads the fields of each class as it did.
    assert "('scheme', 'host')" in before
    assert "{'right': 0}" in before
