"""Numbers as the stored standing rows show them (scoring/engine/ranking.py, number and
average_number): the same ints and floats however they are made."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import ranking as s

totals = st.one_of(
    st.decimals(min_value=-(10**6), max_value=10**6, places=2),
    st.fractions(max_denominator=60),
    st.integers(-(10**6), 10**6),
)


@settings(max_examples=500, deadline=None)
@given(totals, st.integers(0, 400))
def test_average_number_is_the_number_of_the_average(total, games):
    """The stored average, made without a Fraction (a league writes a thousand)."""
    line = s.PlayerLine(player_id=1, games=games, total=total)
    got = s.average_number(line)
    assert got == s.number(line.average)
    assert type(got) is type(s.number(line.average))


@settings(max_examples=300, deadline=None)
@given(st.fractions())
def test_number_of_a_fraction_is_its_rounded_float(value):
    expected = int(value) if value.denominator == 1 else round(float(value), 2)
    assert s.number(value) == expected
    assert type(s.number(value)) is type(expected)
