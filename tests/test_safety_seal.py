"""
Memory safety of the layout seal: no instance ever has a layout other than
its class's final one, whatever code gets hold of the class before
``Record.__init_subclass__`` seals it (hooks, descriptors, threads, the
collector). Each route runs in a child Python (``support.child``).
"""

import ast
import sys

import pytest
from support.child import run_child
from support.platform_marks import needs_layout_patch

import records
from records import Record
from records._accelerator import free_threaded

# In the child: same_layout(instance) asserts that an instance has its
# class's final layout (the size of a tuple where the class was sealed, and
# no __dict__ it did not have) and counts which layout it saw; raw() is
# tuple.__new__(cls, items), or None where records refuse it (the C path,
# while the class is built).
SAME_LAYOUT = """
import collections, sys
layouts = collections.Counter()
def raw(cls, items):
    try:
        return tuple.__new__(cls, items)
    except TypeError:
        return None
def same_layout(instance):
    if instance is None:
        layouts["refused"] += 1
        return
    cls = type(instance)
    sealed = cls.__dictoffset__ == 0
    assert sealed != hasattr(instance, "__dict__"), cls
    if sealed:
        # A record with fewer items than its fields still has room for each.
        room = (cls.__basicsize__ - tuple.__basicsize__) // cls.__itemsize__
        missing = max(0, room - len(instance)) * cls.__itemsize__
        assert sys.getsizeof(instance) == sys.getsizeof(tuple(instance)) + missing, cls
    layouts["sealed" if sealed else "with a dict"] += 1
"""


def layouts(output):
    """What same_layout saw in the child, which prints it last: {layout: count}."""
    return ast.literal_eval(output.splitlines()[-1])


