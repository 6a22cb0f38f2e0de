"""
Generated constructors, compiled once per shape and shared.

A record's ``__new__`` is ``def __new__(_cls, x, y): return _tuple_new(_cls, (x, y))``
plus one line per field with a default factory. Its source depends only on the
*shape*: the number of fields and which of them have factories. Field names
never enter the source: the template is written with placeholders ``_0, _1, ...``
and compiled once per shape; a class's own names are then put in by
``CodeType.replace(co_varnames=...)``, which compiles nothing. So no text from a
user (a field name, a type name) is ever compiled or executed, and a second
class with the same field names costs one ``FunctionType`` call.

Templates without factories for up to 12 fields are not compiled at all: they
are written out in ``_precompiled`` (imported with the first record class) and
load with its bytecode, which saves a ``compile`` per arity at start-up.

Each compiled template's source is kept under its synthetic file name and given to
``linecache``, so that tracebacks and debuggers can show it. ``linecache`` is
not imported for that (it pulls in ``tokenize`` and ``re``, several
milliseconds of start-up): the sources are registered when a template is
compiled if ``linecache`` is already loaded, as in most programs, and
``register_sources()`` registers them all later.
"""

from __future__ import annotations

import sys

from ._fields import FACTORY

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Hashable, Mapping
    from types import CodeType, FunctionType
    from typing import Any, TypeVar

    _V = TypeVar("_V")

#: ``types.FunctionType``, without importing ``types`` (about 0.15 ms).
_function_type: type[FunctionType] = type(lambda: None)  # type: ignore[assignment]  # mypy types a lambda as Callable


def _a_cell() -> Any:
    """Return a closure cell."""
    value = None
    return (lambda: value).__closure__[0]  # type: ignore[index]


#: ``types.CellType``, likewise (as in ``_annotations``, which a class
#: statement does not load on 3.10 to 3.13).
_cell_type: Any = type(_a_cell())

#: Globals of every generated constructor without factories. ``__builtins__``
#: is empty, as in ``collections.namedtuple``: the code needs none.
BASE_GLOBALS: dict[str, Any] = {"__builtins__": {}, "_tuple_new": tuple.__new__}


class _BoundedCache(dict):  # type: ignore[type-arg]
    """
    A dict of at most *maxsize* entries that drops the oldest when full.

    Every value is immutable and equal to what any other thread would compute
    for the same key, so a race costs only duplicate work: ``setdefault`` makes
    all threads use one value, and eviction tolerates keys already gone.
    """

    __slots__ = ("maxsize",)

    def __init__(self, maxsize: int) -> None:
        super().__init__()
        self.maxsize = maxsize

    def add(self, key: Hashable, value: _V) -> _V:
        """Store *value* under *key* unless present; return the stored value."""
        if len(self) >= self.maxsize:
            try:  # noqa: SIM105 - no contextlib on this path
                self.pop(next(iter(self)), None)
            except (StopIteration, RuntimeError):  # emptied or resized meanwhile
                pass
        return self.setdefault(key, value)  # type: ignore[no-any-return]


# Templates, keyed by (arity, factory indices). Code objects hold no reference
# to any class, so caching them never keeps a user class alive.
_templates = _BoundedCache(256)
# Constructors' code with the real parameter names, keyed by (names, factory
# indices): the cache hit for "the same shape again".
_codes = _BoundedCache(4096)
# Template sources by file name, for linecache; bounded like _templates.
_sources = _BoundedCache(256)


def _template_source(arity: int, factory_indices: tuple[int, ...], closure: bool) -> str:
    params = [f"_{i}" for i in range(arity)]
    lines = [f"def __new__({', '.join(['_cls', *params])}):"]
    if closure:
        lines += [f"    if {_BUILT_CHECK}:", "        _incomplete(_cls, _owner)"]
    lines += [f"    if _{i} is _FACTORY: _{i} = _factory_{i}()" for i in factory_indices]
    items = ", ".join(params) + ("," if arity == 1 else "")
    lines.append(f"    return _tuple_new(_cls, ({items}))")
    if closure:
        free = ["_tuple_new", "_owner", "_incomplete"]
        if factory_indices:
            free += ["_FACTORY", *(f"_factory_{i}" for i in factory_indices)]
        lines = [f"def _scope({', '.join(free)}):", *("    " + line for line in lines)]
        lines.append("    return __new__")
    return "\n".join(lines) + "\n"


# A record's __new__ reached with a subclass that records has not built yet
# (whose own fields it would leave out) refuses it (see incomplete); records
# writes __record_built__ into the dict of each class it builds.
_BUILT_CHECK = '_cls is not _owner and "__record_built__" not in _cls.__dict__'


