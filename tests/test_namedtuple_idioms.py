"""
records.namedtuple does what collections.namedtuple does where a class, a
subclass or the process changes what the methods rely on: each test runs the
same steps with both factories and compares what they give (with the C
accelerator, records' methods are C functions that must notice each change).
"""

import collections
import copy
import copyreg
import gc
import inspect
import pickle
import re
import sys
import types
import weakref

import pytest

import records
from tests.support.platform_marks import cpython_only

FACTORIES = [collections.namedtuple, records.namedtuple]


def outcome(step):
    """What *step*() gives: its result's repr, or its exception's type and text."""
    try:
        return repr(step())
    except Exception as error:
        return f"{type(error).__name__}: {error}"


def same_outcomes(scenario):
    """Assert that *scenario*(factory) gives the same outcomes with both factories."""
    expected, actual = (scenario(factory) for factory in FACTORIES)
    assert expected == actual


@cpython_only
@pytest.mark.parametrize(
    "keep_alive",
    [
        "P.ORIGIN = P(0, 0)",
        "P.__new__.__defaults__ = (P(0, 0),)",
        "class Q(P):\n    __slots__ = ()\nQ.ZERO = Q(0, 0)\nP.Q = Q",
    ],
)
def test_classes_in_cycles_through_instances_are_freed(keep_alive):
    """The collector sees an instance's reference to its class, as for collections'."""
    refs = []
    for _ in range(20):
        namespace = {"P": records.namedtuple("P", "x y")}
        exec(keep_alive, namespace)
        refs.append(weakref.ref(namespace["P"]))
        del namespace
    gc.collect()
    assert [] == [ref for ref in refs if ref() is not None]


@pytest.mark.parametrize("change", ["assign", "delete"])
def test_make_and_replace_after_repr_changes(change):
    """A class's own __repr__, set or deleted later, leaves _make and _replace working."""

    def scenario(factory):
        P = factory("P", "x y")
        if change == "assign":
            P.__repr__ = lambda self: "custom"
        else:
            del P.__repr__
        return [outcome(lambda: tuple(P._make([1, 2]))), outcome(lambda: P(1, 2)._replace(x=3))]

    same_outcomes(scenario)


def test_typing_namedtuple_with_its_own_repr_under_the_opt_in():
    """typing.NamedTuple sets a body's __repr__ on the class: its methods still work."""
    try:
        records.use_for_namedtuple()
        import typing

        class Labelled(typing.NamedTuple):
            x: int
            y: int = 0

            def __repr__(self):
                return f"<{self.x}>"

        assert "<3>" == repr(Labelled._make([1, 2])._replace(x=3))
    finally:
        records.restore_namedtuple()


def copies(value):
    """copy.copy and copy.deepcopy of *value*, as outcomes."""
    return [outcome(lambda: copy.copy(value)), outcome(lambda: copy.deepcopy(value))]


def test_copy_honours_what_the_class_changes():
    """copy uses a class's new __getnewargs__, __new__ or __reduce__, or its deletion."""

    def scenario(factory):
        results = []
        P = factory("P", "x y")
        P.__getnewargs__ = lambda self: (0, 0)
        results += copies(P(1, 2))
        P = factory("P", "x y")
        P.__new__ = staticmethod(lambda cls, x, y: tuple.__new__(cls, (y, x)))
        results += copies(P(1, 2))
        P = factory("P", "x y")
        P.__reduce__ = lambda self: (str, ("reduced",))
        results += copies(P(1, 2))
        P = factory("P", "x y")
        del P.__getnewargs__
        results += copies(P(1, 2))
        return results

    same_outcomes(scenario)


def test_copy_honours_changes_made_after_a_first_copy():
    """
    What the class (or its base) changes after its instances were first
    copied and reduced for pickle counts: records' C methods remember what they checked
    only while the class is unchanged.
    """

    def scenario(factory):
        results = []
        for change in (
            lambda cls: setattr(cls, "__getnewargs__", lambda self: (0, 0)),
            lambda cls: setattr(cls, "__reduce__", lambda self: (str, ("reduced",))),
            lambda cls: copyreg.pickle(cls, lambda p: (str, ("via copyreg",))),
        ):
            P = factory("P", "x y")

            class Sub(P):
                __slots__ = ()

            for cls in (P, Sub):
                value = cls(1, 2)
                results += copies(value) + [outcome(lambda v=value: v.__reduce_ex__(2))]
            change(P)
            for cls in (P, Sub):
                value = cls(1, 2)
                results += copies(value) + [outcome(lambda v=value: v.__reduce_ex__(2))]
            copyreg.dispatch_table.pop(P, None)
        return results

    same_outcomes(scenario)


