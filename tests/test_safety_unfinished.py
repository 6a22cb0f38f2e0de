"""
Memory safety of a record class while it is built, with member-descriptor
fields (the C accelerator, 3.11 and later): code that runs during the build
(a descriptor's ``__set_name__``, a default's ``__class__``, a collection, a
``__del__``, a metaclass's ``mro()``) and gets hold of the class, an instance
or a field's descriptor never reads past the room the class has. Each route
runs in a child Python (``support.child``).
"""

from support.child import LIBRARY, run_child
from support.platform_marks import member_fields


@member_fields
class TestMembersWhileBuilt:
    """Code run during the build never gets a member descriptor that reads past the room."""

    def test_instance_before_the_build_keeps_checked_accessors(self):
        """A class already sealed by its body, with an instance made first, gets no members."""
        output = run_child(
            """
            from records import Record
            keep = []
            class Grab:
                def __set_name__(self, owner, name):
                    keep.append(tuple.__new__(owner, ()))
            class Early(Record):
                __module__ = "library"
                __slots__ = ()
                g = Grab()
                x: object
                y: object
            class Late(Record):
                __module__ = "library"
                __slots__ = ()
                x: object
            print(type(Early.y).__name__, type(Late.x).__name__)
            try:
                keep[0].y
            except (AttributeError, IndexError) as error:
                print("missing:", type(error).__name__)
            """
        )
        assert "_tuplegetter member_descriptor\nmissing: IndexError" in output

    def test_late_call_of_records_hook_changes_no_layout(self):
        """Record's __init_subclass__ called after the class statement seals nothing."""
        output = run_child(
            """
            define('''
            from records import Record
            class A(Record):
                def __init_subclass__(cls, **keywords):
                    pass  # Record's hook never sees U while it is made
            class U(A):
                x: object
                y: object
            class Built(Record):
                x: object
            ''')
            u = tuple.__new__(library.U, ())
            u.__dict__["attr"] = "kept"  # an instance with a dict
            cls = type(u)
            del library.U
            Record.__dict__["__init_subclass__"].__func__(cls)
            print("U", hasattr(u, "__dict__"), type(cls.__dict__["y"]).__name__)
            try:
                u.y
            except (AttributeError, IndexError) as error:
                print("missing:", type(error).__name__)
            built = library.Built
            size = built.__basicsize__
            try:
                Record.__dict__["__init_subclass__"].__func__(built)
            except TypeError:
                pass
            print("Built", built.__basicsize__ == size, built(1).x)
            del u
            """,
            prelude=LIBRARY,
        )
        assert "U True _tuplegetter\nmissing: IndexError\nBuilt True 1" in output

    def test_gc_callback_cannot_hold_the_probe(self):
        """No collection runs while the probe class is measured (3.10, 3.11 collect on allocation)."""
        output = run_child(
            """
            import gc
            hold = []
            def inflate(phase, info):
                if phase == "start" and not hold:
                    found = [o for o in gc.get_objects()
                             if type(o) is type and o.__name__ == "_RecordsProbe"]
                    hold.extend(found * 50)
            gc.callbacks.append(inflate)
            gc.set_threshold(1)
            define('''
            from records import Record
            keep = []
            class Grab:
                def __set_name__(self, owner, name):
                    keep.append(tuple.__new__(owner, ()))
            class P(Record):
                g = Grab()
            ''' + "".join(f"    f{i}: object\\n" for i in range(64)))
            gc.callbacks.remove(inflate)
            gc.set_threshold(700)
            print(type(library.P.__dict__["f63"]).__name__)
            try:
                library.keep[0].f63
            except (AttributeError, IndexError) as error:
                print("missing:", type(error).__name__)
            """,
            prelude=LIBRARY,
        )
        # Had the callback held the probe (50 references) while it was
        # measured, P, of which Grab made an instance, would be sealed, with
        # member descriptors reading past that instance.
        assert "_tuplegetter\nmissing: IndexError\n" == output

    def test_unfinished_class_says_so(self):
        """A record class whose build failed refuses instances with its own message."""
        output = run_child(
            """
            try:
                define('''
                from records import Record
                class P(Record):
                    a: object
                    _bad: object
                ''')
            except ValueError:
                pass
            P = [c for c in Record.__subclasses__() if c.__name__ == "P"][0]
            for make in (lambda: P(), lambda: P.__new__(P), lambda: tuple.__new__(P, ())):
                try:
                    make()
                except TypeError as error:
                    print(error)
            """,
            prelude=LIBRARY,
        )
        # Calls of the class are refused as for any class records has not built,
        # and tuple.__new__ by the C builder's guard of the class being built.
        assert 2 == output.count("record 'P' is not built yet")
        assert 1 == output.count("record 'P' is being built")

    def test_subclass_made_while_its_base_is_built(self):
        """A record class that gets a subclass before its fields are written is refused."""
        output = run_child(
            """
            import gc, typing  # with typing loaded, is_classvar asks for __origin__
            from records import Record
            made = []
            class Sneaky:  # runs code where the builder checks its annotation
                def __getattr__(self, name):
                    if not made:
                        made.append(None)
                        for found in gc.get_objects():
                            if type(found) is type and found.__name__ == "Victim":
                                made.append(type("Early", (found,), {"__module__": "library"}))
                    raise AttributeError(name)
            try:
                class Victim(Record):
                    __module__ = "library"
                    __annotations__ = {"a": Sneaky(), "b": int}  # evaluated on every version
                print("built")
            except TypeError as error:
                print("refused:", error)
            for early in made[1:]:
                try:
                    record = early(1, 2)
                    print("early", len(record), getattr(record, "b", "missing"))
                except TypeError as error:
                    print("early refused:", error)
            """
        )
        assert "refused: record 'Victim' got a subclass while it was being built" in output

    def test_descriptors_found_while_their_class_is_built(self):
        """
        Member descriptors that code running during the build finds (gc, a
        subclass made then) never read past their class's room, even where
        the build then ends with fewer fields.
        """
        output = run_child(
            """
            import gc, types, typing  # with typing loaded, is_classvar asks for __origin__
            from records import Record
            leaked, made = [], []
            class Hook:
                def __getattr__(self, name):
                    if not leaked:
                        victim = next(o for o in gc.get_objects()
                                      if type(o) is type and o.__name__ == "P")
                        leaked.extend(o for o in gc.get_objects()
                                      if type(o) is types.MemberDescriptorType
                                      and o.__objclass__ is victim)
                        made.append(type("Early", (victim,), {"__module__": "library"}))
                        for name in list(victim.__dict__["__annotations__"]):
                            if name not in ("f0", "hook"):
                                del victim.__dict__["__annotations__"][name]
                    raise AttributeError(name)
            annotations = {f"f{i}": int for i in range(40)}
            annotations["hook"] = Hook()
            annotations.update({f"f{i}": int for i in range(40, 45)})
            try:
                P = type("P", (Record,), {"__annotations__": annotations, "__module__": "library"})
                victims = [P(1, 2), tuple.__new__(P, ())]
            except TypeError as error:
                print("refused:", error)
                victims = []
            victims.append(tuple.__new__(made[0], ()))
            read = []
            for victim in victims:
                for descriptor in leaked:
                    try:
                        read.append(descriptor.__get__(victim))
                    except (AttributeError, TypeError):
                        pass
            print(len(leaked) > 10, sorted(set(map(type, read)), key=str))
            """
        )
        # Early copied P's room as it was: every leaked descriptor reads
        # inside it (an absent item), none past it.
        assert "refused: record 'P' got a subclass while it was being built\nTrue []\n" in output

    def test_a_class_listed_in_another_mro(self):
        """A metaclass's mro() cannot list a record class whose room may still grow."""
        output = run_child(
            """
            import gc
            from records import Record
            kept = []
            class Meta(type):
                def mro(cls):
                    if cls.__name__ == "S":
                        return (cls, kept[0], Record, tuple, object)
                    return super().mro()
            class Hook:
                @property
                def __class__(self):
                    if not kept:
                        P = next(o for o in gc.get_objects()
                                 if type(o) is type and o.__name__ == "P")
                        kept.append(P)
                        try:
                            kept.append(tuple.__new__(Meta("S", (tuple,), {}), ()))
                        except TypeError as error:
                            print("refused:", error)
                    return int
            class P(Record):
                hook: int = Hook()  # the first field: no room laid out yet
                a1: int = 0
                a2: int = 0
            for victim in kept[1:]:
                for name in P._fields:
                    getattr(P, name).__get__(victim, type(victim))
            print("done", len(kept))
            """
        )
        # 3.15 says "S.mro()".
        assert "mro() returned base with unsuitable layout ('P')\ndone 1\n" in output
        assert "refused: " in output

    def test_a_replaced_default_is_freed_after_the_writes(self):
        """A default freed when its field's accessor replaces it runs its __del__ on a whole class."""
        output = run_child(
            """
            import gc
            from records import Record, Field
            state = {}
            def get_x(cls):
                return cls.x
            class Bomb:
                def __del__(self):
                    found = get_x(state["P"])
                    print("in __del__:", type(found).__name__, state["P"]._fields)
            class Hook:
                @property
                def __class__(self):
                    if "P" not in state:
                        P = state["P"] = next(o for o in gc.get_objects()
                                              if type(o) is type and o.__name__ == "P")
                        field = P.__dict__["x"]
                        own = [id(o) for o in gc.get_referents(P)]
                        for holder in gc.get_referrers(field):
                            if type(holder) is dict and holder.get("x") is field and (
                                id(holder) not in own
                            ):
                                del holder["x"]  # the body's namespace: the class holds it alone
                        for _ in range(100):
                            get_x(P)  # into the lookup caches
                        del field, holder
                    return int
            namespace = {"__module__": "library", "__annotations__": {"x": int, "y": int},
                         "x": Field(type=Bomb(), doc="The x."), "y": Hook()}
            P = type("P", (Record,), namespace)
            del namespace
            gc.collect()
            print("built", P._fields)
            """
        )
        assert "in __del__: member_descriptor ('x', 'y')\n" in output
