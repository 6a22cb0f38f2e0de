"""
Step 1 of ``python -m records migrate``: read one module and note what the
decision and the rewrite need of it (``records/_migrate_transform.py``).

The module is read with Python's own parser (``ast``), its names as
libcst's scope analysis means them (``records/_migrate_names.py``):

- each class statement, with its bases (the full names they may be, and
  the last as written) and what its body does (``records/_migrate_classes.py``);
- the names it imports, and those it binds at module level to another
  module's names (re-exports and plain aliases);
- each ``NamedTuple`` base and ``namedtuple`` call (a ``Target``), with how
  ``records`` can be named where it is, and the imports its rewrite would
  leave unused (``records/_migrate_imports.py``);
- each use of ``typing.NamedTuple`` or ``collections.namedtuple`` that is
  neither, which the rewrite leaves, saying why.
"""

from __future__ import annotations

import ast

from libcst.helpers import get_absolute_module_from_package

from . import _migrate_names
from ._migrate_classes import ClassReader, first_argument, last_name
from ._migrate_imports import import_uses
from ._migrate_names import ImportBinding, Source
from ._migrate_source import SourceText, decode, position
from ._migrate_transform import ClassFacts, Drop, ModuleScan, Target

NAMED_TUPLE = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})
NAMEDTUPLE_FUNCTION = "collections.namedtuple"
#: What the rewrite makes of them.
MIGRATED = frozenset({"records.Record", "records.namedtuple"})
#: The methods of a namedtuple class besides its dunders: reading one of
#: them (or a dunder) without calling it is looking at the implementation.
NAMEDTUPLE_METHODS = frozenset({"_make", "_replace", "_asdict"})


def scan(source: bytes, path: str, module: str, package: str) -> ModuleScan:
    """
    Note the class statements, imports, targets and other named tuple uses
    of the module *source*; raises ``SyntaxError`` and others where it
    cannot be read.
    """
    text = decode(source)
    tree = ast.parse(text, filename=path)
    return _Scanner(ModuleScan(path, module), package, tree, text).run()


