"""
What pyright understands about records through PEP 681 (dataclass_transform).

Each line marked `# error` must be reported by pyright, and no other line.
"""

from typing import Generic, TypeVar

from records import Record, field


class Point(Record):
    x: int
    y: int = 0
    tags: list[str] = field(default_factory=list)


class Point3(Point):
    z: float = 0.0


point = Point(1, 2, ["a"])
Point(1)
Point(x=1, tags=[])
Point3(1, 2, [], 3.5)
first: int = point.x
Point()  # error
Point("one")  # error
Point(1, 2, ["a"], 4)  # error
Point(1, w=3)  # error
Point3(1, z="far")  # error
point.x = 5  # error
moved: Point = point._replace(y=3)
as_tuple: tuple[object, ...] = point


class Counter(Record):
    name: str
    total: int = field(default=0)
    history: list[int] = field(default_factory=list)


Counter("a")
Counter("a", total="many")  # error


class Misordered(Record):
    first: int = 0
    second: int  # error


T = TypeVar("T")


class Box(Record, Generic[T]):
    item: T


class LabeledBox(Box[T]):
    label: str = ""


int_box = Box(1)
number: int = int_box.item
text: str = int_box.item  # error
LabeledBox(1, "a")
LabeledBox(1, 2)  # error
labeled_text: str = LabeledBox(1).item  # error

# What pyright cannot see: a record's tuple type. Indexing gives Any and
# unpacking is not counted, so these lines pass although they would fail
# with mypy and the records plugin.
unchecked_index: str = point[0]
a, b, c, d, e = point
