"""
What pyright understands about records through PEP 681 (dataclass_transform).

Each line marked `# error` must be reported by pyright, and no other line.
"""

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
