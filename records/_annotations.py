"""
The annotations a class body writes, read without evaluating them.

On CPython 3.10 to 3.13, and under ``from __future__ import annotations``, the
class namespace holds them in ``__annotations__``: values the class body
already evaluated, or strings. From 3.14 on they are deferred (PEP 649/749):
the class has a compiler-generated ``__annotate__`` function instead, and
evaluating it would run every annotation expression and fail on names
defined later in the module.

``annotationlib``'s ``STRING`` format reads them without evaluating anything:
it calls the function with globals in which every name is a placeholder that
records what is done to it. It costs about 40 µs a class. ``deferred_strings``
does the same for what a record needs (the text of each annotation, for
``ClassVar`` and for ``records.fields()``), with one small placeholder type,
in a few microseconds, and leaves anything unusual to ``annotationlib``.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import FunctionType
    from typing import Any

#: ``types.FunctionType``, without importing ``types``.
_function_type: type[FunctionType] = type(lambda: None)  # type: ignore[assignment]  # mypy types a lambda as Callable

#: ``annotationlib.Format.VALUE_WITH_FAKE_GLOBALS``: the format in which a
#: compiler-generated ``__annotate__`` accepts globals of the caller's making.
_VALUE_WITH_FAKE_GLOBALS = 2


class _Text:
    """
    An annotation expression, as its source text: what a name of it becomes
    under fake globals, and what every operation on one gives back.
    """

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __getattr__(self, name: str) -> _Text:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _Text(f"{self.text}.{name}")

    def __getitem__(self, item: object) -> _Text:
        if type(item) is tuple:
            inside = ", ".join(_as_text(part) for part in item)
        else:
            inside = _as_text(item)
        return _Text(f"{self.text}[{inside}]")

    def __call__(self, *args: object, **kwargs: object) -> _Text:
        parts = [_as_text(arg) for arg in args]
        parts += [f"{key}={_as_text(value)}" for key, value in kwargs.items()]
        return _Text(f"{self.text}({', '.join(parts)})")

    def __or__(self, other: object) -> _Text:
        return _Text(f"{self.text} | {_as_text(other)}")

    def __ror__(self, other: object) -> _Text:
        return _Text(f"{_as_text(other)} | {self.text}")


def _as_text(value: object) -> str:
    """Return the source text of a part of an annotation."""
    if type(value) is _Text:
        return value.text
    if value is Ellipsis:
        return "..."
    if type(value) is list:
        return f"[{', '.join(_as_text(item) for item in value)}]"
    if type(value) is tuple:
        return f"({', '.join(_as_text(item) for item in value)}{',' if len(value) == 1 else ''})"
    return repr(value)


def deferred_strings(annotate: Callable[[int], dict[str, Any]]) -> dict[str, str] | None:
    """
    Return the annotations of compiler-generated *annotate* as source text,
    evaluating nothing; ``None`` where this cannot tell, to ask
    ``annotationlib`` instead.
    """
    code = getattr(annotate, "__code__", None)
    if code is None or not isinstance(annotate, _function_type):
        return None
    # Every name the code can look up is in co_names: each stands for itself,
    # in a plain dict (no __missing__ call per name); the class namespace is
    # empty, so lookups fall through to it.
    texts = _texts
    if len(texts) > 4096:
        texts.clear()
    names: dict[str, object] = {}
    for name in code.co_names:
        text = texts.get(name)
        if text is None:
            text = texts[name] = _Text(name)
        names[name] = text
    names["__builtins__"] = {}
    cells = tuple(
        _cell_type({} if name == "__classdict__" else _Text(name)) for name in code.co_freevars
    )
    try:
        fake = _function_type(code, names, annotate.__name__, None, cells or None)
        result = fake(_VALUE_WITH_FAKE_GLOBALS)
    except Exception:  # any surprise: annotationlib knows more forms
        return None
    if type(result) is not dict:
        return None
    strings: dict[str, str] = {}
    for key, value in result.items():
        kind = type(value)
        if kind is _Text:
            strings[key] = value.text
        elif kind is str:
            strings[key] = value
        elif kind in _SPELLED:
            strings[key] = _as_text(value)
        else:
            return None  # a value this placeholder cannot spell: annotationlib can
    return strings


# The placeholder of each name seen in an annotation (bounded; cleared when full).
_texts: dict[str, _Text] = {}


#: The types of annotation values that ``_as_text`` spells as their source.
_SPELLED = frozenset({_Text, list, tuple, int, float, bool, type(None), type(Ellipsis)})


def _a_cell() -> Any:
    """Return a closure cell."""
    value = None
    return (lambda: value).__closure__[0]  # type: ignore[index]


#: ``types.CellType``, without importing ``types``: ``_cell_type(value)``.
_cell_type: Any = type(_a_cell())


def own_annotations(cls: type) -> dict[str, Any]:
    """
    Return the annotations written in *cls*'s own body, without evaluating them.

    On CPython 3.10 to 3.13 these are the ``__annotations__`` dict of the class
    namespace (values already evaluated by the class body, or strings under
    ``from __future__ import annotations``). From 3.14 on, deferred annotations
    are read as their source text (``annotationlib``'s ``STRING`` format).
    """
    namespace = cls.__dict__
    # On a mappingproxy, "in" and [] are much faster than .get().
    if "__annotations__" in namespace:
        annotations = namespace["__annotations__"]
        return annotations if annotations.__class__ is dict else {}
    if sys.version_info >= (3, 14) and "__annotate_func__" in namespace:
        annotate = namespace["__annotate_func__"]
        if annotate is None:
            return {}
        strings = deferred_strings(annotate)
        if strings is not None:
            return strings
        import annotationlib  # type: ignore[import-not-found,unused-ignore]

        return annotationlib.get_annotations(  # type: ignore[no-any-return,unused-ignore]
            cls, format=annotationlib.Format.STRING
        )
    return {}


def field_types(cls: type) -> dict[str, Any]:
    """
    Return the annotations of *cls*'s own body as ``records.fields()`` gives
    them: as written, or, where they are deferred (3.14+), as
    ``dataclasses.fields()`` gives them (``annotationlib``'s ``FORWARDREF``
    format: the objects they name, and a ``ForwardRef`` for a name not
    defined yet).
    """
    if not is_deferred(cls):
        return own_annotations(cls)
    import annotationlib  # type: ignore[import-not-found,unused-ignore]

    return annotationlib.get_annotations(  # type: ignore[no-any-return,unused-ignore]
        cls, format=annotationlib.Format.FORWARDREF
    )


def is_deferred(cls: type) -> bool:
    """Tell whether *cls* keeps its annotations deferred (3.14+, PEP 649)."""
    namespace = cls.__dict__
    return "__annotations__" not in namespace and "__annotate_func__" in namespace


def new_annotate(cls: type) -> Callable[[int], dict[str, Any]]:
    """
    Return the ``__annotate__`` of the ``__new__`` of record class *cls*,
    whose parameters are its fields (``annotate_new`` bound to *cls*).
    """
    return _method_type(annotate_new, cls)  # type: ignore[no-any-return]


def annotate_new(cls: type, format: int) -> dict[str, Any]:
    """
    Return the annotations of the ``__new__`` of record class *cls*, in
    *format*: read from the classes that declared its fields, when asked, as
    ``typing.NamedTuple`` does for its ``__new__``. ``VALUE`` raises
    ``NameError`` while a name is not defined yet, so that the function
    caches nothing until it is (``FORWARDREF`` gives ``ForwardRef``s).
    """
    import annotationlib  # type: ignore[import-not-found,unused-ignore]

    if format == _VALUE_WITH_FAKE_GLOBALS:
        raise NotImplementedError(format)
    names = cls.__dict__.get("_fields", ())
    wanted = annotationlib.Format(format)
    found: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        namespace = klass.__dict__
        if "__annotations__" in namespace or namespace.get("__annotate_func__"):
            annotations = annotationlib.get_annotations(klass, format=wanted)
            found.update((name, value) for name, value in annotations.items() if name in names)
    return {name: found[name] for name in names if name in found}


#: ``types.MethodType``, without importing ``types``.
_method_type: Any = type(_Text("").__getitem__)
