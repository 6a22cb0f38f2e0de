"""
``records.namedtuple``: ``collections.namedtuple`` without ``eval``.

The result is the same class CPython builds — same attributes, docstrings,
error messages and pickles — except that ``__new__`` comes from the shape cache
in ``_codegen`` instead of an ``eval``'d lambda, so building a class compiles
nothing once its shape has been seen, and no field name is ever compiled.
"""

from __future__ import annotations

import sys
from keyword import iskeyword

from . import _accelerator
from ._accessors import accessor, default_docs
from ._codegen import make_new
from ._compat import PY_3_13_PLUS, PY_3_15_PLUS, UNKNOWN_FIELD_ERROR, caller_module

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

_tuple_new = tuple.__new__

# Names that passed _check_names as field names: valid identifiers, not
# keywords, no leading underscore (bounded; cleared when full).
_checked_names: set[str] = set()

# Names the parser reads as constants, which a parameter cannot have.
_CONSTANTS = frozenset({"None", "True", "False"})


def namedtuple(  # noqa: PLR0912 - CPython's checks, in CPython's order
    typename: str,
    field_names: str | Iterable[str],
    *,
    rename: bool = False,
    defaults: Iterable[Any] | None = None,
    module: str | None = None,
) -> type[tuple[Any, ...]]:
    """
    Return a new subclass of tuple with named fields: a drop-in for
    ``collections.namedtuple``, with the same arguments, results and errors.

    Examples:
        >>> from records import namedtuple
        >>> Point = namedtuple("Point", ["x", "y"], defaults=[0])
        >>> Point.__doc__
        'Point(x, y)'
        >>> p = Point(11)
        >>> p
        Point(x=11, y=0)
        >>> p._replace(y=22)._asdict()
        {'x': 11, 'y': 22}
    """
    builder = _accelerator.builder
    if builder is not None:  # the C accelerator takes the common call whole
        made = builder.namedtuple(typename, field_names, rename, defaults, module)
        if made is not None:
            return made  # type: ignore[no-any-return]
    if isinstance(field_names, str):
        field_names = field_names.replace(",", " ").split()
    names = list(map(str, field_names))
    typename = sys.intern(str(typename))

    if rename:
        seen: set[str] = set()
        for index, name in enumerate(names):
            if not name.isidentifier() or iskeyword(name) or name.startswith("_") or name in seen:
                names[index] = f"_{index}"
            seen.add(name)

    if (
        rename
        or not _checked_names.issuperset(names)
        or not all(type(name) is str for name in names)  # a str subclass equal to a checked name
        or len(set(names)) != len(names)
        or not typename.isidentifier()
        or iskeyword(typename)
    ):
        _check_names(typename, names, rename=rename)

    field_defaults: dict[str, Any] = {}
    if defaults is not None:
        defaults = tuple(defaults)
        if len(defaults) > len(names):
            msg = "Got more default values than field names"
            raise TypeError(msg)
        field_defaults = dict(zip(names[len(names) - len(defaults) :], defaults))

    fields = tuple(map(sys.intern, names))
    # collections.namedtuple's eval reads the names as source does: NFKC
    # normalized, so a name may become a constant's (a ValueError from 3.14
    # on), and two names one parameter (a SyntaxError). ASCII names were
    # checked as they are.
    parameters = fields if "".join(fields).isascii() else _parameters(fields)
    if module is None:
        module = caller_module(1)
    if builder is not None:
        return builder.namedtuple_class(typename, fields, parameters, defaults, module)  # type: ignore[no-any-return]
    arg_list = ", ".join(fields) + ("," if len(fields) == 1 else "")
    globals_ = {"_tuple_new": _tuple_new, "__builtins__": {}, "__name__": f"namedtuple_{typename}"}
    __new__ = make_new(parameters, defaults, qualname=f"{typename}.__new__", globals_=globals_)
    __new__.__doc__ = f"Create new instance of {typename}({arg_list})"
    methods = _named_methods(typename, fields)
    namespace: dict[str, Any] = {
        "__doc__": f"{typename}({arg_list})",
        "__slots__": (),
        "_fields": fields,
        "_field_defaults": field_defaults,
        "__new__": __new__,
        **methods,
        "__match_args__": fields,
        # The one addition to collections.namedtuple's class: rich lays a
        # named tuple out field by field only when its __repr__ comes from
        # collections, and this asks it to do the same here.
        "__rich_repr__": _rich_repr,
    }
    if PY_3_13_PLUS:
        namespace["__replace__"] = methods["_replace"]
    docs = default_docs(len(fields))
    for index, name in enumerate(fields):
        namespace[name] = accessor(index, docs[index])
    result = type(typename, (tuple,), namespace)
    if module is not None:
        result.__module__ = module
    return result


