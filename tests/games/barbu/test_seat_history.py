"""Who played which deals of a seat that changed players (games/barbu/seat_history.py): pure."""

from __future__ import annotations

from games.barbu.seat_history import Change, deal_ranges, players_at, result_players, spans

# Seat 0: Anna (1) until deal 5, Bruno (5) from deal 6, Anna again from deal 9.
CHANGES = [Change(0, 6, 1, 5), Change(0, 9, 5, 1)]
NOW = [1, 2, 3, 4]  # the seats' players now


def test_each_deal_is_played_by_the_seats_player_of_the_time() -> None:
    assert [players_at(NOW, CHANGES, n)[0] for n in range(1, 11)] == [1] * 5 + [5] * 3 + [1] * 2
    assert players_at(NOW, CHANGES, 7)[1:] == [2, 3, 4]


def test_the_result_goes_to_who_played_more_deals_the_starter_on_a_tie() -> None:
    one = [Change(2, 4, 3, 9)]
    now = [1, 2, 9, 4]
    assert result_players(now, one, 5)[2] == 3  # 3 deals against 2
    assert result_players(now, one, 6)[2] == 3  # 3 against 3: the starter
    assert result_players(now, one, 7)[2] == 9
    assert result_players(now, [], 7) == now


def test_spans_and_ranges_as_a_reader_writes_them() -> None:
    runs = spans(NOW, CHANGES, 10)
    assert runs[(0, 1)] == [(1, 5), (9, 10)] and runs[(0, 5)] == [(6, 8)]
    assert deal_ranges(runs[(0, 1)]) == "1–5, 9–10"
    assert deal_ranges([(6, 6)]) == "6"
