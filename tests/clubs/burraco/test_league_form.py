"""A Burraco league's form speaks of tournaments and offers what Burraco has: the sum of
VP or placement points, each pair's best N tournaments, the Burraco rules; never Barbu's
evenings, average or table placement points."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs import services
from clubs.models import Club, League
from games.burraco import tournaments
from tests.factories import make_league, make_organiser
from tests.games.burraco.builders import burraco_club

pytestmark = pytest.mark.django_db

# The Barbu words a Burraco league's form must not use, per language.
EVENING = {"en": r"evening", "it": r"serat[ae]"}
TEXTS = {
    "en": ("sum of the VP of each tournament", "Best tournaments", "Rank pairs by"),
    "it": ("somma dei VP di ogni torneo", "Tornei migliori", "Classifica le coppie per"),
}


@pytest.fixture
def referee() -> tuple[Client, Club]:
    club = burraco_club()
    make_organiser(club, "referee")
    client = Client()
    client.login(username="referee", password="tavolo-test")
    return client, club


def _form(page: str) -> str:
    match = re.search(r'<form[^>]*id="league-form".*?</form>', page, re.S)
    assert match
    return match.group(0)


def _options(form: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}".*?</select>', form, re.S)
    assert select, name
    return re.findall(r'<option value="([^"]*)"', select.group(0))


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_burraco_leagues_form_speaks_of_tournaments(referee, language: str) -> None:
    client, club = referee
    league = make_league(club, "Campionato", game="burraco", ranking={"method": "placement"})
    for url in (
        reverse("club-league-create", args=[club.slug]),
        reverse("club-league-edit", args=[club.slug, league.pk]),
    ):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert page.status_code == 200
        form = _form(page.content.decode())
        assert _options(form, "ranking-method") == ["total", "placement"]
        assert not re.search(EVENING[language], form, re.I), url
        for text in TEXTS[language]:
            assert text in form, (language, text)
        # Barbu's table placement, minimum games and tie-breaks are not asked.
        for barbu in ("ranking-placement_points", "ranking-min_games", "ranking-tiebreaks"):
            assert f'name="{barbu}"' not in form
        # The rules are Burraco's: its presets and VP tables, not Barbu's contracts.
        assert "fibur" in _options(form, "rules-preset")
        assert 'id="vp-table-3"' in form and 'name="rules-contracts"' not in form


def test_a_burraco_league_is_saved_with_its_ranking_and_rules(referee) -> None:
    client, club = referee
    data = {
        "league-name": "Campionato",
        "league-season": "2026",
        "league-game": "burraco",
        "league-published": "on",
        "rules-preset": "fibur",
        "rules-bonus_close": "150",
        "ranking-method": "placement",
        "ranking-season_points": "10,6,3",
        "ranking-best_tournaments": "2",
    }
    answer = client.post(reverse("club-league-create", args=[club.slug]), data)
    assert answer.status_code == 302, answer.content.decode()[:3000]
    league = League.objects.get(club=club)
    assert league.ranking == {
        "method": "placement",
        "season_points": [10, 6, 3],
        "best_evenings": 2,
    }
    assert league.ruleset == {"preset": "fibur", "options": {"bonus": {"close": 150}}}
    # Its tournaments play those rules.
    event = tournaments.tournament_create(
        club=club, name="Martedì", starts_at=timezone.now(), league=league
    )
    assert event.ruleset["options"]["bonus"]["close"] == 150
    # The list of leagues names the method in tournament words.
    leagues = client.get(reverse("club-leagues", args=[club.slug])).content.decode()
    assert "points for the place in each tournament" in leagues
    # Sent back unchanged, the form changes nothing.
    edit = reverse("club-league-edit", args=[club.slug, league.pk])
    page = client.get(edit).content.decode()
    assert 'value="10,6,3"' in page and 'name="ranking-best_tournaments" value="2"' in page
    again = {**data, "rules-bonus_close": "150"}
    assert client.post(edit, again).status_code == 302
    league.refresh_from_db()
    assert league.ranking["best_evenings"] == 2
    assert league.ruleset == {"preset": "fibur", "options": {"bonus": {"close": 150}}}


def test_the_clubs_rules_are_kept_when_no_preset_is_chosen(referee) -> None:
    client, club = referee
    data = {
        "league-name": "Campionato",
        "league-game": "burraco",
        "rules-preset": "",
        "ranking-method": "total",
    }
    assert client.post(reverse("club-league-create", args=[club.slug]), data).status_code == 302
    league = League.objects.get(club=club)
    assert league.ruleset is None and league.ranking == {"method": "total", "best_evenings": None}


@pytest.mark.parametrize(
    ("language", "expected"), [("en", "Select a valid choice"), ("it", "Scegli un'opzione valida")]
)
def test_barbus_average_is_refused_for_a_burraco_league(referee, language, expected) -> None:
    client, club = referee
    data = {"league-name": "Campionato", "league-game": "burraco", "ranking-method": "average"}
    answer = client.post(
        reverse("club-league-create", args=[club.slug]), data, HTTP_ACCEPT_LANGUAGE=language
    )
    assert answer.status_code == 200 and not League.objects.exists()
    assert expected in answer.content.decode().replace("&#x27;", "'")


def test_the_service_refuses_a_method_burraco_does_not_have() -> None:
    club = burraco_club()
    league = League(club=club, name="Campionato", game="burraco", ranking={"method": "average"})
    with pytest.raises(services.ClubError) as error:
        services.league_save(league=league)
    assert error.value.code == "invalid_ranking"
    assert "sum of their VP or by placement points, not by average" in error.value.message
    # Nor Barbu's rules for a Burraco league.
    league.ranking = {"method": "total"}
    league.ruleset = {"preset": "french", "options": {}}
    with pytest.raises(services.ClubError) as error:
        services.league_save(league=league)
    assert error.value.code == "invalid_ruleset"
    assert not League.objects.exists()


def test_a_barbu_league_keeps_barbus_form(referee) -> None:
    client, club = referee
    club.game = Club.Games.BOTH
    club.save()
    league = make_league(club, "Winter", game="barbu")
    form = _form(
        client.get(reverse("club-league-edit", args=[club.slug, league.pk])).content.decode()
    )
    assert _options(form, "ranking-method") == ["total", "placement", "average"]
    assert 'name="ranking-tiebreaks"' in form and 'id="vp-table-3"' not in form


def test_a_new_league_of_a_burraco_club_plays_burraco_unless_told(referee) -> None:
    """The club's game is its default for a new league: the form shows Burraco chosen
    (it showed Barbu, the model's default), with the Burraco ranking methods."""
    client, club = referee
    assert club.default_game == "burraco"
    page = client.get(reverse("club-league-create", args=[club.slug]))
    form = _form(page.content.decode())
    chosen = re.search(r'<select name="league-game".*?</select>', form, re.S)
    if chosen is not None:  # a club playing one game may not be asked
        assert re.search(r'<option value="burraco"[^>]*selected', chosen.group(0))
    assert "average" not in _options(form, "ranking-method")
