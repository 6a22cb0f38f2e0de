"""
Start-up as a whole process: each row starts two fresh interpreters in turn,
A then B, *pairs* times, and reports the median of the pair-by-pair wall-time
ratios A / B (lower is faster: pairing keeps a ratio meaningful while a shared
machine's speed drifts), beside the target records holds itself to.

The rows: ``import records`` against a bare interpreter, and against one that
imports ``typing`` anyway; modules of N classes of five fields (``a: int``,
``b: int``, ``c: int = 0``, ``d: str = ""``, ``e: float = 0.0``) as records
against the same as ``collections.namedtuple`` and ``typing.NamedTuple``
classes, one file per variant importing only what it uses; and the
``RECORDS_NAMEDTUPLE`` opt-in on against off, for a bare interpreter, for
``import asyncio``, for a library module of 100 ``namedtuple`` calls, and for
``import rich`` and ``import joblib`` where installed. Every process runs from
a temporary folder, so that Python imports the installed records.
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import tempfile
from dataclasses import dataclass, field

from . import harness

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: What each kind of module imports, and how it spells a class of five fields.
_KINDS = {
    "Record": (
        "from records import Record\n",
        "class {name}(Record):\n"
        "    a: int\n    b: int\n    c: int = 0\n    d: str = ''\n    e: float = 0.0\n",
    ),
    "NamedTuple": (
        "from typing import NamedTuple\n",
        "class {name}(NamedTuple):\n"
        "    a: int\n    b: int\n    c: int = 0\n    d: str = ''\n    e: float = 0.0\n",
    ),
    "namedtuple": (
        "from collections import namedtuple\n",
        "{name} = namedtuple('{name}', 'a b c d e', defaults=(0, '', 0.0))\n",
    ),
}


def module_source(kind: str, count: int) -> str:
    """Return the source of a module of *count* classes of five fields, spelled as *kind*."""
    imports, template = _KINDS[kind]
    return imports + "".join(template.format(name=f"C{index}") for index in range(count))


@dataclass(frozen=True)
class Side:
    """One interpreter of a pair: what it runs (``-c`` code), with the opt-in on or off."""

    code: str
    opt_in: bool = False


@dataclass(frozen=True)
class Row:
    """A row of the section: A against B, and the ratio A / B records aims for."""

    label: str
    a: Side
    b: Side
    target: float | None = None
    modules: dict[str, str] = field(default_factory=dict)


def rows(opt_in: bool = True) -> list[Row]:
    """
    Every row, in the order the report prints them: the opt-in's only where
    *opt_in* (its ``.pth`` file is installed), a library's only where it is.
    """
    made = [
        Row("import records / python -c pass", Side("import records"), Side("pass"), 1.10),
        Row("import typing, records / import typing", Side("import typing, records"),
            Side("import typing"), 1.05),
    ]  # fmt: skip
    for count, target in {1: 1.00, 5: 0.97, 20: 0.90, 100: 0.80}.items():
        made.append(_modules_row(count, "namedtuple", target))
    for count, target in {5: 0.80, 20: 0.75, 100: 0.65}.items():
        made.append(_modules_row(count, "NamedTuple", target))
    if not opt_in:
        return made
    made += [
        Row("opt-in on / off: python -c pass", Side("pass", True), Side("pass"), 1.05),
        Row("opt-in on / off: import asyncio", Side("import asyncio", True),
            Side("import asyncio"), 1.00),
        Row("opt-in on / off: a module of 100 namedtuple calls",
            Side("import library", True), Side("import library"), 0.85,
            {"library": module_source("namedtuple", 100)}),
    ]  # fmt: skip
    for library in ("rich", "joblib"):
        if importlib.util.find_spec(library) is not None:
            made.append(
                Row(
                    f"opt-in on / off: import {library}",
                    Side(f"import {library}", True),
                    Side(f"import {library}"),
                )
            )
    return made


def _modules_row(count: int, other: str, target: float) -> Row:
    classes = "class" if count == 1 else "classes"
    return Row(
        f"{count} Record {classes} / {count} {other}",
        Side(f"import records_{count}"),
        Side(f"import {other}_{count}"),
        target,
        {
            f"records_{count}": module_source("Record", count),
            f"{other}_{count}": module_source(other, count),
        },
    )


def measure(row: Row, pairs: int, folder: str) -> dict[str, Any]:
    """
    Time *row*'s two sides in turn, *pairs* times after one warm-up each (which
    writes the modules' bytecode): each side's seconds, and the ratios A / B.
    """
    for name, source in row.modules.items():
        with open(os.path.join(folder, f"{name}.py"), "w", encoding="utf-8") as file:
            file.write(source)

    def seconds(side: Side) -> float:
        return harness.process_seconds(side.code, opt_in=side.opt_in, cwd=folder)

    seconds(row.a)
    seconds(row.b)
    a_times, b_times = [], []
    for _ in range(pairs):
        a_times.append(seconds(row.a))
        b_times.append(seconds(row.b))
    ratios = [a / b for a, b in zip(a_times, b_times)]
    return {
        "a": a_times,
        "b": b_times,
        "ratio": statistics.median(ratios),
        "ratios": [min(ratios), max(ratios)],
        "target": row.target,
    }


def run(pairs: int, progress: harness.Progress, *, opt_in: bool) -> dict[str, Any]:
    """Every row (see ``rows``), *pairs* pairs each: the section of the results."""
    section: dict[str, Any] = {}
    chosen = rows(opt_in)
    with tempfile.TemporaryDirectory(prefix="records-startup-") as folder:
        for index, row in enumerate(chosen, 1):
            progress.round("start-up as a whole process", index, len(chosen))
            section[row.label] = measure(row, pairs, folder)
            progress.step()
    return section


def markdown(section: dict[str, Any]) -> list[str]:
    """Return the section's table: each row's median ratio beside its target."""
    lines = [
        "",
        "## Start-up as a whole process",
        "",
        "Fresh interpreters in turn, A then B; the median of the pair-by-pair ratios"
        " A / B [smallest, largest], and the median wall time of each side:",
        "",
        "| A / B | ratio | target | A | B |",
        "|---|---|---|---|---|",
    ]
    for label, found in section.items():
        target = found["target"]
        met = "" if target is None else (" met" if found["ratio"] <= target else " not met")
        target_cell = "" if target is None else f"≤ {target:.2f}×{met}"
        low, high = found["ratios"]
        lines.append(
            f"| {label} | {found['ratio']:.2f}× [{low:.2f}, {high:.2f}] | {target_cell} | "
            f"{statistics.median(found['a']) * 1e3:.1f} ms | "
            f"{statistics.median(found['b']) * 1e3:.1f} ms |"
        )
    return lines
