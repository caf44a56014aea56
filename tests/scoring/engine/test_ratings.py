"""OpenSkill ratings from table places (scoring/engine/ratings.py, no database)."""

from __future__ import annotations

import pytest

from scoring.engine import ratings as r


def test_the_winner_gains_and_the_last_loses():
    new = r.rate_game({}, r.TableResult(1, {1: 1, 2: 2, 3: 3, 4: 4}))
    start = r.initial().mu
    assert new[1].mu > new[2].mu > start > new[3].mu > new[4].mu
    assert all(x.sigma < r.initial().sigma for x in new.values())


def test_tied_players_get_the_same_rating_and_rank_above_those_below():
    new = r.rate_game({}, r.TableResult(1, {1: 1.5, 2: 1.5, 3: 3, 4: 4}))
    assert new[1] == pytest.approx(new[2]) or new[1].mu == pytest.approx(new[2].mu)
    assert new[1].mu > new[3].mu > new[4].mu


def test_seat_order_does_not_matter():
    a = r.rate_game({}, r.TableResult(1, {1: 2.5, 2: 1, 3: 2.5, 4: 4}))
    b = r.rate_game({}, r.TableResult(1, {4: 4, 3: 2.5, 2: 1, 1: 2.5}))
    for p in (1, 2, 3, 4):
        assert a[p].mu == pytest.approx(b[p].mu)
        assert a[p].sigma == pytest.approx(b[p].sigma)


def test_replay_chains_the_games_and_records_history():
    games = [
        r.TableResult(1, {1: 1, 2: 2, 3: 3, 4: 4}),
        r.TableResult(2, {1: 1, 5: 2, 6: 3, 7: 4}),
    ]
    final, history = r.replay({}, games)
    assert len(history) == 8
    first = dict((p, x) for g, p, x in history if g == 1)
    assert final[1].mu > first[1].mu  # won again
    assert final[2] == first[2]  # did not play game 2


def test_replay_from_a_state_equals_the_full_replay():
    games = [
        r.TableResult(i, {1: 1 + i % 4, 2: 1 + (i + 1) % 4, 3: 1 + (i + 2) % 4, 4: 1 + (i + 3) % 4})
        for i in range(6)
    ]
    full, _ = r.replay({}, games)
    half, _ = r.replay({}, games[:3])
    rest, _ = r.replay(half, games[3:])
    assert all(full[p].mu == pytest.approx(rest[p].mu) for p in full)
