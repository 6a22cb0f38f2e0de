"""
``python -m records migrate PATH... [--dry-run] [--diff]``: move a code base
from ``typing.NamedTuple`` and ``collections.namedtuple`` to records.

Every ``.py`` file at or under the given paths is read first, so that a
subclass in one module keeps its base in another as it was when records
would change it; then each file is rewritten in place
(``records/_migrate_transform.py``, which needs libcst: ``pip install
'records-tuple[migrate]'``). The command reports, file by file and line by
line, what it changed and what it left, with the reason. Running it again
changes nothing.

Exit status: 0 when every file was read (whatever was left), 1 when a file
could not be read or parsed (the others are still migrated), 2 for a usage
error or a missing libcst.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

#: Folders never entered, besides hidden ones and virtual environments.
SKIPPED_FOLDERS = frozenset({"__pycache__", "node_modules", "site-packages", "build", "dist"})

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


def python_files(paths: list[str]) -> Iterator[tuple[str, str]]:
    """
    Yield ``(root, file)`` for each ``.py`` file at or under *paths*, in a
    stable order, each once; *root* is the folder its module name is counted
    from.
    """
    seen: set[str] = set()
    for root, path in _python_files(paths):
        if os.path.realpath(path) not in seen:
            seen.add(os.path.realpath(path))
            yield root, path


def _python_files(paths: list[str]) -> Iterator[tuple[str, str]]:
    for path in paths:
        if os.path.isfile(path):
            yield os.path.dirname(os.path.abspath(path)), path
            continue
        for folder, folders, files in os.walk(path):
            folders[:] = sorted(
                name
                for name in folders
                if not name.startswith(".")
                and name not in SKIPPED_FOLDERS
                and not os.path.exists(os.path.join(folder, name, "pyvenv.cfg"))
            )
            for name in sorted(files):
                if name.endswith(".py"):
                    yield path, os.path.join(folder, name)


def main(argv: list[str]) -> int:
    """Run the migration; return the exit status."""
    parser = _parser()
    arguments = parser.parse_args(argv)
    missing = [path for path in arguments.paths if not os.path.exists(path)]
    if missing:
        parser.error(f"no such file or folder: {missing[0]}")
    try:
        import libcst
    except ImportError:
        print(NEEDS_LIBCST, file=sys.stderr)
        return 2
    from libcst.helpers import calculate_module_and_package

    from . import _migrate_transform as transform

    status = 0
    parsed = []
    for root, path in python_files(arguments.paths):
        try:
            with open(path, "rb") as file:
                wrapper = transform.parse(file.read())
        except (OSError, libcst.ParserSyntaxError) as error:
            print(f"{path}: not migrated: {_one_line(error)}")
            status = 1
            continue
        names = calculate_module_and_package(os.path.abspath(root), os.path.abspath(path))
        parsed.append((path, wrapper, transform.scan(wrapper, path, names.name, names.package)))
    decisions = transform.decide([found for _, _, found in parsed])

    files = changes = left = 0
    for path, wrapper, found in parsed:
        new_source, outcome = transform.rewrite(wrapper, decisions.get(path, {}))
        report = [(line, text) for line, text in outcome.changed]
        report += [(line, f"left {text}") for line, text in outcome.left + found.left]
        for line, text in sorted(report):
            print(f"{path}:{line}: {text}")
        left += len(outcome.left) + len(found.left)
        if not outcome.changed:
            continue
        files += 1
        changes += len(outcome.changed)
        if arguments.diff:
            sys.stdout.writelines(_diff(path, wrapper.module.bytes, new_source))
        if not arguments.dry_run:
            with open(path, "wb") as file:
                file.write(new_source)
    verb = "would change" if arguments.dry_run else "changed"
    print(
        f"{verb} {changes} {_plural(changes, 'definition')} in {files} {_plural(files, 'file')}"
        f" of {len(parsed)}; left {left} (see above)."
    )
    if changes:
        print(AFTERWARDS)
    return status


def _plural(count: int, word: str) -> str:
    return word if count == 1 else f"{word}s"


def _diff(path: str, old: bytes, new: bytes) -> list[str]:
    return list(
        difflib.unified_diff(
            old.decode("utf-8", "replace").splitlines(keepends=True),
            new.decode("utf-8", "replace").splitlines(keepends=True),
            fromfile=path,
            tofile=path,
        )
    )


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__
