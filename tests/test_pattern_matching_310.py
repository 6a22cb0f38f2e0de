"""Pattern matching on records (match statements need Python 3.10)."""

from records import Record, field


class Point(Record):
    x: int
    y: int = 0
    tags: list[str] = field(default_factory=list)


class TestPatternMatching:
    """__match_args__ allows positional class patterns."""

    def test_match(self):
        """Positional and keyword patterns bind fields."""
        match Point(1, 2):
            case Point(1, y, tags=[]):
                result = y
            case _:
                result = None
        assert 2 == result

    def test_match_args(self):
        """__match_args__ is the field names."""
        assert ("x", "y", "tags") == Point.__match_args__
