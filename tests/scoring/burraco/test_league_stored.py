"""Burraco leagues as they are stored: one saved with Barbu's "average" before a Burraco
league could no longer be saved that way is counted as what it always was, the sum of VP,
and says so (migration clubs 0003); a league that inherits the club's Burraco rules shows
the club's rules in its form, the values its tournaments will use."""

from __future__ import annotations

import importlib
import re

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse

from clubs import services
from clubs.burraco.league_form import BURRACO_METHOD_LABELS
from clubs.models import League
from tests.factories import make_league, make_organiser
from tests.games.burraco.builders import burraco_club

pytestmark = pytest.mark.django_db


def test_the_migration_maps_a_burraco_leagues_average_to_the_sum_of_vp() -> None:
    club = burraco_club()
    burraco = make_league(
        club, "Campionato", game="burraco", ranking={"method": "average", "best_evenings": 4}
    )
    placement = make_league(club, "Coppa", game="burraco", ranking={"method": "placement"})
    barbu = make_league(club, "Barbu", game="barbu", ranking={"method": "average"})
    empty = make_league(club, "Vuota", game="burraco", ranking={})
    migration = importlib.import_module("clubs.migrations.0003_burraco_league_average_to_total")
    migration.average_to_total(apps, None)
    ranking = {pk: r for pk, r in League.objects.values_list("pk", "ranking")}
    assert ranking[burraco.pk] == {"method": "total", "best_evenings": 4}
    assert ranking[placement.pk] == {"method": "placement"}
    assert ranking[barbu.pk] == {"method": "average"}  # Barbu's average is Barbu's
    assert ranking[empty.pk] == {}
    # The season page's words for it now: the sum of VP, as it was counted.
    assert ranking[burraco.pk]["method"] in BURRACO_METHOD_LABELS


def test_a_league_inheriting_the_clubs_rules_shows_the_clubs_vp_tables() -> None:
    club = burraco_club()
    # The club's own 3-hand table: ten bands of 100 points (FIBUR's has eleven).
    table = [[95, 11], [195, 12], [295, 13], [395, 14], [495, 15]]
    table += [[595, 16], [695, 17], [795, 18], [995, 19], [None, 20]]
    services.club_set_burraco_ruleset(
        club=club, ruleset={"preset": "fibur", "options": {"vp_tables": {"3": table}}}
    )
    league = make_league(club, "Campionato", game="burraco", ranking={"method": "total"})
    assert league.ruleset is None  # the club's rules at each tournament
    make_organiser(club, "referee")
    client = Client()
    client.login(username="referee", password="tavolo-test")
    for url in (
        reverse("club-league-edit", args=[club.slug, league.pk]),
        reverse("club-league-create", args=[club.slug]),
    ):
        page = client.get(url).content.decode()
        # The preset choice still says "the club's rules"; the tables shown are the club's.
        assert _value(page, "rules-vp3_10_vp") == "20", url
        assert _value(page, "rules-vp3_9_to") == "995", url
        assert _value(page, "rules-vp3_1_to") == "95", url
        assert _value(page, "rules-vp3_1_vp") == "11", url
        assert _value(page, "rules-vp3_11_vp") is None, url


def _value(page: str, name: str) -> str | None:
    tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
    assert tag, name
    value = re.search(r'value="([^"]*)"', tag.group(0))
    return value.group(1) if value else None
