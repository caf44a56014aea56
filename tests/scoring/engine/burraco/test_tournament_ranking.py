"""Burraco tournament rankings (scoring/engine/burraco/ranking.py): hand-made cases and
properties."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.burraco import PRESETS, parse_ruleset, turn_result
from scoring.engine.burraco.ranking import (
    PairRow,
    TurnScore,
    bye_score,
    danese_standings,
    rank_pairs,
    season_ranking,
)

D = Decimal


def meeting(turn: int, a: int, b: int, mp_a: int, mp_b: int, hands: int = 3) -> list[TurnScore]:
    """Both rows of a table, VP from the fibur table as the engine computes them."""
    result = turn_result(mp_a, mp_b, PRESETS["fibur"].vp_tables[hands])
    return [
        TurnScore(turn, a, b, D(result["vp"]["NS"]), mp_a, mp_b),
        TurnScore(turn, b, a, D(result["vp"]["EW"]), mp_b, mp_a),
    ]


def by_pair(rows: list[PairRow]) -> dict[int, PairRow]:
    return {row.pair: row for row in rows}


def test_ranked_by_vp_then_mp_difference() -> None:
    scores = [
        *meeting(1, 1, 2, 1000, 600),  # D 400: 14-6
        *meeting(1, 3, 4, 700, 650),  # D 50: 10-10
        *meeting(2, 1, 3, 500, 500),  # level: 10-10
        *meeting(2, 2, 4, 900, 800),  # D 100: 11-9
    ]
    rows = rank_pairs(scores)
    assert [(r.pair, r.place, r.vp, r.mp_difference) for r in rows] == [
        (1, 1, D(24), 400),
        (3, 2, D(20), 50),
        (4, 3, D(19), -150),
        (2, 4, D(17), -300),
    ]
    assert [r.decided_by for r in rows] == [None, "vp", "vp", "vp"]
    assert not any(r.shared for r in rows)
    assert all(r.turns == 2 and r.byes == 0 for r in rows)


def test_mp_difference_decides_level_vp() -> None:
    scores = [
        *meeting(1, 1, 2, 900, 500),  # D 400: 14-6
        *meeting(1, 3, 4, 1000, 650),  # D 350: 13-7
        *meeting(2, 1, 4, 600, 600),  # 10-10
        *meeting(2, 3, 2, 700, 640),  # D 60: 11-9
    ]
    rows = rank_pairs(scores)
    # 1: 24 VP, +400; 3: 24 VP, +410 -> 3 first on MP.
    assert [(r.pair, r.vp, r.mp_difference, r.decided_by) for r in rows[:2]] == [
        (3, D(24), 410, None),
        (1, D(24), 400, "mp_difference"),
    ]


def test_head_to_head_when_level_on_vp_and_mp() -> None:
    scores = [
        *meeting(1, 1, 2, 700, 600),  # D 100: 11-9
        *meeting(2, 1, 3, 500, 900),  # D 400: 6-14
        *meeting(2, 2, 4, 900, 500),  # D 400: 14-6
        *meeting(3, 1, 4, 900, 600),  # D 300: 13-7
        *meeting(3, 2, 3, 600, 900),  # D 300: 7-13
    ]
    rows = by_pair(rank_pairs(scores))
    # 1 and 2: 30 VP, 0 MP difference each; 1 beat 2 (11-9).
    assert (rows[1].vp, rows[1].mp_difference) == (rows[2].vp, rows[2].mp_difference)
    assert rows[1].place < rows[2].place
    assert rows[2].decided_by == "head_to_head"
    assert rows[1].tie_break_values == {"head_to_head": D(11)}
    assert rows[2].tie_break_values == {"head_to_head": D(9)}


def test_head_to_head_only_when_all_met() -> None:
    scores = [
        TurnScore(1, 1, 5, D(12), 600, 450),
        TurnScore(1, 2, 6, D(12), 600, 450),
        TurnScore(1, 5, 1, D(8), 450, 600),
        TurnScore(1, 6, 2, D(8), 450, 600),
    ]
    rows = by_pair(rank_pairs(scores))
    # 1 and 2 never met: level after everything, sharing first place.
    assert rows[1].place == rows[2].place == 1
    assert rows[1].shared and rows[2].shared
    assert rows[1].decided_by is None and rows[2].decided_by is None
    assert rows[5].place == rows[6].place == 3
    assert rows[5].decided_by == "vp"


def test_three_level_head_to_head_applied_again_in_the_smaller_group() -> None:
    # 1, 2, 3 all met: 1 beat 2 (12-8), 2 beat 3 (12-8), 3 beat 1 (12-8) -> 20 each
    # among themselves; 4 gives the rest. Then make 1 and 2 differ only head-to-head.
    scores = [
        TurnScore(1, 1, 2, D(12), 500, 400),
        TurnScore(1, 2, 1, D(8), 400, 500),
        TurnScore(2, 2, 3, D(12), 500, 400),
        TurnScore(2, 3, 2, D(8), 400, 500),
        TurnScore(3, 3, 1, D(12), 500, 400),
        TurnScore(3, 1, 3, D(8), 400, 500),
    ]
    rows = rank_pairs(scores)
    assert all(r.place == 1 and r.shared for r in rows)  # a perfect circle stays level
    # Add a draw: the referee's order decides.
    drawn = rank_pairs(scores, draw_order={3: 1, 1: 2, 2: 3})
    assert [(r.pair, r.place, r.decided_by, r.shared) for r in drawn] == [
        (3, 1, None, False),
        (1, 2, "draw", False),
        (2, 3, "draw", False),
    ]


def test_smaller_group_head_to_head() -> None:
    # 1, 2, 3 level on VP and MP; among them 3 scored least; 1 beat 2.
    scores = [
        TurnScore(1, 1, 2, D(11), 450, 400),
        TurnScore(1, 2, 1, D(9), 400, 450),
        TurnScore(2, 1, 3, D(10), 400, 400),
        TurnScore(2, 3, 1, D(10), 400, 400),
        TurnScore(3, 2, 3, D(12), 520, 400),
        TurnScore(3, 3, 2, D(8), 400, 520),
        # every one of them brought back to 30 VP and +0 MP by a fourth turn
        TurnScore(4, 1, None, D(9), 0, 50),
        TurnScore(4, 2, None, D(9), 0, 70),
        TurnScore(4, 3, None, D(12), 120, 0),
    ]
    rows = rank_pairs(scores)
    assert {(r.vp, r.mp_difference) for r in rows} == {(D(30), 0)}
    # head-to-head among 1, 2, 3: 1: 21, 2: 21, 3: 18 -> 3 last; then 1 v 2 alone: 11-9.
    assert [(r.pair, r.place, r.decided_by) for r in rows] == [
        (1, 1, None),
        (2, 2, "head_to_head"),
        (3, 3, "head_to_head"),
    ]
    assert all(r.byes == 1 and r.turns == 3 for r in rows)


def test_without_head_to_head_configured_the_draw_follows_mp() -> None:
    scores = [
        TurnScore(1, 1, 2, D(10), 400, 400),
        TurnScore(1, 2, 1, D(10), 400, 400),
    ]
    assert [r.place for r in rank_pairs(scores, tie_breaks=("mp_difference",))] == [1, 1]
    rows = rank_pairs(scores, tie_breaks=(), draw_order={2: 1, 1: 2})
    assert [(r.pair, r.decided_by) for r in rows] == [(2, None), (1, "draw")]
    assert rows[1].tie_break_values == {"draw": 2}


def test_partial_draw_leaves_the_group_shared() -> None:
    scores = [TurnScore(1, p, None, D(14), 355, 0) for p in (1, 2, 3)]
    rows = rank_pairs(scores, draw_order={1: 1, 2: 2})  # the referee forgot pair 3
    assert all(r.place == 1 and r.shared for r in rows)


def test_penalty_takes_from_the_penalised_pair_only() -> None:
    plain = meeting(1, 1, 2, 800, 500)  # D 300: 13-7
    first, second = plain
    penalised = [
        TurnScore(1, 1, 2, first.vp, 800, 500, penalty_vp=D(1), penalty_mp=50),
        second,
    ]
    before = by_pair(rank_pairs(plain))
    after = by_pair(rank_pairs(penalised))
    assert (after[1].vp, after[1].mp_difference) == (D(12), 250)
    assert (after[1].penalty_vp, after[1].penalty_mp) == (D(1), 50)
    assert after[2] == before[2]


def test_penalty_can_change_the_order() -> None:
    scores = [
        TurnScore(1, 1, 2, D(11), 500, 420, penalty_vp=D(2), penalty_mp=200),
        TurnScore(1, 2, 1, D(9), 420, 500),
    ]
    rows = rank_pairs(scores)
    # 1: 11 - 2 = 9 VP, +80 - 200 = -120 MP; 2: 9 VP, -80 MP.
    assert [(r.pair, r.vp, r.mp_difference) for r in rows] == [(2, D(9), -80), (1, D(9), -120)]
    assert rows[1].decided_by == "mp_difference"


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="two results"):
        rank_pairs([TurnScore(1, 1, None, D(14), 355, 0), TurnScore(1, 1, 2, D(10), 0, 0)])
    with pytest.raises(ValueError, match="itself"):
        rank_pairs([TurnScore(1, 1, 1, D(10), 0, 0)])
    with pytest.raises(ValueError, match="positive"):
        rank_pairs([TurnScore(1, 1, 2, D(10), 0, 0, penalty_vp=D(-1))])
    with pytest.raises(ValueError, match="unknown tie-break"):
        rank_pairs([], tie_breaks=("wins",))


def test_entries_without_results_are_listed() -> None:
    rows = rank_pairs([TurnScore(1, 1, None, D(14), 355, 0)], entries=[1, 2, 3])
    assert [(r.pair, r.place, r.turns, r.shared) for r in rows] == [
        (1, 1, 1, False),
        (2, 2, 0, True),
        (3, 2, 0, True),
    ]
    assert rank_pairs([]) == []


@pytest.mark.parametrize(("hands", "mp"), [(2, 235), (3, 355), (4, 705)])
def test_bye_score_from_the_fibur_tables(hands: int, mp: int) -> None:
    assert bye_score(PRESETS["fibur"], hands) == (D(14), mp)
    assert bye_score(PRESETS["international"], hands) == (D(14), mp)


def test_bye_score_of_a_club_table() -> None:
    ruleset, problems = parse_ruleset(
        {"preset": "fibur", "options": {"vp_tables": {"3": [[100, 12], [300, 15], [None, 20]]}}}
    )
    assert not problems
    assert bye_score(ruleset, 3) == (D(14), 105)  # no 14 band: the first worth at least 14
    with pytest.raises(ValueError, match="no VP table"):
        bye_score(PRESETS["free"], 3)


# --- season ---------------------------------------------------------------------------


def row(pair: object, place: int, vp: int, mp: int = 0) -> PairRow:
    return PairRow(pair, place, D(vp), mp, 4, 0, None, False)  # type: ignore[arg-type]


def test_season_sum_of_vp_best_n() -> None:
    events = [
        [row("ann", 1, 60, 900), row("bob", 2, 50, 100), row("cid", 3, 30, -1000)],
        [row("bob", 1, 58), row("cid", 2, 50), row("ann", 3, 20)],
        [row("cid", 1, 70), row("ann", 2, 41)],
    ]
    rows = season_ranking(events, "vp")
    assert [(r.entry, r.points, r.events) for r in rows] == [
        ("cid", D(150), 3),
        ("ann", D(121), 3),
        ("bob", D(108), 2),
    ]
    best2 = season_ranking(events, "vp", best=2)
    assert [(r.entry, r.points, r.counted) for r in best2] == [
        ("cid", D(120), 2),
        ("bob", D(108), 2),
        ("ann", D(101), 2),
    ]


def test_season_placement_points_shared_and_tie_break_on_mp() -> None:
    events = [
        [row(1, 1, 60, 300), row(2, 1, 60, 300), row(3, 3, 30, -600)],
        [row(3, 1, 60, 10), row(1, 2, 50, 5), row(2, 3, 40, 0)],
    ]
    rows = season_ranking(events, "placement", placement_points=[10, 6, 4])
    # event 1: 1 and 2 share first: (10 + 6) / 2 = 8 each; 3: 4. Event 2: 10, 6, 4.
    assert [(r.entry, r.points, r.mp_difference, r.place, r.decided_by) for r in rows] == [
        (1, D(14), 305, 1, None),
        (3, D(14), -590, 2, "mp_difference"),
        (2, D(12), 300, 3, "points"),
    ]
    three = season_ranking(
        [[row(1, 1, 10), row(2, 1, 10), row(3, 1, 10)]], "placement", placement_points=[4, 2, 1]
    )
    assert [(r.points, r.place, r.shared) for r in three] == [(D("2.33"), 1, True)] * 3


def test_season_refusals() -> None:
    with pytest.raises(ValueError, match="unknown method"):
        season_ranking([], "average")
    with pytest.raises(ValueError, match="placement points"):
        season_ranking([], "placement")
    with pytest.raises(ValueError, match="at least one"):
        season_ranking([], "vp", best=0)


# --- properties ------------------------------------------------------------------------


@st.composite
def tournaments(draw: st.DrawFn) -> list[TurnScore]:
    pairs = draw(st.integers(2, 12))
    turns = draw(st.integers(1, 4))
    seed = draw(st.integers(0, 10_000))
    rng = random.Random(seed)
    table = PRESETS["fibur"].vp_tables[3]
    scores: list[TurnScore] = []
    for turn in range(1, turns + 1):
        order = list(range(1, pairs + 1))
        rng.shuffle(order)
        if len(order) % 2:
            bye = order.pop()
            scores.append(TurnScore(turn, bye, None, D(14), 355, 0))
        for a, b in zip(order[::2], order[1::2], strict=True):
            mp_a, mp_b = rng.randrange(0, 300) * 5, rng.randrange(0, 300) * 5
            vp = turn_result(mp_a, mp_b, table)["vp"]
            pen = D(rng.choice([0, 0, 0, 1, 2]))
            scores.append(TurnScore(turn, a, b, D(vp["NS"]), mp_a, mp_b, pen, int(pen) * 50))
            scores.append(TurnScore(turn, b, a, D(vp["EW"]), mp_b, mp_a))
    return scores


@settings(max_examples=150, deadline=None)
@given(tournaments(), st.randoms(use_true_random=False))
def test_properties(scores: list[TurnScore], rnd: random.Random) -> None:
    rows = rank_pairs(scores)
    n = len(rows)
    places = [r.place for r in rows]
    assert places[0] == 1 and places == sorted(places) and all(1 <= p <= n for p in places)
    # a place is the number of entries strictly above, plus one
    for i, r in enumerate(rows):
        assert r.place == 1 + sum(1 for o in rows if o.place < r.place)
        if i and r.place == rows[i - 1].place:
            assert r.shared and rows[i - 1].shared
    vps = [r.vp for r in rows]
    assert vps == sorted(vps, reverse=True)
    shuffled = list(scores)
    rnd.shuffle(shuffled)
    assert rank_pairs(shuffled) == rows
    # Penalties never change the opponent's row: dropping them changes only the penalised.
    clean = [TurnScore(s.turn, s.pair, s.opponent, s.vp, s.mp_for, s.mp_against) for s in scores]
    penalised = {s.pair for s in scores if s.penalty_vp or s.penalty_mp}
    plain = by_pair(rank_pairs(clean))
    for r in rows:
        p = plain[r.pair]
        if r.pair in penalised:
            assert r.vp == p.vp - r.penalty_vp and r.mp_difference == p.mp_difference - r.penalty_mp
        else:
            assert (r.vp, r.mp_difference, r.penalty_vp) == (p.vp, p.mp_difference, 0)
    # VP totals: the table's 20 per meeting, 14 per bye, minus the penalties.
    meetings = sum(1 for s in scores if s.opponent is not None) // 2
    byes = sum(1 for s in scores if s.opponent is None)
    total = sum(r.vp for r in rows) + sum(r.penalty_vp for r in rows)
    assert total == 20 * meetings + 14 * byes


def test_danese_standings_from_a_ranking() -> None:
    from games.burraco.movements import next_danese_turn, parse_standings

    scores = [
        *meeting(1, 1, 2, 900, 500),
        *meeting(1, 3, 4, 600, 500),
        TurnScore(1, 5, None, D(14), 355, 0),
        *meeting(2, 1, 3, 700, 600),
        *meeting(2, 5, 2, 800, 400),
        TurnScore(2, 4, None, D("14.5"), 355, 0),
    ]
    rows = rank_pairs(scores)
    data = danese_standings(rows, scores)
    assert [p["pair"] for p in data["pairs"]] == [r.pair for r in rows]
    by = {p["pair"]: p for p in data["pairs"]}
    assert by[1] == {"pair": 1, "vp": 25, "mp": 500, "previous": 3, "met": [2, 3], "byes": 0}
    assert by[4]["previous"] is None and by[4]["byes"] == 1 and by[4]["vp"] == 23.5
    turn = next_danese_turn(parse_standings(data), "no_rematch").turns[0]
    # the bye goes to a pair that has not rested (2 or 3), and nobody meets again
    assert set(turn.byes) <= {2, 3}
    for table in turn.tables:
        assert table.ew not in by[table.ns]["met"]
    left = danese_standings(rows, scores, last_turn=True, withdrawn=[3])
    assert left["last_turn"] is True
    assert 3 not in {p["pair"] for p in left["pairs"]}
    assert all(3 not in p["met"] and p["previous"] != 3 for p in left["pairs"])


def test_individual_players_meet_both_opponents_for_head_to_head() -> None:
    """Individual tournament: a player's turn names both players of the other line.
    Players 1 and 2 end level on VP; in turn 1 player 1 (with 3) scored 12 VP against 2
    and 4, so head-to-head puts 1 first. Player 5 rested once (a bye)."""
    scores = [
        TurnScore(1, 1, 2, Decimal(12), 400, 200, opponents=(2, 4)),
        TurnScore(1, 3, 2, Decimal(12), 400, 200, opponents=(2, 4)),
        TurnScore(1, 2, 1, Decimal(8), 200, 400, opponents=(1, 3)),
        TurnScore(1, 4, 1, Decimal(8), 200, 400, opponents=(1, 3)),
        TurnScore(1, 5, None, Decimal(14), 355, 0),
        TurnScore(2, 1, 5, Decimal(8), 100, 300, opponents=(5, 4)),
        TurnScore(2, 2, 5, Decimal(12), 300, 100, opponents=(5, 3)),
    ]
    rows = {r.pair: r for r in rank_pairs(scores, ("head_to_head",))}
    assert rows[1].vp == rows[2].vp == 20
    assert rows[1].place < rows[2].place
    assert rows[2].decided_by == "head_to_head"
    assert rows[1].tie_break_values == {"head_to_head": Decimal(12)}
    assert rows[5].byes == 1 and rows[1].byes == 0
    with pytest.raises(ValueError, match="cannot meet itself"):
        rank_pairs([TurnScore(1, 1, 2, Decimal(10), 0, 0, opponents=(2, 1))])
