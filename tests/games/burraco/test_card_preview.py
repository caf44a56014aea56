"""The preview of the hand being typed (issue 31, item 4): the score card's preview URL
answers the hand's MP as the engine scores the form's data, with both lines' totals
after it, and stores nothing; bad input gets the same words the save would."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import BurracoHand, ScoreCard
from scoring.engine import burraco
from tests.games.burraco.phones import phone

pytestmark = pytest.mark.django_db

CARDS = {
    "mode": "cards",
    "closed": "EW",
    "NS-melded-high": "9",
    "NS-in_hand": "25",
    "EW-melded-aces": "3",
    "EW-melded-high": "8",
    "EW-melded-low": "7",
    "EW-melded-twos": "1",
    "EW-dirty": "1",
    "EW-in_hand": "0",
    "EW-pozzetto": "on",
}


def _preview(client, table, form: dict) -> dict:
    answer = client.post(reverse("burraco-card-preview", args=[table.key]), form)
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/json"
    return answer.json()


def test_the_preview_is_the_engines_score_and_stores_nothing(seated) -> None:
    _event, _rnd, table = seated
    ns = phone(table, "NS")
    url = reverse("burraco-card-hand", args=[table.key])
    ns.post(url, {"mode": "mp", "NS-mp": "300", "EW-mp": "100", "number": "1"})
    version = ScoreCard.objects.get(game=table.game).version
    shown = _preview(ns, table, {**CARDS, "number": "2"})
    expected = burraco.calculate_hand(
        "EW",
        {
            "melded": {"jokers": 0, "twos": 0, "aces": 0, "high": 9, "low": 0},
            "in_hand": 25,
            "pozzetto": False,
        },
        {
            "melded": {"jokers": 0, "twos": 1, "aces": 3, "high": 8, "low": 7},
            "in_hand": 0,
            "pozzetto": True,
            "dirty": 1,
        },
        table.game.ruleset,
        2,
    ).score
    assert shown["ok"] is True and shown["number"] == 2
    assert shown["NS"] == expected["NS"] and shown["EW"] == expected["EW"]
    assert shown["totals"] == {
        "NS": 300 + expected["NS"]["score"],
        "EW": 100 + expected["EW"]["score"],
    }
    assert shown["words"][0] == (
        f"Hand 2: NS {expected['NS']['score']}, EW {expected['EW']['score']}"
    )
    assert shown["words"][-1] == (
        f"Totals with it: NS {shown['totals']['NS']}, EW {shown['totals']['EW']}"
    )
    assert (
        f"EW: cards {expected['EW']['cards']}, bonus {expected['EW']['bonus']}"
        in (shown["words"][2])
    )
    # Nothing stored, the card unchanged: the hand is saved only by "Save the hand".
    assert BurracoHand.objects.filter(game=table.game).count() == 1
    assert ScoreCard.objects.get(game=table.game).version == version
    # And the hand saved is the hand previewed.
    ns.post(url, {**CARDS, "number": "2"})
    stored = BurracoHand.objects.get(game=table.game, number=2)
    assert (stored.ns_mp, stored.ew_mp) == (shown["NS"]["score"], shown["EW"]["score"])


def test_points_entered_are_previewed_with_the_totals(seated) -> None:
    _event, _rnd, table = seated
    shown = _preview(phone(table, "NS"), table, {"mode": "mp", "NS-mp": "450", "EW-mp": "-30"})
    assert shown["ok"] is True
    assert shown["totals"] == {"NS": 450, "EW": -30}
    assert shown["words"] == ["Hand 1: NS 450, EW -30", "Totals with it: NS 450, EW -30"]


def test_bad_input_is_previewed_with_the_words_the_save_would_say(seated) -> None:
    _event, _rnd, table = seated
    ns = phone(table, "NS")
    shown = _preview(ns, table, {"mode": "mp", "NS-mp": "301", "EW-mp": "100"})
    assert shown["ok"] is False
    assert shown["problems"] == ["NS: 301 is not a multiple of 5, as every Burraco score is."]
    closed = _preview(ns, table, {**CARDS, "EW-pozzetto": ""})
    assert closed["ok"] is False
    assert any("pozzetto" in words for words in closed["problems"]), closed
    typo = _preview(ns, table, {"mode": "mp", "NS-mp": "abc", "EW-mp": "100"})
    assert typo["problems"] == ["MP of North-South should be a whole number, not abc."]


def test_the_preview_speaks_the_phones_language(seated) -> None:
    _event, _rnd, table = seated
    ns = phone(table, "NS")
    answer = ns.post(
        reverse("burraco-card-preview", args=[table.key]),
        {"mode": "mp", "NS-mp": "300", "EW-mp": "100"},
        HTTP_ACCEPT_LANGUAGE="it",
    ).json()
    assert answer["words"][0] == "Smazzata 1: NS 300, EO 100"


def test_the_preview_is_a_post_and_a_wrong_key_is_refused(seated) -> None:
    _event, _rnd, table = seated
    ns = phone(table, "NS")
    url = reverse("burraco-card-preview", args=[table.key])
    assert ns.get(url).status_code == 405
    wrong = reverse("burraco-card-preview", args=["nosuchkey"])
    assert ns.post(wrong, {"mode": "mp"}).status_code == 404
