"""
The rewrite behind ``python -m records migrate``, in three steps.

1. ``scan`` (``records/_migrate_scan.py``): read one module and note each
   class statement (its bases, as the module's imports resolve them, and
   what its body does), the names it imports and re-exports, each
   ``NamedTuple`` base and ``namedtuple`` call the rewrite may change, and
   each use of ``typing.NamedTuple`` or ``collections.namedtuple`` that is
   neither a base nor a call.
2. ``decide``: over every module scanned, keep each ``class X(NamedTuple)``
   that records builds the same, and leave the others with the reason (see
   ``_own_reason`` and ``_Family.reason``).
3. ``rewrite``: ``class X(NamedTuple)`` becomes ``class X(Record)`` and
   ``collections.namedtuple(...)`` becomes ``records.namedtuple(...)``;
   ``records`` is imported and the imports left unused are removed, unless
   another module imports them from this one. libcst writes it, and keeps
   every other byte of the source: formatting, comments and strings. Each
   class rewritten must hold what it held, read again from the source
   before and after (``records/_migrate_check.py``), or nothing is written.

Needs libcst (the ``migrate`` extra); ``records/_migrate.py`` imports this
module only when the command runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor

from . import _migrate_check, _rules

#: An import the rewrite asks to drop once unused: module, name, alias.
Drop = tuple[str, "str | None", "str | None"]


@dataclass
class ClassFacts:
    """One class statement, and what the decision needs to know of it."""

    path: str
    line: int
    #: The module's dotted name and the class's name in it (``f.<locals>.C``).
    module: str
    qualname: str
    #: For each base: the full names it may be, and its last name as written.
    bases: list[tuple[list[str], str]] = field(default_factory=list)
    #: Its base is typing's (or typing_extensions') NamedTuple.
    named_tuple: bool = False
    #: The names its body annotates, ClassVar aside; and those as ClassVar.
    annotated: list[str] = field(default_factory=list)
    class_vars: list[str] = field(default_factory=list)
    #: The names its body defines or assigns (methods included).
    defined: set[str] = field(default_factory=set)
    #: Its body sets ``__slots__``.
    has_slots: bool = False
    #: Why its instances keep attributes of their own, or None.
    instance_state: str | None = None
    #: The first default of the body that records refuses as mutable, shown.
    mutable_default: str | None = None

    @property
    def fullname(self) -> str:
        """The class's module and name, dotted."""
        return f"{self.module}.{self.qualname}" if self.module else self.qualname

    @property
    def key(self) -> tuple[str, int]:
        """What tells the class from any other of its module: its name and line."""
        return self.qualname, self.line


@dataclass
class Target:
    """A ``NamedTuple`` base or a ``namedtuple`` call: what the rewrite changes or leaves."""

    line: int
    #: As the report shows it: ``class A(NamedTuple)``, ``c.namedtuple("Q", ...)``.
    shown: str
    #: The key of its class (a base), or None (a call).
    key: tuple[str, int] | None
    #: How it would be written (``Record``, ``records.Record``,
    #: ``records.namedtuple``), or None where those names are taken.
    spelling: str | None
    #: Why it stays, whatever the decisions: what its module alone shows.
    reason: str | None
    #: The first name it is spelled with (``typing`` of ``typing.NamedTuple``),
    #: and the imports of that name the rewrite asks to drop.
    first_name: str | None
    drops: list[Drop]
    #: Where the writer finds it: the number of its statement (see
    #: ``statements``), and that of the base in its class or of the call
    #: in its statement's own code; the source of what it replaces.
    statement: int
    index: int
    replaced: str
    #: When libcst would rewrite it, as it walks the module: once past all
    #: of it (what ends first comes first, the innermost on a tie).
    order: tuple[int, int, int]


@dataclass
class ImportUse:
    """One name of an import statement, and what uses it."""

    #: The number of the import statement (see ``statements``) and of the name in it.
    statement: int
    alias: int
    #: The targets (by number) whose first name reads it: a rewrite of
    #: theirs takes that use away.
    targets: set[int] = field(default_factory=set)
    #: Whether anything else uses it: a read, ``__all__``, a string annotation.
    used: bool = False


