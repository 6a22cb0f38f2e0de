"""
Time mypy on a module of N records: records.Record with the records.mypy plugin
against the same module written with typing.NamedTuple (mypy's built-in support).

Usage: ``python benchmarks/mypy_plugin.py [--records N] [--rounds R] [--output FILE.md]``
(needs mypy: ``pip install . --group test`` from a checkout).

Each round runs both spellings, one after the other, as fresh ``python -m mypy``
processes with an empty cache, so the times include mypy's start-up and the
standard library's stubs, as a first run in CI does. An empty module is timed
in the same rounds; the report gives the medians, their ratio, and the ratio of
the time each module adds to the empty one's.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STUBS = Path(__file__).resolve().parent.parent / "stubs"
TYPES = ["int", "str", "float", "bytes", "bool", "list[int]", "tuple[str, ...]", "int | None"]


def _shape(index: int) -> tuple[list[tuple[str, str]], int]:
    """Fields (name, type) and how many of them take defaults: 3-8 fields, 0-2 defaults."""
    count = 3 + index % 6
    fields = [(f"f{n}", TYPES[(index + n) % len(TYPES)]) for n in range(count)]
    return fields, index % 3


VALUES = {
    "int": "0",
    "str": "''",
    "float": "0.0",
    "bytes": "b''",
    "bool": "False",
    "list[int]": "[]",
    "tuple[str, ...]": "()",
    "int | None": "None",
}


def module_source(records: int, spelling: str) -> str:
    """Write a module defining *records* classes, then constructing and reading each one."""
    if spelling == "records":
        lines = ["from records import Record, field", ""]
        base = "Record"
    else:
        lines = ["from typing import NamedTuple", ""]
        base = "NamedTuple"
    for index in range(records):
        fields, defaults = _shape(index)
        lines.append(f"class R{index}({base}):")
        for position, (name, declared) in enumerate(fields):
            type_name, default = declared, ""
            if position >= len(fields) - defaults:
                if declared == "list[int]":
                    type_name = "tuple[str, ...]"  # a list default would need a factory
                default = f" = {VALUES[type_name]}"
            lines.append(f"    {name}: {type_name}{default}")
        required = ", ".join(VALUES[t] for _, t in fields[: len(fields) - defaults])
        lines += [
            "",
            f"r{index} = R{index}({required})",
            f"v{index}: {fields[0][1]} = r{index}.f0",
            f"w{index} = r{index}[1]",
            f"u{index} = r{index}._replace(f0=r{index}.f0)",
            "",
        ]
    return "\n".join(lines)


def _time_mypy(directory: Path, module: str, config: str) -> float:
    with tempfile.TemporaryDirectory() as cache:
        command = [sys.executable, "-m", "mypy", "--config-file", config, "--cache-dir", cache]
        start = time.perf_counter()
        result = subprocess.run(
            [*command, module], cwd=directory, capture_output=True, text=True, check=False
        )
        elapsed = time.perf_counter() - start
    if result.returncode != 0:
        message = f"mypy reported errors on {module}:\n{result.stdout}{result.stderr}"
        raise SystemExit(message)
    return elapsed


def measure(records: int, rounds: int) -> dict[str, list[float]]:
    """Interleaved timings, in seconds, of mypy on both spellings."""
    times: dict[str, list[float]] = {"records": [], "namedtuple": [], "empty": []}
    with tempfile.TemporaryDirectory() as work:
        directory = Path(work)
        (directory / "with_records.py").write_text(module_source(records, "records"))
        (directory / "with_namedtuple.py").write_text(module_source(records, "namedtuple"))
        (directory / "empty.py").write_text("")
        plugin = directory / "plugin.ini"
        plugin.write_text(f"[mypy]\nplugins = records.mypy\nmypy_path = {STUBS}\n")
        plain = directory / "plain.ini"
        plain.write_text("[mypy]\n")
        for _ in range(rounds):
            times["records"].append(_time_mypy(directory, "with_records.py", str(plugin)))
            times["namedtuple"].append(_time_mypy(directory, "with_namedtuple.py", str(plain)))
            times["empty"].append(_time_mypy(directory, "empty.py", str(plugin)))
    return times


def report(records: int, times: dict[str, list[float]]) -> str:
    """Format the medians and their ratio as a Markdown table."""
    import mypy.version

    ours, theirs = statistics.median(times["records"]), statistics.median(times["namedtuple"])
    empty = statistics.median(times["empty"])
    return "\n".join(
        [
            f"# mypy on {records} records, cold cache ({len(times['records'])} rounds, medians)",
            "",
            f"mypy {mypy.version.__version__}, CPython {platform.python_version()}, "
            f"{platform.machine()}, {os.cpu_count()} CPUs",
            "",
            "| module | mypy time | ratio | time over an empty module | ratio |",
            "|---|---|---|---|---|",
            f"| empty module (mypy start-up, builtins) | {empty:.2f} s | | | |",
            f"| typing.NamedTuple (built in) | {theirs:.2f} s | 1.00× "
            f"| {theirs - empty:.2f} s | 1.00× |",
            f"| records.Record + records.mypy | {ours:.2f} s | {ours / theirs:.2f}× "
            f"| {ours - empty:.2f} s | {(ours - empty) / (theirs - empty):.2f}× |",
            "",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    """Measure, print the table, and write it to --output when given."""
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--records", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--output", type=Path)
    options = parser.parse_args(argv)
    table = report(options.records, measure(options.records, options.rounds))
    print(table)
    if options.output is not None:
        options.output.write_text(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
