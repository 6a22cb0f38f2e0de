"""
What other libraries need from a record beyond the ``typing.NamedTuple``
protocol they already read, given through the hooks they look for.

Most libraries that know named tuples understand records without help: a
record is a ``tuple`` subclass with ``_fields``, ``_field_defaults`` and
annotations that ``typing.get_type_hints`` resolves. Two things are new:

* fields with a ``default_factory``, which ``_field_defaults`` cannot hold
  (it maps names to values, as in ``collections.namedtuple``): pydantic is
  told about them by ``Record.__get_pydantic_core_schema__``;
* rich expands a named tuple over several lines only when its ``__repr__``
  is ``collections.namedtuple``'s own; ``Record.__rich_repr__`` asks for the
  same layout.

The libraries themselves are imported only inside these hooks, which run
only when the library is already at work on a record: ``import records``
imports none of them.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

    from ._record import Record


def pydantic_core_schema(cls: type[Record], source: Any, handler: Any) -> Any:
    """
    Return pydantic's core schema for record class *cls*: the one pydantic
    makes for a named tuple with the same fields (validation, coercion,
    serialisation and JSON schema alike), in which each field with a
    ``default_factory`` is optional and gets a value from its factory.

    *source* and *handler* are what pydantic passes to
    ``__get_pydantic_core_schema__``.
    """
    schema = handler(source)
    factories = cls.__record_factories__
    if not factories:
        return schema
    from pydantic_core import core_schema  # type: ignore[import-not-found,unused-ignore]

    def with_factories(parameters: list[Any]) -> list[Any]:
        return [
            {
                **parameter,
                "schema": core_schema.with_default_schema(
                    parameter["schema"], default_factory=factories[parameter["name"]]
                ),
            }
            if parameter.get("name") in factories and parameter["schema"]["type"] != "default"
            else parameter
            for parameter in parameters
        ]

    resolved = handler.resolve_ref_schema(schema)
    if resolved["type"] == "named-tuple":  # pydantic 2.14 and later
        return {**resolved, "fields": with_factories(resolved["fields"])}
    if resolved["type"] == "call" and resolved["arguments_schema"]["type"] == "arguments":
        # Before 2.14, pydantic validated a named tuple as a call of the class.
        arguments = resolved["arguments_schema"]
        parameters = with_factories(arguments["arguments_schema"])
        return {**resolved, "arguments_schema": {**arguments, "arguments_schema": parameters}}
    return schema  # pragma: no cover - a schema shape this hook does not know


def rich_repr(
    record: Record, default_repr: Callable[[Any], str]
) -> Iterator[tuple[str, Any]] | None:
    """
    Return the ``(name, value)`` pairs rich lays out for *record*, or ``None``
    when its class defines its own ``__repr__`` (*default_repr* being the one
    records generate), which rich then prints as it is.
    """
    if type(record).__repr__ is not default_repr:
        return None
    return zip(record._fields, record)
