"""
The constructors of records without default factories, written out for 0 to 12
fields, so that the common shapes need no ``compile`` at run time.

Each is exactly what ``_codegen`` compiles for its arity (a test compares the
bytecode); ``_codegen`` renames it ``__new__`` and puts each class's field names
in with ``CodeType.replace``. Only the code objects are used: ``new_N``'s by
``records.namedtuple`` (whose ``__new__`` gets collections' globals, where
``_tuple_new`` is ``tuple.__new__`` too), and the ``__new__`` of ``scope_N``
by records, whose ``__new__`` reads ``_tuple_new`` from a closure cell (and
refuses a subclass records has not built yet: ``Record.__record_built__``).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_tuple_new = tuple.__new__


def new_0(_cls: Any) -> Any:
    return _tuple_new(_cls, ())


def new_1(_cls: Any, _0: Any) -> Any:
    return _tuple_new(_cls, (_0,))


def new_2(_cls: Any, _0: Any, _1: Any) -> Any:
    return _tuple_new(_cls, (_0, _1))


def new_3(_cls: Any, _0: Any, _1: Any, _2: Any) -> Any:
    return _tuple_new(_cls, (_0, _1, _2))


def new_4(_cls: Any, _0: Any, _1: Any, _2: Any, _3: Any) -> Any:
    return _tuple_new(_cls, (_0, _1, _2, _3))


def new_5(_cls: Any, _0: Any, _1: Any, _2: Any, _3: Any, _4: Any) -> Any:
    return _tuple_new(_cls, (_0, _1, _2, _3, _4))


def new_6(_cls: Any, _0: Any, _1: Any, _2: Any, _3: Any, _4: Any, _5: Any) -> Any:
    return _tuple_new(_cls, (_0, _1, _2, _3, _4, _5))


def new_7(_cls: Any, _0: Any, _1: Any, _2: Any, _3: Any, _4: Any, _5: Any, _6: Any) -> Any:
    return _tuple_new(_cls, (_0, _1, _2, _3, _4, _5, _6))


def new_8(
    _cls: Any, _0: Any, _1: Any, _2: Any, _3: Any, _4: Any, _5: Any, _6: Any, _7: Any
) -> Any:
    return _tuple_new(_cls, (_0, _1, _2, _3, _4, _5, _6, _7))


def new_9(
    _cls: Any, _0: Any, _1: Any, _2: Any, _3: Any, _4: Any, _5: Any, _6: Any, _7: Any, _8: Any
) -> Any:
    return _tuple_new(_cls, (_0, _1, _2, _3, _4, _5, _6, _7, _8))


def new_10(
    _cls: Any,
    _0: Any,
    _1: Any,
    _2: Any,
    _3: Any,
    _4: Any,
    _5: Any,
    _6: Any,
    _7: Any,
    _8: Any,
    _9: Any,
) -> Any:
    return _tuple_new(_cls, (_0, _1, _2, _3, _4, _5, _6, _7, _8, _9))


def new_11(
    _cls: Any,
    _0: Any,
    _1: Any,
    _2: Any,
    _3: Any,
    _4: Any,
    _5: Any,
    _6: Any,
    _7: Any,
    _8: Any,
    _9: Any,
    _10: Any,
) -> Any:
    return _tuple_new(_cls, (_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10))


def new_12(
    _cls: Any,
    _0: Any,
    _1: Any,
    _2: Any,
    _3: Any,
    _4: Any,
    _5: Any,
    _6: Any,
    _7: Any,
    _8: Any,
    _9: Any,
    _10: Any,
    _11: Any,
) -> Any:
    return _tuple_new(_cls, (_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11))


def scope_0(_tuple_new: Any, _owner: Any, _incomplete: Any) -> Any:
    def __new__(_cls: Any) -> Any:
        if _cls is not _owner and "__record_built__" not in _cls.__dict__:
            _incomplete(_cls, _owner)
        return _tuple_new(_cls, ())

    return __new__


def scope_1(_tuple_new: Any, _owner: Any, _incomplete: Any) -> Any:
    def __new__(_cls: Any, _0: Any) -> Any:
        if _cls is not _owner and "__record_built__" not in _cls.__dict__:
            _incomplete(_cls, _owner)
        return _tuple_new(_cls, (_0,))

    return __new__


def scope_2(_tuple_new: Any, _owner: Any, _incomplete: Any) -> Any:
    def __new__(_cls: Any, _0: Any, _1: Any) -> Any:
        if _cls is not _owner and "__record_built__" not in _cls.__dict__:
            _incomplete(_cls, _owner)
        return _tuple_new(_cls, (_0, _1))

    return __new__


def scope_3(_tuple_new: Any, _owner: Any, _incomplete: Any) -> Any:
    def __new__(_cls: Any, _0: Any, _1: Any, _2: Any) -> Any:
        if _cls is not _owner and "__record_built__" not in _cls.__dict__:
            _incomplete(_cls, _owner)
        return _tuple_new(_cls, (_0, _1, _2))

    return __new__


def scope_4(_tuple_new: Any, _owner: Any, _incomplete: Any) -> Any:
    def __new__(_cls: Any, _0: Any, _1: Any, _2: Any, _3: Any) -> Any:
        if _cls is not _owner and "__record_built__" not in _cls.__dict__:
            _incomplete(_cls, _owner)
        return _tuple_new(_cls, (_0, _1, _2, _3))

    return __new__


def scope_5(_tuple_new: Any, _owner: Any, _incomplete: Any) -> Any:
    def __new__(_cls: Any, _0: Any, _1: Any, _2: Any, _3: Any, _4: Any) -> Any:
        if _cls is not _owner and "__record_built__" not in _cls.__dict__:
            _incomplete(_cls, _owner)
        return _tuple_new(_cls, (_0, _1, _2, _3, _4))

    return __new__


def scope_6(_tuple_new: Any, _owner: Any, _incomplete: Any) -> Any:
    def __new__(_cls: Any, _0: Any, _1: Any, _2: Any, _3: Any, _4: Any, _5: Any) -> Any:
        if _cls is not _owner and "__record_built__" not in _cls.__dict__:
            _incomplete(_cls, _owner)
        return _tuple_new(_cls, (_0, _1, _2, _3, _4, _5))

    return __new__


def scope_7(_tuple_new: Any, _owner: Any, _incomplete: Any) -> Any:
    def __new__(_cls: Any, _0: Any, _1: Any, _2: Any, _3: Any, _4: Any, _5: Any, _6: Any) -> Any:
        if _cls is not _owner and "__record_built__" not in _cls.__dict__:
            _incomplete(_cls, _owner)
        return _tuple_new(_cls, (_0, _1, _2, _3, _4, _5, _6))

    return __new__


def scope_8(_tuple_new: Any, _owner: Any, _incomplete: Any) -> Any:
    def __new__(
        _cls: Any, _0: Any, _1: Any, _2: Any, _3: Any, _4: Any, _5: Any, _6: Any, _7: Any
    ) -> Any:
        if _cls is not _owner and "__record_built__" not in _cls.__dict__:
            _incomplete(_cls, _owner)
        return _tuple_new(_cls, (_0, _1, _2, _3, _4, _5, _6, _7))

    return __new__


def scope_9(_tuple_new: Any, _owner: Any, _incomplete: Any) -> Any:
    def __new__(
        _cls: Any, _0: Any, _1: Any, _2: Any, _3: Any, _4: Any, _5: Any, _6: Any, _7: Any, _8: Any
    ) -> Any:
        if _cls is not _owner and "__record_built__" not in _cls.__dict__:
            _incomplete(_cls, _owner)
        return _tuple_new(_cls, (_0, _1, _2, _3, _4, _5, _6, _7, _8))

    return __new__


def scope_10(_tuple_new: Any, _owner: Any, _incomplete: Any) -> Any:
    def __new__(
        _cls: Any,
        _0: Any,
        _1: Any,
        _2: Any,
        _3: Any,
        _4: Any,
        _5: Any,
        _6: Any,
        _7: Any,
        _8: Any,
        _9: Any,
    ) -> Any:
        if _cls is not _owner and "__record_built__" not in _cls.__dict__:
            _incomplete(_cls, _owner)
        return _tuple_new(_cls, (_0, _1, _2, _3, _4, _5, _6, _7, _8, _9))

    return __new__


def scope_11(_tuple_new: Any, _owner: Any, _incomplete: Any) -> Any:
    def __new__(
        _cls: Any,
        _0: Any,
        _1: Any,
        _2: Any,
        _3: Any,
        _4: Any,
        _5: Any,
        _6: Any,
        _7: Any,
        _8: Any,
        _9: Any,
        _10: Any,
    ) -> Any:
        if _cls is not _owner and "__record_built__" not in _cls.__dict__:
            _incomplete(_cls, _owner)
        return _tuple_new(_cls, (_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10))

    return __new__


def scope_12(_tuple_new: Any, _owner: Any, _incomplete: Any) -> Any:
    def __new__(
        _cls: Any,
        _0: Any,
        _1: Any,
        _2: Any,
        _3: Any,
        _4: Any,
        _5: Any,
        _6: Any,
        _7: Any,
        _8: Any,
        _9: Any,
        _10: Any,
        _11: Any,
    ) -> Any:
        if _cls is not _owner and "__record_built__" not in _cls.__dict__:
            _incomplete(_cls, _owner)
        return _tuple_new(_cls, (_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11))

    return __new__


#: The code of ``new_N``, by arity N.
CODES = tuple(
    function.__code__
    for function in (
        new_0,
        new_1,
        new_2,
        new_3,
        new_4,
        new_5,
        new_6,
        new_7,
        new_8,
        new_9,
        new_10,
        new_11,
        new_12,
    )
)

#: The code of the ``__new__`` that ``scope_N`` makes, by arity N.
CLOSURE_CODES = tuple(
    next(
        constant
        for constant in scope.__code__.co_consts
        if getattr(constant, "co_name", None) == "__new__"
    )
    for scope in (
        scope_0,
        scope_1,
        scope_2,
        scope_3,
        scope_4,
        scope_5,
        scope_6,
        scope_7,
        scope_8,
        scope_9,
        scope_10,
        scope_11,
        scope_12,
    )
)
