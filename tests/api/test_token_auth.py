"""games/api/authentication.py: the token and its user in one plain query, same answers."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework import exceptions
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.api.authentication import TokenAuthentication

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("superuser", [False, True])
def test_the_user_is_the_orm_user_in_one_query(superuser):
    User = get_user_model()
    user = User.objects.create_user("anna", password="x", is_staff=superuser)
    User.objects.filter(pk=user.pk).update(is_superuser=superuser)
    token = Token.objects.create(user=user)
    with CaptureQueriesContext(connection) as queries:
        found, auth = TokenAuthentication().authenticate_credentials(token.key)
    assert len(queries) == 1
    assert (found.pk, found.username, found.is_active, found.is_staff, found.is_superuser) == (
        user.pk,
        "anna",
        True,
        superuser,
        superuser,
    )
    assert found.is_authenticated and found == user
    assert auth.key == token.key and auth.user_id == user.pk
    # other fields load on first use, as with a deferred queryset
    assert found.date_joined == User.objects.get(pk=user.pk).date_joined


def test_unknown_and_inactive_tokens_get_drf_answers():
    User = get_user_model()
    user = User.objects.create_user("bruno", password="x", is_active=False)
    token = Token.objects.create(user=user)
    with pytest.raises(exceptions.AuthenticationFailed, match=r"User inactive or deleted\."):
        TokenAuthentication().authenticate_credentials(token.key)
    with pytest.raises(exceptions.AuthenticationFailed, match=r"Invalid token\."):
        TokenAuthentication().authenticate_credentials("0" * 40)
    answer = APIClient(HTTP_AUTHORIZATION="Token nonsense").post("/api/v1/games/1/deals/", {})
    assert answer.status_code == 401 and answer.json()["code"] == "authentication_failed"


def test_api_views_use_the_project_defaults():
    """The API benchmark's trivial endpoints use the defaults: they must be the API's."""
    from rest_framework.settings import api_settings

    from games.api.views import ApiMixin

    assert ApiMixin.authentication_classes == api_settings.DEFAULT_AUTHENTICATION_CLASSES
    assert ApiMixin.throttle_classes == api_settings.DEFAULT_THROTTLE_CLASSES
