"""
What ``python -m records migrate`` reads of a class statement's body, for
the decision (``records/_migrate_transform.py``): the names it annotates,
as fields or ClassVars, and defines; whether it sets ``__slots__``; the
first default records refuses as mutable; and how its methods keep
attributes on the instance, which a record has no ``__dict__`` for.
"""

from __future__ import annotations

import ast

from ._migrate_names import Names
from ._migrate_source import SourceText, position
from ._migrate_transform import ClassFacts

#: Calls whose result is a mutable default, which records refuses.
MUTABLE_CALLS = frozenset(
    {
        "builtins.list", "builtins.dict", "builtins.set", "builtins.bytearray",
        "collections.OrderedDict", "collections.defaultdict", "collections.Counter",
        "collections.deque", "collections.ChainMap",
    }
)  # fmt: skip
#: Methods that return a new mutable object from a mutable one.
MUTABLE_METHODS = frozenset({"copy", "fromkeys"})
#: Decorators whose property keeps its value in the instance's ``__dict__``.
DICT_PROPERTIES = frozenset({"functools.cached_property"})
#: Decorators whose method gets no instance.
NOT_INSTANCE_METHODS = frozenset({"builtins.classmethod", "builtins.staticmethod"})
#: Functions that set attributes on the object they are given first (and
#: any ``X.__setattr__``).
SETTERS = frozenset({"builtins.setattr"})
#: The compound statements whose blocks belong to the class body they are in.
_BODY_BLOCKS = (
    ast.If, ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While, ast.Try,
    *([ast.TryStar] if hasattr(ast, "TryStar") else []),
)  # fmt: skip


class ClassReader:
    """
    A module's reading, as far as class bodies need it: what its names
    mean, and its text.
    """

    def __init__(self, names: Names, text: SourceText) -> None:
        self.names = names
        self.text = text
        #: Each node's parent (where its own parentheses are told from its parent's).
        self.parents: dict[ast.AST, ast.AST] = {}

    def shown(self, node: ast.AST) -> str:
        """Return the source of *node* on one line, as a report shows it."""
        return " ".join(self.source(node).split())

    def source(self, node: ast.AST) -> str:
        """Return the source of *node* as written, its own parentheses included."""
        return self.text.source(node, self.parents.get(node))

    def read_body(self, node: ast.ClassDef, facts: ClassFacts) -> None:
        """Note in *facts* what the body of the class statement *node* does."""
        for child in self._body_statements(node.body):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                facts.defined.add(child.name)
                self._read_method(child, facts)
            else:
                self._read_assignment(child, facts)

    def _body_statements(self, body: list[ast.stmt]) -> list[ast.stmt]:
        """
        Return the statements of a class body, those under ``if``, ``try``,
        ``with``, ``for`` and ``while`` included, nested classes and
        functions as one statement each; a block on its statement's own
        line (``if x: y = 1``) is not read.
        """
        found: list[ast.stmt] = []
        if not body or self._on_header_line(body[0]):
            return found
        for statement in body:
            found.append(statement)
            if isinstance(statement, _BODY_BLOCKS):
                for block in _blocks(statement):
                    found += self._body_statements(block)
        return found

    def _on_header_line(self, statement: ast.stmt) -> bool:
        """Whether *statement* starts on the line of the header before it."""
        return bool(self.text.before(statement).strip())

    def _read_assignment(self, node: ast.stmt, facts: ClassFacts) -> None:
        targets: list[ast.expr] = []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
            if isinstance(node.target, ast.Name):
                name = node.target.id
                if "ClassVar" in self.source(node.annotation):
                    facts.class_vars.append(name)
                else:
                    facts.annotated.append(name)
                    if node.value is not None and facts.mutable_default is None:
                        shown = self._mutable(node.value)
                        if shown is not None:
                            facts.mutable_default = f"the default {shown} of field {name!r}"
        elif isinstance(node, ast.Assign):
            targets = node.targets
        for target in targets:
            if isinstance(target, ast.Name):
                facts.defined.add(target.id)
                if target.id == "__slots__":
                    facts.has_slots = True

    def _read_method(
        self, method: ast.FunctionDef | ast.AsyncFunctionDef, facts: ClassFacts
    ) -> None:
        if facts.instance_state is not None:
            return
        decorators: set[str] = set()
        for decorator in method.decorator_list:
            decorators |= self.names.names(decorator)
        if decorators & DICT_PROPERTIES:
            facts.instance_state = f"its cached_property {method.name!r}"
            return
        parameters = method.args.args
        if decorators & NOT_INSTANCE_METHODS or not parameters:
            return
        # The instance is the first parameter; in __new__, what super().__new__() returns.
        new = method.name == "__new__"
        owners = _names_bound_by_new(method) if new else {parameters[0].arg}
        found = _InstanceState(self, owners).find(method.body)
        if found is not None:
            facts.instance_state = f"{method.name}() {found}"

    def _mutable(self, value: ast.expr) -> str | None:
        """How *value* shows a mutable object, or None where it does not."""
        if isinstance(value, (ast.List, ast.Dict, ast.Set)):
            shown = self.shown(value)
            return shown if len(shown) <= 20 else type(value).__name__.lower()
        if isinstance(value, (ast.ListComp, ast.DictComp, ast.SetComp)):
            return "comprehension"
        if isinstance(value, ast.Call) and self.names.names(value.func) & MUTABLE_CALLS:
            return f"{self.shown(value.func)}()"
        return self._derived_mutable(value)

    def _derived_mutable(self, value: ast.expr) -> str | None:
        """How *value* makes a mutable object from one (``[0] * 3``), or None."""
        func = value.func if isinstance(value, ast.Call) else None
        if (
            isinstance(func, ast.Attribute)
            and func.attr in MUTABLE_METHODS
            and self._mutable(func.value)
        ):
            return f"a {func.attr}() of a mutable value"
        if isinstance(value, ast.BinOp) and (
            self._mutable(value.left) or self._mutable(value.right)
        ):
            return "an operation on a mutable value"
        if isinstance(value, ast.Subscript) and self._mutable(value.value):
            return "a slice of a mutable value"
        return None


