"""The organiser's services: merge, CSV import, check-in, seating, seat changes, closing."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from clubs.models import Membership, Player
from clubs.services import (
    ClubError,
    player_merge,
    players_import,
    players_import_preview,
)
from games.barbu import evenings
from games.barbu.corrections import rename_in_deal
from games.barbu.selectors import game_record
from games.barbu.submission import deal_submit
from games.core import closing
from games.core.errors import EveningError
from games.models import (
    Deal,
    DealRevision,
    DealScore,
    Event,
    EventPlayer,
    Game,
    GameScore,
    Round,
    Seat,
)
from scoring.engine import barbu
from scoring.engine.barbu.randomgame import random_game
from tests.factories import make_event, make_game, make_league, make_player

pytestmark = pytest.mark.django_db


def play(game: Game, count: int, seed: int = 3) -> dict:
    """Enter `count` deals of a random valid game at this game's table."""
    record = random_game(random.Random(seed), "italian7")
    mapping = dict(zip(record["players"], game.player_names, strict=True))
    deals = [rename_in_deal(d, mapping) for d in record["deals"]]
    for deal in deals[:count]:
        deal_submit(game_id=game.pk, deal=deal)
    return {"ruleset": game.ruleset, "players": list(game.player_names), "deals": deals[:count]}


def checked_in(event: Event, players: list[Player]) -> None:
    evenings.checkin_set(event=event, player_ids=[p.pk for p in players])


# --- merge -----------------------------------------------------------------


def test_merge_moves_everything_to_the_kept_player(club):
    game = make_game(club)
    event = game.table.round.event
    anna = Seat.objects.get(table=game.table, position=0).player
    play(game, 3)
    duplicate = make_player(club, "Anna R.", role=Membership.Role.ORGANISER)
    keep = make_player(club, "Anna Rossi")
    # The duplicate also had a bye and a check-in; Anna keeps the dealt deals and seat.
    EventPlayer.objects.create(event=event, player=anna)
    game.table.round.byes.add(keep)
    EventPlayer.objects.create(event=event, player=keep)

    kept = player_merge(club=club, keep=keep, duplicate=anna)

    anna.refresh_from_db()
    assert anna.merged_into == kept
    assert Seat.objects.filter(player=anna).count() == 0
    assert Seat.objects.get(table=game.table, position=0).player == kept
    assert GameScore.objects.filter(player=anna).count() == 0
    assert GameScore.objects.filter(player=kept).count() == 1
    assert DealScore.objects.filter(player=kept).count() == 3
    assert not DealScore.objects.filter(player=anna).exists()
    assert Deal.objects.filter(dealer=kept).count() == 3  # seat 0 deals the first turn
    assert EventPlayer.objects.filter(event=event, player=kept).count() == 1
    assert not EventPlayer.objects.filter(player=anna).exists()
    assert list(Membership.objects.filter(player=anna)) == []
    assert Membership.objects.get(club=club, player=kept).role == Membership.Role.MEMBER
    # A second merge keeps the higher role and re-points earlier merges.
    player_merge(club=club, keep=kept, duplicate=duplicate)
    assert Membership.objects.get(club=club, player=kept).role == Membership.Role.ORGANISER
    anna.refresh_from_db()
    assert anna.merged_into == kept


def test_merge_refuses_two_people_of_the_same_table(club):
    game = make_game(club)
    a, b = (s.player for s in Seat.objects.filter(table=game.table).order_by("position")[:2])
    with pytest.raises(ClubError) as error:
        player_merge(club=club, keep=a, duplicate=b)
    assert error.value.code == "played_together"
    b.refresh_from_db()
    assert b.merged_into is None
    assert Seat.objects.filter(player=b).count() == 1


def test_merge_refuses_a_player_of_another_club(club):
    from tests.factories import make_club

    other = make_player(make_club("Elsewhere"), "Stranger")
    mine = make_player(club, "Mine")
    with pytest.raises(ClubError) as error:
        player_merge(club=club, keep=mine, duplicate=other)
    assert error.value.code == "not_in_club"


# --- CSV import ------------------------------------------------------------


def test_import_preview_reports_each_bad_line_and_stores_nothing(club):
    make_player(club, "Anna")
    text = (
        "name,email,role\n"
        "Bruno,bruno@example.org,member\n"
        ",nobody@example.org,member\n"
        "anna,,guest\n"
        "Carla,not-an-email,member\n"
        "Dario,,captain\n"
        "Bruno,,guest\n"
        "Elena,,guest\n"
    )
    preview = players_import_preview(club=club, text=text)
    errors = {line.line: line.errors for line in preview.lines}
    assert errors[2] == []
    assert "name is missing" in errors[3][0]
    assert "already a player" in errors[4][0]
    assert "not an e-mail" in errors[5][0]
    assert "Unknown role captain" in errors[6][0]
    assert "also on line 2" in errors[7][0]
    assert errors[8] == []
    assert not preview.ok
    before = Player.objects.count()
    with pytest.raises(ClubError) as error:
        players_import(club=club, text=text)
    assert error.value.params["lines"] == [3, 4, 5, 6, 7]
    assert Player.objects.count() == before


