"""mypy's own named tuple cases give the same messages with records, but for those listed.

tests/typing/mypy_namedtuple_cases.py runs each case of mypy's two `.test`
files about named tuples as written and in the records spelling; the table
"mypy's own named tuple cases" in docs/pages/typing.md lists the cases that
differ, each `intended`, `limit` or `not yet`. A case not listed must give
the same messages; a listed `intended` or `limit` case must still differ
(or its row is stale); a `not yet` case is an expected failure, strict, so
that fixing it fails the test until its row goes.

The cases come from mypy's source distribution, downloaded from the package
index once into a cache (`mypy_namedtuple_cases.CACHE_DIR`), and take about
290 mypy runs: only the typing env of the test command (tox env "3.13")
runs them, with `RECORDS_MYPY_CASES=1`; elsewhere they are skipped. Where
they run, a source distribution neither cached nor downloadable is a
failure, not a skip: the test command's machines reach the package index.
By hand: `RECORDS_MYPY_CASES=1 pytest tests/typing/test_mypy_namedtuple_cases.py`.
"""

from __future__ import annotations

import os
import re
import sys
from functools import cache
from pathlib import Path

import pytest

pytest.importorskip("mypy")
if not os.environ.get("RECORDS_MYPY_CASES"):
    pytest.skip(
        "about 290 mypy runs over mypy's own cases: run by the typing env (tox -e 3.13), "
        "or with RECORDS_MYPY_CASES=1",
        allow_module_level=True,
    )

sys.path.insert(0, str(Path(__file__).parent))
import mypy_namedtuple_cases as cases

pytestmark = pytest.mark.slow

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


def load_cases() -> tuple[list[cases.Case], str | None]:
    """The cases of the mypy under test, or none and why they cannot be had."""
    version = mypy_version()
    try:
        return cases.all_cases(version), None
    except (OSError, ValueError) as error:  # no network (URLError), not on the index
        return [], (
            f"mypy {version}'s source distribution is not in {cases.CACHE_DIR} and could "
            f"not be downloaded from the package index ({error}): run once with network, "
            "or set RECORDS_MYPY_SDIST_CACHE to a folder that holds "
            f"mypy-{version}.tar.gz"
        )


CASES, UNAVAILABLE = load_cases()


@cache
def results() -> dict[str, cases.Result]:
    """Every case run both ways, once per session, over a process pool."""
    return cases.run_cases(CASES)


def test_sdist_available():
    """mypy's cases can be had: a missing source distribution fails here, once, clearly."""
    if UNAVAILABLE is not None:
        pytest.fail(UNAVAILABLE, pytrace=False)


def test_table_names_cases():
    """Each row of the table names a case of the mypy under test."""
    if UNAVAILABLE is not None:
        pytest.skip("no cases (test_sdist_available)")
    names = {case.name for case in CASES}
    assert set(intended_differences()) <= names


def _params():
    table = intended_differences()
    for case in CASES:
        marks = []
        if table.get(case.name) == "not yet":
            marks.append(pytest.mark.xfail(reason="listed as not yet", strict=True))
        yield pytest.param(case.name, table.get(case.name), marks=marks, id=case.name)


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
