"""The Burraco pair rating's maths (scoring/engine/burraco/pair_ratings.py, no database): two teams
of
two, rated by the turn's VP result."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import ratings
from scoring.engine.burraco import pair_ratings as pr

FRESH = ratings.initial()


def table(game: int, ns_vp: int, ew_vp: int, ns=(1, 2), ew=(3, 4)) -> pr.PairTable:
    return pr.PairTable(game, ns, ew, ns_vp, ew_vp)


def test_the_pair_that_wins_rises_and_the_pair_that_loses_falls():
    new = pr.rate_table({}, table(1, 16, 4))
    assert new[1].mu > FRESH.mu and new[2].mu > FRESH.mu
    assert new[3].mu < FRESH.mu and new[4].mu < FRESH.mu
    assert all(r.sigma < FRESH.sigma for r in new.values())
    # EW winning is the mirror image.
    mirror = pr.rate_table({}, table(1, 4, 16))
    assert mirror[3].mu == pytest.approx(new[1].mu) and mirror[1].mu == pytest.approx(new[3].mu)


def test_teammates_move_together_the_less_known_one_further():
    known = ratings.Rating(25.0, 3.0)
    new = pr.rate_table({1: known}, table(1, 15, 5))
    assert new[1].mu > known.mu and new[2].mu > FRESH.mu  # same direction
    assert new[2].mu - FRESH.mu > new[1].mu - known.mu  # the newcomer's estimate moves more
    # Equally known teammates get the very same rating.
    assert new[3] == new[4]


def test_the_vp_decide_not_the_mp_a_10_10_turn_is_a_draw():
    new = pr.rate_table({}, table(1, 10, 10))
    for p in (1, 2, 3, 4):
        assert new[p].mu == pytest.approx(FRESH.mu)
        assert new[p].sigma < FRESH.sigma
    # The size of the win does not matter: 20-0 rates as 11-9.
    assert pr.rate_table({}, table(1, 20, 0)) == pr.rate_table({}, table(1, 11, 9))


def test_an_upset_moves_more_than_the_expected_result():
    strong = {1: ratings.Rating(30, 4), 2: ratings.Rating(30, 4)}
    expected = pr.rate_table(strong, table(1, 15, 5))
    upset = pr.rate_table(strong, table(1, 5, 15))
    assert expected[1].mu - 30 < 30 - upset[1].mu
    assert upset[3].mu - FRESH.mu > expected[3].mu - FRESH.mu + 1


def test_a_table_needs_four_different_players():
    with pytest.raises(ValueError, match="four different players"):
        table(1, 12, 8, ns=(1, 2), ew=(2, 3))


def test_partner_and_vp_are_read_from_the_players_line():
    t = table(7, 13, 7)
    assert [t.partner(p) for p in (1, 2, 3, 4)] == [2, 1, 4, 3]
    assert t.vp(2) == (13, 7) and t.vp(4) == (7, 13)
    with pytest.raises(KeyError):
        t.partner(9)


def test_replay_chains_the_cards_and_records_each_players_rating():
    cards = [table(1, 15, 5), table(2, 12, 8, ns=(1, 5), ew=(6, 3))]
    final, history = pr.replay({}, cards)
    assert len(history) == 8
    after_first = {p: r for g, p, r in history if g == 1}
    assert final[1].mu > after_first[1].mu  # won again
    assert final[2] == after_first[2]  # did not play the second card
    assert final[3].mu < after_first[3].mu


ratings_st = st.builds(
    ratings.Rating,
    mu=st.floats(min_value=0, max_value=50),
    sigma=st.floats(min_value=0.5, max_value=10),
)
vp_st = st.integers(min_value=0, max_value=20)


@settings(max_examples=150, deadline=None)
@given(st.lists(ratings_st, min_size=4, max_size=4), vp_st)
def test_winners_never_fall_losers_never_rise_and_uncertainty_shrinks(start, ns_vp):
    current = dict(zip((1, 2, 3, 4), start, strict=True))
    t = table(1, ns_vp, 20 - ns_vp)
    new = pr.rate_table(current, t)
    sign = (ns_vp > 10) - (ns_vp < 10)
    for p in (1, 2):
        assert (new[p].mu - current[p].mu) * sign >= -1e-9
    for p in (3, 4):
        assert (new[p].mu - current[p].mu) * sign <= 1e-9
    # Uncertainty shrinks, beyond the little openskill adds before each game (tau: skills
    # drift over time).
    tau = pr.MODEL.tau
    assert all(new[p].sigma <= (current[p].sigma ** 2 + tau**2) ** 0.5 + 1e-9 for p in new)


@settings(max_examples=150, deadline=None)
@given(st.lists(ratings_st, min_size=4, max_size=4), vp_st)
def test_lines_and_seats_do_not_matter(start, ns_vp):
    current = dict(zip((1, 2, 3, 4), start, strict=True))
    a = pr.rate_table(current, table(1, ns_vp, 20 - ns_vp))
    b = pr.rate_table(current, table(1, 20 - ns_vp, ns_vp, ns=(4, 3), ew=(2, 1)))
    for p in (1, 2, 3, 4):
        assert a[p].mu == pytest.approx(b[p].mu)
        assert a[p].sigma == pytest.approx(b[p].sigma)


@settings(max_examples=100, deadline=None)
@given(st.lists(ratings_st, min_size=4, max_size=4))
def test_a_draw_is_the_average_of_the_two_wins(start):
    current = dict(zip((1, 2, 3, 4), start, strict=True))
    draw = pr.rate_table(current, table(1, 10, 10))
    ns_wins = pr.rate_table(current, table(1, 11, 9))
    ew_wins = pr.rate_table(current, table(1, 9, 11))
    for p in (1, 2, 3, 4):
        assert draw[p].mu == pytest.approx((ns_wins[p].mu + ew_wins[p].mu) / 2, abs=1e-6)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.permutations([1, 2, 3, 4, 5, 6]), vp_st), min_size=2, max_size=8))
def test_replay_from_a_state_equals_the_full_replay(plays):
    cards = [
        table(i, vp, 20 - vp, ns=(order[0], order[1]), ew=(order[2], order[3]))
        for i, (order, vp) in enumerate(plays)
    ]
    full, _ = pr.replay({}, cards)
    half, _ = pr.replay({}, cards[: len(cards) // 2])
    rest, _ = pr.replay(half, cards[len(cards) // 2 :])
    assert full.keys() == rest.keys()
    assert all(full[p] == rest[p] for p in full)
