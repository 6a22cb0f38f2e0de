"""
Turn measurements into results: medians and their spread, ratios to
collections.namedtuple, flags, machine and version metadata, a JSON document
and Markdown tables (the terminal's table is ``terminal``'s).
"""

from __future__ import annotations

import json
import os
import platform
import sys
from datetime import datetime, timezone

import records

from . import equivalence, harness, process_startup, threads
from .peers import BASELINE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from typing import Any

    from .peers import Peer


def metadata(peers: Sequence[Peer], missing: Sequence[Peer], mode: str) -> dict[str, Any]:
    """Where and with what the results were measured."""
    return {
        "mode": mode,
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.platform()}",
        "peers": {peer.name: peer.version() for peer in peers},
        "missing peers": [peer.name for peer in missing],
        "records path": records.ACCELERATOR,
        "free-threaded": threads.free_threaded(),
    }


def run_label(results: dict[str, Any]) -> str:
    """
    Name a run in file names: ``3.13``, ``3.13t`` on a free-threaded build,
    and ``-pure`` after either without the C accelerator.
    """
    meta = results["meta"]
    version: str = meta["python"].rsplit(".", 1)[0]
    version += "t" if meta.get("free-threaded") else ""
    pure = str(meta.get("records path", "")).startswith("pure Python")
    return version + ("-pure" if pure else "")


def interpreter(meta: dict[str, Any]) -> str:
    """Return ``CPython``, or ``CPython, free-threaded`` on a free-threaded build."""
    return str(meta["implementation"]) + (", free-threaded" if meta.get("free-threaded") else "")


def summarise(
    samples: dict[str, list[float]],
    *,
    baseline_key: str | None = None,
    equivalent: Sequence[Sequence[str]] = (),
) -> dict[str, Any]:
    """
    Medians, smallest and largest samples, and ratios of medians to the
    baseline peer; optionally minus a baseline entry's median. ``flags``
    lists the *equivalent* peers whose samples do not overlap.
    """
    values = harness.medians(samples)
    bounds = harness.spread(samples)
    if baseline_key is not None:
        base = values.pop(baseline_key)
        values = {key: value - base for key, value in values.items()}
        bounds = {
            bound: {key: value - base for key, value in found.items() if key != baseline_key}
            for bound, found in bounds.items()
        }
    return {
        "median": values,
        "min": bounds["min"],
        "max": bounds["max"],
        "ratio": harness.ratios(values, BASELINE.name),
        "flags": equivalence.flags(samples, equivalent),
    }


def speed_ups(one: dict[str, Any], many: dict[str, Any], threads: int) -> dict[str, float]:
    """
    Return each peer's operations per second in *threads* threads over those
    in one, from the summaries of seconds per operation in each thread,
    *one* and *many*: a ratio of medians, *threads* times the one thread's
    over the many threads'.
    """
    return {
        name: threads * seconds / many["median"][name]
        for name, seconds in one["median"].items()
        if many["median"].get(name)
    }


def gil_sentence(section: dict[str, Any]) -> str:
    """Say whether the GIL was off while the threads ran, and what that means for them."""
    gil = section["GIL enabled"]
    if not section["free-threaded build"]:
        return "A build with the GIL: threads take turns, and the speed-up stays near 1.00×."
    if not gil["before"] and not gil["after"]:
        return "The GIL stayed off, before the run and after it."
    if not gil["before"]:
        return (
            "The GIL was turned on during the run (a module without free-threading"
            " support was imported): threads took turns."
        )
    return "The GIL was on from the start (PYTHON_GIL=1, or -X gil=1): threads took turns."


def write_json(results: dict[str, Any], path: str) -> None:
    """Write *results* as indented JSON."""
    with open(path, "w") as file:
        json.dump(results, file, indent=2)
        file.write("\n")


SCALE = {"µs": 1e6, "ns": 1e9, "ms": 1e3}


def _cell(
    seconds: float | None,
    ratio: float | None,
    unit: str,
    low: float | None = None,
    high: float | None = None,
) -> str:
    """Return ``16.6 ns [16.4, 17.0] (1.00×)``: median, [smallest, largest], ratio."""
    if seconds is None:
        return "n/a"
    scale = SCALE[unit]
    spread = (
        f" [{low * scale:.1f}, {high * scale:.1f}]" if low is not None and high is not None else ""
    )
    ratio_text = f" ({ratio:.2f}×)" if ratio is not None else ""
    return f"{seconds * scale:.1f} {unit}{spread}{ratio_text}"


