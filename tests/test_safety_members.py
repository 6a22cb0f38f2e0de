"""
Memory safety of fields read as member descriptors (the C accelerator, 3.11
and later): a member descriptor reads an item at a fixed offset with no
bounds check, so every instance of every class that can reach it has room
for that item, written in the layout itself. The routes that could break
that run in a child Python (``support.child``).
"""

import sys

import pytest
from support.child import LIBRARY, run_child
from support.platform_marks import cpython_only, member_fields

from records import Record, field


@member_fields
class TestMemberAccessors:
    """Fields read as member descriptors (no bounds check): every guard they need."""

    def test_accessors_are_member_descriptors(self):
        """A sealed record's fields are member descriptors with the usual docs."""
        documented = Record.define(
            "Documented", {"a": int, "b": int}, defaults={"b": field(doc="B.")}
        )
        assert "member_descriptor" == type(vars(documented)["a"]).__name__
        assert ("Alias for field number 0", "B.") == (documented.a.__doc__, documented.b.__doc__)
        assert 1 == documented.a.__get__(documented(1, 2))
        with pytest.raises(AttributeError):
            documented.b.__doc__ = "Changed."  # a member descriptor's doc is read-only

    def test_help_and_inspect(self):
        """help() lists member-descriptor fields with their docs, as it does accessors."""
        import inspect
        import pydoc

        class Documented(Record):
            x: int
            y: int = field(default=0, doc="The y.")

        assert "member_descriptor" == type(vars(Documented)["x"]).__name__
        text = pydoc.render_doc(Documented, renderer=pydoc.plaintext)
        assert "Data descriptors defined here:" in text
        assert " |  x\n |      Alias for field number 0" in text
        assert " |  y\n |      The y." in text
        assert inspect.isdatadescriptor(Documented.x)
        assert "The y." == inspect.getdoc(Documented.y)

    def test_member_descriptors_wherever_the_class_is_made(self):
        """__main__, a function, define(), exec and types.new_class: member descriptors."""

        class Local(Record):
            x: int

        output = run_child(
            """
            import types
            from records import Record
            class Script(Record):
                x: int
            def make():
                class InFunction(Record):
                    x: int
                return InFunction
            namespace = {}
            exec("from records import Record\\nclass Executed(Record):\\n    x: int", namespace)
            made = [
                Script,
                make(),
                Record.define("Defined", [("x", int)]),
                namespace["Executed"],
                types.new_class("New", (Record,), exec_body=lambda ns: ns.update(
                    {"__annotations__": {"x": int}})),
            ]
            print(*[type(vars(cls)["x"]).__name__ for cls in made])
            """
        )
        assert " ".join(["member_descriptor"] * 5) + "\n" == output
        assert "member_descriptor" == type(vars(Local)["x"]).__name__

    def test_missing_fields_read_as_absent(self):
        """A record made with fewer items than fields has room for all; the missing ones raise."""
        output = run_child(
            """
            import records
            from records import Record
            class Wide(Record):
                a: int
                b: int
                c: int
                d: int
            assert type(Wide.b).__name__ == "member_descriptor"
            short = tuple.__new__(Wide, (1,))
            print(len(short), short.a)
            for name in "bcd":
                try:
                    getattr(short, name)
                except AttributeError:
                    print("missing", name)
            """
        )
        assert "1 1\nmissing b\nmissing c\nmissing d" in output

    def test_descriptor_keeps_its_class(self):
        """A member descriptor kept after its class is deleted still works; then both go."""
        output = run_child(
            """
            import gc, weakref
            from records import Record
            class Gone(Record):
                x: int
                y: str = "y"
            assert type(Gone.y).__name__ == "member_descriptor"
            record = Gone(1)
            descriptor = Gone.__dict__["y"]
            alive = weakref.ref(Gone)
            del Gone
            gc.collect()
            print(descriptor.__get__(record), descriptor.__doc__, repr(descriptor))
            del record, descriptor
            gc.collect()
            print("collected", alive() is None)
            """
        )
        assert "y Alias for field number 1 <member 'y' of 'Gone' objects>" in output
        assert "collected True" in output

    def test_layout_holds_the_room(self):
        """The room is in the layout: CPython refuses every change that would lose it."""
        output = run_child(
            """
            import copy, collections, gc
            from records import Record
            class Small(Record):
                __module__ = "library"
                a: object
                def __init_subclass__(cls, **keywords):
                    pass  # Record's __init_subclass__ is not called for subclasses
            class Big(Record):
                __module__ = "library"
                a: object
                b: object
                c: object
            class Sub(Big):
                "Big, by another name."
                __module__ = "library"
            class Unseen(Small):  # Record's __init_subclass__ never sees it
                pass
            class Plain(tuple):
                __slots__ = ()
            assert type(Big.c).__name__ == "member_descriptor"
            def attempt(label, action):
                try:
                    action()
                    print(label, "allowed")
                except TypeError:
                    print(label, "refused")
            small, big = Small(1), Big(1, 2, 3)
            attempt("class", lambda: object.__dict__["__class__"].__set__(small, Big))
            attempt("setattr", lambda: object.__setattr__(small, "__class__", Big))
            attempt("plain", lambda: setattr(Plain(()), "__class__", Unseen))
            attempt("bases", lambda: setattr(Sub, "__bases__", (Small,)))
            attempt("two bases", lambda: type("Two", (Small, Big), {"__module__": "library"}))
            attempt("not a record", lambda: Record.__dict__["__init_subclass__"].__func__(Plain))
            unseen = tuple.__new__(Unseen, ())
            print(len(unseen), getattr(unseen, "a", "missing"))
            big.__class__ = Sub  # the same fields: allowed
            print(type(big).__name__, big.c)
            item = []
            nested = Big(item, 2, 3)
            item.append(nested)
            copied = copy.deepcopy(nested, collections.UserDict())
            print("cycle kept", copied.a[0] is copied)
            """
        )
        for label in ("class", "setattr", "plain", "bases", "two bases", "not a record"):
            assert f"{label} refused" in output
        assert "0 missing\nSub 3\ncycle kept True" in output

    def test_class_assignment_needs_the_same_room(self):
        """__class__ changes only between record classes of the same layout."""

        class Three(Record):
            a: int
            b: int
            c: int

        class One(Record):
            a: int

        class AlsoThree(Three):
            """Three, by another name."""

        assert "member_descriptor" == type(vars(Three)["c"]).__name__
        three, one = Three(1, 2, 3), One(1)
        with pytest.raises(TypeError, match="layout differs"):
            one.__class__ = Three
        with pytest.raises(TypeError, match="layout differs"):
            object.__setattr__(one, "__class__", Three)
        with pytest.raises(TypeError, match="layout differs"):
            three.__class__ = One
        three.__class__ = AlsoThree
        assert (AlsoThree, 3) == (type(three), three.c)

    def test_member_made_alone_has_its_room(self):
        """
        A member descriptor made through the module while the class is built
        reads an item its layout has room for: one of its fields so far, or
        the next. One far beyond is refused: the room would grow every
        instance to it.
        """
        output = run_child(
            """
            define('''
            from records import Record
            import records._accelerator_c as C
            class Mixin:
                def __init_subclass__(cls, **keywords):
                    super().__init_subclass__(**keywords)
                    type.__setattr__(cls, "alias", C.member(cls, "alias", 0, ""))
                    for index in (2, 500, 2**70, -1):
                        try:
                            type.__setattr__(cls, "far", C.member(cls, "far", index, ""))
                        except ValueError as error:
                            print("refused:", error)
            class P(Record, Mixin):
                x: object
            ''')
            record = library.P(1)
            print(record.alias, getattr(record, "far", "missing"), len(record))
            print(sys.getsizeof(record) == sys.getsizeof((1,)), library.P.__basicsize__ - tuple.__basicsize__)
            """,
            prelude=LIBRARY,
        )
        refused = "refused: member(): index {} of field 'far' is beyond the fields <class 'library.P'> has room for\n"
        assert "".join(refused.format(index) for index in (2, 500, 2**70, -1)) in output
        assert output.endswith(f"1 missing 1\nTrue {tuple.__itemsize__}\n")

    @pytest.mark.slow
    @cpython_only
    def test_classes_come_and_go_without_growth(self):
        """100,000 record classes made and dropped leave no memory behind."""
        import gc

        def make(count):
            for index in range(count):
                cls = Record.define(f"Passing{index}", {"a": int, "b": str}, module=__name__)
                cls(1, "b").b
            gc.collect()

        make(2_000)
        before = sys.getallocatedblocks()
        make(100_000)
        assert sys.getallocatedblocks() - before < 2_000
