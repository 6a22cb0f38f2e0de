"""Hypothesis builds records from their signature and type hints, as it does named tuples."""

from hypothesis import given, settings
from hypothesis import strategies as st

from records import Record, field


class Order(Record):
    customer: str
    lines: list[str] = field(default_factory=list)
    priority: int = 0


class TestParity:
    """The same assertions for a typing.NamedTuple and a Record with the same fields."""

    def test_from_type(self, models):
        """st.from_type draws instances whose fields have the annotated types."""

        @given(st.from_type(models.Segment))
        def check(segment):
            assert models.Segment is type(segment)
            assert models.Point is type(segment.start) is type(segment.end)
            assert all(isinstance(value, int) for value in (*segment.start, *segment.end))
            assert isinstance(segment.label, str)

        check()

    def test_builds(self, models):
        """st.builds fills the required fields from their types."""

        @given(st.builds(models.Point))
        def check(point):
            assert models.Point is type(point)
            assert isinstance(point.x, int) and isinstance(point.y, int)

        check()

    def test_builds_with_given_strategies(self, models):
        """Strategies passed to st.builds are used for their fields."""

        @given(st.builds(models.Point, x=st.just(7)))
        def check(point):
            assert 7 == point.x

        check()

    def test_unparametrized_generic(self, models):
        """st.from_type draws a generic class with any items."""

        @given(st.from_type(models.Pair))
        def check(pair):
            assert models.Pair is type(pair) and 2 == len(pair)

        check()


class TestDefaultFactory:
    """A field with a default_factory gets a list, never the <factory> placeholder."""

    def test_from_type_and_builds(self):
        """Both strategies give a list, from the factory or drawn."""

        @settings(max_examples=100)
        @given(st.from_type(Order), st.builds(Order))
        def check(first, second):
            for order in (first, second):
                assert isinstance(order.lines, list)
                assert all(isinstance(line, str) for line in order.lines)

        check()

    def test_factory_values_are_fresh(self):
        """Records drawn with the field left out never share its list."""
        seen = []

        @given(st.builds(Order, customer=st.just("ann")))
        def check(order):
            assert all(order.lines is not other for other in seen)
            seen.append(order.lines)

        check()
