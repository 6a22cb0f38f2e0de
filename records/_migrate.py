"""
``python -m records migrate PATH... [--dry-run] [--diff]``: move a code base
from ``typing.NamedTuple`` and ``collections.namedtuple`` to records.

Every ``.py`` file at or under the given paths is read first, so that a
subclass in one module keeps its base in another as it was when records
would change it. Only the files whose text may matter are parsed, once each,
with Python's own parser (``records/_migrate_candidates.py`` picks them,
``records/_migrate_scan.py`` reads them); those with something to change
are then rewritten in place by libcst, which keeps their formatting
(``records/_migrate_transform.py``; ``pip install 'records-tuple[migrate]'``).
The command reports, file by file and line by line, what it changed and
what it left, with the reason; over more than a few hundred files, it
shows on stderr how far its reading is. Running it again changes nothing.

Exit status: 0 when every file was read (whatever was left), 1 when a file
or folder could not be read, parsed or written (it is named; the others are
still migrated), 2 for a usage error or a missing libcst.
"""

from __future__ import annotations

import argparse
import difflib
import io
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from types import ModuleType

    from ._migrate_candidates import Text
    from ._migrate_transform import Decisions, ModuleScan

#: Folders never entered, besides hidden ones and virtual environments.
SKIPPED_FOLDERS = frozenset({"__pycache__", "node_modules", "site-packages"})
#: Folders entered only where they are packages of the code.
BUILD_FOLDERS = frozenset({"build", "dist"})

NEEDS_LIBCST = "python -m records migrate needs libcst: pip install 'records-tuple[migrate]'"

#: Over how many files the command shows its progress.
PROGRESS_FROM = 300

AFTERWARDS = (
    "For mypy, turn on the records plugin (plugins = records.mypy); the other type "
    "checkers read records' stubs as they are."
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m records migrate",
        description=(
            "Rewrite class X(NamedTuple) as class X(Record), and collections.namedtuple(...) "
            "as records.namedtuple(...), in the .py files at or under each PATH, keeping "
            "formatting and comments; report what changed, and what was left and why."
        ),
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="a .py file or a folder")
    parser.add_argument("--dry-run", action="store_true", help="report only; write nothing")
    parser.add_argument("--diff", action="store_true", help="print the changes as a diff")
    return parser


def python_files(paths: list[str], problems: list[str]) -> Iterator[str]:
    """
    Yield each ``.py`` file at or under *paths*, in a stable order, each
    once; add to *problems* what could not be read, one line each.
    """
    seen: set[str] = set()
    for path in _python_files(paths, problems):
        if os.path.islink(path):
            problems.append(f"{path}: not migrated: a symbolic link (migrate what it points at)")
        elif os.path.realpath(path) not in seen:
            seen.add(os.path.realpath(path))
            yield path


def _python_files(paths: list[str], problems: list[str]) -> Iterator[str]:
    for path in paths:
        if not os.path.isdir(path):
            yield path
            continue

        def unreadable(error: OSError) -> None:
            problems.append(f"{error.filename}: not read: {error.strerror}")

        for folder, folders, files in os.walk(path, onerror=unreadable):
            folders[:] = sorted(name for name in folders if _enters(folder, name))
            for name in sorted(files):
                file = os.path.join(folder, name)
                if name.endswith(".py") and (os.path.isfile(file) or os.path.islink(file)):
                    yield file


def _enters(folder: str, name: str) -> bool:
    """Whether the walk goes into *folder*/*name*: not hidden, a cache or an environment."""
    path = os.path.join(folder, name)
    if name.startswith(".") or os.path.exists(os.path.join(path, "pyvenv.cfg")):
        return False
    if name in BUILD_FOLDERS:  # a build's output, unless it is a package of the code
        return os.path.exists(os.path.join(path, "__init__.py"))
    return name not in SKIPPED_FOLDERS


def module_names(path: str) -> tuple[str, str]:
    """
    Return the dotted name of the module at *path*, and of its package, as
    Python imports it: counted from the nearest folder above it that is not
    a package (no ``__init__.py``).
    """
    from libcst.helpers import calculate_module_and_package

    root = os.path.dirname(os.path.abspath(path))
    while os.path.exists(os.path.join(root, "__init__.py")) and os.path.dirname(root) != root:
        root = os.path.dirname(root)
    names = calculate_module_and_package(root, os.path.abspath(path))
    return names.name, names.package


