"""The optional C accelerator: when it is used, and what it does differently (nothing visible)."""

import contextlib
import os
import subprocess
import sys

import pytest

import records
from records import Record, _accelerator, _record, field

SUPPORTED = sys.implementation.name == "cpython" and (3, 10) <= sys.version_info[:2] <= (3, 15)
accelerated = pytest.mark.skipif(not records.ACCELERATED, reason=records.ACCELERATOR)


def _status(**environment):
    code = "import records; print(records.ACCELERATED); print(records.ACCELERATOR)"
    env = {**os.environ, **environment}
    output = subprocess.check_output([sys.executable, "-c", code], text=True, env=env)
    return output.splitlines()


def test_required_accelerator_is_used():
    """Where the build was required to compile it (tox), the default path uses it."""
    if not (os.environ.get("RECORDS_REQUIRE_ACCELERATOR") and SUPPORTED):
        pytest.skip("the accelerator is not required here")
    if _accelerator.is_on(os.environ.get("RECORDS_PURE_PYTHON")):
        assert not records.ACCELERATED
    else:
        assert records.ACCELERATED, records.ACCELERATOR


def test_environment_variable_forces_the_pure_path():
    """RECORDS_PURE_PYTHON=1 selects the pure-Python path and says so."""
    assert ["False", "pure Python (RECORDS_PURE_PYTHON is set)"] == _status(
        RECORDS_PURE_PYTHON="1"
    )


@pytest.mark.parametrize("value", ["1", "yes", " TRUE ", "on"])
def test_the_pure_path_switched_on(value):
    """RECORDS_PURE_PYTHON reads as RECORDS_NAMEDTUPLE does: 1, true, yes, on."""
    assert ["False", "pure Python (RECORDS_PURE_PYTHON is set)"] == _status(
        RECORDS_PURE_PYTHON=value
    )


@pytest.mark.parametrize("value", ["0", "false", "no", "off", "2"])
def test_the_pure_path_left_off(value):
    """Any other value leaves the accelerator on, and the status says how it read the variable."""
    accelerated_now, status = _status(RECORDS_PURE_PYTHON=value)
    if accelerated_now == "True":
        assert (
            f"C accelerator (records._accelerator_c); RECORDS_PURE_PYTHON={value!r} leaves it on"
            == status
        )
    else:  # no C module here: the reason is what is missing, not the variable
        assert status.startswith("pure Python (the C accelerator is not available")


def test_status_names_the_path():
    """records.ACCELERATOR names the path that is in use."""
    accelerated_now, status = _status(RECORDS_PURE_PYTHON="")
    if accelerated_now == "True":
        assert status == "C accelerator (records._accelerator_c)"
    else:
        assert status.startswith("pure Python")