def test_import_stores_good_lines_when_told_to_skip_bad_ones(club):
    players = players_import(
        club=club, text="Bruno,bruno@example.org\nCarla,,guest\n,x\n", skip_bad_lines=True
    )
    assert [p.name for p in players] == ["Bruno", "Carla"]
    roles = dict(Membership.objects.filter(club=club).values_list("player__name", "role"))
    assert roles == {"Bruno": "member", "Carla": "guest"}


def test_import_of_nothing_is_an_error(club):
    assert players_import_preview(club=club, text="  \n").errors


# --- check-in and guests ----------------------------------------------------


def test_checkin_ticks_players_and_untick_marks_absent(club, nine, event):
    checked_in(event, nine[:5])
    checked_in(event, nine[1:6])
    present = set(
        EventPlayer.objects.filter(event=event, active=True).values_list("player__name", flat=True)
    )
    assert present == {p.name for p in nine[1:6]}
    assert EventPlayer.objects.get(event=event, player=nine[0]).active is False


def test_checkin_refuses_players_of_another_club(club, event):
    from tests.factories import make_club

    stranger = make_player(make_club("Elsewhere"), "Stranger")
    with pytest.raises(EveningError):
        evenings.checkin_set(event=event, player_ids=[stranger.pk])
    assert not EventPlayer.objects.filter(event=event).exists()


def test_guest_is_a_guest_member_checked_in(club, event):
    guest = evenings.guest_add(event=event, name="  Walter  ")
    assert guest.name == "Walter"
    assert Membership.objects.get(club=club, player=guest).role == Membership.Role.GUEST
    assert EventPlayer.objects.get(event=event, player=guest).active
    with pytest.raises(EveningError):
        evenings.guest_add(event=event, name="   ")


# --- events and seating ----------------------------------------------------


def test_event_freezes_the_league_rules(club):
    league = make_league(club, ruleset={"preset": "german", "options": {}})
    event = evenings.event_create(
        club=club, league=league, name="Night", starts_at=make_event(club).starts_at
    )
    assert event.ruleset == barbu.ruleset_to_json(barbu.ruleset_from_json("german"))
    league.ruleset = {"preset": "french", "options": {}}
    league.save()
    event.refresh_from_db()
    assert event.ruleset["preset"] == "german"


def test_seating_nine_players_gives_two_tables_and_one_bye(club, nine, event):
    checked_in(event, nine)
    seated = evenings.round_seat(event=event, seed=5)
    rnd = seated.round
    assert rnd.number == 1
    tables = list(rnd.tables.order_by("number"))
    assert len(tables) == 2
    seated_ids = [s.player_id for s in Seat.objects.filter(table__round=rnd)]
    byes = list(rnd.byes.values_list("pk", flat=True))
    assert len(seated_ids) == 8 and len(byes) == 1
    assert set(seated_ids) | set(byes) == {p.pk for p in nine}
    for table in tables:
        game = table.game
        names = [s.player.name for s in table.seats.order_by("position")]
        assert game.player_names == names
        assert game.deals_target == 28
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING


def test_next_round_refused_while_the_round_is_open_then_rotates_the_bye(club, nine, event):
    checked_in(event, nine)
    first = evenings.round_seat(event=event, seed=1).round
    with pytest.raises(EveningError) as error:
        evenings.round_seat(event=event, seed=2)
    assert error.value.code == "round_open"
    closing.round_close(rnd=first, force=True)
    second = evenings.round_seat(event=event, seed=2).round
    assert second.number == 2
    assert set(first.byes.all()).isdisjoint(second.byes.all())


def test_seating_too_few_players_is_a_clear_error(club, nine, event):
    checked_in(event, nine[:3])
    with pytest.raises(EveningError) as error:
        evenings.round_seat(event=event)
    assert error.value.code == "too_few_players"
    assert "3" in error.value.message
    assert not Round.objects.filter(event=event).exists()


