"""A Mitchell or round robin turn after the pairs changed (a late entry, a withdrawal, a
first turn seated otherwise) never seats two pairs that already met: the referee is told
why and what to do instead (Danese no rematch, or a pasted pairing)."""

from __future__ import annotations

import pytest

from games.burraco import tournaments
from games.burraco.results import ranking_so_far
from games.burraco.tournaments import TournamentError
from games.models import PairTurnResult
from tests.factories import make_player
from tests.games.burraco.builders import individual_tournament, pair, play_turn, tournament

pytestmark = pytest.mark.django_db


def _met(event) -> set[frozenset[int]]:
    return {
        frozenset(p)
        for p in PairTurnResult.objects.filter(
            round__event=event, opponent__isnull=False
        ).values_list("pair__number", "opponent__number")
    }


def _pairs(rnd) -> list[frozenset[int]]:
    return [frozenset(t) for t in rnd.tables.values_list("ns_pair__number", "ew_pair__number")]


def test_a_mitchell_after_a_late_entry_refuses_to_seat_a_rematch() -> None:
    event = tournament(6)
    first = tournaments.turn_seat(event=event, movement="first").round
    club = event.club
    tournaments.pair_enter(
        event=event, player_a=make_player(club, "Late A"), player_b=make_player(club, "Late B")
    )
    play_turn(first)
    met = _met(event)
    with pytest.raises(TournamentError) as error:
        tournaments.turn_seat(event=event, movement="mitchell")
    assert error.value.code == "movement_rematch"
    assert "meet again (" in error.value.message and "Danese" in error.value.message
    assert event.rounds.count() == 1
    # Danese without rematches seats the seven pairs.
    second = tournaments.turn_seat(event=event, movement="danese", variant="no_rematch").round
    assert not set(_pairs(second)) & met
    assert second.tables.count() == 3 and second.pair_results.filter(bye=True).count() == 1


def test_a_mitchell_goes_on_after_a_withdrawal_its_opponent_resting() -> None:
    event = tournament(8)
    first = tournaments.turn_seat(event=event, movement="first").round
    play_turn(first)
    tournaments.pair_withdraw(pair=pair(event, 3))
    for number in (2, 3):
        rnd = tournaments.turn_seat(event=event, movement="mitchell").round
        assert not set(_pairs(rnd)) & _met_before(event, number)
        byes = list(rnd.pair_results.filter(bye=True).values_list("pair__number", flat=True))
        seated = {n for p in _pairs(rnd) for n in p}
        # The pair that would have met pair 3 rests; everyone else plays; 3 is gone.
        assert len(byes) == 1 and 3 not in seated and 3 not in byes
        assert seated | set(byes) == {1, 2, 4, 5, 6, 7, 8}
        assert rnd.tables.count() == 3
        play_turn(rnd)
    # Mitchell's own lines: NS pairs kept their tables.
    ns = [set(r.tables.values_list("number", "ns_pair__number")) for r in event.rounds.all()]
    assert ns[1] <= ns[0] and ns[2] <= ns[0]


def _met_before(event, number: int) -> set[frozenset[int]]:
    return {
        frozenset(p)
        for p in PairTurnResult.objects.filter(
            round__event=event, round__number__lt=number, opponent__isnull=False
        ).values_list("pair__number", "opponent__number")
    }


def test_a_mitchell_with_the_same_pairs_still_seats_its_turns() -> None:
    event = tournament(7)
    for number in (1, 2, 3):
        movement = "first" if number == 1 else "mitchell"
        rnd = tournaments.turn_seat(event=event, movement=movement).round
        assert not set(_pairs(rnd)) & _met_before(event, number)
        play_turn(rnd)


def test_the_first_turn_waits_for_the_pairs_not_checked_in() -> None:
    """Check-in used: a pair entered but not checked in is not seated by surprise; the
    referee checks it in or withdraws it. Nobody checked in: check-in is not used."""
    event = tournament(5)
    for number in (1, 2, 4):
        tournaments.pair_checkin(pair=pair(event, number))
    with pytest.raises(TournamentError) as error:
        tournaments.turn_seat(event=event, movement="first")
    assert error.value.code == "not_checked_in" and error.value.params["pairs"] == [3, 5]
    assert "Pairs 3, 5 are not checked in" in error.value.message
    assert not event.rounds.exists()
    tournaments.pair_checkin(pair=pair(event, 3))
    tournaments.pair_withdraw(pair=pair(event, 5))
    rnd = tournaments.turn_seat(event=event, movement="first").round
    seated = set(rnd.tables.values_list("ns_pair__number", flat=True))
    seated |= set(rnd.tables.values_list("ew_pair__number", flat=True))
    assert seated == {1, 2, 3, 4}
    # A pair checked out again is not checked in.
    tournaments.pair_checkin(pair=pair(event, 1), present=False)
    assert not pair(event, 1).checked_in


