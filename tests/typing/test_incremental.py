"""
The plugin gives the same results from a warm cache, and from the daemon, as
from a cold run. Every cache starts as ``mypy_caches`` makes it (the standard
library in it already, support/mypy_caches.py): a cold run of records' stub
and of the test's modules.
"""

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

mypy_api = pytest.importorskip("mypy.api", reason="mypy comes with the test group")
# Each test runs mypy several times, or its daemon: seconds each.
pytestmark = pytest.mark.slow

SHAPES = textwrap.dedent(
    """
    from records import Record

    class Point(Record):
        x: int
        y: int = 0
    """
)
EDITED_SHAPES = SHAPES + "\nclass Point3(Point):\n    z: str = ''\n"
USE = textwrap.dedent(
    """
    from shapes import Point
    p = Point(1)
    reveal_type(p)
    reveal_type(p._replace(y=2))
    Point("x")
    """
)
EDITED_USE = USE + "from shapes import Point3\nreveal_type(Point3(1, 2, 'a'))\nPoint3(1, 2, 3)\n"


def _write(
    directory: Path, shapes: str, use: str, *, strict: bool = False, plugin: bool = True
) -> None:
    (directory / "shapes.py").write_text(shapes)
    (directory / "use.py").write_text(use)
    config = "[mypy]\n" + ("plugins = records.mypy\n" if plugin else "")
    (directory / "mypy.ini").write_text(config + ("strict = True\n" if strict else ""))


def _mypy(directory: Path, cache: Path) -> str:
    cwd = os.getcwd()
    os.chdir(directory)
    try:
        stdout, _, _ = mypy_api.run(
            ["--config-file", "mypy.ini", "--cache-dir", str(cache), "use.py", "shapes.py"]
        )
    finally:
        os.chdir(cwd)
    return stdout


def test_warm_cache_matches_cold_run(tmp_path, mypy_caches):
    """A second run on a warm cache, after an edit, reports what a cold run does."""
    project = tmp_path / "project"
    project.mkdir()
    _write(project, SHAPES, USE)
    cache = mypy_caches.fresh(project / "mypy.ini")
    first = _mypy(project, cache)
    assert 'Revealed type is "tuple[int, int, fallback=shapes.Point]"' in first
    _write(project, EDITED_SHAPES, EDITED_USE)
    warm = _mypy(project, cache)
    cold = _mypy(project, mypy_caches.fresh(project / "mypy.ini"))
    assert cold == warm
    assert 'Revealed type is "tuple[int, int, str, fallback=shapes.Point3]"' in warm
    assert 'Argument 3 to "Point3" has incompatible type "int"; expected "str"' in warm


def test_cache_of_mypy_alone_then_the_plugin(tmp_path, mypy_caches):
    """
    Turning the plugin on or off over one cache gives a cold run's report
    each time. The stub's Record is cached with or without the
    dataclass_transform mark the plugin takes off, so mypy must not reuse it
    across the change (reused, it would report the misordered field twice).
    """
    project = tmp_path / "project"
    project.mkdir()
    shapes = SHAPES + "\nclass Misordered(Record):\n    first: int = 0\n    second: int\n"
    reports = []
    cache = None
    for plugin in [False, True, False]:
        _write(project, shapes, USE, plugin=plugin)
        cache = cache or mypy_caches.fresh(project / "mypy.ini")
        warm = _mypy(project, cache)
        assert _mypy(project, mypy_caches.fresh(project / "mypy.ini")) == warm
        reports.append(_reports(warm))
    alone, with_the_plugin, alone_again = reports
    assert alone == alone_again
    assert alone == [
        "shapes.py:10: error: Attributes without a default cannot follow attributes with one  "
        "[misc]",
        'use.py:4: note: Revealed type is "shapes.Point"',
        'use.py:5: note: Revealed type is "shapes.Point"',
        'use.py:6: error: Argument 1 to "Point" has incompatible type "str"; expected "int"  '
        "[arg-type]",
    ]
    assert with_the_plugin == [
        'shapes.py:10: error: record "Misordered": non-default field "second" follows default '
        'field "first"  [records-field-order]',
        'use.py:4: note: Revealed type is "tuple[int, int, fallback=shapes.Point]"',
        'use.py:5: note: Revealed type is "tuple[int, int, fallback=shapes.Point]"',
        'use.py:6: error: Argument 1 to "Point" has incompatible type "str"; expected "int"  '
        "[arg-type]",
    ]


def _reports(output: str) -> list[str]:
    """mypy's report lines, without the summary and the daemon's own messages."""
    return sorted(
        line for line in output.splitlines() if line.startswith(("use.py:", "shapes.py:"))
    )


