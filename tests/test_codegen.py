"""Generated constructors: compiled once per shape, never from user text."""

import builtins
import linecache
import sys
import types

import pytest
from support.threads import run_in_threads

import records
from records import Record, _codegen, _precompiled, field


@pytest.fixture
def no_compiling(monkeypatch):
    """Make compile, exec and eval fail for the duration of a test."""

    def refuse(*args, **kwargs):
        msg = "compiled or executed code"
        raise AssertionError(msg)

    for name in ("compile", "exec", "eval"):
        monkeypatch.setattr(builtins, name, refuse)


class TestShapeCache:
    """A shape compiles once; later classes reuse its code."""

    def test_same_names_share_code(self):
        """Two classes with the same fields share one code object."""
        first = Record.define("First", [("alpha", int), ("beta", int)])
        second = Record.define("Second", [("alpha", str), ("beta", str)])
        assert first.__new__.__code__ is second.__new__.__code__

    def test_cache_hit_compiles_nothing(self, no_compiling):
        """A class statement whose shape is cached runs no compile/exec/eval."""

        class Warm(Record):  # same shape as the module-level Point below
            x: int
            y: int = 0

        assert (1, 0) == Warm(1)
        assert (3, 4) == records.namedtuple("Other", "x y")(3, 4)

    def test_new_names_same_arity_compile_nothing(self, no_compiling):
        """New names on a known arity only rename the cached template."""
        cls = Record.define("Renamed", [("kappa_unseen", int), ("lambda_unseen", int)])
        assert (1, 2) == cls(lambda_unseen=2, kappa_unseen=1)

    def test_regression_guard_compile_count(self, monkeypatch):
        """A new shape compiles exactly once; repeating it compiles nothing."""
        calls = []
        real_compile = builtins.compile

        def counting_compile(*args, **kwargs):
            calls.append(args[1])
            return real_compile(*args, **kwargs)

        monkeypatch.setattr(builtins, "compile", counting_compile)
        arity = 57  # a shape no other test uses
        Record.define("First", [(f"a{i}", int) for i in range(arity)])
        assert 1 == len(calls)
        Record.define("Again", [(f"a{i}", int) for i in range(arity)])
        Record.define("Renamed", [(f"b{i}", int) for i in range(arity)])
        assert 1 == len(calls), calls
        # records.namedtuple's __new__ reads its globals, a record's its
        # closure: a template of its own, compiled once too.
        records.namedtuple("Plain", [f"c{i}" for i in range(arity)])
        records.namedtuple("Again", [f"d{i}" for i in range(arity)])
        assert 2 == len(calls), calls

    def test_small_shapes_compile_nothing(self, monkeypatch, no_compiling):
        """Up to 12 fields without factories, the written-out templates serve."""
        monkeypatch.setattr(_codegen, "_templates", _codegen._BoundedCache(256))
        for arity in range(len(_precompiled.CODES)):
            cls = Record.define(f"Small{arity}", [(f"s{arity}_{i}", int) for i in range(arity)])
            assert tuple(range(arity)) == cls(*range(arity))
            assert "__new__" == cls.__new__.__code__.co_name

    @pytest.mark.parametrize("closure", [False, True])
    @pytest.mark.parametrize("arity", range(len(_precompiled.CODES)))
    def test_precompiled_equal_compiled(self, arity, closure):
        """Each written-out template has the bytecode the generator compiles."""
        written = _codegen._template(arity, (), closure)
        compiled = _codegen._compile_template(arity, (), closure)
        for attribute in (
            "co_code",
            "co_consts",
            "co_names",
            "co_varnames",
            "co_freevars",
            "co_argcount",
            "co_flags",
        ):
            assert getattr(compiled, attribute) == getattr(written, attribute), attribute
        assert "__new__" == written.co_name
        if sys.version_info >= (3, 11):
            assert "__new__" == written.co_qualname

    def test_factories_change_the_shape(self):
        """Fields with factories get their own code, distinct from plain ones."""

        class Plain(Record):
            a: int
            b: list = ()

        class WithFactory(Record):
            a: int
            b: list = field(default_factory=list)

        assert Plain.__new__.__code__ is not WithFactory.__new__.__code__
        assert (1, []) == WithFactory(1)

    def test_generated_source_has_no_user_text(self):
        """The compiled source uses placeholders, never field names."""

        class Secret(Record):
            password_field: int
            token_field: list = field(default_factory=list)

        code = Secret.__new__.__code__
        _codegen.register_sources()
        source = "".join(linecache.getlines(code.co_filename))
        assert "def __new__(_cls, _0, _1):" in source
        assert "password_field" not in source
        assert "token_field" not in source
        assert ("_cls", "password_field", "token_field") == code.co_varnames

    def test_source_registered_when_linecache_is_loaded(self):
        """A new template's source reaches linecache at once when it is loaded."""
        cls = Record.define("Wide", [(f"w{i}", int) for i in range(41)])
        code = cls.__new__.__code__
        lines = linecache.getlines(code.co_filename)
        assert lines[0] == "def _scope(_tuple_new, _owner, _incomplete):\n"
        assert lines[code.co_firstlineno - 1].startswith("    def __new__(_cls, _0, _1,")

    def test_traceback_shows_generated_line(self):
        """An error raised through a generated __new__ shows the template line."""
        import traceback

        def broken():
            raise RuntimeError

        cls = Record.define("Broken", [("x", int)], defaults={"x": field(default_factory=broken)})
        # The generated code run as Python runs it: cls() and cls.__new__(cls)
        # may take the C constructor, whose traceback has no line of it.
        new = cls.__new__
        code_run = types.FunctionType(
            new.__code__, new.__globals__, new.__name__, new.__defaults__, new.__closure__
        )
        try:
            code_run(cls)
        except RuntimeError:
            text = traceback.format_exc()
        assert "if _0 is _FACTORY: _0 = _factory_0()" in text

    def test_caches_are_bounded(self, monkeypatch):
        """The code cache never grows past its bound."""
        cache = _codegen._BoundedCache(8)
        monkeypatch.setattr(_codegen, "_codes", cache)
        for i in range(50):
            Record.define(f"R{i}", [(f"name_{i}", int)])
        assert len(cache) <= 8
        assert (1,) == Record.define("Again", [("name_3", int)])(1)