def test_copy_honours_copyreg():
    """A reducer registered with copyreg for the class is what copy uses."""

    def scenario(factory):
        P = factory("P", "x y")
        copyreg.pickle(P, lambda p: (str, ("via copyreg",)))
        try:
            return copies(P(1, 2))
        finally:
            del copyreg.dispatch_table[P]

    same_outcomes(scenario)


def test_copy_and_pickle_of_subclasses_that_change_them():
    """A subclass's own __iter__, __reduce__ (a str too) or instance attributes count."""

    def scenario(factory):
        P = factory("P", "x y")

        class Reversed(P):
            __slots__ = ()

            def __iter__(self):
                return iter((self.y, self.x))

        class Named(P):
            __slots__ = ()

            def __reduce__(self):
                return "Named"

        class WithDict(P):
            pass

        with_dict = WithDict(1, 2)
        with_dict.extra = [3]
        return [
            *copies(Reversed(1, 2)),
            outcome(lambda: Reversed(1, 2).__reduce_ex__(2)),
            *copies(Named(1, 2)),
            outcome(lambda: Named(1, 2).__reduce_ex__(4)),
            *copies(with_dict),
            outcome(lambda: copy.copy(with_dict).extra),
            outcome(lambda: with_dict.__reduce_ex__(2)[2]),
        ]

    same_outcomes(scenario)


def test_reduce_ex_as_objects():
    """__reduce_ex__ gives what object's gives, for every protocol, with its errors."""

    def scenario(factory):
        P = factory("P", "x y")
        reduced = [outcome(lambda p=p: P(1, [2]).__reduce_ex__(p)) for p in range(6)]
        return [
            [text.replace(f"{id(P):#x}", "P") for text in reduced],
            outcome(lambda: P(1, 2).__reduce_ex__("2")),
            outcome(lambda: P(1, 2).__reduce_ex__()),
        ]

    expected, actual = (scenario(factory) for factory in FACTORIES)
    assert expected[0] == actual[0]
    assert expected[1].split(":")[0] == actual[1].split(":")[0]  # TypeError
    assert expected[2].split(":")[0] == actual[2].split(":")[0]


def test_make_and_replace_follow_the_class_changes():
    """_replace calls the class's new _make, or fails without one; _make calls len()."""

    class Key(str):
        __slots__ = ()

        def __hash__(self):
            return 1

    def scenario(factory):
        P = factory("P", "x y")
        P._make = classmethod(lambda cls, iterable: ("mine", tuple(iterable)))
        results = [outcome(lambda: P(1, 2)._replace(x=9))]
        P = factory("P", "x y")
        del P._make
        results.append(outcome(lambda: P(1, 2)._replace(x=9)))
        P = factory("P", "x y")

        class Short(P):
            __slots__ = ()

            def __len__(self):
                return 1

        class Open(P):
            pass

        opened = Open(1, 2)
        opened._make = lambda iterable: ("instance", tuple(iterable))
        results += [
            outcome(lambda: Short._make([1, 2])),
            outcome(lambda: P(1, 2)._replace(**{Key("x"): 5})),
            outcome(lambda: P(**{Key("x"): 5, "y": 6})),
            outcome(lambda: opened._replace(y=7)),
            outcome(lambda: P._make(iterable=[3, 4])),
            str(inspect.signature(P._make)),
        ]
        return results

    same_outcomes(scenario)


def test_make_of_a_base_reads_its_own_field_count():
    """super()._make of a named tuple base is that base's, with its own field count."""

    def scenario(factory):
        Two, Three = factory("Two", "a b"), factory("Three", "a b c")

        class Both(Three, Two):
            __slots__ = ()

        return [
            outcome(lambda: tuple(super(Three, Both)._make([1, 2]))),
            outcome(lambda: tuple(Both._make([1, 2, 3]))),
            outcome(lambda: tuple(super(Three, Both)._make([1, 2, 3]))),
        ]

    same_outcomes(scenario)