def test_without_check_in_every_pair_entered_is_seated() -> None:
    event = tournament(4)
    rnd = tournaments.turn_seat(event=event, movement="first").round
    assert rnd.tables.count() == 2


def test_a_late_pair_takes_the_odd_tables_place_in_the_mitchell() -> None:
    """Seven pairs: the Mitchell's eighth place is the bye's. A pair entering late takes it,
    and the Mitchell goes on without rematches and without a bye."""
    event = tournament(7)
    first = tournaments.turn_seat(event=event, movement="first").round
    club = event.club
    late = tournaments.pair_enter(
        event=event, player_a=make_player(club, "Late A"), player_b=make_player(club, "Late B")
    )
    play_turn(first)
    for number in (2, 3):
        rnd = tournaments.turn_seat(event=event, movement="mitchell").round
        assert not set(_pairs(rnd)) & _met_before(event, number)
        assert rnd.tables.count() == 4 and not rnd.pair_results.filter(bye=True).exists()
        assert late.number in {n for p in _pairs(rnd) for n in p}
        play_turn(rnd)


@pytest.mark.parametrize("pairs", [5, 7, 9])
def test_byes_rotate_over_mitchell_then_danese_turns(pairs: int) -> None:
    """An odd field, two Mitchell turns then Danese: nobody rests twice while another pair
    has not rested, and Danese gives the bye to the lowest-ranked pair not yet rested."""
    event = tournament(pairs)
    resting: list[int] = []
    for number, movement in enumerate(("first", "mitchell", "danese", "danese"), start=1):
        ranked = [r.pair for r in ranking_so_far(event, list(range(1, pairs + 1)))]
        rnd = tournaments.turn_seat(event=event, movement=movement).round
        (bye,) = rnd.pair_results.filter(bye=True).values_list("pair__number", flat=True)
        assert bye not in resting, f"turn {number}: pair {bye} rests again"
        if movement == "danese":
            assert bye == [p for p in ranked if p not in resting][-1]
        resting.append(bye)
        play_turn(rnd, {t: [(200 + 35 * t, 100 + 10 * t)] * 3 for t in range(1, 6)})


def test_the_referee_closes_a_card_cut_short_by_the_time_limit(client) -> None:
    """Time ran out after two hands of three: the table cannot confirm an incomplete card;
    the referee confirms it with the hands played, VP by the three-hand table, and the
    next turn can be seated."""
    from django.urls import reverse

    from games.burraco import scorecards
    from games.core.errors import EntryError
    from games.models import ScoreCard
    from tests.factories import make_organiser
    from tests.games.burraco.builders import play_table

    event = tournament(4)
    rnd = tournaments.turn_seat(event=event, movement="first", time_limit=45).round
    short, other = rnd.tables.order_by("number")
    play_table(other.game, [(300, 100)] * 3)
    play_table(short.game, [(400, 100), (500, 100)], confirm=False)
    with pytest.raises(EntryError) as error:
        scorecards.card_confirm(game_id=short.game.pk, line="EW", agree=True)
    assert error.value.code == "card_incomplete"
    make_organiser(event.club, "referee")
    client.login(username="referee", password="tavolo-test")
    url = reverse("burraco-card-correct", args=[event.club.slug, event.pk, short.game.pk])
    page = client.get(url).content.decode()
    assert 'name="time_out"' in page
    card = ScoreCard.objects.get(game=short.game)
    form = {"version": card.version, "reason": "time", "h1-NS": "400", "h1-EW": "100"}
    form |= {"h2-NS": "500", "h2-EW": "100"}
    # Without saying the time ran out, the card stays open.
    assert client.post(url, form).status_code == 302
    card.refresh_from_db()
    assert card.status == ScoreCard.Status.OPEN
    assert client.post(url, {**form, "version": card.version, "time_out": "on"}).status_code == 302
    card.refresh_from_db()
    # 900 - 200 = 700 on the 3-hand table (655-800): 16-4.
    assert card.status == ScoreCard.Status.CONFIRMED and (card.ns_vp, card.ew_vp) == (16, 4)
    assert tournaments.turn_seat(event=event, movement="mitchell").round.number == 2


def test_an_individual_first_turn_waits_for_the_players_not_checked_in() -> None:
    """The same check-in rule for players entered alone, named as players."""
    event = individual_tournament(9)
    for number in range(1, 9):
        tournaments.pair_checkin(pair=pair(event, number))
    with pytest.raises(TournamentError) as error:
        tournaments.turn_seat(event=event, movement="individual")
    assert error.value.code == "not_checked_in" and error.value.params["pairs"] == [9]
    assert "Player 9 is not checked in" in error.value.message
    assert not event.rounds.exists()
    tournaments.pair_withdraw(pair=pair(event, 9))
    rnd = tournaments.turn_seat(event=event, movement="individual").round
    assert rnd.tables.count() == 2
