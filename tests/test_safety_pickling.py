"""
Memory safety of the routes that make records and accessors outside a class
statement, with member-descriptor fields (the C accelerator, 3.11 and
later): ``tuple.__new__``, ``copyreg`` and pickles of every protocol, and
the accessors a class pickled by value gets (``_pickling.field_accessor``).
Each route runs in a child Python (``support.child``).
"""

import sys

from support.child import run_child
from support.platform_marks import member_fields


@member_fields
class TestRawRoutes:
    """Records and accessors made outside the class statement keep to the room."""

    def test_raw_routes_leave_room(self):
        """tuple.__new__, copyreg and pickles of every protocol make records with room."""
        output = run_child(
            """
            import copyreg, pickle, sys
            from records import Record
            class Wide(Record):
                a: int
                b: int
                c: int
            assert type(Wide.c).__name__ == "member_descriptor"
            assert sys.getsizeof(Wide(1, 2, 3)) == sys.getsizeof((1, 2, 3))
            class Crafted:
                def __init__(self, reduced):
                    self.reduced = reduced
                def __reduce__(self):
                    return self.reduced
            made = [
                tuple.__new__(Wide, ()),
                tuple.__new__(Wide, (1,)),
                copyreg._reconstructor(Wide, tuple, (1,)),
                pickle.loads(pickle.dumps(Crafted((copyreg._reconstructor, (Wide, tuple, (1,)))), 0)),
                pickle.loads(pickle.dumps(Crafted((tuple.__new__, (Wide, (1,)))))),
                pickle.loads(pickle.dumps(Wide(1, 2, 3), 0)),
            ]
            for record in made:
                present = [getattr(record, name, "missing") for name in Wide._fields]
                print(len(record), present)
            """
        )
        assert (
            "0 ['missing', 'missing', 'missing']\n"
            + "1 [1, 'missing', 'missing']\n" * 4
            + "3 [1, 2, 3]\n"
        ) in output

    def test_pickled_member_descriptors(self):
        """Only the accessors of record fields pickle another way; every one loads back as itself."""
        output = run_child(
            """
            import copy, copyreg, pickle
            import records._accelerator_c as C
            from records import Record
            from records import _pickling
            class Point(Record):
                __module__ = "__main__"
                x: int
                y: int = 0
            class Slots:
                __slots__ = ("a",)
            basicsize = type.__dict__["__basicsize__"]
            reduce = copyreg.dispatch_table[type(basicsize)]
            print(reduce is _pickling.reduce_member)
            for descriptor in (basicsize, Slots.__dict__["a"]):  # as CPython pickles them
                print(descriptor.__name__, reduce(descriptor) == descriptor.__reduce__())
            for descriptor in (Slots.__dict__["a"], Point.__dict__["y"]):
                same = [
                    pickle.loads(pickle.dumps(descriptor, protocol)) is descriptor
                    for protocol in range(pickle.HIGHEST_PROTOCOL + 1)
                ]
                copies = copy.copy(descriptor) is descriptor, copy.deepcopy(descriptor) is descriptor
                print(descriptor.__name__, all(same), copies, C.field(descriptor))
            """
        )
        assert "True\n__basicsize__ True\na True\n" in output
        assert "a True (True, True) None\n" in output
        assert "y True (True, True) (<class '__main__.Point'>, 1)\n" in output

    def test_empty_class_gets_room_only_before_its_first_instance(self):
        """
        A class made with nothing but its module (as cloudpickle makes one to
        fill in) may get room for member descriptors until its first instance;
        until then no instance can be moved into it.
        """
        output = run_child(
            """
            from records import Record
            from records._pickling import field_accessor
            class Plain(tuple):
                __slots__ = ()
            def attempt(label, action):
                try:
                    action()
                    print(label, "allowed")
                except TypeError as error:
                    print(label, "refused:", error)
            def read(record, name):
                try:
                    return getattr(record, name)
                except (AttributeError, IndexError) as error:
                    return type(error).__name__
            Empty = type("Empty", (Record,), {"__module__": "library"})
            size = Empty.__basicsize__
            moved = Plain(())
            attempt("moved in", lambda: setattr(moved, "__class__", Empty))
            first = field_accessor(Empty, "x", 0, "The x.")
            second = field_accessor(Empty, "y", 1, "")
            print(type(first).__name__, Empty.__basicsize__ - size >= 2 * tuple.__itemsize__, first.__doc__)
            type.__setattr__(Empty, "x", first)
            type.__setattr__(Empty, "y", second)
            print("moved:", read(moved, "y"))  # a Plain still, unless moved in
            made = Empty()  # no fields of its own yet: an empty record
            print("made:", read(made, "x"), read(made, "y"))
            late = field_accessor(Empty, "z", 2, "")
            room = (Empty.__basicsize__ - tuple.__basicsize__) // tuple.__itemsize__
            print("after an instance:", type(late).__name__, room)
            type.__setattr__(Empty, "z", late)
            print("late:", read(made, "z"))
            Parent = type("Parent", (Record,), {"__module__": "library"})
            class Child(Parent):
                pass
            child = Child()
            parents = field_accessor(Parent, "x", 0, "")
            print("with a subclass:", type(parents).__name__)
            type.__setattr__(Parent, "x", parents)
            print("child:", read(child, "x"))
            class Full(Record):
                a: int
            print("not empty:", type(field_accessor(Full, "b", 1, "")).__name__)
            print("its own:", field_accessor(Full, "a", 0, "") is Full.__dict__["a"])
            far = field_accessor(Full, "a", 100, "")
            try:
                far.__get__(Full(1))
            except IndexError:
                print("far: IndexError")
            """
        )
        assert "moved in refused: __class__ assignment: 'Empty' deallocator differs" in output
        assert "member_descriptor True The x.\nmoved: AttributeError\n" in output
        assert "made: AttributeError AttributeError\n" in output
        # The room of its two fields, no more: its instances take a tuple's memory.
        assert "after an instance: _tuplegetter 2\nlate: IndexError\n" in output
        assert (
            "with a subclass: _tuplegetter\nchild: IndexError\nnot empty: _tuplegetter\n" in output
        )
        assert "its own: True\nfar: IndexError\n" in output

    def test_field_indexes_out_of_range(self):
        """An index whose offset would overflow is refused, not wrapped round."""
        output = run_child(
            """
            import types
            import records._accelerator_c as C
            from records import Record
            from records._pickling import field_accessor
            Empty = types.new_class("Empty", (Record,))
            accessor = field_accessor(Empty, "x", 2**61 - 1, "doc")
            print(type(accessor).__name__)
            try:
                C.member(Empty, "x", 2**61 - 1, "doc")
            except ValueError as error:
                print("refused:", error)
            """
        )
        assert (
            "_tuplegetter\nrefused: member(): index 2305843009213693951 of field 'x' is beyond "
            "the fields <class 'types.Empty'> has room for\n"
        ) in output

    def test_far_indexes_leave_the_layout_alone(self):
        """
        An accessor pickled with an index far beyond its record's fields
        (what ``field_accessor`` loads), or ``member()`` given one, leaves the
        layout as it was: it grew an empty record class to room for that
        index, 8 MB an instance for 10**6.
        """
        output = run_child(
            """
            import pickle, sys
            import records._accelerator_c as C
            from records import Record
            from records._pickling import field_accessor
            class Crafted:
                def __init__(self, reduced):
                    self.reduced = reduced
                def __reduce__(self):
                    return self.reduced
            Empty = type("Empty", (Record,), {"__module__": "__main__"})  # as cloudpickle makes one
            class Stated(Record):  # up to 3.12, a class of an empty body is one too
                pass
            for cls in (Empty, Stated):
                size = cls.__basicsize__
                crafted = Crafted((field_accessor, (cls, "q", 10**6, None)))
                loaded = pickle.loads(pickle.dumps(crafted))
                try:
                    C.member(cls, "q", 10**6, "")
                except ValueError as error:
                    print("refused:", error)
                same = cls.__basicsize__ == size
                print(cls.__name__, type(loaded).__name__, same, sys.getsizeof(cls()))
            """
        )
        empty = sys.getsizeof(())
        for name in ("Empty", "Stated"):
            assert (
                f"refused: member(): index 1000000 of field 'q' is beyond the fields "
                f"<class '__main__.{name}'> has room for\n{name} _tuplegetter True {empty}\n"
            ) in output

    def test_accessor_of_a_class_that_changed(self):
        """
        An accessor pickled by name loads on its class as it is now: where the
        class has fewer fields, as the bounds-checked accessor of its item,
        the layout left as it was.
        """
        output = run_child(
            """
            import pickle
            from records import Record
            class P(Record):
                a: int
                b: int
                c: int
            data = pickle.dumps(P.c)
            class P(Record):  # changed: two fields
                a: int
                b: int
            size = P.__basicsize__
            loaded = pickle.loads(data)
            try:
                loaded.__get__(P(1, 2), P)
            except IndexError:
                print("IndexError")
            print(type(loaded).__name__, P.__basicsize__ == size)
            """
        )
        assert "IndexError\n_tuplegetter True\n" in output

    def test_a_dict_slot_is_no_room(self):
        """The __dict__ pointer of a tuple subclass (3.10, 3.11) is not room for a field."""
        output = run_child(
            """
            import records._accelerator_c as C
            from records import Record
            from records._pickling import field_accessor
            class Plain(tuple):
                pass
            class Mixin:
                def __init_subclass__(cls, **keywords):
                    super().__init_subclass__(**keywords)
            class Unsealed(Mixin, Record):
                a: int
            for cls in (Plain, Unsealed):
                accessor = field_accessor(cls, "zz", 0, "doc")
                empty = tuple.__new__(cls, ())
                try:
                    accessor.__get__(empty, cls)
                except (AttributeError, IndexError) as error:
                    print(cls.__name__, type(accessor).__name__, type(error).__name__, C.field(accessor))
            """
        )
        assert (
            "Plain _tuplegetter IndexError None\nUnsealed _tuplegetter IndexError None\n" in output
        )
