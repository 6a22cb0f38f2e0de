"""
Classes defined in ``__main__`` (scripts, notebooks) travel by value with
cloudpickle, dill and joblib's process workers: a process that never defined
the class gets it back, and it still works.

Each case runs scripts in fresh interpreters, so that the class really lives
in ``__main__`` and the loading process never defined it. They inherit
RECORDS_PURE_PYTHON, so they run on the same path as the suite.
"""

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from clients.support import KINDS, libraries_page

HEADER = """
import sys
from typing import NamedTuple
from records import Record, field
Base = {kind}
"""

DEFINE = (
    HEADER
    + """
class Point(Base):
    x: int
    y: int = 0

    def norm(self):
        return abs(self.x) + abs(self.y)


class Point3(Point{record_only}):
    z: int = 0
"""
)

# Factories and inheritance only where the base has them.
RECORD_ONLY = """
class Order(Record):
    customer: str
    lines: list = field(default_factory=list)
"""

LOAD_AND_CHECK = """
import pickle, sys
with open(sys.argv[1], "rb") as file:
    point, point_class = {loads}(file.read())
assert "Point" == point_class.__name__ and point_class is type(point)
assert "__main__" not in sys.modules or not hasattr(sys.modules["__main__"], "Point")
assert (1, 2) == point and (1, 0) == point_class(1)
if {methods_survive}:
    assert 3 == point.norm()
assert ("x", "y") == point_class._fields and {{"y": 0}} == point_class._field_defaults
assert point_class(x=5, y=1)._replace(y=2) == (5, 2)
for attempt in (lambda: setattr(point, "x", 9), lambda: setattr(point, "other", 9)):
    try:
        attempt()
    except AttributeError:
        pass
    else:
        raise AssertionError("an instance took an attribute")
print("loaded", repr(point))
"""

LOAD_RECORD_EXTRAS = """
with open(sys.argv[2], "rb") as file:
    point3, order = {loads}(file.read())
assert (1, 2, 3) == point3 and ("x", "y", "z") == type(point3)._fields
first, second = type(order)("ann"), type(order)("bob")
assert [] == first.lines and first.lines is not second.lines
assert ["tea"] == order.lines
print("loaded", repr(point3), repr(order))
"""


def run(script: str, *args: str, cwd: Path) -> str:
    path = cwd / f"script_{len(list(cwd.iterdir()))}.py"
    path.write_text(textwrap.dedent(script))
    result = subprocess.run(
        [sys.executable, str(path), *args], cwd=cwd, capture_output=True, text=True, check=False
    )
    assert 0 == result.returncode, result.stderr
    return result.stdout


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("library", ["cloudpickle", "dill"])
def test_dumps_in_one_process_loads_in_another(kind, library, tmp_path):
    """
    An instance and its class, pickled in __main__, load and work in a new
    process: fields, defaults, factories, inheritance, methods, immutability.
    """
    record = kind == "Record"
    define = DEFINE.format(kind=kind, record_only="")
    dump = f"""
import {library}
{define}
{RECORD_ONLY if record else ""}
with open("point.pickle", "wb") as file:
    file.write({library}.dumps((Point(1, 2), Point)))
if Base is Record:
    with open("extras.pickle", "wb") as file:
        file.write({library}.dumps((Point3(1, 2, 3), Order("cy", ["tea"]))))
"""
    run(dump, cwd=tmp_path)
    # dill re-creates a named tuple class with collections.namedtuple, which
    # leaves its methods behind; records keep theirs with both libraries.
    methods_survive = record or library == "cloudpickle"
    load = f"import {library}\n" + LOAD_AND_CHECK.format(
        loads=f"{library}.loads", methods_survive=methods_survive
    )
    arguments = ["point.pickle"]
    if record:
        load += LOAD_RECORD_EXTRAS.format(loads=f"{library}.loads")
        arguments.append("extras.pickle")
    output = run(load, *arguments, cwd=tmp_path)
    assert output.startswith("loaded Point(x=1, y=2)\n")


@pytest.mark.parametrize("kind", KINDS)
def test_joblib_process_workers(kind, tmp_path):
    """joblib's process backend sends a __main__ class to its workers and back."""
    script = (
        DEFINE.format(kind=kind, record_only="")
        + """
import os
from joblib import Parallel, delayed


def shifted(point):
    return os.getpid(), point._replace(x=point.x + 1)


if __name__ == "__main__":
    results = Parallel(n_jobs=2, backend="loky")(delayed(shifted)(Point(x, 1)) for x in range(4))
    assert any(pid != os.getpid() for pid, _ in results), "no worker process was used"
    points = [point for _, point in results]
    assert all(type(point).__name__ == "Point" and point.norm() for point in points)
    print(points)
"""
    )
    assert "[Point(x=1, y=1), Point(x=2, y=1), Point(x=3, y=1), Point(x=4, y=1)]\n" == run(
        script, cwd=tmp_path
    )


SCRIPT_BLOCK = re.compile(
    r"```py\n(# Script: (?P<name>[^\n]+)\n.*?)```\n\nprints\n\n```text\n(?P<output>.*?)```",
    re.DOTALL,
)


def test_documented_joblib_script(tmp_path):
    """The joblib script on the "Records and other libraries" page prints what the page says."""
    (match,) = [m for m in SCRIPT_BLOCK.finditer(libraries_page()) if m["name"] == "joblib"]
    assert match["output"] == run(match[1], cwd=tmp_path)
