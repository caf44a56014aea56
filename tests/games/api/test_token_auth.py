"""`Authorization: Token <key>`: DRF's token authentication, with the API's one error shape."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_an_organiser_s_token_lets_them_read_their_private_evening(world):
    path = f"/api/v1/games/{world.hidden_game.pk}/"
    assert APIClient().get(path).status_code == 404
    client = APIClient(HTTP_AUTHORIZATION=f"Token {world.tokens['organiser']}")
    assert client.get(path).status_code == 200


def test_unknown_and_inactive_tokens_are_refused_in_the_error_shape():
    user = get_user_model().objects.create_user("bruno", password="x", is_active=False)
    token = Token.objects.create(user=user)
    for key in (token.key, "0" * 40, "nonsense"):
        answer = APIClient(HTTP_AUTHORIZATION=f"Token {key}").post("/api/v1/games/1/deals/", {})
        assert answer.status_code == 401, key
        assert answer.json()["code"] == "authentication_failed"
        assert answer["WWW-Authenticate"] == "Token"


def test_api_views_use_the_project_defaults():
    """The API benchmark's trivial endpoints use the defaults: they must be the API's."""
    from rest_framework.settings import api_settings

    from games.api.views import ApiMixin

    assert ApiMixin.authentication_classes == api_settings.DEFAULT_AUTHENTICATION_CLASSES
    assert ApiMixin.throttle_classes == api_settings.DEFAULT_THROTTLE_CLASSES
