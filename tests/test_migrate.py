"""
``python -m records migrate``: what it rewrites, what it leaves and why, and
that the migrated code behaves as before.

The rewrite needs libcst (the ``migrate`` extra), which every CPython env of
the test command installs; PyPy runs without it.
"""

import ast
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("libcst", reason="libcst comes with the migrate extra (CPython envs)")

import libcst
import libcst.metadata

from records import _migrate

AFTERWARDS = _migrate.AFTERWARDS


def write(folder, name, source):
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
    return path


def migrate(capsys, *args):
    """Run the command in this process; return its exit status and output lines."""
    status = _migrate.main([str(arg) for arg in args])
    return status, capsys.readouterr().out.splitlines()


def test_named_tuple_classes_in_every_spelling(tmp_path, capsys):
    """Each way of naming typing's or typing_extensions' NamedTuple becomes Record."""
    path = write(
        tmp_path,
        "shapes.py",
        '''
        """Shapes. A docstring that says class X(NamedTuple) is left alone."""
        import typing
        import typing_extensions as te
        from typing import NamedTuple
        from typing_extensions import NamedTuple as NT


        class A(NamedTuple):  # a comment that stays
            x: int
            y: int = 0


        class B(typing.NamedTuple):
            x: int


        class C(te.NamedTuple):
            x: int


        class E(NT):
            """E's docstring."""

            x: int

            def double(self) -> "E":
                return E(2 * self.x)


        text = "class X(NamedTuple)"
        ''',
    )
    status, lines = migrate(capsys, path)
    assert 0 == status
    assert [
        f"{path}:8: class A(NamedTuple) -> Record",
        f"{path}:13: class B(typing.NamedTuple) -> Record",
        f"{path}:17: class C(te.NamedTuple) -> Record",
        f"{path}:21: class E(NT) -> Record",
        "changed 4 definitions in 1 file of 1; left 0 (see above).",
        AFTERWARDS,
    ] == lines
    assert textwrap.dedent(
        '''
            """Shapes. A docstring that says class X(NamedTuple) is left alone."""
            from records import Record


            class A(Record):  # a comment that stays
                x: int
                y: int = 0


            class B(Record):
                x: int


            class C(Record):
                x: int


            class E(Record):
                """E's docstring."""

                x: int

                def double(self) -> "E":
                    return E(2 * self.x)


            text = "class X(NamedTuple)"
            '''
    ).lstrip("\n") == path.read_text(encoding="utf-8")


def test_namedtuple_calls_in_every_spelling(tmp_path, capsys):
    """Each way of calling collections.namedtuple becomes records.namedtuple."""
    path = write(
        tmp_path,
        "points.py",
        """
        import collections as c
        from collections import OrderedDict, namedtuple
        from collections import namedtuple as nt

        Q = c.namedtuple("Q", ["x", "y"], defaults=[0])
        R = namedtuple("R", "x, y", rename=True)


        class S(nt("S", "x y")):  # the subclassing idiom
            __slots__ = ()

        ORDER = OrderedDict()
        """,
    )
    status, lines = migrate(capsys, path)
    assert 0 == status
    assert [
        f'{path}:5: c.namedtuple("Q", ...) -> records.namedtuple',
        f'{path}:6: namedtuple("R", ...) -> records.namedtuple',
        f'{path}:9: nt("S", ...) -> records.namedtuple',
        "changed 3 definitions in 1 file of 1; left 0 (see above).",
        AFTERWARDS,
    ] == lines
    assert textwrap.dedent(
        """
            from collections import OrderedDict
            import records

            Q = records.namedtuple("Q", ["x", "y"], defaults=[0])
            R = records.namedtuple("R", "x, y", rename=True)


            class S(records.namedtuple("S", "x y")):  # the subclassing idiom
                __slots__ = ()

            ORDER = OrderedDict()
            """
    ).lstrip("\n") == path.read_text(encoding="utf-8")


def test_the_comments_above_a_removed_import_stay(tmp_path, capsys):
    """
    The comment lines above an import the rewrite removes stay, above the
    statement after it or at the end of its block: rfc3986's licence, under
    its modules' docstrings, went with ``from collections import namedtuple``.
    """
    path = write(
        tmp_path,
        "uri.py",
        '''
        """A module."""
        # Copyright (c) 2014 Rackspace
        # Licensed under the Apache License, Version 2.0
        from collections import namedtuple

        import os

        if os.name:
            X = 1
            # the block's last import
            from typing import NamedTuple


        class P(namedtuple("P", "x y")):
            pass


        class Q(NamedTuple):
            a: int
        ''',
    )
    status, _ = migrate(capsys, path)
    assert 0 == status
    assert textwrap.dedent(
        '''
            """A module."""
            # Copyright (c) 2014 Rackspace
            # Licensed under the Apache License, Version 2.0

            import os
            import records
            from records import Record

            if os.name:
                X = 1
                # the block's last import


            class P(records.namedtuple("P", "x y")):
                pass


            class Q(Record):
                a: int
            '''
    ).lstrip("\n") == path.read_text(encoding="utf-8")


def test_imports_still_used_stay(tmp_path, capsys):
    """An import the module still uses is kept; only the rewritten name goes."""
    path = write(
        tmp_path,
        "mixed.py",
        """
        from typing import List, NamedTuple


        class A(NamedTuple):
            x: List[int]


        B = NamedTuple("B", [("x", int)])
        """,
    )
    status, lines = migrate(capsys, path)
    assert 0 == status
    assert [
        f"{path}:4: class A(NamedTuple) -> Record",
        f'{path}:8: left NamedTuple("B", ...): the functional form; its records spelling is '
        "Record.define(name, fields), by hand",
        "changed 1 definition in 1 file of 1; left 1 (see above).",
        AFTERWARDS,
    ] == lines
    assert textwrap.dedent(
        """
            from typing import List, NamedTuple
            from records import Record


            class A(Record):
                x: List[int]


            B = NamedTuple("B", [("x", int)])
            """
    ).lstrip("\n") == path.read_text(encoding="utf-8")


