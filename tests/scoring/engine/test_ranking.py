"""The ranking methods and tie-breaks of scoring/engine/ranking.py on hand-made cases (no
database)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from scoring.engine import ranking as s


def line(player, *, event=1, games=1, total=0, wins=0, best=None, placement=0):
    return s.EveningLine(
        player_id=player,
        event_id=event,
        games=games,
        total=F(total),
        wins=wins,
        best_game=F(best if best is not None else total),
        placement=F(placement),
    )


def ranked(lines, ranking, results=()):
    out = s.rank(s.combine(lines, ranking), ranking, results)
    return [(x.player_id, x.rank, x.tiebreak) for x in out]


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        ([10, 5, 0, -15], [4, 2, 1, 0]),
        ([10, 10, 0, -20], [3, 3, 1, 0]),  # first two share 4 and 2
        ([5, 0, 0, -5], [4, F(3, 2), F(3, 2), 0]),
        ([1, 1, 1, -3], [F(7, 3), F(7, 3), F(7, 3), 0]),
        ([0, 0, 0, 0], [F(7, 4)] * 4),
    ],
)
def test_placement_points_share_the_places_of_a_tie(totals, expected):
    assert s.placement_points(totals, (4, 2, 1, 0)) == expected


def test_placement_points_with_a_three_way_tie_for_second():
    assert s.placement_points([9, 1, 1, 1], (5, 3, 2, 1)) == [5, 2, 2, 2]


@pytest.mark.parametrize(
    "points", [(4, 2, 1, 0), (5, 3, 2, 1), (3, 2.5, 1, 0), (1, 0.5, 0.25, 0.1), (0, 0, 0, 0)]
)
def test_placement_weights_are_the_shares_over_one_denominator(points):
    weights, denominator = s.placement_weights(points)
    assert all(isinstance(w, int) for w in weights)
    for (above, tied), weight in zip(s.PLACEMENT_CASES, weights, strict=True):
        totals = [1] * above + [0] * tied + [-1] * (4 - above - tied)
        assert F(weight, denominator) == s.placement_points(totals, points)[above]


def test_placement_weights_of_four_two_one_nought_are_twelfths():
    assert s.placement_weights((4, 2, 1, 0)) == ((48, 36, 28, 21, 24, 18, 12, 12, 6, 0), 12)


def test_placement_of_cases_weighs_the_counts_exactly():
    placement = s.placement_of_cases((4, 2, 1, 0))
    counts = [0] * len(s.PLACEMENT_CASES)
    counts[s.PLACEMENT_CASES.index((0, 3))] = 2  # twice first of three level: 7/3 each
    counts[s.PLACEMENT_CASES.index((2, 2))] = 1  # third of two level: 1/2
    assert placement(counts) == F(14, 3) + F(1, 2)


def test_total_method_ranks_by_points_and_breaks_a_tie_by_wins():
    r = s.Ranking(tiebreaks=("wins", "best_game"))
    lines = [line(1, total=50, wins=1), line(2, total=80), line(3, total=50, wins=2)]
    assert ranked(lines, r) == [(2, 1, ""), (3, 2, "wins"), (1, 3, "wins")]


def test_the_second_tiebreak_decides_when_the_first_leaves_them_level():
    r = s.Ranking(tiebreaks=("wins", "best_game"))
    lines = [line(1, total=50, wins=1, best=30), line(2, total=50, wins=1, best=40)]
    assert ranked(lines, r) == [(2, 1, "best_game"), (1, 2, "best_game")]


def test_players_level_after_every_tiebreak_share_the_rank():
    r = s.Ranking(tiebreaks=("wins",))
    lines = [line(1, total=10), line(2, total=10), line(3, total=30), line(4, total=0)]
    assert ranked(lines, r) == [(3, 1, ""), (1, 2, "tied"), (2, 2, "tied"), (4, 4, "")]


def test_no_tiebreaks_configured_means_shared_ranks():
    r = s.Ranking(tiebreaks=())
    assert ranked([line(1, total=5, wins=3), line(2, total=5)], s.Ranking(tiebreaks=())) == [
        (1, 1, "tied"),
        (2, 1, "tied"),
    ]
    assert r.tiebreaks == ()


def test_head_to_head_counts_only_games_between_the_tied_players():
    r = s.Ranking(tiebreaks=("head_to_head",))
    lines = [line(1, total=20), line(2, total=20), line(3, total=100)]
    results = [
        # 2 finished ahead of 1 in the one game they shared; 3 is not in the tie.
        s.GameResult(1, 1, {1: F(-10), 2: F(5), 3: F(50), 9: F(-45)}),
        s.GameResult(2, 1, {1: F(30), 3: F(70), 8: F(-50), 7: F(-50)}),
    ]
    assert ranked(lines, r, results) == [(3, 1, ""), (2, 2, "head_to_head"), (1, 3, "head_to_head")]


def test_head_to_head_loader_is_called_once_with_the_level_players_only():
    r = s.Ranking(tiebreaks=("head_to_head",))
    calls = []

    def load(players):
        calls.append(players)
        return [s.GameResult(1, 1, {1: F(1), 2: F(2)})]

    assert ranked([line(1, total=5), line(2, total=5), line(3, total=9)], r, load)[1:] == [
        (2, 2, "head_to_head"),
        (1, 3, "head_to_head"),
    ]
    assert calls == [{1, 2}]
    calls.clear()
    ranked([line(1, total=5), line(2, total=6)], r, load)
    assert calls == []  # no tie: no games loaded
    wins_first = s.Ranking(tiebreaks=("wins", "head_to_head"))
    ranked([line(1, total=5, wins=1), line(2, total=5)], wins_first, load)
    assert calls == []  # the tie was broken before head-to-head


def test_head_to_head_loads_only_the_players_the_earlier_tiebreaks_left_level():
    r = s.Ranking(tiebreaks=("wins", "best_game", "head_to_head"))
    calls = []

    def load(players):
        calls.append(players)
        return [s.GameResult(1, 1, {1: F(1), 2: F(2)})]

    lines = [
        line(1, total=5, wins=1, best=3),
        line(2, total=5, wins=1, best=3),
        line(3, total=5, wins=1, best=4),  # level on points and wins, not on best game
        line(4, total=5, wins=0),  # level on points only
        line(5, total=9),
    ]
    assert [x[:2] for x in ranked(lines, r, load)] == [(5, 1), (3, 2), (2, 3), (1, 4), (4, 5)]
    assert calls == [{1, 2}]


def test_ranking_by_fractions_is_exact():
    r = s.Ranking(method="placement", tiebreaks=())
    lines = [
        line(1, placement=F(7, 3)),
        line(2, placement=F(7, 4)),
        line(3, placement=F(14, 6)),
        line(4, placement=F(1, 3) + F(1, 3) + F(4, 3)),  # 2
    ]
    assert ranked(lines, r) == [(1, 1, "tied"), (3, 1, "tied"), (4, 3, ""), (2, 4, "")]


def test_placement_method_uses_placement_points():
    r = s.Ranking(method="placement", tiebreaks=("total",))
    lines = [line(1, total=100, placement=4), line(2, total=-50, placement=6)]
    assert ranked(lines, r) == [(2, 1, ""), (1, 2, "")]


def test_add_placement_sums_per_game_points_into_each_evening():
    r = s.Ranking(method="placement", placement_points=(4, 2, 1, 0))
    lines = [line(p, event=1, games=2) for p in (1, 2, 3, 4)]
    results = [
        s.GameResult(10, 1, {1: F(10), 2: F(10), 3: F(0), 4: F(-20)}),
        s.GameResult(11, 1, {1: F(-5), 2: F(30), 3: F(0), 4: F(-25)}),
    ]
    s.add_placement(lines, results, r)
    assert [x.placement for x in lines] == [3 + 1, 3 + 4, 1 + 2, 0 + 0]


def test_average_method_needs_the_minimum_games_to_qualify():
    r = s.Ranking(method="average", min_games=3)
    lines = [
        line(1, games=1, total=90),  # best average, not qualified
        line(2, games=4, total=40),
        line(3, games=3, total=60),
    ]
    out = s.rank(s.combine(lines, r), r)
    assert [(x.player_id, x.rank, x.qualified, x.points) for x in out] == [
        (3, 1, True, 20),
        (2, 2, True, 10),
        (1, 3, False, 90),
    ]


def test_best_evenings_counts_only_the_best_n():
    r = s.Ranking(best_evenings=2)
    lines = [
        line(1, event=1, total=10, games=2),
        line(1, event=2, total=50, games=2),
        line(1, event=3, total=-30, games=2),
        line(1, event=4, total=40, games=2),
        line(2, event=1, total=80, games=2),
        line(2, event=2, total=-100, games=2),
    ]
    players = {p.player_id: p for p in s.combine(lines, r)}
    assert players[1].total == 90 and players[1].evenings == 4
    assert players[1].evenings_counted == 2 and players[1].counted_events == (2, 4)
    assert players[1].games == 4
    assert players[2].total == -20  # fewer evenings than N: all count
    assert [x.player_id for x in s.rank(players.values(), r)] == [1, 2]


def test_best_evenings_by_placement_and_average():
    lines = [
        line(1, event=1, total=100, games=1, placement=0),
        line(1, event=2, total=-100, games=1, placement=4),
    ]
    placement = s.Ranking(method="placement", best_evenings=1)
    assert s.combine(lines, placement)[0].placement == 4
    average = s.Ranking(method="average", best_evenings=1)
    assert s.combine(lines, average)[0].total == 100


def test_best_evenings_by_placement_in_fractions():
    lines = [
        line(1, event=1, placement=F(7, 3)),
        line(1, event=2, placement=F(7, 4)),
        line(1, event=3, placement=F(7, 3)),  # level with evening 1: the earlier counts
        line(1, event=4, placement=F(1, 2)),
    ]
    two = s.combine(lines, s.Ranking(method="placement", best_evenings=2))[0]
    assert two.counted_events == (1, 3) and two.placement == F(14, 3)
    one = s.combine(lines, s.Ranking(method="placement", best_evenings=1))[0]
    assert one.counted_events == (1,)
    every = s.combine(lines, s.Ranking(method="placement"))[0]
    assert every.placement == F(7, 3) * 2 + F(7, 4) + F(1, 2)


@pytest.mark.parametrize(
    ("config", "codes"),
    [
        (None, []),
        ({}, []),
        ({"method": "placement", "placement_points": [5, 3, 1, 0]}, []),
        ({"method": "elo"}, ["unknown_method"]),
        ({"placement_points": [1, 2]}, ["placement_points"]),
        ({"min_games": -1}, ["not_count"]),
        ({"best_evenings": 0}, ["not_count"]),
        ({"tiebreaks": ["wins", "luck"]}, ["unknown_tiebreak"]),
        ({"colour": "red"}, ["unknown_option"]),
        ([1, 2], ["not_object"]),
    ],
)
def test_parse_ranking_reports_each_problem(config, codes):
    ranking, problems = s.parse_ranking(config)
    assert [p.code for p in problems] == codes
    assert ranking.method in s.METHODS


def test_parse_ranking_keeps_valid_parts():
    ranking, problems = s.parse_ranking(
        {"method": "average", "min_games": 4, "best_evenings": 3, "tiebreaks": ["games", "x"]}
    )
    assert (ranking.method, ranking.min_games, ranking.best_evenings) == ("average", 4, 3)
    assert ranking.tiebreaks == ("games",)
    assert s.ranking_to_json(ranking)["tiebreaks"] == ["games"]
    assert len(problems) == 1