GENERIC_SHAPES = textwrap.dedent(
    """
    from typing import Generic, TypeVar
    from records import Record, field

    T = TypeVar("T")

    class Point(Record):
        x: str
        y: int = 0

    class Box(Record, Generic[T]):
        item: T
        tags: list[str] = field(default_factory=list)

    class IntBox(Box[int]):
        label: str = ""

    Pair = Record.define("Pair", [("left", int), ("right", str)])
    """
)
GENERIC_USE = USE + textwrap.dedent(
    """
    from shapes import IntBox, Pair
    reveal_type(IntBox(1, [], "a"))
    reveal_type(Pair(1, "a")._replace(right="b"))
    IntBox("no")
    """
)
# Each step edits the files, then the daemon rechecks: new subclass, a field
# changing type (so unchanged use sites change), generics and Record.define,
# and a step back to the start.
DAEMON_STEPS = [
    (SHAPES, USE),
    (EDITED_SHAPES, EDITED_USE),
    (GENERIC_SHAPES, GENERIC_USE),
    (SHAPES, USE),
]


def _daemon_steps(
    tmp_path: Path, mypy_caches, steps: list[tuple[str, str]], *, strict: bool = False
) -> list[list[str]]:
    """Run dmypy after each edit in *steps*; each report must be a cold run's. Return them."""
    project = tmp_path / "project"
    project.mkdir()
    dmypy = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(tmp_path / "status.json")]
    run = [*dmypy, "run", "--", "--config-file", "mypy.ini", "use.py", "shapes.py"]
    outputs = []
    try:
        for shapes, use in steps:
            _write(project, shapes, use, strict=strict)
            daemon = subprocess.run(run, cwd=project, capture_output=True, text=True, check=False)
            assert "Traceback" not in daemon.stderr, daemon.stderr
            cold = _mypy(project, mypy_caches.fresh(project / "mypy.ini"))
            assert _reports(cold) == _reports(daemon.stdout)
            outputs.append(_reports(daemon.stdout))
    finally:
        subprocess.run([*dmypy, "stop"], cwd=project, capture_output=True, check=False)
    shutil.rmtree(project)
    return outputs


@pytest.mark.skipif(sys.platform == "win32", reason="dmypy's unix socket")
def test_daemon_matches_cold_run(tmp_path, mypy_caches):
    """dmypy, rechecking after each edit, reports what a cold run does."""
    outputs = _daemon_steps(tmp_path, mypy_caches, DAEMON_STEPS)
    assert (
        'use.py:8: note: Revealed type is "tuple[int, int, str, fallback=shapes.Point3]"'
        in (outputs[1])
    )
    assert outputs[2] == sorted(
        [
            'use.py:3: error: Argument 1 to "Point" has incompatible type "int"; expected "str"  '
            "[arg-type]",
            'use.py:4: note: Revealed type is "tuple[str, int, fallback=shapes.Point]"',
            'use.py:5: note: Revealed type is "tuple[str, int, fallback=shapes.Point]"',
            'use.py:9: note: Revealed type is "tuple[int, list[str], str, fallback=shapes.IntBox]"',
            'use.py:10: note: Revealed type is "tuple[int, str, fallback=shapes.Pair]"',
            'use.py:11: error: Argument 1 to "IntBox" has incompatible type "str"; expected "int"  '
            "[arg-type]",
        ]
    )
    assert outputs[3] == outputs[0]


LOCAL_USE = textwrap.dedent(
    """
    from records import Record

    from shapes import Point


    def far_end() -> int:
        class Segment(Record):
            start: Point
            end: Point

        return Segment(Point(1), Point(2)).end.x
    """
)


@pytest.mark.skipif(sys.platform == "win32", reason="dmypy's unix socket")
def test_daemon_keeps_the_methods_of_a_record_in_a_function_typed(tmp_path, mypy_caches):
    """
    With --strict, dmypy rechecks a record defined in a function, after an
    edit of the module whose record it uses, without finding an untyped method.
    """
    grown = SHAPES + "    z: int = 0\n"  # Point gets a field
    steps = [(SHAPES, LOCAL_USE), (grown, LOCAL_USE)]
    outputs = _daemon_steps(tmp_path, mypy_caches, steps, strict=True)
    assert [[], []] == outputs


SUBCLASS_USE = textwrap.dedent(
    """
    from shapes import Point3
    class Point4(Point3):
        w: bytes
    class Again(Point3):
        x: str = ""
    reveal_type(Point4(1, 2, "a", b""))
    """
)


def test_fields_read_back_from_the_cache(tmp_path, mypy_caches):
    """
    A record's fields, read from the cache (its module unchanged), make its
    subclass in an edited module: their types, which have defaults, and
    which record declares them.
    """
    project = tmp_path / "project"
    project.mkdir()
    _write(project, EDITED_SHAPES, USE)
    cache = mypy_caches.fresh(project / "mypy.ini")
    _mypy(project, cache)
    _write(project, EDITED_SHAPES, SUBCLASS_USE)
    warm = _mypy(project, cache)
    assert _mypy(project, mypy_caches.fresh(project / "mypy.ini")) == warm
    assert [
        'use.py:4: error: record "Point4": non-default field "w" follows default field "z"  '
        "[records-field-order]",
        'use.py:6: error: Incompatible types in assignment (expression has type "str", base '
        'class "Point" defined the type as "int")  [assignment]',
        'use.py:6: error: record "Again": field "x" is already defined in base record "Point"  '
        "[records-redefined-field]",
        'use.py:7: note: Revealed type is "tuple[int, int, str, bytes, fallback=use.Point4]"',
    ] == _reports(warm)
