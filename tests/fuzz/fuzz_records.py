"""
Coverage-guided fuzzing of record creation with atheris.

Each input becomes a type name, field names, rename, defaults and a module
name. records.namedtuple must behave as collections.namedtuple (same class or
same exception and message), Record.define must build a correct record or
raise ValueError/TypeError, and nothing may ever be executed: a sentinel in
builtins must never appear.

Run (bounded):  python tests/fuzz/fuzz_records.py -max_total_time=600
The test command runs it for 30 seconds (tox env "fuzz").
"""

import builtins
import collections
import sys

import atheris

with atheris.instrument_imports():
    import records
    from records import Record


def _outcome(factory, *args, **kwargs):
    try:
        return factory(*args, **kwargs)
    except Exception as error:  # comparing whatever is raised
        return error


_NAME_ALPHABET = "abcxyz_019\ufb01"  # short identifiers, underscores, digits, an NFKC pair


def _text(provider: "atheris.FuzzedDataProvider", limit: int) -> str:
    """Return mostly name-like text, sometimes any unicode: valid inputs reach deeper code."""
    if provider.ConsumeIntInRange(0, 3):
        length = provider.ConsumeIntInRange(0, limit)
        return "".join(_NAME_ALPHABET[provider.ConsumeIntInRange(0, 10)] for _ in range(length))
    return provider.ConsumeUnicodeNoSurrogates(provider.ConsumeIntInRange(0, limit))


def test_one_input(data: bytes) -> None:
    """Check one fuzzed input."""
    provider = atheris.FuzzedDataProvider(data)
    typename = _text(provider, 12)
    count = provider.ConsumeIntInRange(0, 6)
    names = [_text(provider, 8) for _ in range(count)]
    as_string = provider.ConsumeBool()
    rename = provider.ConsumeBool()
    defaults = (
        list(range(provider.ConsumeIntInRange(0, count + 1))) if provider.ConsumeBool() else None
    )
    module = provider.ConsumeUnicodeNoSurrogates(6) if provider.ConsumeBool() else None
    spec = " ".join(names) if as_string else names

    expected = _outcome(
        collections.namedtuple, typename, spec, rename=rename, defaults=defaults, module=module
    )
    actual = _outcome(
        records.namedtuple, typename, spec, rename=rename, defaults=defaults, module=module
    )
    if isinstance(expected, Exception):
        assert type(expected) is type(actual), (expected, actual)
        assert str(expected) == str(actual), (expected, actual)
    else:
        assert not isinstance(actual, Exception), actual
        assert expected._fields == actual._fields
        assert expected._field_defaults == actual._field_defaults
        values = list(range(len(expected._fields)))
        assert repr(expected._make(values)) == repr(actual._make(values))

    built = _outcome(Record.define, typename, [(name, int) for name in names], module=module)
    if isinstance(built, Exception):
        assert isinstance(built, (ValueError, TypeError)), repr(built)
    else:
        assert len(names) == len(built._fields)
        assert tuple(range(count)) == built(*range(count))
    assert not hasattr(builtins, "PWNED")


def main() -> None:
    """Start atheris on test_one_input."""
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
