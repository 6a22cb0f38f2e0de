"""
Record classes travel by value wherever a ``typing.NamedTuple`` does:
cloudpickle, dill, joblib's loky workers and multiprocessing's spawn workers
get back a working class, with accessors at full speed (member descriptors,
with the C accelerator), for every way a class that cannot be found by name
is made: in ``__main__``, in a function, by ``Record.define`` in a function of
an importable module, shadowed by another class of the same name, or in a
module registered with ``cloudpickle.register_pickle_by_value``.

Every case dumps in one fresh interpreter and loads in another that never
defined the class; the same script runs with a ``typing.NamedTuple`` of the
same fields, which must round-trip wherever the record does (and the record
wherever it does). The interpreters inherit ``RECORDS_PURE_PYTHON``, so they
run on the same path as the suite.
"""

import json
import subprocess
import sys
import textwrap

import pytest
from support.platform_marks import MEMBER_FIELDS

from records import _accessors

# An importable module of the dumping process. Its classes cannot be found
# by name from the loading process either: one is made by define() inside a
# function, one is shadowed by a later class of the same name.
LIBRARY = """
import types
from typing import NamedTuple
from records import Record

Base = {kind}


def make_defined():
    if Base is Record:
        return Record.define("Defined", [("x", int), ("y", int)], defaults={{"y": 0}})
    body = {{"__annotations__": {{"x": int, "y": int}}, "y": 0, "__module__": __name__}}
    return types.new_class("Defined", (NamedTuple,), exec_body=lambda ns: ns.update(body))


class Shadowed(Base):
    x: int
    y: int = 0


first_shadowed = Shadowed


class Shadowed:
    pass
"""

# A module that the dumping process registers with cloudpickle, to pickle by value.
REGISTERED = """
from typing import NamedTuple
from records import Record


class Registered({kind}):
    x: int
    y: int = 0
"""

# The classes of the dumping process: one per case, each with x and y = 0.
CLASSES = """
import sys
from typing import NamedTuple
from records import Record
import library, registered

Base = {kind}


class Main(Base):
    x: int
    y: int = 0

    def total(self):
        return self.x + self.y


def make_local():
    class Local(Base):
        x: int
        y: int = 0

    return Local


CLASSES = {{
    "main": Main,
    "function": make_local(),
    "define": library.make_defined(),
    "shadowed": library.first_shadowed,
    "registered": registered.Registered,
}}
"""

# What a loading process checks of each class it got, as JSON, from a worker
# or from the process itself.
CHECK = """
def check(name, cls, record):
    accessor = type(vars(cls).get("x")).__name__
    return {
        "name": name,
        "type": cls.__name__,
        "same class": type(record) is cls,
        "fields": list(cls._fields),
        "record": list(record),
        "read": [record.x, record.y],
        "default": list(cls(7)),
        "replaced": list(record._replace(y=5)),
        "accessor": accessor,
    }
"""


def dill_cannot_pickle_functions():
    """Why dill cannot pickle a plain function here, if it cannot (dill 0.4 on 3.15)."""
    import dill

    try:
        dill.dumps(lambda: 0)
    except Exception as error:  # whatever stops dill stops every case
        return f"dill {dill.__version__} cannot pickle a function here: {error!r}"
    return None


def skip_unless_dill_works():
    reason = dill_cannot_pickle_functions()
    if reason is not None:
        pytest.skip(reason)


def run(script, *, cwd, stdin=None):
    """
    Run *script* as the main module of a fresh interpreter in *cwd* (from a
    file, which spawned workers import again); return its stdout.
    """
    path = cwd / f"script_{len(list(cwd.glob('script_*.py')))}.py"
    path.write_text(textwrap.dedent(script))
    result = subprocess.run(
        [sys.executable, str(path)],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        check=False,
        timeout=300,
    )
    assert 0 == result.returncode, result.stderr.decode()[-3000:]
    return result.stdout


def write_modules(directory, kind):
    (directory / "library.py").write_text(LIBRARY.format(kind=kind))
    (directory / "registered.py").write_text(REGISTERED.format(kind=kind))


def expected_checks(kind):
    """What every loading process must report, case by case."""
    accessor = {
        "Record": "member_descriptor" if MEMBER_FIELDS else "_tuplegetter",
        "NamedTuple": "_tuplegetter",
    }[kind]
    if sys.implementation.name == "pypy":
        accessor = "property"
    names = {"main": "Main", "function": "Local", "define": "Defined"}
    names.update(shadowed="Shadowed", registered="Registered")
    return {
        name: {
            "name": name,
            "type": type_name,
            "same class": True,
            "fields": ["x", "y"],
            "record": [1, 2],
            "read": [1, 2],
            "default": [7, 0],
            "replaced": [1, 5],
            "accessor": accessor,
        }
        for name, type_name in names.items()
    }