class _Scanner(ClassReader):
    """One module's reading: a walk over its tree, every node once."""

    def __init__(self, result: ModuleScan, package: str, tree: ast.Module, text: str) -> None:
        super().__init__(_migrate_names.read(tree), SourceText(text))
        self.result = result
        self.package = package
        self.tree = tree
        #: Bases and called functions: the uses the rewrite reads itself.
        self.seen: set[ast.AST] = set()
        #: Each statement's number, in the order libcst's are counted
        #: (``statements`` in ``records/_migrate_transform.py``).
        self.numbers: dict[ast.AST, int] = {}
        #: The calls of each statement's own code, by its number.
        self.calls: dict[int, list[ast.Call]] = {}
        #: The targets that are calls, with their call.
        self.call_targets: list[tuple[Target, ast.Call]] = []
        #: The node each target replaces, in the order of the targets.
        self.replaced: list[ast.AST] = []

    def run(self) -> ModuleScan:
        """Walk the module; return what was found."""
        for node in ast.walk(self.tree):  # a node's source depends on its parent
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
        self._aliases()
        for statement in self.tree.body:
            self._visit(statement, -1, 0)
        for target, call in self.call_targets:
            calls = sorted(self.calls[target.statement], key=position)
            target.index = calls.index(call)
            target.reason = target.reason or self._probe(call)
        if self.result.targets:  # what a rewrite reads
            self.result.import_uses = import_uses(
                self.tree, self.names, self.numbers, self.replaced
            )
        return self.result

    # -- names

    def full_names(self, node: ast.AST) -> list[str]:
        """Return the full names *node* may be, local ones within the module's name."""
        found = []
        module = self.result.module
        for name, source in self.names.meanings(node):
            if source is Source.LOCAL:
                found.append(f"{module}.{name}" if module else name)
            else:
                found.append(_absolute(name, self.package))
        return sorted(found)

    def is_named_tuple(self, node: ast.AST) -> bool:
        return bool(self.names.names(node) & NAMED_TUPLE)

    def is_namedtuple_function(self, node: ast.AST) -> bool:
        return NAMEDTUPLE_FUNCTION in self.names.names(node)

    def looks_like(self, node: ast.AST, name: str) -> bool:
        """Whether *node* is spelled or imported as *name*, but not as records' own."""
        names = self.names.names(node)
        return not names & MIGRATED and (
            last_name(node) == name or any(full.rsplit(".", 1)[-1] == name for full in names)
        )

    # -- the walk

    def _visit(self, node: ast.AST, statement: int, depth: int) -> None:
        """Read *node* (in the statement numbered *statement*), then what it holds."""
        if isinstance(node, ast.stmt):
            statement = self.numbers[node] = len(self.numbers)
        if isinstance(node, ast.ImportFrom):
            self._import_from(node)
            return
        if isinstance(node, ast.Import):
            return  # names in import statements are not uses
        if isinstance(node, ast.ClassDef):
            self._class(node, statement, depth)
        elif isinstance(node, ast.Call):
            self.calls.setdefault(statement, []).append(node)
            self._call(node, statement, depth)
        elif isinstance(node, ast.Attribute):
            if self._value_use(node):
                return  # the whole attribute is the use: its parts are not uses of their own
        elif isinstance(node, ast.Name):
            self._value_use(node)
        for child in ast.iter_child_nodes(node):
            self._visit(child, statement, depth + 1)

    def _aliases(self) -> None:
        """Note the module's plain aliases: ``Base = shapes.Point``."""
        for statement in self.tree.body:
            if (
                isinstance(statement, ast.Assign)
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
                and isinstance(statement.value, (ast.Name, ast.Attribute))
            ):
                full = self.full_names(statement.value)
                if full:
                    self.result.aliases[statement.targets[0].id] = full[0]

    def _import_from(self, node: ast.ImportFrom) -> None:
        module = get_absolute_module_from_package(self.package or None, node.module, node.level)
        if module is None:
            return  # a relative import above the top: not ours
        if node.names[0].name == "*":
            self.result.imports.add((module, "*"))
            self.result.star_imports.append(module)
            return
        at_module_level = self.names.scope_of[node].is_module
        for alias in node.names:
            self.result.imports.add((module, alias.name))
            if at_module_level:
                self.result.aliases[alias.asname or alias.name] = f"{module}.{alias.name}"

    # -- class statements

    def _class(self, node: ast.ClassDef, statement: int, depth: int) -> None:
        facts = ClassFacts(
            path=self.result.path,
            line=node.lineno,
            module=self.result.module,
            qualname=self._class_name(node),
        )
        first: tuple[int, ast.expr] | None = None
        for index, argument in enumerate(node.bases):
            base = argument.value if isinstance(argument, ast.Starred) else argument
            if isinstance(base, ast.Call):
                # A class the call makes (NamedTuple("X", [...]), say): not
                # the function it calls. The call is read as any other.
                facts.bases.append(([], ""))
                continue
            facts.bases.append((self.full_names(base), last_name(base) or ""))
            if self.is_named_tuple(base):
                facts.named_tuple = True
                self.seen.add(base)
                first = first or (index, base)
            elif self.looks_like(base, "NamedTuple"):
                self.seen.add(base)
                self._leave_unresolved(base, "NamedTuple base")
        self.read_body(node, facts)
        self.result.classes.append(facts)
        if first is not None:
            self._base_target(node, facts, first, statement, depth)

    def _class_name(self, node: ast.ClassDef) -> str:
        """Return the class's qualified name in its module (``f.<locals>.C``)."""
        scope = self.names.scope_of[node]
        return min((name for name, _ in scope.meanings_of(node.name)), default=node.name)

    def _base_target(
        self,
        node: ast.ClassDef,
        facts: ClassFacts,
        first: tuple[int, ast.expr],
        statement: int,
        depth: int,
    ) -> None:
        index, base = first
        if self._means(node, "Record", "records.Record"):
            spelling: str | None = "Record"
        elif self._means(node, "records", "records"):
            spelling = "records.Record"
        else:
            spelling = None
        self._add_target(
            Target(
                line=node.lineno,
                shown=f"class {node.name}({self.shown(base)})",
                key=facts.key,
                spelling=spelling,
                reason=None,
                first_name=None,
                drops=[],
                statement=statement,
                index=index,
                replaced=self.source(base),
                order=(node.end_lineno or 0, node.end_col_offset or 0, -depth),
            ),
            base,
        )

    def _call(self, node: ast.Call, statement: int, depth: int) -> None:
        func = node.func
        if self.is_namedtuple_function(func):
            self.seen.add(func)
            self._call_target(node, statement, depth)
        elif self.is_named_tuple(func):
            self.seen.add(func)
            shown = f"{self.shown(func)}({self._first_argument(node)}, ...)"
            owner = self.parents.get(node)
            if isinstance(owner, ast.ClassDef) and node in owner.bases:
                # Record.define(...) would be the record of the same fields,
                # but mypy reads no class on it (a dynamic base class), and
                # records runs a subclass's __new__ otherwise on copies.
                self.result.left.append(
                    (
                        owner.lineno,
                        f"class {owner.name}({shown}): its base is the functional form, which "
                        "records has no base for that mypy reads as a tuple (Record.define(...) "
                        "is a dynamic base class there): declare the fields in the body of a "
                        "Record by hand",
                    )
                )
                return
            self.result.left.append(
                (
                    node.lineno,
                    f"{shown}: the functional form; its records spelling is "
                    "Record.define(name, fields), by hand",
                )
            )
        elif self.looks_like(func, "namedtuple"):
            self.seen.add(func)
            self._leave_unresolved(func, "call")

    def _call_target(self, node: ast.Call, statement: int, depth: int) -> None:
        records_free = self._means(node, "records", "records")
        reason = None if records_free else "the name records means something else here"
        target = Target(
            line=node.lineno,
            shown=f"{self.shown(node.func)}({self._first_argument(node)}, ...)",
            key=None,
            spelling="records.namedtuple" if records_free else None,
            reason=reason,
            first_name=None,
            drops=[],
            statement=statement,
            index=-1,  # once the statement's calls are all known
            replaced=self.source(node.func),
            order=(node.end_lineno or 0, node.end_col_offset or 0, -depth),
        )
        self._add_target(target, node.func)
        self.call_targets.append((target, node))

    def _first_argument(self, call: ast.Call) -> str:
        argument = first_argument(call)
        return self.shown(argument) if argument is not None else ""

    def _leave_unresolved(self, node: ast.expr, what: str) -> None:
        names = sorted(self.names.names(node))
        meaning = f"it is {names[0]}" if names else "its import cannot be resolved"
        self.result.left.append(
            (node.lineno, f"{self.shown(node)}: a {what} left as it is: {meaning}")
        )

    def _value_use(self, node: ast.Name | ast.Attribute) -> bool:
        if self.is_named_tuple(node):
            what = "typing.NamedTuple"
        elif self.is_namedtuple_function(node):
            what = "collections.namedtuple"
        else:
            return False
        if node not in self.seen:
            self.seen.add(node)
            self.result.left.append(
                (
                    node.lineno,
                    f"{self.shown(node)}: {what} used as a value, neither a base nor a call "
                    "(code that tests for the standard library's classes, or passes it on)",
                )
            )
        return True

    # -- what the rewrite needs

    def _add_target(self, target: Target, node: ast.expr) -> None:
        """Note *target*, and the imports of the first name *node* is spelled with."""
        root = node
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name):
            target.first_name = root.id
            target.drops = self._drops(root)
        self.result.targets.append(target)
        self.replaced.append(node)

    def _drops(self, root: ast.Name) -> list[Drop]:
        """Return the imports that bind *root* where it is, to drop once unused."""
        found: list[Drop] = []
        scope = self.names.scope_of[root]
        for binding in scope.lookup(root.id, scope):
            statement = binding.node
            if not isinstance(binding, ImportBinding):
                continue
            assert isinstance(statement, (ast.Import, ast.ImportFrom))
            for alias in statement.names:
                if (alias.asname or alias.name.split(".")[0]) != root.id:
                    continue
                if isinstance(statement, ast.Import):
                    found.append((alias.name, None, alias.asname))
                elif statement.module is not None and not statement.level:
                    found.append((statement.module, alias.name, alias.asname))
        return found

    def _means(self, node: ast.AST, name: str, full: str) -> bool:
        """
        Whether *name*, where *node* is, is free or already means *full*.
        A name the module uses without binding it (from a star import, say)
        is not free.
        """
        scope = self.names.scope_of.get(node)
        if scope is None:
            return False
        if name not in scope:
            return not any(
                not access.referents
                for each in self.names.scopes
                for access in each.accesses.get(name, ())
            )
        return scope.meanings_of(name) == {(full, Source.IMPORT)}

    def _probe(self, call: ast.Call) -> str | None:
        """
        Why the namedtuple *call* stands for the standard library's own, to
        be left as it is, or None. It does when it names no fields and its
        class is only inspected: each read of it (the call itself, or the
        one name it is assigned to, bound there alone, read at least once)
        reads a method or dunder without calling it (rich's pretty-printer
        gives the ``__repr__`` of one to ``inspect.getfile``), or gives the
        class to a function of ``inspect``.
        """
        if not _names_no_fields(call):
            return None
        reads = [call] if self._inspected(call) else self._reads(call)
        if not reads or not all(self._inspected(read) for read in reads):
            return None
        use = self.parents[reads[0]]
        if not isinstance(use, ast.Attribute):
            use = reads[0]
        assert isinstance(use, ast.expr)
        return (
            f"a namedtuple without fields that the module only inspects ({self.shown(use)}, "
            f"line {use.lineno}): it stands for the standard library's own namedtuple, "
            "which records.namedtuple would not be"
        )

    def _reads(self, call: ast.Call) -> list[ast.AST]:
        """Return the reads of the one name *call* is assigned to, bound there alone."""
        statement = self.parents.get(call)
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
        elif isinstance(statement, ast.AnnAssign):
            target = statement.target
        else:
            return []
        if statement.value is not call or not isinstance(target, ast.Name):
            return []
        scope = self.names.scope_of[target].target(target.id)
        bindings = scope.bindings.get(target.id, [])
        if len(bindings) != 1 or bindings[0].node is not target:
            return []
        return sorted((access.node for access in bindings[0].references), key=position)

    def _inspected(self, node: ast.AST) -> bool:
        """Whether *node* has a method read off it and not called, or goes to inspect."""
        parent = self.parents.get(node)
        if (
            isinstance(parent, ast.Attribute)
            and parent.value is node
            and (parent.attr in NAMEDTUPLE_METHODS or _is_dunder(parent.attr))
        ):
            above = self.parents.get(parent)
            return not (isinstance(above, ast.Call) and above.func is parent)
        if isinstance(parent, ast.keyword):
            node, parent = parent, self.parents.get(parent)
        return (
            isinstance(parent, ast.Call)
            and node is not parent.func
            and any(name.startswith("inspect.") for name in self.names.names(parent.func))
        )


# -- small helpers ---------------------------------------------------------------


def _is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _names_no_fields(call: ast.Call) -> bool:
    """Whether a namedtuple *call* names no fields: ``[]``, ``()`` or a blank string."""
    fields: ast.expr | None = call.args[1] if len(call.args) > 1 else None
    for keyword in call.keywords:
        if keyword.arg == "field_names":
            fields = keyword.value
    if isinstance(fields, (ast.List, ast.Tuple)):
        return not fields.elts
    if isinstance(fields, ast.Constant) and isinstance(fields.value, str):
        return not fields.value.replace(",", " ").split()
    return False


def _absolute(name: str, package: str) -> str:
    """Resolve an imported name that starts with dots against *package*."""
    dots = len(name) - len(name.lstrip("."))
    if not dots:
        return name
    parts = package.split(".") if package else []
    base = parts[: len(parts) - (dots - 1)] if dots - 1 <= len(parts) else []
    return ".".join([*base, name[dots:]]) if base else name[dots:]