def _template(arity: int, factory_indices: tuple[int, ...], closure: bool) -> CodeType:
    # Imported here, at the first class: "import records" alone does not pay for it.
    from ._precompiled import CLOSURE_CODES, CODES

    written = CLOSURE_CODES if closure else CODES
    if not factory_indices and arity < len(written):
        code = written[arity]
        if sys.version_info >= (3, 11):
            return code.replace(co_name="__new__", co_qualname="__new__")
        else:  # as an else branch, mypy skips it on 3.11+ instead of calling it unreachable
            return code.replace(co_name="__new__")
    return _compile_template(arity, factory_indices, closure)


def _functions_code(code: CodeType) -> CodeType:
    """Return the code of the function ``code`` defines (a template, or its ``__new__``)."""
    names = ("_scope", "__new__")
    (function_code,) = (c for c in code.co_consts if getattr(c, "co_name", None) in names)
    return function_code  # type: ignore[no-any-return]


def _compile_template(arity: int, factory_indices: tuple[int, ...], closure: bool) -> CodeType:
    source = _template_source(arity, factory_indices, closure)
    kind = " closure" if closure else ""
    filename = f"<records generated __new__ {arity} {list(factory_indices)}{kind}>"
    code = _functions_code(compile(source, filename, "exec"))
    _sources.add(filename, source)
    if "linecache" in sys.modules:
        register_sources()
    if closure:
        code = _functions_code(code)
        if sys.version_info >= (3, 11):
            code = code.replace(co_qualname="__new__")
    return code


def register_sources() -> None:
    """Give ``linecache`` the source of every template compiled so far."""
    import linecache

    for filename, source in list(_sources.items()):
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)


def constructor_code(
    names: tuple[str, ...], factory_indices: tuple[int, ...] = (), closure: bool = False
) -> CodeType:
    """
    Return the code of ``__new__`` for fields *names*, whose items at
    *factory_indices* have default factories: reading ``_tuple_new``, and
    ``_FACTORY`` and ``_factory_<index>`` for the factories, from its
    globals, or with *closure* from closure cells (``closure_of``).

    *names* must already be validated as distinct identifiers.
    """
    key = (names, factory_indices, closure)
    code: CodeType | None = _codes.get(key)
    if code is None:
        shape = (len(names), factory_indices, closure)
        template: CodeType | None = _templates.get(shape)
        if template is None:
            template = _templates.add(shape, _template(*shape))
        code = _codes.add(key, template.replace(co_varnames=("_cls", *names)))
    return code


def incomplete(cls: type, owner: type | None = None) -> None:
    """
    Refuse an instance of *cls*, a record class (a subclass of *owner*, whose
    ``__new__`` is asked) that records has not built (yet), if it declares
    fields of its own, which an instance made now would not hold; one without
    is already what it will be. Any other class is left to ``tuple.__new__``.
    """
    from ._annotations import own_annotations
    from ._compat import is_classvar

    if owner is not None and not (isinstance(cls, type) and issubclass(cls, owner)):
        return
    if any(not is_classvar(annotation) for annotation in own_annotations(cls).values()):
        from ._rules import incomplete_record_message

        raise TypeError(incomplete_record_message(cls.__qualname__))


#: The cells every closure of a generated ``__new__`` shares.
TUPLE_NEW_CELL = _cell_type(tuple.__new__)
FACTORY_CELL = _cell_type(FACTORY)
INCOMPLETE_CELL = _cell_type(incomplete)


def closure_of(
    code: CodeType, owner: type | None, factories: Mapping[int, Callable[[], Any]] | None
) -> tuple[Any, ...]:
    """
    Return the closure cells, in ``co_freevars`` order, of the ``__new__`` of
    *owner* with *factories*.
    """
    cells = {
        "_tuple_new": TUPLE_NEW_CELL,
        "_FACTORY": FACTORY_CELL,
        "_incomplete": INCOMPLETE_CELL,
        "_owner": _cell_type(owner),
    }
    for index, factory in (factories or {}).items():
        cells[f"_factory_{index}"] = _cell_type(factory)
    return tuple(cells[name] for name in code.co_freevars)