@needs_layout_patch
class TestInstanceBeforeTheSeal:
    """No instance ever has a layout other than its class's final one (every route)."""

    def test_base_init_subclass_makes_an_instance(self):
        """A base's __init_subclass__ that calls the class before Record's hook runs."""
        output = run_child(
            prelude=SAME_LAYOUT,
            code="""
            from records import Record
            class Base(Record):
                x: int
                def __init_subclass__(cls, **kw):
                    cls.DEFAULT = cls(0)  # before Record's hook
                    super().__init_subclass__(**kw)
            for i in range(200):
                class Child(Base):
                    pass
                same_layout(Child.DEFAULT)
                same_layout(Child(1))
                del Child.DEFAULT
                junk = [(i, j) for j in range(100)]
            try:
                Child(1).y = 2
            except AttributeError:
                print("immutable")
            print(dict(layouts))
            """,
        )
        assert "immutable\n" in output
        assert {"with a dict": 400} == layouts(output)

    def test_raw_tuple_new_in_a_hook(self):
        """tuple.__new__(cls, ...) from a base's hook, before Record's hook runs."""
        output = run_child(
            prelude=SAME_LAYOUT,
            code="""
            from records import Record
            class Base(Record):
                x: int
                def __init_subclass__(cls, **kw):
                    cls.RAW = raw(cls, (0,))
                    super().__init_subclass__(**kw)
            for i in range(200):
                class Child(Base):
                    y: int = 0
                same_layout(Child.RAW)
                same_layout(Child(1))
                del Child.RAW
                junk = [(i, j) for j in range(100)]
            print(dict(layouts))
            """,
        )
        # The hook had the class first: it keeps its __dict__ slot.
        assert {"with a dict": 400} == layouts(output)

    def test_set_name_makes_an_instance(self):
        """A descriptor's __set_name__ that makes an instance of the class it is set on."""
        output = run_child(
            prelude=SAME_LAYOUT,
            code="""
            from records import Record
            made = []
            class Maker:
                def __set_name__(self, owner, name):
                    made.append(raw(owner, (1,)))
            for i in range(200):
                class Point(Record):
                    x: int
                    hook = Maker()
                same_layout(made.pop())
                same_layout(Point(2))
                junk = [(i, j) for j in range(100)]
            print(dict(layouts))
            """,
        )
        assert {"with a dict": 400} == layouts(output)

    def test_mixin_hook_after_record(self):
        """A mixin after Record in the MRO runs its hook after the seal: instances are final."""
        output = run_child(
            prelude=SAME_LAYOUT,
            code="""
            from records import Record
            class Mixin:
                def __init_subclass__(cls, **kw):
                    super().__init_subclass__(**kw)
                    cls.RAW = raw(cls, (0,))
            for i in range(200):
                class Point(Record, Mixin):
                    x: int
                same_layout(Point.RAW)
                junk = [(i, j) for j in range(100)]
            print(dict(layouts))
            """,
        )
        # The C builder refuses instances until the class is built; the
        # pure path's instance comes after the seal.
        expected = "refused" if records.ACCELERATED else "sealed"
        assert {expected: 200} == layouts(output)

    def test_another_thread_calls_new_classes(self):
        """A thread that calls every class in Base.__subclasses__() while others are built."""
        output = run_child(
            prelude=SAME_LAYOUT,
            code="""
            import threading
            from records import Record
            class Base(Record):
                x: int
            done = threading.Event()
            made = []
            def call_them():
                while not done.is_set():
                    for cls in Base.__subclasses__():
                        try:
                            made.append(cls(0))
                            made.append(tuple.__new__(cls, (0,)))
                        except TypeError:
                            pass
                    del made[:-50]
            thread = threading.Thread(target=call_them)
            thread.start()
            sys.setswitchinterval(1e-6)
            try:
                for i in range(2000):
                    class Child(Base):
                        y: int = 0
                    del Child
            finally:
                done.set()
                thread.join()
            for instance in made:
                same_layout(instance)
            print(dict(layouts))
            """,
        )
        # In C the seal comes before any Python code can run, the other
        # thread's included; the pure path seals nothing while threads run,
        # and neither does free-threaded 3.13, whose classes are immortal
        # once a second thread exists.
        seen = layouts(output)
        sealed = records.ACCELERATED and not free_threaded()
        assert {"sealed" if sealed else "with a dict"} == set(seen)
        assert sum(seen.values()) > 0

    def test_another_thread_inside_compile(self):
        """A thread held in compile() (its SyntaxWarning's hook) calls the classes being built."""
        # The hook finds each class through a weak reference that a __set_name__
        # of its body takes, before Record's hook runs: as Base.__subclasses__()
        # would, which free-threaded 3.13 cannot walk while classes are freed
        # (CPython gh-151377: it crashes with plain classes too).
        output = run_child(
            prelude=SAME_LAYOUT,
            code="""
            import threading, warnings, weakref
            from records import Record
            class Base(Record):
                x: int
            Base(0)
            done = threading.Event()
            made = []
            seen = []
            class Spy:
                def __set_name__(self, owner, name):
                    seen.append(weakref.ref(owner))
            def call_them(*args, **kwargs):
                while not done.is_set():
                    for reference in seen[-20:]:
                        cls = reference()
                        if cls is not None:
                            made.append(raw(cls, (0,)))
                        del cls
                    del made[:-50]
            warnings.showwarning = call_them
            warnings.simplefilter("always", SyntaxWarning)
            thread = threading.Thread(target=compile, args=("1 is 1", "<test>", "eval"))
            thread.start()
            try:
                for i in range(2000):
                    class Child(Base):
                        y: int = 0
                        spy = Spy()
                    made.append(Child(1))
                    del Child
            finally:
                done.set()
                thread.join()
            for instance in made:
                same_layout(instance)
            print(dict(layouts))
            """,
        )
        # Free-threaded 3.13 makes no class immortal while a thread is in
        # compile(): only the thread's presence keeps it from sealing them.
        seen = layouts(output)
        seen.pop("refused", None)
        sealed = records.ACCELERATED and not free_threaded()
        assert {"sealed" if sealed else "with a dict"} == set(seen)

    def test_hook_that_hides_itself(self):
        """A base hook that makes an instance, then deletes itself before Record's hook runs."""
        output = run_child(
            prelude=SAME_LAYOUT,
            code="""
            from records import Record
            kept = []
            class Mixin:
                def __init_subclass__(cls, **kw):
                    kept.append(raw(cls, (1, 2)))
                    del Mixin.__init_subclass__
                    super().__init_subclass__(**kw)
            class P(Mixin, Record):
                x: int
                y: int
            same_layout(kept[0])
            same_layout(P(1, 2))
            del kept[:]
            for i in range(10000):
                P(i, i)
            print(dict(layouts))
            """,
        )
        assert {"with a dict": 2} == layouts(output)

    def test_set_name_that_replaces_itself(self):
        """A __set_name__ that makes an instance, then replaces its value in the body."""
        output = run_child(
            prelude=SAME_LAYOUT,
            code="""
            from records import Record
            kept = []
            class Sneaky:
                def __set_name__(self, owner, name):
                    kept.append(raw(owner, (1, 2)))
                    setattr(owner, name, 0)
            class P(Record):
                x: int
                y: int
                hook = Sneaky()
            same_layout(kept[0])
            del kept[:]
            for i in range(10000):
                P(i, i)
            print(P(1, 2), P.hook)
            print(dict(layouts))
            """,
        )
        assert output.startswith("P(x=1, y=2) 0\n")
        assert {"with a dict": 1} == layouts(output)

    def test_init_subclass_called_again(self):
        """Record.__init_subclass__ called again on a class with live instances seals nothing."""
        output = run_child(
            prelude=SAME_LAYOUT,
            code="""
            from records import Record
            class P(Record):
                x: int
            class Q(P):
                def __init_subclass__(cls, **kw):
                    super().__init_subclass__(**kw)
            class R(Q):  # a hook before Record: R keeps its dict slot
                y: int = 0
            live = [R(i) for i in range(100)]
            Record.__dict__["__init_subclass__"].__get__(None, R)()
            for instance in live:
                same_layout(instance)
            del live
            for i in range(10000):
                R(i)
            print(R._fields, R(1))
            print(dict(layouts))
            """,
        )
        assert output.startswith("('x', 'y') R(x=1, y=0)\n")
        assert {"with a dict": 100} == layouts(output)

    def test_gc_callback_makes_an_instance(self):
        """A gc callback that makes an instance of a class not built yet leaves it unsealed."""
        output = run_child(
            prelude=SAME_LAYOUT,
            code="""
            import gc
            from records import Record
            made = []
            rounds = collections.Counter()
            def callback(phase, info):
                if phase != "start":
                    return
                for cls in Record.__subclasses__():
                    if "_fields" not in cls.__dict__ and not made and cls.__dictoffset__ != 0:
                        made.append(raw(cls, (1,)))
            gc.callbacks.append(callback)
            gc.set_threshold(1)
            for i in range(50):
                class P(Record):
                    x: int
                for instance in made:
                    same_layout(instance)
                first = "an instance first" if made else "no instance first"
                rounds[first, "sealed" if P.__dictoffset__ == 0 else "with a dict"] += 1
                del made[:]
            gc.callbacks.remove(callback)
            print(dict(rounds))
            """,
        )
        # Where a collection can run before the seal (the pure path, and in C
        # where CPython collects while it makes the class), the callback
        # makes an instance and the class keeps its dict slot; else it is
        # sealed.
        rounds = layouts(output)
        assert 50 == sum(rounds.values())
        assert set(rounds) <= {
            ("an instance first", "with a dict"),
            ("no instance first", "sealed"),
        }

    @pytest.mark.parametrize("hook", ["settrace", "setprofile", "monitoring"])
    def test_hook_makes_instances_while_the_class_is_sealed(self, hook):
        """
        A trace or profile function, or a sys.monitoring tool, that makes an
        instance of the class at every event inside the pure path's seal (after
        its count of references): each has the class's final layout. The
        seal, Python code there, once changed the layout under such an
        instance: a corrupted heap from 3.12 on.
        """
        if hook == "monitoring" and not hasattr(sys, "monitoring"):
            pytest.skip("sys.monitoring is 3.12+")
        output = run_child(
            prelude=SAME_LAYOUT,
            code=f"""
            from records import Record
            made = []
            def make(frame):
                if frame.f_code.co_name != "seal" or len(made) > 2000:
                    return
                cls = frame.f_locals.get("cls")
                if isinstance(cls, type) and cls.__name__ == "P":
                    made.append(raw(cls, (1, 2)))
            def hook(frame, event, arg):
                make(frame)
                return hook
            def on_event(*args):
                make(sys._getframe(1))
            if {hook!r} == "monitoring":
                events = sys.monitoring.events
                sys.monitoring.use_tool_id(3, "made")
                for event in (events.LINE, events.CALL, events.PY_START):
                    sys.monitoring.register_callback(3, event, on_event)
                sys.monitoring.set_events(3, events.LINE | events.CALL | events.PY_START)
            else:
                getattr(sys, {hook!r})(hook)
            sealed = 0
            for i in range(20):
                class P(Record):
                    x: int
                    y: int
                for instance in made:
                    same_layout(instance)
                del made[:]
                sealed += P.__dictoffset__ == 0
            if {hook!r} == "monitoring":
                sys.monitoring.set_events(3, 0)
                sys.monitoring.free_tool_id(3)
            else:
                getattr(sys, {hook!r})(None)
            print(sealed)
            print(dict(layouts))
            """,
        )
        assert (20 if records.ACCELERATED else 0) == int(output.splitlines()[-2])
        found = layouts(output)
        # While such a hook is set the pure path does not seal at all (so the
        # hook never runs inside a seal); the C path seals in C, where no
        # event shows the class.
        assert {} == found


