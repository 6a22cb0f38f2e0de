"""
The checker matrix: what each type checker understands of records, kept in the repository.

Every checker (mypy with the records plugin and without it, pyright,
basedpyright, pyrefly, ty, zuban) reads ``checkers/records_examples.py`` and
its twins, the same rows with ``Record`` from ``records.as_namedtuple`` and
with ``typing.NamedTuple``. What it gets wrong, row by row, is compared with
``checkers/expected/<checker>-<view>.txt``, so that a checker release that
changes its behaviour fails here with a readable diff. After checking such a
change, record the new behaviour with ``RECORDS_UPDATE_CHECKERS=1``.

Whatever the files say, a checker must never report an error on a valid line
of ``records_examples.py``; through ``records.as_namedtuple`` each checker
gets the tuple rows right, and within one row as many rows as with
``typing.NamedTuple``.

The checkers come with the ``checkers`` extra (tox env ``typing-checkers``,
which sets ``RECORDS_REQUIRE_CHECKERS``: there a missing checker fails).
"""

import ast
import os
import re
import subprocess
import sys

import pytest
from checkers import as_namedtuple_twin
from checkers.matrix import (
    AS_NAMEDTUPLE_MODULE,
    EXPECTED,
    MISSING,
    MODULES,
    NAMEDTUPLE_MODULE,
    RECORDS_MODULE,
    TYPING_PAGE,
    VIEWS,
    markdown_tables,
    recorded,
    recorded_rows,
    report,
    row_results,
    rows,
    run,
    source,
    valid_lines,
)
from checkers.namedtuple_twin import twin

if sys.version_info < (3, 10):  # noqa: UP036 - PyPy 3.9 runs the suite
    pytest.skip("the example modules use match statements", allow_module_level=True)

needs_the_checkers = pytest.mark.skipif(
    bool(MISSING) and not os.environ.get("RECORDS_REQUIRE_CHECKERS"),
    reason="the checkers come with the 'checkers' group (tox env typing-checkers)",
)


@needs_the_checkers
@pytest.mark.parametrize("view", VIEWS, ids=lambda view: view.id)
def test_checker_reports_what_is_recorded(view, tmp_path):
    """Each checker reports no error on valid code, and gets exactly the recorded rows wrong."""
    assert [] == MISSING, "checkers missing"
    diagnostics = run(view, tmp_path / view.id)
    actual = report(diagnostics)
    false = [d for d in diagnostics if d.module == RECORDS_MODULE and d.line in valid_lines()]
    assert [] == false, f"{view.id} reports errors on valid lines of {RECORDS_MODULE}"
    if os.environ.get("RECORDS_UPDATE_CHECKERS"):
        version = subprocess.run(view.version, capture_output=True, text=True, check=True)
        header = f"# {view.id}: recorded with {' '.join(version.stdout.split())}\n"
        view.expected.write_text(header + actual)
    assert recorded(view) == actual


def test_every_view_has_a_record():
    """Every checker view has its recorded output, and no file is left over."""
    assert sorted(f"{view.id}.txt" for view in VIEWS) == sorted(
        path.name for path in EXPECTED.glob("*.txt")
    )


def test_no_recorded_view_has_an_error_on_valid_code():
    """No recorded view accepts an error on a valid line of the records examples."""
    for view in VIEWS:
        assert "errors in " not in recorded(view), view.id
        assert " false " not in recorded(view, RECORDS_MODULE), view.id


def test_pyrefly_and_ty_reach_pyright():
    """pyrefly and ty get at least as many rows right as pyright, by default."""
    pyright = recorded_rows("pyright-default", RECORDS_MODULE)
    assert recorded_rows("pyrefly-default", RECORDS_MODULE) >= pyright
    assert recorded_rows("ty-default", RECORDS_MODULE) >= pyright


def test_mypy_with_the_plugin_gets_every_row():
    """mypy with the plugin understands every row of records, either spelling."""
    total = len(rows(RECORDS_MODULE))
    assert total == recorded_rows("mypy-plugin", RECORDS_MODULE)
    assert total == recorded_rows("mypy-plugin", AS_NAMEDTUPLE_MODULE)
    assert recorded(next(v for v in VIEWS if v.id == "mypy-plugin"), AS_NAMEDTUPLE_MODULE)