def test_a_module_with_its_own_record(tmp_path, capsys):
    """Where Record means something else, the base is spelled records.Record."""
    path = write(
        tmp_path,
        "db.py",
        """
        from typing import NamedTuple


        class Record:
            pass


        class Row(NamedTuple):
            id: int
        """,
    )
    status, lines = migrate(capsys, path)
    assert 0 == status
    assert f"{path}:8: class Row(NamedTuple) -> records.Record" == lines[0]
    assert "class Row(records.Record):" in path.read_text(encoding="utf-8")
    assert path.read_text(encoding="utf-8").startswith("import records\n")


def test_a_module_with_its_own_record_and_records(tmp_path, capsys):
    """Where both names mean something else, the class is left, with the reason."""
    source = """
        import collections
        from typing import NamedTuple

        records = []


        class Record:
            pass


        class Row(NamedTuple):
            id: int


        Pair = collections.namedtuple("Pair", "a b")
        """
    path = write(tmp_path, "db.py", source)
    status, lines = migrate(capsys, path)
    assert 0 == status
    assert [
        f"{path}:11: left class Row(NamedTuple): the names Record and records both mean "
        "something else here",
        f'{path}:15: left collections.namedtuple("Pair", ...): the name records means '
        "something else here",
        "changed 0 definitions in 0 files of 1; left 2 (see above).",
    ] == lines
    assert textwrap.dedent(source).lstrip("\n") == path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (
            "items: list = []",
            "the default [] of field 'items' is mutable, which records refuses (every "
            "instance would share it): give it field(default_factory=...) by hand",
        ),
        (
            "items: dict = dict()",
            "the default dict() of field 'items' is mutable, which records refuses (every "
            "instance would share it): give it field(default_factory=...) by hand",
        ),
        (
            "x: int\n\ndef __post_init__(self):\n    pass",
            "it defines __post_init__, which records refuses in a record's body",
        ),
        (
            "x: int\nkind: 'ClassVar[str]' = 'a'",
            "it annotates 'kind' as a ClassVar, which typing.NamedTuple makes a field and "
            "records does not",
        ),
        (
            "items: dict = collections.OrderedDict()",
            "the default collections.OrderedDict() of field 'items' is mutable, which records "
            "refuses (every instance would share it): give it field(default_factory=...) by hand",
        ),
        (
            "items: list = [0] * 3",
            "the default an operation on a mutable value of field 'items' is mutable, which "
            "records refuses (every instance would share it): give it "
            "field(default_factory=...) by hand",
        ),
        (
            "items: set = {n for n in range(3)}",
            "the default comprehension of field 'items' is mutable, which records refuses "
            "(every instance would share it): give it field(default_factory=...) by hand",
        ),
        (
            "x: int\nif True:\n    items: list = []",
            "the default [] of field 'items' is mutable, which records refuses (every "
            "instance would share it): give it field(default_factory=...) by hand",
        ),
    ],
    ids=["list-display", "dict-call", "post-init", "class-var", "ordered-dict", "operation",
         "comprehension", "under-if"],
)  # fmt: skip
def test_classes_records_would_build_differently_are_left(tmp_path, capsys, body, reason):
    """A body records refuses or would treat differently is left as it is, saying why."""
    source = "import collections\nfrom typing import NamedTuple\n\n\nclass A(NamedTuple):\n"
    source += textwrap.indent(body, "    ")
    path = tmp_path / "a.py"
    path.write_text(source + "\n", encoding="utf-8")
    status, lines = migrate(capsys, path)
    assert 0 == status
    assert [
        f"{path}:5: left class A(NamedTuple): {reason}",
        "changed 0 definitions in 0 files of 1; left 1 (see above).",
    ] == lines
    assert source + "\n" == path.read_text(encoding="utf-8")


def test_subclasses_in_other_modules_are_read_first(tmp_path, capsys):
    """A subclass that annotates names keeps its NamedTuple base, wherever it is."""
    package = tmp_path / "src" / "shop"
    write(package, "__init__.py", "")
    base = write(
        package,
        "base.py",
        """
        from typing import NamedTuple


        class Price(NamedTuple):
            amount: int


        class Name(NamedTuple):
            text: str


        class Size(NamedTuple):
            width: int


        class Weight(NamedTuple):
            grams: int
        """,
    )
    child = write(
        package,
        "items.py",
        """
        from functools import cached_property

        from .base import Name, Price, Size
        from shop import base


        class TaxedPrice(Price):
            tax: int = 0  # a field for records, a plain annotation for NamedTuple


        class ShortName(Name):
            def shorten(self):
                self.short = self.text[:3]


        class LazySize(Size):
            @cached_property
            def area(self):
                return self.width**2


        class SlottedWeight(base.Weight):
            __slots__ = ()

            def kilos(self):
                return self.grams / 1000
        """,
    )
    status, lines = migrate(capsys, tmp_path)
    assert 0 == status
    assert [
        f"{base}:4: left class Price(NamedTuple): its subclass TaxedPrice ({child}:7) annotates "
        "'tax', which records would make a field (a NamedTuple subclass cannot add fields)",
        f"{base}:8: left class Name(NamedTuple): its subclass ShortName ({child}:11) keeps "
        "attributes on its instances (shorten() sets self.short), and record instances have "
        "no __dict__",
        f"{base}:12: left class Size(NamedTuple): its subclass LazySize ({child}:16) keeps "
        "attributes on its instances (its cached_property 'area'), and record instances have "
        "no __dict__",
        f"{base}:16: class Weight(NamedTuple) -> Record",
        "changed 1 definition in 1 file of 3; left 3 (see above).",
        AFTERWARDS,
    ] == lines


