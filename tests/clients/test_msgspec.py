"""msgspec encodes, decodes, converts and describes records as it does named tuples."""

import msgspec
import pytest

from records import Record, field


class Order(Record):
    customer: str
    lines: list[str] = field(default_factory=list)
    priority: int = 0


class TestParity:
    """The same assertions for a typing.NamedTuple and a Record with the same fields."""

    def test_json_round_trip(self, models):
        """Instances encode as arrays and decode back into the class, defaults filled in."""
        segment = models.Segment(models.Point(1, 2), models.Point(3), "s")
        assert b'[[1,2],[3,0],"s"]' == msgspec.json.encode(segment)
        decoded = msgspec.json.decode(b"[[1,2],[3]]", type=models.Segment)
        assert models.Segment(models.Point(1, 2), models.Point(3)) == decoded
        assert models.Point is type(decoded.end)

    def test_msgpack_round_trip(self, models):
        """MessagePack round-trips the same way."""
        point = models.Point(1, 2)
        decoded = msgspec.msgpack.decode(msgspec.msgpack.encode(point), type=models.Point)
        assert point == decoded
        assert models.Point is type(decoded)

    def test_errors_name_the_position(self, models):
        """A wrong item type is reported with its path."""
        with pytest.raises(
            msgspec.ValidationError, match=r"Expected `int`, got `str` - at `\$\[1\]`"
        ):
            msgspec.json.decode(b'[1, "a"]', type=models.Point)
        with pytest.raises(msgspec.ValidationError, match="Expected `array` of length 1 to 2"):
            msgspec.json.decode(b"[]", type=models.Point)

    def test_convert(self, models):
        """msgspec.convert builds the class from a list, coercing in lax mode."""
        assert models.Point(1, 2) == msgspec.convert([1, 2], type=models.Point)
        assert models.Point(1, 0) == msgspec.convert(["1"], type=models.Point, strict=False)
        assert models.Point is type(msgspec.convert([1], type=models.Point))

    def test_to_builtins(self, models):
        """to_builtins turns instances into tuples of builtins."""
        assert ((1, 0), (2, 0), "") == msgspec.to_builtins(
            models.Segment(models.Point(1), models.Point(2))
        )

    def test_generic(self, models):
        """A parametrized generic class decodes its items as the argument type."""
        assert models.Pair(1, 2) == msgspec.json.decode(b"[1, 2]", type=models.Pair[int])
        with pytest.raises(msgspec.ValidationError):
            msgspec.json.decode(b'["a", 2]', type=models.Pair[int])

    def test_recursive(self, models):
        """A class that refers to itself decodes nested levels."""
        tree = msgspec.json.decode(b"[1, [[2], [3, [[4]]]]]", type=models.Tree)
        assert models.Tree(1, (models.Tree(2), models.Tree(3, (models.Tree(4),)))) == tree

    def test_json_schema(self, models):
        """The JSON schema is a fixed-length array with the fields' types and defaults."""
        assert {
            "$ref": "#/$defs/Point",
            "$defs": {
                "Point": {
                    "title": "Point",
                    "type": "array",
                    "prefixItems": [{"type": "integer"}, {"type": "integer", "default": 0}],
                    "minItems": 1,
                    "maxItems": 2,
                }
            },
        } == msgspec.json.schema(models.Point)


class TestDefaultFactory:
    """msgspec has no hook for a named tuple's factories: the documented recipe fills them."""

    def test_recipe_fills_factory_fields(self, recipes):
        """The recipe decodes a short array, calling the factory for each missing field."""
        decode = recipes["msgspec"]["decode"]
        first, second = decode(b'["ann"]', Order), decode(b'["bob", ["x"], 2]', Order)
        assert Order("ann") == first
        assert Order("bob", ["x"], 2) == second
        assert first.lines is not decode(b'["ann"]', Order).lines

    def test_recipe_validates(self, recipes):
        """The recipe leaves validation to msgspec, with msgspec's errors."""
        decode = recipes["msgspec"]["decode"]
        with pytest.raises(msgspec.ValidationError, match="Expected `str`, got `int`"):
            decode(b"[1]", Order)
        with pytest.raises(msgspec.ValidationError, match="Expected `array` of length"):
            decode(b"[]", Order)
