"""
``python -m records migrate`` on real projects: each project's own test suite
gives the same outcome, test by test, before and after the migration, with
the C accelerator and on the pure-Python path; and mypy, with the project's
own configuration before and records' plugin added to it after, reports no
new error.

The projects are pinned source distributions from the package index that
ship their tests (``PROJECTS`` in ``benchmarks/migrated_projects.py``, which
also times a hot path of each). They are fetched from the network, so only
the ``migrate`` env of the test command runs these tests
(``RECORDS_MIGRATE_PROJECTS=1``).
"""

import ast
import os

import pytest
from support import benchmarks

pytest.importorskip("libcst", reason="libcst comes with the migrate extra")
pytestmark = pytest.mark.skipif(
    not os.environ.get("RECORDS_MIGRATE_PROJECTS"),
    reason="fetches projects from the package index: run by the migrate env (tox -e migrate)",
)

migrated_projects = benchmarks.load("migrated_projects")


def named_tuple_definitions(tree):
    """
    Count, with ``ast`` alone, the class statements with a base spelled
    ``NamedTuple`` and the calls spelled ``namedtuple`` under *tree*, and
    those spelled ``Record`` / ``records.namedtuple``.
    """
    counts = {"NamedTuple": 0, "namedtuple": 0, "Record": 0, "records.namedtuple": 0}
    for path in tree.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, ast.ClassDef):
                for base in node.bases:
                    name = ast.unparse(base)
                    if name.endswith("NamedTuple"):
                        counts["NamedTuple"] += 1
                    elif name == "Record":
                        counts["Record"] += 1
            elif isinstance(node, ast.Call):
                name = ast.unparse(node.func)
                if name == "records.namedtuple":
                    counts["records.namedtuple"] += 1
                elif name.endswith("namedtuple"):
                    counts["namedtuple"] += 1
    return counts


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """
    Where each project is fetched and migrated, once for this module's tests
    (outside the checkout, so that the projects' suites do not read its
    pytest configuration).
    """
    return tmp_path_factory.mktemp("projects")


@pytest.mark.parametrize("project", migrated_projects.PROJECTS, ids=lambda project: project.name)
def test_suite_gives_the_same_outcomes_after_migration(project, work):
    """Every test of the project has the same outcome before and after, on both paths."""
    before, after, report = migrated_projects.prepare(project, work / project.name)
    found_before = named_tuple_definitions(before / project.source)
    found_after = named_tuple_definitions(after / project.source)
    left = [line for line in report.splitlines() if ": left class " in line]
    # Every named tuple definition became a records one, but those reported as left.
    migrated = found_before["NamedTuple"] + found_before["namedtuple"] - len(left)
    assert migrated > 0, report
    assert migrated == found_after["Record"] + found_after["records.namedtuple"], report
    assert f"changed {migrated} definition" in report

    outcomes, accelerated, pure = migrated_projects.run_suites(
        project, (before, {}), (after, {}), (after, {"RECORDS_PURE_PYTHON": "1"})
    )
    assert len(outcomes) > 100
    assert {"passed"} <= set(outcomes.values()) <= {"passed", "skipped"}
    assert outcomes == accelerated
    assert outcomes == pure


@pytest.mark.parametrize("project", migrated_projects.PROJECTS, ids=lambda project: project.name)
def test_type_checks_as_before_after_migration(project, work, tmp_path):
    """
    mypy reports no error on the migrated package, with ``records.mypy``
    added to the project's plugins, that it did not report before on the
    project's package, with the project's own configuration: the one its
    CI type-checks with. packaging's is the ``[tool.mypy]`` table of its
    pyproject.toml (strict; its pre-commit mypy hook checks its sources,
    not its tests; its ``python_version``, 3.8, is older than recent mypy
    checks for: mypy says so and checks for the running Python). webcolors'
    sdist configures no mypy and its CI (its noxfile.py) runs none;
    rfc3986's configures none and names no repository: both are checked
    with mypy's defaults.

    An error is its file, message and code, counted; not its line, which the
    migration moves when it adds or removes imports (so an error gone and a
    new one with its message in the same file cancel out).
    """
    before, after, _ = migrated_projects.prepare(project, work / project.name)
    found_before, found_after = migrated_projects.type_check(project, before, after, tmp_path)
    new = found_after - found_before
    assert not new, "\n".join(
        f"{file}: {message}  [{code}]" for file, message, code in sorted(new.elements())
    )


def test_hot_paths_are_timed_before_and_after(work, tmp_path):
    """
    The benchmark times each hot path in both trees: a row each, with its
    ratio (one round of one repeat: the figures are the benchmark's business).
    """
    output = tmp_path / "migrated-projects.md"
    arguments = ["--rounds", "1", "--repeats", "1", "--work", str(work), "--output", str(output)]
    assert 0 == migrated_projects.main(arguments)
    lines = output.read_text().splitlines()
    assert "1 rounds, each a fresh process per copy (median of 1 repeats)" in lines[2]
    rows = lines[lines.index("|---|---|---|---|---|---|") + 1 :]
    hot_paths = [(p, h) for p in migrated_projects.PROJECTS for h in p.hot_paths]
    assert len(hot_paths) == len(rows)
    for (project, hot_path), row in zip(hot_paths, rows):
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert f"{project.name} {project.version}" == cells[0]
        assert hot_path.what == cells[2]
        assert cells[5].endswith("×") and float(cells[5][:-1]) > 0


@pytest.mark.parametrize("option", ["--rounds", "--repeats"])
def test_benchmark_refuses_fewer_than_one(option, capsys):
    """--rounds and --repeats below 1 are refused by name, before anything is fetched."""
    with pytest.raises(SystemExit) as exit_info:
        migrated_projects.main([option, "0"])
    assert 2 == exit_info.value.code
    assert f"{option} must be at least 1, not 0" in capsys.readouterr().err


migrate_speed = benchmarks.load("migrate_speed")


def test_the_command_is_timed_on_each_code_base(work, tmp_path):
    """
    The speed benchmark times the command both ways on each code base: a row
    each, with its files, lines and what the command changed and left (one
    round, no baseline: the figures are the benchmark's business).
    """
    output = tmp_path / "migrate-speed.md"
    arguments = ["--rounds", "1", "--work", str(work / "speed"), "--output", str(output)]
    assert 0 == migrate_speed.main(arguments)
    lines = output.read_text().splitlines()
    rows = lines[lines.index("|---|---|---|---|---|---|") + 1 :]
    names = [f"{base.project.name} {base.project.version}" for base in migrate_speed.PROJECTS]
    assert names == [row.strip("|").split("|")[0].strip() for row in rows]
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert int(cells[1]) > 0
        assert cells[3].endswith(" left")
        assert all(cell.endswith("]") and " s [" in cell for cell in cells[4:])


def test_speed_benchmark_refuses_what_cannot_work(tmp_path, capsys):
    """--rounds below 1 and a baseline without records are refused, before anything is fetched."""
    with pytest.raises(SystemExit) as exit_info:
        migrate_speed.main(["--rounds", "0"])
    assert 2 == exit_info.value.code
    assert "--rounds must be at least 1, not 0" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        migrate_speed.main(["--baseline", str(tmp_path)])
    assert 2 == exit_info.value.code
    assert f"--baseline {tmp_path} holds no records package" in capsys.readouterr().err