@dataclass
class ModuleScan:
    """What ``scan`` found in one module."""

    path: str
    module: str
    classes: list[ClassFacts] = field(default_factory=list)
    #: Module-level names bound to another module's name, by name: imports
    #: (``from x import y as z``) and plain aliases (``z = x.y``).
    aliases: dict[str, str] = field(default_factory=dict)
    #: The modules it star-imports.
    star_imports: list[str] = field(default_factory=list)
    #: The ``(module, name)`` pairs it imports from other modules (``*`` too).
    imports: set[tuple[str, str]] = field(default_factory=set)
    #: ``(line, text)`` of every use the rewrite leaves, with its reason.
    left: list[tuple[int, str]] = field(default_factory=list)
    #: Its NamedTuple bases and namedtuple calls: the rewrite reads a
    #: module only where it has one.
    targets: list[Target] = field(default_factory=list)
    #: The names its import statements bind, and their uses.
    import_uses: list[ImportUse] = field(default_factory=list)

    @property
    def first_names(self) -> set[str]:
        """The names whose imports a rewrite of this module may drop."""
        return {target.first_name for target in self.targets if target.first_name}


@dataclass
class Decisions:
    """For one module: each class to rewrite (None) or leave (the reason)."""

    classes: dict[tuple[str, int], str | None] = field(default_factory=dict)
    #: Why nothing in this module may be rewritten, if so.
    everything: str | None = None
    #: Names other modules import from this one: their imports stay.
    exported: set[str] = field(default_factory=set)


@dataclass
class Outcome:
    """What ``rewrite`` did to one module, and what it left, each at its line."""

    changed: list[tuple[int, str]] = field(default_factory=list)
    left: list[tuple[int, str]] = field(default_factory=list)


def decide(scans: list[ModuleScan]) -> dict[str, Decisions]:
    """Decide each ``class X(NamedTuple)`` of every module scanned, by path."""
    decisions = {found.path: Decisions() for found in scans}
    shadows = sorted(
        found.module
        for found in scans
        if found.module == "records" or found.module.startswith("records.")
    )
    if shadows:
        for decision in decisions.values():
            decision.everything = (
                f"the code base has a module named {shadows[0]}, which its imports of "
                "records would find instead of the records library"
            )
        return decisions
    family = _Family(scans)
    modules = {found.module: found.path for found in scans}
    for found in scans:
        for module, name in found.imports:
            if module in modules:
                decisions[modules[module]].exported.add(name)
    for facts in family.classes:
        if facts.named_tuple:
            reason = _own_reason(facts) or family.reason(facts)
            decisions[facts.path].classes[facts.key] = reason
    return decisions


def rewrite(source: bytes, found: ModuleScan, decisions: Decisions) -> tuple[bytes, Outcome]:
    """
    Rewrite the module *found*, of *source*, by the *decisions* on it;
    return its new source (*source* itself when nothing changed) and what
    changed and was left. Only a module that changes is parsed by libcst.
    Raises ``ChangedFieldsError`` where a class rewritten would hold other
    fields, in another order or with other defaults.
    """
    outcome = Outcome()
    changes: list[tuple[Target, str]] = []
    for target in sorted(found.targets, key=lambda target: target.order):
        reason = decisions.everything
        if target.key is not None:  # a base: the decision on its class, then its names
            reason = reason or decisions.classes.get(target.key, "not scanned")
            if reason is None and target.spelling is None:
                reason = "the names Record and records both mean something else here"
        reason = reason or target.reason
        if reason is not None or target.spelling is None:
            outcome.left.append((target.line, f"{target.shown}: {reason}"))
        else:
            outcome.changed.append((target.line, f"{target.shown} -> {target.spelling}"))
            changes.append((target, target.spelling))
    if not changes:
        return source, outcome
    new_source = _Writer(source, found, decisions).write(changes)
    _migrate_check.check(source, new_source)
    return new_source, outcome


# -- step 2: decide -------------------------------------------------------------


