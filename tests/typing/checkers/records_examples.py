"""
What a type checker understands about records, one behaviour per row.

Each ``row_*`` function is a row, with the classes it needs. A line marked
``# E`` is wrong and must be reported; every other line is valid and must
not be. A checker gets a row right when it reports exactly the marked lines
of that row. ``namedtuple_twin.py`` makes the same rows written with
``typing.NamedTuple`` from these: what the same checker understands of the
standard library's named tuples.

Type checkers read this module (``test_checkers.py``), and its valid lines
also run: every row, with its marked lines left out, runs without an error.
"""

# ruff: noqa: F841, RUF059 - the rows name values for the checkers to read

from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

import records
from records import Record, field

if TYPE_CHECKING:
    from typing_extensions import Self

T = TypeVar("T")


class Point(Record):
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
    """Constructor: arguments by position, with their types."""
    Point(1, 2)
    Point("1")  # E


def row_constructor_keywords() -> None:
    """Constructor: arguments by keyword; an unknown keyword is an error."""
    Point(x=1, y=2)
    Point(y=2, x=1)
    Point(1, z=2)  # E


def row_constructor_defaults() -> None:
    """Constructor: a field with a default may be left out, one without may not."""
    Point(1)
    Point()  # E


def row_constructor_extra_argument() -> None:
    """Constructor: one argument too many is an error."""
    Point(1, 2)
    Point(1, 2, 3)  # E


def row_field_specifiers() -> None:
    """`field(default=...)` and `field(default_factory=...)` give typed defaults."""

    class Tagged(Record):
        name: str
        total: int = field(default=0, doc="How many.")
        tags: list[str] = field(default_factory=list)

    Tagged("a")
    Tagged("a", 1, ["b"])
    Tagged("a", total="many")  # E
    Tagged("a", tags="b")  # E


def row_attribute_types() -> None:
    """A field read by name has the field's type."""
    number: int = Point(1).x
    wrong: str = Point(1).x  # E


def row_index_types() -> None:
    """A field read by index has the field's type."""
    number: int = Point(1)[0]
    wrong: str = Point(1)[1]  # E


def row_unpacking_types() -> None:
    """Unpacking gives each name its field's type."""
    x, y = Point(1)
    total: int = x + y
    first, second = Point(1)
    wrong: str = first  # E


def row_unpacking_arity() -> None:
    """Unpacking into the wrong number of names is an error."""
    x, y = Point(1)
    a, b, c = Point(1)  # E


def row_iteration_types() -> None:
    """Iterating gives the field types."""
    for number in Point(1):
        total: int = number
        wrong: str = number  # E


def row_tuple_operations() -> None:
    """`len`, `isinstance(p, tuple)`, ordering, `hash`, `+` and tuple methods work."""
    point = Point(1, 2)
    size: int = len(point)
    assert isinstance(point, tuple)
    ordered: bool = point < Point(2)
    hashed: int = hash(point)
    longer: tuple[int, ...] = point + (3,)
    found: int = point.count(1)


def row_as_a_fixed_tuple() -> None:
    """A record is a `tuple[int, int]`, not a `tuple[str, str]`."""
    takes_pair(Point(1, 2))
    takes_strings(Point(1, 2))  # E


def row_as_a_variadic_tuple() -> None:
    """A record is a `tuple[int, ...]`, not a `tuple[str, ...]`."""
    takes_ints(Point(1, 2))
    takes_texts(Point(1, 2))  # E


def row_inheritance_adds_fields() -> None:
    """A subclass adds fields to its base's."""

    class Point3(Point):
        z: int = 0

    number: int = Point3(1, 2, 3).z
    Point3(1, z=3)
    Point3(1, 2, "3")  # E


def row_subclass_with_methods_only() -> None:
    """A subclass with methods only keeps the fields and is a subtype."""

    class Labelled(Point):
        def label(self) -> str:
            return f"({self.x}, {self.y})"

    text: str = Labelled(1).label()
    takes_point(Labelled(1))
    Labelled("1")  # E


def row_generics() -> None:
    """A generic record infers and checks its type argument."""

    class Box(Record, Generic[T]):
        item: T

    number: int = Box(1).item
    wrong: str = Box(1).item  # E
    Box[int]("1")  # E


def row_generic_subclass_adds_fields() -> None:
    """A subclass of a generic record adds fields."""

    class Box(Record, Generic[T]):
        item: T

    class LabelledBox(Box[T]):
        label: str = ""

    number: int = LabelledBox(1, "a").item
    LabelledBox(1, 2)  # E


def row_replace() -> None:
    """`_replace` takes the fields by keyword, typed, and returns the class."""
    moved: Point = Point(1)._replace(y=2)
    Point(1)._replace(y="2")  # E
    Point(1)._replace(w=2)  # E


def row_records_replace() -> None:
    """`records.replace()` is checked as `_replace` is."""
    moved: Point = records.replace(Point(1), y=2)
    records.replace(Point(1), w=2)  # E


def row_make() -> None:
    """`_make` returns the class."""
    made: Point = Point._make([1, 2])
    wrong: str = Point._make([1, 2])  # E


def row_asdict_and_fields() -> None:
    """`_asdict`, `_fields` and `_field_defaults` are typed."""
    as_dict: dict[str, Any] = Point(1)._asdict()
    names: tuple[str, ...] = Point._fields
    defaults: dict[str, Any] = Point._field_defaults
    wrong: int = Point(1)._asdict()  # E


def row_immutable() -> None:
    """Assigning to a field is an error."""
    point = Point(1)
    point.x = 2  # E


def row_class_variables() -> None:
    """A `ClassVar` is not a field."""

    class Config(Record):
        name: str
        instances: ClassVar[int] = 0

    Config("a")
    count: int = Config.instances
    Config("a", 1)  # E


def row_mixins() -> None:
    """A record may have a mixin base class."""

    class Described:
        def describe(self) -> str:
            return type(self).__name__

    class Key(Record, Described):
        key: str

    text: str = Key("a").describe()
    key: str = Key("a").key
    Key(1)  # E


def row_custom_new() -> None:
    """A record may define `__new__` (with the `__init__` declaration below)."""

    class Celsius(Record):
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
    """A field without a default after one with a default is an error."""

    class Misordered(Record):
        first: int = 0
        second: int  # E


def row_mutable_default() -> None:
    """A list, dict or set default is an error."""

    class Shared(Record):
        name: str = ""
        tags: list[str] = []  # E


def row_match() -> None:
    """Class patterns in `match` bind the fields, typed."""
    match Point(1, 2):
        case Point(x, y):
            total: int = x + y
            wrong: str = x  # E


def row_define() -> None:
    """`Record.define`: the class it returns is usable, without false errors."""
    Pixel = Record.define("Pixel", [("x", int), ("y", int)], defaults={"y": 0})
    pixel = Pixel(1)
    y = pixel.y
    moved = pixel._replace(y=2)


def row_define_typed() -> None:
    """`Record.define`: the class it returns has typed fields."""
    Pixel = Record.define("Pixel", [("x", int), ("y", int)], defaults={"y": 0})
    number: int = Pixel(1).y
    Pixel("1")  # E


def row_namedtuple() -> None:
    """`records.namedtuple` is typed as `collections.namedtuple`."""
    Pair = records.namedtuple("Pair", "left right")
    Pair(1, 2)
    Pair(1)  # E
