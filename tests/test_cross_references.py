"""
Every file, and every definition in a file, that a comment or a docstring
names exists (the shapes: ``tests/support/cross_references.py``).
"""

import re
import textwrap
from pathlib import Path

from support.cross_references import broken, references, sources

ROOT = Path(__file__).parent.parent

#: Broken on purpose, each with the reason (and checked to be still broken);
#: without the line, which edits elsewhere in the file move.
KNOWN_BROKEN: set[str] = set()


def without_line(problem):
    """'file:12: what' as 'file: what'."""
    return re.sub(r"^([^:]+):\d+: ", r"\1: ", problem)


def test_every_cross_reference_points_at_something():
    """Each file and definition named in a comment or docstring is there."""
    found = [problem for problem in broken(ROOT) if without_line(problem) not in KNOWN_BROKEN]
    assert [] == found, "\n".join(found)


def test_known_broken_ones_are_still_broken():
    """An entry of KNOWN_BROKEN goes once its pointer works."""
    assert set() == KNOWN_BROKEN - {without_line(problem) for problem in broken(ROOT)}


def test_every_shape_is_read_in_the_tree():
    """Each shape occurs in the sources, so a change that stops finding one fails."""
    found = [reference for path in sources(ROOT) for reference in references(ROOT, path)]
    kinds = {
        "a module's attribute": [r for r in found if r.module],
        "a definition in a file": [r for r in found if r.file and r.name],
        "a path": [r for r in found if r.file and "/" in r.file and not r.name],
        "a file named alone": [r for r in found if r.file and "/" not in r.file and not r.name],
        "a header in C": [
            r for r in found if r.source.endswith(".h") and r.file and "/" not in r.file
        ],
    }
    assert [] == [kind for kind, these in kinds.items() if not these]
    assert len(found) > 200


def write(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")


TARGETS = {
    "records/_builder.py": '''
        """The class builder."""
        import sys

        LIMIT = 3


        def finish(cls):
            def inner():
                pass


        class Parts:
            size = 0

            def write(self):
                pass
        ''',
    "records/_c/builder.h": """
        /* The C twin of finish() in records/_builder.py. */
        #define BUILDER_FIELDS(X) X

        static PyObject *
        build_record(PyObject *self)
        {
            return NULL;
        }

        static PyMethodDef builder_methods[] = {
            {"build", build_record, METH_NOARGS, "build() -> None"},
        };
        """,
}


def test_good_pointers_pass(tmp_path):
    """Pointers of every shape to what exists: none is reported."""
    write(tmp_path, TARGETS)
    write(
        tmp_path,
        {
            "tests/test_good.py": '''
                """
                ``finish()`` in ``records/_builder.py``, `Parts.write` in
                `records/_builder.py`, ``inner`` in ``records/_builder.py``,
                ``_builder.LIMIT``, records._builder.Parts.size, and
                ``records/_c/builder.h:3-5``.
                """
                # build_record() in records/_c/builder.h, BUILDER_FIELDS in
                # records/_c/builder.h, the header ``builder.h``;
                # _collections._tuplegetter is CPython's.
                ''',
            "docs/pages/guide.md": "See `build` in `builder.h` and `tests/`.\n",
        },
    )
    assert [
        "docs/pages/guide.md:1: tests/",
        "docs/pages/guide.md:1: build in builder.h",
        "records/_c/builder.h:1: finish in records/_builder.py",
        "tests/test_good.py:2: finish in records/_builder.py",
        "tests/test_good.py:3: Parts.write in records/_builder.py",
        "tests/test_good.py:3: inner in records/_builder.py",
        "tests/test_good.py:4: LIMIT in _builder",
        "tests/test_good.py:4: Parts.size in records._builder",
        "tests/test_good.py:5: records/_c/builder.h:3-5",
        "tests/test_good.py:7: build_record in records/_c/builder.h",
        "tests/test_good.py:8: BUILDER_FIELDS in records/_c/builder.h",
        "tests/test_good.py:8: builder.h",
        "tests/test_good.py:9: _tuplegetter in _collections",
    ] == [str(found) for path in sources(tmp_path) for found in references(tmp_path, path)]
    assert [] == broken(tmp_path)


def test_broken_pointers_are_reported_with_file_and_line(tmp_path):
    """Each pointer to a missing file, line or definition is reported where it is."""
    write(tmp_path, TARGETS)
    write(
        tmp_path,
        {
            "tests/test_broken.py": '''
                """``start()`` in ``records/_builder.py``; `Parts.read` in `records/_builder.py`."""
                # records/_c/builder.h:99 and records/_gone.py
                # _builder.missing, records._gone.x
                # build_records() in records/_c/builder.h, ``gone.h``
                def f():
                    pass  # inner in records/_builder.py is no pointer: only name() is
                ''',
            "records/_c/record.h": "/* See sealing.h, and NO_SUCH_MACRO in builder.h. */\n",
        },
    )
    assert [
        "records/_c/record.h:1: sealing.h: no such file",
        "records/_c/record.h:1: NO_SUCH_MACRO in builder.h: not defined there",
        "tests/test_broken.py:1: start in records/_builder.py: not defined there",
        "tests/test_broken.py:1: Parts.read in records/_builder.py: not defined there",
        "tests/test_broken.py:2: records/_c/builder.h:99: the file has 12 lines",
        "tests/test_broken.py:2: records/_gone.py: no such file",
        "tests/test_broken.py:3: missing in _builder: not defined in records/_builder.py",
        "tests/test_broken.py:3: x in records._gone: no module records._gone",
        "tests/test_broken.py:4: build_records in records/_c/builder.h: not defined there",
        "tests/test_broken.py:4: gone.h: no such file",
    ] == broken(tmp_path)


def test_lookalikes_are_not_pointers(tmp_path):
    """Patterns, prose and other projects' files are not read as pointers."""
    write(
        tmp_path,
        {
            "records/_x.py": '''
                """
                records are tuples; records/_c/<name>.h mirrors records/_<name>.py;
                ``records/_accelerator_c*.so``; a `row_*` function in a file;
                Include/object.h and ``ctypes/__init__.py``; self._fields.index;
                what a test in tests.py does; python your_program.py
                """
                ''',
        },
    )
    assert [] == references(tmp_path, tmp_path / "records" / "_x.py")
