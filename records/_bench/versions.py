"""
The key comparison on every CPython 3.10-3.15 found on ``PATH``
(``python -m records --versions``; ``--full`` runs it too): one child
process per interpreter runs the quick run's rows for
``collections.namedtuple``, ``records.Record`` and ``records.namedtuple``,
and the table shows records' two ratios per row and version, so that a
regression on any version is seen.

Each child imports the records this process runs (its directory is the
child's ``PYTHONPATH``, which the child's own children inherit): from a
checkout, the C accelerator built in place for that version if there is
one, else the pure-Python path, which the table marks.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from . import harness, run
from .peers import BASELINE
from .report import KEY_ROWS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The CPython versions looked for, as ``pythonX.Y`` on ``PATH``.
VERSIONS = tuple(f"3.{minor}" for minor in range(10, 16))

#: The peers each child times: the baseline and records' two.
PEER_NAMES = (BASELINE.name, "records.Record", "records.namedtuple")
RECORDS_PEERS = PEER_NAMES[1:]

_CHILD = """
import json
from records._bench import versions
print(json.dumps(versions.measure_here({rounds})))
"""


def interpreters() -> list[tuple[str, str]]:
    """Return the ``pythonX.Y`` of each of ``VERSIONS`` on ``PATH``: (version, path)."""
    found = []
    for version in VERSIONS:
        path = shutil.which(f"python{version}")
        if path is not None:
            found.append((version, path))
    return found


def measure_here(rounds: int) -> dict[str, Any]:
    """Return records' ratios to the baseline for each key row, measured in this interpreter."""
    with open(os.devnull, "w") as nowhere:
        results = run.quick(rounds, harness.Progress(0, nowhere), only=PEER_NAMES)
    meta = results["meta"]
    ratios = {}
    for _, terse, find, _ in KEY_ROWS:
        summary = find(results)
        ratios[terse] = {name: summary["ratio"].get(name) for name in RECORDS_PEERS}
    return {
        "python": meta["python"],
        "implementation": meta["implementation"],
        "records path": meta["records path"],
        "ratios": ratios,
    }


def measure(rounds: int, progress: harness.Progress | None = None) -> list[dict[str, Any]]:
    """Run ``measure_here`` in each of ``interpreters()``; an error entry where one fails."""
    root = str(Path(__file__).resolve().parents[2])
    found = interpreters()
    progress = progress if progress is not None else harness.Progress(len(found))
    entries: list[dict[str, Any]] = []
    for index, (version, path) in enumerate(found, 1):
        progress.round(f"the key rows on Python {version}", index, len(found))
        completed = subprocess.run(
            [path, "-c", _CHILD.format(rounds=rounds)],
            check=False,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": root},
        )
        if completed.returncode == 0:
            entries.append(json.loads(completed.stdout.strip().splitlines()[-1]))
        else:
            lines = completed.stderr.strip().splitlines() or [
                f"exit status {completed.returncode}"
            ]
            entries.append({"python": version, "error": lines[-1]})
        progress.step(version)
    progress.finish()
    return entries


def _cell(entry: dict[str, Any], row: str) -> str:
    ratios = entry["ratios"][row]
    return "/".join(
        "n/a" if ratios[name] is None else f"{ratios[name]:.2f}" for name in RECORDS_PEERS
    )


def _column(entry: dict[str, Any]) -> str:
    pure = str(entry.get("records path", "")).startswith("pure Python")
    return str(entry["python"]) + (" pure" if pure else "")


def rows(entries: list[dict[str, Any]]) -> list[list[str]]:
    """Return the table: versions across, key rows down, Record/drop-in in each cell."""
    measured = [entry for entry in entries if "error" not in entry]
    table = [["", *(_column(entry) for entry in measured)]]
    for _, terse, _, _ in KEY_ROWS:
        table.append([terse, *(_cell(entry, terse) for entry in measured)])
    return table


def failures(entries: list[dict[str, Any]]) -> list[str]:
    """One line for each interpreter whose run failed."""
    return [f"Python {entry['python']}: {entry['error']}" for entry in entries if "error" in entry]


LEGEND = (
    "Record/records.namedtuple: ratio of medians to collections.namedtuple on each CPython"
    " (lower is better); 'pure': no C accelerator built for that version."
)


def terminal_table(entries: list[dict[str, Any]]) -> str:
    """Return the table for a terminal (aligned columns), its legend and any failure."""
    import textwrap

    from .terminal import aligned

    legend = textwrap.wrap(LEGEND, 100)
    return "\n".join([*aligned(rows(entries)), "", *legend, *failures(entries)])


def markdown_table(entries: list[dict[str, Any]]) -> str:
    """Return the table in Markdown, its legend and any failure."""
    table = rows(entries)
    header = "| row | " + " | ".join(table[0][1:]) + " |"
    lines = [header, "|---" * len(table[0]) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in table[1:]]
    return "\n".join([*lines, "", LEGEND, *failures(entries)]) + "\n"
