"""
Migrate real projects with ``python -m records migrate``, and time one hot
path of each before and after.

Usage: ``python benchmarks/migrated_projects.py [--rounds R] [--repeats N]
[--output FILE.md] [--work DIR]`` (needs the ``migrate`` extra and the package index).

Each project of ``PROJECTS`` is a pinned source distribution that ships its
tests. It is downloaded and unpacked twice; one copy's package is migrated.
Each round times the hot path in both copies, one fresh process each,
interleaved; a process reports the median of its repeats (7), and the report
gives the median over the rounds, their smallest and largest, and the
ratio after / before. ``tests/test_migrate_projects.py`` runs each project's
own suite on both copies (``run_suites``) and compares them test by test, and
type-checks both copies with mypy (``type_check``) and compares their errors.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree


@dataclass(frozen=True)
class HotPath:
    """One operation of a project, timed: what it does, its set-up and statement."""

    what: str
    setup: str
    statement: str


@dataclass(frozen=True)
class Project:
    """A project from the package index, its suite, and hot paths of it."""

    name: str
    version: str
    hot_paths: tuple[HotPath, ...]
    #: The folder that holds its package, and its tests, in the unpacked sdist.
    source: str = "src"
    tests: str = "tests"
    #: What its named tuples are written with.
    spelling: str = "typing.NamedTuple"
    #: The file of its sdist whose ``[tool.mypy]`` table configures mypy as
    #: its CI runs it; None where it has none: mypy's defaults.
    mypy_config: str | None = None


PROJECTS = [
    Project(
        "packaging",
        "25.0",
        (
            HotPath(
                "parse a version: `Version(text)` (a `_Version` NamedTuple per call)",
                "from packaging.version import Version",
                "Version('1.2.3rc1.post2.dev3+local.7')",
            ),
            HotPath(
                "print a version: `str(version)` (reads its `_Version`'s fields)",
                "from packaging.version import Version; v = Version('1!1.2.3rc1.post2.dev3')",
                "str(v)",
            ),
        ),
        mypy_config="pyproject.toml",
    ),
    Project(
        "webcolors",
        "25.10.0",
        (
            HotPath(
                "a hex colour to RGB: `hex_to_rgb(text)` (an `IntegerRGB` NamedTuple)",
                "from webcolors import hex_to_rgb",
                "hex_to_rgb('#ff8800')",
            ),
        ),
    ),
    Project(
        "rfc3986",
        "2.0.0",
        (
            HotPath(
                "parse a URI: `uri_reference(text)` (a `collections.namedtuple` subclass)",
                "from rfc3986 import uri_reference",
                "uri_reference('https://user@example.com:8080/a/b?q=1#frag')",
            ),
            HotPath(
                "change a URI: `uri.copy_with(path=...)` (its `_replace`)",
                "from rfc3986 import uri_reference; "
                "u = uri_reference('https://user@example.com:8080/a/b?q=1#frag')",
                "u.copy_with(path='/x')",
            ),
        ),
        spelling="collections.namedtuple",
    ),
]


def fetch(project: Project, into: Path) -> Path:
    """Download and unpack *project*'s source distribution under *into*."""
    downloads = into / "downloads"
    subprocess.run(
        [
            sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
            "--no-binary", ":all:", "--dest", str(downloads),
            f"{project.name}=={project.version}",
        ],
        check=True,
    )  # fmt: skip
    (archive,) = downloads.glob(f"{project.name}-{project.version}.tar.gz")
    with tarfile.open(archive) as opened:
        if hasattr(tarfile, "data_filter"):
            opened.extractall(into, filter="data")
        else:  # pragma: no cover - CPython before 3.10.12 / 3.11.4
            opened.extractall(into)
    return into / f"{project.name}-{project.version}"


#: Where ``prepare`` keeps the migration's report, beside the two trees.
REPORT = "migration-report.txt"


def prepare(project: Project, work: Path) -> tuple[Path, Path, str]:
    """
    Unpack *project* twice under *work* (``before``, ``after``), migrate the
    package of ``after``, and return both trees and the command's report.
    Where *work* holds them already (prepared by an earlier call: in
    ``tests/test_migrate_projects.py``, the suites' tests, then the
    benchmark's), they are used again.
    """
    before, after, saved = work / "before", work / "after", work / REPORT
    if saved.exists():
        return before, after, saved.read_text(encoding="utf-8")
    unpacked = fetch(project, work / "download")
    shutil.copytree(unpacked, before)
    shutil.copytree(unpacked, after)
    result = subprocess.run(
        [sys.executable, "-m", "records", "migrate", str(after / project.source)],
        capture_output=True,
        text=True,
        check=True,
    )
    saved.write_text(result.stdout, encoding="utf-8")
    return before, after, result.stdout


