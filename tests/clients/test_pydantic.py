"""pydantic validates, coerces, serialises and describes records as it does named tuples."""

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError, validate_call

from records import Record, field


class Order(Record):
    customer: str
    lines: list[str] = field(default_factory=list)
    priority: int = 0


class Basket(BaseModel):
    order: Order


class Node(Record):
    value: int
    children: "list[Node]" = field(default_factory=list)


class TestParity:
    """The same assertions for a typing.NamedTuple and a Record with the same fields."""

    def test_validates_and_coerces_sequences_and_mappings(self, models):
        """Lists and dicts become instances of the class, their items coerced to the field types."""
        adapter = TypeAdapter(models.Point)
        from_list = adapter.validate_python(["1", 2])
        from_dict = adapter.validate_python({"x": "3"})
        assert models.Point(1, 2) == from_list
        assert models.Point(3, 0) == from_dict
        assert models.Point is type(from_list) is type(from_dict)

    def test_reports_the_field_in_errors(self, models):
        """A value of the wrong type is reported at its position or name."""
        adapter = TypeAdapter(models.Point)
        with pytest.raises(ValidationError) as by_position:
            adapter.validate_python(["a"])
        with pytest.raises(ValidationError) as by_name:
            adapter.validate_python({"y": 1})
        assert [((0,), "int_parsing")] == [
            (e["loc"], e["type"]) for e in by_position.value.errors()
        ]
        assert [(("x",), "missing")] == [(e["loc"], e["type"]) for e in by_name.value.errors()]

    def test_json_round_trip(self, models):
        """Instances serialise to JSON arrays and validate back from them."""
        adapter = TypeAdapter(models.Segment)
        segment = models.Segment(models.Point(1, 2), models.Point(3), "s")
        assert b'[[1,2],[3,0],"s"]' == adapter.dump_json(segment)
        assert [[1, 2], [3, 0], "s"] == adapter.dump_python(segment, mode="json")
        assert segment == adapter.validate_json(b'[[1,2],[3],"s"]')
        assert models.Point is type(adapter.validate_json(b"[[1],[2]]").start)

    def test_json_schema(self, models):
        """The JSON schema is a fixed-length array with the fields' types and defaults."""
        assert {
            "maxItems": 2,
            "minItems": 1,
            "prefixItems": [
                {"title": "X", "type": "integer"},
                {"default": 0, "title": "Y", "type": "integer"},
            ],
            "type": "array",
        } == TypeAdapter(models.Point).json_schema()

    def test_model_field(self, models):
        """A class used as a model field is validated, dumped and described."""

        class Shape(BaseModel):
            edge: models.Segment

        shape = Shape.model_validate({"edge": [{"x": 1}, ["2", "3"]]})
        assert models.Segment(models.Point(1), models.Point(2, 3)) == shape.edge
        assert {"edge": ((1, 0), (2, 3), "")} == shape.model_dump()
        assert shape == Shape.model_validate_json(shape.model_dump_json())
        assert {"Point", "Segment"} <= set(Shape.model_json_schema()["$defs"])

    def test_generic(self, models):
        """A parametrized generic class validates its items as the argument type."""
        adapter = TypeAdapter(models.Pair[int])
        assert models.Pair(1, 2) == adapter.validate_python(["1", 2])
        with pytest.raises(ValidationError):
            adapter.validate_python(["a", 2])

    def test_recursive(self, models):
        """A class that refers to itself validates nested levels."""
        tree = TypeAdapter(models.Tree).validate_python([1, [[2], [3, [[4]]]]])
        assert models.Tree(1, (models.Tree(2), models.Tree(3, (models.Tree(4),)))) == tree

    def test_validate_call(self, models):
        """validate_call coerces an argument to the class."""

        @validate_call
        def norm(point: models.Point) -> int:
            return point.x + point.y

        assert 3 == norm(["1", "2"])


class TestDefaultFactory:
    """Fields with a default_factory are optional for pydantic, and fresh each time."""

    def test_factory_field_is_optional(self):
        """A missing factory field gets its factory's value, by position or by name."""
        adapter = TypeAdapter(Order)
        assert Order("ann") == adapter.validate_python({"customer": "ann"})
        assert Order("bob") == adapter.validate_python(["bob"])
        assert Order("cy", ["x"], 2) == adapter.validate_json(b'["cy", ["x"], "2"]')

    def test_each_validation_calls_the_factory(self):
        """Two validations never share the default value."""
        adapter = TypeAdapter(Order)
        first, second = adapter.validate_python(["a"]), adapter.validate_python(["b"])
        assert first.lines == second.lines == []
        assert first.lines is not second.lines

    def test_json_schema_leaves_factory_fields_optional(self):
        """Only the fields without a default count towards minItems."""
        schema = TypeAdapter(Order).json_schema()
        assert (1, 3) == (schema["minItems"], schema["maxItems"])
        assert "default" not in schema["prefixItems"][1]

    def test_model_field_with_factory(self):
        """A record with a factory field works as a model field, and dumps as an array."""
        basket = Basket.model_validate({"order": {"customer": "ann"}})
        assert Order("ann") == basket.order
        assert '{"order":["ann",[],0]}' == basket.model_dump_json()

    def test_recursive_record_with_factory(self):
        """A record whose factory field holds records of its own class validates every level."""
        node = TypeAdapter(Node).validate_python([1, [[2], {"value": 3}]])
        assert Node(1, [Node(2), Node(3)]) == node
        assert node.children[0].children is not node.children[1].children
