"""Words that agree with the event they describe: a tournament ("torneo", "tournoi") is
masculine where an evening ("serata", "soirée", "velada") is feminine, so its status and
the organiser's messages about it have their own entries (pgettext)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.core import closing
from games.core.event_words import event_words
from games.models import Event
from tests.factories import make_organiser
from tests.games.burraco.builders import tournament
from tests.games.burraco.free_matches.builders import free_evening

pytestmark = pytest.mark.django_db

CLOSED = {
    "it": ("chiuso", "chiusa"),
    "es": ("cerrado", "cerrada"),
    "fr": ("clôturé", "clôturée"),
    "de": ("abgeschlossen", "abgeschlossen"),
}


@pytest.mark.parametrize("language", sorted(CLOSED))
def test_a_closed_tournament_and_a_closed_evening_agree_with_their_noun(language) -> None:
    tournament_event = tournament(4)
    evening = free_evening(2, club=tournament_event.club)
    for event in (tournament_event, evening):
        Event.objects.filter(pk=event.pk).update(status=Event.Status.CLOSED)
        event.refresh_from_db()
    with translation.override(language):
        said = (str(tournament_event.status_label), str(evening.status_label))
    assert said == CLOSED[language]


def test_the_closed_tournaments_desk_says_chiuso_in_italian() -> None:
    event = tournament(4)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.CLOSED)
    client = Client()
    client.force_login(make_organiser(event.club, "referee"))
    with translation.override("it"):
        url = reverse("burraco-desk", args=[event.club.slug, event.pk])
    page = client.get(url).content.decode()
    assert '<span class="badge closed" id="event-status">chiuso</span>' in page


def test_the_organisers_messages_agree_with_the_evening_or_the_tournament() -> None:
    evening = free_evening(2)
    closing.event_close(event=evening, unfinished="exclude")
    with translation.override("it"):
        assert event_words(evening, "created") == "Serata libera creata."
        assert event_words(tournament(4, club=evening.club), "created") == (
            "Torneo del martedì creato."
        )
        assert event_words(evening, "closed").startswith("Serata libera è chiusa")
        assert "è di nuovo aperta" in event_words(evening, "reopened")


def test_a_score_card_is_confermato_and_a_free_match_confermata() -> None:
    from tests.games.burraco.free_matches.builders import MATCH_TO_2005, play_match, start

    evening = free_evening(2)
    game = start(evening, 1, 1, 2)
    play_match(game, MATCH_TO_2005)
    client = Client()
    client.force_login(make_organiser(evening.club, "referee"))
    with translation.override("it"):
        card = reverse("burraco-card", args=[game.table.key])
        desk = reverse("burraco-desk", args=[evening.club.slug, evening.pk])
    # The score card ("il segnapunti") is masculine, the match ("la partita") feminine.
    assert "Segnapunti: confermato" in client.get(card).content.decode()
    assert '<span class="progress badge confirmed">confermata</span>' in (
        client.get(desk).content.decode()
    )
