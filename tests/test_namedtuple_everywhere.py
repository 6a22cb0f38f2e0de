"""
The opt-in that makes records.namedtuple serve every named tuple of a
process: ``records.use_for_namedtuple()`` and its undo, ``RECORDS_NAMEDTUPLE``
read at start-up by the ``.pth`` file an install of records puts into
site-packages, and CPython's own test suites of modules that make named
tuples, run with the opt-in on (each interpreter inherits
``RECORDS_PURE_PYTHON``, so this runs on the path of the suite).
"""

import collections
import contextlib
import importlib.util
import os
import subprocess
import sys
import typing

import pytest
from support.opt_in import pth_installed

import records
from records._accelerator import is_on

installed = pytest.mark.skipif(
    not pth_installed(),
    reason="records_namedtuple.pth comes with an install of records (a wheel or editable)",
)


def python(code, opt_in=None, flags=()):
    """Run *code* in a fresh interpreter, RECORDS_NAMEDTUPLE set to *opt_in* (or unset)."""
    environment = {k: v for k, v in os.environ.items() if k != "RECORDS_NAMEDTUPLE"}
    if opt_in is not None:
        environment["RECORDS_NAMEDTUPLE"] = opt_in
    result = subprocess.run(
        [sys.executable, *flags, "-c", code],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    assert 0 == result.returncode, result.stderr
    return result.stdout


def made_by_records(cls) -> bool:
    """Whether named tuple class *cls* was made by records.namedtuple (its __new__'s code)."""
    return "records" in cls.__new__.__code__.co_filename


class TestInProcess:
    """use_for_namedtuple() and restore_namedtuple()."""

    def test_use_and_restore(self):
        """collections.namedtuple and typing.NamedTuple build with records until restored."""
        original = collections.namedtuple
        try:
            records.use_for_namedtuple()
            records.use_for_namedtuple()  # again: nothing more
            assert collections.namedtuple is records.namedtuple
            Point = collections.namedtuple("Point", "x y")

            class Typed(typing.NamedTuple):
                x: int
                y: str = "y"

            assert made_by_records(Point) and made_by_records(Typed)
            assert (Typed(1), "Typed") == ((1, "y"), Typed.__name__)
            assert __name__ == Point.__module__ == Typed.__module__
        finally:
            records.restore_namedtuple()
        assert collections.namedtuple is original
        records.restore_namedtuple()  # again: nothing to undo
        assert collections.namedtuple is original
        assert not made_by_records(collections.namedtuple("Point", "x y"))


@installed
class TestAtStartUp:
    """RECORDS_NAMEDTUPLE, read by records_namedtuple.pth as Python starts."""

    CHECK = (
        "import sys; loaded = 'records' in sys.modules\n"
        "import collections, records, typing, urllib.parse\n"
        "base = urllib.parse.SplitResult.__mro__[1]\n"
        "print(loaded, collections.namedtuple is records.namedtuple,\n"
        "      'records' in base.__new__.__code__.co_filename)\n"
    )

    @pytest.mark.parametrize("value", [None, "", "0", "false", "no", "off", " 0", "2"])
    def test_off(self, value):
        """Unset, or not 1/true/yes/on: nothing changes, and records is not even imported."""
        assert not is_on(value)
        assert "False False False\n" == python(self.CHECK, opt_in=value)

    @pytest.mark.parametrize("value", ["1", "yes", "True", " on "])
    def test_on(self, value):
        """Set: the standard library's own named tuples are records', records loaded by the first."""
        assert is_on(value)
        assert "False True True\n" == python(self.CHECK, opt_in=value)

    def test_on_loads_nothing_until_a_named_tuple_is_built(self):
        """Neither records nor collections at start-up; collections alone loads no records."""
        output = python(
            "import sys\n"
            "print(sorted(m for m in sys.modules if 'records' in m or m == 'collections'))\n"
            "import collections\n"
            "loaders = {type(collections.__loader__), type(collections.__spec__.loader)}\n"
            "finders = [f for f in sys.meta_path if type(f).__module__ == '_records_namedtuple']\n"
            "print('records' in sys.modules, collections.namedtuple.__name__, finders,\n"
            "      any(loader.__module__ == '_records_namedtuple' for loader in loaders))\n"
            "P = collections.namedtuple('P', 'x y', defaults=[2])\n"
            "import records, pickle\n"
            "print(collections.namedtuple is records.namedtuple, P.__module__, P(1),\n"
            "      pickle.loads(pickle.dumps(P(1))) == P(1))\n",
            opt_in="1",
        )
        # Once collections is imported, the finder is gone and its loader is its own again.
        assert [
            "['_records_namedtuple']",
            "False namedtuple [] False",
            "True __main__ P(x=1, y=2) True",
        ] == output.splitlines()
        assert made_by_records(collections.namedtuple("Q", "a")) is False  # this process: off

    def test_importing_records_puts_it_in_at_once(self):
        """Imported before or after collections, records takes over without waiting for a call."""
        check = "print(collections.namedtuple is records.namedtuple)"
        assert "True\n" == python(f"import records, collections; {check}", opt_in="1")
        assert "True\n" == python(f"import collections, records; {check}", opt_in="1")

    def test_taken_before_the_first_call_it_follows_the_switch(self):
        """A module's ``from collections import namedtuple`` stand-in builds as the opt-in says."""
        output = python(
            "from collections import namedtuple\n"
            "import records\n"
            "def who(cls): return 'records' in cls.__new__.__code__.co_filename\n"
            "A = namedtuple('A', 'x'); records.restore_namedtuple()\n"
            "B = namedtuple('B', 'x'); records.use_for_namedtuple()\n"
            "C = namedtuple('C', 'x', module='elsewhere')\n"
            "print(who(A), who(B), who(C), A.__module__, B.__module__, C.__module__)\n",
            opt_in="1",
        )
        assert "True False True __main__ __main__ elsewhere\n" == output

    def test_installed_after_collections_is_imported(self):
        """install() with collections imported already: the stand-in at once, records not loaded."""
        output = python(
            "import collections, sys, _records_namedtuple\n"
            "_records_namedtuple.install(); _records_namedtuple.install()\n"
            "stand_in = collections.namedtuple\n"
            "finders = [f for f in sys.meta_path if type(f).__module__ == '_records_namedtuple']\n"
            "print(stand_in.__module__, 'records' in sys.modules, finders)\n"
            "P = collections.namedtuple('P', 'x')\n"
            "import records\n"
            "print(collections.namedtuple is records.namedtuple, P.__module__)\n"
        )
        assert "_records_namedtuple False []\nTrue __main__\n" == output

    def test_restored_before_the_first_call(self):
        """restore_namedtuple() before any named tuple: collections' own function, for good."""
        output = python(
            "import collections, records\n"
            "records.restore_namedtuple()\n"
            "print(collections.namedtuple.__module__, collections.namedtuple is not records.namedtuple)\n",
            opt_in="1",
        )
        assert "collections True\n" == output

    def test_records_that_cannot_load_leaves_the_opt_in_off(self):
        """If records fails to import at the first call, it says so and collections builds."""
        output = python(
            "import sys; sys.modules['records'] = None; sys.stderr = sys.stdout\n"
            "import collections\n"
            "P = collections.namedtuple('P', 'x')\n"
            "print(P(1), P.__module__, collections.namedtuple.__module__)\n",
            opt_in="1",
        )
        said, made = output.splitlines()
        assert said.startswith("RECORDS_NAMEDTUPLE: records did not load: ModuleNotFoundError(")
        assert "P(x=1) __main__ collections" == made

    @pytest.mark.parametrize(
        "module", ["collections", "reprlib", "keyword", "operator", "copyreg"]
    )
    def test_a_project_module_named_like_the_standard_library(self, module, tmp_path):
        """
        A project's own module that shadows one the opt-in touches: the
        interpreter starts, and a project's collections.py imports as it would
        without the opt-in.
        """
        (tmp_path / f"{module}.py").write_text("NAME = 'mine'\n")
        environment = {**os.environ, "RECORDS_NAMEDTUPLE": "1", "PYTHONPATH": str(tmp_path)}
        result = subprocess.run(
            [sys.executable, "-c", f"import {module}; print(1, {module}.NAME)"],
            env=environment,
            capture_output=True,
            text=True,
            check=False,
        )
        assert (0, "1 mine\n", "") == (result.returncode, result.stdout, result.stderr)

    @pytest.mark.parametrize("flag", ["-E", "-I"])
    def test_ignored_with_the_environment(self, flag):
        """-E and -I, which make Python ignore its PYTHON* variables, leave it off."""
        assert "False False False\n" == python(self.CHECK, opt_in="1", flags=[flag])


#: CPython's test suites of modules that make or use named tuples, with
#: test_collections (namedtuple itself) and test_typing (typing.NamedTuple),
#: in groups run at once: test_os and test_selectors each spend most of their
#: 14 seconds waiting, so each runs beside the rest.
STDLIB_SUITES = (
    ("test_os",),
    ("test_selectors",),
    (
        "test_collections",
        "test_typing",
        "test_inspect",
        "test_urlparse",
        "test_sched",
        "test_functools",
        "test_platform",
        "test_tokenize",
        "test_doctest",
        "test_pydoc",
        "test_enum",
        "test_copy",
    ),
)

#: The one case of those suites left out: on 3.10 it starts pydoc's server
#: and then only waits out its 30-second timeout (3.11's version stops it at
#: once); it makes no named tuple.
IDLE_CASES = ("test.test_pydoc.PydocServerTest.test_server",) if sys.version_info < (3, 11) else ()


@pytest.mark.slow
@installed
@pytest.mark.skipif(
    importlib.util.find_spec("test.libregrtest") is None, reason="no CPython test suite here"
)
def test_cpython_suites_with_the_opt_in(tmp_path):
    """CPython's own tests of these modules pass in a process where the opt-in is on."""
    environment = {**os.environ, "RECORDS_NAMEDTUPLE": "1"}
    outputs = [tmp_path / f"group-{index}.txt" for index in range(len(STDLIB_SUITES))]
    ignored = [option for case in IDLE_CASES for option in ("--ignore", case)]
    statuses = []
    with contextlib.ExitStack() as stack:
        runs = [
            subprocess.Popen(
                [sys.executable, "-m", "test", "-q", *ignored, *group],
                env=environment,
                stdout=stack.enter_context(output.open("w")),
                stderr=subprocess.STDOUT,
            )
            for group, output in zip(STDLIB_SUITES, outputs)
        ]
        statuses = [run.wait(timeout=1200) for run in runs]
    for group, status, output in zip(STDLIB_SUITES, statuses, outputs):
        text = output.read_text()
        assert 0 == status, f"{group}:\n{text[-6000:]}"
        assert "Tests result: SUCCESS" in text, group  # the summary line of every version