def _compiler_refuses_constant_names() -> bool:
    """
    Whether this CPython's compiler refuses a name that reads as ``None``,
    ``True`` or ``False`` once NFKC normalized (3.14, and patch releases of
    earlier versions): then so does ``collections.namedtuple``'s ``eval``.
    Only compiled, never run; asked once.
    """
    if not _constant_names_refused:
        try:
            compile("lambda \uff2e\uff4f\uff4e\uff45: 0", "<string>", "eval")
        except ValueError:
            _constant_names_refused.append(True)
        else:
            _constant_names_refused.append(False)
    return _constant_names_refused[0]


#: The compiler's answer, once asked (``_compiler_refuses_constant_names``).
_constant_names_refused: list[bool] = []


def _parameters(fields: tuple[str, ...]) -> tuple[str, ...]:
    """
    Return non-ASCII *fields* as the parameters that ``eval`` of their names
    gives, raising what it raises for a constant's name or two names that
    read as one.
    """
    from ._rules import as_in_source

    parameters = tuple(map(as_in_source, fields))
    if _compiler_refuses_constant_names():
        constant = next((p for p in parameters if p in _CONSTANTS), None)
        if constant is not None:
            msg = f"identifier field can't represent {constant!r} constant"
            raise ValueError(msg)
    if len(set(parameters)) != len(parameters):
        duplicate = next(p for i, p in enumerate(parameters) if p in parameters[:i])
        kind = "parameter" if PY_3_15_PLUS else "argument"
        msg = f"duplicate {kind} {duplicate!r} in function definition"
        raise SyntaxError(msg, ("<string>", 1, 0, ""))
    return parameters


def _check_names(typename: str, names: list[str], *, rename: bool) -> None:
    """Raise what ``collections.namedtuple`` raises for bad names, in its order."""
    for name in [typename, *names]:
        if type(name) is not str:
            msg = "Type names and field names must be strings"
            raise TypeError(msg)
        if not name.isidentifier():
            msg = f"Type names and field names must be valid identifiers: {name!r}"
            raise ValueError(msg)
        if iskeyword(name):
            msg = f"Type names and field names cannot be a keyword: {name!r}"
            raise ValueError(msg)

    seen: set[str] = set()
    for name in names:
        if name.startswith("_") and not rename:
            msg = f"Field names cannot start with an underscore: {name!r}"
            raise ValueError(msg)
        if name in seen:
            msg = f"Encountered duplicate field name: {name!r}"
            raise ValueError(msg)
        seen.add(name)
    if not rename:
        if len(_checked_names) > 4096:
            _checked_names.clear()
        _checked_names.update(seen)


# The callables the methods below call: module globals (collections' methods
# hold them in their closures), so that each method's closure is the one
# value of its class it needs, which the C builder gives it.
_len, _map, _dict, _zip, _tuple = len, map, dict, zip, tuple