@pytest.mark.parametrize("kind", ["Record", "NamedTuple"])
@pytest.mark.parametrize(
    "library",
    ["cloudpickle", "dill", "dill imported first"],
)
def test_dumped_in_one_process_loaded_in_another(kind, library, tmp_path):
    """Each class and an instance, dumped where it was made, load and work in a new process."""
    if library.startswith("dill"):
        skip_unless_dill_works()
    write_modules(tmp_path, kind)
    module = library.split()[0]
    first = f"import {module}\n" if library == "dill imported first" else ""
    register = (
        "cloudpickle.register_pickle_by_value(registered)"
        if module == "cloudpickle"
        else "pass  # dill pickles a module's classes by name"
    )
    dump = f"""
{first}{CLASSES.format(kind=kind)}
import {module}
{register}
names = [name for name in CLASSES if {module == "cloudpickle"} or name != "registered"]
options = {{}}
if {module == "dill"} and sys.version_info >= (3, 14):
    # dill pickles the globals of a class's deferred __annotate__ (3.14+) by
    # reference to its module, for any annotated class, unless it recurses.
    options = {{"shadowed": {{"recurse": True}}}}
payload = {{
    name: {module}.dumps((CLASSES[name], CLASSES[name](1, 2)), **options.get(name, {{}}))
    for name in names
}}
sys.stdout.buffer.write({module}.dumps(payload))
"""
    pickled = run(dump, cwd=tmp_path)
    load = f"""
import json, sys
import {module}
{CHECK}
sys.path.pop(0)  # the dumping process's modules are not importable here
payload = {{name: {module}.loads(data) for name, data in {module}.loads(sys.stdin.buffer.read()).items()}}
assert "library" not in sys.modules and "registered" not in sys.modules
print(json.dumps({{name: check(name, cls, record) for name, (cls, record) in payload.items()}}))
"""
    (tmp_path / "loading").mkdir()
    loaded = json.loads(run(load, cwd=tmp_path / "loading", stdin=pickled))
    expected = expected_checks(kind)
    if module != "cloudpickle":
        del expected["registered"]
    assert expected == loaded


JOBLIB = """
import json, os
from joblib import Parallel, delayed


def work(name, cls, record):
    return os.getpid(), check(name, cls, record)


if __name__ == "__main__":
    import cloudpickle  # joblib's own copy pickles by value what this one is told to

    cloudpickle.register_pickle_by_value(registered)
    results = Parallel(n_jobs=2, backend="loky")(
        delayed(work)(name, cls, cls(1, 2)) for name, cls in CLASSES.items()
    )
    assert any(pid != os.getpid() for pid, _ in results), "no worker process was used"
    print(json.dumps({result["name"]: result for _, result in results}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["Record", "NamedTuple"])
def test_joblib_loky_workers(kind, tmp_path):
    """joblib's process workers get every class by value, and it works there."""
    write_modules(tmp_path, kind)
    script = CLASSES.format(kind=kind) + CHECK + JOBLIB
    loaded = json.loads(run(script, cwd=tmp_path))
    assert expected_checks(kind) == loaded


@pytest.mark.parametrize("kind", ["Record", "NamedTuple"])
def test_multiprocessing_spawn_workers(kind, tmp_path):
    """A spawned worker gets a __main__ class by name (as __mp_main__), as NamedTuple's."""
    write_modules(tmp_path, kind)
    script = (
        CLASSES.format(kind=kind)
        + CHECK
        + """
import json, multiprocessing, os


def work(name, cls, record):
    return os.getpid(), check(name, cls, record)


if __name__ == "__main__":
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.starmap(work, [("main", Main, Main(1, 2))] * 2)
    assert all(pid != os.getpid() for pid, _ in results), "no worker process was used"
    print(json.dumps({result["name"]: result for _, result in results}))
"""
    )
    loaded = json.loads(run(script, cwd=tmp_path))
    assert {"main": expected_checks(kind)["main"]} == loaded


def test_dill_told_when_a_record_class_is_made(tmp_path):
    """
    A record class with its own __new__ (so no records constructor to pickle
    first), made after dill was imported, travels with dill too.
    """
    skip_unless_dill_works()
    dump = """
import sys
import records  # before dill: dill is told when the next record class is made
import dill


class Own(records.Record):
    x: int
    y: int = 0

    def __new__(cls, x, y=0):
        return super().__new__(cls, x, y)


sys.stdout.buffer.write(dill.dumps((Own, Own(1, 2))))
"""
    pickled = run(dump, cwd=tmp_path)
    load = f"""
import json, sys
import dill
{CHECK}
cls, record = dill.loads(sys.stdin.buffer.read())
print(json.dumps(check("own", cls, record)))
"""
    (tmp_path / "loading").mkdir()
    loaded = json.loads(run(load, cwd=tmp_path / "loading", stdin=pickled))
    expected = {**expected_checks("Record")["main"], "name": "own", "type": "Own"}
    assert expected == loaded