def test_unsealed_records_stay_immutable():
    """Where a hook had the class first, the class keeps its dict slot and forbids attributes."""

    class Base(Record):
        x: int

        def __init_subclass__(cls, **kwargs):
            super().__init_subclass__(**kwargs)

    class Child(Base):
        y: int = 0

    child = Child(1)
    with pytest.raises(AttributeError):
        child.z = 1
    with pytest.raises(AttributeError):
        child.x = 2
    assert (1, 0) == child


@pytest.mark.parametrize("target", ["int", "tuple", "str", "object", "Plain", "type(None)"])
def test_seal_and_write_refuse_what_is_not_a_record_class(target):
    """
    The layout seal's entry points, Python and C, refuse a built-in or static
    type and any class that is not a tuple subclass, before changing anything.
    """
    output = run_child(
        f"""
        import records
        from records import _accelerator, _layout
        class Plain:
            pass
        target = {target}
        entries = [("seal", lambda: _layout.seal(target)),
                   ("write", lambda: _layout.write(target, {{"zz": 1}}))]
        if _accelerator.c is not None:
            entries += [("c seal", lambda: _accelerator.c.seal(target)),
                        ("c write", lambda: _accelerator.c.write(target, {{"zz": 1}}))]
        for name, call in entries:
            try:
                call()
                print(name, "changed it")
            except TypeError as error:
                print(name, "refused:", "needs a tuple subclass made by a class statement" in str(error))
        print("untouched:", not hasattr(target, "zz"))
        """
    )
    lines = output.splitlines()
    assert lines[-1] == "untouched: True"
    assert all(line.endswith("refused: True") for line in lines[:-1]), output


