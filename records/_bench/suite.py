"""
The measurements: class creation, start-up (in a fresh process, and of the
whole process), instance operations, memory, scaling with the number of
fields, and import time.

Each function returns plain data (seconds, bytes) keyed by peer name, ready
for JSON; ratios to ``collections.namedtuple`` are computed by the report.
"""

from __future__ import annotations

import contextlib
import copy
import os
import pickle
import random
import subprocess
import sys
import tempfile
import time
import types

from . import harness
from .peers import COMMON_OPERATIONS, Peer, field_names

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

# Classes defined for pickling are registered here, under unique names, so
# that pickle finds them as records._bench.suite.<name>.
_registry = types.ModuleType(__name__ + "._registry")
sys.modules[_registry.__name__] = _registry


def define(peer: Peer, names: Sequence[str], default_count: int) -> dict[str, Any]:
    """
    Define class ``P`` of *peer* with *names* in a fresh namespace, with two
    equal instances ``p`` and ``p2`` (all fields given), registered for pickle.
    """
    namespace: dict[str, Any] = {
        "loads": pickle.loads,
        "dumps": pickle.dumps,
        "copy": copy.copy,
        "deepcopy": copy.deepcopy,
    }
    exec(peer.setup, namespace)  # fixed import statements of the peer
    exec(peer.define("P", names, default_count), namespace)  # generated names only
    cls = namespace["P"]
    unique = f"P_{abs(hash((peer.name, tuple(names))))}"
    cls.__qualname__ = cls.__name__ = unique
    cls.__module__ = _registry.__name__
    setattr(_registry, unique, cls)
    values = range(1, len(names) + 1)
    namespace["p"] = cls(*values)
    namespace["p2"] = cls(*values)
    return namespace


def class_creation(
    peers: Sequence[Peer],
    field_count: int,
    default_count: int,
    rounds: int,
    progress: harness.Progress,
    *,
    fresh_names: bool = False,
    per_round: int = 200,
    functional: bool = False,
    gc_on: bool = False,
    label: str = "",
) -> dict[str, list[float]]:
    """
    Seconds per class definition, *rounds* samples per peer.

    With *fresh_names*, every class has field names never seen before (a
    shape-cache miss for records); otherwise one class statement is repeated.
    With *functional*, each peer's functional form makes the class (where it
    has one); with *gc_on*, the garbage collector runs as it would. *label*
    names the configuration in the progress display.
    """
    plural = "field" if field_count == 1 else "fields"
    label = label or f"{field_count} {plural}"
    samples: dict[str, list[float]] = {peer.name: [] for peer in peers}
    namespaces: dict[str, dict[str, Any]] = {}
    for peer in peers:
        namespaces[peer.name] = {}
        exec(peer.setup, namespaces[peer.name])
    counter = 0
    for index in range(1, rounds + 1):
        progress.round(f"class creation, {label}", index, rounds)
        for peer in peers:
            # The definitions run unrolled inside one function, as timeit runs
            # its statement: no exec per class. Every class has its own name,
            # as in a real module (attrs, for one, slows down when many
            # classes share a name, through its linecache file names).
            statements = []
            names = field_names(field_count)
            for _ in range(per_round):
                counter += 1
                if fresh_names:
                    names = field_names(field_count, prefix=f"n{counter}_")
                make = peer.functional if functional and peer.functional else peer.define
                statements.append(make(f"P{counter}", names, default_count))
            body = "".join(statements)
            namespace = dict(namespaces[peer.name])
            exec("def run():\n" + _indent(body), namespace)  # generated names only
            seconds = harness.time_callable(namespace["run"], 1, gc_on=gc_on)
            samples[peer.name].append(seconds / per_round)
            progress.step(peer.name)
    return samples


# Loops per sample, in tenths of the operations' base count: cheap operations
# run longer so that a sample is well above the timer's resolution.
_LOOP_FACTOR = {
    "attribute access": 100,
    "index access": 100,
    "unpacking": 50,
    "equality": 100,
    "hash": 100,
    "pickle round trip": 1,
    "copy.copy": 5,
    "copy.deepcopy": 1,
}