@pytest.mark.skipif(sys.version_info < (3, 12), reason="sys._getframemodulename is 3.12+")
@pytest.mark.parametrize("module", ["", 0, None])
def test_caller_module_that_is_false(module):
    """A caller whose module name is false gets '__main__', as with collections."""

    def make(factory):
        return factory("P", "x").__module__

    make.__module__ = module
    same_outcomes(make)


def test_caller_module_without_getframemodulename(monkeypatch):
    """Without sys._getframemodulename, the caller's globals name the module."""
    monkeypatch.delattr(sys, "_getframemodulename", raising=False)
    same_outcomes(lambda factory: factory("P", "x").__module__)


def test_str_subclass_names_after_equal_names_were_seen():
    """A str subclass field name is refused even once an equal name was checked."""

    class Name(str):
        __slots__ = ()

        def __str__(self):
            return self

    def scenario(factory):
        factory("Seen", "x")
        return outcome(lambda: factory("P", [Name("x")]))

    same_outcomes(scenario)


def test_methods_pickle_as_collections_do():
    """collections' methods are Python functions of their class: pickled by name as theirs are."""

    def scenario(make):
        P = make("Found", "a b")
        globals()["Found"] = P
        try:
            methods = [vars(P)[name] for name in METHOD_NAMES if name != "_make"]
            methods += [vars(P)["_make"].__func__, P._make, P(1, 2)._replace]
            outcomes = [outcome(lambda m=m: pickle.loads(pickle.dumps(m))) for m in methods]
            # The module of the functions is their file's, as inspect.getfile says.
            return [
                re.sub(r" at 0x[0-9a-f]+", "", text).replace("records._namedtuple", "collections")
                for text in outcomes
            ]
        finally:
            globals()["Found"] = Found

    same_outcomes(scenario)


def test_make_is_a_classmethod_that_binds_once():
    """
    _make is a classmethod to every check, whose binding to its own class is
    made once (records); it binds anew to a subclass, and pickles, alone,
    not at all (CPython cannot pickle a classmethod), and by value as a
    classmethod.
    """
    P = records.namedtuple("P", "x y")

    class Sub(P):
        __slots__ = ()

    make = vars(P)["_make"]
    assert isinstance(make, classmethod)
    assert [a.kind for a in inspect.classify_class_attrs(P) if a.name == "_make"] == [
        "class method"
    ]
    assert (P._make.__self__, Sub._make.__self__) == (P, Sub)
    assert type(Sub._make([1, 2])) is Sub
    assert make.__get__(None, Sub).__self__ is Sub
    assert make.__get__(P(1, 2)).__self__ is P
    if records.ACCELERATED:
        assert P._make is P._make
    assert Sub._make is not Sub._make
    if sys.implementation.name == "cpython":  # PyPy pickles a classmethod
        with pytest.raises((TypeError, pickle.PicklingError)):
            pickle.dumps(make)
    if records.ACCELERATED:  # what cloudpickle and dill make of it, pickling a class by value
        rebuild, arguments = make.__reduce__()
        rebuilt = rebuild(*arguments)
        assert (type(rebuilt), rebuilt.__func__) == (classmethod, make.__func__)


#: The methods collections.namedtuple writes in Python.
METHOD_NAMES = ("_make", "_replace", "__repr__", "_asdict", "__getnewargs__")


def test_methods_are_functions_as_collections_are():
    """
    inspect sees Python functions, of records' file, named for their class:
    what rich checks (inspect.getfile of __repr__) and signatures read.
    """

    def scenario(make):
        P = make("P", "x y")
        p = P(1, 2)
        functions = [getattr(vars(P)[name], "__func__", vars(P)[name]) for name in METHOD_NAMES]
        return [
            [inspect.isfunction(f) for f in functions],
            [f.__qualname__ for f in functions],
            [f.__name__ for f in functions],
            [str(inspect.signature(f)) for f in functions],
            [inspect.ismethod(m) for m in (p.__repr__, p._replace, P._make, p._asdict)],
            [f.__doc__ for f in functions],
            [f.__defaults__ for f in functions],
            [f.__kwdefaults__ for f in functions],
            len({inspect.getfile(f) for f in functions}),
            len({inspect.getsourcefile(f) for f in functions}),
            inspect.getfile(p.__repr__) == inspect.getfile(make("_dummy", []).__repr__),
        ]

    same_outcomes(scenario)
    P = records.namedtuple("P", "x")
    assert records.namedtuple.__module__ == "records._namedtuple", records.namedtuple
    functions = [vars(P)[name] for name in METHOD_NAMES]
    assert {inspect.getfile(getattr(f, "__func__", f)) for f in functions} == {
        inspect.getfile(records._namedtuple)
    }


