"""Seating: properties over random inputs, known optima, determinism, validation."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.barbu.seating import (
    RoundPlan,
    SeatingError,
    SeatingPlan,
    SeatingRequest,
    mixing,
    plan_seating,
)
from games.barbu.seating.constructions import known_rounds


def pair_counts(plan: SeatingPlan) -> Counter:
    counts: Counter = Counter()
    for round_plan in plan.rounds:
        for table in round_plan.tables:
            for a, b in itertools.combinations(table, 2):
                counts[frozenset((a, b))] += 1
    return counts


def check_plan(plan: SeatingPlan, request: SeatingRequest) -> None:
    """The invariants every plan keeps, whatever the method."""
    players = list(request.players)
    assert len(plan.rounds) == request.rounds
    byes = Counter()
    in_plan: Counter = Counter()
    for round_plan in plan.rounds:
        assert isinstance(round_plan, RoundPlan)
        assert all(len(table) == 4 for table in round_plan.tables)
        seated = [p for table in round_plan.tables for p in table]
        assert sorted(seated + round_plan.byes, key=players.index) == players
        assert len(round_plan.byes) == len(players) % 4
        playing = [q for q in players if q not in round_plan.byes]
        for p in round_plan.byes:
            # no second bye in the plan while someone else has had fewer in it
            assert in_plan[p] <= min(in_plan[q] for q in playing)
        in_plan.update(round_plan.byes)
        byes.update(round_plan.byes)
    totals = [request.byes_so_far.get(p, 0) + byes[p] for p in players]
    if not request.byes_so_far:
        assert max(totals) - min(totals) <= 1
    assert plan.repeats == sum(c - 1 for c in pair_counts(plan).values())


def check_dealers(plan: SeatingPlan, request: SeatingRequest) -> None:
    """Seat 0 goes to the player at the table who has dealt first least often so far."""
    dealt = Counter(request.dealt_first_so_far)
    for round_plan in plan.rounds:
        for table in round_plan.tables:
            assert dealt[table[0]] == min(dealt[p] for p in table)
        for table in round_plan.tables:
            dealt[table[0]] += 1


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(4, 41),
    rounds=st.integers(1, 6),
    method=st.sampled_from(["mix", "swiss", "random"]),
    seed=st.integers(0, 2**32),
    met=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40), st.floats(0, 3)), max_size=30),
)
def test_every_player_seated_once_or_bye(n, rounds, method, seed, met) -> None:
    players = [f"p{i}" for i in range(n)]
    history = {(f"p{a}", f"p{b}"): w for a, b, w in met if a != b}
    request = SeatingRequest(
        players=players,
        rounds=rounds,
        method=method,
        seed=seed,
        history=history,
        standings=players[::-1],
        time_limit=0.05,
    )
    plan = plan_seating(request)
    check_plan(plan, request)
    check_dealers(plan, request)
    assert plan.explanation
    assert plan.history_repeats >= 0


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(5, 23).filter(lambda n: n % 4),
    byes_so_far=st.lists(st.integers(0, 3), min_size=23, max_size=23),
    dealt=st.lists(st.integers(0, 3), min_size=23, max_size=23),
    rounds=st.integers(1, 5),
)
def test_byes_go_to_fewest_so_far(n, byes_so_far, dealt, rounds) -> None:
    players = list(range(n))
    request = SeatingRequest(
        players=players,
        rounds=rounds,
        byes_so_far=dict(enumerate(byes_so_far[:n])),
        dealt_first_so_far=dict(enumerate(dealt[:n])),
        time_limit=0.05,
    )
    plan = plan_seating(request)
    check_plan(plan, request)
    check_dealers(plan, request)
    first = plan.rounds[0].byes
    fewest = sorted(byes_so_far[:n])[len(first) - 1]
    assert all(byes_so_far[p] <= fewest for p in first)


@pytest.mark.parametrize(("n", "rounds"), [(16, 5), (20, 5), (24, 7), (28, 9), (32, 9)])
def test_known_optima_have_no_repeats(n: int, rounds: int) -> None:
    request = SeatingRequest(players=list(range(1, n + 1)), rounds=rounds, seed=3)
    plan = plan_seating(request)
    check_plan(plan, request)
    assert plan.repeats == 0
    assert "No pair of players meets twice in this plan." in plan.explanation


@pytest.mark.parametrize("n", [16, 20, 24, 28, 32, 64, 256])
def test_constructions_are_repeat_free(n: int) -> None:
    seen = set()
    for round_tables in known_rounds(n):
        assert sorted(p for table in round_tables for p in table) == list(range(n))
        for table in round_tables:
            assert len(table) == 4
            for pair in itertools.combinations(sorted(table), 2):
                assert pair not in seen
                seen.add(pair)


def test_search_alone_finds_twenty_players_five_rounds() -> None:
    seated = [list(range(20))] * 5
    weights = [0.0] * 400
    rng = random.Random(1)
    tables = mixing.starting_tables(seated, 20, weights, rng, use_constructions=False)
    cost, _, _ = mixing.tabu_search(tables, 20, weights, rng, max_work=2_000_000)
    assert cost == 0


@pytest.mark.parametrize(("n", "rounds"), [(16, 5), (40, 6), (21, 6)])
def test_dealing_first_spread_over_the_evening(n: int, rounds: int) -> None:
    plan = plan_seating(SeatingRequest(players=range(n), rounds=rounds, seed=2))
    dealt = Counter({p: 0 for p in range(n)})
    dealt.update(table[0] for round_plan in plan.rounds for table in round_plan.tables)
    assert max(dealt.values()) - min(dealt.values()) <= 1


def test_repeats_explained_by_lower_bound() -> None:
    plan = plan_seating(SeatingRequest(players=range(8), rounds=3, time_limit=1))
    # two tables: each later table holds two pairs from the first round
    assert plan.repeats == 12
    assert "At least 8 cannot be avoided" in " ".join(plan.explanation)
    plan = plan_seating(SeatingRequest(players=range(16), rounds=6, time_limit=0.5))
    assert plan.repeats == 24  # 18 meetings each, 15 others: 3 extra per player
    assert "the fewest possible" in " ".join(plan.explanation)


def test_same_seed_same_plan_other_seed_other_plan() -> None:
    request = SeatingRequest(players=list(range(30)), rounds=4, seed=7, time_limit=0.2)
    first, second = plan_seating(request), plan_seating(request)
    if first.stopped_by_time_limit or second.stopped_by_time_limit:
        pytest.skip("machine too slow for the work budget")
    assert first == second
    other = plan_seating(SeatingRequest(players=list(range(30)), rounds=4, seed=8))
    assert other.rounds != plan_seating(request).rounds


def test_heavy_history_pair_kept_apart() -> None:
    players = list(range(12))
    history = {frozenset((0, 1)): 5.0, (2, 3): 5.0}
    for seed in range(5):
        plan = plan_seating(
            SeatingRequest(players=players, rounds=1, seed=seed, history=history, time_limit=0.1)
        )
        for table in plan.rounds[0].tables:
            assert not {0, 1} <= set(table)
            assert not {2, 3} <= set(table)
        assert plan.history_repeats == 0


def test_history_weight_reported_when_unavoidable() -> None:
    # four players, one table: the history pair must sit together
    plan = plan_seating(SeatingRequest(players="abcd", history={("a", "b"): 0.5}))
    assert plan.history_repeats == 0.5
    # In words: how many pairs meet again, not the weights' sum ("weighing 0.5").
    assert any(sentence.startswith("1 pair seated together") for sentence in plan.explanation)
    assert not any("0.5" in sentence for sentence in plan.explanation)


def test_swiss_groups_by_standings() -> None:
    players = list(range(16))
    standings = [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    plan = plan_seating(SeatingRequest(players=players, method="swiss", standings=standings))
    assert [sorted(t) for t in plan.rounds[0].tables] == [
        [12, 13, 14, 15],
        [8, 9, 10, 11],
        [4, 5, 6, 7],
        [0, 1, 2, 3],
    ]


def test_swiss_avoids_rematch_with_nearby_swap() -> None:
    players = list(range(16))
    history = {(0, 1): 1.0}
    plan = plan_seating(
        SeatingRequest(players=players, method="swiss", standings=players, history=history)
    )
    tables = [set(t) for t in plan.rounds[0].tables]
    assert plan.history_repeats == 0
    assert 0 in tables[0] and not {0, 1} <= tables[0]
    assert all(max(t) - min(t) <= 8 for t in tables)


def test_swiss_bye_to_lowest_standing() -> None:
    players = list(range(9))
    plan = plan_seating(SeatingRequest(players=players, method="swiss", standings=players))
    assert plan.rounds[0].byes == [8]


def test_fixed_tables_kept() -> None:
    tables = [("a", "b", "c", "d"), ("e", "f", "g", "h")]
    plan = plan_seating(SeatingRequest(players="abcdefghi", method="fixed", fixed_tables=tables))
    assert plan.rounds[0].tables == tables
    assert plan.rounds[0].byes == ["i"]


@pytest.mark.parametrize(
    ("tables", "code"),
    [
        ([("a", "b", "c")], "fixed_table_size"),
        ([("a", "b", "c", "z"), ("e", "f", "g", "h")], "fixed_unknown_player"),
        ([("a", "b", "c", "d"), ("a", "f", "g", "h")], "fixed_duplicate_player"),
        ([("a", "b", "c", "d")], "fixed_not_covering"),
    ],
)
def test_fixed_validation(tables, code) -> None:
    with pytest.raises(SeatingError) as error:
        plan_seating(SeatingRequest(players="abcdefgh", method="fixed", fixed_tables=tables))
    assert error.value.code == code
    assert str(error.value)


@pytest.mark.parametrize(
    ("request_args", "code"),
    [
        ({"players": [1, 2, 3]}, "too_few_players"),
        ({"players": range(1001)}, "too_many_players"),
        ({"players": [1, 2, 3, 4, 1]}, "duplicate_player"),
        ({"players": range(8), "method": "alphabetical"}, "unknown_method"),
        ({"players": range(8), "rounds": 0}, "invalid_rounds"),
        ({"players": range(8), "time_limit": 0}, "invalid_time_limit"),
        ({"players": range(8), "history": {(1, 1): 1.0}}, "invalid_history"),
        ({"players": range(8), "history": {(1, 2): -1.0}}, "invalid_history"),
        ({"players": range(8), "byes_so_far": {1: -1}}, "invalid_byes_so_far"),
        ({"players": range(8), "method": "fixed", "rounds": 2}, "fixed_rounds"),
    ],
)
def test_user_errors_have_codes(request_args, code) -> None:
    with pytest.raises(SeatingError) as error:
        plan_seating(SeatingRequest(**request_args))
    assert error.value.code == code
    assert isinstance(error.value.params, dict)


def test_to_json_shape_and_number_map() -> None:
    plan = plan_seating(SeatingRequest(players="abcde", seed=1))
    numbers = {p: i for i, p in enumerate("abcde", start=1)}
    data = plan.to_json(numbers)
    assert set(data) >= {"rounds", "repeats"}
    assert sorted(data["rounds"][0]["tables"][0] + data["rounds"][0]["byes"]) == [1, 2, 3, 4, 5]
    assert data["repeats"] == 0


def test_four_hundred_players_one_round() -> None:
    # How fast is measured in bench/bench_seating.py, not here.
    plan = plan_seating(SeatingRequest(players=range(400), seed=1))
    (round_,) = plan.rounds
    assert len(round_.tables) == 100
    assert sorted(p for table in round_.tables for p in table) == list(range(400))
    assert plan.repeats == 0
