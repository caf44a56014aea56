"""Mitchell: NS pairs stay, two NS or two EW pairs never meet, no rematch, fair byes."""

from __future__ import annotations

from math import gcd

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.burraco.movements import MovementError, mitchell, mitchell_turns
from tests.games.burraco.movements.checks import assert_byes_fair, assert_everyone_once, meetings


def _check(pairs: int, turns: int, step: int) -> None:
    schedule = mitchell(pairs, turns, step).to_json()
    entrants = list(range(1, pairs + 1))
    tables = (pairs + 1) // 2
    assert len(schedule["turns"]) == turns
    assert_everyone_once(schedule, entrants)
    assert_byes_fair(schedule, entrants)
    ns_line = set(range(1, tables + 1))
    for turn in schedule["turns"]:
        for table in turn["tables"]:
            # NS pairs never move: pair t sits NS at table t all evening.
            assert table["NS"] == table["table"]
            # Two NS or two EW pairs never meet.
            assert table["NS"] in ns_line and table["EW"] not in ns_line
        # Only an NS pair can rest, at the table the missing EW place reaches.
        assert all(bye in ns_line for bye in turn["byes"])
        assert len(turn["byes"]) == pairs % 2
    assert max(meetings(schedule).values()) == 1


@pytest.mark.parametrize("pairs", range(2, 61))
def test_every_size_for_all_its_turns_with_step_one(pairs: int) -> None:
    turns = mitchell_turns(pairs)
    assert turns == (pairs + 1) // 2
    _check(pairs, turns, 1)


@settings(max_examples=80, deadline=None)
@given(st.integers(4, 60), st.data())
def test_any_step(pairs: int, data: st.DataObject) -> None:
    tables = (pairs + 1) // 2
    step = data.draw(st.integers(1, tables - 1))
    turns = data.draw(st.integers(1, tables // gcd(step, tables)))
    _check(pairs, turns, step)


def test_odd_pairs_rest_in_turn_round_the_ns_line() -> None:
    schedule = mitchell(7, 4).to_json()
    assert [turn["byes"] for turn in schedule["turns"]] == [[4], [1], [2], [3]]
    first = schedule["turns"][0]["tables"]
    assert first == [
        {"table": 1, "NS": 1, "EW": 5},
        {"table": 2, "NS": 2, "EW": 6},
        {"table": 3, "NS": 3, "EW": 7},
    ]
    # Turn 2: every EW pair one table up; table 1 is empty (pair 1 rests).
    assert schedule["turns"][1]["tables"] == [
        {"table": 2, "NS": 2, "EW": 5},
        {"table": 3, "NS": 3, "EW": 6},
        {"table": 4, "NS": 4, "EW": 7},
    ]


def test_step_two_moves_ew_pairs_two_tables() -> None:
    schedule = mitchell(10, 5, step=2).to_json()
    second = {t["table"]: t["EW"] for t in schedule["turns"][1]["tables"]}
    assert second == {3: 6, 4: 7, 5: 8, 1: 9, 2: 10}


@pytest.mark.parametrize(
    ("pairs", "turns", "step", "code"),
    [
        (1, 1, 1, "too_few_pairs"),
        (10, 0, 1, "invalid_turns"),
        (10, 6, 1, "too_many_turns"),  # 5 tables: 5 EW pairs to meet
        (12, 4, 2, "too_many_turns"),  # 6 tables, step 2: back after 3 turns
        (10, 2, 0, "invalid_step"),
        (10, 2, 5, "invalid_step"),
    ],
)
def test_refused(pairs: int, turns: int, step: int, code: str) -> None:
    with pytest.raises(MovementError) as caught:
        mitchell(pairs, turns, step)
    assert caught.value.code == code
    assert str(caught.value)