def project_environment(tree: Path, project: Project, **extra: str) -> dict[str, str]:
    """Return the environment that imports *project* from *tree*, not site-packages."""
    env = {**os.environ, **extra, "PYTHONPATH": str(tree / project.source)}
    for name in ("PYTHONDEVMODE", "PYTHONWARNINGS"):
        env.pop(name, None)
    return env


def run_suites(project: Project, *runs: tuple[Path, dict[str, str]]) -> list[dict[str, str]]:
    """
    Run *project*'s own tests once for each of *runs* (a tree, and variables
    to set: ``RECORDS_PURE_PYTHON``), one after the other (the test command
    keeps each of its two cores busy with one run); return each run's
    outcome of each test, by its id.
    """
    results = []
    for index, (tree, extra) in enumerate(runs):
        report = tree / f"junit-{index}.xml"
        subprocess.run(
            [
                sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tb=short",
                f"--junitxml={report}", project.tests,
            ],
            cwd=tree,
            env=project_environment(tree, project, **extra),
            capture_output=True,
            check=False,  # a failing test is an outcome, read from the report
        )  # fmt: skip
        outcomes = {}
        for case in ElementTree.parse(report).iter("testcase"):
            kinds = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
            outcomes[f"{case.get('classname')}::{case.get('name')}"] = (kinds or ["passed"])[0]
        results.append(outcomes)
    return results


#: The mypy configuration ``type_check`` writes at the top of each tree.
MYPY_CONFIG = "mypy-check.toml"


def mypy_settings(project: Project, tree: Path, plugin: bool) -> dict[str, object]:
    """
    Return *project*'s mypy configuration in *tree*, its ``[tool.mypy]``
    table, with ``records.mypy`` added to its plugins where *plugin* is true.
    """
    import tomllib  # Python 3.11+, and this module loads on 3.10 too

    settings: dict[str, object] = {}
    if project.mypy_config is not None:
        with (tree / project.mypy_config).open("rb") as file:
            settings = dict(tomllib.load(file)["tool"]["mypy"])
    if plugin:
        plugins = settings.get("plugins", [])
        if isinstance(plugins, str):  # mypy reads a string as names and commas
            plugins = [name.strip() for name in plugins.split(",")]
        assert isinstance(plugins, list)
        settings["plugins"] = [*plugins, "records.mypy"]
    return settings


def write_mypy_config(settings: dict[str, object], path: Path) -> Path:
    """
    Write *settings* at *path* as the ``[tool.mypy]`` table of a TOML file,
    its ``overrides`` as its ``[[tool.mypy.overrides]]``; return *path*.
    """
    import tomllib

    def table(header: str, values: dict[str, object]) -> list[str]:
        # JSON's strings, numbers, booleans and arrays of them are TOML's too.
        return [header, *(f"{key} = {json.dumps(value)}" for key, value in values.items())]

    overrides = settings.get("overrides", [])
    assert isinstance(overrides, list)
    main = {key: value for key, value in settings.items() if key != "overrides"}
    lines = table("[tool.mypy]", main)
    for override in overrides:
        lines += ["", *table("[[tool.mypy.overrides]]", override)]
    text = "\n".join(lines) + "\n"
    if tomllib.loads(text)["tool"]["mypy"] != settings:
        msg = f"mypy settings that this TOML does not give back: {settings!r}"
        raise ValueError(msg)
    path.write_text(text, encoding="utf-8")
    return path