#: The rows about a record being the tuple of its fields.
TUPLE_ROWS = [
    "index_types",
    "unpacking_types",
    "unpacking_arity",
    "iteration_types",
    "as_a_fixed_tuple",
    "as_a_variadic_tuple",
]


def test_as_namedtuple_gets_the_tuple_rows_everywhere():
    """Through records.as_namedtuple every checker reads a record as the tuple of its fields."""
    for view in VIEWS:
        results = row_results(view, AS_NAMEDTUPLE_MODULE)
        assert dict.fromkeys(TUPLE_ROWS, "right") == {
            name: results[name] for name in TUPLE_ROWS
        }, view.id


def test_as_namedtuple_is_within_a_row_of_named_tuples():
    """Through records.as_namedtuple every checker gets, within one, the rows of typing.NamedTuple."""
    for view in VIEWS:
        named_tuple = recorded_rows(view.id, NAMEDTUPLE_MODULE)
        assert recorded_rows(view.id, AS_NAMEDTUPLE_MODULE) >= named_tuple - 1, view.id


def test_valid_lines_run():
    """Every row of the records examples runs, once its marked lines are left out."""
    unmarked = "\n".join(
        re.sub(r"^(\s*).*#\s*E$", r"\1pass", line) for line in source(RECORDS_MODULE).splitlines()
    )
    namespace: dict[str, object] = {"__name__": "records_examples"}
    exec(compile(unmarked, RECORDS_MODULE, "exec"), namespace)
    results = {row.name: namespace[f"row_{row.name}"]() for row in rows(RECORDS_MODULE)}
    assert len(rows(RECORDS_MODULE)) == len(results)
    assert {None} == set(results.values())  # each row ran to its end


def test_the_twins_have_the_same_rows():
    """The as_namedtuple and typing.NamedTuple twins have the same rows, marking the same lines."""

    def marked(module: str) -> list[tuple[str, list[str]]]:
        lines = source(module).splitlines()
        return [
            (row.name, [lines[n - 1].strip() for n in sorted(row.marked)]) for row in rows(module)
        ]

    assert marked(RECORDS_MODULE) == marked(AS_NAMEDTUPLE_MODULE)
    assert marked(RECORDS_MODULE) == marked(NAMEDTUPLE_MODULE)


def test_rows_mark_their_errors():
    """Every row marks at least one error, but the rows about valid code only."""
    valid_only = {"tuple_operations", "define"}
    for module in MODULES:
        for row in rows(module):
            assert bool(row.marked) != (row.name in valid_only), (module, row.name)


def test_the_typing_page_shows_the_recorded_matrix():
    """The Typing page's checker tables are the ones the recorded outputs make."""
    page = TYPING_PAGE.read_text()
    for table in markdown_tables():
        assert table in page, f"docs/pages/typing.md needs this table:\n{table}"


def test_the_twin_has_no_spelling_of_records_left():
    """A spelling of records that the twin has no replacement for stops the twin, naming it."""
    records_examples = source(RECORDS_MODULE)
    assert "Record" not in re.sub(r'""".*?"""', "", source(NAMEDTUPLE_MODULE), flags=re.DOTALL)
    with pytest.raises(AssertionError, match=r"lines \[\d+\]: a spelling of records"):
        twin(records_examples + "\nAlias = Record\n")


def test_the_as_namedtuple_twin_changes_the_import_alone():
    """The as_namedtuple twin is the records examples with the import line and define changed."""

    def body(module: str) -> list[str]:
        text = source(module)
        return text.splitlines()[ast.parse(text).body[0].end_lineno :]

    changed = [
        (mine, theirs)
        for mine, theirs in zip(body(RECORDS_MODULE), body(AS_NAMEDTUPLE_MODULE), strict=True)
        if mine != theirs
    ]
    imports = (
        "from records import Record, field",
        "from records.as_namedtuple import Record, define, field",
    )
    assert imports == changed[0]
    assert len(changed) == 3, changed  # the import, and define in two rows
    for mine, theirs in changed[1:]:
        assert mine.replace("Record.define(", "define(") == theirs
    with pytest.raises(AssertionError, match="no longer spell"):
        as_namedtuple_twin.twin(source(RECORDS_MODULE).replace("Record.define(", "Record.make("))
