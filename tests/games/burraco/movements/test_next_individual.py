"""`next_individual_turn`: one individual turn seated from what was played before it (the
players changed since the start, or past the planned turns). Pure, no Django."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.burraco.movements import MovementError, next_individual_turn


def _play(players: list[int], turns: int, seed: int) -> tuple[list, Counter, Counter]:
    partnered: Counter[tuple[int, int]] = Counter()
    opposed: Counter[tuple[int, int]] = Counter()
    byes: Counter[int] = Counter()
    last: dict[int, int] = {}
    seated = []
    for number in range(1, turns + 1):
        turn = next_individual_turn(
            players,
            number,
            partnered=partnered,
            opposed=opposed,
            byes=byes,
            last_bye=last,
            seed=seed,
        )
        seated.append(turn)
        for table in turn.tables:
            for side in (table.ns, table.ew):
                partnered[tuple(sorted(side))] += 1
            for a in table.ns:
                for b in table.ew:
                    opposed[(min(a, b), max(a, b))] += 1
        for p in turn.byes:
            byes[p] += 1
            last[p] = number
    return seated, partnered, byes


@settings(max_examples=30, deadline=None)
@given(st.integers(4, 30), st.integers(0, 10_000))
def test_everyone_seated_once_no_repeat_partner_while_possible_fair_byes(
    count: int, seed: int
) -> None:
    # Entry numbers as a tournament has them after a withdrawal: not 1..N.
    players = [n for n in range(1, count + 2) if n != 2]
    active = count - count % 4
    # Dirac: while turns <= active / 2, the players not yet partnered leave a matching.
    turns = max(1, min(active // 2, 8))
    seated, partnered, byes = _play(players, turns, seed)
    for turn in seated:
        sitting = [p for t in turn.tables for p in (*t.ns, *t.ew)]
        assert sorted(sitting + list(turn.byes)) == players
        assert len(turn.byes) == count % 4
        assert [t.number for t in turn.tables] == list(range(1, len(turn.tables) + 1))
    assert max(partnered.values()) == 1
    resting = [byes[p] for p in players]
    assert max(resting) - min(resting) <= 1


def test_the_byes_go_to_those_who_have_not_rested() -> None:
    turn = next_individual_turn(
        [1, 3, 4, 5, 6], 3, byes=Counter({1: 1, 3: 1, 4: 1}), last_bye={1: 1, 3: 1, 4: 2}
    )
    assert turn.byes[0] in (5, 6)


def test_earlier_partners_are_avoided() -> None:
    # 1-2 and 3-4 partnered already: four players leave 1-3/2-4 or 1-4/2-3.
    turn = next_individual_turn([1, 2, 3, 4], 2, partnered=Counter({(1, 2): 1, (3, 4): 1}))
    (table,) = turn.tables
    assert {tuple(sorted(table.ns)), tuple(sorted(table.ew))} & {(1, 2), (3, 4)} == set()


def test_too_few_players() -> None:
    with pytest.raises(MovementError) as error:
        next_individual_turn([1, 2, 3], 1)
    assert error.value.code == "too_few_players"