# Operations of a few nanoseconds run this many times per statement (and
# the time is divided back), so that the loop around them weighs little.
_UNROLLED = {"attribute access": 10, "index access": 10}


def _unrolled(operation: str, statement: str) -> tuple[str, int]:
    """Return *statement* repeated as ``_UNROLLED`` says, and the count."""
    count = _UNROLLED.get(operation, 1)
    return "; ".join([statement] * count), count


def _indent(source: str) -> str:
    return "".join(f"    {line}\n" for line in source.splitlines())


def operations(
    peers: Sequence[Peer], rounds: int, progress: harness.Progress, loops: int = 20_000
) -> dict[str, dict[str, list[float]]]:
    """Seconds per operation on a 5-field record, by operation then peer."""
    names = field_names(5)
    namespaces = {peer.name: define(peer, names, 2) for peer in peers}
    table: dict[str, dict[str, list[float]]] = {}
    for operation in [*COMMON_OPERATIONS, "index access", "unpacking", "_replace", "_asdict"]:
        table[operation] = {}
    for index in range(1, rounds + 1):
        progress.round("instance operations", index, rounds)
        for peer in peers:
            statements = {**COMMON_OPERATIONS, **peer.operations}
            for operation, statement in statements.items():
                repeated, count = _unrolled(operation, statement)
                number = max(1, loops * _LOOP_FACTOR.get(operation, 1) // 10 // count)
                elapsed = harness.time_statement(repeated, namespaces[peer.name], number) / count
                table[operation].setdefault(peer.name, []).append(elapsed)
            progress.step(peer.name)
    struct_time = _struct_sequence_operations(rounds, loops)
    for operation, values in struct_time.items():
        table[operation]["struct sequence"] = values
    return table


#: Where ``attribute_access_by_origin`` makes each class: the module name in
#: force, and whether the definition runs inside a function.
ORIGINS = {
    "module level": ("records_benchmark_module", False),
    "in a function": ("records_benchmark_module", True),
    "in __main__": ("__main__", False),
    "functional form": ("records_benchmark_module", False),
}


def _made_in(peer: Peer, origin: str, names: Sequence[str]) -> dict[str, Any]:
    """Return a namespace with class ``P`` of *peer* made as *origin* says, and ``p``."""
    module, in_function = ORIGINS[origin]
    if module != "__main__":  # a module of its own, as dataclasses look the module up
        module = f"{module}_{len(sys.modules)}"
        sys.modules[module] = types.ModuleType(module)
    namespace: dict[str, Any] = {"__name__": module}
    exec(peer.setup, namespace)  # fixed import statements of the peer
    make = peer.functional if origin == "functional form" and peer.functional else peer.define
    source = make("P", names, 2)
    if in_function:
        source = "def make():\n" + _indent(source) + "    return P\nP = make()\n"
    exec(source, namespace)  # generated names only
    namespace["p"] = namespace["P"](*range(1, len(names) + 1))
    return namespace


def attribute_access_by_origin(
    peers: Sequence[Peer], rounds: int, progress: harness.Progress, loops: int = 20_000
) -> dict[str, dict[str, list[float]]]:
    """
    Seconds per ``p.f2`` on a 5-field class made at module level, in a
    function, in ``__main__`` and by the peer's functional form (where it has
    none, its class statement), by origin then peer.
    """
    names = field_names(5)
    namespaces = {
        origin: {peer.name: _made_in(peer, origin, names) for peer in peers} for origin in ORIGINS
    }
    table: dict[str, dict[str, list[float]]] = {origin: {} for origin in ORIGINS}
    repeated, count = _unrolled("attribute access", "p.f2")
    number = max(1, loops * _LOOP_FACTOR["attribute access"] // 10 // count)
    for index in range(1, rounds + 1):
        progress.round("attribute access by where the class is made", index, rounds)
        for peer in peers:
            for origin in ORIGINS:
                namespace = namespaces[origin][peer.name]
                elapsed = harness.time_statement(repeated, namespace, number) / count
                table[origin].setdefault(peer.name, []).append(elapsed)
            progress.step(peer.name)
    return table


def _struct_sequence_operations(rounds: int, loops: int) -> dict[str, list[float]]:
    """Access on a C struct sequence (time.struct_time, 9 fields) for reference."""
    namespace = {"p": time.localtime(0), "p2": time.localtime(0)}
    statements = {"attribute access": "p.tm_mday", "index access": "p[2]", "hash": "hash(p)"}
    table = {}
    for operation, statement in statements.items():
        repeated, count = _unrolled(operation, statement)
        table[operation] = [
            harness.time_statement(repeated, namespace, loops * 10 // count) / count
            for _ in range(rounds)
        ]
    return table


def memory(peers: Sequence[Peer], count: int, progress: harness.Progress) -> dict[str, Any]:
    """
    ``sys.getsizeof`` and traced bytes per instance for *count* instances.

    Interpreters without them (PyPy has neither ``getsizeof`` nor
    ``tracemalloc``) get no entry, which the report shows as "n/a".
    """
    result: dict[str, Any] = {"getsizeof": {}, "traced bytes per instance": {}, "count": count}
    try:
        import tracemalloc
    except ImportError:
        tracemalloc = None  # type: ignore[assignment]
    values = tuple(range(1, 6))
    progress.round("memory")
    for peer in peers:
        namespace = define(peer, field_names(5), 2)
        cls = namespace["P"]
        with contextlib.suppress(TypeError):  # "not implemented on PyPy"
            result["getsizeof"][peer.name] = sys.getsizeof(namespace["p"])
        if tracemalloc is not None:
            holder: list[Any] = [None] * count
            tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0]
            for index in range(count):
                holder[index] = cls(*values)
            traced = tracemalloc.get_traced_memory()[0] - before
            tracemalloc.stop()
            del holder
            result["traced bytes per instance"][peer.name] = traced / count
        progress.step(peer.name)
    with contextlib.suppress(TypeError):
        result["getsizeof"]["tuple"] = sys.getsizeof(values)
    return result


def scaling(
    peers: Sequence[Peer], sizes: Sequence[int], rounds: int, progress: harness.Progress
) -> dict[str, Any]:
    """
    Class and instance creation time by number of fields: medians per size
    under each kind, and their smallest and largest samples under ``spread``.
    """
    kinds = ("class creation", "instance creation")
    result: dict[str, Any] = {"sizes": list(sizes), **{kind: {} for kind in kinds}}
    result["spread"] = {kind: {"min": {}, "max": {}} for kind in kinds}

    def add(kind: str, samples: dict[str, list[float]]) -> None:
        for name, median in harness.medians(samples).items():
            result[kind].setdefault(name, []).append(median)
        for bound, values in harness.spread(samples).items():
            for name, value in values.items():
                result["spread"][kind][bound].setdefault(name, []).append(value)

    for size in sizes:
        defaults = min(2, size // 2)
        per_round = 100 if size <= 10 else 40
        add(
            "class creation",
            class_creation(peers, size, defaults, rounds, progress, per_round=per_round),
        )
        namespaces = {peer.name: define(peer, field_names(size), defaults) for peer in peers}
        call = "P(" + ", ".join(str(i) for i in range(size)) + ")"
        samples_by_peer: dict[str, list[float]] = {peer.name: [] for peer in peers}
        progress.round(f"instance creation, {size} fields")
        for _ in range(rounds):
            for peer in peers:
                elapsed = harness.time_statement(call, namespaces[peer.name], 10_000)
                samples_by_peer[peer.name].append(elapsed)
        add("instance creation", samples_by_peer)
        progress.step()
    return result


def startup_module(peer: Peer, types_count: int = 200, seed: int = 2026) -> str:
    """Return the source of a module defining *types_count* record types of 3-8 fields."""
    rng = random.Random(seed)
    parts = [peer.setup]
    for index in range(types_count):
        count = rng.randint(3, 8)
        defaults = rng.randint(0, 2)
        names = [f"field_{index}_{n}" for n in range(count)]
        parts.append(peer.define(f"Type{index}", names, defaults))
    return "\n".join(parts) + "\n"


_CHILD = """
import sys, time
sys.path[:0] = {paths!r}
start = time.perf_counter()
import {module}
print(time.perf_counter() - start)
"""


def startup(
    peers: Sequence[Peer], rounds: int, progress: harness.Progress
) -> dict[str, list[float]]:
    """
    Seconds to import a module of 200 record types in a fresh process.

    The child runs with ``-S -E`` (no site hooks, no environment), gets this
    process's ``sys.path``, and times ``import`` of the generated, already
    byte-compiled module: the peer's library import plus 200 definitions. An
    empty module, timed the same way, is the baseline the report subtracts.
    """
    samples: dict[str, list[float]] = {"empty module": [], **{peer.name: [] for peer in peers}}
    with tempfile.TemporaryDirectory() as directory:
        modules = {"empty module": "startup_empty"}
        with open(os.path.join(directory, "startup_empty.py"), "w") as file:
            file.write("")
        for index, peer in enumerate(peers):
            modules[peer.name] = f"startup_{index}"
            with open(os.path.join(directory, f"startup_{index}.py"), "w") as file:
                file.write(startup_module(peer))
        paths = [directory, *[path for path in sys.path if path]]
        for module in modules.values():  # compile once, and warm the disk cache
            _child_seconds(module, paths)
        for index in range(1, rounds + 1):
            progress.round("start-up, 200 types in a fresh process", index, rounds)
            for name, module in modules.items():
                samples[name].append(_child_seconds(module, paths))
            progress.step()
    return samples


def _child_seconds(module: str, paths: list[str]) -> float:
    code = _CHILD.format(paths=paths, module=module)
    environment = {
        key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"
    }
    output = subprocess.run(
        [sys.executable, "-S", "-E", "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env=environment,
    ).stdout
    return float(output.strip().splitlines()[-1])


def process_startup(
    peers: Sequence[Peer], rounds: int, progress: harness.Progress, types_count: int = 20
) -> dict[str, list[float]]:
    """
    Wall seconds of a whole fresh process, ``python -c "import <module>"``,
    whose module defines *types_count* record types of 3-8 fields with the
    peer: interpreter start-up, the peer's library and the definitions,
    what a small program pays. The module is byte-compiled first; the
    ``RECORDS_NAMEDTUPLE`` opt-in is off.
    """
    samples: dict[str, list[float]] = {peer.name: [] for peer in peers}
    with tempfile.TemporaryDirectory() as directory:
        modules = {}
        for index, peer in enumerate(peers):
            modules[peer.name] = f"process_{index}"
            with open(os.path.join(directory, f"process_{index}.py"), "w") as file:
                file.write(startup_module(peer, types_count))
        for module in modules.values():  # compile once, and warm the disk cache
            harness.process_seconds(f"import {module}", cwd=directory)
        for index in range(1, rounds + 1):
            progress.round(f"start-up, {types_count} types, whole process", index, rounds)
            for name, module in modules.items():
                samples[name].append(harness.process_seconds(f"import {module}", cwd=directory))
            progress.step()
    return samples


def import_time(
    peers: Sequence[Peer], rounds: int, progress: harness.Progress
) -> dict[str, list[float]]:
    """Seconds ``python -X importtime`` reports for importing each peer's module."""
    modules = {peer.module for peer in peers} | {"records"}
    paths = [path for path in sys.path if path]
    samples: dict[str, list[float]] = {module: [] for module in sorted(modules)}
    for index in range(1, rounds + 1):
        progress.round("import time", index, rounds)
        for module, values in samples.items():
            code = f"import sys; sys.path[:0] = {paths!r}; import {module}"
            stderr = subprocess.run(
                [sys.executable, "-S", "-E", "-X", "importtime", "-c", code],
                capture_output=True,
                text=True,
                check=True,
            ).stderr
            lines = [line for line in stderr.splitlines() if line.rstrip().endswith(f"| {module}")]
            # A module imported before the measured statement shows no line: 0 s.
            values.append(int(lines[-1].split("|")[1]) / 1e6 if lines else 0.0)
        progress.step()
    return samples