def test_history_weighs_this_evening_one_and_earlier_league_evenings_less(club, nine):
    from datetime import timedelta

    from tests.factories import make_table

    league = make_league(club)
    first = make_event(club, league=league)
    second = make_event(club, league=league, starts_at=first.starts_at + timedelta(days=7))
    third = make_event(club, league=league, starts_at=first.starts_at + timedelta(days=14))
    make_table(first, nine[:4])
    make_table(second, nine[:4])
    make_table(third, nine[:4])
    history = evenings.seating_history(third)
    # Tonight 1, last week 0.5, two weeks ago 0.25.
    assert history[frozenset({nine[0].pk, nine[1].pk})] == pytest.approx(1.75)
    assert frozenset({nine[0].pk, nine[4].pk}) not in history


# --- seat changes ------------------------------------------------------------


def _scores_match_engine(game: Game) -> None:
    game.refresh_from_db()
    record = game_record(game)
    assert barbu.validate_game(record) == []
    expected = barbu.score_game(record)
    assert game.totals == expected["totals"]
    seats = {s.position: s.player_id for s in Seat.objects.filter(table=game.table)}
    for gs in GameScore.objects.filter(game=game):
        assert gs.player_id == seats[gs.seat]
        assert float(gs.total) == expected["totals"][game.player_names[gs.seat]]
    for deal in game.deals.all():
        rows = {r.player_id: r.score for r in DealScore.objects.filter(deal=deal)}
        assert set(rows) == set(seats.values())
        for position, pid in seats.items():
            assert (
                rows[pid]
                == expected["deals"][deal.number - 1]["score"][game.player_names[position]]
            )
        assert deal.dealer_id == seats[game.player_names.index(deal.data["dealer"])]


def test_swap_two_tables_after_deals_keeps_scores_consistent(club, nine, event):
    checked_in(event, nine)
    rnd = evenings.round_seat(event=event, seed=5).round
    t1, t2 = rnd.tables.order_by("number")
    play(t1.game, 9)
    t1.game.refresh_from_db()
    seat_totals = dict(GameScore.objects.filter(game=t1.game).values_list("seat", "total"))
    a = Seat.objects.get(table=t1, position=1)
    b = Seat.objects.get(table=t2, position=2)
    a_player, b_player = a.player, b.player

    # Refused as a plain swap: the deals would silently change hands.
    with pytest.raises(EveningError) as error:
        evenings.seat_change(rnd=rnd, seat_id=a.pk, other_seat_id=b.pk)
    assert error.value.code == "swap_played_deals"
    assert error.value.params == {"table": 1, "deals": 9}
    assert "Table 1 has played 9 deals" in error.value.message
    assert Seat.objects.get(table=t1, position=1).player == a_player
    assert Deal.objects.filter(game=t1.game, version=1).count() == 9
    assert not DealRevision.objects.filter(action=DealRevision.Action.RESEATED).exists()

    evenings.seat_change(rnd=rnd, seat_id=a.pk, other_seat_id=b.pk, wrong_person=True)

    assert Seat.objects.get(table=t1, position=1).player == b_player
    assert Seat.objects.get(table=t2, position=2).player == a_player
    g1 = Game.objects.get(pk=t1.game.pk)
    assert g1.player_names[1] == b_player.name
    assert Game.objects.get(pk=t2.game.pk).player_names[2] == a_player.name
    _scores_match_engine(g1)
    # The seat's points stay with the seat, credited to whoever sits there now.
    assert dict(GameScore.objects.filter(game=g1).values_list("seat", "total")) == seat_totals
    assert GameScore.objects.get(game=g1, seat=1).player == b_player
    assert not DealScore.objects.filter(game=g1, player=a_player).exists()
    revisions = DealRevision.objects.filter(game=g1, action=DealRevision.Action.RESEATED)
    assert revisions.count() == 9
    assert all(r.reason.startswith("wrong person seated: ") for r in revisions)
    assert all(r.before != r.after or a_player.name not in str(r.before) for r in revisions)
    assert Deal.objects.filter(game=g1, version=2).count() == 9


def test_swap_inside_one_table_after_deals(club, nine, event):
    checked_in(event, nine)
    rnd = evenings.round_seat(event=event, seed=5).round
    table = rnd.tables.get(number=1)
    play(table.game, 10, seed=11)
    s0 = Seat.objects.get(table=table, position=0)
    s3 = Seat.objects.get(table=table, position=3)
    p0, p3 = s0.player, s3.player
    with pytest.raises(EveningError):
        evenings.seat_change(rnd=rnd, seat_id=s0.pk, other_seat_id=s3.pk)
    evenings.seat_change(rnd=rnd, seat_id=s0.pk, other_seat_id=s3.pk, wrong_person=True)
    assert Seat.objects.get(table=table, position=0).player == p3
    assert Seat.objects.get(table=table, position=3).player == p0
    _scores_match_engine(table.game)