class TestHostileInput:
    """No field or type name is ever executed."""

    HOSTILE = [
        "x=__import__('os').system('echo hi')",
        "x):\n    import os\n    return os",
        "__import__('builtins').setattr(__import__('builtins'), 'PWNED', 1)",
        "x, y",
        "{x}",
        "a\nb",
        "'",
        "",
    ]

    @pytest.mark.parametrize("name", HOSTILE)
    def test_record_define(self, name):
        """Record.define refuses non-identifiers with ValueError."""
        with pytest.raises(ValueError, match="is not a valid identifier"):
            Record.define("Hostile", [(name, int)])
        with pytest.raises(ValueError, match="is not a valid identifier"):
            Record.define(name, [("x", int)])
        assert not hasattr(builtins, "PWNED")

    @pytest.mark.parametrize("name", HOSTILE)
    def test_namedtuple(self, name):
        """records.namedtuple refuses them as collections.namedtuple does."""
        with pytest.raises(ValueError):
            records.namedtuple("Hostile", [name])
        with pytest.raises(ValueError):
            records.namedtuple(name, ["x"])
        assert not hasattr(builtins, "PWNED")

    @pytest.mark.parametrize("name", HOSTILE)
    def test_class_annotations(self, name):
        """Annotations set by hand with hostile keys are refused."""
        with pytest.raises(ValueError):
            type("Hostile", (Record,), {"__annotations__": {name: int}})
        assert not hasattr(builtins, "PWNED")

    def test_hostile_rename_is_harmless(self):
        """With rename=True hostile names become positional names."""
        cls = records.namedtuple("Renamed", ["ok", "x=__import__('os')"], rename=True)
        assert ("ok", "_1") == cls._fields
        assert not hasattr(builtins, "PWNED")


@pytest.mark.starts_threads
class TestThreads:
    """Concurrent class creation gives correct, independent classes."""

    def test_many_threads(self):
        """Threads defining records of shared and distinct shapes agree."""

        def work(worker):
            for i in range(200):
                names = [f"f{j}" for j in range(i % 7)] + [f"w{worker}_{i % 13}"]
                cls = Record.define(f"T{worker}_{i}", [(name, int) for name in names])
                values = tuple(range(len(names)))
                record = cls(*values)
                assert tuple(names) == cls._fields
                assert values == record
                assert values == tuple(getattr(record, name) for name in names)
                nt = records.namedtuple(f"N{worker}", names)
                assert values == nt(**dict(zip(names, values)))

        assert [] == run_in_threads(work, 8)


class Point(Record):
    x: int
    y: int = 0