@pytest.mark.parametrize("module", ["cloudpickle", "dill"])
def test_a_docstring_with_a_nul_travels_whole(module, tmp_path):
    """
    A field whose docstring holds a NUL (kept by a bounds-checked accessor)
    comes back with it whole: dill's route once made it a member descriptor,
    whose C string cut the docstring at the NUL.
    """
    if module == "dill":
        skip_unless_dill_works()
    dump = f"""
import sys
import {module}
from records import Record, field


class Noted(Record):
    first: int = field(default=0, doc="cut\\x00here")
    second: int = 1


sys.stdout.buffer.write({module}.dumps(Noted))
"""
    pickled = run(dump, cwd=tmp_path)
    load = f"""
import sys
import {module}
cls = {module}.loads(sys.stdin.buffer.read())
kinds = [type(vars(cls)[name]).__name__ for name in cls._fields]
print(repr(cls.first.__doc__), kinds, list(cls(5)), cls(5).second)
"""
    (tmp_path / "loading").mkdir()
    loaded = run(load, cwd=tmp_path / "loading", stdin=pickled).decode()
    # dill builds the class from its dict, as a class statement: each field
    # gets its room in turn. cloudpickle loads the accessors into a class that
    # has no room for the first yet, which a bounds-checked accessor keeps
    # without one: the next is one too (member() never skips an item).
    checked = type(_accessors.accessor(0, "")).__name__  # _tuplegetter, or PyPy's property
    second = "member_descriptor" if MEMBER_FIELDS and module == "dill" else checked
    assert f"'cut\\x00here' ['{checked}', '{second}'] [5, 1] 1\n" == loaded


# records.namedtuple's classes and collections', made where they cannot be
# found by name: their methods are C functions with the accelerator.
NAMEDTUPLES = """
import collections, sys
import records

make = {factory}
Main = make("Main", "x y", defaults=(0,))


class Sub(make("Base", "x y", defaults=(0,))):
    __slots__ = ()

    def total(self):
        return self.x + self.y


def make_local():
    return make("Local", "x y", defaults=[0])


CLASSES = {{"main": Main, "subclass": Sub, "function": make_local()}}
"""

# What a process that got such a class checks of it, as JSON.
NAMEDTUPLE_CHECK = """
import copy, json, sys


def check(name, cls, record):
    return {
        "name": name,
        "repr": repr(record),
        "same class": type(record) is cls,
        "fields": list(cls._fields),
        "read": [record.x, record.y],
        "default": repr(cls(7)),
        "replaced": repr(record._replace(y=5)),
        "made": repr(cls._make([3, 4])),
        "dict": record._asdict(),
        "copies": [repr(copy.copy(record)), repr(copy.deepcopy(record))],
        "total": record.total() if hasattr(record, "total") else None,
        "new args": list(record.__getnewargs__()),
    }
"""

NAMEDTUPLE_FACTORIES = ["records.namedtuple", "collections.namedtuple"]


def namedtuple_checks(module, factory, tmp_path):
    """What a fresh process reports of each class that *module* brought it, made by *factory*."""
    directory = tmp_path / factory
    directory.mkdir()
    dump = (
        NAMEDTUPLES.format(factory=factory)
        + f"""
import {module}
payload = {{name: {module}.dumps((cls, cls(1, 2))) for name, cls in CLASSES.items()}}
sys.stdout.buffer.write({module}.dumps(payload))
"""
    )
    pickled = run(dump, cwd=directory)
    load = (
        NAMEDTUPLE_CHECK
        + f"""
import {module}
payload = {{n: {module}.loads(data) for n, data in {module}.loads(sys.stdin.buffer.read()).items()}}
assert "make" not in globals()
print(json.dumps({{n: check(n, cls, record) for n, (cls, record) in payload.items()}}))
"""
    )
    return json.loads(run(load, cwd=directory, stdin=pickled))


@pytest.mark.parametrize("module", ["cloudpickle", "dill"])
def test_namedtuple_classes_by_value(module, tmp_path):
    """records.namedtuple's classes travel by value and work as collections' do."""
    if module == "dill":
        skip_unless_dill_works()
    ours, reference = (
        namedtuple_checks(module, factory, tmp_path) for factory in NAMEDTUPLE_FACTORIES
    )
    assert {"main", "subclass", "function"} == set(reference)
    assert reference == ours


