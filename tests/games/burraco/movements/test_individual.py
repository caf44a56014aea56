"""Individual tournaments: new partners every turn, two players a side, fair byes."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.burraco.movements import MovementError, individual
from tests.games.burraco.movements.checks import assert_byes_fair, assert_everyone_once, meetings


def partners(schedule: dict) -> Counter[frozenset[int]]:
    together: Counter[frozenset[int]] = Counter()
    for turn in schedule["turns"]:
        for table in turn["tables"]:
            together[frozenset(table["NS"])] += 1
            together[frozenset(table["EW"])] += 1
    return together


def _check(players: int, turns: int, seed: int) -> dict:
    schedule = individual(players, turns, seed).to_json()
    entrants = list(range(1, players + 1))
    assert len(schedule["turns"]) == turns
    assert_everyone_once(schedule, entrants)
    assert_byes_fair(schedule, entrants)
    for turn in schedule["turns"]:
        assert len(turn["byes"]) == players % 4
        for table in turn["tables"]:
            assert len(table["NS"]) == len(table["EW"]) == 2
    # Nobody partners anyone twice while the turns allow it.
    if turns <= players - 1 + players % 2:
        assert max(partners(schedule).values()) == 1
    return schedule


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 60), st.integers(1, 6), st.integers(0, 1000))
def test_a_few_turns_any_size(players: int, turns: int, seed: int) -> None:
    _check(players, turns, seed)


@pytest.mark.parametrize("players", [*range(4, 32), 34, 35, 42, 47, 58, 59, 60])
def test_every_turn_of_new_partners(players: int) -> None:
    turns = players - 1 + players % 2
    schedule = _check(players, turns, seed=players)
    if players % 4 in (0, 1):  # no partnership rests: everyone partners everyone once
        assert set(partners(schedule)) == {
            frozenset(c) for c in itertools.combinations(range(1, players + 1), 2)
        }


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("players", [4, 5, 8, 12])
def test_whist_sizes_partner_once_and_oppose_twice(players: int, seed: int) -> None:
    """docs/rules/burraco.md: 8 players in 7 turns, everyone partners everyone once, opposes
    twice."""
    turns = players - 1 + players % 2
    schedule = _check(players, turns, seed)
    every_two = {frozenset(c) for c in itertools.combinations(range(1, players + 1), 2)}
    assert set(partners(schedule)) == every_two
    assert set(partners(schedule).values()) == {1}
    assert set(meetings(schedule)) == every_two
    assert set(meetings(schedule).values()) == {2}


def test_the_seed_changes_the_draw_not_the_properties() -> None:
    assert individual(12, 3, 1).to_json() == individual(12, 3, 1).to_json()
    assert individual(12, 3, 1).to_json() != individual(12, 3, 2).to_json()


def test_past_the_cycle_partners_repeat_but_everyone_still_plays() -> None:
    schedule = individual(4, 5).to_json()
    assert_everyone_once(schedule, [1, 2, 3, 4])
    assert max(partners(schedule).values()) == 2


@pytest.mark.parametrize(
    ("players", "turns", "code"), [(3, 1, "too_few_players"), (8, 0, "invalid_turns")]
)
def test_refused(players: int, turns: int, code: str) -> None:
    with pytest.raises(MovementError) as caught:
        individual(players, turns)
    assert caught.value.code == code