def main(argv: list[str]) -> int:
    """Run the migration; return the exit status."""
    parser = _parser()
    arguments = parser.parse_args(argv)
    missing = [path for path in arguments.paths if not os.path.lexists(path)]
    if missing:
        parser.error(f"no such file or folder: {missing[0]}")
    try:
        import libcst  # noqa: F401 - only whether it is there
    except ImportError:
        print(NEEDS_LIBCST, file=sys.stderr)
        return 2
    from . import _migrate_transform as transform

    if isinstance(sys.stdout, io.TextIOWrapper):  # file names any bytes can make
        sys.stdout.reconfigure(errors="backslashreplace")
    problems: list[str] = []
    paths = list(python_files(arguments.paths, problems))
    reading = _Reading(transform, paths)
    reading.run()
    for line in problems + [reading.problems[path] for path in reading.problems]:
        print(line)
    scans = [reading.scans[path] for path in paths if path in reading.scans]
    decisions = transform.decide(scans)
    migration = _Migration(arguments.dry_run, arguments.diff)
    for found in scans:
        source = reading.sources.pop(found.path, None)
        migration.rewrite(transform, found, decisions[found.path], source)
    verb = "would change" if arguments.dry_run else "changed"
    changes, files = migration.changes, migration.files
    print(
        f"{verb} {changes} {_plural(changes, 'definition')} in {files} {_plural(files, 'file')}"
        f" of {len(paths)}; left {migration.left} (see above)."
    )
    if changes:
        print(AFTERWARDS)
    return 1 if problems or reading.problems or migration.failed else 0


class _Reading:
    """
    The first pass: every file read, and the candidates among them parsed
    and scanned, once each; each other file counts as a module that uses
    no named tuple.
    """

    def __init__(self, transform: ModuleType, paths: list[str]) -> None:
        from . import _migrate_candidates, _migrate_scan

        self.transform = transform
        self.candidates = _migrate_candidates
        self.scanner = _migrate_scan
        self.paths = paths
        self.progress = _Progress(len(paths))
        self.problems: dict[str, str] = {}
        self.scans: dict[str, ModuleScan] = {}
        #: The sources the rewrite reads: those with a target.
        self.sources: dict[str, bytes] = {}
        #: Each file's module and package.
        self.names: dict[str, tuple[str, str]] = {}
        #: The files read and not parsed, with what their text says.
        self.unparsed: dict[str, Text | None] = {}

    def run(self) -> None:
        """
        Read every file; scan each candidate, until no file joins them; give
        the others empty scans. Problems and scans end in the order of the paths.
        """
        for path in self.paths:
            self._read(path)
        names = self.candidates.NAMED_TUPLE_NAMES
        while batch := self._named(names) or self._importers():
            self.progress.add(len(batch))
            for path in batch:
                self._scan(path)
                self.progress.step()
            names = self.candidates.names_to_find(self.scans.values())
        self.progress.end()
        for path in self.unparsed:
            self.scans[path] = self.transform.ModuleScan(path, self.names[path][0])
        order = {path: index for index, path in enumerate(self.paths)}
        self.problems = dict(sorted(self.problems.items(), key=lambda item: order[item[0]]))
        self.scans = dict(sorted(self.scans.items(), key=lambda item: order[item[0]]))

    def _read(self, path: str) -> None:
        try:
            self.names[path] = module_names(path)
            text = self.candidates.read(_source(path))
        except Exception as error:  # as the parse would be
            self.problems[path] = f"{path}: not migrated: {_one_line(error)}"
            return
        self.unparsed[path] = text

    def _named(self, names: frozenset[str]) -> list[str]:
        """Return the files not parsed whose text has any of *names*, or cannot be decoded."""
        return [
            path for path, text in self.unparsed.items() if text is None or text.names_any(names)
        ]

    def _importers(self) -> list[str]:
        """Return the files not parsed that import a name a rewrite may drop the import of."""
        dropped = {
            found.module: frozenset(found.first_names)
            for found in self.scans.values()
            if found.targets
        }
        return [
            path
            for path, text in self.unparsed.items()
            if text is not None
            and self.candidates.imports_dropped(text, self.names[path][1], dropped)
        ]

    def _scan(self, path: str) -> None:
        del self.unparsed[path]
        module, package = self.names[path]
        try:
            source = _source(path)
            found = self.scanner.scan(source, path, module, package)
        except SyntaxError as error:
            self.problems[path] = f"{path}: not migrated: {_syntax_error(source, error)}"
            return
        except Exception as error:  # any file that cannot be read is reported
            self.problems[path] = f"{path}: not migrated: {_one_line(error)}"
            return
        self.scans[path] = found
        if found.targets:
            self.sources[path] = source