@pytest.mark.slow
def test_namedtuple_classes_in_joblib_workers(tmp_path):
    """joblib's loky workers get records.namedtuple's classes by value, as collections'."""
    results = []
    for factory in NAMEDTUPLE_FACTORIES:
        directory = tmp_path / factory
        directory.mkdir()
        script = (
            NAMEDTUPLES.format(factory=factory)
            + NAMEDTUPLE_CHECK
            + """
import os
from joblib import Parallel, delayed


def work(name, cls, record):
    return os.getpid(), check(name, cls, record)


if __name__ == "__main__":
    done = Parallel(n_jobs=2, backend="loky")(
        delayed(work)(name, cls, cls(1, 2)) for name, cls in CLASSES.items()
    )
    assert any(pid != os.getpid() for pid, _ in done), "no worker process was used"
    print(json.dumps({result["name"]: result for _, result in done}))
"""
        )
        results.append(json.loads(run(script, cwd=directory)))
    ours, reference = results
    assert reference == ours


GENERIC_CLASSES = """
import sys
from typing import Generic, NamedTuple, TypeVar

from records import Record

T = TypeVar("T")


class MainBox({base}, Generic[T]):
    item: T
    count: int = 0


def make():
    class LocalBox({base}, Generic[T]):
        item: T

    return LocalBox


LocalBox = make()


def describe(MainBox, LocalBox, main_box, local_box):
    return {{
        "fields": [MainBox._fields, LocalBox._fields],
        "instances": [repr(main_box), repr(local_box)],
        "subscripted": [repr(MainBox[int](1)), repr(LocalBox[str]("x"))],
        "parameters": [str(MainBox.__parameters__), str(LocalBox.__parameters__)],
        "same class": [type(main_box) is MainBox, type(local_box) is LocalBox],
    }}
"""

GENERIC_EXPECTED = {
    "fields": [["item", "count"], ["item"]],
    "instances": ["MainBox(item='a', count=2)", "LocalBox(item=3)"],
    "subscripted": ["MainBox(item=1, count=0)", "LocalBox(item='x')"],
    "parameters": ["(~T,)", "(~T,)"],
    "same class": [True, True],
}


def skip_generic_namedtuple_before_312(kind):
    if kind == "NamedTuple" and sys.version_info < (3, 12):
        pytest.skip("a generic typing.NamedTuple pickles by value from 3.12 on")


@pytest.mark.parametrize("kind", ["Record", "NamedTuple"])
def test_generic_classes_by_value(kind, tmp_path):
    """
    Generic record classes made in __main__ and in a function travel by value
    through cloudpickle on every version, as a generic typing.NamedTuple does
    from 3.12 on, subscription included. (dill pickles a TypeVar of __main__
    by name, which the loading process lacks, for either kind.)
    """
    skip_generic_namedtuple_before_312(kind)
    library = "cloudpickle"
    dump = (
        GENERIC_CLASSES.format(base=kind)
        + f"""
import {library}
sys.stdout.buffer.write({library}.dumps((MainBox, LocalBox, MainBox("a", 2), LocalBox(3))))
"""
    )
    pickled = run(dump, cwd=tmp_path)
    load = (
        f"""
import json, sys
import {library}
classes = {library}.loads(sys.stdin.buffer.read())
"""
        + "def describe"
        + GENERIC_CLASSES.format(base=kind).split("def describe", 1)[1]
        + """
print(json.dumps(describe(*classes)))
"""
    )
    (tmp_path / "loading").mkdir()
    loaded = json.loads(run(load, cwd=tmp_path / "loading", stdin=pickled))
    assert GENERIC_EXPECTED == loaded


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["Record", "NamedTuple"])
def test_generic_classes_in_joblib_workers(kind, tmp_path):
    """joblib's process workers get generic record classes by value, and they work there."""
    skip_generic_namedtuple_before_312(kind)
    script = (
        GENERIC_CLASSES.format(base=kind)
        + """
import json, os
from joblib import Parallel, delayed


def work(*classes):
    return os.getpid(), describe(*classes)


if __name__ == "__main__":
    results = Parallel(n_jobs=2, backend="loky")(
        delayed(work)(MainBox, LocalBox, MainBox("a", 2), LocalBox(3)) for _ in range(2)
    )
    assert any(pid != os.getpid() for pid, _ in results), "no worker process was used"
    print(json.dumps(results[0][1]))
"""
    )
    assert GENERIC_EXPECTED == json.loads(run(script, cwd=tmp_path))
