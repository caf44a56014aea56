"""Head-to-head (scoring/engine/head_to_head.py) as rank() applies it: hand-made ties pinned, the
games asked for only for the players a tie leaves level when its turn may come, and
random leagues ranked from those games alone as from every game (hypothesis). No
database: tests/scoring/barbu/test_league_table.py ranks stored leagues."""

from __future__ import annotations

from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import head_to_head as h2h
from scoring.engine import ranking as s


def line(player, *, total=0, wins=0, best=0):
    return s.PlayerLine(player_id=player, games=1, total=F(total), wins=wins, best_game=F(best))


def table(standings):
    return [(x.player_id, x.rank, x.tiebreak, x.tiebreak_values.get(x.tiebreak)) for x in standings]


def both(lines, ranking, results):
    """The standings from every game, and from the games loaded for the players asked
    about, as a rebuild loads them (the games two of them shared, with their totals
    only): checked equal. The players asked about, per call."""
    calls = []

    def load(players):
        calls.append(players)
        return [
            s.GameResult(g.game_id, g.event_id, {p: t for p, t in g.totals.items() if p in players})
            for g in results
            if sum(p in players for p in g.totals) >= 2
        ]

    by_games = table(s.rank(lines, ranking, results))
    loaded = table(s.rank(lines, ranking, load))
    assert loaded == by_games
    return loaded, calls


# Three players level on points, wins and best game; 9 is not in the tie.
GAMES = [
    s.GameResult(1, 1, {1: F(10), 2: F(5), 3: F(-5), 9: F(-10)}),  # 1 > 2 > 3
    s.GameResult(2, 1, {2: F(8), 3: F(8), 9: F(4), 7: F(-20)}),  # 2 = 3: nobody scores
    s.GameResult(3, 2, {3: F(1), 1: F(0), 8: F(0), 9: F(-1)}),  # 3 > 1
    s.GameResult(4, 2, {2: F(3), 9: F(2), 8: F(1), 7: F(-6)}),  # one of them only
]


def test_head_to_head_counts_each_pair_of_the_group_once_a_game():
    assert h2h.head_to_head([1, 2, 3], GAMES) == {1: F(1), 2: F(0), 3: F(-1)}
    # A level total counts nothing; a game with one of them changes nobody's score.
    assert h2h.head_to_head([2, 3], GAMES[1:2] + GAMES[3:]) == {2: F(0), 3: F(0)}
    assert h2h.head_to_head([1, 3], GAMES) == {1: F(0), 3: F(0)}


def test_a_three_way_tie_broken_by_head_to_head():
    lines = [line(p, total=20, wins=1, best=10) for p in (3, 2, 1)] + [line(9, total=50)]
    got, calls = both(lines, s.Ranking(), GAMES)
    assert got == [
        (9, 1, "", None),
        (1, 2, "head_to_head", F(1)),
        (2, 3, "head_to_head", F(0)),
        (3, 4, "head_to_head", F(-1)),
    ]
    assert calls == [{1, 2, 3}]  # once, with the one group level before head-to-head


def test_head_to_head_then_the_next_tiebreak_inside_what_it_left_level():
    # 1 and 3 level on head-to-head (one win each over the other); wins after it decide.
    games = [
        s.GameResult(1, 1, {1: F(5), 3: F(0)}),
        s.GameResult(2, 1, {1: F(0), 3: F(5)}),
        s.GameResult(3, 1, {2: F(9), 1: F(0), 3: F(0)}),
    ]
    ranking = s.Ranking(tiebreaks=("head_to_head", "wins"))
    lines = [line(1, total=7, wins=2), line(2, total=7), line(3, total=7, wins=3)]
    got, _calls = both(lines, ranking, games)
    assert got == [
        (2, 1, "head_to_head", F(2)),
        (3, 2, "wins", 3),
        (1, 3, "wins", 2),
    ]


def test_games_are_read_only_for_groups_that_reach_head_to_head():
    ranking = s.Ranking(tiebreaks=("wins", "head_to_head"))
    lines = [
        line(1, total=5, wins=1),
        line(2, total=5, wins=1),
        line(3, total=5, wins=0),  # level on points only: not asked about
        line(4, total=8),
        line(5, total=8),
        line(6, total=9),
    ]
    _got, calls = both(lines, ranking, GAMES)
    assert calls == [{4, 5, 1, 2}]
    _got, calls = both([line(1, total=5), line(2, total=6)], ranking, GAMES)
    assert calls == []  # no tie: nothing read


def test_players_who_never_met_stay_tied():
    lines = [line(1, total=5), line(2, total=5)]
    got, _calls = both(lines, s.Ranking(tiebreaks=("head_to_head",)), [])
    assert got == [(1, 1, "tied", None), (2, 1, "tied", None)]


@st.composite
def leagues(draw):
    """A few players with few distinct points (many ties), and random games of 2 to 4 of
    them with few distinct totals (many level results)."""
    n = draw(st.integers(2, 9))
    players = list(range(1, n + 1))
    lines = [
        line(
            p,
            total=draw(st.integers(0, 2)),
            wins=draw(st.integers(0, 1)),
            best=draw(st.integers(0, 1)),
        )
        for p in players
    ]
    games = []
    for game_id in range(draw(st.integers(0, 12))):
        seated = draw(st.lists(st.sampled_from(players), min_size=2, max_size=4, unique=True))
        totals = {p: F(draw(st.integers(-2, 2))) for p in seated}
        games.append(s.GameResult(game_id, draw(st.integers(1, 3)), totals))
    tiebreaks = draw(
        st.sampled_from(
            [
                ("head_to_head",),
                ("wins", "best_game", "head_to_head"),
                ("head_to_head", "wins"),
                ("wins", "head_to_head", "best_game"),
            ]
        )
    )
    return lines, games, s.Ranking(tiebreaks=tiebreaks)


@settings(max_examples=300, deadline=None)
@given(leagues())
def test_the_games_of_the_level_players_rank_random_leagues_as_every_game_does(league):
    lines, games, ranking = league
    both(lines, ranking, games)
