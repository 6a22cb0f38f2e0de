"""pandas, typeguard and beartype take records as they take named tuples."""

import pandas as pd
import pytest
from beartype import beartype
from beartype.door import is_bearable
from beartype.roar import BeartypeCallHintParamViolation
from typeguard import TypeCheckError, check_type, typechecked


class TestPandas:
    """Data frames from records, and records from data frames."""

    def test_frame_columns_are_the_fields(self, models):
        """A list of records makes a frame with one column per field."""
        frame = pd.DataFrame([models.Point(1, 2), models.Point(3)])
        assert ["x", "y"] == list(frame.columns)
        assert [[1, 2], [3, 0]] == frame.to_numpy().tolist()

    def test_rows_back_to_records(self, models):
        """itertuples rows become records again through _make."""
        points = [models.Point(1, 2), models.Point(3)]
        frame = pd.DataFrame(points)
        assert points == [models.Point._make(row) for row in frame.itertuples(index=False)]


class TestTypeguard:
    """typeguard checks arguments against the class."""

    def test_accepts_instances_and_rejects_plain_tuples(self, models):
        """An instance passes; a plain tuple with the same items does not."""

        @typechecked
        def norm(point: models.Point) -> int:
            return point.x + point.y

        assert 3 == norm(models.Point(1, 2))
        with pytest.raises(TypeCheckError):
            norm((1, 2))

    def test_check_type(self, models):
        """check_type accepts an instance as its class and as a tuple."""
        point = models.Point(1, 2)
        assert point is check_type(point, models.Point)
        assert point is check_type(point, tuple)


class TestBeartype:
    """beartype checks arguments against the class."""

    def test_accepts_instances_and_rejects_plain_tuples(self, models):
        """An instance passes; a plain tuple with the same items does not."""

        @beartype
        def norm(point: models.Point) -> int:
            return point.x + point.y

        assert 3 == norm(models.Point(1, 2))
        with pytest.raises(BeartypeCallHintParamViolation):
            norm((1, 2))

    def test_is_bearable(self, models):
        """is_bearable tells instances from plain tuples."""
        assert is_bearable(models.Point(1, 2), models.Point)
        assert not is_bearable((1, 2), models.Point)
