"""
Signatures and type hints of a record's constructor, as introspection asks
for them: string annotations (``from __future__ import annotations`` or
quoted) resolve against the defining module's namespace, as they do for a
function written in that module.
"""

import abc
import importlib
import inspect
import subprocess
import sys
import textwrap
import typing

import pytest

from records import Record

# inspect.signature's eval_str and X | Y annotations are 3.10+ (PyPy runs 3.9).
pytestmark = pytest.mark.skipif(sys.version_info < (3, 10), reason="needs Python 3.10+")

MODULE = """
from __future__ import annotations

import datetime
from records import Record, field


class Point(Record):
    x: int
    when: datetime.date | None = None
    tags: list[str] = field(default_factory=list)


class Quoted(Record):
    x: "int"
    later: "Later | None" = None


class Later(Record):
    y: int


def point(x: int, when: datetime.date | None = None, tags: list[str] = []): ...


def quoted(x: "int", later: "Later | None" = None): ...
"""


@pytest.fixture
def module(tmp_path, monkeypatch):
    """An importable module of records with string annotations."""
    (tmp_path / "strings_module.py").write_text(textwrap.dedent(MODULE))
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("strings_module", None)
    yield importlib.import_module("strings_module")
    sys.modules.pop("strings_module", None)


def annotations_of(callable_, **options):
    return {
        name: parameter.annotation
        for name, parameter in inspect.signature(callable_, **options).parameters.items()
    }


@pytest.mark.parametrize(("record", "function"), [("Point", "point"), ("Quoted", "quoted")])
def test_eval_str_resolves_in_the_defining_module(module, record, function):
    """inspect.signature(eval_str=True) of a record is that of a function of its module."""
    cls, reference = getattr(module, record), getattr(module, function)
    assert annotations_of(reference, eval_str=True) == annotations_of(cls, eval_str=True)
    assert annotations_of(reference) == annotations_of(cls)  # the strings, unevaluated


def test_type_hints_of_the_constructor(module):
    """typing.get_type_hints of __new__ gives the class's field types."""
    hints = typing.get_type_hints(module.Point.__new__)
    assert typing.get_type_hints(module.Point) == hints


def test_in_main(tmp_path):
    """A record of __main__ resolves its string annotations in __main__."""
    script = tmp_path / "main_script.py"
    script.write_text(
        textwrap.dedent(MODULE)
        + textwrap.dedent(
            """
            import inspect
            ours = inspect.signature(Point, eval_str=True).parameters
            theirs = inspect.signature(point, eval_str=True).parameters
            print([ours[n].annotation == theirs[n].annotation for n in theirs])
            """
        )
    )
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, check=False, timeout=60
    )
    assert 0 == result.returncode, result.stderr
    assert "[True, True, True]" == result.stdout.strip()


def test_defined_where_no_module_is(module):
    """
    A class placed in a module that is not imported keeps its annotations as
    written, and evaluates them where Record.define was called.
    """
    from records import Record

    cls = Record.define("Elsewhere", {"x": "int"}, module="not_imported_anywhere")
    assert {"x": "int"} == annotations_of(cls)
    assert int is inspect.signature(cls, eval_str=True).parameters["x"].annotation


FORWARD = """
import annotationlib, inspect, json
from typing import NamedTuple
from records import Record

class Ours(Record):
    x: int
    later: Later

class Theirs(NamedTuple):
    x: int
    later: Later

def look(cls):
    seen = []
    for ask in (
        lambda: str(inspect.signature(cls)),
        lambda: repr(annotationlib.get_annotations(cls.__new__)),
        lambda: repr(annotationlib.get_annotations(cls.__new__, format=annotationlib.Format.STRING)),
    ):
        try:
            seen.append(ask())
        except NameError as error:
            seen.append(f"NameError: {error}")
    return seen

before = [look(Ours), look(Theirs)]
class Later:
    pass
after = [look(Ours), look(Theirs)]
print(json.dumps([before, after]))
"""


@pytest.mark.skipif(sys.version_info < (3, 14), reason="deferred annotations: 3.14+")
def test_forward_reference_looked_at_too_early():
    """Asked before the name exists, __new__'s annotations are not cached: as a NamedTuple's."""
    import json

    result = subprocess.run(
        [sys.executable, "-c", FORWARD], capture_output=True, text=True, check=False, timeout=60
    )
    assert 0 == result.returncode, result.stderr
    (ours_before, theirs_before), (ours_after, theirs_after) = json.loads(result.stdout)
    assert theirs_before == ours_before
    assert "NameError: name 'Later' is not defined" == ours_before[0]
    assert [a.replace("Theirs", "Ours") for a in theirs_after] == ours_after
    assert "__main__.Later" in ours_after[0]


@pytest.mark.parametrize("future", ["from __future__ import annotations\n", ""])
def test_signature_of_a_class_outside_any_module(future):
    """
    A class statement exec'd in a plain dict (its __module__ is 'builtins'):
    inspect.signature(..., eval_str=True) resolves the annotations in the
    namespace the class statement ran in, where typing.NamedTuple's gives
    ForwardRefs; neither raises NameError.
    """
    source = (
        future + "from typing import NamedTuple\n"
        "from records import Record\n"
        "class Local:\n    pass\n"
        "class P(Record):\n    a: Local\n    b: int = 0\n"
        "class N(NamedTuple):\n    a: Local\n    b: int = 0\n"
    )
    namespace = {}
    exec(compile(source, "<exec'd>", "exec"), namespace)  # the test's own source, above
    record, named = namespace["P"], namespace["N"]
    assert "builtins" == record.__module__ == named.__module__
    inspect.signature(named, eval_str=True)  # for reference: it does not raise
    parameters = inspect.signature(record, eval_str=True).parameters
    assert namespace["Local"] is parameters["a"].annotation
    assert int is parameters["b"].annotation
    assert 0 == parameters["b"].default


def test_signature_outside_any_module_with_a_metaclass():
    """
    The same with a metaclass written in Python, whose __new__ runs between
    the class statement and records: the annotations still resolve where the
    class statement ran, never in the metaclass's module.
    """
    namespace = {"Record": Record, "ABCMeta": abc.ABCMeta}
    source = (
        "class Foo:\n    pass\n"
        "class P(Record, metaclass=ABCMeta):\n    x: 'Foo'\n    y: 'ABC' = None\n"
    )
    exec(compile(source, "<exec'd>", "exec"), namespace)  # the test's own source, above
    with pytest.raises(NameError, match="ABC"):  # abc.ABC is not in this namespace
        inspect.signature(namespace["P"], eval_str=True)
    del namespace["P"].__new__.__annotations__["y"]
    parameters = inspect.signature(namespace["P"], eval_str=True).parameters
    assert namespace["Foo"] is parameters["x"].annotation


def test_signature_where_a_frame_names_its_module_oddly():
    """A frame whose __name__ is no str, with a __str__ that raises, is passed over on both paths."""

    class Odd:
        def __str__(self):
            raise AssertionError("records converted a frame's __name__")

    namespace = {"Record": Record, "__name__": Odd()}
    exec(compile("class P(Record):\n    x: 'int'\n", "<exec'd>", "exec"), namespace)
    assert int is inspect.signature(namespace["P"], eval_str=True).parameters["x"].annotation