class _Progress:
    """
    How far the reading is, on stderr, where the command runs over more
    than PROGRESS_FROM files: one line rewritten in place on a terminal,
    elsewhere a line each tenth of the files to scan.
    """

    def __init__(self, files: int) -> None:
        self.files = files
        self.shown = files > PROGRESS_FROM
        self.terminal = self.shown and sys.stderr.isatty()
        self.done = self.total = self.next = 0
        self.width = 0

    def add(self, files: int) -> None:
        """Count *files* more to scan."""
        self.total += files

    def step(self) -> None:
        """Count one file scanned, and show it where due."""
        self.done += 1
        if not self.shown:
            return
        text = (
            f"parsed {self.done} of {self.total} {_plural(self.total, 'file')} that may use a "
            f"named tuple (of {self.files})"
        )
        if self.terminal:
            sys.stderr.write(f"\r{text:<{self.width}}")
            self.width = max(self.width, len(text))
        elif self.done >= self.next or self.done == self.total:
            print(text, file=sys.stderr)
            self.next = self.done + max(1, self.total // 10)
        sys.stderr.flush()

    def end(self) -> None:
        """Clear the line shown on a terminal."""
        if self.terminal and self.width:
            sys.stderr.write(f"\r{' ' * self.width}\r")
            sys.stderr.flush()


class _Migration:
    """The second pass: each file rewritten, reported and written, with the counts."""

    def __init__(self, dry_run: bool, diff: bool) -> None:
        self.dry_run = dry_run
        self.diff = diff
        self.files = self.changes = self.left = 0
        self.failed = False

    def rewrite(
        self,
        transform: ModuleType,
        found: ModuleScan,
        decisions: Decisions,
        source: bytes | None,
    ) -> None:
        """
        Rewrite the module *found* by *decisions* (*source*: its source, None
        where it has nothing to rewrite), report each line, write it.
        """
        path = found.path
        outcome = transform.Outcome()
        new_source = b""
        if source is not None:
            try:
                new_source, outcome = transform.rewrite(source, found, decisions)
            except Exception as error:  # libcst's, or the check's: as in the first pass
                self._fail(path, error)
                return
        report = [(line, text) for line, text in outcome.changed]
        report += [(line, f"left {text}") for line, text in outcome.left + found.left]
        for line, text in sorted(report):
            print(f"{path}:{line}: {text}")
        self.left += len(outcome.left) + len(found.left)
        if source is None or not outcome.changed:
            return
        if self.diff:
            from ._migrate_source import encoding

            sys.stdout.writelines(_diff(path, source, new_source, encoding(source)))
        if not self.dry_run:
            try:
                with open(path, "wb") as file:
                    file.write(new_source)
            except OSError as error:
                self._fail(path, error)
                return
        self.files += 1
        self.changes += len(outcome.changed)

    def _fail(self, path: str, error: BaseException) -> None:
        print(f"{path}: not migrated: {_one_line(error)}")
        self.failed = True


def _source(path: str) -> bytes:
    with open(path, "rb") as file:
        return file.read()


def _syntax_error(source: bytes, error: SyntaxError) -> str:
    """
    Say why a file Python's parser refuses is not migrated: libcst's message
    where libcst refuses it too (it is not Python), else that this Python
    is older than the code.
    """
    import libcst

    try:
        libcst.parse_module(source)
    except Exception as libcst_error:
        return _one_line(libcst_error)
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    return (
        f"Python {version} cannot read it ({_one_line(error)}): run the command with "
        "the Python the code is written for"
    )


def _plural(count: int, word: str) -> str:
    return word if count == 1 else f"{word}s"


def _diff(path: str, old: bytes, new: bytes, encoding: str) -> list[str]:
    lines = difflib.unified_diff(
        old.decode(encoding, "replace").splitlines(keepends=True),
        new.decode(encoding, "replace").splitlines(keepends=True),
        fromfile=path,
        tofile=path,
    )
    # As diff and patch write a last line that has no newline.
    return [
        line if line.endswith("\n") else f"{line}\n\\ No newline at end of file\n"
        for line in lines
    ]


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__
