"""The tournament's history at the desk (issue 31, item 11's desk half): entries, late
entries, check-ins, withdrawals and seatings are in it with every other desk action; a
correction's and a penalty's lines keep the old and the new values; a line entered from
a phone reads in the reader's language, not the phone's."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.burraco import scorecards, tournaments
from games.burraco.history import desk_history
from tests.factories import make_organiser, make_player
from tests.games.burraco.builders import individual_tournament, pair, play_table, tournament

pytestmark = pytest.mark.django_db


def _history(client: Client, event, language: str = "en") -> list[str]:
    page = client.get(
        reverse("burraco-desk", args=[event.club.slug, event.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    block = re.search(r'<ul id="history".*?</ul>', page, re.S)
    assert block is not None, "no history on the desk"
    return [re.sub(r"<[^>]+>", " ", li) for li in re.findall(r"<li>(.*?)</li>", block.group(0))]


@pytest.fixture
def saturday():
    """Six pairs, checked in (one by hand, the rest at once), turn 1 by draw, a late pair,
    a withdrawal undone, all through the desk."""
    event = tournament(6)
    referee = make_organiser(event.club, "referee")
    client = Client()
    client.force_login(referee)
    tournaments.pair_checkin(pair=pair(event, 1), by_user=referee)
    tournaments.checkin_all(event=event, by_user=referee)
    tournaments.turn_seat(event=event, movement="first", first_order="draw", by_user=referee)
    late = tournaments.pair_enter(
        event=event,
        player_a=make_player(event.club, "Late A"),
        player_b=make_player(event.club, "Late B"),
        by_user=referee,
    )
    tournaments.pair_withdraw(pair=pair(event, 5), by_user=referee)
    tournaments.pair_reinstate(pair=pair(event, 5), by_user=referee)
    return event, client, referee, late


def test_every_desk_action_is_in_the_history(saturday) -> None:
    event, client, _referee, _late = saturday
    lines = _history(client, event)
    text = "\n".join(lines)
    assert "pair 1 checked in (referee)" in text
    assert "Check in all: 5 entries checked in (2, 3, 4, 5, 6) (referee)" in text
    assert "turn 1 · Turn seated (first turn by draw): 3 tables (referee)" in text
    assert "pair 7 entered late: Late A – Late B (referee)" in text
    assert "pair 5 withdrawn after turn 1 (referee)" in text
    assert "pair 5 back in the tournament (withdrawal undone) (referee)" in text
    assert "pair 1 entered: Player 1a – Player 1b" in text
    # Latest first.
    assert lines[0].count("back in the tournament") == 1


def test_a_correction_keeps_the_old_and_the_new_values(saturday) -> None:
    event, client, referee, _late = saturday
    game = event.rounds.get(number=1).tables.get(number=1).game
    play_table(game, [(300, 100), (200, 200), (150, 50)])
    scorecards.card_correct(
        game_id=game.pk,
        hands=[
            {"mp": {"NS": 300, "EW": 100}},
            {"mp": {"NS": 100, "EW": 300}},
            {"mp": {"NS": 150, "EW": 50}},
        ],
        reason="hand 2 went to EW",
        by_user=referee,
    )
    line = next(x for x in _history(client, event) if "hand 2 went to EW" in x)
    assert "table 1" in line and "corrected" in line
    assert "was hand 2: 200–200, now hand 2: 100–300" in line
    assert "hand 1" not in line  # only what changed


def test_a_penalty_keeps_the_old_and_the_new_values(saturday) -> None:
    event, client, referee, _late = saturday
    rnd = event.rounds.get(number=1)
    target = rnd.tables.get(number=2).ns_pair
    scorecards.penalty_set(
        round_id=rnd.pk, pair_id=target.pk, vp=1, mp=0, reason="slow play", by_user=referee
    )
    scorecards.penalty_set(
        round_id=rnd.pk, pair_id=target.pk, vp="2.5", mp=50, reason="slow again", by_user=referee
    )
    line = next(x for x in _history(client, event) if "slow again" in x)
    assert f"pair {target.number}" in line
    assert "was −1.00 VP, −0 MP, now −2.5 VP, −50 MP" in line


def test_a_phones_line_reads_in_the_readers_language(saturday) -> None:
    event, client, _referee, _late = saturday
    game = event.rounds.get(number=1).tables.get(number=2).game
    for _ in range(3):
        scorecards.hand_submit(
            game_id=game.pk, hand={"mp": {"NS": 200, "EW": 100}}, line="NS", by_label="Tavolo 2, NS"
        )
    # Disputed from an Italian phone: its label is written in Italian.
    scorecards.card_confirm(
        game_id=game.pk, line="EW", agree=False, note="manca una mano", by_label="Tavolo 2, EW"
    )
    english = next(x for x in _history(client, event, "en") if "manca una mano" in x)
    assert "disputed: manca una mano (table 2, EW)" in english and "Tavolo" not in english
    italian = next(x for x in _history(client, event, "it") if "manca una mano" in x)
    assert "(tavolo 2, EO)" in italian and "EW" not in italian
    # The card's own page too (the desk in Italian now: "Tavolo" is the phone's word).
    card = client.get(
        reverse("burraco-card-correct", args=[event.club.slug, event.pk, game.pk]),
        HTTP_ACCEPT_LANGUAGE="it",
    ).content.decode()
    lines = re.search(r'<ul id="card-history">.*?</ul>', card, re.S).group(0)
    assert "(tavolo 2, EO)" in lines and "Tavolo 2" not in lines


def test_an_individual_tournament_names_players() -> None:
    event = individual_tournament(5)
    tournaments.checkin_all(event=event)
    tournaments.pair_withdraw(pair=pair(event, 2))
    texts = [line.text for line in desk_history(event)]
    assert "player 2 withdrawn after turn 0" in texts
    assert "player 1 entered: Solo 1" in texts


def test_check_ins_one_after_the_other_are_one_line() -> None:
    event = tournament(5)
    referee = make_organiser(event.club, "referee")
    for number in (3, 1, 4):
        tournaments.pair_checkin(pair=pair(event, number), by_user=referee)
    tournaments.pair_withdraw(pair=pair(event, 5), by_user=referee)
    tournaments.pair_checkin(pair=pair(event, 2), by_user=referee)
    texts = [line.text for line in desk_history(event)]
    assert texts[:3] == [
        "pair 2 checked in",
        "pair 5 withdrawn after turn 0",
        "pairs 3, 1, 4 checked in",
    ]
