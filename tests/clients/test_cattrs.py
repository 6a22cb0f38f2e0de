"""
cattrs structures and unstructures records as it does named tuples, once the
documented hooks are registered (cattrs recognises named tuples by
``typing.NamedTuple`` in their ``__orig_bases__``, which records do not have).
"""

import cattrs
import cattrs.preconf.json
import pytest

from records import Record, field


class Order(Record):
    customer: str
    lines: list[str] = field(default_factory=list)
    priority: int = 0


class Line(Order):
    quantity: int = 1


@pytest.fixture
def converter(models, recipes):
    """cattrs' converter; for records, with the recipe's hooks registered."""
    converter = cattrs.Converter()
    if issubclass(models.Point, Record):
        recipes["cattrs"]["register_records"](converter)
    return converter


@pytest.fixture
def record_converter(recipes):
    """cattrs' converter with the recipe's hooks registered."""
    converter = cattrs.Converter()
    recipes["cattrs"]["register_records"](converter)
    return converter


class TestParity:
    """The same assertions for a typing.NamedTuple and a Record with the same fields."""

    def test_structure_from_a_list(self, models, converter):
        """A list becomes an instance, its items structured as the field types."""
        point = converter.structure(["1", 2], models.Point)
        assert models.Point(1, 2) == point
        assert models.Point is type(point)

    def test_structure_nested(self, models, converter):
        """Fields whose type is another such class are structured too."""
        segment = converter.structure([[1, "2"], ["3", 4], "s"], models.Segment)
        assert models.Segment(models.Point(1, 2), models.Point(3, 4), "s") == segment
        assert models.Point is type(segment.start)

    def test_structure_errors(self, models, converter):
        """An item of the wrong type is an error."""
        with pytest.raises((ValueError, cattrs.BaseValidationError)):
            converter.structure(["a", 2], models.Point)

    def test_unstructure(self, models, converter):
        """Instances unstructure to tuples of their unstructured items."""
        segment = models.Segment(models.Point(1, 2), models.Point(3), "s")
        assert ((1, 2), (3, 0), "s") == converter.unstructure(segment)

    def test_json_round_trip(self, models, recipes):
        """cattrs' JSON converter round-trips instances through arrays."""
        converter = cattrs.preconf.json.make_converter()
        if issubclass(models.Point, Record):
            recipes["cattrs"]["register_records"](converter)
        segment = models.Segment(models.Point(1, 2), models.Point(3), "s")
        text = converter.dumps(segment)
        assert '[[1, 2], [3, 0], "s"]' == text
        assert segment == converter.loads(text, models.Segment)


class TestRecordsOnly:
    """What the recipe gives beyond cattrs' named tuples: defaults, factories, inheritance."""

    def test_missing_fields_take_defaults_and_factories(self, record_converter):
        """A short list leaves the remaining fields to their defaults and factories."""
        first = record_converter.structure(["ann"], Order)
        second = record_converter.structure(["bob"], Order)
        assert Order("ann", [], 0) == first
        assert first.lines is not second.lines

    def test_inherited_fields(self, record_converter):
        """Fields declared in a base record are structured with their types."""
        assert Line("c", ["x"], 2, 5) == record_converter.structure(["c", ["x"], "2", "5"], Line)

    def test_too_many_items(self, record_converter):
        """More items than fields is an error, not a silent truncation."""
        with pytest.raises(TypeError, match="takes from 2 to 4 positional arguments but 5"):
            record_converter.structure(["c", ["x"], 1, 4], Order)