def module_globals(module: object) -> dict[str, Any]:
    """
    Return the globals of a record's ``__new__``, against which ``inspect``
    and ``typing`` evaluate the string annotations it carries: the namespace
    of the module named *module* where it is imported; for a class no
    imported module holds (*module* ``"builtins"``, as for a class statement
    exec'd in a plain dict, or a module not imported), the globals the class
    statement runs in: those of the nearest frame whose globals name
    *module*, else of the nearest frame outside records; else
    ``BASE_GLOBALS``.
    """
    found = sys.modules.get(module) if type(module) is str and module != "builtins" else None
    # The module's own dict, as C's PyModule_GetDict gives it, whatever a
    # subclass of the module type says its __dict__ is.
    namespace = _module_dict(found) if isinstance(found, type(sys)) else None
    if isinstance(namespace, dict):
        return namespace
    # The class statement's frame is the one whose globals name the module the
    # class says it is in ("builtins" where they name none); failing that
    # (Record.define given a module), the nearest frame outside records.
    nearest = None
    frame: Any = sys._getframe(1)
    while frame is not None:
        name = dict.get(frame.f_globals, "__name__", "builtins")
        if type(name) is str and type(module) is str and name == module:
            return frame.f_globals  # type: ignore[no-any-return]
        if nearest is None and not (type(name) is str and name.startswith("records.")):
            nearest = frame.f_globals
        frame = frame.f_back
    return nearest if nearest is not None else BASE_GLOBALS


_module_dict: Any = vars(type(sys))["__dict__"].__get__


def make_new(
    names: tuple[str, ...],
    defaults: tuple[Any, ...] | None,
    factories: Mapping[int, Callable[[], Any]] | None = None,
    *,
    qualname: str,
    module: str | None = None,
    globals_: dict[str, Any] | None = None,
    owner: type | None = None,
) -> FunctionType:
    """
    Return a new ``__new__`` function for fields *names*, ready for its class.

    *defaults* are the defaults of the last fields (``FACTORY`` where a field
    has a factory); *factories* maps field index to factory. The function is
    named *qualname* and, unless *module* is ``None``, placed in *module*.

    With *globals_* (which must hold what ``BASE_GLOBALS`` holds), the
    function is ``collections.namedtuple``'s, reading what it calls from
    them (a named tuple has no factories). Without, it is the ``__new__`` of
    record class *owner*: its globals are those of *module*
    (``module_globals``), as for a function written there, and what it calls
    is in closure cells.

    The C class builder makes the same functions from ``constructor_code()``
    and the same fix-up, in ``make_new()`` and ``nt_new()`` of
    ``records/_c/*.h``.
    """
    indices = tuple(sorted(factories)) if factories else ()
    if globals_ is None:
        code = constructor_code(names, indices, closure=True)
        function = _function_type(
            code, module_globals(module), "__new__", defaults, closure_of(code, owner, factories)
        )
    else:
        function = _function_type(constructor_code(names), globals_, "__new__", defaults)
    function.__qualname__ = qualname
    if module is not None:
        function.__module__ = module
    return function


#: ``types.FunctionType``, for the modules that pickle generated functions.
function_type = _function_type


def is_generated_new(function: object) -> bool:
    """Whether *function* is a record's ``__new__`` that ``make_new`` made."""
    if type(function) is not _function_type or function.__closure__ is None:
        return False
    code = function.__code__
    from . import _precompiled

    return code.co_name == "__new__" and (
        code.co_filename.startswith("<records generated __new__ ")
        or code.co_filename == _precompiled.__file__
    )


def new_parts(function: FunctionType) -> tuple[Any, ...]:
    """Return the arguments of ``rebuilt_new`` that make *function* again."""
    # Its class, which dill is pickling as this loads, is given back by
    # adopt() when the class is rebuilt.
    cells = tuple(
        None if name == "_owner" else cell.cell_contents
        for name, cell in zip(function.__code__.co_freevars, function.__closure__ or ())
    )
    return (
        function.__code__,
        function.__defaults__,
        cells,
        function.__qualname__,
        function.__module__,
        dict(function.__annotations__),
        function.__doc__,
    )


def adopt(function: object, owner: type) -> None:
    """Give *owner* to its ``__new__``, *function*, if ``rebuilt_new`` made it without one."""
    if is_generated_new(function):
        code = function.__code__  # type: ignore[attr-defined]
        for name, cell in zip(code.co_freevars, function.__closure__):  # type: ignore[attr-defined]
            if name == "_owner" and cell.cell_contents is None:
                cell.cell_contents = owner


def rebuilt_new(
    code: CodeType,
    defaults: tuple[Any, ...] | None,
    cells: tuple[Any, ...],
    qualname: str,
    module: str,
    annotations: dict[str, Any],
    doc: str | None,
) -> FunctionType:
    """Make a record's ``__new__`` from ``new_parts``, in *module*'s namespace if imported."""
    function = _function_type(
        code, module_globals(module), "__new__", defaults, tuple(map(_cell_type, cells))
    )
    function.__qualname__ = qualname
    function.__module__ = module
    function.__annotations__ = annotations
    function.__doc__ = doc
    return function