# In the child: attempt(label, call) prints whether call was refused with a
# TypeError that names the class, and entries(cls) the layout's entry points
# on both paths (the C ones where the accelerator is loaded; prepare is C only).
ENTRIES = """
from records import _accelerator, _layout
def attempt(label, call, cls):
    try:
        call()
        print(label, "changed it")
    except TypeError as error:
        print(label, "refused:", cls.__qualname__ in str(error))
def entries(cls):
    found = [("seal", lambda: _layout.seal(cls)),
             ("write", lambda: _layout.write(cls, {"zz": 1}))]
    c = _accelerator.c
    if c is not None:
        found += [("c seal", lambda: c.seal(cls)),
                  ("c write", lambda: c.write(cls, {"zz": 1})),
                  ("c prepare", lambda: c.prepare(cls, Record))]
    return found
"""


def refusals(output):
    """The lines of attempt() in the child's output, each of which must say refused: True."""
    lines = [line for line in output.splitlines() if " refused: " in line or "changed it" in line]
    assert lines, output
    assert all(line.endswith("refused: True") for line in lines), output
    return lines


@needs_layout_patch
class TestOnlyWhatRecordsBuilds:
    """
    The layout's entry points change only a class that records is building:
    no other code can tell that a class has no instance, which a layout
    change needs.
    """

    def test_a_class_with_instances_is_refused(self):
        """
        seal() of a tuple subclass whose instance has a __dict__ once freed
        that instance with the wrong layout: an abort from 3.12 on, a leaked
        dict before. Every entry point refuses such a class, untouched.
        """
        output = run_child(
            prelude=ENTRIES,
            code="""
            from records import Record
            class T(tuple):
                pass
            t = T((1, 2))
            t.a = 1
            for label, call in entries(T):
                attempt(label, call, T)
            print("kept:", t.a, "__dict__" in vars(T), not hasattr(T, "zz"))
            del t
            """,
        )
        assert (5 if records.ACCELERATED else 2) == len(refusals(output))
        assert "kept: 1 True True\n" in output

    def test_a_built_record_is_refused(self):
        """A record class once built, sealed or not, with instances, is refused."""
        output = run_child(
            prelude=ENTRIES,
            code="""
            from records import Record
            class Sealed(Record):
                x: int
            class Base(Record):
                x: int
                def __init_subclass__(cls, **kw):
                    super().__init_subclass__(**kw)
            class Unsealed(Base):  # a hook before Record's: it keeps its dict slot
                y: int = 0
            live = [Sealed(1), Unsealed(1), tuple.__new__(Unsealed, ())]
            for cls in (Sealed, Unsealed):
                for label, call in entries(cls):
                    attempt(label, call, cls)
            print("unsealed:", Unsealed.__dictoffset__ != 0, not hasattr(Unsealed, "zz"))
            del live
            """,
        )
        refusals(output)
        assert "unsealed: True True\n" in output

    def test_a_hook_during_the_build_cannot_seal(self):
        """
        A mixin's __init_subclass__, run while records builds the class after
        deciding its layout, cannot seal it: an instance made before
        Record's hook ran (by a base's hook) keeps its layout.
        """
        output = run_child(
            prelude=ENTRIES,
            code="""
            from records import Record
            kept = []
            class Base(Record):
                x: int
                def __init_subclass__(cls, **kw):
                    early = tuple.__new__(cls, (0,))
                    object.__setattr__(early, "a", 1)
                    kept.append(early)
                    super().__init_subclass__(**kw)
            class Mixin:
                def __init_subclass__(cls, **kw):
                    super().__init_subclass__(**kw)
                    for label, call in entries(cls):
                        if "write" not in label:  # write is the builder's own, now
                            attempt(label, call, cls)
            class Child(Base, Mixin):
                y: int = 0
            print("kept:", kept[0].a, Child.__dictoffset__ != 0, Child(1, 2))
            del kept[:]
            """,
        )
        refusals(output)
        assert "kept: 1 True Child(x=1, y=2)\n" in output
