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

from records import _migrate, _migrate_check, _migrate_transform

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
    ran = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    assert 0 == ran.returncode, ran.stderr
    return ran.stdout


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


def test_the_check_reads_what_each_definition_holds():
    """
    What a class holds is read with the rules of its base: the body of a
    class statement on NamedTuple or Record, the call of a functional form
    (whose class body adds no field to a NamedTuple, and adds them to
    ``Record.define(...)``), and the arguments of a ``namedtuple`` call.
    """
    old = textwrap.dedent(
        """
        class A(NamedTuple):
            x: int
            y: int = 0
            z: "ClassVar[int]" = 1

        class B(NamedTuple("B", [("x", int), ("y", str)])):
            z: int = 0

        C = namedtuple("C", "x, y z", defaults=[1, 2])
        D = namedtuple("D", ["x", "y"], defaults=FIELDS)
        """
    )
    new = (
        old.replace("A(NamedTuple)", "A(Record)")
        .replace('NamedTuple("B"', 'Record.define("B"')
        .replace("namedtuple(", "records.namedtuple(")
    )
    assert [
        ("class 'A' (line 2)", "x, y=0, z=1", "x, y=0"),
        ("class 'B' (line 7)", "x, y", "x, y, z=0"),
        ("NamedTuple 'B' (line 7)", "x, y", "x, y"),
        ("namedtuple 'C' (line 10)", "x, y=1, z=2", "x, y=1, z=2"),
        ("namedtuple 'D' (line 11)", "x, y; defaults=FIELDS", "x, y; defaults=FIELDS"),
    ] == [
        (what, str(before), str(after))
        for what, before, after in _migrate_check.holdings(old.encode(), new.encode())
    ]


def test_a_class_whose_base_lost_its_fields_is_refused():
    """
    A class on a functional form rewritten to a Record without its fields
    (what the command once did) is refused, the class and its fields named.
    """
    old = b"""
class Url(typing.NamedTuple("Url", [("scheme", Optional[str]), ("host", str)])):
    def __new__(cls, scheme=None, host="localhost"):
        return super().__new__(cls, scheme, host)
"""
    new = old.replace(
        b'typing.NamedTuple("Url", [("scheme", Optional[str]), ("host", str)])', b"Record"
    )
    with pytest.raises(_migrate_check.ChangedFieldsError) as refused:
        _migrate_check.check(old, new)
    assert (
        "the rewrite would change what class 'Url' (line 2) holds: scheme, host before, () "
        "after: nothing written"
    ) == str(refused.value)


def _force(monkeypatch, old, new):
    """Make the rewrite also replace *old* by *new* in what it writes."""
    write = _migrate_transform._Writer.write

    def forced(self, changes):
        return write(self, changes).replace(old.encode(), new.encode())

    monkeypatch.setattr(_migrate_transform._Writer, "write", forced)


MODULE = """
    import collections
    from typing import NamedTuple


    class Point(NamedTuple):
        x: int
        y: int = 0


    Row = collections.namedtuple("Row", "id name", defaults=["?"])
    """


@pytest.mark.parametrize(
    ("old", "new", "change"),
    [
        pytest.param(
            "    y: int = 0\n",
            "",
            "what class 'Point' (line 5) holds: x, y=0 before, x after",
            id="a field dropped",
        ),
        pytest.param(
            "    x: int\n    y: int = 0\n",
            "    y: int = 0\n    x: int\n",
            "what class 'Point' (line 5) holds: x, y=0 before, y=0, x after",
            id="two fields swapped",
        ),
        pytest.param(
            "y: int = 0",
            "y: int = 1",
            "what class 'Point' (line 5) holds: x, y=0 before, x, y=1 after",
            id="a default changed",
        ),
        pytest.param(
            '"id name"',
            '"id"',
            "what namedtuple 'Row' (line 10) holds: id, name='?' before, id='?' after",
            id="a namedtuple's field dropped",
        ),
        pytest.param(
            "class Point(Record):",
            "class Point(Record, Extra):",
            "more than one base of class 'Point' (line 5)",
            id="a base added",
        ),
        pytest.param(
            "Row = ",
            "Row = tuple(), ",
            "the module's calls: 1 before, 2 after",
            id="a call added",
        ),
    ],
)
@pytest.mark.parametrize("dry_run", [False, True], ids=["writing", "dry run"])
def test_a_rewrite_that_changes_what_a_class_holds_is_refused(
    tmp_path, capsys, monkeypatch, old, new, change, dry_run
):
    """
    Before it writes a file, the command reads again what each class it
    rewrote holds; where that changed, it names the file, the class and the
    change, writes nothing there (nor reports the file's rewrites), exits
    with 1, and still migrates the other files.
    """
    path = write(tmp_path, "shapes.py", MODULE)
    other = write(tmp_path, "other.py", "import typing\nclass A(typing.NamedTuple):\n    x: int\n")
    original = path.read_text(encoding="utf-8")
    _force(monkeypatch, old, new)
    status, lines = migrate(capsys, *(["--dry-run"] if dry_run else []), tmp_path)
    assert 1 == status
    verb = "would change" if dry_run else "changed"
    assert [
        f"{other}:2: class A(typing.NamedTuple) -> Record",
        f"{path}: not migrated: the rewrite would change {change}: nothing written",
        f"{verb} 1 definition in 1 file of 2; left 0 (see above).",
        AFTERWARDS,
    ] == lines
    assert original == path.read_text(encoding="utf-8")
    assert ("class A(Record)" in other.read_text(encoding="utf-8")) is not dry_run