class _InstanceState:
    """Find where a method keeps state on its instance, named *owners* in it."""

    def __init__(self, reader: ClassReader, owners: set[str]) -> None:
        self.reader = reader
        self.owners = owners
        self.found: str | None = None

    def find(self, body: list[ast.stmt]) -> str | None:
        """Return how the method *body* keeps state, or None."""
        for statement in body:
            self._visit(statement)
        return self.found

    def _visit(self, node: ast.AST) -> None:
        if isinstance(node, (ast.ClassDef, ast.Lambda)):
            return  # another class's methods; a lambda keeps nothing
        if isinstance(node, ast.Assign):
            for target in node.targets:
                self._target(target)
        elif isinstance(
            node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor, ast.comprehension)
        ):
            self._target(node.target)
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            self._target(node.optional_vars)  # with ... as self.x
        elif isinstance(node, ast.Call):
            self._call(node)
        for child in ast.iter_child_nodes(node):
            self._visit(child)

    def _is_owner(self, node: ast.AST) -> bool:
        return isinstance(node, ast.Name) and node.id in self.owners

    def _target(self, target: ast.expr) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self._target(element.value if isinstance(element, ast.Starred) else element)
        elif isinstance(target, ast.Attribute) and self._is_owner(target.value):
            self.found = self.found or f"sets {self.reader.source(target)}"
        elif (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Attribute)
            and target.value.attr == "__dict__"
            and self._is_owner(target.value.value)
        ):
            self.found = self.found or f"writes {self.reader.source(target.value)}"

    def _call(self, node: ast.Call) -> None:
        func = node.func
        first = first_argument(node)
        if first is None or not self._is_owner(first):
            return
        if self.reader.names.names(func) & SETTERS or last_name(func) == "__setattr__":
            self.found = self.found or f"calls {self.reader.shown(func)}()"
        elif (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Attribute)
            and func.value.attr == "__dict__"
        ):
            self.found = self.found or f"calls __dict__.{func.attr}()"


def _blocks(statement: ast.stmt) -> list[list[ast.stmt]]:
    """
    Return the blocks of a compound statement a class body reads: its body,
    each ``elif``'s, its ``else``, its ``finally``, then its handlers'.
    """
    blocks = [getattr(statement, "body")]  # noqa: B009
    orelse: list[ast.stmt] = getattr(statement, "orelse", [])
    if isinstance(statement, ast.If) and len(orelse) == 1 and isinstance(orelse[0], ast.If):
        blocks += _blocks(orelse[0])  # elif
    elif orelse:
        blocks.append(orelse)
    finalbody: list[ast.stmt] = getattr(statement, "finalbody", [])
    if finalbody:
        blocks.append(finalbody)
    blocks += [handler.body for handler in getattr(statement, "handlers", ())]
    return blocks


def _names_bound_by_new(method: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Return the names ``__new__`` binds to its instance (``self = super().__new__()``)."""
    found: set[str] = set()
    for statement in method.body:
        for node in ast.walk(statement):
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Attribute)
                and node.value.func.attr == "__new__"
            ):
                found.update(target.id for target in node.targets if isinstance(target, ast.Name))
    return found


def last_name(node: ast.AST) -> str | None:
    """Return the last name of a name or attribute (``NamedTuple`` of ``typing.NamedTuple``)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def first_argument(call: ast.Call) -> ast.expr | None:
    """Return the value of a call's first argument in the source, positional or keyword."""
    arguments: list[ast.expr] = [
        argument.value if isinstance(argument, ast.Starred) else argument for argument in call.args
    ]
    arguments += [keyword.value for keyword in call.keywords]
    return min(arguments, key=position, default=None)
