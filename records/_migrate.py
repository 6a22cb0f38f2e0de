"""
``python -m records migrate PATH... [--dry-run] [--diff]``: move a code base
from ``typing.NamedTuple`` and ``collections.namedtuple`` to records.

Every ``.py`` file at or under the given paths is read first, so that a
subclass in one module keeps its base in another as it was when records
would change it; then each file is read again and rewritten in place
(``records/_migrate_transform.py``, which needs libcst: ``pip install
'records-tuple[migrate]'``). The command reports, file by file and line by
line, what it changed and what it left, with the reason. Running it again
changes nothing.

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

    from libcst.metadata import MetadataWrapper

    from ._migrate_transform import Decisions, ModuleScan

#: Folders never entered, besides hidden ones and virtual environments.
SKIPPED_FOLDERS = frozenset({"__pycache__", "node_modules", "site-packages"})
#: Folders entered only where they are packages of the code.
BUILD_FOLDERS = frozenset({"build", "dist"})

NEEDS_LIBCST = "python -m records migrate needs libcst: pip install 'records-tuple[migrate]'"

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
    scans = {}
    for path in paths:
        try:
            module, package = module_names(path)
            scans[path] = transform.scan(_parse(transform, path), path, module, package)
        except Exception as error:  # any file libcst cannot read is reported
            problems.append(f"{path}: not migrated: {_one_line(error)}")
    for line in problems:
        print(line)
    decisions = transform.decide(list(scans.values()))
    migration = _Migration(arguments.dry_run, arguments.diff)
    for path, found in scans.items():
        migration.rewrite(transform, path, found, decisions[path])
    verb = "would change" if arguments.dry_run else "changed"
    changes, files = migration.changes, migration.files
    print(
        f"{verb} {changes} {_plural(changes, 'definition')} in {files} {_plural(files, 'file')}"
        f" of {len(paths)}; left {migration.left} (see above)."
    )
    if changes:
        print(AFTERWARDS)
    return 1 if problems or migration.failed else 0


class _Migration:
    """The second pass: each file rewritten, reported and written, with the counts."""

    def __init__(self, dry_run: bool, diff: bool) -> None:
        self.dry_run = dry_run
        self.diff = diff
        self.files = self.changes = self.left = 0
        self.failed = False

    def rewrite(
        self, transform: ModuleType, path: str, found: ModuleScan, decisions: Decisions
    ) -> None:
        """Rewrite the file at *path* by *decisions*, report each line, write it."""
        try:
            wrapper = _parse(transform, path)
            new_source, outcome = transform.rewrite(wrapper, decisions)
        except Exception as error:  # as in the first pass
            self._fail(path, error)
            return
        report = [(line, text) for line, text in outcome.changed]
        report += [(line, f"left {text}") for line, text in outcome.left + found.left]
        for line, text in sorted(report):
            print(f"{path}:{line}: {text}")
        self.left += len(outcome.left) + len(found.left)
        if not outcome.changed:
            return
        if self.diff:
            encoding = wrapper.module.encoding
            sys.stdout.writelines(_diff(path, wrapper.module.bytes, new_source, encoding))
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


def _parse(transform: ModuleType, path: str) -> MetadataWrapper:
    with open(path, "rb") as file:
        return transform.parse(file.read())  # type: ignore[no-any-return]


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
