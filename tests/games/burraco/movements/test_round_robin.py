"""Round robin: everyone meets everyone of their group once, on a fixed calendar."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.burraco.movements import MovementError, round_robin
from games.burraco.movements.round_robin import calendar_length, split_groups
from tests.games.burraco.movements.checks import assert_byes_fair, assert_everyone_once, meetings


@pytest.mark.parametrize("pairs", range(2, 61))
def test_everyone_meets_everyone_once(pairs: int) -> None:
    turns = calendar_length(pairs)
    schedule = round_robin(pairs, turns).to_json()
    entrants = list(range(1, pairs + 1))
    assert_everyone_once(schedule, entrants)
    assert_byes_fair(schedule, entrants)
    met = meetings(schedule)
    assert set(met) == {frozenset(c) for c in itertools.combinations(entrants, 2)}
    assert set(met.values()) == {1}
    byes = [b for turn in schedule["turns"] for b in turn["byes"]]
    assert sorted(byes) == (entrants if pairs % 2 else [])


@settings(max_examples=60, deadline=None)
@given(st.integers(4, 60), st.integers(1, 4), st.data())
def test_groups_and_partial_calendars(pairs: int, groups: int, data: st.DataObject) -> None:
    if pairs < 2 * groups:
        with pytest.raises(MovementError):
            round_robin(pairs, 1, groups)
        return
    blocks = split_groups(pairs, groups)
    longest = min(calendar_length(len(b)) for b in blocks)
    turns = data.draw(st.integers(1, longest))
    schedule = round_robin(pairs, turns, groups).to_json()
    entrants = list(range(1, pairs + 1))
    assert_everyone_once(schedule, entrants)
    assert_byes_fair(schedule, entrants)
    group_of = {p: i for i, block in enumerate(blocks) for p in block}
    met = meetings(schedule)
    assert max(met.values()) == 1
    assert all(len({group_of[p] for p in two}) == 1 for two in met)
    if turns == longest:
        for block in blocks:
            if calendar_length(len(block)) == turns:
                assert {frozenset(c) for c in itertools.combinations(block, 2)} <= set(met)


def test_groups_are_consecutive_and_even() -> None:
    assert split_groups(11, 2) == [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11]]
    schedule = round_robin(11, 5, groups=2).to_json()
    # A group of 6 and a group of 5: both complete in 5 turns, one bye a turn (group 2).
    assert all(len(turn["byes"]) == 1 for turn in schedule["turns"])
    assert all(bye >= 7 for turn in schedule["turns"] for bye in turn["byes"])


def test_nobody_sits_on_one_line_all_evening() -> None:
    schedule = round_robin(8, 7).to_json()
    for pair in range(1, 9):
        ns = sum(t["NS"] == pair for turn in schedule["turns"] for t in turn["tables"])
        assert 2 <= ns <= 5


@pytest.mark.parametrize(
    ("pairs", "turns", "groups", "code"),
    [
        (6, 6, 1, "too_many_turns"),
        (7, 8, 1, "too_many_turns"),
        (6, 0, 1, "invalid_turns"),
        (5, 1, 3, "invalid_groups"),
        (6, 1, 0, "invalid_groups"),
    ],
)
def test_refused(pairs: int, turns: int, groups: int, code: str) -> None:
    with pytest.raises(MovementError) as caught:
        round_robin(pairs, turns, groups)
    assert caught.value.code == code
