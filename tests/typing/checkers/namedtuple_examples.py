"""
The rows of ``records_examples.py`` written with ``typing.NamedTuple``.

The same behaviours and the same ``# E`` marks: what a type checker
understands of the standard library's named tuples, the anchor the records
rows are compared with. Where a named tuple cannot do what a row asks (add
fields in a subclass, define ``__new__``, mix in a class), the row is
written as a user would try it, and the checker's answer is recorded all the
same. Only type checkers read this module; it does not run.
"""

# ruff: noqa: F841, RUF059 - the rows name values for the checkers to read

from collections import namedtuple
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, TypeVar

import records

if TYPE_CHECKING:
    from typing_extensions import Self

T = TypeVar("T")


class Point(NamedTuple):
    x: int
    y: int = 0


def takes_pair(pair: tuple[int, int]) -> int:
    return pair[0] + pair[1]


def takes_strings(pair: tuple[str, str]) -> str:
    return pair[0] + pair[1]


def takes_ints(numbers: tuple[int, ...]) -> int:
    return sum(numbers)


def takes_texts(texts: tuple[str, ...]) -> str:
    return "".join(texts)


def takes_point(point: Point) -> int:
    return point.x


def row_constructor_positional() -> None:
    Point(1, 2)
    Point("1")  # E


def row_constructor_keywords() -> None:
    Point(x=1, y=2)
    Point(y=2, x=1)
    Point(1, z=2)  # E


def row_constructor_defaults() -> None:
    Point(1)
    Point()  # E


def row_constructor_extra_argument() -> None:
    Point(1, 2)
    Point(1, 2, 3)  # E


def row_field_specifiers() -> None:
    class Tagged(NamedTuple):
        name: str
        total: int = 0
        tags: list[str] = []

    Tagged("a")
    Tagged("a", 1, ["b"])
    Tagged("a", total="many")  # E
    Tagged("a", tags="b")  # E


def row_attribute_types() -> None:
    number: int = Point(1).x
    wrong: str = Point(1).x  # E


def row_index_types() -> None:
    number: int = Point(1)[0]
    wrong: str = Point(1)[1]  # E


def row_unpacking_types() -> None:
    x, y = Point(1)
    total: int = x + y
    first, second = Point(1)
    wrong: str = first  # E


def row_unpacking_arity() -> None:
    x, y = Point(1)
    a, b, c = Point(1)  # E


def row_iteration_types() -> None:
    for number in Point(1):
        total: int = number
        wrong: str = number  # E


def row_tuple_operations() -> None:
    point = Point(1, 2)
    size: int = len(point)
    assert isinstance(point, tuple)
    ordered: bool = point < Point(2)
    hashed: int = hash(point)
    longer: tuple[int, ...] = point + (3,)
    found: int = point.count(1)


def row_as_a_fixed_tuple() -> None:
    takes_pair(Point(1, 2))
    takes_strings(Point(1, 2))  # E


def row_as_a_variadic_tuple() -> None:
    takes_ints(Point(1, 2))
    takes_texts(Point(1, 2))  # E


def row_inheritance_adds_fields() -> None:
    class Point3(Point):
        z: int = 0

    number: int = Point3(1, 2, 3).z
    Point3(1, z=3)
    Point3(1, 2, "3")  # E


def row_subclass_with_methods_only() -> None:
    class Labelled(Point):
        def label(self) -> str:
            return f"({self.x}, {self.y})"

    text: str = Labelled(1).label()
    takes_point(Labelled(1))
    Labelled("1")  # E


def row_generics() -> None:
    class Box(NamedTuple, Generic[T]):
        item: T

    number: int = Box(1).item
    wrong: str = Box(1).item  # E
    Box[int]("1")  # E


def row_generic_subclass_adds_fields() -> None:
    class Box(NamedTuple, Generic[T]):
        item: T

    class LabelledBox(Box[T]):
        label: str = ""

    number: int = LabelledBox(1, "a").item
    LabelledBox(1, 2)  # E


def row_replace() -> None:
    moved: Point = Point(1)._replace(y=2)
    Point(1)._replace(y="2")  # E
    Point(1)._replace(w=2)  # E


def row_records_replace() -> None:
    moved: Point = records.replace(Point(1), y=2)
    records.replace(Point(1), w=2)  # E


def row_make() -> None:
    made: Point = Point._make([1, 2])
    wrong: str = Point._make([1, 2])  # E


def row_asdict_and_fields() -> None:
    as_dict: dict[str, Any] = Point(1)._asdict()
    names: tuple[str, ...] = Point._fields
    defaults: dict[str, Any] = Point._field_defaults
    wrong: int = Point(1)._asdict()  # E


def row_immutable() -> None:
    point = Point(1)
    point.x = 2  # E


def row_class_variables() -> None:
    class Config(NamedTuple):
        name: str
        instances: ClassVar[int] = 0

    Config("a")
    count: int = Config.instances
    Config("a", 1)  # E


def row_mixins() -> None:
    class Described:
        def describe(self) -> str:
            return type(self).__name__

    class Key(NamedTuple, Described):
        key: str

    text: str = Key("a").describe()
    key: str = Key("a").key
    Key(1)  # E


def row_custom_new() -> None:
    class Celsius(NamedTuple):
        degrees: float

        def __new__(cls, value: "str | float") -> "Self":
            return super().__new__(cls, float(value))

        if TYPE_CHECKING:  # the constructor's signature, for checkers that read fields

            def __init__(self, value: "str | float") -> None: ...

    Celsius("21.5")
    Celsius(21.5)
    degrees: float = Celsius(1).degrees
    Celsius([])  # E


def row_field_order() -> None:
    class Misordered(NamedTuple):
        first: int = 0
        second: int  # E


def row_mutable_default() -> None:
    class Shared(NamedTuple):
        name: str = ""
        tags: list[str] = []  # E


def row_match() -> None:
    match Point(1, 2):
        case Point(x, y):
            total: int = x + y
            wrong: str = x  # E


def row_define() -> None:
    Pixel = namedtuple("Pixel", ["x", "y"], defaults=[0])
    pixel = Pixel(1)
    y = pixel.y
    moved = pixel._replace(y=2)


def row_define_typed() -> None:
    Pixel = namedtuple("Pixel", ["x", "y"], defaults=[0])
    number: int = Pixel(1).y
    Pixel("1")  # E


def row_namedtuple() -> None:
    Pair = namedtuple("Pair", "left right")
    Pair(1, 2)
    Pair(1)  # E
