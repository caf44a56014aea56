"""Burraco leagues as they are stored: one saved with Barbu's "average" before a Burraco
league could no longer be saved that way is counted as what it always was, the sum of VP,
and says so (migration clubs 0003)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from clubs.burraco_league_form import BURRACO_METHOD_LABELS
from clubs.models import League
from tests.factories import make_league
from tests.tournaments.builders import burraco_club

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
