"""
Instances asked of a record class before records has built it, in the hooks
that run during its class statement: refused with a clear error where the
instance would lack the class's own fields, made where it would not, the
same on both paths.
"""

import pytest

from records import Record, _rules


def refusal(name):
    return _rules.incomplete_record_message(name)


def attempts(cls):
    """What each way of making an instance of *cls* gives: a tuple, or the error."""
    outcomes = {}
    for label, make in (
        ("base's arguments", lambda: cls(1)),
        ("call", lambda: cls(1, 2)),
        ("keywords", lambda: cls(a=1, b=2)),
        ("_make", lambda: cls._make((1, 2))),
        ("__new__", lambda: cls.__new__(cls, 1, 2)),
    ):
        try:
            outcomes[label] = tuple(make())
        except TypeError as error:
            outcomes[label] = str(error)
    return outcomes


@pytest.mark.parametrize("has_base_fields", [False, True])
def test_mixin_hook_before_super(has_base_fields):
    """A mixin's __init_subclass__ before super() cannot make an instance missing fields."""
    seen = {}

    class Mixin:
        def __init_subclass__(cls, **keywords):
            seen[cls.__name__] = attempts(cls)
            super().__init_subclass__(**keywords)

    if has_base_fields:

        class Base(Record):
            a: int

        class K(Mixin, Base):
            b: int

    else:

        class K(Mixin, Record):
            a: int
            b: int

    outcomes = seen["K"]
    message = refusal("test_mixin_hook_before_super.<locals>.K")
    if has_base_fields:
        # K's constructor is still Base's, which binds the arguments first: a
        # call that fits it is refused by records, one that does not by Python.
        assert message == outcomes.pop("base's arguments")
        for label in ("call", "__new__"):
            assert outcomes.pop(label).endswith("takes 2 positional arguments but 3 were given")
        assert outcomes.pop("keywords").endswith("got an unexpected keyword argument 'b'")
    assert set(outcomes.values()) == {message}
    assert (1, 2) == K(1, 2)


def test_mixin_hook_after_super():
    """After super().__init_subclass__(), the class is built: instances are whole."""
    seen = {}

    class Mixin:
        def __init_subclass__(cls, **keywords):
            super().__init_subclass__(**keywords)
            seen[cls.__name__] = attempts(cls)

    class K(Mixin, Record):
        a: int
        b: int

    outcomes = seen["K"]
    assert outcomes.pop("base's arguments").endswith("missing 1 required positional argument: 'b'")
    assert dict.fromkeys(("call", "keywords", "_make", "__new__"), (1, 2)) == outcomes


def test_set_name():
    """__set_name__ runs before any __init_subclass__: instances are refused there."""
    seen = []

    class Probe:
        def __set_name__(self, owner, name):
            try:
                owner(1, 2)
            except TypeError as error:
                seen.append(str(error))

    class S(Record):
        a: int
        b: int
        probe = Probe()

    assert [refusal("test_set_name.<locals>.S")] == seen
    assert (1, 2) == S(1, 2)


def test_metaclass_init():
    """A metaclass's __init__ runs after type.__new__, and so after records built the class."""
    seen = []

    class Meta(type):
        def __init__(cls, name, bases, namespace, **keywords):
            seen.append(tuple(cls(1, 2)))
            super().__init__(name, bases, namespace, **keywords)

    class M(Record, metaclass=Meta):
        a: int
        b: int

    assert [(1, 2)] == seen
    assert ("a", "b") == M._fields


def test_subclass_without_fields_of_its_own():
    """An instance of a subclass that adds no fields is whole before the build: it is made."""
    made = []

    class Base(Record):
        a: int
        b: int = 0

        def __init_subclass__(cls, **keywords):
            made.append(cls(1))
            super().__init_subclass__(**keywords)

    class Child(Base):
        def total(self):
            return self.a + self.b

    assert [(1, 0)] == made
    assert 1 == made[0].total()
    assert ("a", "b") == Child._fields


def test_classvar_only_subclass():
    """A subclass whose own annotations are all ClassVars adds no fields: it is made."""
    from typing import ClassVar

    made = []

    class Base(Record):
        a: int

        def __init_subclass__(cls, **keywords):
            made.append(cls(1))
            super().__init_subclass__(**keywords)

    class Child(Base):
        kind: ClassVar[str] = "child"

    assert [(1,)] == made


def test_other_classes_are_left_to_tuple():
    """A record's __new__ given a class that is not its subclass makes it, as tuple.__new__ does."""
    from typing import NamedTuple

    class P(Record):
        a: int
        b: int

    class Other(NamedTuple):
        x: int
        y: int

    made = P.__new__(Other, 1, 2)
    assert type(made) is Other
    assert (1, 2) == made