def bytes_cell(value: float | None) -> str:
    """Return a byte count as the tables print it, or ``n/a``."""
    return "n/a" if value is None else f"{value:.1f}"


def flag_mark(summary: dict[str, Any]) -> str:
    """Return the mark of a row whose equivalent peers differ beyond the noise, or nothing."""
    return " ⚑" if summary.get("flags") else ""


def _row(label: str, summary: dict[str, Any], columns: Sequence[str], unit: str) -> str:
    lows, highs = summary.get("min", {}), summary.get("max", {})
    cells = [
        _cell(
            summary["median"].get(name),
            summary["ratio"].get(name),
            unit,
            lows.get(name),
            highs.get(name),
        )
        for name in columns
    ]
    return f"| {label}{flag_mark(summary)} | " + " | ".join(cells) + " |"


def flag_notes(labelled: Sequence[tuple[str, dict[str, Any]]]) -> list[str]:
    """Return the footnotes of flagged rows: which equivalent peers differ, and by how much."""
    notes = []
    for label, summary in labelled:
        for flag in summary.get("flags", []):
            first, second = flag["peers"]
            notes.append(
                f"⚑ {label}: {second} took {flag['ratio']:.2f}× the time of {first}, "
                "though both run the same code for it: more than the noise of this run."
            )
    return notes


#: The instance operations in the key table, in its order.
KEY_OPERATIONS = (
    "instance, positional",
    "attribute access",
    "_replace",
    "copy.copy",
    "copy.deepcopy",
    "pickle round trip",
)


#: The rows of the key tables: label, where the summary is, and its unit.
KEY_ROWS: tuple[tuple[str, str, Callable[[dict[str, Any]], dict[str, Any]], str], ...] = (
    (
        "class creation (5 fields, 2 defaults)",
        "class creation",
        lambda r: r["class creation"]["5 fields"],
        "µs",
    ),
    (
        "start-up: 200 types, above an empty module",
        "start-up, 200 types",
        lambda r: r["start-up"],
        "ms",
    ),
    (
        "start-up: a whole process importing 20 types",
        "process of 20 types",
        lambda r: r["start-up, whole process"],
        "ms",
    ),
    *(
        (label, label, lambda r, label=label: r["operations"][label], "ns")
        for label in KEY_OPERATIONS
    ),
)


def key_markdown(results: dict[str, Any]) -> str:
    """Return the key table in Markdown: every cell ``median [min, max] (ratio)``."""
    columns = list(results["meta"]["peers"])
    lines = ["| | " + " | ".join(columns) + " |", "|---|" + "---|" * len(columns)]
    labelled = [(label, find(results)) for label, _, find, _ in KEY_ROWS]
    for (label, summary), (_, _, _, unit) in zip(labelled, KEY_ROWS):
        lines.append(_row(label, summary, columns, unit))
    memory = results["memory"]
    lines.append(
        "| memory: traced bytes per instance | "
        + " | ".join(bytes_cell(memory["traced bytes per instance"].get(name)) for name in columns)
        + " |"
    )
    notes = flag_notes(labelled)
    return "\n".join(lines + (["", *notes] if notes else []))