def test_subclass_of_a_subclass_is_read_too(tmp_path, capsys):
    """A field added two generations down keeps the NamedTuple base too."""
    path = write(
        tmp_path,
        "family.py",
        """
        from typing import NamedTuple


        def make():
            class Base(NamedTuple):
                a: int

            class Middle(Base):
                pass

            class Last(Middle):
                b: int = 0

            return Last
        """,
    )
    status, lines = migrate(capsys, path)
    assert 0 == status
    assert (
        f"{path}:5: left class Base(NamedTuple): its subclass make.<locals>.Last ({path}:11) "
        "annotates 'b', which records would make a field (a NamedTuple subclass cannot add "
        "fields)" == lines[0]
    )


def test_uses_it_cannot_rewrite_are_reported(tmp_path, capsys):
    """Values, functional forms and names it cannot resolve are left, one line each."""
    path = write(
        tmp_path,
        "uses.py",
        """
        import collections
        import typing
        from somewhere import *
        from mylib.compat import namedtuple as compat_namedtuple


        def is_named_tuple_class(cls):
            return typing.NamedTuple in getattr(cls, "__orig_bases__", ())


        factory = collections.namedtuple
        Loose = compat_namedtuple("Loose", "a b")


        class Starred(NamedTuple):
            a: int
        """,
    )
    original = path.read_text(encoding="utf-8")
    status, lines = migrate(capsys, path)
    assert 0 == status
    assert [
        f"{path}:8: left typing.NamedTuple: typing.NamedTuple used as a value, neither a base "
        "nor a call (code that tests for the standard library's classes, or passes it on)",
        f"{path}:11: left collections.namedtuple: collections.namedtuple used as a value, "
        "neither a base nor a call (code that tests for the standard library's classes, or "
        "passes it on)",
        f"{path}:12: left compat_namedtuple: a call left as it is: it is mylib.compat.namedtuple",
        f"{path}:15: left NamedTuple: a NamedTuple base left as it is: its import cannot be "
        "resolved",
        "changed 0 definitions in 0 files of 1; left 4 (see above).",
    ] == lines
    assert original == path.read_text(encoding="utf-8")


def test_second_run_changes_nothing(tmp_path, capsys):
    """The rewrite is idempotent: a second run writes nothing and reports what it left."""
    write(
        tmp_path,
        "m.py",
        """
        import collections
        from typing import NamedTuple


        class A(NamedTuple):
            x: int


        class Left(NamedTuple):
            x: list = []


        P = collections.namedtuple("P", "x")
        """,
    )
    migrate(capsys, tmp_path)
    after = (tmp_path / "m.py").read_bytes()
    status, lines = migrate(capsys, tmp_path)
    assert 0 == status
    assert after == (tmp_path / "m.py").read_bytes()
    assert "changed 0 definitions in 0 files of 1; left 1 (see above)." == lines[-1]


def test_dry_run_and_diff_write_nothing(tmp_path, capsys):
    """--dry-run reports what would change; --diff prints it; the file stays."""
    source = "from typing import NamedTuple\n\n\nclass A(NamedTuple):\n    x: int\n"
    path = tmp_path / "a.py"
    path.write_text(source, encoding="utf-8")
    status, lines = migrate(capsys, "--dry-run", "--diff", path)
    assert 0 == status
    assert source == path.read_text(encoding="utf-8")
    assert [
        f"{path}:4: class A(NamedTuple) -> Record",
        f"--- {path}",
        f"+++ {path}",
        "@@ -1,5 +1,5 @@",
        "-from typing import NamedTuple",
        "+from records import Record",
        " ",
        " ",
        "-class A(NamedTuple):",
        "+class A(Record):",
        "     x: int",
        "would change 1 definition in 1 file of 1; left 0 (see above).",
        AFTERWARDS,
    ] == lines


def test_unparsable_file_is_reported_and_the_others_migrated(tmp_path, capsys):
    """A file libcst cannot parse is named, exit status 1; the rest is still migrated."""
    broken = write(tmp_path, "broken.py", "from typing import NamedTuple\ndef f(:\n")
    good = write(
        tmp_path, "good.py", "from typing import NamedTuple\nclass A(NamedTuple):\n x: int\n"
    )
    status, lines = migrate(capsys, tmp_path)
    assert 1 == status
    assert lines[0].startswith(f"{broken}: not migrated: Syntax Error @ 2:")
    assert f"{good}:2: class A(NamedTuple) -> Record" == lines[1]
    assert "class A(Record):" in good.read_text(encoding="utf-8")


def test_folders_it_does_not_enter(tmp_path, capsys):
    """Hidden folders, caches, virtual environments and build output are not migrated."""
    source = "from typing import NamedTuple\nclass A(NamedTuple):\n x: int\n"
    for folder in (".git", "__pycache__", "venv", "build", "pkg/dist"):
        write(tmp_path / folder, "m.py", source)
    (tmp_path / "venv" / "pyvenv.cfg").write_text("", encoding="utf-8")
    write(tmp_path / "pkg", "__init__.py", "")
    package_build = write(tmp_path / "pkg" / "build", "steps.py", source)
    write(tmp_path / "pkg" / "build", "__init__.py", "")
    status, lines = migrate(capsys, tmp_path)
    assert 0 == status
    # A build folder that is a package of the code is code: it is migrated.
    assert [
        f"{package_build}:2: class A(NamedTuple) -> Record",
        "changed 1 definition in 1 file of 3; left 0 (see above).",
        AFTERWARDS,
    ] == lines


