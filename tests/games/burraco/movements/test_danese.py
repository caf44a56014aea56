"""Danese turns against hand-made standings (docs/rules/burraco.md: pure, modified, no_rematch)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.burraco.movements import MovementError, PairStanding, Standings, next_danese_turn
from games.burraco.movements.matching import pair_ranks
from tests.games.burraco.movements.checks import assert_everyone_once


def _standings(rows: list[tuple[int, int | None, list[int], int]], last: bool = False):
    pairs = tuple(
        PairStanding(
            pair=p, previous=prev, met=frozenset(met) | ({prev} if prev else set()), byes=byes
        )
        for p, prev, met, byes in rows
    )
    return Standings(pairs, last)


def _tables(standings: Standings, variant: str) -> tuple[list[tuple[int, int]], list[int]]:
    turn = next_danese_turn(standings, variant).to_json()["turns"][0]
    return [(t["NS"], t["EW"]) for t in turn["tables"]], turn["byes"]


# Ranking best first: 12, 4, 9, 1, 7, 3. Last turn: 12 v 4, 9 v 1, 7 v 3.
LAST_TURN_DANESE = [
    (12, 4, [4, 7], 0),
    (4, 12, [12, 3], 0),
    (9, 1, [1, 3], 0),
    (1, 9, [9, 7], 0),
    (7, 3, [3, 12, 1], 0),
    (3, 7, [7, 4, 9], 0),
]


def test_pure_seats_first_v_second_whatever_came_before() -> None:
    tables, byes = _tables(_standings(LAST_TURN_DANESE), "pure")
    assert tables == [(12, 4), (9, 1), (7, 3)]
    assert byes == []


def test_modified_avoids_the_previous_opponent() -> None:
    tables, _ = _tables(_standings(LAST_TURN_DANESE), "modified")
    # 12 takes 9 (4 was its last opponent), 4 takes 1, 7 and 3 met last turn:
    # the last choice above changes, so 4 takes 7 and 1 meets 3.
    assert tables == [(12, 9), (4, 7), (1, 3)]


def test_modified_is_pure_on_the_last_turn() -> None:
    tables, _ = _tables(_standings(LAST_TURN_DANESE, last=True), "modified")
    assert tables == [(12, 4), (9, 1), (7, 3)]


def test_no_rematch_finds_the_cheapest_pairing_greedy_misses() -> None:
    tables, _ = _tables(_standings(LAST_TURN_DANESE), "no_rematch")
    for ns, ew in tables:
        row = next(r for r in LAST_TURN_DANESE if r[0] == ns)
        assert ew not in row[2]
    # Ranks: 12=0 4=1 9=2 1=3 7=4 3=5. Never met: 12-9, 12-1, 12-3, 4-9, 4-1, 4-7,
    # 9-7, 1-3. Pair 3 can only meet 12 (then 4v1 + 9v7: 5 + 2 + 2 = 9) or 1 (then
    # 12v9 + 4v7: 2 + 2 + 3 = 7). A greedy pass (12v9, 4v1) leaves 7 v 3, who met.
    assert tables == [(12, 9), (4, 7), (1, 3)]


def test_no_rematch_minimises_rematches_when_none_is_free() -> None:
    # Four pairs, all of whom met each other but 2 and 3 and 1 and 4.
    rows = [
        (1, 2, [2, 3], 0),
        (2, 1, [1, 4], 0),
        (3, None, [1, 4], 0),
        (4, None, [2, 3], 0),
    ]
    tables, _ = _tables(_standings(rows), "no_rematch")
    assert tables == [(1, 4), (2, 3)]
    # All met all: the pure pairing (nearest ranks).
    everyone = [(p, None, [q for q in range(1, 5) if q != p], 0) for p in range(1, 5)]
    assert _tables(_standings(everyone), "no_rematch")[0] == [(1, 2), (3, 4)]


@pytest.mark.parametrize("variant", ["pure", "modified", "no_rematch"])
def test_bye_to_the_lowest_ranked_pair_with_fewest_byes(variant: str) -> None:
    rows = [(p, None, [], 1 if p in (5, 2) else 0) for p in (1, 2, 3, 4, 5)]
    tables, byes = _tables(_standings(rows), variant)
    assert byes == [4]
    # Ranks close up around the pair on a bye: 3 and 5 are neighbours.
    assert tables == [(1, 2), (3, 5)]
    everyone_rested = [(p, None, [], 1) for p in (1, 2, 3)]
    assert _tables(_standings(everyone_rested), variant)[1] == [3]


def test_a_single_pair_is_refused() -> None:
    with pytest.raises(MovementError) as caught:
        next_danese_turn(_standings([(1, None, [], 0)]), "pure")
    assert caught.value.code == "too_few_pairs"
    with pytest.raises(MovementError) as caught:
        next_danese_turn(_standings(LAST_TURN_DANESE), "swiss")
    assert caught.value.code == "unknown_variant"


def _random_standings(count: int, turns: int, seed: int) -> Standings:
    rng = random.Random(seed)
    numbers = rng.sample(range(1, 3 * count), count)
    met: dict[int, set[int]] = {n: set() for n in numbers}
    previous: dict[int, int | None] = dict.fromkeys(numbers)
    byes = dict.fromkeys(numbers, 0)
    for _ in range(turns):
        order = numbers[:]
        rng.shuffle(order)
        if len(order) % 2:
            rest = order.pop()
            byes[rest] += 1
            previous[rest] = None
        for a, b in zip(order[::2], order[1::2], strict=True):
            met[a].add(b)
            met[b].add(a)
            previous[a], previous[b] = b, a
    rng.shuffle(numbers)
    return Standings(
        tuple(
            PairStanding(pair=n, previous=previous[n], met=frozenset(met[n]), byes=byes[n])
            for n in numbers
        )
    )


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 60), st.integers(0, 6), st.integers(0, 10**6))
def test_properties_over_sizes(count: int, turns: int, seed: int) -> None:
    standings = _random_standings(count, turns, seed)
    numbers = [p.pair for p in standings.pairs]
    by_number = {p.pair: p for p in standings.pairs}
    for variant in ("pure", "modified", "no_rematch"):
        schedule = next_danese_turn(standings, variant).to_json()
        assert_everyone_once(schedule, numbers)
        turn = schedule["turns"][0]
        if count % 2:
            fewest = min(p.byes for p in standings.pairs)
            assert turn["byes"] == [[p for p in numbers if by_number[p].byes == fewest][-1]]
        tables = [(t["NS"], t["EW"]) for t in turn["tables"]]
        if variant == "modified" and count - count % 2 >= 4:
            assert all(by_number[ns].previous != ew for ns, ew in tables)
        if variant == "no_rematch":
            playing = [p for p in numbers if p not in turn["byes"]]
            rank = {p: r for r, p in enumerate(playing)}
            met = [{rank[o] for o in by_number[p].met if o in rank} for p in playing]
            best = pair_ranks(len(playing), met)
            rematches = sum(ew in by_number[ns].met for ns, ew in tables)
            assert rematches == sum(b in met[a] for a, b in best)
            assert sum(abs(rank[a] - rank[b]) for a, b in tables) == sum(b - a for a, b in best)