class _Family:
    """Every class scanned, with its parents and children among them."""

    def __init__(self, scans: list[ModuleScan]) -> None:
        self.classes = [facts for found in scans for facts in found.classes]
        self.by_name: dict[str, list[ClassFacts]] = {}
        for facts in self.classes:
            self.by_name.setdefault(facts.qualname.rsplit(".", 1)[-1], []).append(facts)
        self.modules = {found.module: found for found in scans}
        self.parents: dict[int, list[ClassFacts]] = {}
        self.children: dict[int, list[ClassFacts]] = {}
        for facts in self.classes:
            for names, last in facts.bases:
                for parent in self._resolve(names, last):
                    self.parents.setdefault(id(facts), []).append(parent)
                    self.children.setdefault(id(parent), []).append(facts)

    def _resolve(self, names: list[str], last: str) -> list[ClassFacts]:
        """
        Return the classes scanned that a base may be: by its full names,
        through the re-exports of the modules scanned; where nothing resolves
        it (a star import of an unscanned module, say), every class scanned
        with its last name.
        """
        found = [facts for name in names for facts in self._named(name, depth=8)]
        if not names and last:
            found = list(self.by_name.get(last, ()))
        return list({id(facts): facts for facts in found}.values())

    def _named(self, name: str, depth: int) -> list[ClassFacts]:
        found = [
            facts
            for facts in self.by_name.get(name.rsplit(".", 1)[-1], ())
            if facts.fullname == name
            or facts.fullname.endswith(f".{name}")
            or name.endswith(f".{facts.fullname}")
        ]
        if found or depth == 0:
            return found
        # A name another module re-exports: pkg.Price for pkg._base.Price.
        parts = name.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            module = self.modules.get(".".join(parts[:cut]))
            if module is None:
                continue
            rest = ".".join(parts[cut + 1 :])
            target = module.aliases.get(parts[cut])
            targets = [target] if target else []
            targets += [f"{star}.{parts[cut]}" for star in module.star_imports]
            for target in targets:
                found += self._named(f"{target}.{rest}" if rest else target, depth - 1)
            break
        return found

    def roots(self, facts: ClassFacts, seen: frozenset[int] = frozenset()) -> set[int]:
        """Return the NamedTuple classes *facts* derives from, by id."""
        if facts.named_tuple:
            return {id(facts)}
        found: set[int] = set()
        for parent in self.parents.get(id(facts), ()):
            if id(parent) not in seen:
                found |= self.roots(parent, seen | {id(facts)})
        return found

    def reason(self, root: ClassFacts) -> str | None:
        """Why a subclass of *root* keeps *root* a NamedTuple, or None."""
        pending = [(child, not child.has_slots) for child in self.children.get(id(root), ())]
        seen = {id(root)}
        while pending:
            child, has_dict = pending.pop(0)
            if id(child) in seen:
                continue
            seen.add(id(child))
            reason = self._child_reason(child, has_dict)
            if reason is not None:
                return f"its subclass {child.qualname} ({child.path}:{child.line}) {reason}"
            pending += [
                (grandchild, has_dict or not grandchild.has_slots)
                for grandchild in self.children.get(id(child), ())
            ]
        return None

    def _child_reason(self, child: ClassFacts, has_dict: bool) -> str | None:
        if child.annotated:
            return (
                f"annotates {child.annotated[0]!r}, which records would make a field (a "
                "NamedTuple subclass cannot add fields)"
            )
        if len(self.roots(child)) > 1:
            return "derives from two NamedTuple classes, which records refuses for records"
        reason = _body_reason(child)
        if reason is not None:
            return reason
        # Its other bases, outside the family (mixins): their layout and
        # their methods are its instances' too.
        mixins = [parent for parent in self.parents.get(id(child), ()) if not self.roots(parent)]
        has_dict = has_dict or any(not mixin.has_slots for mixin in mixins)
        state = child.instance_state
        for mixin in mixins:
            state = state or mixin.instance_state
        if has_dict and state is not None:
            return (
                f"keeps attributes on its instances ({state}), and record instances have "
                "no __dict__"
            )
        return None


def _own_reason(facts: ClassFacts) -> str | None:
    if facts.mutable_default is not None:
        return (
            f"{facts.mutable_default} is mutable, which records refuses (every instance "
            "would share it): give it field(default_factory=...) by hand"
        )
    if facts.class_vars:
        return (
            f"it annotates {facts.class_vars[0]!r} as a ClassVar, which typing.NamedTuple "
            "makes a field and records does not"
        )
    if "__post_init__" in facts.defined:
        return "it defines __post_init__, which records refuses in a record's body"
    return None