def test_usage_errors():
    """A missing path and a missing PATH are usage errors (exit status 2), named."""
    result = subprocess.run(
        [sys.executable, "-m", "records", "migrate", "no/such/place"],
        capture_output=True,
        text=True,
    )
    assert 2 == result.returncode
    assert result.stderr.endswith("error: no such file or folder: no/such/place\n")
    result = subprocess.run(
        [sys.executable, "-m", "records", "migrate"], capture_output=True, text=True
    )
    assert 2 == result.returncode
    assert "error: the following arguments are required: PATH" in result.stderr


def test_without_libcst_says_how_to_get_it(tmp_path):
    """Without libcst the command says which extra brings it, exit status 2."""
    code = (
        "import sys; sys.modules['libcst'] = None\n"
        "from records import __main__\n"
        f"sys.exit(__main__.main(['migrate', {str(tmp_path)!r}]))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert 2 == result.returncode
    assert (
        "python -m records migrate needs libcst: pip install 'records-tuple[migrate]'\n"
        == result.stderr
    )


def test_migrated_code_behaves_as_before(tmp_path, capsys):
    """The module runs the same before and after: values, reprs, fields, pickles."""
    source = '''
        import collections
        import pickle
        from typing import Generic, NamedTuple, TypeVar

        T = TypeVar("T")


        class Point(NamedTuple):
            """A point."""

            x: int
            y: int = 0

            def norm2(self):
                return self.x**2 + self.y**2


        class Pair(NamedTuple, Generic[T]):
            first: T
            second: T


        Row = collections.namedtuple("Row", "id name", defaults=["?"])


        class Labelled(Point):
            __slots__ = ()

            def label(self):
                return f"{self.x},{self.y}"


        p = Point(3, 4)
        result = [
            repr(p), p.norm2(), p._replace(y=1), p._asdict(), Point._fields,
            Point._field_defaults, Point.__doc__, Point._make([1, 2]), tuple(p),
            pickle.loads(pickle.dumps(p)) == p, repr(Pair(1, 2)), repr(Row(1)),
            Row._field_defaults, Labelled(1, 2).label(), repr(Labelled(1, 2)),
            isinstance(p, tuple), p == (3, 4), hash(p) == hash((3, 4)),
        ]
        '''
    if sys.version_info < (3, 11):  # typing.NamedTuple takes Generic from 3.11
        source = source.replace(", Generic[T]", "")
    path = write(tmp_path, "module.py", source)

    def results():
        code = f"import runpy; print(runpy.run_path({str(path)!r})['result'])"
        env = {**os.environ, "PYTHONPATH": str(tmp_path)}
        return subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
        ).stdout

    before = results()
    status, lines = migrate(capsys, path)
    assert 0 == status
    assert f"{path}:8: class Point(NamedTuple) -> Record" in lines
    assert "class Point(Record):" in path.read_text(encoding="utf-8")
    assert before == results()


@pytest.mark.slow
def test_relative_paths(tmp_path):
    """Paths are taken relative to where the command runs; a file given twice is read once."""
    write(tmp_path, "pkg/m.py", "import typing\nclass A(typing.NamedTuple):\n x: int\n")
    result = subprocess.run(
        [sys.executable, "-m", "records", "migrate", "pkg/m.py", "pkg"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert 0 == result.returncode, result.stderr
    assert [
        "pkg/m.py:2: class A(typing.NamedTuple) -> Record",
        "changed 1 definition in 1 file of 1; left 0 (see above).",
        AFTERWARDS,
    ] == result.stdout.splitlines()


@pytest.mark.slow
def test_the_documented_example(tmp_path):
    """docs/pages/migrate.md shows a module, the command's report and the result: all true."""
    page = (Path(__file__).parent.parent / "docs" / "pages" / "migrate.md").read_text("utf-8")
    blocks = re.findall(r"^```(\w+)\n(.*?)^```", page, re.MULTILINE | re.DOTALL)
    (before, after), (report,) = (
        [body for kind, body in blocks if kind == "python"],
        [body for kind, body in blocks if kind == "text"],
    )
    (tmp_path / "shapes.py").write_text(before, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "records", "migrate", "shapes.py"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        check=True,
    )
    assert report == result.stdout
    assert after == (tmp_path / "shapes.py").read_text(encoding="utf-8")


SUBCLASS_REASON_END = {
    "make": "defines _make, which namedtuple's _replace calls and records' does not",
    "init": "defines __init__, which records refuses in a record's body",
    "post-init": "defines __post_init__, which records refuses in a record's body",
    "fields": "defines _fields, which records refuses in a record's body",
    "new": "defines __new__, which copy.copy() and copy.deepcopy() run again on a NamedTuple "
    "and not on a record",
}
STATE = "keeps attributes on its instances ({}), and record instances have no __dict__"


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("@classmethod\ndef _make(cls, iterable):\n    return super()._make(iterable)",
         SUBCLASS_REASON_END["make"]),
        ("def __init__(self, *args):\n    pass", SUBCLASS_REASON_END["init"]),
        ("def __post_init__(self):\n    pass", SUBCLASS_REASON_END["post-init"]),
        ("_fields = ('x',)", SUBCLASS_REASON_END["fields"]),
        ("def __new__(cls, x):\n    return super().__new__(cls, 2 * x)",
         SUBCLASS_REASON_END["new"]),
        ("def f(self):\n    self.a, self.b = 1, 2", STATE.format("f() sets self.a")),
        ("def f(self):\n    setattr(self, 'a', 1)", STATE.format("f() calls setattr()")),
        ("def f(self):\n    object.__setattr__(self, 'a', 1)",
         STATE.format("f() calls object.__setattr__()")),
        ("def f(self):\n    self.__dict__['a'] = 1", STATE.format("f() writes self.__dict__")),
        ("def f(me):\n    for me.i in range(3):\n        pass", STATE.format("f() sets me.i")),
        ("def f(self, path):\n    with open(path) as self.file:\n        pass",
         STATE.format("f() sets self.file")),
    ],
    ids=["make", "init", "post-init", "fields", "new", "tuple-target", "setattr",
         "object-setattr", "dict", "for-target", "with-target"],
)  # fmt: skip
def test_subclass_bodies_records_would_treat_differently(tmp_path, capsys, body, reason):
    """A subclass whose body records refuses, or whose instances keep state, keeps its base."""
    source = (
        "from typing import NamedTuple\n\n\nclass A(NamedTuple):\n    x: int\n\n\nclass B(A):\n"
    )
    path = tmp_path / "a.py"
    path.write_text(source + textwrap.indent(body, "    ") + "\n", encoding="utf-8")
    status, lines = migrate(capsys, path)
    assert 0 == status
    assert [
        f"{path}:4: left class A(NamedTuple): its subclass B ({path}:8) {reason}",
        "changed 0 definitions in 0 files of 1; left 1 (see above).",
    ] == lines