def full_markdown(results: dict[str, Any]) -> str:
    """Every table of a full run, with its metadata."""
    meta = results["meta"]
    columns = list(meta["peers"])
    header = "| | " + " | ".join(columns) + " |\n|---|" + "---|" * len(columns)
    parts = [
        f"# records benchmarks — Python {meta['python']} ({interpreter(meta)})",
        "",
        f"Measured {meta['date']} on {meta['machine']}.",
        f"records ran on its {meta.get('records path', 'unrecorded path')}.",
        "Versions: "
        + ", ".join(f"{name}: {version}" for name, version in meta["peers"].items())
        + ".",
        f"Every figure is the median of {results['rounds']} interleaved rounds, with the"
        " smallest and the largest of them in square brackets; the ratio in round brackets"
        " is of medians, to collections.namedtuple in the same run (lower is better)."
        " ⚑ marks a row where two peers that run the same code for it (see"
        " benchmarks/README.md) differ by more than the noise: by more than 5% and more than"
        " either one's (max - min) / median.",
        "",
        "## Key ratios",
        "",
        key_markdown(results),
        "",
        "## Class creation",
        "",
        header,
    ]
    for label, summary in results["class creation"].items():
        parts.append(_row(label, summary, columns, "µs"))
    parts += _notes_block(results["class creation"].items())
    parts += ["", "## Start-up and import", "", header]
    parts.append(
        _row(
            "200 types in a fresh process, above an empty module",
            results["start-up"],
            columns,
            "ms",
        )
    )
    if "start-up, whole process" in results:
        parts.append(
            _row(
                "a whole process importing 20 types",
                results["start-up, whole process"],
                columns,
                "ms",
            )
        )
    if "import time" in results:
        modules = results["import time"]["median"]
        parts.append("")
        parts.append("`python -X importtime` of each library (cumulative, median):")
        parts.append("")
        parts += [f"- `{module}`: {seconds * 1e3:.2f} ms" for module, seconds in modules.items()]
    if "start-up as a whole process" in results:
        parts += process_startup.markdown(results["start-up as a whole process"])
    parts += [
        "",
        "## Instances (5 fields)",
        "",
        "| | " + " | ".join([*columns, "struct sequence"]) + " |",
        "|---|" + "---|" * (len(columns) + 1),
    ]
    for label, summary in results["operations"].items():
        parts.append(_row(label, summary, [*columns, "struct sequence"], "ns"))
    parts += _notes_block(results["operations"].items())
    if "attribute access by origin" in results:
        parts += [
            "",
            "## Attribute access by where the class is made (5 fields)",
            "",
            "The functional form is the peer's own call that makes a class"
            " (`Record.define`, `typing.NamedTuple(...)`, `make_dataclass`,"
            " `attrs.make_class`, `msgspec.defstruct`; a named tuple is one already).",
            "",
            header,
        ]
        by_origin = results["attribute access by origin"].items()
        for origin, summary in by_origin:
            parts.append(_row(f"attribute access, {origin}", summary, columns, "ns"))
        parts += _notes_block([(f"attribute access, {o}", summary) for o, summary in by_origin])
    memory = results["memory"]
    parts += [
        "",
        f"## Memory ({memory['count']:,} instances)",
        "",
        header,
        "| sys.getsizeof | "
        + " | ".join(str(memory["getsizeof"].get(n, "n/a")) for n in columns)
        + " |",
        "| traced bytes per instance | "
        + " | ".join(bytes_cell(memory["traced bytes per instance"].get(n)) for n in columns)
        + " |",
        "",
        f"A plain 5-tuple: sys.getsizeof {memory['getsizeof'].get('tuple', 'n/a')}.",
    ]
    if "scaling" in results:
        scaling = results["scaling"]
        parts += ["", "## Scaling with the number of fields", ""]
        for kind, unit in (("class creation", "µs"), ("instance creation", "ns")):
            parts += [
                f"{kind}:",
                "",
                "| fields | " + " | ".join(columns) + " |",
                "|---|" + "---|" * len(columns),
            ]
            bounds = scaling.get("spread", {}).get(kind, {"min": {}, "max": {}})
            for index, size in enumerate(scaling["sizes"]):
                row = [
                    _cell(
                        scaling[kind][name][index],
                        None,
                        unit,
                        *(
                            bounds[b][name][index] if name in bounds[b] else None
                            for b in ("min", "max")
                        ),
                    )
                    if name in scaling[kind]
                    else "n/a"
                    for name in columns
                ]
                parts.append(f"| {size} | " + " | ".join(row) + " |")
            parts.append("")
    parts += dropin_markdown(results)
    parts += threads_markdown(results)
    return "\n".join(parts) + "\n"


#: How each thread count's row is named.
THREAD_ROWS = {1: "1 thread", 2: "2 threads"}