@accelerated
class TestConstructor:
    """Calls take the C constructor; anything unusual goes through the Python one."""

    def test_installed(self):
        """A class statement gives the record the C constructor, which binds positions and keywords."""

        class Point(Record):
            x: int
            y: int = 0

        assert isinstance(vars(Point)["__new__"], _accelerator.c.Constructor)
        assert (1, 0) == Point(1)
        assert (1, 2) == Point(y=2, x=1)

    def test_keyword_names_need_not_be_interned(self):
        """A keyword built at run time (not interned) still finds its field."""

        class Point(Record):
            x: int
            y: int = 0

        name = "".join(["y"])
        assert (1, 5) == Point(1, **{name: 5})

    def test_field_names_need_not_be_interned(self):
        """Names made at run time work as keywords; the class keeps its own objects."""
        names = ["".join(["field", str(i)]) for i in range(3)]
        cls = Record.define("Runtime", [(name, int) for name in names], defaults={names[2]: 0})
        assert all(kept is made for kept, made in zip(cls._fields, names))
        assert (1, 2, 0) == cls(field1=2, field0=1)
        assert (1, 2, 3) == cls(1, **{"".join(["field", "2"]): 3, names[1]: 2})

    def test_factories_called_once_per_missing_field(self):
        """A factory runs once for each record that leaves its field out, and never when it is given."""
        calls = []

        def make():
            calls.append(1)
            return []

        class Bag(Record):
            name: str
            items: list = field(default_factory=make)

        first, second = Bag("a"), Bag("b")
        assert first.items is not second.items
        assert 2 == len(calls)
        Bag("c", ["given"])
        assert 2 == len(calls)

    def test_no_factory_runs_before_an_error(self):
        """A wrong call raises the Python message before any factory runs."""
        calls = []
        Bag = Record.define(
            "Bag",
            [("name", str), ("items", list)],
            defaults={"items": field(default_factory=lambda: calls.append(1) or [])},
        )
        with pytest.raises(TypeError, match="takes from 2 to 3 positional arguments"):
            Bag("a", [], "extra")
        with pytest.raises(TypeError, match="unexpected keyword argument 'size'"):
            Bag("a", size=1)
        with pytest.raises(TypeError, match="missing 1 required positional argument: 'name'"):
            Bag()
        with pytest.raises(TypeError, match="multiple values for argument 'name'"):
            Bag("a", name="b")
        assert [] == calls

    def test_factory_errors_propagate(self):
        """An exception raised by a factory reaches the caller unchanged."""

        def broken():
            raise LookupError("no default today")

        class Bag(Record):
            items: list = field(default_factory=broken)

        with pytest.raises(LookupError, match="no default today"):
            Bag()

    def test_init_assigned_later_is_called(self):
        """An __init__ assigned after the class statement is called, as type.__call__ would."""

        class Point(Record):
            x: int

        seen = []
        Point.__init__ = lambda self, *args, **kwargs: seen.append(args)
        Point(1)
        assert [(1,)] == seen

    def test_new_assigned_later_is_used(self):
        """A __new__ assigned after the class statement replaces the C constructor."""

        class Point(Record):
            x: int

        original = Point.__new__
        Point.__new__ = staticmethod(lambda cls, x: original(cls, x * 10))
        assert (30,) == Point(3)

    def test_metaclass_call_is_respected(self):
        """A metaclass __call__ is not bypassed: such classes keep the Python path."""
        import abc

        class Counting(abc.ABCMeta):
            calls = 0

            def __call__(cls, *args, **kwargs):
                Counting.calls += 1
                return super().__call__(*args, **kwargs)

        class Base(metaclass=Counting):
            pass

        class Point(Record, Base):
            x: int

        assert _accelerator.c.enable(Point) is False
        assert (1,) == Point(1)
        assert 1 == Counting.calls

    def test_subclass_without_fields(self):
        """A subclass that adds only methods builds instances of itself."""

        class Point(Record):
            x: int

        class Named(Point):
            def describe(self):
                return f"at {self.x}"

        assert "at 4" == Named(4).describe()
        assert Named is type(Named(4))

    def test_user_new_is_kept(self):
        """A __new__ written in the body is called instead of the C constructor."""

        class Tag(Record):
            name: str

            def __new__(cls, name):
                return super().__new__(cls, name.lower())

        assert not isinstance(vars(Tag)["__new__"], _accelerator.c.Constructor)
        assert ("x",) == Tag("X")

    def test_reference_counts_balance(self):
        """Every reference the constructor takes is given back with the record."""
        default, value, factory_result = object(), object(), object()

        class Point(Record):
            x: object
            y: object = default
            z: object = field(default_factory=lambda: factory_result)

        counts = [sys.getrefcount(o) for o in (default, value, factory_result)]
        for _ in range(1000):
            Point(value)
            Point(x=value, y=value)
            with contextlib.suppress(TypeError):
                Point(value, w=value)
        assert counts == [sys.getrefcount(o) for o in (default, value, factory_result)]

    def test_no_leak_on_any_path(self):
        """Good calls, bad calls and factory errors leave no memory behind."""
        from support.refleak_check import exercise  # the workload of the debug-build check

        exercise(5000)
        before = sys.getallocatedblocks()
        exercise(5000)
        assert sys.getallocatedblocks() - before < 200


@accelerated
def test_seal_is_done_in_c():
    """With the accelerator, instances have a tuple's size without importing _ctypes."""

    class Point(Record):
        x: int

    assert sys.getsizeof(Point(1)) == sys.getsizeof((1,))
    assert "_ctypes" not in sys.modules or not records.ACCELERATED


def test_signature_comes_from_the_python_constructor():
    """inspect.signature shows the generated __new__'s parameters and <factory>."""
    import inspect

    class Point(Record):
        x: int
        tags: list = field(default_factory=list)

    assert "(x: int, tags: list = <factory>)" == str(inspect.signature(Point))


