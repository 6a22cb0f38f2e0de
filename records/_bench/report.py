"""
Turn measurements into results: medians, ratios to collections.namedtuple,
machine and version metadata, a JSON document and Markdown tables.
"""

from __future__ import annotations

import json
import os
import platform
import sys
from datetime import datetime, timezone

import records

from . import harness
from .peers import BASELINE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
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
    }


def run_label(results: dict[str, Any]) -> str:
    """Name a run in file names: ``3.13``, or ``3.13-pure`` without the C accelerator."""
    meta = results["meta"]
    version: str = meta["python"].rsplit(".", 1)[0]
    pure = str(meta.get("records path", "")).startswith("pure Python")
    return version + ("-pure" if pure else "")


def summarise(
    samples: dict[str, list[float]], *, baseline_key: str | None = None
) -> dict[str, Any]:
    """Medians and ratios to the baseline peer; optionally minus a baseline entry."""
    values = harness.medians(samples)
    if baseline_key is not None:
        base = values.pop(baseline_key)
        values = {key: value - base for key, value in values.items()}
    return {"median": values, "ratio": harness.ratios(values, BASELINE.name)}


def write_json(results: dict[str, Any], path: str) -> None:
    """Write *results* as indented JSON."""
    with open(path, "w") as file:
        json.dump(results, file, indent=2)
        file.write("\n")


def _cell(seconds: float | None, ratio: float | None, unit: str) -> str:
    if seconds is None:
        return "n/a"
    scale = {"µs": 1e6, "ns": 1e9, "ms": 1e3}[unit]
    ratio_text = f" ({ratio:.2f}×)" if ratio is not None else ""
    return f"{seconds * scale:.1f} {unit}{ratio_text}"


def _bytes(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f}"


def _row(label: str, summary: dict[str, Any], columns: Sequence[str], unit: str) -> str:
    cells = [
        _cell(summary["median"].get(name), summary["ratio"].get(name), unit) for name in columns
    ]
    return f"| {label} | " + " | ".join(cells) + " |"


#: The instance operations in the key table, in its order.
KEY_OPERATIONS = (
    "instance, positional",
    "attribute access",
    "_replace",
    "copy.copy",
    "copy.deepcopy",
    "pickle round trip",
)


def key_table(results: dict[str, Any]) -> str:
    """Return the quick table: the ratios that matter most, one row each."""
    columns = list(results["meta"]["peers"])
    lines = [
        "| | " + " | ".join(columns) + " |",
        "|---|" + "---|" * len(columns),
        _row(
            "class creation (5 fields, 2 defaults)",
            results["class creation"]["5 fields"],
            columns,
            "µs",
        ),
        _row("start-up: 200 types, above an empty module", results["start-up"], columns, "ms"),
    ]
    operations = results["operations"]
    for label in KEY_OPERATIONS:
        lines.append(_row(label, operations[label], columns, "ns"))
    memory = results["memory"]
    lines.append(
        "| memory: traced bytes per instance | "
        + " | ".join(_bytes(memory["traced bytes per instance"].get(name)) for name in columns)
        + " |"
    )
    return "\n".join(lines)


def full_markdown(results: dict[str, Any]) -> str:
    """Every table of a full run, with its metadata."""
    meta = results["meta"]
    columns = list(meta["peers"])
    header = "| | " + " | ".join(columns) + " |\n|---|" + "---|" * len(columns)
    parts = [
        f"# records benchmarks — Python {meta['python']} ({meta['implementation']})",
        "",
        f"Measured {meta['date']} on {meta['machine']}.",
        f"records ran on its {meta.get('records path', 'unrecorded path')}.",
        "Versions: "
        + ", ".join(f"{name}: {version}" for name, version in meta["peers"].items())
        + ".",
        f"Every figure is the median of {results['rounds']} interleaved rounds; "
        "the ratio in brackets is to collections.namedtuple in the same run (lower is better).",
        "",
        "## Key ratios",
        "",
        key_table(results),
        "",
        "## Class creation",
        "",
        header,
    ]
    for label, summary in results["class creation"].items():
        parts.append(_row(label, summary, columns, "µs"))
    parts += ["", "## Start-up and import", "", header]
    parts.append(
        _row(
            "200 types in a fresh process, above an empty module",
            results["start-up"],
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
    parts += [
        "",
        "## Instances (5 fields)",
        "",
        "| | " + " | ".join([*columns, "struct sequence"]) + " |",
        "|---|" + "---|" * (len(columns) + 1),
    ]
    for label, summary in results["operations"].items():
        parts.append(_row(label, summary, [*columns, "struct sequence"], "ns"))
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
        for origin, summary in results["attribute access by origin"].items():
            parts.append(_row(f"attribute access, {origin}", summary, columns, "ns"))
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
        + " | ".join(_bytes(memory["traced bytes per instance"].get(n)) for n in columns)
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
            for index, size in enumerate(scaling["sizes"]):
                row = [
                    _cell(scaling[kind][name][index], None, unit)
                    if name in scaling[kind]
                    else "n/a"
                    for name in columns
                ]
                parts.append(f"| {size} | " + " | ".join(row) + " |")
            parts.append("")
    parts += dropin_markdown(results)
    return "\n".join(parts) + "\n"


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
    if "opt-in start-up" in results:
        startup = results["opt-in start-up"]
        parts += [
            "",
            "## The RECORDS_NAMEDTUPLE opt-in",
            "",
            "Whole-process start-up, `python -c 'import <module>'`, medians, opt-in off and on:",
            "",
            "| import | named tuple classes built | off | on | on / off |",
            "|---|---|---|---|---|",
        ]
        for module, built in startup["classes built"].items():
            off = harness.medians({"x": startup["off"][module]})["x"]
            on = harness.medians({"x": startup["on"][module]})["x"]
            times = f"{off * 1e3:.1f} ms | {on * 1e3:.1f} ms | {on / off:.2f}×"
            parts.append(f"| {module} | {built} | {times} |")
        empty = harness.medians(startup["empty"])
        parts += [
            "",
            f"`python -c pass`: {empty['off'] * 1e3:.1f} ms off, {empty['on'] * 1e3:.1f} ms on"
            " (on imports records).",
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
