"""No form loses data in any language: every organiser form, loaded and sent back unchanged
as a browser sends it (tests/browser_form.py), leaves its object as it was."""

from __future__ import annotations

import datetime
import random

import pytest
from django.conf import settings
from django.forms.models import model_to_dict
from django.urls import reverse
from django.utils import timezone, translation

from clubs.models import Club, League, Membership
from games.barbu import evenings
from games.barbu.submission import deal_submit
from games.models import Deal, Event, EventPlayer
from scoring.engine.barbu.randomgame import random_game
from scoring.engine.ranking import parse_ranking
from tests.browser_form import form_data
from tests.factories import make_event, make_game, make_league, make_player

pytestmark = pytest.mark.django_db

LANGUAGES = [code for code, _name in settings.LANGUAGES]


@pytest.fixture
def world(club, organiser):
    league = make_league(
        club,
        "Campionato",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 6, 30),
        ruleset={"preset": "french", "options": {"dealer_rotation": "per_deal"}},
        ranking={"method": "placement", "placement_points": [5, 3, 1, 0]},
    )
    anna = make_player(club, "Anna Rossi")
    Membership.objects.filter(player=anna).update(role=Membership.Role.GUEST)
    event = make_event(
        club,
        league=league,
        name="Serata",
        starts_at=timezone.make_aware(datetime.datetime(2026, 3, 5, 21, 30)),
    )
    evenings.checkin_set(event=event, player_ids=[anna.pk])
    game = make_game(club, event=event)
    record = random_game(random.Random(4), game.ruleset, players=list(game.player_names))
    for deal in record["deals"][:3]:
        deal_submit(game_id=game.pk, deal=deal)
    return {"league": league, "player": anna, "event": event, "game": game}


def _club(club: Club) -> dict:
    club.refresh_from_db()
    return model_to_dict(club)


def _league(league: League) -> dict:
    league.refresh_from_db()
    # The ranking by what it means: saving writes its defaults out.
    return {**model_to_dict(league), "ranking": parse_ranking(league.ranking)}


def _player(player) -> dict:
    player.refresh_from_db()
    role = Membership.objects.get(player=player).role
    return {**model_to_dict(player), "role": role}


def _present(event: Event) -> set[int]:
    return set(
        EventPlayer.objects.filter(event=event, active=True).values_list("player_id", flat=True)
    )


def _deals(game) -> list:
    return list(Deal.objects.filter(game=game).order_by("number").values_list("data", "version"))


def forms(club: Club, w: dict) -> list[tuple[str, str, str, object]]:
    """(name, url name, form id, snapshot) of each organiser form that edits an object."""
    s = club.slug
    deal = Deal.objects.get(game=w["game"], number=2)
    return [
        ("club settings", reverse("club-settings", args=[s]), "settings-form", lambda: _club(club)),
        ("club rules", reverse("club-rules", args=[s]), "rules-form", lambda: _club(club)),
        (
            "player",
            reverse("club-player-edit", args=[s, w["player"].pk]),
            "player-edit-form",
            lambda: _player(w["player"]),
        ),
        (
            "league",
            reverse("club-league-edit", args=[s, w["league"].pk]),
            "league-form",
            lambda: _league(w["league"]),
        ),
        (
            "check-in",
            reverse("event-checkin", args=[s, w["event"].pk]),
            "checkin-form",
            lambda: _present(w["event"]),
        ),
        (
            "deal correction",
            reverse("deal-correct", args=[s, deal.pk]),
            "deal-correct-form",
            lambda: _deals(w["game"]),
        ),
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_organiser_form_sent_back_unchanged_changes_nothing(
    organiser_client, club, world, language
):
    with translation.override(language):
        pages = forms(club, world)
    for name, url, form_id, snapshot in pages:
        before = snapshot()
        page = organiser_client.get(url)
        assert page.status_code == 200, (name, language)
        assert f'<html lang="{language}"' in page.content.decode(), (name, language)
        action, data = form_data(page.content.decode(), form_id)
        answer = organiser_client.post(action or url, data)
        assert answer.status_code == 302, (name, language, answer.content.decode()[:3000])
        assert snapshot() == before, (name, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_league_dates_are_iso_in_the_date_inputs(organiser_client, club, world, language):
    with translation.override(language):
        url = reverse("club-league-edit", args=[club.slug, world["league"].pk])
    html = organiser_client.get(url).content.decode()
    _action, data = form_data(html, "league-form")
    assert data["league-starts_on"] == ["2026-01-01"], language
    assert data["league-ends_on"] == ["2026-06-30"], language


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_new_event_keeps_the_time_shown(organiser_client, club, language):
    with translation.override(language):
        url = reverse("event-create", args=[club.slug])
    _action, data = form_data(organiser_client.get(url).content.decode(), "event-form")
    shown = data["starts_at"][0]
    assert shown, language  # a datetime-local value a browser keeps
    answer = organiser_client.post(url, data)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    event = Event.objects.latest("pk")
    local = timezone.localtime(event.starts_at)
    assert local.strftime("%Y-%m-%dT%H:%M") == shown