def test_methods_answer_unbound_calls_as_collections_do():
    """
    Called unbound, on plain tuples, other named tuples, lists, other classes
    and with the wrong arguments, each method gives what collections' gives.
    """

    def scenario(make):
        P = make("P", "x y")
        Other = make("Other", "a b c")
        Plain = type("Plain", (tuple,), {})
        other = Other(1, 2, 3)
        calls = [
            lambda: P.__repr__((1, 2)),
            lambda: P.__repr__(other),
            lambda: P.__repr__(Plain((1, 2))),
            lambda: P.__repr__([1, 2]),
            lambda: P.__repr__((1, 2, 3)),
            lambda: P.__repr__(),
            lambda: P.__repr__((1, 2), 3),
            lambda: P._asdict(other),
            lambda: P._asdict((1, 2)),
            lambda: P._asdict(other, 1),
            lambda: P.__getnewargs__([1, 2]),
            lambda: P.__getnewargs__((1, 2)),
            lambda: P.__getnewargs__(other),
            lambda: P.__getnewargs__(5),
            lambda: P._replace((1, 2)),
            lambda: P._replace(other, a=5),
            lambda: P._replace(P(1, 2), 3),
            lambda: P._replace(P(1, 2), x=3, q=4),
            lambda: P._replace(P(1, 2), y=4, x=3),
            lambda: P._make(),
            lambda: P._make([1, 2], [3]),
            lambda: P._make(iterable=[1, 2]),
            lambda: P._make([1]),
            lambda: P._make(iter([1, 2])),
            lambda: P._make("ab"),
            lambda: P._make({1: 0, 2: 0}),
            lambda: P._make(5),
            lambda: vars(P)["_make"].__get__(None, Other)([1, 2]),
            lambda: vars(P)["_make"].__get__(None, Plain)([1, 2]),
            lambda: vars(P)["_make"].__get__(None, Plain)([1, 2, 3]),
            lambda: vars(P)["_make"].__get__(None, int)([1, 2]),
            lambda: vars(P)["_make"].__get__(None, list)([1, 2]),
            lambda: vars(P)["_make"].__func__(Other, (1, 2)),
            lambda: type(vars(P)["_make"].__get__(None, Other)([1, 2])),
        ]
        return [outcome(call) for call in calls]

    same_outcomes(scenario)


def cell(function, name):
    """The cell of *function*'s closure that holds its variable *name*."""
    return function.__closure__[function.__code__.co_freevars.index(name)]


def test_a_changed_method_runs_its_new_code():
    """A method's code or closure changed runs as Python would run it."""

    def scenario(make):
        P = make("P", "x y")
        p = P(1, 2)
        replacement = make("R", "a b c")
        vars(P)["_make"].__func__.__code__ = vars(replacement)["_make"].__func__.__code__
        cell(vars(P)["__repr__"], "repr_fmt").cell_contents = "<%r, %r>"
        cell(vars(P)["_replace"], "field_names").cell_contents = ("y",)
        return [
            outcome(lambda: repr(p)),
            outcome(lambda: P.__repr__(p)),
            outcome(lambda: p._replace(y=5)),
            outcome(lambda: p._replace(x=5)),
            outcome(lambda: P._make([1, 2])),
        ]

    same_outcomes(scenario)


def test_a_method_given_other_code_runs_it():
    """The C that runs for a method of records' is for its own code only."""
    P = records.namedtuple("P", "x y")
    p = P(1, 2)

    def shout(self):
        return "P!"

    vars(P)["_asdict"].__code__ = shout.__code__
    vars(P)["__getnewargs__"].__code__ = shout.__code__
    assert (p._asdict(), p.__getnewargs__(), P._asdict(p)) == ("P!", "P!", "P!")
    with pytest.raises(TypeError, match="__getnewargs__ should return a tuple"):
        pickle.dumps(p, protocol=2)


Found = records.namedtuple("Found", "a b")


