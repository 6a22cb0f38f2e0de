"""
``python -m records``: a short demonstration with a quick timing.

It defines a few records, shows what they do, then times class creation,
instance creation and attribute access against ``collections.namedtuple``
and ``typing.NamedTuple`` in this process, interleaved and repeated, and
prints medians and ratios. The full benchmark suite lives in ``benchmarks/``.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import timeit
import typing

import records
from records import Record, field

CLASS_STATEMENTS = {
    "records.Record": (
        "class P(Record):\n    a: int\n    b: int\n    c: int\n    d: int = 1\n    e: int = 2"
    ),
    "records.namedtuple": "P = records.namedtuple('P', 'a b c d e', defaults=(1, 2))",
    "collections.namedtuple": "P = collections.namedtuple('P', 'a b c d e', defaults=(1, 2))",
    "typing.NamedTuple": (
        "class P(typing.NamedTuple):\n    a: int\n    b: int\n    c: int\n"
        "    d: int = 1\n    e: int = 2"
    ),
}


def demo() -> None:
    """Print a few records and what they can do."""

    class Point(Record):
        """A point on the plane."""

        x: int
        y: int = 0
        tags: list[str] = field(default_factory=list)

    class Point3(Point):
        z: int = 0

    p = Point(1, 2)
    print("A record is a tuple with names:")
    print(f"  p = Point(1, 2)         -> {p!r}")
    print(f"  p.x, p[1], len(p)       -> {(p.x, p[1], len(p))}")
    print(f"  isinstance(p, tuple)    -> {isinstance(p, tuple)}")
    print(f"  p._replace(y=5)         -> {p._replace(y=5)!r}")
    print(f"  records.asdict(p)       -> {records.asdict(p)}")
    print(f"  Point3(1, z=3)          -> {Point3(1, z=3)!r}")
    print(
        f"  sys.getsizeof(p) == sys.getsizeof(tuple(p)) -> "
        f"{sys.getsizeof(p) == sys.getsizeof(tuple(p))}"
    )
    print()


def _time(statement: str, namespace: dict[str, object], number: int) -> float:
    return timeit.timeit(statement, globals=namespace, number=number) / number


def quick_timing(rounds: int) -> None:
    """Time class creation, instance creation and access, interleaved."""
    namespace: dict[str, object] = {
        "Record": Record,
        "records": records,
        "collections": collections,
        "typing": typing,
    }
    results: dict[str, dict[str, list[float]]] = {
        name: {"class": [], "instance": [], "access": []} for name in CLASS_STATEMENTS
    }
    for round_number in range(rounds):
        print(f"\rtiming, round {round_number + 1}/{rounds} ...", end="", file=sys.stderr)
        for name, statement in CLASS_STATEMENTS.items():
            results[name]["class"].append(_time(statement, namespace, 300))
            local = dict(namespace)
            exec(statement, local)  # the statements above, fixed text
            instance = local["P"](1, 2, 3)  # type: ignore[operator]
            local["p"] = instance
            results[name]["instance"].append(_time("P(1, 2, 3)", local, 20_000))
            results[name]["access"].append(_time("p.c", local, 50_000))
    print("\r" + " " * 40 + "\r", end="", file=sys.stderr)

    baseline = {
        kind: statistics.median(results["collections.namedtuple"][kind])
        for kind in ("class", "instance", "access")
    }
    print(
        f"Quick timing on Python {sys.version.split()[0]}: medians of {rounds} interleaved "
        "rounds, and ratio to collections.namedtuple (lower is faster)."
    )
    print(f"{'':24}{'class creation':>22}{'instance creation':>22}{'attribute access':>22}")
    for name, kinds in results.items():
        cells = []
        for kind, unit, scale in (
            ("class", "us", 1e6),
            ("instance", "ns", 1e9),
            ("access", "ns", 1e9),
        ):
            median = statistics.median(kinds[kind])
            cells.append(f"{median * scale:8.1f} {unit} {median / baseline[kind]:5.2f}x")
        print(f"{name:24}" + "".join(f"{cell:>22}" for cell in cells))
    print("\nThe full suite: see benchmarks/ in the source tree.")


def main(argv: list[str] | None = None) -> int:
    """Run the demonstration."""
    parser = argparse.ArgumentParser(
        prog="python -m records",
        description="Show what records do and time them against the standard library.",
    )
    parser.add_argument("--rounds", type=int, default=7, help="timing rounds (default: 7)")
    parser.add_argument("--no-timing", action="store_true", help="only show the demonstration")
    arguments = parser.parse_args(argv)
    demo()
    if not arguments.no_timing:
        quick_timing(max(1, arguments.rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
