"""Records defined under postponed evaluation of annotations (PEP 563)."""

from __future__ import annotations

from typing import ClassVar

from records import Record, field


class Later(Record):
    """Annotations here are strings, and some name types that do not exist."""

    count: ClassVar[int] = 0
    name: DoesNotExist  # noqa: F821  # never evaluated
    tags: list[str] = field(default_factory=list)
    size: int = 3