def test_methods_as_introspection_sees_them():
    """Bound methods, their docs, type hints and the errors of wrong calls are collections'."""
    import typing

    def scenario(make):
        P = make("P", "x y")
        p = P(1, 2)
        steps = [
            lambda: repr(p._replace).split(" at ")[0],
            lambda: repr(P._make).split(" at ")[0],
            lambda: (P._make.__doc__, p._replace.__doc__, p._asdict.__doc__),
            lambda: (inspect.ismethod(P._make), inspect.ismethod(p._asdict)),
            lambda: P._make.__self__ is P and p._replace.__self__ is p,
            lambda: str(inspect.signature(p._replace)),
            lambda: [typing.get_type_hints(getattr(P, n)) for n in ("_asdict", "__repr__")],
            lambda: p._asdict(a=1),
            lambda: p._asdict(1),
            lambda: p.__getnewargs__(1, 2),
            lambda: vars(P)["_asdict"](),
            lambda: pickle.loads(pickle.dumps(p._replace))(x=5),
        ]
        return [outcome(step) for step in steps]

    same_outcomes(scenario)


def test_a_method_moved_away_does_not_pickle():
    """A method no longer under its name refuses to pickle, as pickle refuses a function."""

    def scenario(make):
        P = make("Moved", "x y")
        globals()["Moved"] = P
        try:
            moved = vars(P)["_asdict"]
            del P._asdict
            return outcome(lambda: pickle.dumps(moved)).split(":")[0]
        finally:
            del globals()["Moved"]

    same_outcomes(scenario)


def test_new_called_as_pickle_and_copy_call_it():
    """cls.__new__(cls, ...), as pickle, copy and Python code call it, binds as collections'."""

    def scenario(make):
        P = make("P", "x y", defaults=[0])
        Other = make("Other", "a b")

        class Sub(P):
            __slots__ = ()

        steps = [
            lambda: P.__new__(P, 1),
            lambda: P.__new__(P, 1, 2),
            lambda: P.__new__(P, y=2, x=1),
            lambda: P.__new__(P),
            lambda: P.__new__(P, 1, 2, 3),
            lambda: P.__new__(P, 1, z=3),
            lambda: P.__new__(Sub, 1, 2),
            lambda: type(P.__new__(Sub, 1, 2)),
            lambda: P.__new__(Other, 1, 2),
            lambda: P.__new__(tuple, 1, 2),
            lambda: P.__new__(int, 1, 2),
            lambda: P.__new__(),
            lambda: pickle.loads(pickle.dumps(Sub(1, 2))),
        ]
        outcomes = [outcome(step) for step in steps]
        P.__new__.__defaults__ = (7,)
        outcomes.append(outcome(lambda: P.__new__(P, 1)))
        outcomes.append(outcome(lambda: copy.copy(tuple.__new__(P, (1,)))))
        P.__new__.__code__ = Other.__new__.__code__
        outcomes.append(outcome(lambda: P.__new__(P, 1, 2)))
        return [text.replace(".<locals>", "") for text in outcomes]

    same_outcomes(scenario)


@pytest.mark.skipif(not records.ACCELERATED, reason="the pure path runs the methods' code")
def test_methods_run_in_c():
    """
    With the C accelerator the methods' code does not run for the calls C
    takes: from C on every version, and from Python code where CPython calls
    a function through its vectorcall (not 3.11, which runs the code).
    """
    P = Ran
    p = P(1, 2)
    steps = [
        lambda: repr(p),
        lambda: pickle.loads(pickle.dumps(p)),
        lambda: copy.copy(p),
        lambda: copy.deepcopy(p),
        lambda: copyreg.__newobj__(P, 1, 2),
    ]
    if sys.version_info[:2] != (3, 11):
        steps += [
            lambda: P.__new__(P, 1, 2),
            lambda: p._replace(x=2),
            lambda: P._make([1, 2]),
            lambda: p._asdict(),
            lambda: p.__getnewargs__(),
            lambda: P.__repr__(p),
        ]
    ran = set()

    def profile(frame, event, argument):
        if event == "call":
            ran.add(frame.f_code)

    methods = [vars(P)[name] for name in (*METHOD_NAMES, "__new__")]
    codes = {getattr(method, "__func__", method).__code__ for method in methods}
    sys.setprofile(profile)
    try:
        for step in steps:
            step()
    finally:
        sys.setprofile(None)
    assert not ran & codes
    # The same calls run the code of a copy of the function (the test sees it).
    sys.setprofile(profile)
    try:
        types.FunctionType(
            p.__repr__.__code__, p.__repr__.__globals__, "r", None, p.__repr__.__closure__
        )(p)
    finally:
        sys.setprofile(None)
    assert ran & codes


Ran = records.namedtuple("Ran", "x y")