def _body_reason(facts: ClassFacts) -> str | None:
    """Why records treats a subclass's body otherwise than a NamedTuple's, or None."""
    for name in (*_rules.REFUSED_METHODS, *sorted(_rules.COMPUTED_NAMES)):
        if name in facts.defined:
            return f"defines {name}, which records refuses in a record's body"
    if "_make" in facts.defined:
        return "defines _make, which namedtuple's _replace calls and records' does not"
    if "__new__" in facts.defined:
        return (
            "defines __new__, which copy.copy() and copy.deepcopy() run again on a "
            "NamedTuple and not on a record"
        )
    return None


# -- step 3: write ---------------------------------------------------------------


class _Writer:
    """
    libcst's part of the rewrite: the bases and calls replaced, the imports
    added and removed as libcst's codemods do, each pass going down only to
    what it changes.
    """

    def __init__(self, source: bytes, found: ModuleScan, decisions: Decisions) -> None:
        self.module = cst.parse_module(source)
        self.found = found
        self.decisions = decisions
        self.context = CodemodContext()
        self.statements, self.parents = statements(self.module)

    def write(self, changes: list[tuple[Target, str]]) -> bytes:
        """Apply *changes* (each target, and what it becomes); return the new source."""
        replacements: dict[cst.CSTNode, cst.CSTNode] = {}
        path: set[cst.CSTNode] = set()
        rewritten: set[int] = set()
        for target, spelling in changes:
            statement = self.statements[target.statement]
            node = self._find(target, statement)
            replacements[node] = _dotted(spelling)
            path.update(_up(statement, self.parents), _ancestors(statement, node))
            rewritten.add(self.found.targets.index(target))
            if target.first_name is not None and not (
                {target.first_name, "*"} & self.decisions.exported
            ):  # another module imports it from this one
                for imported, name, alias in target.drops:
                    RemoveImportsVisitor.remove_unused_import(self.context, imported, name, alias)
            if spelling == "Record":
                AddImportsVisitor.add_needed_import(self.context, "records", "Record")
            else:
                AddImportsVisitor.add_needed_import(self.context, "records")
        module = self.module.visit(_Replace(replacements, path))
        module = self._add_imports(module)
        return self._remove_imports(module, rewritten).bytes

    def _find(self, target: Target, statement: cst.CSTNode) -> cst.CSTNode:
        """Return the node *target* replaces in *statement*: a base, or a call's function."""
        if target.key is not None:
            assert isinstance(statement, cst.ClassDef)
            node: cst.CSTNode = statement.bases[target.index].value
        else:
            node = _header_calls(statement)[target.index].func
        if _bare(_source(node)) != _bare(target.replaced):
            msg = f"line {target.line}: libcst does not find {target.replaced} there"
            raise RuntimeError(msg)
        return node

    def _add_imports(self, module: cst.Module) -> cst.Module:
        """
        Add the imports asked for, as AddImportsVisitor does. It reads the
        module's leading imports and changes them, inserts its own after
        them and gives the next statement a blank line before it: it is
        given those statements alone, a compound one as a stand-in with
        its blank lines (which it would read through, whatever its size).
        """
        body = list(module.body)
        end = 1
        while end < len(body) and _is_import_line(body[end]):
            end += 1
        stand_ins: dict[cst.CSTNode, cst.CSTNode] = {}
        head = body[: end + 1]
        for index, statement in enumerate(head):
            if index in (0, end) and not _is_import_line(statement):
                if index == 0 and isinstance(statement, cst.SimpleStatementLine):
                    continue  # a docstring, which it reads
                stand_in = cst.Pass()
                stand_ins[stand_in] = statement
                head[index] = cst.SimpleStatementLine(
                    body=[stand_in], leading_lines=statement.leading_lines
                )
        added = module.with_changes(body=head).visit(_AddImports(self.context))
        new_head = []
        for statement in added.body:
            small = _only(statement)
            real = stand_ins.get(small) if small is not None else None
            new_head.append(
                statement
                if real is None
                else real.with_changes(leading_lines=statement.leading_lines)
            )
        return module.with_changes(body=[*new_head, *body[end + 1 :]])

    def _remove_imports(self, module: cst.Module, rewritten: set[int]) -> cst.Module:
        """Remove the imports asked for that nothing uses once *rewritten* are."""
        unused: dict[cst.ImportAlias, cst.Import | cst.ImportFrom] = {}
        for use in self.found.import_uses:
            if use.used or not use.targets <= rewritten:
                continue
            statement = self.statements[use.statement]
            assert isinstance(statement, (cst.Import, cst.ImportFrom))
            assert not isinstance(statement.names, cst.ImportStar)
            unused[statement.names[use.alias]] = statement
        # The imports are the statements read at first; the lines and blocks
        # above them may have been rebuilt since.
        _, parents = statements(module)
        path: set[cst.CSTNode] = set()
        for statement in unused.values():
            path.update(_up(statement, parents))
        return module.visit(_RemoveImports(self.context, unused, path))


