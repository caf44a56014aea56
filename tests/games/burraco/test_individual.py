"""Individual Burraco tournaments (docs/rules/burraco.md "Individual tournament"): players enter
alone, each turn seats two players a side by the individual movement, every player is
credited with their line's VP and MP, and the ranking ranks players."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

import pytest

from games.burraco import tournaments
from games.burraco.results import ranking_so_far
from games.core.errors import EntryError
from games.models import Event, PairTurnResult, Round, Seat
from scoring.models import PairStanding
from scoring.rebuild import rebuild_event_standings
from tests.factories import make_player
from tests.games.burraco.builders import (
    burraco_club,
    individual_tournament,
    play_table,
    play_turn,
    tournament,
)

pytestmark = pytest.mark.django_db


def _sides(rnd: Round) -> list[tuple[set[int], set[int]]]:
    return [
        (
            {t.ns_pair.number, t.ns_partner.number},
            {t.ew_pair.number, t.ew_partner.number},
        )
        for t in rnd.tables.select_related(
            "ns_pair", "ns_partner", "ew_pair", "ew_partner"
        ).order_by("number")
    ]


def _byes(rnd: Round) -> set[int]:
    return set(
        PairTurnResult.objects.filter(round=rnd, bye=True).values_list("pair__number", flat=True)
    )


def test_entries_are_players_checked_in_late_and_withdrawn() -> None:
    event = individual_tournament(4)
    assert event.individual
    entry = event.pairs.get(number=1)
    assert entry.player_b is None and entry.names == "Solo 1" and str(entry) == "1. Solo 1"
    with pytest.raises(EntryError) as taken:
        tournaments.player_enter(event=event, player=entry.player_a)
    assert taken.value.code == "player_taken"
    with pytest.raises(EntryError) as pair:
        tournaments.pair_enter(
            event=event, player_a=make_player(event.club, "X"), player_b=entry.player_a
        )
    assert pair.value.code == "individual_tournament"
    tournaments.pair_checkin(pair=entry)
    assert event.pairs.get(number=1).checked_in
    # Check-in used: the first turn waits for every player (test_turn_changes.py).
    for other in event.pairs.exclude(number=1):
        tournaments.pair_checkin(pair=other)
    rnd = tournaments.turn_seat(event=event, movement="first", seed=3).round
    late = tournaments.player_enter(event=event, player=make_player(event.club, "Late"))
    assert late.late and late.number == 5
    play_turn(rnd)
    with pytest.raises(EntryError) as closed:
        tournaments.player_enter(event=event, player=make_player(event.club, "Too late"))
    assert closed.value.code == "entries_closed"
    tournaments.pair_withdraw(pair=event.pairs.get(number=2))
    second = tournaments.turn_seat(event=event, movement="individual", seed=3).round
    seated = {n for ns, ew in _sides(second) for n in ns | ew}
    assert seated == {1, 3, 4, 5} and not _byes(second)


def test_a_pair_tournament_takes_no_single_players_nor_the_individual_movement() -> None:
    event = tournament(4)
    with pytest.raises(EntryError) as single:
        tournaments.player_enter(event=event, player=make_player(event.club, "Alone"))
    assert single.value.code == "pair_tournament"
    with pytest.raises(EntryError) as movement:
        tournaments.turn_seat(event=event, movement="individual")
    assert movement.value.code == "not_individual"
    solo = individual_tournament(4, club=burraco_club("Solo club"))
    with pytest.raises(EntryError) as mitchell:
        tournaments.turn_seat(event=solo, movement="mitchell")
    assert mitchell.value.code == "individual_only"


def test_an_individual_turn_needs_four_players() -> None:
    event = individual_tournament(3)
    with pytest.raises(EntryError) as few:
        tournaments.turn_seat(event=event, movement="first")
    assert few.value.code == "too_few_players"
    assert not event.rounds.exists()


@pytest.mark.parametrize("players", [8, 9])
def test_three_turns_new_partners_every_turn_fair_byes_and_line_credit(players: int) -> None:
    event = individual_tournament(players, turns=3)
    partners: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    for number in (1, 2, 3):
        rnd = tournaments.turn_seat(
            event=event, movement="first" if number == 1 else "individual", seed=11
        ).round
        assert rnd.movement == "individual" and rnd.number == number
        sides = _sides(rnd)
        rested = _byes(rnd)
        assert len(sides) == players // 4 and len(rested) == players % 4
        everyone = [n for ns, ew in sides for n in (*ns, *ew)] + sorted(rested)
        assert sorted(everyone) == list(range(1, players + 1))
        for ns, ew in sides:
            partners.update([frozenset(ns), frozenset(ew)])
        byes.update(rested)
        # Seats: N and S the NS line's players, E and W the EW line's.
        table = rnd.tables.order_by("number").first()
        seats = dict(Seat.objects.filter(table=table).values_list("position", "player_id"))
        assert {seats[0], seats[2]} == {table.ns_pair.player_a_id, table.ns_partner.player_a_id}
        assert {seats[1], seats[3]} == {table.ew_pair.player_a_id, table.ew_partner.player_a_id}
        play_turn(rnd)
    # Nobody partners the same player twice; nobody rests twice while another has not.
    assert max(partners.values()) == 1
    if players == 9:
        assert sorted(byes.values()) == [1, 1, 1]
    # Each player has a result every turn: their line's, or the bye's 14 VP / +355.
    rows = PairTurnResult.objects.filter(round__event=event)
    assert rows.count() == 3 * players
    for row in rows.filter(bye=True):
        assert row.vp == Decimal(14) and row.mp_for == 355
    for row in rows.filter(bye=False).select_related("table"):
        partner = PairTurnResult.objects.get(round=row.round, pair=row.partner)
        assert (partner.vp, partner.mp_for, partner.line) == (row.vp, row.mp_for, row.line)
        assert {row.opponent_id, row.opponent_b_id} == set(
            PairTurnResult.objects.filter(round=row.round, table=row.table)
            .exclude(line=row.line)
            .values_list("pair_id", flat=True)
        )
    assert rebuild_event_standings(event_id=event.pk) == players
    standings = PairStanding.objects.filter(event=event)
    assert standings.count() == players
    assert all(s.turns == 3 for s in standings)


def test_the_individual_ranking_on_a_hand_made_case() -> None:
    """Four players, one turn of 3 hands: 1 & 3 (NS) beat 2 & 4 by 300 MP.

    Entries 1 and 3 share their line's VP and MP: level on VP and MP, they are also level
    head-to-head (they never met), so they share first place; the same below."""
    event = individual_tournament(4, turns=1)
    rnd = tournaments.turn_seat(event=event, movement="first", seed=5).round
    table = rnd.tables.select_related("game", "ns_pair", "ns_partner").get()
    play_table(table.game, [(400, 100), (200, 200), (100, 100)])
    ns = sorted([table.ns_pair.number, table.ns_partner.number])
    rows = {r.pair: r for r in ranking_so_far(event)}
    vp = rows[ns[0]].vp
    assert vp > 10 and rows[ns[1]].vp == vp
    assert rows[ns[0]].mp_difference == 300 and rows[ns[0]].place == 1 and rows[ns[0]].shared
    others = sorted(set(rows) - set(ns))
    assert rows[others[0]].vp == 20 - vp and rows[others[0]].mp_difference == -300
    assert rows[others[0]].place == 3 and rows[others[1]].place == 3


def test_players_changed_since_the_start_are_seated_from_the_history() -> None:
    """A late entry changes the players: later turns come from what was played (no
    partner twice while avoidable), byes to those who have not rested."""
    event = individual_tournament(8, turns=4)
    rnd = tournaments.turn_seat(event=event, movement="first", seed=2).round
    tournaments.player_enter(event=event, player=make_player(event.club, "Late"))
    play_turn(rnd)
    partners: Counter[frozenset[int]] = Counter()
    for ns, ew in _sides(rnd):
        partners.update([frozenset(ns), frozenset(ew)])
    byes: Counter[int] = Counter()
    for _turn in (2, 3, 4):
        rnd = tournaments.turn_seat(event=event, movement="individual", seed=2).round
        for ns, ew in _sides(rnd):
            partners.update([frozenset(ns), frozenset(ew)])
        byes.update(_byes(rnd))
        play_turn(rnd)
    assert max(partners.values()) == 1
    assert sum(byes.values()) == 3 and max(byes.values()) == 1


def test_individual_cards_rate_the_players_and_fill_their_pages_and_season(client) -> None:
    from django.urls import reverse

    from clubs.models import League
    from scoring.burraco.rating_sync import sync_burraco_ratings
    from scoring.burraco.selectors import season
    from scoring.models import BurracoRating, BurracoRatingHistory

    club = burraco_club()
    league = League.objects.create(club=club, name="Stagione", game="burraco")
    event = individual_tournament(8, club=club, turns=1)
    event.league = league
    event.save(update_fields=["league"])
    rnd = tournaments.turn_seat(event=event, movement="first", seed=9).round
    play_turn(rnd)
    rebuild_event_standings(event_id=event.pk)
    sync_burraco_ratings()
    table = rnd.tables.select_related(
        "ns_pair__player_a", "ns_partner__player_a", "ew_pair", "ew_partner"
    ).get(number=1)
    north, south = table.ns_pair.player_a, table.ns_partner.player_a
    # Teams of two for the pair rating: the turn's partners, all eight players rated.
    assert BurracoRating.objects.count() == 8
    history = BurracoRatingHistory.objects.get(player=north, game=table.game)
    assert history.partner_id == south.pk
    # The player page: the tournament with no fixed partner, the line's statistics.
    page = client.get(reverse("scoring:player", args=[north.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    rows = text.split('id="burraco-tournaments"')[1]
    assert event.name in rows and "individual tournament" in rows
    stats = text.split('id="burraco-stats"')[1].split("</section>")[0]
    assert "over 3 hands" in stats
    # A league of individual tournaments ranks players, each keyed alone.
    event.status = Event.Status.CLOSED
    event.save(update_fields=["status"])
    lines = season(league)["lines"]
    assert len(lines) == 8 and {line["label"] for line in lines} >= {north.name, south.name}