def test_subclass_bodies_records_builds_the_same(tmp_path, capsys):
    """Class-level state, and a subclass with __slots__, keep nothing on instances."""
    path = write(
        tmp_path,
        "a.py",
        """
        from typing import NamedTuple


        class A(NamedTuple):
            x: int


        class Counted(A):
            @classmethod
            def count(cls):
                cls.counter = 1


        class B(NamedTuple):
            x: int


        class Slotted(B):
            __slots__ = ()

            def double(self):
                return B(2 * self.x)
        """,
    )
    status, lines = migrate(capsys, path)
    assert 0 == status
    assert [
        f"{path}:4: class A(NamedTuple) -> Record",
        f"{path}:14: class B(NamedTuple) -> Record",
    ] == lines[:2]


def test_instance_dict_comes_down_the_family(tmp_path, capsys):
    """A class without __slots__ gives its subclasses a __dict__, whatever theirs say."""
    path = write(
        tmp_path,
        "a.py",
        """
        from typing import NamedTuple


        class A(NamedTuple):
            x: int


        class Middle(A):
            pass


        class Last(Middle):
            __slots__ = ()

            def remember(self):
                self.seen = True


        class B(NamedTuple):
            x: int


        class CacheMixin:
            def cache(self):
                self._cache = {}


        class Cached(B, CacheMixin):
            __slots__ = ()
        """,
    )
    status, lines = migrate(capsys, path)
    assert 0 == status
    assert [
        f"{path}:4: left class A(NamedTuple): its subclass Last ({path}:12) "
        + STATE.format("remember() sets self.seen"),
        f"{path}:19: left class B(NamedTuple): its subclass Cached ({path}:28) "
        + STATE.format("cache() sets self._cache"),
    ] == lines[:2]


def test_two_named_tuple_bases(tmp_path, capsys):
    """A subclass of two NamedTuples keeps both: records refuses two record bases."""
    path = write(
        tmp_path,
        "a.py",
        """
        from typing import NamedTuple


        class A(NamedTuple):
            a: int


        class B(NamedTuple):
            b: int


        class Both(A, B):
            pass
        """,
    )
    status, lines = migrate(capsys, path)
    assert 0 == status
    reason = (
        f"its subclass Both ({path}:12) derives from two NamedTuple classes, which records "
        "refuses for records"
    )
    assert [
        f"{path}:4: left class A(NamedTuple): {reason}",
        f"{path}:8: left class B(NamedTuple): {reason}",
        "changed 0 definitions in 0 files of 1; left 2 (see above).",
    ] == lines


@pytest.mark.parametrize("given", ["folder", "package", "files"])
def test_subclasses_found_through_re_exports_stars_and_aliases(tmp_path, capsys, given):
    """
    A subclass names its base through a package's re-export, a star import or
    an alias: it is found however the code is given (a folder, the package
    itself, or its files one by one as a pre-commit hook gives them).
    """
    package = tmp_path / "shop"
    write(package, "__init__.py", "from ._prices import Price\n")
    prices = write(
        package,
        "_prices.py",
        """
        from typing import NamedTuple


        class Price(NamedTuple):
            amount: int


        class Size(NamedTuple):
            width: int


        class Weight(NamedTuple):
            grams: int
        """,
    )
    write(
        package,
        "items.py",
        """
        from shop import Price
        from shop._prices import *
        from shop import _prices

        HeavyBase = _prices.Weight


        class Taxed(Price):
            tax: int = 0


        class Boxed(Size):
            depth: int = 0


        class Heavy(HeavyBase):
            unit: str = "g"
        """,
    )
    paths = {
        "folder": [tmp_path],
        "package": [package],
        "files": sorted(package.glob("*.py")),
    }[given]
    status, lines = migrate(capsys, *paths)
    assert 0 == status
    lefts = [line.split(": its subclass ")[0] for line in lines if ": left class" in line]
    assert [
        f"{prices}:4: left class Price(NamedTuple)",
        f"{prices}:8: left class Size(NamedTuple)",
        f"{prices}:12: left class Weight(NamedTuple)",
    ] == lefts