class _Replace(cst.CSTTransformer):
    """Replace the keys of *replacements* by their values, going down only along *path*."""

    def __init__(
        self, replacements: dict[cst.CSTNode, cst.CSTNode], path: set[cst.CSTNode]
    ) -> None:
        super().__init__()
        self.replacements = replacements
        self.path = path

    def on_visit(self, node: cst.CSTNode) -> bool:
        return node in self.path and node not in self.replacements

    def on_leave(  # type: ignore[override]
        self, original_node: cst.CSTNode, updated_node: cst.CSTNode
    ) -> cst.CSTNode:
        return self.replacements.get(original_node, updated_node)


class _AddImports(AddImportsVisitor):
    """
    AddImportsVisitor, going down only to the ``from`` imports it may add a
    name to, and keeping the import statements it does not change as they are.
    """

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.Module) or isinstance(_only(node), cst.ImportFrom):
            return super().on_visit(node)
        return False


class _RemoveImports(RemoveImportsVisitor):
    """
    RemoveImportsVisitor, told which imports are unused rather than reading
    the whole module again for it, and going down only to them; the comments
    above a line it removes (a licence under the docstring) are kept.
    """

    def __init__(
        self,
        context: CodemodContext,
        unused: dict[cst.ImportAlias, cst.Import | cst.ImportFrom],
        path: set[cst.CSTNode],
    ) -> None:
        super().__init__(context)
        self.unused = unused
        self.path = path
        self.removed: set[cst.CSTNode] = set()

    def visit_Module(self, node: cst.Module) -> None:
        self._unused_imports = dict(self.unused)

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.Module) or node in self.path:
            return super().on_visit(node)
        return False

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine:
        if not updated_node.body:  # its parent drops it
            self.removed.add(original_node)
        return updated_node

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if self.removed.isdisjoint(original_node.body):
            return updated_node
        body, left = self._keep_comments(original_node.body, updated_node.body)
        return updated_node.with_changes(body=body, footer=[*left, *updated_node.footer])

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        if self.removed.isdisjoint(original_node.body):
            return updated_node
        body, left = self._keep_comments(original_node.body, updated_node.body)
        return updated_node.with_changes(body=body, footer=[*left, *updated_node.footer])

    def _keep_comments(
        self, original: Sequence[cst.BaseStatement], updated: Sequence[cst.BaseStatement]
    ) -> tuple[list[cst.BaseStatement], list[cst.EmptyLine]]:
        """
        Return the statements *updated* (those of *original*, the lines
        removed left out) with the lines above each removed line that hold a
        comment put above the statement after it; and those left for the
        end of the block, where no statement follows.
        """
        body = list(updated)
        carried: list[cst.EmptyLine] = []
        index = 0
        for statement in original:
            if statement in self.removed:
                assert isinstance(statement, cst.SimpleStatementLine)
                if any(line.comment for line in statement.leading_lines):
                    carried += statement.leading_lines
                continue
            if carried:
                following = body[index]
                assert isinstance(following, (cst.SimpleStatementLine, cst.BaseCompoundStatement))
                own = following.leading_lines
                while own and carried and not own[0].comment and not carried[-1].comment:
                    carried.pop()  # one run of blank lines, not two
                body[index] = following.with_changes(leading_lines=[*carried, *own])
                carried = []
            index += 1
        return body, carried


