"""A league ranks one Burraco format over its season: the VP of its tournaments or the
matches won at its evenings of free matches. An event of the other format is refused,
by the services and on the event form beside the league chosen, in the club's words."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from clubs.models import GameChoice
from games.burraco import free_matches, tournaments
from games.burraco.tournaments import TournamentError
from games.models import Event
from tests.factories import make_league, make_organiser
from tests.games.burraco.builders import burraco_club

pytestmark = [pytest.mark.django_db]


def _tournament(club, league):
    return tournaments.tournament_create(
        club=club, name="Torneo", starts_at=timezone.now(), league=league
    )


def _evening(club, league):
    return free_matches.free_evening_create(
        club=club, name="Serata", starts_at=timezone.now(), league=league
    )


def test_a_league_keeps_to_the_format_of_its_first_event() -> None:
    club = burraco_club()
    vp = make_league(club, "Campionato a VP", game=GameChoice.BURRACO)
    free = make_league(club, "Serate libere", game=GameChoice.BURRACO)
    _tournament(club, vp)
    _evening(club, free)
    # More of the same format: welcome.
    assert _tournament(club, vp).league == vp
    assert _evening(club, free).league == free
    with pytest.raises(TournamentError) as refused:
        _evening(club, vp)
    assert refused.value.code == "league_format"
    assert str(refused.value) == (
        "Campionato a VP ranks tournaments by VP: an evening of free matches needs a league "
        "of its own (or none)."
    )
    with pytest.raises(TournamentError) as refused:
        _tournament(club, free)
    assert refused.value.code == "league_format"
    assert "ranks evenings of free matches by matches won" in str(refused.value)
    assert Event.objects.filter(league=vp).count() == 2
    assert Event.objects.filter(league=free).count() == 2
    # Without a league, either format.
    assert _evening(club, None).league is None and _tournament(club, None).league is None


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            "Campionato a VP ranks tournaments by VP: an evening of free matches needs a "
            "league of its own (or none).",
        ),
        (
            "it",
            "Campionato a VP classifica tornei a VP: una serata di partite libere vuole un "
            "campionato tutto suo (o nessuno).",
        ),
    ],
)
def test_the_event_form_says_it_beside_the_league(language, words) -> None:
    club = burraco_club(language=language)
    league = make_league(club, "Campionato a VP", game=GameChoice.BURRACO)
    _tournament(club, league)
    referee = Client()
    referee.force_login(make_organiser(club, "referee"))
    with translation.override(language):
        url = reverse("event-create", args=[club.slug])
    answer = referee.post(
        url,
        {
            "name": "Serata libera",
            "game": "burraco",
            "burraco_format": "free",
            "target": "2005",
            "league": league.pk,
            "starts_at": "2026-11-24T20:30",
            "planned_rounds": "1",
            "published": "on",
        },
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert answer.status_code == 200
    assert answer.context["form"].errors["league"] == [words]
    assert words.replace("'", "&#x27;") in answer.content.decode()
    assert not Event.objects.filter(name="Serata libera").exists()