def _methods(typename: str, field_names: tuple[str, ...]) -> tuple[Any, ...]:
    """
    Return the methods of a named tuple class, as closures over its fields:
    collections' own (their variables named as theirs), each over one value
    of the class at most (the C
    builder makes the same functions, of the same code, for its classes).
    """
    num_fields = len(field_names)
    repr_fmt = "(" + ", ".join([f"{name}=%r" for name in field_names]) + ")"

    def _make(cls: Any, iterable: Iterable[Any]) -> Any:
        result = _tuple_new(cls, iterable)
        if _len(result) != num_fields:
            msg = f"Expected {num_fields} arguments, got {len(result)}"
            raise TypeError(msg)
        return result

    _make.__doc__ = f"Make a new {typename} object from a sequence or iterable"

    def _replace(self: Any, /, **kwds: Any) -> Any:
        result = self._make(_map(kwds.pop, field_names, self))
        if kwds:
            msg = f"Got unexpected field names: {list(kwds)!r}"
            raise UNKNOWN_FIELD_ERROR(msg)
        return result

    _replace.__doc__ = f"Return a new {typename} object replacing specified fields with new values"

    def __repr__(self: Any) -> str:
        """Return a nicely formatted representation string"""  # noqa: D400 - CPython's text
        return self.__class__.__name__ + repr_fmt % self  # type: ignore[no-any-return]

    def _asdict(self: Any) -> dict[str, Any]:
        """Return a new dict which maps field names to their values."""
        return _dict(_zip(self._fields, self))

    def __getnewargs__(self: Any) -> tuple[Any, ...]:
        """Return self as a plain tuple.  Used by copy and pickle."""
        return _tuple(self)

    return classmethod(_make), _replace, __repr__, _asdict, __getnewargs__


def _named_methods(typename: str, fields: tuple[str, ...]) -> dict[str, Any]:
    """
    Return the methods of ``_methods`` by name, each with its qualified name
    and, as collections' have, no annotations.
    """
    _make, _replace, __repr__, _asdict, __getnewargs__ = _methods(typename, fields)
    for method in (_make.__func__, _replace, __repr__, _asdict, __getnewargs__):
        method.__qualname__ = f"{typename}.{method.__name__}"
        method.__annotations__ = {}
    return {
        "_make": _make,
        "_replace": _replace,
        "__repr__": __repr__,
        "_asdict": _asdict,
        "__getnewargs__": __getnewargs__,
    }


def pure_method(typename: str, fields: tuple[str, ...], name: str) -> Any:
    """
    Return what stands for method *name* of a class built in C in a Python
    class of *typename* and *fields*: the pure path's method, or for the C
    class's additions, what acts as if they were absent.
    """
    if name == "__rich_repr__":
        return _rich_repr
    if name == "__reduce_ex__":
        return object.__reduce_ex__
    if name in _COPIERS:
        return _COPIERS[name]
    methods = _named_methods(typename, fields)
    if name not in methods:
        msg = f"a named tuple class has no method {name!r} to load"
        raise ValueError(msg)
    return methods[name]


def _copy_without_copier(self: Any, memo: Any) -> Any:
    """Copy *self* as ``copy.copy`` (*memo* None) or ``copy.deepcopy`` copy without copiers."""
    import copy
    import copyreg

    reductor = copyreg.dispatch_table.get(type(self))
    reduced = reductor(self) if reductor is not None else self.__reduce_ex__(4)
    if isinstance(reduced, str):
        return self
    return copy._reconstruct(self, memo, *reduced)  # type: ignore[attr-defined]


def __copy__(self: Any) -> Any:
    """Return a copy, as ``copy.copy`` makes it."""
    return _copy_without_copier(self, None)


def __deepcopy__(self: Any, memo: Any) -> Any:
    """Return a deep copy, as ``copy.deepcopy`` makes it."""
    return _copy_without_copier(self, memo)


_COPIERS = {"__copy__": __copy__, "__deepcopy__": __deepcopy__}


#: ``_make``'s function, ``_replace``, ``__repr__``, ``_asdict`` and
#: ``__getnewargs__`` as ``_methods`` makes them: the C builder makes each
#: class's of their code, each with a closure of one cell, or none, as here.
_templates = _methods("namedtuple", ())
METHOD_TEMPLATES = (_templates[0].__func__, *_templates[1:])
del _templates

#: The code of each of ``METHOD_TEMPLATES``.
TEMPLATE_CODES = tuple(template.__code__ for template in METHOD_TEMPLATES)

#: The code of every ``__repr__`` that ``_methods`` makes.
_REPR_CODE = TEMPLATE_CODES[2]


def _rich_repr(self: Any) -> Any:
    """
    Lay the named tuple out field by field in rich's pretty printer, as rich
    does for ``collections.namedtuple`` (unless a subclass has its own
    ``__repr__``).
    """
    if getattr(type(self).__repr__, "__code__", None) is not _REPR_CODE:
        return None
    return zip(self._fields, self)
