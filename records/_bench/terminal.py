"""
The key table for a terminal: at most 100 columns, short peer names
explained below it, the baseline's median time and the others' ratios.
"""

from __future__ import annotations

import statistics
import textwrap

from .peers import BASELINE, PEERS
from .report import KEY_ROWS, SCALE, bytes_cell, flag_mark, flag_notes

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
    widths = [max(len(row[index]) for row in table) for index in range(len(table[0]))]
    lines = [
        "  ".join(
            [row[0].ljust(widths[0])] + [cell.rjust(w) for cell, w in zip(row[1:], widths[1:])]
        ).rstrip()
        for row in table
    ]
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
        lines += textwrap.wrap(paragraph, width, subsequent_indent="  ")
    return lines
