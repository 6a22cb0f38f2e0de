"""Field accessors, on the C path and the pure-Python fallback."""

import pytest

from records import _accessors


@pytest.mark.parametrize("make", [_accessors.accessor, _accessors._python_accessor])
def test_accessor_reads_item_and_is_read_only(make):
    """Both accessor kinds read their item, refuse writes and carry a doc."""

    class Pair(tuple):
        __slots__ = ()
        second = make(1, "The second item.")

    pair = Pair((1, 2))
    assert 2 == pair.second
    assert "The second item." == Pair.second.__doc__
    with pytest.raises(AttributeError):
        pair.second = 3
    with pytest.raises(AttributeError):
        del pair.second


def test_default_doc():
    """The default doc is namedtuple's text, interned and shared."""
    assert "Alias for field number 3" == _accessors.default_doc(3)
    assert _accessors.default_doc(3) is _accessors.default_docs(10)[3]


def test_fallback_getters_shared():
    """The pure-Python path reuses one itemgetter per index."""
    first = _accessors._python_accessor(2, "a")
    second = _accessors._python_accessor(2, "b")
    assert first is not second
    assert first.fget is second.fget
