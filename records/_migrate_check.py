"""
The check ``python -m records migrate`` makes before it writes a module:
each class the rewrite changed holds what it held, the same fields in the
same order with the same defaults.

It reads the module's source before and after the rewrite (``ast``, not
what the scan concluded), each class by the rules of what it was built on
then and now:

- a class statement on ``NamedTuple``: every name its body annotates is a
  field, with the value assigned there as its default;
- one on ``Record``: the same, but a ``ClassVar`` is not a field;
- a call (``collections.namedtuple``, ``records.namedtuple``,
  ``typing.NamedTuple`` or ``Record.define``): the names its second
  argument gives (a string, names, pairs or a dict), and the defaults its
  ``defaults`` gives;
- a class statement whose base is such a call: the call's fields, and
  where the call is ``Record.define``, its body's too.

The rewrite changes names only (a base, a called function) and imports,
which hold no class and no call: the classes and calls of the module
before and after are the same, one for one, in the same order.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypeVar

Node = TypeVar("Node", ast.ClassDef, ast.Call)

#: The arguments of a namedtuple call or of Record.define that are not fields.
NOT_FIELDS = frozenset({"typename", "field_names", "fields", "rename", "defaults", "module"})


def _holders() -> frozenset[type[ast.AST]]:
    """
    Return the kinds of node that may hold a class statement or a call: all
    but a name, a constant, and what holds no expression (operators,
    contexts, the names of an import).
    """
    found: set[type[ast.AST]] = set()
    pending: list[type[ast.AST]] = [ast.AST]
    while pending:
        kind = pending.pop()
        found.add(kind)
        pending += kind.__subclasses__()
    leaves = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop, ast.alias)
    return frozenset(
        kind
        for kind in found
        if kind not in (ast.Name, ast.Constant) and not issubclass(kind, leaves)
    )


#: See _holders.
_HOLDERS = _holders()


class ChangedFieldsError(RuntimeError):
    """The rewrite of a module would change what one of its classes holds."""


@dataclass(frozen=True)
class Holding:
    """What a class holds, as read from its source."""

    #: Each field, with the source of its default (None: none).
    fields: tuple[tuple[str, str | None], ...]
    #: What the source does not spell out (``defaults=FIELDS``), as written.
    unread: tuple[str, ...] = ()

    def __str__(self) -> str:
        shown = ", ".join(
            name if default is None else f"{name}={default}" for name, default in self.fields
        )
        return "; ".join([shown or "()", *self.unread])


def check(old: bytes, new: bytes) -> None:
    """
    Raise ``ChangedFieldsError``, naming the class and what changed, where a
    class of the module *old* holds other fields, in another order or with
    other defaults, once rewritten as *new*.
    """
    for what, before, after in holdings(old, new):
        if before != after:
            msg = f"what {what} holds: {before} before, {after} after"
            raise _refused(msg)


def _refused(change: str) -> ChangedFieldsError:
    """Return the error that refuses a rewrite for *change*."""
    return ChangedFieldsError(f"the rewrite would change {change}: nothing written")


def holdings(old: bytes, new: bytes) -> Iterator[tuple[str, Holding, Holding]]:
    """
    Yield, for each class statement and then each call the rewrite of *old*
    as *new* changed, what it is and what it holds before and after; raise
    ``ChangedFieldsError`` where the module's classes, or its calls, are
    not the same one for one.
    """
    old_classes, old_calls = _definitions(_parse(old))
    new_classes, new_calls = _definitions(_parse(new))
    for old_class, new_class in _pairs(old_classes, new_classes, "class statements"):
        what = f"class {old_class.name!r} (line {old_class.lineno})"
        if old_class.name != new_class.name:
            msg = f"the name of {what}"
            raise _refused(msg)
        changed = _changed_base(old_class, new_class, what)
        if changed is not None:
            old_base, new_base = changed
            yield what, _class(old_class, old_base), _class(new_class, new_base)
    # The classes first: a call the rewrite took for a name (a base) is
    # told as the class it made.
    for old_call, new_call in _pairs(old_calls, new_calls, "calls"):
        if not _same(old_call.func, new_call.func):
            what = f"{_last_name(old_call.func)} {_typename(old_call)} (line {old_call.lineno})"
            yield what, _call(old_call), _call(new_call)


def _pairs(old: list[Node], new: list[Node], what: str) -> list[tuple[Node, Node]]:
    """Pair the nodes of *old* and *new* one for one, in order; refuse where they are not."""
    if len(old) != len(new):
        msg = f"the module's {what}: {len(old)} before, {len(new)} after"
        raise _refused(msg)
    return list(zip(old, new))


def _parse(source: bytes) -> ast.Module:
    """Parse *source* without warnings (an invalid escape, say): its scan gave them already."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        return ast.parse(source)


