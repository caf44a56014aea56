"""The entering pair undoes its last hand before the other pair confirmed the card (issue
31, item 4): on the phone that entered it, behind a confirmation step; kept in the card's
history; refused once the card is confirmed or disputed, for a hand with a later one after
it, from another phone, and twice. Through the API, DELETE on the card's hands with the
hand's number, in the API's one error shape."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.burraco import scorecards
from games.burraco.hand_undo import hand_undo
from games.core.errors import EntryError
from games.models import BurracoHand, ScoreCard, ScoreCardRevision
from tests.factories import make_organiser
from tests.games.burraco.phones import phone

pytestmark = pytest.mark.django_db


def _enter(client, table, number: int, ns: int = 300, ew: int = 100) -> None:
    form = {"mode": "mp", "NS-mp": str(ns), "EW-mp": str(ew), "number": str(number)}
    answer = client.post(reverse("burraco-card-hand", args=[table.key]), form)
    assert answer.status_code == 302


def _undo(client, table, number: int, confirm: bool = True):
    form = {"number": str(number), **({"confirm": "1"} if confirm else {})}
    return client.post(reverse("burraco-card-undo", args=[table.key]), form)


def _numbers(table) -> list[int]:
    return list(BurracoHand.objects.filter(game=table.game).values_list("number", flat=True))


def _page(client, table) -> str:
    return client.get(reverse("burraco-card", args=[table.key])).content.decode()


def test_the_entering_phone_undoes_its_last_hand_and_enters_it_again(seated) -> None:
    _event, _rnd, table = seated
    ns, ew = phone(table, "NS"), phone(table, "EW")
    _enter(ns, table, 1)
    _enter(ns, table, 2, 500, -50)
    page = _page(ns, table)
    assert 'id="undo-hand"' in page and "Yes, undo hand 2" in page
    assert 'id="undo-hand"' not in _page(ew, table)
    assert _undo(ns, table, 2).status_code == 302
    assert _numbers(table) == [1]
    card = ScoreCard.objects.get(game=table.game)
    assert (card.ns_total, card.ew_total) == (300, 100)
    revision = ScoreCardRevision.objects.get(
        game=table.game, action=ScoreCardRevision.Action.UNDONE
    )
    assert revision.number == 2
    assert revision.by_label == "Table 1, NS"
    assert revision.before == {
        "number": 2,
        "hand": {"mp": {"NS": 500, "EW": -50}},
        "NS": 500,
        "EW": -50,
    }
    page = _page(ns, table)
    assert "Hand 2 undone: enter it again." in page
    assert 'name="number" value="2"' in page  # the form enters hand 2 again
    _enter(ns, table, 2, 200, 100)
    assert _numbers(table) == [1, 2]


def test_undo_needs_its_confirmation_step(seated) -> None:
    _event, _rnd, table = seated
    ns = phone(table, "NS")
    _enter(ns, table, 1)
    refused = _undo(ns, table, 1, confirm=False)
    assert refused.status_code == 400
    assert "Confirm that the hand should be undone." in refused.content.decode()
    assert _numbers(table) == [1]


def test_only_the_last_hand_and_only_once(seated) -> None:
    _event, _rnd, table = seated
    ns = phone(table, "NS")
    _enter(ns, table, 1)
    _enter(ns, table, 2)
    later = _undo(ns, table, 1)
    assert later.status_code == 409
    assert "Hand 1 cannot be undone: hand 2 is entered after it." in later.content.decode()
    assert _undo(ns, table, 2).status_code == 302
    again = _undo(ns, table, 2)  # a second tap, or a phone showing the older card
    assert again.status_code == 409
    assert "Hand 2 is not on the score card: nothing to undo." in again.content.decode()
    assert _numbers(table) == [1]


def test_another_phone_cannot_undo(seated) -> None:
    _event, _rnd, table = seated
    ns, partner, ew = phone(table, "NS"), phone(table, "NS"), phone(table, "EW")
    _enter(ns, table, 1)
    for other in (partner, ew):
        refused = _undo(other, table, 1)
        assert refused.status_code == 403
        assert "Only the phone that entered hand 1 can undo it" in refused.content.decode()
    assert _numbers(table) == [1]


def test_refused_once_confirmed_or_disputed(seated) -> None:
    _event, _rnd, table = seated
    ns, ew = phone(table, "NS"), phone(table, "EW")
    for number in (1, 2, 3):
        _enter(ns, table, number)
    # All hands in, not confirmed yet: still undoable.
    assert 'id="undo-hand"' in _page(ns, table)
    assert ew.post(reverse("burraco-card-confirm", args=[table.key]), {"agree": "1"})
    assert 'id="undo-hand"' not in _page(ns, table)
    refused = _undo(ns, table, 3)
    assert refused.status_code == 409
    assert "a hand can no longer be undone" in refused.content.decode()
    assert _numbers(table) == [1, 2, 3]
    assert ScoreCard.objects.get(game=table.game).status == ScoreCard.Status.CONFIRMED


def test_undoing_the_last_of_all_hands_reopens_the_card(seated) -> None:
    _event, _rnd, table = seated
    ns, ew = phone(table, "NS"), phone(table, "EW")
    for number in (1, 2, 3):
        _enter(ns, table, number)
    assert ScoreCard.objects.get(game=table.game).status == ScoreCard.Status.ENTERED
    assert _undo(ns, table, 3).status_code == 302
    assert ScoreCard.objects.get(game=table.game).status == ScoreCard.Status.OPEN
    assert 'id="card-confirm"' not in _page(ew, table)


def test_the_service_refuses_a_bad_number(seated) -> None:
    _event, _rnd, table = seated
    scorecards.hand_submit(
        game_id=table.game.pk, hand={"mp": {"NS": 300, "EW": 100}}, line="NS", client="phone:a"
    )
    for number in (0, True, "1", None):
        with pytest.raises(EntryError) as refused:
            hand_undo(game_id=table.game.pk, number=number, client="phone:a")
        assert refused.value.code == "invalid_number"
    hand_undo(game_id=table.game.pk, number=1, client="phone:a")
    assert _numbers(table) == []


def _key(table) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_X_TABLE_KEY=table.key)
    return client


def test_the_api_undoes_the_last_hand_of_its_own_client(seated) -> None:
    event, _rnd, table = seated
    hands = f"/api/v1/games/{table.game.pk}/hands/"
    key = _key(table)
    for number in (1, 2):
        body = {"number": number, "line": "NS", "mp": {"NS": 300, "EW": 100}}
        assert key.post(hands, body, format="json").status_code == 201
    later = key.delete(f"{hands}?number=1")
    assert later.status_code == 409
    assert later.json()["code"] == "later_hand"
    assert later.json()["params"] == {"number": 1, "last": 2}
    done = key.delete(f"{hands}?number=2")
    assert done.status_code == 200, done.json()
    assert [h["number"] for h in done.json()["hands"]] == [1]
    assert done.json()["totals"] == {"NS": 300, "EW": 100}
    revision = ScoreCardRevision.objects.get(action=ScoreCardRevision.Action.UNDONE)
    assert revision.by_label == "table 1"
    # A phone's hand is not the table key's to undo; the referee may undo it.
    ns = phone(table, "NS")
    _enter(ns, table, 2)
    refused = key.delete(f"{hands}?number=2")
    assert refused.status_code == 403
    assert refused.json()["code"] == "undo_by_other_client"
    assert set(refused.json()) >= {"status", "code", "message"}
    referee = APIClient()
    token = Token.objects.create(user=make_organiser(event.club, "referee"))
    referee.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert referee.delete(f"{hands}?number=2").status_code == 200
    assert _numbers(table) == [1]


def test_the_api_says_what_is_wrong_with_the_number(seated) -> None:
    _event, _rnd, table = seated
    hands = f"/api/v1/games/{table.game.pk}/hands/"
    key = _key(table)
    missing = key.delete(hands)
    assert missing.status_code == 400
    assert missing.json()["errors"][0]["field"] == "number"
    assert key.delete(f"{hands}?number=x").status_code == 400
    unknown = key.delete(f"{hands}?number=1&hand=1")
    assert unknown.status_code == 400
    assert unknown.json()["errors"][0]["field"] == "hand"
    nothing = key.delete(f"{hands}?number=1")
    assert nothing.status_code == 409
    assert nothing.json()["code"] == "hand_missing"
    assert APIClient().delete(f"{hands}?number=1").status_code in (401, 403)


def test_the_undo_is_in_the_desks_history_and_the_cards(seated) -> None:
    event, _rnd, table = seated
    ns = phone(table, "NS")
    _enter(ns, table, 1)
    _undo(ns, table, 1)
    referee = Client()
    referee.force_login(make_organiser(event.club, "referee"))
    desk = referee.get(reverse("burraco-desk", args=[event.club.slug, event.pk]))
    history = desk.content.decode().split('id="history"')[1]
    assert "undone at the table (table 1, NS)" in history
    card = referee.get(
        reverse("burraco-card-correct", args=[event.club.slug, event.pk, table.game.pk])
    ).content.decode()
    assert "undone at the table · hand 1 (table 1, NS)" in card
