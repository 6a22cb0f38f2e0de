"""Hypothesis strategies for record shapes."""

import keyword

from hypothesis import strategies as st

#: Field names: identifiers that are not keywords and do not start with "_",
#: including names of tuple methods.
field_names = st.one_of(
    st.sampled_from(["count", "index", "x", "y", "self", "cls", "tuple"]),
    st.from_regex(r"[a-zA-Z][a-zA-Z0-9_]{0,8}", fullmatch=True),
).filter(lambda name: not keyword.iskeyword(name))


@st.composite
def record_shapes(draw, max_fields=8):
    """A list of distinct field names and how many trailing ones have defaults."""
    names = draw(st.lists(field_names, max_size=max_fields, unique=True))
    defaults = draw(st.integers(min_value=0, max_value=len(names)))
    return names, defaults