def _definitions(tree: ast.Module) -> tuple[list[ast.ClassDef], list[ast.Call]]:
    """
    Return the class statements and the calls of *tree*, each in the order
    of its source.
    """
    classes: list[ast.ClassDef] = []
    calls: list[ast.Call] = []
    pending: list[ast.AST] = [tree]
    # Not recursive (code may nest deeper than Python's recursion limit),
    # and not through what holds neither: the walk is most of the check's time.
    while pending:
        node = pending.pop()
        if isinstance(node, ast.ClassDef):
            classes.append(node)
        elif isinstance(node, ast.Call):
            calls.append(node)
        for name in reversed(node._fields):
            value = getattr(node, name, None)
            if type(value) is list:
                pending += [item for item in reversed(value) if type(item) in _HOLDERS]
            elif type(value) in _HOLDERS:
                pending.append(value)  # type: ignore[arg-type]  # a node: its type says so
    return classes, calls


def _changed_base(
    old: ast.ClassDef, new: ast.ClassDef, what: str
) -> tuple[ast.expr, ast.expr] | None:
    """Return the one base the rewrite changed in a class statement, before and after, or None."""
    changed = [
        (old_base, new_base)
        for old_base, new_base in zip(old.bases, new.bases)
        if not _same(old_base, new_base)
    ]
    if len(old.bases) != len(new.bases) or len(changed) > 1:
        msg = f"more than one base of {what}"
        raise _refused(msg)
    return changed[0] if changed else None


def _class(node: ast.ClassDef, base: ast.expr) -> Holding:
    """Return what the class statement *node* holds, built on *base*."""
    if isinstance(base, ast.Starred):
        base = base.value
    if not isinstance(base, ast.Call):  # NamedTuple or Record
        return Holding(tuple(_body(node, record=_last_name(base) == "Record")))
    holding = _call(base)
    if _last_name(base.func) != "define":  # a named tuple: its body adds nothing
        return holding
    return Holding((*holding.fields, *_body(node, record=True)), holding.unread)


def _body(node: ast.ClassDef, record: bool) -> list[tuple[str, str | None]]:
    """
    Return the fields the body of *node* annotates: each name, and its
    default. For a *record*, a ``ClassVar`` is not one.
    """
    found = []
    for statement in node.body:
        if not (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)):
            continue
        if not statement.simple:  # (x): int annotates nothing in the class
            continue
        if record and "ClassVar" in ast.unparse(statement.annotation):
            continue
        default = None if statement.value is None else ast.unparse(statement.value)
        found.append((statement.target.id, default))
    return found


def _call(node: ast.Call) -> Holding:
    """Return what the class made by the call *node* holds: its fields and defaults."""
    arguments = {keyword.arg: keyword.value for keyword in node.keywords if keyword.arg}
    given = node.args[1] if len(node.args) > 1 else None
    for keyword in ("field_names", "fields"):
        if given is None:
            given = arguments.get(keyword)
    unread = [ast.unparse(argument) for argument in node.args[2:]]
    unread += [f"**{ast.unparse(keyword.value)}" for keyword in node.keywords if not keyword.arg]
    if given is None:  # NamedTuple("X", a=int)
        names = [name for name in arguments if name not in NOT_FIELDS]
    else:
        read = _names(given)
        names = read if read is not None else []
        if read is None:  # namedtuple("X", FIELDS)
            unread.append(f"fields={ast.unparse(given)}")
    if "rename" in arguments:
        unread.append(f"rename={ast.unparse(arguments['rename'])}")
    defaults = dict.fromkeys(names)
    spelled = arguments.get("defaults")
    if isinstance(spelled, (ast.List, ast.Tuple)) and len(spelled.elts) <= len(names):
        start = len(names) - len(spelled.elts)
        for name, value in zip(names[start:], spelled.elts):
            defaults[name] = ast.unparse(value)
    elif isinstance(spelled, ast.Dict) and all(_string(key) in defaults for key in spelled.keys):
        for key, value in zip(spelled.keys, spelled.values):
            defaults[_string(key) or ""] = ast.unparse(value)
    elif spelled is not None:
        unread.append(f"defaults={ast.unparse(spelled)}")
    return Holding(tuple(defaults.items()), tuple(unread))


def _names(node: ast.expr) -> list[str] | None:
    """
    Return the field names *node* gives: ``"a b"``, ``["a", "b"]``,
    ``[("a", int)]`` or ``{"a": int}``; None where it gives them otherwise.
    """
    if _string(node) is not None:
        return (_string(node) or "").replace(",", " ").split()
    if isinstance(node, ast.Dict):
        items: list[ast.expr | None] = list(node.keys)
    elif isinstance(node, (ast.List, ast.Tuple)):
        items = [
            item.elts[0] if isinstance(item, (ast.List, ast.Tuple)) and item.elts else item
            for item in node.elts
        ]
    else:
        return None
    names = [_string(item) for item in items]
    return None if None in names else [name or "" for name in names]


def _string(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _typename(node: ast.Call) -> str:
    """Return the name a call gives its class, as written."""
    typename = node.args[0] if node.args else None
    for keyword in node.keywords:
        if keyword.arg == "typename":
            typename = keyword.value
    return "?" if typename is None else ast.unparse(typename)


def _last_name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ast.unparse(node)


def _same(old: ast.AST, new: ast.AST) -> bool:
    if isinstance(old, ast.Name) and isinstance(new, ast.Name):  # most, and quick
        return old.id == new.id
    return ast.dump(old) == ast.dump(new)