def start_mypy(project: Project, tree: Path, plugin: bool, cache: Path) -> subprocess.Popen[str]:
    """
    Start mypy on *project*'s package in *tree*, with the project's
    configuration (and records' plugin where *plugin* is true), its cache in
    *cache*, its errors written as JSON.
    """
    config = write_mypy_config(mypy_settings(project, tree, plugin), tree / MYPY_CONFIG)
    return subprocess.Popen(
        [
            sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir", str(cache),
            "--output", "json", f"{project.source}/{project.name}",
        ],
        cwd=tree,
        env={name: value for name, value in os.environ.items() if name != "MYPYPATH"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip


def mypy_errors(process: subprocess.Popen[str]) -> Counter[tuple[str, str, str]]:
    """
    Wait for a run of ``start_mypy``; return its errors, each as its file,
    message and code, counted.
    """
    output, messages = process.communicate()
    if process.returncode not in (0, 1):  # 1: errors found; 2: mypy could not check
        msg = f"mypy exited with {process.returncode}: {messages}{output}"
        raise RuntimeError(msg)
    errors: Counter[tuple[str, str, str]] = Counter()
    for line in output.splitlines():
        if line.strip():
            error = json.loads(line)
            if error["severity"] == "error":
                errors[error["file"], error["message"], error["code"]] += 1
    return errors


def type_check(
    project: Project, before: Path, after: Path, caches: Path
) -> tuple[Counter[tuple[str, str, str]], Counter[tuple[str, str, str]]]:
    """
    Type-check *project*'s package with mypy in both trees at once: with its
    own configuration before the migration, with records' plugin added to it
    after; each run with a fresh cache under *caches*. Return the errors of
    each (see ``mypy_errors``).
    """
    runs = [
        start_mypy(project, before, False, caches / "mypy-before"),
        start_mypy(project, after, True, caches / "mypy-after"),
    ]
    found_before, found_after = (mypy_errors(run) for run in runs)
    return found_before, found_after


TIMER = """\
import statistics, timeit
timer = timeit.Timer({statement!r}, {setup!r})
number, _ = timer.autorange()
print(statistics.median(timer.repeat(repeat={repeats}, number=number)) / number)
"""


def time_once(project: Project, hot_path: HotPath, tree: Path, repeats: int = 7) -> float:
    """
    Time *hot_path* in a fresh process importing *tree*: seconds per call,
    the median of *repeats*.
    """
    code = TIMER.format(statement=hot_path.statement, setup=hot_path.setup, repeats=repeats)
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tree,
        env=project_environment(tree, project),
        capture_output=True,
        text=True,
        check=True,
    )
    return float(result.stdout)


def measure(
    project: Project, hot_path: HotPath, before: Path, after: Path, rounds: int, repeats: int = 7
) -> dict[str, list[float]]:
    """Time *hot_path* in both trees, interleaved, *rounds* times."""
    times: dict[str, list[float]] = {"before": [], "after": []}
    for _ in range(rounds):
        times["before"].append(time_once(project, hot_path, before, repeats))
        times["after"].append(time_once(project, hot_path, after, repeats))
    return times


def _cell(values: list[float]) -> str:
    return (
        f"{statistics.median(values) * 1e9:.0f} ns "
        f"[{min(values) * 1e9:.0f}, {max(values) * 1e9:.0f}]"
    )


def report(
    rows: list[tuple[Project, str, HotPath, dict[str, list[float]]]], rounds: int, repeats: int = 7
) -> str:
    """Return the Markdown report of a run."""
    import records

    lines = [
        "# Migrated projects: a hot path before and after `python -m records migrate`",
        "",
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, {records.ACCELERATOR}; {rounds} rounds, each a fresh "
        f"process per copy (median of {repeats} repeats), interleaved; cells: median "
        "[smallest, largest] per call; ratio: after / before, of the medians.",
        "",
        "| project | its named tuples | hot path | before | after | ratio |",
        "|---|---|---|---|---|---|",
    ]
    for project, changed, hot_path, times in rows:
        ratio = statistics.median(times["after"]) / statistics.median(times["before"])
        lines.append(
            f"| {project.name} {project.version} | {project.spelling} ({changed}) | "
            f"{hot_path.what} | {_cell(times['before'])} | {_cell(times['after'])} | "
            f"{ratio:.2f}× |"
        )
    return "\n".join(lines) + "\n"


def changed_count(migration_report: str) -> str:
    """Return how many definitions the command changed, from its summary."""
    summary = next(line for line in migration_report.splitlines() if line.startswith("changed"))
    return summary.split(" in ", 1)[0].removeprefix("changed ") + " migrated"


def main(argv: list[str] | None = None) -> int:
    """Migrate every project and time its hot path before and after."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds (default 9)")
    parser.add_argument(
        "--repeats",
        type=int,
        default=7,
        help="repeats each process times, the median reported (default 7)",
    )
    parser.add_argument("--output", help="also write the Markdown report to this file")
    parser.add_argument("--work", help="where to unpack the projects (default: a temporary dir)")
    arguments = parser.parse_args(argv)
    if arguments.rounds < 1:
        parser.error(f"--rounds must be at least 1, not {arguments.rounds}")
    if arguments.repeats < 1:
        parser.error(f"--repeats must be at least 1, not {arguments.repeats}")
    rows = []
    with tempfile.TemporaryDirectory(prefix="records-migrated-") as temporary:
        work = Path(arguments.work or temporary)
        for project in PROJECTS:
            print(f"{project.name} {project.version}: migrating, then timing", file=sys.stderr)
            before, after, migration = prepare(project, work / project.name)
            for hot_path in project.hot_paths:
                times = measure(
                    project, hot_path, before, after, arguments.rounds, arguments.repeats
                )
                rows.append((project, changed_count(migration), hot_path, times))
    text = report(rows, arguments.rounds, arguments.repeats)
    print(text)
    if arguments.output:
        Path(arguments.output).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