def test_classes_of_one_name_are_decided_apart(tmp_path, capsys):
    """Two classes of one name in a module (one per Python version) are decided each."""
    path = write(
        tmp_path,
        "a.py",
        """
        import sys
        from typing import NamedTuple

        if sys.version_info >= (3, 8):
            class A(NamedTuple):
                x: list = []
        else:
            class A(NamedTuple):
                x: int = 0
        """,
    )
    status, lines = migrate(capsys, path)
    assert 0 == status
    assert [
        f"{path}:5: left class A(NamedTuple): the default [] of field 'x' is mutable, which "
        "records refuses (every instance would share it): give it field(default_factory=...) "
        "by hand",
        f"{path}:8: class A(NamedTuple) -> Record",
    ] == lines[:2]


def test_an_import_other_modules_take_from_this_one_stays(tmp_path, capsys):
    """A module others import NamedTuple or namedtuple from keeps those imports."""
    package = tmp_path / "pkg"
    write(package, "__init__.py", "")
    compat = write(
        package,
        "compat.py",
        """
        from collections import namedtuple
        from typing import NamedTuple


        class A(NamedTuple):
            x: int


        P = namedtuple("P", "x")
        """,
    )
    write(package, "use.py", "from pkg.compat import NamedTuple, namedtuple\n")
    status, lines = migrate(capsys, tmp_path)
    assert 0 == status
    assert f"{compat}:5: class A(NamedTuple) -> Record" in lines
    text = compat.read_text(encoding="utf-8")
    assert text.startswith("from collections import namedtuple\nfrom typing import NamedTuple\n")
    assert "class A(Record):" in text
    assert 'P = records.namedtuple("P", "x")' in text


def test_a_star_import_may_bring_record(tmp_path, capsys):
    """Where a star import may give the module a Record it uses, records.Record is written."""
    path = write(
        tmp_path,
        "a.py",
        """
        from typing import NamedTuple
        from db import *


        class Row(NamedTuple):
            id: int


        first = Record(2)
        """,
    )
    status, lines = migrate(capsys, path)
    assert 0 == status
    assert f"{path}:5: class Row(NamedTuple) -> records.Record" == lines[0]
    assert "class Row(records.Record):" in path.read_text(encoding="utf-8")


def test_a_code_base_with_its_own_records_module(tmp_path, capsys):
    """A project with a module named records would import it instead: nothing is rewritten."""
    write(tmp_path / "records", "__init__.py", "")
    path = write(
        tmp_path,
        "app.py",
        """
        import collections
        from typing import NamedTuple


        class Row(NamedTuple):
            id: int


        P = collections.namedtuple("P", "x")
        """,
    )
    original = path.read_text(encoding="utf-8")
    status, lines = migrate(capsys, tmp_path)
    assert 0 == status
    reason = (
        "the code base has a module named records, which its imports of records would "
        "find instead of the records library"
    )
    assert [
        f"{path}:5: left class Row(NamedTuple): {reason}",
        f'{path}:9: left collections.namedtuple("P", ...): {reason}',
        "changed 0 definitions in 0 files of 2; left 2 (see above).",
    ] == lines
    assert original == path.read_text(encoding="utf-8")


@pytest.mark.slow
def test_files_it_cannot_read_or_write(tmp_path, capsys, monkeypatch):
    """
    A file not in UTF-8 without a coding line, code too deep for libcst, a
    file that cannot be written and a symbolic link are named, exit status
    1; the other files are still migrated, and a FIFO is not opened.
    """
    source = "from typing import NamedTuple\nclass A(NamedTuple):\n x: int\n"
    (tmp_path / "latin.py").write_bytes(b"NAME = '\xe9t\xe9'\n")
    deep = write(tmp_path, "deep.py", "X = " + " + ".join(["'NamedTuple'"] * 3000) + "\n")
    locked = write(tmp_path, "locked.py", source)
    good = write(tmp_path, "good.py", source)
    (tmp_path / "link.py").symlink_to(good)
    os.mkfifo(tmp_path / "pipe.py")
    real_open = open

    def refusing_open(file, mode="r", *args, **kwargs):
        if str(file) == str(locked) and "w" in mode:
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr("builtins.open", refusing_open)
    # deep.py is too deep for libcst at Python's own limit (mypy, run by
    # other tests in this process, raises it).
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        status, lines = migrate(capsys, tmp_path)
    finally:
        sys.setrecursionlimit(limit)
    assert 1 == status
    assert (
        f"{tmp_path / 'link.py'}: not migrated: a symbolic link (migrate what it points at)"
        in lines
    )
    assert any(line.startswith(f"{tmp_path / 'latin.py'}: not migrated: ") for line in lines)
    assert any(line.startswith(f"{deep}: not migrated: ") for line in lines)
    assert f"{locked}: not migrated: [Errno 13] Permission denied: '{locked}'" in lines
    assert f"{good}:2: class A(NamedTuple) -> Record" in lines
    assert "changed 1 definition in 1 file of 4; left 0 (see above)." in lines
    assert "class A(Record):" in good.read_text(encoding="utf-8")
    assert source == locked.read_text(encoding="utf-8")


