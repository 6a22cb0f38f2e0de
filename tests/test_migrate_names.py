"""
``records/_migrate_names.py`` reads what a module's names mean from ``ast``
by libcst's rules: on every name, attribute, call and subscript of these
modules it finds what libcst's QualifiedNameProvider finds.
"""

import ast
import sys
import textwrap

import pytest

pytest.importorskip("libcst", reason="libcst comes with the migrate extra (CPython envs)")

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider, QualifiedNameProvider

from records import _migrate_names

MODULES = {
    "imports": """
        import os.path
        import collections as c
        from typing import NamedTuple as NT, List
        from . import sibling
        from .pkg import thing
        from ..up import other as o
        os.path.join; os.sep; c.namedtuple; NT; List[int]; sibling.x; thing; o.y
        """,
    "scopes": """
        from typing import NamedTuple
        x = 1
        def f(a, b=x, *args, c: "NamedTuple" = None, **kw) -> NamedTuple:
            y = a
            def g():
                nonlocal y
                y = NamedTuple
                return y, x
            class C(NamedTuple):
                z = y
                def m(self):
                    return z, C, self, [z for z in range(3)]
            return [i for i in range(y) if i], {k: v for k, v in kw.items()}, lambda q: q + y
        """,
    "global": """
        def setup():
            global Record
            Record = object
        class A(Record):
            pass
        """,
    "order": """
        class A(NamedTuple):
            pass
        from typing import NamedTuple
        class B(NamedTuple):
            pass
        NamedTuple = None
        class C(NamedTuple):
            pass
        x = x + 1
        def f():
            y = y
        """,
    "annotations": """
        from typing import TypeVar, cast, Literal, NamedTuple, List
        T = TypeVar("T", bound="NamedTuple")
        x: "List[NamedTuple]" = cast("NamedTuple", None)
        y: Literal["NamedTuple"] = "NamedTuple"
        def f(a: "typing.NamedTuple") -> "List":
            return a
        """,
    "statements": """
        import collections
        try:
            pass
        except (ValueError, collections.abc.Error) as error:
            collections = error
        with open("f") as handle, collections.Counter() as counter:
            (walrus := handle)
        for collections.x in range(3):
            pass
        del handle
        print(f"{collections!r} {counter:>{walrus}}")
        """,
    "builtins": """
        list(); dict(); set.union; len; "".join; (1).real; print(*args, sep=sep)
        """,
    "attributes": """
        import a.b.c
        a.b.c.d; a.b.x; a.y; a().b.c; x[a.b].c; (a.b).c
        """,
    "match": """
        from typing import NamedTuple
        match command:
            case Point(x=0) as p:
                p
            case [NamedTuple(), *rest]:
                rest
        """,
}
if sys.version_info >= (3, 12):
    MODULES["type parameters"] = """
        from typing import NamedTuple
        def f[T](x: T) -> T:
            return x
        class A[T](NamedTuple):
            item: T
        type Alias[T] = list[T]
        """


def libcst_meanings(source):
    """Return, by kind and position, what libcst's provider says each node means."""
    wrapper = MetadataWrapper(cst.parse_module(source))
    positions = wrapper.resolve(PositionProvider)
    found = {}
    for node, names in wrapper.resolve(QualifiedNameProvider).items():
        if not isinstance(node, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
            continue
        if node not in positions:
            continue
        names = names() if callable(names) else names  # resolved lazily
        start = positions[node].start
        found[type(node).__name__, start.line, start.column] = {
            (name.name, name.source.name) for name in names
        }
    return found


def ast_meanings(source):
    """Return, by kind and position, what the ast reading says each node means."""
    tree = ast.parse(source)
    names = _migrate_names.read(tree)
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)):
            found[type(node).__name__, node.lineno, node.col_offset] = {
                (name, source.name) for name, source in names.meanings(node)
            }
    return found


@pytest.mark.parametrize("name", MODULES)
def test_meanings_are_libcst_s(name):
    """Every node both read means the same in both: imports, scopes, order, annotations."""
    source = textwrap.dedent(MODULES[name]).lstrip("\n")
    theirs, ours = libcst_meanings(source), ast_meanings(source)
    shared = theirs.keys() & ours.keys()
    assert len(shared) > 0.8 * len(ours)
    assert {key: theirs[key] for key in shared} == {key: ours[key] for key in shared}


def test_dotted_names():
    """A chain gives its names longest first; a call in it ends it."""
    node = ast.parse("a.b.c").body[0].value
    assert ["a.b.c", "a.b", "a"] == [name for name, _ in _migrate_names.dotted_names(node)]
    node = ast.parse("a.b().c").body[0].value
    assert ["a.b", "a"] == [name for name, _ in _migrate_names.dotted_names(node)]