class TestCTwins:
    """Where each Record method with a C twin gets it: where the method is defined."""

    @accelerated
    def test_marked_methods_are_method_descriptors_of_record(self):
        """Each method marked @c_twin is a C method descriptor of Record itself."""
        import inspect

        twins = _accelerator.c.record_methods(Record)
        assert {*twins, "__init_subclass__"} == set(_record.python_methods)
        for name, twin in twins.items():
            method = vars(Record)[name]
            assert type(twin) is type(method), name
            assert method.__objclass__ is Record
            assert f"Record.{name}" == method.__qualname__
            assert f"<method '{name}' of 'Record' objects>" == repr(method)
        assert "(self, /, **changes)" == str(inspect.signature(vars(Record)["_replace"]))

    @accelerated
    def test_only_a_method_with_a_c_twin_gets_one(self):
        """The C module has a twin for each marked method, and says so for any other name."""
        c = _accelerator.c
        assert repr(vars(Record)["_replace"]) == repr(c.record_method(Record, "_replace"))
        with pytest.raises(LookupError, match=r"^Record\.define has no C twin$"):
            c.record_method(Record, "define")
        with pytest.raises(TypeError, match=r"^record_method\(\) needs the Record class$"):
            c.record_method(int, "_replace")
        with pytest.raises(
            TypeError, match=r"^record_method\(\) takes the Record class and a name$"
        ):
            c.record_method(Record)

    @accelerated
    def test_init_subclass_is_the_c_class_builder(self):
        """Record.__init_subclass__ is the Builder's, the one that also builds records.namedtuple's classes."""
        builder = vars(Record)["__init_subclass__"].__func__.__self__
        assert type(builder) is _accelerator.c.Builder
        assert _accelerator.builder is builder  # where records.namedtuple finds it
        python = _record.python_methods["__init_subclass__"]
        assert "__init_subclass__" == python.__func__.__code__.co_name

    @accelerated
    def test_python_methods_do_what_their_twins_do(self):
        """The Python definitions, kept for the tests, give what the C twins give."""
        import copy

        class Point(Record):
            x: int
            y: list

        point = Point(1, [2])
        python = {
            name: method.__get__(point, Point) for name, method in _record.python_methods.items()
        }
        assert point._replace(y=3) == python["_replace"](y=3)
        assert point._asdict() == python["_asdict"]()
        assert repr(point) == python["__repr__"]()
        assert Point._make([1, 2]) == python["_make"]([1, 2])
        # The C twin also counts the room of the allocation only the C path makes.
        assert tuple.__sizeof__(point) == python["__sizeof__"]()
        assert copy.copy(point) == python["__copy__"]()
        assert copy.deepcopy(point) == python["__deepcopy__"](None)
        function, arguments = python["__reduce__"]()
        assert point == function(*arguments)

    def test_pure_path_keeps_the_python_methods(self):
        """On the pure-Python path, Record holds its Python methods, and nothing is kept aside."""
        code = (
            "from records import Record, _record\n"
            "print(_record.python_methods, type(vars(Record)['_replace']).__name__,"
            " type(vars(Record)['_make'].__func__).__name__,"
            " type(vars(Record)['__init_subclass__'].__func__).__name__)"
        )
        env = {**os.environ, "RECORDS_PURE_PYTHON": "1"}
        output = subprocess.check_output([sys.executable, "-c", code], text=True, env=env)
        assert "{} function function function" == output.strip()


FREE_THREADED = _accelerator.free_threaded()


@pytest.mark.skipif(not FREE_THREADED, reason="needs a free-threaded CPython (PEP 703)")
@pytest.mark.parametrize(
    "environment",
    [{}, {"RECORDS_NAMEDTUPLE": "1"}, {"RECORDS_PURE_PYTHON": "1"}],
    ids=["C accelerator", "opt-in", "pure Python"],
)
def test_importing_records_leaves_the_gil_off(environment):
    """
    On a free-threaded build with the GIL off, importing records (and the
    opt-in, which gives records.namedtuple to the standard library) keeps it
    off, with no warning, and the C accelerator is in use where it was built.
    """
    code = (
        "import sys, collections\n"
        "import records\n"
        "P = collections.namedtuple('P', 'x y')\n"
        "class R(records.Record):\n"
        "    x: int\n"
        "assert R(1) == (1,) and P(1, 2).y == 2\n"
        "print(sys._is_gil_enabled(), records.ACCELERATED)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("RECORDS_")}
    env.update(environment, PYTHON_GIL="0")
    result = subprocess.run(
        [sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, env=env
    )
    assert "" == result.stderr
    gil, accelerated = result.stdout.split()
    assert "False" == gil
    if os.environ.get("RECORDS_REQUIRE_ACCELERATOR"):
        assert str("RECORDS_PURE_PYTHON" not in environment) == accelerated