def test_replace_a_player_by_the_bye(club, nine, event):
    checked_in(event, nine)
    rnd = evenings.round_seat(event=event, seed=5).round
    bye = rnd.byes.get()
    table = rnd.tables.get(number=2)
    play(table.game, 4)
    seat = Seat.objects.get(table=table, position=0)
    leaving = seat.player
    with pytest.raises(EveningError) as error:
        evenings.seat_change(rnd=rnd, seat_id=seat.pk, player_id=bye.pk)
    assert error.value.code == "swap_played_deals"
    assert list(rnd.byes.all()) == [bye]
    assert Deal.objects.filter(game=table.game, dealer=leaving).count() == 4
    evenings.seat_change(rnd=rnd, seat_id=seat.pk, player_id=bye.pk, wrong_person=True)
    assert Seat.objects.get(table=table, position=0).player == bye
    assert list(rnd.byes.all()) == [leaving]
    _scores_match_engine(table.game)
    assert Deal.objects.filter(game=table.game, dealer=bye).count() == 4


def test_replace_refuses_a_seated_or_absent_player(club, nine, event):
    checked_in(event, nine[:8])
    rnd = evenings.round_seat(event=event, seed=5).round
    seat = Seat.objects.filter(table__round=rnd).first()
    other = Seat.objects.filter(table__round=rnd).exclude(pk=seat.pk).first()
    with pytest.raises(EveningError) as error:
        evenings.seat_change(rnd=rnd, seat_id=seat.pk, player_id=other.player_id)
    assert error.value.code == "already_seated"
    with pytest.raises(EveningError) as error:
        evenings.seat_change(rnd=rnd, seat_id=seat.pk, player_id=nine[8].pk)
    assert error.value.code == "not_checked_in"
    assert Seat.objects.get(pk=seat.pk).player_id == seat.player_id


def test_seat_swap_before_play_renames_the_game(club, nine, event):
    checked_in(event, nine[:8])
    rnd = evenings.round_seat(event=event, seed=5).round
    a = Seat.objects.get(table__round=rnd, table__number=1, position=0)
    b = Seat.objects.get(table__round=rnd, table__number=2, position=0)
    a_name, b_name = a.player.name, b.player.name
    evenings.seat_change(rnd=rnd, seat_id=a.pk, other_seat_id=b.pk)
    assert Game.objects.get(table__round=rnd, table__number=1).player_names[0] == b_name
    assert Game.objects.get(table__round=rnd, table__number=2).player_names[0] == a_name
    assert not GameScore.objects.exists()


# --- closing ---------------------------------------------------------------


def test_close_round_refuses_unfinished_games_unless_confirmed(club, nine, event):
    checked_in(event, nine[:8])
    rnd = evenings.round_seat(event=event, seed=5).round
    with pytest.raises(EveningError) as error:
        closing.round_close(rnd=rnd)
    assert error.value.code == "games_unfinished"
    assert error.value.params["tables"] == [1, 2]
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.OPEN
    closing.round_close(rnd=rnd, force=True)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED


def test_close_round_of_finished_games_needs_no_confirmation(club, nine, event):
    checked_in(event, nine[:4])
    rnd = evenings.round_seat(event=event, seed=5).round
    play(rnd.tables.get().game, 28)
    closing.round_close(rnd=rnd)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED


def test_close_event_closes_rounds_and_refuses_further_changes(club, nine, event):
    checked_in(event, nine[:4])
    rnd = evenings.round_seat(event=event, seed=5).round
    play(rnd.tables.get().game, 5)
    with pytest.raises(EveningError):
        closing.event_close(event=event)
    closing.event_close(event=event, force=True)
    event.refresh_from_db()
    rnd.refresh_from_db()
    assert event.status == Event.Status.CLOSED
    assert rnd.status == Round.Status.CLOSED
    with pytest.raises(EveningError) as error:
        evenings.round_seat(event=event)
    assert error.value.code == "event_closed"
    with pytest.raises(EveningError):
        evenings.guest_add(event=event, name="Late")


def test_seating_counts_history_so_round_two_avoids_repeats(club, event):
    players = [make_player(club, f"P{i}") for i in range(8)]
    checked_in(event, players)
    first = evenings.round_seat(event=event, seed=1).round
    closing.round_close(rnd=first, force=True)
    second = evenings.round_seat(event=event, seed=1).round
    met = Counter()
    for rnd in (first, second):
        for table in rnd.tables.all():
            ids = sorted(table.seats.values_list("player_id", flat=True))
            for i, a in enumerate(ids):
                for b in ids[i + 1 :]:
                    met[(a, b)] += 1
    # 8 players at two tables: each new table holds at least two players of one old
    # table, so 4 repeat pairs is the minimum; only a 2 + 2 split of both tables gets it.
    assert sum(n - 1 for n in met.values()) == 4