def test_diff_of_a_file_without_a_last_newline(tmp_path, capsys):
    """--diff marks a last line without a newline as diff does, so patch reads it."""
    path = tmp_path / "a.py"
    path.write_text('import collections\nP = (collections\n    .namedtuple)("P", "a")', "utf-8")
    status, lines = migrate(capsys, "--diff", "--dry-run", path)
    assert 0 == status
    assert f'{path}:2: (collections .namedtuple)("P", ...) -> records.namedtuple' == lines[0]
    assert [
        f"--- {path}",
        f"+++ {path}",
        "@@ -1,3 +1,3 @@",
        "-import collections",
        "-P = (collections",
        '-    .namedtuple)("P", "a")',
        "\\ No newline at end of file",
        "+import records",
        "+",
        '+P = records.namedtuple("P", "a")',
        "\\ No newline at end of file",
    ] == lines[1:-2]


PROBE = """
    import collections
    import inspect

    _dummy = collections.namedtuple("_dummy", [])
    Point = collections.namedtuple("Point", "x y")


    def has_default_repr(obj):
        try:
            own = inspect.getfile(obj.__repr__)
        except (OSError, TypeError):  # defined in C
            own = None
        return own == inspect.getfile(_dummy.__repr__)
    """


def test_a_field_less_namedtuple_only_inspected_is_left(tmp_path, capsys):
    """
    A namedtuple without fields that the module only inspects stands for the
    standard library's own (rich's pretty-printer finds namedtuple's file
    through one): it is left, saying why, and the module still tells the
    standard library's named tuples from others; the other call is rewritten.
    """
    path = write(tmp_path, "pretty.py", PROBE)
    status, lines = migrate(capsys, path)
    assert 0 == status
    assert [
        f'{path}:4: left collections.namedtuple("_dummy", ...): a namedtuple without fields '
        "that the module only inspects (_dummy.__repr__, line 13): it stands for the standard "
        "library's own namedtuple, which records.namedtuple would not be",
        f'{path}:5: collections.namedtuple("Point", ...) -> records.namedtuple',
        "changed 1 definition in 1 file of 1; left 1 (see above).",
        AFTERWARDS,
    ] == lines
    text = path.read_text(encoding="utf-8")
    assert '_dummy = collections.namedtuple("_dummy", [])' in text
    assert 'Point = records.namedtuple("Point", "x y")' in text
    module = {}
    exec(compile(text, str(path), "exec"), module)  # the migrated module
    import collections

    assert module["has_default_repr"](collections.namedtuple("Plain", "a")(1))
    assert not module["has_default_repr"](module["Point"](1, 2))


@pytest.mark.parametrize(
    "use",
    [
        "inspect.signature(_dummy)",
        "_dummy.__repr__ is type(obj).__repr__",
        "_dummy._make.__code__",
        'inspect.getfile(collections.namedtuple("_", "").__repr__)',
    ],
    ids=["given-to-inspect", "compared", "method-code", "inline"],
)
def test_every_inspection_counts(tmp_path, capsys, use):
    """A class only read for its methods or given to inspect stands for the standard library's."""
    source = textwrap.dedent(PROBE).replace("inspect.getfile(_dummy.__repr__)", use)
    path = write(tmp_path, "probe.py", source)
    status, lines = migrate(capsys, path)
    assert 0 == status
    assert "left 1 (see above)." in lines[-2]
    assert "only inspects" in "\n".join(lines)


@pytest.mark.parametrize(
    "change",
    [
        ('collections.namedtuple("_dummy", [])', 'collections.namedtuple("_dummy", ["a"])'),
        ("inspect.getfile(_dummy.__repr__)", "repr(_dummy())"),
        ("inspect.getfile(_dummy.__repr__)", "_dummy.__repr__(obj)"),
        ("inspect.getfile(_dummy.__repr__)", "_dummy._fields"),
        ("inspect.getfile(_dummy.__repr__)", "isinstance(obj, _dummy)"),
        ("inspect.getfile(_dummy.__repr__)", "inspect.getfile(_dummy.__repr__) or _dummy"),
        ("inspect.getfile(_dummy.__repr__)", "None"),
        ('Point = collections.namedtuple("Point", "x y")', '_dummy = ()'),
    ],
    ids=["has-fields", "instantiated", "method-called", "fields-read", "isinstance",
         "passed-on", "never-read", "bound-twice"],
)  # fmt: skip
def test_a_field_less_namedtuple_used_otherwise_is_rewritten(tmp_path, capsys, change):
    """A namedtuple with fields, or used as a class, or never read, is rewritten as any other."""
    old, new = change
    source = textwrap.dedent(PROBE).replace(old, new)
    path = write(tmp_path, "probe.py", source)
    status, lines = migrate(capsys, path)
    assert 0 == status
    assert f'{path}:4: collections.namedtuple("_dummy", ...) -> records.namedtuple' == lines[0]


