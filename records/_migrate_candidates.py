"""
Which files ``python -m records migrate`` parses: a cheap reading of every
file's text decides, so that the files that cannot matter to the migration
are never parsed.

A file is a candidate when its text names ``NamedTuple`` or ``namedtuple``,
or a class of a ``NamedTuple`` family found so far: a class that may derive
from one, a name another module binds to one, or another base of one of
them (a mixin, whose body the decision reads). Parsing the candidates finds
more such classes, so the reading goes round until no file joins; a
subclass two modules away from its ``NamedTuple`` is found that way. A file
also joins when it imports, from a module the rewrite changes, ``*`` or a
name whose import the rewrite may drop there (``from .compat import *``):
the rewrite keeps the imports other modules take.

Nothing here parses: it reads words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from libcst.helpers import get_absolute_module_from_package

from ._migrate_source import decode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from ._migrate_transform import ClassFacts, ModuleScan

#: The names that make a file a candidate wherever they are.
NAMED_TUPLE_NAMES = frozenset({"NamedTuple", "namedtuple"})

_WORD = re.compile(r"\w+")
#: ``from <module> import <names>``: the names in parentheses (comments
#: skipped, as one may hold a parenthesis) or to the end of the line
#: (backslashes continuing it). It reads strings and comments as code too,
#: which only ever makes a file a candidate that is not one.
_FROM_IMPORT = re.compile(
    r"\bfrom(?=[ \t.])([.\w \t]*?)\bimport\b[ \t]*"
    r"(\((?:[^)#]|#[^\n]*)*\)|(?:\\\r?\n|[^\r\n])*)"
)


@dataclass(frozen=True)
class Text:
    """What the selection reads of a file: its words and its ``from`` imports."""

    words: frozenset[str]
    #: Each ``from`` import: its dots, its module (None after dots alone),
    #: and the words of what it imports (``*`` included).
    imports: tuple[tuple[int, str | None, frozenset[str]], ...]

    def names_any(self, names: frozenset[str]) -> bool:
        """Whether the text has any of *names* as a word."""
        return not self.words.isdisjoint(names)


def read(source: bytes) -> Text | None:
    """
    Read a module's source as its coding line or BOM says; None where it
    cannot be decoded (the parse then says why).
    """
    try:
        text = decode(source)
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return None
    imports = []
    for match in _FROM_IMPORT.finditer(text):
        spec = "".join(match[1].split())
        module = spec.lstrip(".")
        names = frozenset(_WORD.findall(match[2])) | ({"*"} if "*" in match[2] else set())
        imports.append((len(spec) - len(module), module or None, names))
    return Text(frozenset(_WORD.findall(text)), tuple(imports))


def names_to_find(scans: Iterable[ModuleScan]) -> frozenset[str]:
    """
    Return the words that make a file a candidate, after the modules
    *scans*: ``NamedTuple``, ``namedtuple``, the name of each class that may
    belong to a ``NamedTuple`` family (its base is one, or named as one of
    the family), each name of the family's bases, and the names modules
    bind to any of those (``from .shapes import Point as P``).

    Every name is matched by its last part alone, so a class that another
    module resolves to is found whatever the module: more files than needed
    may be parsed, never fewer.
    """
    scans = list(scans)
    classes = [facts for found in scans for facts in found.classes]
    aliases = [
        (bound, target.rsplit(".", 1)[-1])
        for found in scans
        for bound, target in found.aliases.items()
    ]
    family: set[str] = set()
    bases: set[str] = set()
    size = -1
    while size != len(family) + len(bases):
        size = len(family) + len(bases)
        for facts in classes:
            names = _base_names(facts)
            if facts.named_tuple or not names.isdisjoint(family):
                family.add(facts.qualname.rsplit(".", 1)[-1])
                bases |= names
        for bound, target in aliases:
            if target in family:
                family.add(bound)
            if bound in bases:
                bases.add(target)
    return NAMED_TUPLE_NAMES | family | bases


def imports_dropped(text: Text, package: str, dropped: dict[str, frozenset[str]]) -> bool:
    """
    Whether *text*, a module of *package*, imports from a module of
    *dropped* (its name, and the names whose import its rewrite may drop)
    one of those names or ``*``.
    """
    for dots, module, names in text.imports:
        absolute = get_absolute_module_from_package(package or None, module, dots)
        if absolute in dropped and not names.isdisjoint(dropped[absolute] | {"*"}):
            return True
    return False


def _base_names(facts: ClassFacts) -> set[str]:
    """Return the last part of each name a class's bases are written or resolved by."""
    found = {last for _, last in facts.bases if last}
    found.update(name.rsplit(".", 1)[-1] for names, _ in facts.bases for name in names)
    return found
