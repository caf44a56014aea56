"""A substitute takes over a seat from the next deal (issue 14): through the organiser's
swap form, then the table plays on; each player's deals stay their own."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.barbu import evenings, substitutions
from games.core.errors import EveningError
from games.models import (
    Deal,
    DealScore,
    EventLog,
    EventPlayer,
    Game,
    GameScore,
    Seat,
    Substitution,
)
from scoring.engine import barbu
from scoring.models import EventStanding
from tests.factories import make_organiser, seated_event
from tests.games.barbu.builders import deals_for, play
from tests.games.barbu.deal_forms import form_data

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture
def evening(club):
    """Nine players: two tables and a bye; table 1 has played five deals."""
    event = seated_event(club, 9)
    rnd = event.rounds.get()
    seat = Seat.objects.select_related("player").get(table__round=rnd, table__number=1, position=0)
    game = Game.objects.get(table=seat.table)
    play(game, 5)
    return event, rnd, seat, game


def swap_url(club, event) -> str:
    return reverse("seat-swap", args=[club.slug, event.pk, 1])


def post_swap(client, club, event, **data):
    return client.post(swap_url(club, event), data, follow=True).content.decode()


def contract_counts(player) -> int:
    return DealScore.objects.filter(player=player).count()


def test_the_swap_form_offers_both_choices_once_a_table_has_deals(organiser_client, club, evening):
    event, _rnd, _seat, _game = evening
    page = organiser_client.get(reverse("round-detail", args=[club.slug, event.pk, 1]))
    html = page.content.decode()
    assert "5 deals played. What happened?" in html
    assert "The wrong person was seated: the deals played are theirs" in html
    assert "A substitute takes over from the next deal (deal 6)" in html
    assert 'name="from_deal" value="6"' in html


def test_a_substitute_takes_over_and_the_table_plays_on(organiser_client, client, club, evening):
    event, rnd, seat, game = evening
    starter, bye = seat.player, rnd.byes.get()
    with CaptureQueriesContext(connection):
        page = post_swap(
            organiser_client,
            club,
            event,
            seat=seat.pk,
            target=f"player:{bye.pk}",
            what="substitute",
            from_deal="6",
        )
    assert "Substitute recorded" in page
    change = Substitution.objects.get(game=game)
    assert (change.seat, change.from_deal) == (0, 6)
    assert (change.player_out, change.player_in) == (starter, bye)
    assert change.by_user is not None
    assert Seat.objects.get(pk=seat.pk).player == bye
    assert list(rnd.byes.all()) == []  # the substitute plays; the leaver played too
    # Nothing stored moved: the five deals are the starter's, with no new version.
    assert contract_counts(starter) == 5 and contract_counts(bye) == 0
    assert set(Deal.objects.filter(game=game).values_list("version", flat=True)) == {1}
    log = EventLog.objects.get(event=event, action="substituted")
    assert log.detail["from_deal"] == 6 and log.detail["in"] == bye.name
    dashboard = organiser_client.get(reverse("event-dashboard", args=[club.slug, event.pk]))
    assert (
        f"Table 1, seat 1: {bye.name} takes over from {starter.name} from deal 6"
        in dashboard.content.decode()
    )

    # The table page (in the players' Italian) shows who sits there now, and plays on:
    # deal 6 is the substitute's.
    entry = client.get(
        reverse("table-entry", args=[game.table.key]), HTTP_ACCEPT_LANGUAGE="it"
    ).content.decode()
    assert f"{bye.name} dalla smazzata 6" in entry
    deal = deals_for(game)[5]
    answer = client.post(
        reverse("table-deal", args=[game.table.key]),
        form_data(deal, list(game.player_names), 6),
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    play(game, 9)
    assert contract_counts(starter) == 5 and contract_counts(bye) == 4
    # Deal 7 was dealt by seat 0 (italian7: seven deals per dealer): by the substitute.
    assert Deal.objects.get(game=game, number=7).dealer == bye
    assert DealScore.objects.get(deal__game=game, deal__number=7, player=bye).is_dealer
    # Every deal's four rows are the four players who played it.
    for number in range(1, 10):
        players = set(
            DealScore.objects.filter(deal__game=game, deal__number=number).values_list(
                "player_id", flat=True
            )
        )
        assert (starter.pk in players) == (number <= 5)
        assert (bye.pk in players) == (number > 5)
        assert len(players) == 4

    # Both players' pages (in the club's language) show the game with who played which
    # deals; so does the score sheet.
    starter_page = client.get(reverse("scoring:player", args=[starter.pk])).content.decode()
    assert f"ha giocato le smazzate 1–5; sostituito da {bye.name} dalla smazzata 6" in starter_page
    bye_page = client.get(reverse("scoring:player", args=[bye.pk])).content.decode()
    assert f"ha giocato le smazzate 6–9; sostituto di {starter.name} dalla smazzata 6" in bye_page
    sheet = client.get(reverse("scoring:game", args=[game.pk])).content.decode()
    assert f"{starter.name} smazzate 1–5, {bye.name} smazzate 6–9" in sheet


def test_the_seats_result_goes_to_who_played_more_deals_the_starter_on_a_tie(
    club, evening, django_capture_on_commit_callbacks
):
    event, rnd, seat, game = evening
    starter, bye = seat.player, rnd.byes.get()
    substitutions.substitute(rnd=rnd, seat_id=seat.pk, player_id=bye.pk, from_deal=6)
    play(game, 9)  # 5 against 4
    assert GameScore.objects.get(game=game, seat=0).player == starter
    play(game, 10)  # 5 against 5: the starter's
    assert GameScore.objects.get(game=game, seat=0).player == starter
    with django_capture_on_commit_callbacks(execute=True):
        play(game, 11)  # 5 against 6: the standings are queued once it commits
    score = GameScore.objects.get(game=game, seat=0)
    assert score.player == bye
    record = {
        "ruleset": game.ruleset,
        "players": list(game.player_names),
        "deals": [d.data for d in game.deals.order_by("number")],
    }
    assert float(score.total) == barbu.score_game(record)["totals"][game.player_names[0]]
    # The standings count the game once, for the one holding its result.
    standing = set(EventStanding.objects.filter(event=event).values_list("player_id", flat=True))
    assert bye.pk in standing


def test_a_seat_may_change_back_and_a_pending_change_is_replaced(club, evening):
    event, rnd, seat, game = evening
    starter, bye = seat.player, rnd.byes.get()
    extra = EventPlayer.objects.create(
        event=event, player=type(starter).objects.create(name="Late Comer")
    ).player
    substitutions.substitute(rnd=rnd, seat_id=seat.pk, player_id=bye.pk, from_deal=6)
    # Before deal 6 is played the organiser corrects themself: one change, starter → extra.
    substitutions.substitute(rnd=rnd, seat_id=seat.pk, player_id=extra.pk, from_deal=6)
    assert list(Substitution.objects.values_list("player_out", "player_in")) == [
        (starter.pk, extra.pk)
    ]
    play(game, 7)
    # A → B → A: the starter comes back from deal 8.
    substitutions.substitute(rnd=rnd, seat_id=seat.pk, player_id=starter.pk, from_deal=8)
    play(game, 9)
    assert contract_counts(starter) == 7 and contract_counts(extra) == 2
    assert GameScore.objects.get(game=game, seat=0).player == starter


def refusal(organiser_client, club, event, **data) -> str:
    return post_swap(organiser_client, club, event, what="substitute", **data)


def test_refusals_say_why(organiser_client, club, evening):
    event, rnd, seat, game = evening
    bye = rnd.byes.get()
    other_table = Seat.objects.get(table__round=rnd, table__number=2, position=1)
    same_table = Seat.objects.get(table=seat.table, position=2)

    # A deal stored since the organiser opened the page: someone must say who played it.
    page = refusal(
        organiser_client, club, event, seat=seat.pk, target=f"player:{bye.pk}", from_deal="5"
    )
    assert "Deal 5 is already stored" in page and "from deal 6" in page
    # Someone playing at another table, or at this one.
    page = refusal(
        organiser_client, club, event, seat=seat.pk, target=f"seat:{other_table.pk}", from_deal="6"
    )
    assert f"{other_table.player.name} is playing at table 2" in page
    page = refusal(
        organiser_client, club, event, seat=seat.pk, target=f"seat:{same_table.pk}", from_deal="6"
    )
    assert "is already playing at this table" in page
    assert not Substitution.objects.exists()

    # Before any deal, nobody is substituted: a plain swap is what is needed.
    idle = Seat.objects.get(table__round=rnd, table__number=2, position=0)
    page = refusal(organiser_client, club, event, seat=idle.pk, target=f"player:{bye.pk}")
    assert "has not played a deal yet" in page

    # After the last deal there is no next deal.
    play(game, game.deals_target)
    page = refusal(organiser_client, club, event, seat=seat.pk, target=f"player:{bye.pk}")
    assert "has finished its game" in page
    assert not Substitution.objects.exists()
    assert Seat.objects.get(pk=seat.pk).player == seat.player


def test_a_player_from_a_finished_table_may_come_in(club, evening):
    _event, rnd, seat, _game = evening
    other = Game.objects.get(table__round=rnd, table__number=2)
    play(other, other.deals_target, seed=4)
    helper = Seat.objects.get(table=other.table, position=3)
    substitutions.substitute(rnd=rnd, seat_id=seat.pk, other_seat_id=helper.pk, from_deal=6)
    assert Seat.objects.get(pk=seat.pk).player == helper.player
    assert Seat.objects.get(pk=helper.pk).player == helper.player  # their finished game stays


def test_the_wrong_person_rename_is_refused_once_a_substitute_played(club, evening):
    _event, rnd, seat, game = evening
    bye = rnd.byes.get()
    substitutions.substitute(rnd=rnd, seat_id=seat.pk, player_id=bye.pk, from_deal=6)
    play(game, 6)
    other = Seat.objects.get(table=seat.table, position=1)
    with pytest.raises(EveningError) as error:
        evenings.seat_change(rnd=rnd, seat_id=seat.pk, other_seat_id=other.pk, wrong_person=True)
    assert error.value.code == "swap_substituted"


def test_the_player_page_makes_the_same_queries_for_one_substituted_game_or_two(client, club):
    event = seated_event(club, 9)
    rnd = event.rounds.get()
    make_organiser(club)
    bye = rnd.byes.get()

    def count(player) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("scoring:player", args=[player.pk])).status_code == 200
        return len(queries)

    first = Seat.objects.get(table__round=rnd, table__number=1, position=0)
    game = Game.objects.get(table=first.table)
    play(game, 2)
    substitutions.substitute(rnd=rnd, seat_id=first.pk, player_id=bye.pk, from_deal=3)
    play(game, 3)
    one = count(bye)
    second = Seat.objects.get(table__round=rnd, table__number=2, position=0)
    other = Game.objects.get(table=second.table)
    play(other, 2, seed=5)
    substitutions.substitute(rnd=rnd, seat_id=first.pk, player_id=first.player.pk, from_deal=4)
    substitutions.substitute(rnd=rnd, seat_id=second.pk, player_id=bye.pk, from_deal=3)
    play(other, 4, seed=5)
    assert count(bye) == one
    page = client.get(reverse("scoring:player", args=[bye.pk])).content.decode()
    assert page.count("substitution-note") == 2


def test_a_change_undone_before_any_deal_leaves_no_substitution(club, evening):
    _event, rnd, seat, game = evening
    starter, bye = seat.player, rnd.byes.get()
    substitutions.substitute(rnd=rnd, seat_id=seat.pk, player_id=bye.pk, from_deal=6)
    back = substitutions.substitute(rnd=rnd, seat_id=seat.pk, player_id=starter.pk, from_deal=6)
    assert back is None and not Substitution.objects.exists()
    assert Seat.objects.get(pk=seat.pk).player == starter
    # Nobody else ever played the seat: the wrong-person rename is allowed again.
    evenings.seat_change(rnd=rnd, seat_id=seat.pk, player_id=bye.pk, wrong_person=True)
    assert DealScore.objects.filter(deal__game=game, player=bye).count() == 5
