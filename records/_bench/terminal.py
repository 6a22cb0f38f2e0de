"""
The key table for a terminal: at most 100 columns, short peer names
explained below it, the baseline's median time and the others' ratios; and
the table of one thread against two, at most 80 columns.
"""

from __future__ import annotations

import statistics
import textwrap

from .peers import BASELINE, PEERS
from .report import (
    KEY_ROWS,
    SCALE,
    THREAD_ROWS,
    bytes_cell,
    flag_mark,
    flag_notes,
    gil_sentence,
    interpreter,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any


def key_table(results: dict[str, Any], width: int = 100) -> str:
    """
    Return the key table for a terminal, at most *width* columns: the
    baseline's median time, the other peers' ratios to it, short peer names
    (explained below the table) and a ⚑ on rows where equivalent peers differ
    beyond the noise.
    """
    names = list(results["meta"]["peers"])
    short = {peer.name: peer.short for peer in PEERS}
    headers = [short.get(name, name) for name in names]
    rows: list[list[str]] = []
    labelled = []
    for label, terse, find, unit in KEY_ROWS:
        summary = find(results)
        labelled.append((label, summary))
        cells = []
        for name in names:
            median, ratio = summary["median"].get(name), summary["ratio"].get(name)
            if median is None:
                cells.append("n/a")
            elif name == BASELINE.name or ratio is None:
                cells.append(f"{median * SCALE[unit]:.1f} {unit}")
            else:
                cells.append(f"{ratio:.2f}×")
        rows.append([terse + flag_mark(summary), *cells])
    traced = results["memory"]["traced bytes per instance"]
    rows.append(["memory, bytes", *(bytes_cell(traced.get(name)) for name in names)])
    table = [["", *headers], *rows]
    lines = aligned(table)
    legend = [
        f"{short.get(BASELINE.name)}: {BASELINE.name}, median time;"
        " the others: ratio of medians to it (lower is better).",
        *(
            f"{short[name]}: {name}"
            for name in names
            if name != BASELINE.name and short.get(name, name) != name
        ),
    ]
    legend.append(noise_line(labelled))
    notes = flag_notes(labelled)
    text = lines + [""] + _wrap(legend, width) + (["", *_wrap(notes, width)] if notes else [])
    return "\n".join(text)


def noise_line(labelled: Sequence[tuple[str, dict[str, Any]]]) -> str:
    """
    Return one sentence on the spread of the timed figures: the median and
    the widest of their (max - min) / median, and where the widest is.
    """
    spreads = []
    for label, summary in labelled:
        for name, median in summary["median"].items():
            low, high = summary.get("min", {}).get(name), summary.get("max", {}).get(name)
            if low is not None and high is not None and median > 0:
                spreads.append(((high - low) / median, label, name))
    if not spreads or max(spread for spread, _, _ in spreads) == 0:
        return "One round: no spread to show; more rounds give it (--rounds)."
    typical = statistics.median(spread for spread, _, _ in spreads)
    widest, label, name = max(spreads)
    return (
        f"Spread, (max - min) / median over the rounds: {typical:.0%} for half the figures"
        f" or less, at most {widest:.0%} ({label}, {name}); every cell's: --markdown FILE."
    )


def _wrap(paragraphs: Sequence[str], width: int) -> list[str]:
    lines: list[str] = []
    for paragraph in paragraphs:
        lines += textwrap.wrap(paragraph, width, subsequent_indent="  ", break_on_hyphens=False)
    return lines


def threads_table(results: dict[str, Any], width: int = 80) -> str:
    """
    Return the table of one thread against two for a terminal, at most
    *width* columns: per operation and peer, the median time per operation
    in each thread with one thread and with two, and the speed-up.
    """
    section = results["threads"]
    short = {peer.name: peer.short for peer in PEERS}
    meta = results["meta"]
    heading = (
        f"One thread against two on Python {meta['python']} ({interpreter(meta)}),"
        f" medians of {section['rounds']} interleaved rounds. {gil_sentence(section)}"
    )
    table = [["", *THREAD_ROWS.values(), "speed-up"]]
    for operation, found in section["operations"].items():
        table.append([operation, "", "", ""])
        for name in [*section["peers"], section["reference"]]:
            cells = []
            for label in THREAD_ROWS.values():
                median = found[label]["median"].get(name)
                cells.append("n/a" if median is None else f"{median * SCALE['ns']:.1f} ns")
            speed = found["speed-up"].get(name)
            cells.append("n/a" if speed is None else f"{speed:.2f}×")
            label = short.get(name, name) + (" (ref.)" if name == section["reference"] else "")
            table.append([f"  {label}", *cells])
    lines = aligned(table)
    legend = [
        "Each thread works on a class and an instance of its own, made before the threads"
        " start; they start together and run the same work: time per operation in each"
        " thread; speed-up: two threads' operations per second over one thread's"
        " (ideal 2.00×).",
        "tuple (ref.): plain tuples, built as (i, 2, 3, 4, 5) and read as t[2], which"
        " share nothing between threads: where they fall short of 2.00× too, other work"
        " held a core.",
    ]
    accessors = section.get("field accessors", {})
    if accessors:
        legend.append(
            "Field accessors: "
            + ", ".join(f"{short.get(name, name)} {kind}" for name, kind in accessors.items())
            + "."
        )
    if section["left out"]:
        legend.append("Not installed, so not timed: " + ", ".join(section["left out"]) + ".")
    labelled = _labelled(section)
    legend.append(noise_line(labelled))
    notes = flag_notes(labelled)
    text = [
        *textwrap.wrap(heading, width, break_on_hyphens=False),
        "",
        *lines,
        "",
        *_wrap(legend, width),
    ]
    return "\n".join(text + (["", *_wrap(notes, width)] if notes else []))


def _labelled(section: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Return the timed summaries of the threads section, each with its row's label."""
    return [
        (f"{operation}, {label}", found[label])
        for operation, found in section["operations"].items()
        for label in THREAD_ROWS.values()
    ]


def aligned(table: list[list[str]]) -> list[str]:
    """Lay *table* out in columns: the first left-aligned, the others right-aligned."""
    widths = [max(len(row[index]) for row in table) for index in range(len(table[0]))]
    return [
        "  ".join(
            [row[0].ljust(widths[0])] + [cell.rjust(w) for cell, w in zip(row[1:], widths[1:])]
        ).rstrip()
        for row in table
    ]
