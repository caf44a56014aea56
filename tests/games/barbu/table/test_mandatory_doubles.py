"""Mandatory doubles never strand a table: page, API and the command listing stored games."""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from games.barbu.submission import deal_submit
from games.models import Deal, DealRevision, Game
from tests.factories import NAMES, make_game, make_organiser
from tests.games.barbu.deal_forms import form_data
from tests.games.barbu.table.pages import anna_without_doubles, entry_url

pytestmark = pytest.mark.django_db


def store(game: Game, deals: list[dict]) -> None:
    for deal in deals:
        deal_submit(game_id=game.pk, deal=deal)


def all_double_anna(deal: dict) -> dict:
    doubles = [{"by": by, "against": "Anna"} for by in ("Bruno", "Carla", "Dario")]
    return {**deal, "doubles": doubles}


def test_the_page_requires_the_doubles_of_the_last_chance(client, game):
    deals = anna_without_doubles()
    store(game, deals[:5])
    page = client.get(entry_url(game)).content.decode()
    # Deal 6: each must double Anna now, or deal 7 could never be saved.
    for seat, by in enumerate(("Bruno", "Carla", "Dario"), start=1):
        # Each line names its double: the script hides it once the double is ticked.
        assert f'<li data-pair="{seat}-0">{by} must double Anna in this deal.</li>' in page
    script = re.search(r'id="deal-form-data" type="application/json">(.*?)</script>', page)
    assert script, "the form's data for the live checks"
    must = json.loads(script.group(1))["must"]
    assert [m["pair"] for m in must] == ["1-0", "2-0", "3-0"]

    # Sent without them (no script, or a hand-made post): refused, nothing stored.
    answer = client.post(entry_url(game, "table-deal"), form_data({**deals[5]}, NAMES, 6))
    assert answer.status_code == 400
    html = answer.content.decode()
    assert "Bruno must double Anna in this deal: otherwise Bruno can no longer double Anna" in html
    assert Deal.objects.filter(game=game).count() == 5
    assert DealRevision.objects.filter(game=game).count() == 5

    # With them: saved, and deal 7 can still be saved too.
    sixth = all_double_anna(deals[5])
    answer = client.post(entry_url(game, "table-deal"), form_data(sixth, NAMES, 6))
    assert answer.status_code == 302
    seventh = all_double_anna(deals[6])
    answer = client.post(entry_url(game, "table-deal"), form_data(seventh, NAMES, 7))
    assert answer.status_code == 302
    assert Deal.objects.filter(game=game).count() == 7


def test_the_page_says_it_in_italian(client, game):
    deals = anna_without_doubles()
    store(game, deals[:5])
    url = "/it" + entry_url(game, "table-deal")
    answer = client.post(url, form_data(deals[5], NAMES, 6))
    assert answer.status_code == 400
    assert "Bruno deve contrare Anna in questa smazzata" in answer.content.decode()


def test_the_api_answers_400_with_the_code(game):
    deals = anna_without_doubles()
    store(game, deals[:5])
    api = APIClient()
    api.credentials(HTTP_X_TABLE_KEY=game.table.key)
    url = f"/api/v1/games/{game.pk}/deals/"
    answer = api.post(url, {**deals[5], "number": 6}, format="json")
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "deal_rejected"
    assert [(p["deal"], p["code"], p["params"]["by"]) for p in body["errors"]] == [
        (6, "mandatory_double_now", by) for by in ("Bruno", "Carla", "Dario")
    ]
    assert body["errors"][0]["params"] == {
        "by": "Bruno",
        "dealer": "Anna",
        "count": 0,
        "required": 2,
        "deals_left": 1,
    }
    assert Deal.objects.filter(game=game).count() == 5
    answer = api.post(url, {**all_double_anna(deals[5]), "number": 6}, format="json")
    assert answer.status_code == 201, answer.json()


def test_the_api_refuses_a_correction_that_strands_the_table(game):
    deals = anna_without_doubles()
    deals[4] = all_double_anna(deals[4])
    sixth = all_double_anna(deals[5])
    deals[5] = {**sixth, "doubles": [d for d in sixth["doubles"] if d["by"] != "Bruno"]}
    store(game, deals[:6])
    # Bruno doubled Anna in deal 5 only: without it, deal 6 was his last chance for two.
    fifth = Deal.objects.get(game=game, number=5)
    changed = {**fifth.data, "doubles": [d for d in fifth.data["doubles"] if d["by"] != "Bruno"]}
    api = APIClient()
    api.force_authenticate(make_organiser(game.table.round.event.club, "boss"))
    answer = api.put(
        f"/api/v1/games/{game.pk}/deals/5/", changed, format="json", HTTP_IF_MATCH='"1"'
    )
    assert answer.status_code == 400
    assert [(p["deal"], p["code"], p["params"]["by"]) for p in answer.json()["errors"]] == [
        (6, "mandatory_double_now", "Bruno")
    ]
    fifth.refresh_from_db()
    assert fifth.version == 1


def _strand(game: Game, deals: list[dict]) -> Deal:
    """Store five deals, then a sixth the rules refuse today (as the old engine allowed)."""
    store(game, deals[:5])
    fifth = Deal.objects.get(game=game, number=5)
    # Written straight to the table, as the engine before the rule let it through.
    stranded = Deal.objects.create(
        game=game,
        number=6,
        dealer=fifth.dealer,
        contract=deals[5]["contract"],
        data={**deals[5], "doubles": []},
        scores=fifth.scores,
    )
    Game.objects.filter(pk=game.pk).update(deals_count=6)
    return stranded


def test_the_command_lists_stored_games_a_table_cannot_finish(game, club):
    fine = Game.objects.get(pk=game.pk)
    deals = anna_without_doubles()
    other = make_game(club, names=NAMES)
    store(fine, deals[:5])
    stranded = _strand(other, deals)
    out = StringIO()
    call_command("stranded_games", stdout=out)
    text = out.getvalue()
    assert f"game {other.pk}:" in text
    assert f"game {fine.pk}:" not in text
    assert "deal 6: Bruno must double Anna in this deal" in text
    assert f"/deals/{stranded.pk}/correct/" in text
    assert "1 game to correct" in text
    out = StringIO()
    call_command("stranded_games", "--event", str(fine.table.round.event_id + 999), stdout=out)
    assert "no stored game breaks the rules" in out.getvalue()
