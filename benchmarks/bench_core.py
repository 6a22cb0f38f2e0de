"""
Core timings of records against collections.namedtuple and typing.NamedTuple.

One process, peers interleaved round by round, every figure a median over the
rounds, reported as a ratio to collections.namedtuple measured in the same
round. Run: ``python benchmarks/bench_core.py [--rounds N] [--json FILE]``.

A careful ``timeit`` harness rather than pyperf: pyperf spawns a process per
benchmark, which is exactly what an interleaved, same-process ratio avoids,
and it would be one more dependency for a handful of figures.
"""

from __future__ import annotations

import argparse
import collections
import copy
import json
import pickle
import platform
import statistics
import sys
import timeit
import tracemalloc
import typing

import records
from records import Record

PEERS = ("collections.namedtuple", "typing.NamedTuple", "records.Record", "records.namedtuple")

# Each peer's idiomatic class: five fields, two with defaults.
CLASS_SOURCE = {
    "collections.namedtuple": "P = collections.namedtuple('P', 'a b c d e', defaults=(1, 2))",
    "typing.NamedTuple": (
        "class P(typing.NamedTuple):\n    a: int\n    b: int\n    c: int\n"
        "    d: int = 1\n    e: int = 2\n"
    ),
    "records.Record": (
        "class P(Record):\n    a: int\n    b: int\n    c: int\n    d: int = 1\n    e: int = 2\n"
    ),
    "records.namedtuple": "P = records.namedtuple('P', 'a b c d e', defaults=(1, 2))",
}

# (label, statement, loops); the statement runs with P and p = P(1, 2, 3, 4, 5) bound.
OPERATIONS = [
    ("class creation", None, 300),
    ("instance, positional", "P(1, 2, 3, 4, 5)", 20_000),
    ("instance, keyword", "P(a=1, b=2, c=3, d=4, e=5)", 20_000),
    ("instance, defaults", "P(1, 2, 3)", 20_000),
    ("attribute access", "p.c", 100_000),
    ("index access", "p[2]", 100_000),
    ("unpacking", "a, b, c, d, e = p", 100_000),
    ("_replace", "p._replace(c=9)", 20_000),
    ("_asdict", "p._asdict()", 20_000),
    ("equality", "p == p2", 100_000),
    ("hash", "hash(p)", 100_000),
    ("pickle round trip", "loads(dumps(p, 5))", 5_000),
    ("copy.copy", "copy(p)", 20_000),
]


def namespace_for(peer: str) -> dict[str, typing.Any]:
    """Define the peer's class and an instance in a fresh namespace."""
    namespace: dict[str, typing.Any] = {
        "collections": collections,
        "typing": typing,
        "records": records,
        "Record": Record,
        "loads": pickle.loads,
        "dumps": pickle.dumps,
        "copy": copy.copy,
        "__name__": __name__,
    }
    exec(CLASS_SOURCE[peer], namespace)  # fixed benchmark text above
    namespace["p"] = namespace["P"](1, 2, 3, 4, 5)
    namespace["p2"] = namespace["P"](1, 2, 3, 4, 5)
    # pickle finds classes by module attribute; give each peer's class its own name
    cls = namespace["P"]
    cls.__qualname__ = cls.__name__ = f"P_{PEERS.index(peer)}"
    globals()[cls.__name__] = cls
    return namespace


def bytes_per_instance(cls: type, count: int = 100_000) -> float:
    """Traced bytes per instance for *count* instances of *cls*."""
    values = [(i, i, i, i, i) for i in range(count)]  # shared ints, built beforehand
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    instances = [cls(*value) for value in values]
    size = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    del instances
    return (size - sys.getsizeof([None] * count)) / count


def run(rounds: int) -> dict[str, typing.Any]:
    """Measure every operation for every peer; return medians and ratios."""
    samples: dict[str, dict[str, list[float]]] = {
        label: {peer: [] for peer in PEERS} for label, _, _ in OPERATIONS
    }
    for round_number in range(rounds):
        print(f"\rround {round_number + 1}/{rounds}", end="", file=sys.stderr)
        for label, statement, loops in OPERATIONS:
            for peer in PEERS:
                namespace = namespace_for(peer)
                source = CLASS_SOURCE[peer] if statement is None else statement
                elapsed = timeit.timeit(source, globals=namespace, number=loops)
                samples[label][peer].append(elapsed / loops)
    print(file=sys.stderr)
    result: dict[str, typing.Any] = {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "rounds": rounds,
        "seconds": {},
        "ratio": {},
    }
    for label, by_peer in samples.items():
        base = statistics.median(by_peer["collections.namedtuple"])
        result["seconds"][label] = {peer: statistics.median(v) for peer, v in by_peer.items()}
        result["ratio"][label] = {peer: statistics.median(v) / base for peer, v in by_peer.items()}
    result["getsizeof"] = {peer: sys.getsizeof(namespace_for(peer)["p"]) for peer in PEERS} | {
        "tuple": sys.getsizeof((1, 2, 3, 4, 5))
    }
    result["traced bytes per instance"] = {
        peer: bytes_per_instance(namespace_for(peer)["P"]) for peer in PEERS
    }
    return result


def print_table(result: dict[str, typing.Any]) -> None:
    """Print the medians and ratios as a Markdown table."""
    print(
        f"Python {result['python']} ({result['implementation']}, {result['machine']}), "
        f"median of {result['rounds']} interleaved rounds; ratio to collections.namedtuple"
    )
    print()
    print("| operation | " + " | ".join(PEERS) + " |")
    print("|---|" + "---|" * len(PEERS))
    for label, by_peer in result["seconds"].items():
        unit, scale = ("µs", 1e6) if label == "class creation" else ("ns", 1e9)
        cells = [
            f"{by_peer[peer] * scale:.1f} {unit} ({result['ratio'][label][peer]:.2f}×)"
            for peer in PEERS
        ]
        print(f"| {label} | " + " | ".join(cells) + " |")
    print("| sys.getsizeof | " + " | ".join(str(result["getsizeof"][p]) for p in PEERS) + " |")
    print(
        "| traced bytes/instance | "
        + " | ".join(f"{result['traced bytes per instance'][p]:.1f}" for p in PEERS)
        + " |"
    )


def main() -> None:
    """Parse arguments, run, print, optionally save JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--json", help="also write the results to this file")
    arguments = parser.parse_args()
    result = run(arguments.rounds)
    print_table(result)
    if arguments.json:
        with open(arguments.json, "w") as file:
            json.dump(result, file, indent=2)


if __name__ == "__main__":
    main()
