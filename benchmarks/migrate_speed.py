"""
Time ``python -m records migrate`` on real code bases: a dry run and a run
that writes, each a fresh process on a fresh copy.

Usage: ``python benchmarks/migrate_speed.py [--rounds R] [--baseline PATH
[--baseline-label TEXT]] [--output FILE.md] [--work DIR]`` (needs the
``migrate`` extra and the package index).

Each project of ``PROJECTS`` is a pinned source distribution, downloaded
and unpacked once; each round copies it afresh and migrates its folder
twice, ``--dry-run`` and writing. With ``--baseline PATH`` (a source tree
of records: an earlier version, say), each round also runs that records'
command, interleaved, and the report adds its times and the ratios. The
report gives each project's files, lines and the definitions the command
reports, and for each run the median over the rounds and its spread.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from migrated_projects import Project, fetch  # the benchmarks' shared download


@dataclass(frozen=True)
class CodeBase:
    """A project from the package index, and the folder of it the command migrates."""

    project: Project
    #: Relative to the unpacked source distribution ("." for all of it).
    folder: str


PROJECTS = [
    CodeBase(Project("rich", "14.3.3", ()), "."),
    CodeBase(Project("jedi", "0.20.1", ()), "jedi"),
    CodeBase(Project("packaging", "26.4", ()), "src"),
    CodeBase(Project("parso", "0.8.7", ()), "parso"),
]
#: The two runs of each round: the command's options.
RUNS = {"dry run": ["--dry-run"], "writing": []}


def run_once(
    source: Path, folder: str, options: list[str], records: Path | None
) -> tuple[float, str]:
    """
    Migrate *folder* of a fresh copy of *source* in a fresh process, with
    the records of the source tree *records* (None: the one installed);
    return the seconds it took and its report.
    """
    with tempfile.TemporaryDirectory(prefix="records-migrate-speed-") as temporary:
        copy = Path(temporary) / source.name
        shutil.copytree(source, copy)
        env = dict(os.environ)
        if records is not None:
            env["PYTHONPATH"] = str(records)
        command = [sys.executable, "-m", "records", "migrate", *options, folder]
        start = time.perf_counter()
        result = subprocess.run(
            command, cwd=copy, env=env, capture_output=True, text=True, check=False
        )
        seconds = time.perf_counter() - start
    if result.returncode != 0:
        msg = f"{' '.join(command)} failed in {source.name}:\n{result.stdout}{result.stderr}"
        raise RuntimeError(msg)
    return seconds, result.stdout


def measure(
    source: Path, folder: str, rounds: int, baseline: Path | None
) -> tuple[dict[str, list[float]], str]:
    """
    Time each run of ``RUNS`` on *folder* of *source* *rounds* times, the
    baseline's (keys ``before ...``) interleaved; return the times by run,
    and a report of the command.
    """
    times: dict[str, list[float]] = {}
    report = ""
    for _ in range(rounds):
        for name, options in RUNS.items():
            if baseline is not None:
                seconds, _ = run_once(source, folder, options, baseline)
                times.setdefault(f"before {name}", []).append(seconds)
            seconds, report = run_once(source, folder, options, None)
            times.setdefault(name, []).append(seconds)
    return times, report


def size(folder: Path) -> tuple[int, int]:
    """Return how many ``.py`` files *folder* holds, and how many lines they have."""
    files = sorted(folder.rglob("*.py"))
    return len(files), sum(path.read_bytes().count(b"\n") for path in files)


def definitions(report: str) -> str:
    """Return what the command's summary says it changed and left."""
    summary = next(line for line in report.splitlines() if line.startswith("changed"))
    changed = summary.split(" in ", 1)[0].removeprefix("changed ").split()[0]
    left = summary.rsplit("left ", 1)[1].split()[0]
    return f"{changed} changed, {left} left"


def _cell(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} s [{min(values):.2f}, {max(values):.2f}]"


def report(rows: list[tuple[CodeBase, int, int, str, dict[str, list[float]]]], rounds: int,
           baseline_label: str | None) -> str:  # fmt: skip
    """Return the Markdown report of a run."""
    header = ["project", "files", "lines", "definitions", *RUNS]
    if baseline_label is not None:
        header += [f"before {name}" for name in RUNS] + [f"ratio {name}" for name in RUNS]
    lines = [
        "# `python -m records migrate`: how long a code base takes",
        "",
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} CPUs; {rounds} rounds, each run a fresh "
        "process on a fresh copy of the project's source distribution; cells: median "
        "[smallest, largest] over the rounds"
        + (
            f"; before: {baseline_label}, interleaved; ratio: before / now, of the medians."
            if baseline_label is not None
            else "."
        ),
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
    ]
    for base, files, number_of_lines, defined, times in rows:
        cells = [
            f"{base.project.name} {base.project.version}",
            str(files),
            f"{number_of_lines:,}",
            defined,
        ]
        cells += [_cell(times[name]) for name in RUNS]
        if baseline_label is not None:
            cells += [_cell(times[f"before {name}"]) for name in RUNS]
            for name in RUNS:
                ratio = statistics.median(times[f"before {name}"]) / statistics.median(times[name])
                cells.append(f"{ratio:.2f}×")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Time the command on every project; print the report (and write it)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--baseline", help="a records source tree to time as well")
    parser.add_argument("--baseline-label", help="what the report calls the baseline")
    parser.add_argument("--output", help="also write the Markdown report to this file")
    parser.add_argument("--work", help="where to unpack the projects (default: a temporary dir)")
    arguments = parser.parse_args(argv)
    if arguments.rounds < 1:
        parser.error(f"--rounds must be at least 1, not {arguments.rounds}")
    baseline = Path(arguments.baseline).resolve() if arguments.baseline else None
    if baseline is not None and not (baseline / "records" / "__init__.py").exists():
        parser.error(f"--baseline {arguments.baseline} holds no records package")
    label = None if baseline is None else (arguments.baseline_label or f"records of {baseline}")
    rows = []
    with tempfile.TemporaryDirectory(prefix="records-migrate-speed-") as temporary:
        work = Path(arguments.work or temporary)
        for base in PROJECTS:
            project = base.project
            print(f"{project.name} {project.version}: timing", file=sys.stderr)
            where = work / project.name
            found = sorted(where.glob(f"{project.name}-{project.version}"))
            source = found[0] if found else fetch(project, where)
            times, command_report = measure(source, base.folder, arguments.rounds, baseline)
            files, number_of_lines = size(source / base.folder)
            rows.append((base, files, number_of_lines, definitions(command_report), times))
    text = report(rows, arguments.rounds, label)
    print(text)
    if arguments.output:
        Path(arguments.output).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
