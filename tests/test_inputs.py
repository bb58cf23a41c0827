"""``inputs.parse_int``: a number a request carries is ASCII digits within bounds, or nothing."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.inputs import parse_int


@pytest.mark.parametrize(
    ("text", "value"), [("0", 0), ("7", 7), ("42", 42), ("007", 7), ("100000", 100_000)]
)
def test_ascii_digits_within_bounds_are_read(text, value):
    assert parse_int(text, lo=0, hi=100_000) == value


@pytest.mark.parametrize(
    "text",
    [
        "²",  # superscript two: str.isdigit() says yes, int() refuses it
        "①",  # circled one: the same
        "٣",  # Arabic-Indic three: int() reads it as 3, no page of ours sends it
        "３",  # fullwidth three
        "1²",
        " 3",
        "3 ",
        "3\n",
        "+3",
        "-3",
        "1_000",
        "1e3",
        "0x1f",
        "3.0",
        "",
        "9" * 19,  # longer than any bound: refused before int() reads it
        "9" * 5000,  # beyond int()'s own limit on digits
    ],
)
def test_anything_else_is_nothing(text):
    assert parse_int(text, lo=0, hi=10**18) is None


@pytest.mark.parametrize("value", [None, 3, 3.0, b"3", ["3"]])
def test_only_text_is_read(value):
    assert parse_int(value, lo=0, hi=10) is None


def test_bounds_are_inclusive():
    assert parse_int("1", lo=1, hi=3) == 1
    assert parse_int("3", lo=1, hi=3) == 3
    assert parse_int("0", lo=1, hi=3) is None
    assert parse_int("4", lo=1, hi=3) is None
    assert parse_int("1", lo=1, hi=0) is None  # an empty range takes nothing


def test_a_sign_only_when_asked():
    assert parse_int("-5", lo=-9, hi=9, signed=True) == -5
    assert parse_int("+5", lo=-9, hi=9, signed=True) == 5
    assert parse_int("-5", lo=-9, hi=9) is None
    assert parse_int("+-5", lo=-9, hi=9, signed=True) is None
    assert parse_int("-²", lo=-9, hi=9, signed=True) is None
    assert parse_int("-10", lo=-9, hi=9, signed=True) is None


@given(st.text(max_size=30), st.booleans())
def test_never_raises_and_reads_only_plain_digits(text, signed):
    value = parse_int(text, lo=-1000, hi=1000, signed=signed)
    if value is not None:
        assert -1000 <= value <= 1000
        digits = text.lstrip("+-") if signed else text
        assert digits.isascii() and digits.isdigit() and int(text) == value
