"""API errors speak the language of the request's Accept-Language."""

from __future__ import annotations

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from tests.factories import make_game

pytestmark = pytest.mark.django_db


def test_a_not_found_error_follows_accept_language() -> None:
    client = APIClient()
    english = client.get("/api/v1/games/999999/").json()
    german = client.get("/api/v1/games/999999/", HTTP_ACCEPT_LANGUAGE="de").json()
    assert german["code"] == english["code"]
    assert german["message"] != english["message"]
    french = client.get("/api/v1/games/999999/", HTTP_ACCEPT_LANGUAGE="fr-CH, fr;q=0.9").json()
    assert french["message"] not in (english["message"], german["message"])


def test_accept_language_beats_the_language_cookie_on_the_api() -> None:
    client = APIClient()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    response = client.get("/api/v1/games/999999/", HTTP_ACCEPT_LANGUAGE="de")
    assert response["Content-Language"] == "de"
    # Without Accept-Language the visitor's cookie is used.
    assert client.get("/api/v1/games/999999/")["Content-Language"] == "fr"


def _bad_deal(language: str) -> dict:
    game = make_game()
    client = APIClient()
    client.credentials(HTTP_X_TABLE_KEY=game.table.key)
    deal = {
        "number": 1,
        "dealer": game.player_names[0],
        "contract": "no_tricks",
        "result": {"tricks": dict.fromkeys(game.player_names, 3)},
    }
    response = client.post(
        f"/api/v1/games/{game.pk}/deals/", deal, format="json", HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 400
    return response.json()


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("it", "le prese sommano a 12, non a 13"),
        ("es", "las bazas suman 12, no 13"),
        ("de", "die Stiche ergeben zusammen 12, nicht 13"),
        ("fr", "les plis font 12 au total, pas 13"),
        ("en", "tricks add up to 12, not 13"),
    ],
)
def test_engine_problems_are_translated_in_api_errors(language: str, message: str) -> None:
    """Needs games/api/errors.py to pass engine problems through clubs.engine_words."""
    body = _bad_deal(language)
    (problem,) = [e for e in body["errors"] if e["code"] == "tricks_total"]
    assert problem["params"] == {"total": 12}
    assert problem["message"] == message
