"""
What the plugin reads in a module just parsed, before mypy analyses it.

mypy calls the ``get_additional_deps`` hook with each module it has just
parsed; the plugin reads two shapes of ``Record.define(...)`` calls there
that no later hook sees.

``class C(Record.define("C0", [...])): ...``, a record made in a base list.
At run time the base expression is evaluated just before the class is
created, in the same scope: the class statement is the class statement of
a record base bound to a name nobody can spell::

    C@base1 = Record.define("C0", [...])
    class C(C@base1): ...

mypy reads no call as a base class, except its own ``NamedTuple(...)``
and ``TypedDict(...)``, which its semantic analyser builds while it
analyses the bases, under such a name (``C@base1``, the name mypy gives
them). It offers plugins no hook there: the dynamic class hook, which
types ``X = Record.define(...)``, is called for assignments only. So the
plugin writes the class statement as above, in the parsed tree. The
assignment is then typed by the dynamic class hook as any other
``Record.define``, and the class is a subclass of a record.

``self.x = Record.define(...)``, a record assigned to an attribute, which
mypy refuses for ``NamedTuple(...)``. The dynamic class hook is not called
for it (mypy calls it for names only), and the hooks that see the call
later do not see what it is assigned to: the plugin remembers the call
here, and reports it when mypy checks it (``attribute_define_hook``).

Names are not resolved yet when mypy parses a module: the plugin reads
every call of ``define`` or ``<dotted name>.define`` in those places. A
call in a base list that is not records' (another library's ``define``)
is bound to a name all the same, and mypy reports that name as an invalid
base class, where it reported an unsupported dynamic base class.
"""

from __future__ import annotations

from mypy.nodes import (
    AssignmentStmt,
    Block,
    CallExpr,
    ClassDef,
    Context,
    Decorator,
    Expression,
    ForStmt,
    FuncDef,
    IfStmt,
    MatchStmt,
    MemberExpr,
    MypyFile,
    NameExpr,
    OverloadedFuncDef,
    Statement,
    TryStmt,
    WhileStmt,
    WithStmt,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

#: What names a base made by a call: mypy's ``inline_base`` spelling.
INLINE_BASE: Final = "@base"


def is_inline_base(name: str) -> bool:
    """Whether *name* is the plugin's name for a record made in a base list."""
    return INLINE_BASE in name


#: The ``define(...)`` calls assigned to an attribute, by module, each by its ``id``.
_ATTRIBUTE_DEFINES: dict[str, dict[int, CallExpr]] = {}


def read_parsed(file: MypyFile) -> None:
    """
    Read the module *file* just parsed: bind the ``define(...)`` calls of base lists
    to names, and remember those assigned to attributes.
    """
    attribute_defines: dict[int, CallExpr] = {}
    _read(file.defs, attribute_defines)
    # Replaced on each parse, so that mypy's daemon does not keep old trees.
    _ATTRIBUTE_DEFINES[file.fullname] = attribute_defines


def is_attribute_define(call: Context) -> bool:
    """Whether *call* is a ``define(...)`` call assigned to an attribute (``self.x = ...``)."""
    return any(calls.get(id(call)) is call for calls in _ATTRIBUTE_DEFINES.values())


def _read(body: list[Statement], attribute_defines: dict[int, CallExpr]) -> None:
    """Read the statements of *body*, and of the blocks nested in it."""
    index = 0
    while index < len(body):
        stmt = body[index]
        for block in _blocks(stmt):
            _read(block.body, attribute_defines)
        if isinstance(stmt, ClassDef):
            bindings = _bind_define_bases(stmt)
            body[index:index] = bindings
            index += len(bindings)
        elif (
            isinstance(stmt, AssignmentStmt)
            and isinstance(stmt.rvalue, CallExpr)
            and _is_define_call(stmt.rvalue)
            and any(isinstance(lvalue, MemberExpr) for lvalue in stmt.lvalues)
        ):
            attribute_defines[id(stmt.rvalue)] = stmt.rvalue
        index += 1


def _bind_define_bases(defn: ClassDef) -> list[Statement]:
    """Replace the ``define(...)`` bases of *defn* by names; return their assignments."""
    bindings: list[Statement] = []
    for position, base in enumerate(defn.base_type_exprs):
        if not _is_define_call(base):
            continue
        name = f"{defn.name}{INLINE_BASE}{position + 1}"
        target = NameExpr(name)
        target.set_line(base)
        assignment = AssignmentStmt([target], base)
        assignment.set_line(base)
        bindings.append(assignment)
        reference = NameExpr(name)
        reference.set_line(base)
        defn.base_type_exprs[position] = reference
    return bindings


def _is_define_call(expr: Expression) -> bool:
    """Whether *expr* calls ``define`` or ``<dotted name>.define`` (names are not resolved yet)."""
    if not isinstance(expr, CallExpr):
        return False
    callee = expr.callee
    if isinstance(callee, NameExpr):
        return callee.name == "define"
    return isinstance(callee, MemberExpr) and callee.name == "define" and _is_dotted(callee.expr)


def _is_dotted(expr: Expression) -> bool:
    """Whether *expr* is a name or a dotted name (``records.Record``)."""
    while isinstance(expr, MemberExpr):
        expr = expr.expr
    return isinstance(expr, NameExpr)


def _blocks(stmt: Statement) -> list[Block]:
    """Return the blocks nested directly in *stmt* (bodies, branches, handlers)."""
    blocks: list[Block | None] = []
    if isinstance(stmt, ClassDef):
        blocks = [stmt.defs]
    elif isinstance(stmt, FuncDef):
        blocks = [stmt.body]
    elif isinstance(stmt, Decorator):
        blocks = [stmt.func.body]
    elif isinstance(stmt, OverloadedFuncDef):
        parts = [*stmt.items, *([stmt.impl] if stmt.impl is not None else [])]
        blocks = [block for part in parts for block in _blocks(part)]
    elif isinstance(stmt, IfStmt):
        blocks = [*stmt.body, stmt.else_body]
    elif isinstance(stmt, (WhileStmt, ForStmt)):
        blocks = [stmt.body, stmt.else_body]
    elif isinstance(stmt, WithStmt):
        blocks = [stmt.body]
    elif isinstance(stmt, TryStmt):
        blocks = [stmt.body, *stmt.handlers, stmt.else_body, stmt.finally_body]
    elif isinstance(stmt, MatchStmt):
        blocks = list(stmt.bodies)
    return [block for block in blocks if block is not None]