def threads_markdown(results: dict[str, Any]) -> list[str]:
    """Return the table of one thread against two, where the run has it."""
    if "threads" not in results:
        return []
    section = results["threads"]
    columns = [*section["peers"], section["reference"]]
    parts = [
        "",
        "## One thread and two",
        "",
        gil_sentence(section),
        "Each thread works on a class and an instance of its own (5 fields), made before"
        " the threads start, as a program makes its classes at import; the threads start"
        " together behind a barrier, each running the operation the same number of times."
        " A cell is the time per operation in each thread, median [smallest, largest] of"
        " the rounds (ratio of medians to collections.namedtuple);"
        " the speed-up is two threads' operations per second over one thread's, a ratio"
        " of medians (ideal 2.00×). The tuple column is a reference: plain tuples, built"
        " as `(i, 2, 3, 4, 5)` and read as `t[2]`, which share nothing between threads:"
        " where they fall short of 2.00× too, other work held a core.",
        "",
        "| | " + " | ".join(columns) + " |",
        "|---|" + "---|" * len(columns),
    ]
    labelled = []
    for operation, found in section["operations"].items():
        for label in THREAD_ROWS.values():
            labelled.append((f"{operation}, {label}", found[label]))
            parts.append(_row(f"{operation}, {label}", found[label], columns, "ns"))
        speed = found["speed-up"]
        cells = [f"{speed[name]:.2f}×" if name in speed else "n/a" for name in columns]
        parts.append(f"| {operation}, speed-up | " + " | ".join(cells) + " |")
    parts += _notes_block(labelled)
    if section["left out"]:
        parts += ["", "Not installed, so not timed: " + ", ".join(section["left out"]) + "."]
    accessors = section.get("field accessors", {})
    if accessors:
        parts += [
            "",
            "Field accessors of the classes timed: "
            + ", ".join(f"{name} `{kind}`" for name, kind in accessors.items())
            + ".",
        ]
    numbers = section["operations per thread"]
    parts += [
        "",
        f"Operations per thread and sample (about {section['seconds per sample'] * 1e3:g}"
        " ms of one thread's work): "
        + "; ".join(
            f"{operation}: " + ", ".join(f"{name} {count:,}" for name, count in found.items())
            for operation, found in numbers.items()
        )
        + ".",
    ]
    return parts


def _notes_block(labelled: Iterable[tuple[str, dict[str, Any]]]) -> list[str]:
    notes = flag_notes(list(labelled))
    return ["", *notes] if notes else []


def _range_ms(samples: Sequence[float]) -> str:
    return f"[{min(samples) * 1e3:.1f}, {max(samples) * 1e3:.1f}]"


def dropin_markdown(results: dict[str, Any]) -> list[str]:
    """Return the tables of the drop-in namedtuple and the opt-in, where the run has them."""
    parts: list[str] = []
    if "namedtuple drop-in" in results:
        table = results["namedtuple drop-in"]
        columns = list(next(iter(table.values()))["median"])
        parts += [
            "",
            "## records.namedtuple, the drop-in",
            "",
            "Five fields, no defaults (cnamedtuple takes none), ratios to collections.namedtuple:",
            "",
            "| | " + " | ".join(columns) + " |",
            "|---|" + "---|" * len(columns),
        ]
        for label, summary in table.items():
            unit = "µs" if label.startswith("class") else "ns"
            parts.append(_row(label, summary, columns, unit))
        parts += _notes_block(table.items())
    if "opt-in start-up" in results:
        startup = results["opt-in start-up"]
        parts += [
            "",
            "## The RECORDS_NAMEDTUPLE opt-in",
            "",
            "Whole-process start-up, `python -c 'import <module>'`, medians [min, max],"
            " opt-in off and on:",
            "",
            "| import | named tuple classes built | off | on | on / off |",
            "|---|---|---|---|---|",
        ]
        for module, built in startup["classes built"].items():
            off = harness.medians({"x": startup["off"][module]})["x"]
            on = harness.medians({"x": startup["on"][module]})["x"]
            off_range, on_range = (_range_ms(startup[key][module]) for key in ("off", "on"))
            times = (
                f"{off * 1e3:.1f} ms {off_range} | {on * 1e3:.1f} ms {on_range} | {on / off:.2f}×"
            )
            parts.append(f"| {module} | {built} | {times} |")
        empty = harness.medians(startup["empty"])
        parts += [
            "",
            f"`python -c pass`: {empty['off'] * 1e3:.1f} ms off, {empty['on'] * 1e3:.1f} ms on"
            " (on: records is imported by the first named tuple built).",
        ]
    if "opt-in echo server" in results:
        echo = results["opt-in echo server"]
        off, on = (harness.medians({"x": echo[key]})["x"] for key in ("off", "on"))
        parts += [
            "",
            f"asyncio echo server on 127.0.0.1, {echo['clients']} clients of {echo['requests']}"
            f" requests: {off:,.0f} requests/s off, {on:,.0f} on ({on / off:.2f}×).",
        ]
    if "opt-in pth cost" in results:
        cost = results["opt-in pth cost"]
        parts += [
            "",
            f"What `records_namedtuple.pth` costs each start-up while the opt-in is off:"
            f" {cost['pth line'] * 1e6:.2f} µs, of a {cost['python -c pass'] * 1e3:.1f} ms"
            " `python -c pass`.",
        ]
    return parts
