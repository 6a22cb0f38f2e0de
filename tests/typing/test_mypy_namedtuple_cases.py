"""mypy's own named tuple cases give the same messages with records, but for those listed.

tests/typing/mypy_namedtuple_cases.py runs each case of mypy's two `.test`
files about named tuples as written and in the records spelling; the table
"mypy's own named tuple cases" in docs/pages/typing.md lists the cases that
differ, each `intended`, `limit` or `not yet`. A case not listed must give
the same messages; a listed `intended` or `limit` case must still differ
(or its row is stale); a `not yet` case is an expected failure, strict, so
that fixing it fails the test until its row goes.
"""

from __future__ import annotations

import re
import sys
from functools import cache
from pathlib import Path

import pytest

pytest.importorskip("mypy")

sys.path.insert(0, str(Path(__file__).parent))
import mypy_namedtuple_cases as cases

TYPING_MD = Path(__file__).parents[2] / "docs" / "pages" / "typing.md"
STATUSES = ("intended", "limit", "not yet")
ROW = re.compile(r"^\| `(\w+)` \| ([a-z ]+) \|")


def intended_differences() -> dict[str, str]:
    """The status of each case in the table of docs/pages/typing.md, by name."""
    text = TYPING_MD.read_text()
    section = text.split("## mypy's own named tuple cases", 1)[1].split("\n## ", 1)[0]
    table = {}
    for line in section.splitlines():
        match = ROW.match(line)
        if match:
            name, status = match.group(1), match.group(2).strip()
            assert status in STATUSES, line
            assert name not in table, line
            table[name] = status
    return table


def mypy_version() -> str:
    """The version of the mypy under test, as in its source distribution's name."""
    import mypy.version

    return mypy.version.__version__.partition("+")[0]


@cache
def results() -> dict[str, cases.Result]:
    """Every case run both ways, once per session, over a process pool."""
    return cases.run_cases(cases.all_cases(mypy_version()))


def test_table_names_cases():
    """Each row of the table names a case of the mypy under test."""
    names = {case.name for case in cases.all_cases(mypy_version())}
    assert set(intended_differences()) <= names


def _params():
    table = intended_differences()
    try:
        names = [case.name for case in cases.all_cases(mypy_version())]
    except Exception:  # no mypy, or no network for the first download
        names = sorted(table)
    for name in names:
        marks = [pytest.mark.slow]
        if table.get(name) == "not yet":
            marks.append(pytest.mark.xfail(reason="listed as not yet", strict=True))
        yield pytest.param(name, table.get(name), marks=marks, id=name)


@pytest.mark.parametrize(("name", "status"), list(_params()))
def test_case(name: str, status: str | None):
    """The case gives the same messages both ways, or differs as its row says."""
    result = results()[name]
    verdict = result.verdict
    assert verdict != "crash", (result.plain, result.records)
    shown = (
        "\n".join(cases.normalise(result.plain)),
        "\n".join(cases.normalise(result.records)),
    )
    if status in ("intended", "limit"):
        assert verdict == "differs", f"{name} is listed as {status} but no longer differs"
    else:
        assert verdict == "same", shown