def test_only_files_that_may_matter_are_parsed_once_each(tmp_path, capsys, monkeypatch):
    """
    A file whose text names neither NamedTuple nor namedtuple nor a class of
    a named tuple's family is read, never parsed (a syntax error in it goes
    unseen); each other file is parsed once, by Python's parser, including
    a subclass two modules away that names only its parent, through an
    alias, and a mixin of the family; libcst parses only the file that
    changes, once, and resolves no metadata.
    """
    package = tmp_path / "shop"
    write(package, "__init__.py", "")
    base = write(
        package,
        "base.py",
        """
        from typing import NamedTuple


        class Price(NamedTuple):
            amount: int


        class Size(NamedTuple):
            width: int


        class Weight(NamedTuple):
            grams: int
        """,
    )
    middle = write(
        package, "middle.py", "from .base import Price\n\n\nclass Middle(Price):\n    pass\n"
    )
    last = write(
        package, "last.py", "from .middle import Middle as M\n\n\nclass Last(M):\n    x: int = 0\n"
    )
    mixins = write(
        package, "mixins.py", "class Remember:\n    def remember(self):\n        self.seen = 1\n"
    )
    sized = write(
        package,
        "sized.py",
        "from .base import Size\nfrom .mixins import Remember\n\n\nclass Big(Size, Remember):\n"
        "    __slots__ = ()\n",
    )
    write(package, "plain.py", "import typing\n\nCOUNT: typing.Final = 3\n")
    write(package, "broken.py", "def f(:\n")
    parsed, parsed_by_libcst, scopes = [], [], []
    real_parse, real_parse_module = ast.parse, libcst.parse_module

    def parse(source, filename="<unknown>", *args, **kwargs):
        if filename != "<unknown>":  # a module, not an annotation's string
            parsed.append(filename)
        return real_parse(source, filename, *args, **kwargs)

    def parse_module(source, *args, **kwargs):
        parsed_by_libcst.append(source)
        return real_parse_module(source, *args, **kwargs)

    monkeypatch.setattr(ast, "parse", parse)
    monkeypatch.setattr(libcst, "parse_module", parse_module)
    monkeypatch.setattr(
        libcst.metadata.ScopeProvider, "visit_Module", lambda self, node: scopes.append(node)
    )
    status, lines = migrate(capsys, tmp_path)
    assert 0 == status
    assert sorted(map(str, [base, middle, last, mixins, sized])) == sorted(parsed)
    assert 1 == len(parsed_by_libcst)
    assert b"class Weight(NamedTuple)" in parsed_by_libcst[0]
    assert [] == scopes
    assert [
        f"{base}:4: left class Price(NamedTuple): its subclass Last ({last}:4) annotates 'x', "
        "which records would make a field (a NamedTuple subclass cannot add fields)",
        f"{base}:8: left class Size(NamedTuple): its subclass Big ({sized}:5) keeps attributes "
        "on its instances (remember() sets self.seen), and record instances have no __dict__",
        f"{base}:12: class Weight(NamedTuple) -> Record",
        "changed 1 definition in 1 file of 8; left 2 (see above).",
        AFTERWARDS,
    ] == lines


def test_a_module_that_star_imports_a_rewritten_one_keeps_its_names(tmp_path, capsys):
    """
    A module that takes everything from a rewritten one, and names no named
    tuple, is read for its imports: what it takes stays imported there.
    """
    package = tmp_path / "pkg"
    write(package, "__init__.py", "")
    compat = write(
        package, "compat.py", "import typing\n\n\nclass A(typing.NamedTuple):\n    x: int\n"
    )
    write(package, "user.py", "from pkg.compat import *\n\nVALUE: typing.Any = None\n")
    status, lines = migrate(capsys, tmp_path)
    assert 0 == status
    assert f"{compat}:4: class A(typing.NamedTuple) -> Record" == lines[0]
    assert compat.read_text(encoding="utf-8").startswith("import typing\n")


@pytest.mark.parametrize("terminal", [False, True], ids=["log", "terminal"])
def test_progress_over_many_files(tmp_path, capsys, monkeypatch, terminal):
    """
    Over more than PROGRESS_FROM files, the reading shows how far it is on
    stderr: in a log, a line each tenth of the files to parse; on a
    terminal, one line rewritten in place and cleared at the end.
    """
    source = "from typing import NamedTuple\n\n\nclass A(NamedTuple):\n    x: int\n"
    for number in range(3):
        write(tmp_path, f"m{number}.py", source)
    write(tmp_path, "other.py", "X = 1\n")
    monkeypatch.setattr(_migrate, "PROGRESS_FROM", 3)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: terminal, raising=False)
    assert 0 == _migrate.main(["--dry-run", str(tmp_path)])
    shown = [f"parsed {n} of 3 files that may use a named tuple (of 4)" for n in (1, 2, 3)]
    err = capsys.readouterr().err
    if terminal:
        width = len(shown[-1])
        assert "".join(f"\r{text}" for text in shown) + f"\r{' ' * width}\r" == err
    else:
        assert "".join(f"{text}\n" for text in shown) == err


def test_no_progress_over_a_few_files(tmp_path, capsys, monkeypatch):
    """Over PROGRESS_FROM files or fewer, nothing is written to stderr."""
    for number in range(3):
        write(tmp_path, f"m{number}.py", "from typing import NamedTuple\n")
    monkeypatch.setattr(_migrate, "PROGRESS_FROM", 3)
    status = _migrate.main(["--dry-run", str(tmp_path)])
    assert 0 == status
    assert "" == capsys.readouterr().err


def test_a_file_this_python_cannot_read(tmp_path, capsys, monkeypatch):
    """
    A file Python's parser refuses where libcst does not (code for a newer
    Python) is named with the Python it needs; a file neither reads is
    named with libcst's message, as before.
    """
    newer = write(tmp_path, "newer.py", "from typing import NamedTuple\nX = 1\n")
    real_parse = ast.parse

    def parse(source, filename="<unknown>", *args, **kwargs):
        if filename == str(newer):
            raise SyntaxError("invalid syntax", (filename, 2, 1, "X = 1\n"))
        return real_parse(source, filename, *args, **kwargs)

    monkeypatch.setattr(ast, "parse", parse)
    status, lines = migrate(capsys, newer)
    assert 1 == status
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert (
        f"{newer}: not migrated: Python {version} cannot read it (invalid syntax (newer.py, "
        "line 2)): run the command with the Python the code is written for"
    ) == lines[0]
