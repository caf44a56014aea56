"""A pair never confirms its own card (issue 31, item 3). The line a phone chose is bound
once it is the entering line: "Change line" cannot make the entering phone the confirming
one. The service refuses a confirmation from the client that entered the card's hands (a
phone, or a table key through the API) unless an organiser sends it, and the card's
history names the line that really confirmed."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.burraco import scorecards
from games.core.errors import EntryError
from games.models import ScoreCard, ScoreCardRevision
from tests.factories import make_organiser
from tests.games.burraco.phones import phone

pytestmark = pytest.mark.django_db

MP = {"mode": "mp", "NS-mp": "300", "EW-mp": "100"}


def _enter_all(client, table) -> None:
    url = reverse("burraco-card-hand", args=[table.key])
    for number in (1, 2, 3):
        assert client.post(url, {**MP, "number": str(number)}).status_code == 302


def _status(table) -> str:
    return ScoreCard.objects.get(game=table.game).status


def test_the_entering_phone_cannot_change_line_and_confirm(seated) -> None:
    _event, _rnd, table = seated
    ns = phone(table, "NS")
    _enter_all(ns, table)
    page = ns.get(reverse("burraco-card", args=[table.key])).content.decode()
    assert "Change line" not in page
    moved = ns.post(reverse("burraco-card-line", args=[table.key]), {"line": "EW"})
    assert moved.status_code == 409
    assert "stays North-South" in moved.content.decode()
    cleared = ns.post(reverse("burraco-card-line", args=[table.key]), {"line": ""})
    assert cleared.status_code == 409
    confirm = ns.post(reverse("burraco-card-confirm", args=[table.key]), {"agree": "1"})
    assert confirm.status_code == 400
    assert _status(table) == ScoreCard.Status.ENTERED
    assert not ScoreCardRevision.objects.filter(
        game=table.game, action=ScoreCardRevision.Action.CONFIRMED
    ).exists()


def test_a_second_phone_of_the_entering_line_cannot_switch_either(seated) -> None:
    _event, _rnd, table = seated
    ns, partner = phone(table, "NS"), phone(table, "NS")
    _enter_all(ns, table)
    assert (
        partner.post(reverse("burraco-card-line", args=[table.key]), {"line": "EW"}).status_code
        == 409
    )
    confirm = partner.post(reverse("burraco-card-confirm", args=[table.key]), {"agree": "1"})
    assert confirm.status_code == 400
    assert _status(table) == ScoreCard.Status.ENTERED


def test_a_phone_not_bound_yet_may_change_its_line(seated) -> None:
    _event, _rnd, table = seated
    wrong = phone(table, "NS")
    assert (
        wrong.post(reverse("burraco-card-line", args=[table.key]), {"line": "EW"}).status_code
        == 302
    )


def test_the_other_pairs_phone_confirms_and_the_history_names_it(seated) -> None:
    _event, _rnd, table = seated
    ns, ew = phone(table, "NS"), phone(table, "EW")
    _enter_all(ns, table)
    assert ew.post(reverse("burraco-card-confirm", args=[table.key]), {"agree": "1"}).status_code
    assert _status(table) == ScoreCard.Status.CONFIRMED
    revision = ScoreCardRevision.objects.get(
        game=table.game, action=ScoreCardRevision.Action.CONFIRMED
    )
    assert revision.by_label == "Table 1, EW"


def test_the_service_refuses_the_client_that_entered(seated) -> None:
    _event, _rnd, table = seated
    for _ in range(3):
        scorecards.hand_submit(
            game_id=table.game.pk, hand={"mp": {"NS": 300, "EW": 100}}, line="NS", client="phone:a"
        )
    with pytest.raises(EntryError) as refused:
        scorecards.card_confirm(game_id=table.game.pk, line="EW", agree=True, client="phone:a")
    assert refused.value.code == "confirm_by_entering_client"
    scorecards.card_confirm(game_id=table.game.pk, line="EW", agree=True, client="phone:b")
    assert _status(table) == ScoreCard.Status.CONFIRMED


def test_through_the_api_one_table_key_cannot_enter_and_confirm(seated) -> None:
    event, _rnd, table = seated
    key = APIClient()
    key.credentials(HTTP_X_TABLE_KEY=table.key)
    hands = f"/api/v1/games/{table.game.pk}/hands/"
    for number in (1, 2, 3):
        body = {"number": number, "line": "NS", "mp": {"NS": 300, "EW": 100}}
        assert key.post(hands, body, format="json").status_code == 201
    confirm = f"/api/v1/games/{table.game.pk}/card/confirm/"
    refused = key.post(confirm, {"line": "EW", "agree": True}, format="json")
    assert refused.status_code == 403, refused.json()
    assert refused.json()["code"] == "confirm_by_entering_client"
    assert _status(table) == ScoreCard.Status.ENTERED
    # The other pair's phone confirms on the score card page, or the referee does here.
    referee = APIClient()
    token = Token.objects.create(user=make_organiser(event.club, "referee"))
    referee.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    done = referee.post(confirm, {"line": "EW", "agree": True}, format="json")
    assert done.status_code == 200 and done.json()["status"] == "confirmed"


def test_a_hand_entered_through_the_api_is_confirmed_on_the_other_pairs_phone(seated) -> None:
    _event, _rnd, table = seated
    key = APIClient()
    key.credentials(HTTP_X_TABLE_KEY=table.key)
    for number in (1, 2, 3):
        body = {"number": number, "line": "NS", "mp": {"NS": 300, "EW": 100}}
        key.post(f"/api/v1/games/{table.game.pk}/hands/", body, format="json")
    ew = phone(table, "EW")
    assert ew.post(reverse("burraco-card-confirm", args=[table.key]), {"agree": "1"}).status_code
    assert _status(table) == ScoreCard.Status.CONFIRMED
