"""
Every figure the README and the docs quote comes from a results file that
``python -m records --full`` (or ``benchmarks/mypy_plugin.py``) wrote.

What counts as a quoted figure: in ``README.md``, ``benchmarks/README.md``
and ``docs/pages/**/*.md``, outside fenced code blocks and inline code, a
number followed by a unit: ``×`` (a ratio), ``ns``, ``µs``, ``ms``, ``s``,
``B`` or ``bytes``. Two numbers joined by an en dash (U+2013) before the
unit, as the docs write 0.37 to 0.49×, are a range; joined by `` / ``
(``252 / 420 ns``), two figures.

Where a figure is looked for: the figures the Markdown files under
``benchmarks/results/`` print (medians and their ratios; the ``[min, max]``
spreads carry no unit and are not quotable), and for bytes the memory
figures of the JSON files there.

How a figure is matched: a ratio is written as the results print it, with
two decimals, and matches a printed ratio exactly. A time or a size may be
rounded: written with fewer decimals it stands for every value that rounds
to it (``252 ns`` for 251.5 to 252.5 ns), and is found when a printed figure
in the same unit does. A range is found when both its ends are; a pair when
both its figures are.
"""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
RESULTS = ROOT / "benchmarks" / "results"
DOCUMENTS = [
    ROOT / "README.md",
    ROOT / "benchmarks" / "README.md",
    *sorted((ROOT / "docs" / "pages").glob("**/*.md")),
]

NUMBER = r"\d[\d,]*(?:\.\d+)?"
UNIT = r"×|ns|µs|ms|s|B|bytes"
#: A figure: numbers joined by an en dash or " / ", each with or without the
#: unit, and a unit at the end.
FIGURE = re.compile(
    rf"(?<![\w.])(?P<numbers>{NUMBER}(?:\s?(?:{UNIT}))?(?:(?:–|\s/\s){NUMBER}(?:\s?(?:{UNIT}))?)*)"
    rf"(?<=[×sB])(?![\w])"
)
PART = re.compile(rf"(?P<number>{NUMBER})\s?(?P<unit>{UNIT})?")
SCALE = {"ns": 1e9, "µs": 1e6, "ms": 1e3, "s": 1.0}
FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"`[^`]*`")


def decimals(text: str) -> int:
    """Return how many decimals *text* is written with."""
    return len(text.split(".")[1]) if "." in text else 0


def parse(figure: str) -> list[tuple[str, str, str]]:
    """
    Return the ``(kind, number, unit)`` parts of one figure: kind ``"range"``
    for the ends of an en-dash range, ``"single"`` otherwise; a part without
    its own unit takes the figure's last unit.
    """
    kind = "range" if "–" in figure else "single"
    parts = [PART.fullmatch(piece.strip()) for piece in re.split(r"–|\s/\s", figure)]
    unit = next(part["unit"] for part in reversed(parts) if part and part["unit"])
    return [(kind, part["number"], part["unit"] or unit) for part in parts if part]


def quoted_figures(text: str) -> list[tuple[int, str]]:
    """Return the ``(line number, figure)`` pairs quoted in a Markdown *text*."""
    found = []
    fenced = False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        prose = INLINE_CODE.sub(" ", line)
        prose = re.sub(r"\]\([^)]*\)", "]", prose)  # link targets
        found += [(number, match["numbers"]) for match in FIGURE.finditer(prose)]
    return found


def _numbers(data: object) -> list[float]:
    if isinstance(data, bool):
        return []
    if isinstance(data, (int, float)):
        return [float(data)]
    if isinstance(data, dict):
        return [n for value in data.values() for n in _numbers(value)]
    if isinstance(data, list):
        return [n for value in data for n in _numbers(value)]
    return []


def result_values() -> dict[str, list[tuple[float, int]]]:
    """Return the figures of the results files by unit, as (value, decimals printed)."""
    values: dict[str, list[tuple[float, int]]] = {unit: [] for unit in ["×", "B", "bytes", *SCALE]}
    for path in sorted(RESULTS.glob("*.md")):
        for _, figure in quoted_figures(path.read_text()):
            for _, number, unit in parse(figure):
                values[unit].append((float(number.replace(",", "")), decimals(number)))
    for path in sorted(RESULTS.glob("*.json")):
        memory = json.loads(path.read_text()).get("memory", {})
        sizes = [*memory.get("getsizeof", {}).values()]
        sizes += memory.get("traced bytes per instance", {}).values()
        for unit in ("B", "bytes"):
            values[unit] += [(float(size), 1) for size in sizes]
    return values


def found(number: str, unit: str, values: dict[str, list[tuple[float, int]]]) -> bool:
    """Whether *number* in *unit* is among *values*, as the module docstring says."""
    target = float(number.replace(",", ""))
    places = decimals(number)
    if unit == "×":
        return places == 2 and any(
            abs(value - target) < 1e-9 and printed == 2 for value, printed in values[unit]
        )
    tolerance = 0.5 * 10**-places + 1e-9
    return any(
        abs(value - target) <= tolerance and printed >= places for value, printed in values[unit]
    )


@pytest.fixture(scope="module")
def values():
    return result_values()


def test_figures_are_recognised():
    """Ratios, ranges, timings and pairs are figures; versions, counts and code are not."""
    text = (
        "in 0.37–0.49× of the time, 21.2 ns (1.00×), 252 / 420 ns, 0.29× / 0.22×,\n"
        "CPython 3.13, 200 types of 3–8 fields, 88 B, `1.5×` and 1,353 ns.\n"
        "```\n12.0 ns\n```\n"
    )
    assert [figure for _, figure in quoted_figures(text)] == [
        "0.37–0.49×",
        "21.2 ns",
        "1.00×",
        "252 / 420 ns",
        "0.29× / 0.22×",
        "88 B",
        "1,353 ns",
    ]
    assert parse("0.37–0.49×") == [("range", "0.37", "×"), ("range", "0.49", "×")]
    assert parse("252 / 420 ns") == [("single", "252", "ns"), ("single", "420", "ns")]


def test_matching_rounds_at_the_written_decimals():
    """A time is found by a printed figure that rounds to it; a ratio only as printed."""
    values = {"ns": [(21.2, 1), (1352.6, 1)], "×": [(0.37, 2), (2.4, 2)]}
    assert found("21.2", "ns", values)
    assert found("21", "ns", values)
    assert not found("21.3", "ns", values)
    assert not found("21.24", "ns", values)  # more decimals than the results print
    assert found("1,353", "ns", values)
    assert found("0.37", "×", values)
    assert not found("0.38", "×", values)
    assert not found("2.4", "×", values)  # a ratio is quoted with its two decimals


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_quoted_figures_come_from_results(document, values):
    """Each figure of *document* (each end of a range) is in some results file."""
    missing = []
    for line, figure in quoted_figures(document.read_text()):
        for _, number, unit in parse(figure):
            if not found(number, unit, values):
                missing.append(f"line {line}: {figure} ({number} {unit})")
    assert not missing, "figures in no file of benchmarks/results/:\n" + "\n".join(missing)


def test_versions_table_is_the_results_file():
    """The Performance page shows the table of every version as its results file has it."""
    table = (RESULTS / "versions.md").read_text().split("\n\n")[0].strip()
    page = (ROOT / "docs" / "pages" / "performance.md").read_text()
    assert table.startswith("| row |")
    assert table in page
