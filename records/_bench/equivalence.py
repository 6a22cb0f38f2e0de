"""
Which peers run the same code for a measurement, found by looking at their
classes, so that the report can flag a difference between them as noise.

Two peers are equivalent for an operation when the interpreter does the same
work for both, whatever their names:

* attribute access: their field accessors are of the same C type (member
  descriptors, as ``__slots__`` makes them, or ``collections``'
  ``_tuplegetter``);
* index access, unpacking, equality and hash: both are ``tuple`` subclasses
  that leave ``tuple``'s own method in place;
* every other instance operation: their classes are alike, same bases, same
  accessor type and the same bytecode in every method the operations call
  (``typing.NamedTuple`` builds its classes with ``collections.namedtuple``,
  so the two share instances).

Class creation, start-up and memory have no equivalent peers: each library
builds its classes its own way, and memory is counted, not timed.
"""

from __future__ import annotations

import inspect
import itertools
import statistics
import types

from .peers import COMMON_OPERATIONS, field_names
from .suite import define

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Hashable, Sequence
    from typing import Any

    from .peers import Peer

#: Operations done by ``tuple``'s own C code, and the method each one needs
#: left in place.
TUPLE_OPERATIONS = {
    "index access": "__getitem__",
    "unpacking": "__iter__",
    "equality": "__eq__",
    "hash": "__hash__",
}

#: The methods whose bytecode two classes must share to share their instances.
METHODS = ("__new__", "__repr__", "__getnewargs__", "__reduce__", "_make", "_replace", "_asdict")

#: The C types of field accessors that read a field the same way.
ACCESSOR_TYPES = ("member_descriptor", "_tuplegetter")


def _accessor(cls: type) -> Hashable:
    kind = type(inspect.getattr_static(cls, "f2", None)).__name__
    return kind if kind in ACCESSOR_TYPES else None


def _code(function: Any) -> Hashable:
    function = getattr(function, "__func__", function)
    code = getattr(function, "__code__", None)
    if not isinstance(code, types.CodeType):  # a C method: the object itself says what runs
        return id(function)
    return (code.co_code, code.co_names, tuple(map(repr, code.co_consts)))


def _runtime(cls: type) -> Hashable:
    methods = tuple(_code(inspect.getattr_static(cls, name, None)) for name in METHODS)
    return (cls.__bases__, _accessor(cls), methods)


def _tuple_method(cls: type, method: str) -> Hashable:
    if not issubclass(cls, tuple):
        return None
    return "tuple" if inspect.getattr_static(cls, method) is getattr(tuple, method) else None


def _groups(keys: dict[str, Hashable]) -> list[list[str]]:
    """Return the names sharing a key (not ``None``), in groups of two or more."""
    found: dict[Hashable, list[str]] = {}
    for name, key in keys.items():
        if key is not None:
            found.setdefault(key, []).append(name)
    return [names for names in found.values() if len(names) > 1]


def equivalent_peers(peers: Sequence[Peer]) -> dict[str, list[list[str]]]:
    """Return, by instance operation, the groups of peers that run the same code for it."""
    classes = {peer.name: define(peer, field_names(5), 2)["P"] for peer in peers}
    result: dict[str, list[list[str]]] = {}
    operations = [*COMMON_OPERATIONS, *TUPLE_OPERATIONS, "_replace", "_asdict"]
    for operation in dict.fromkeys(operations):
        if operation == "attribute access":
            keys = {name: _accessor(cls) for name, cls in classes.items()}
        elif operation in TUPLE_OPERATIONS:
            method = TUPLE_OPERATIONS[operation]
            keys = {name: _tuple_method(cls, method) for name, cls in classes.items()}
        else:
            keys = {name: _runtime(cls) for name, cls in classes.items()}
        groups = _groups(keys)
        if groups:
            result[operation] = groups
    return result


#: The smallest difference flagged, whatever the noise: the same code can run
#: a few per cent apart in two classes (memory layout, cache alignment).
FLOOR = 0.05


def noise(samples: Sequence[float]) -> float:
    """Return the relative spread of *samples*: (largest - smallest) / median."""
    return (max(samples) - min(samples)) / statistics.median(samples)


def flags(
    samples: dict[str, list[float]], groups: Sequence[Sequence[str]], *, minimum: int = 3
) -> list[dict[str, Any]]:
    """
    Return the pairs of equivalent peers whose medians differ by more than
    the noise: by more than either peer's relative spread, and by more than
    ``FLOOR``. Peers with fewer than *minimum* samples give no flag: too few
    rounds say nothing about the noise.
    """
    found = []
    for group in groups:
        for first, second in itertools.combinations(group, 2):
            a, b = samples.get(first, []), samples.get(second, [])
            if len(a) < minimum or len(b) < minimum:
                continue
            ratio = statistics.median(b) / statistics.median(a)
            if abs(ratio - 1) > max(noise(a), noise(b), FLOOR):
                found.append({"peers": [first, second], "ratio": ratio})
    return found