def statements(module: cst.Module) -> tuple[list[cst.CSTNode], dict[cst.CSTNode, cst.CSTNode]]:
    """
    Return every statement of *module* in the order of its source (a line's
    small statements one by one, a compound statement before those of its
    blocks, an ``elif`` as a statement of its own), as ``ast`` numbers them
    (``records/_migrate_scan.py``); and the parent of each statement, line,
    block and clause.
    """
    found: list[cst.CSTNode] = []
    parents: dict[cst.CSTNode, cst.CSTNode] = {}

    def collect(owner: cst.CSTNode, body: Sequence[cst.CSTNode]) -> None:
        for statement in body:
            parents[statement] = owner
            if isinstance(statement, cst.SimpleStatementLine):
                collect(statement, statement.body)
                continue
            found.append(statement)
            if not isinstance(statement, cst.BaseCompoundStatement):
                continue
            for clause, block in _blocks(statement):
                parents[block] = clause
                if clause is not statement:
                    parents[clause] = statement
                if isinstance(block, cst.If):  # elif
                    collect(statement, [block])
                else:
                    collect(block, block.body)

    collect(module, module.body)
    return found, parents


def _blocks(statement: cst.CSTNode) -> list[tuple[cst.CSTNode, cst.BaseSuite | cst.If]]:
    """Return each block of a compound statement with its clause, in source order."""
    if isinstance(statement, cst.If):
        found: list[tuple[cst.CSTNode, cst.BaseSuite | cst.If]] = [(statement, statement.body)]
        if isinstance(statement.orelse, cst.If):
            found.append((statement, statement.orelse))
        elif statement.orelse is not None:
            found.append((statement.orelse, statement.orelse.body))
        return found
    if isinstance(statement, cst.Match):
        return [(case, case.body) for case in statement.cases]
    found = [(statement, statement.body)]  # type: ignore[attr-defined]
    found += [(handler, handler.body) for handler in getattr(statement, "handlers", ())]
    for name in ("orelse", "finalbody"):
        clause = getattr(statement, name, None)
        if clause is not None:
            found.append((clause, clause.body))
    return found


def _header_calls(statement: cst.CSTNode) -> list[cst.Call]:
    """Return the calls of a statement's own code (not of its blocks), in source order."""
    found: list[cst.Call] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            found.append(node)

        def visit_IndentedBlock(self, node: cst.IndentedBlock) -> bool:
            return False

        def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> bool:
            return False

    statement.visit(Calls())
    return found


def _ancestors(root: cst.CSTNode, node: cst.CSTNode) -> list[cst.CSTNode]:
    """Return the nodes from *root* down to *node*, both included, or []."""
    if root is node:
        return [root]
    for child in root.children:
        below = _ancestors(child, node)
        if below:
            return [root, *below]
    return []


def _up(node: cst.CSTNode, parents: dict[cst.CSTNode, cst.CSTNode]) -> list[cst.CSTNode]:
    """Return *node* and the nodes above it up to the module, by *parents*."""
    path = [node]
    while node in parents:
        node = parents[node]
        path.append(node)
    return path


def _only(statement: cst.CSTNode) -> cst.BaseSmallStatement | None:
    """Return the small statement of a line of one, or None."""
    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
        return statement.body[0]
    return None


def _is_import_line(statement: cst.CSTNode) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], (cst.Import, cst.ImportFrom))
    )


def _source(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def _bare(code: str) -> str:
    """Return *code* without its spaces, comments aside, and outer parentheses."""
    code = "".join(code.split())
    while code.startswith("(") and code.endswith(")"):
        code = code[1:-1]
    return code


def _dotted(name: str) -> cst.Name | cst.Attribute:
    """Return the expression of a dotted *name*, built without parsing it."""
    first, *rest = name.split(".")
    node: cst.Name | cst.Attribute = cst.Name(first)
    for part in rest:
        node = cst.Attribute(value=node, attr=cst.Name(part))
    return node
