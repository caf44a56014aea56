"""Failed logins are limited per account and per address on every way in (log-in page,
admin, API token), with the time to wait; X-Forwarded-For is believed only as configured."""

from __future__ import annotations

import logging
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from clubs import login_limits

pytestmark = pytest.mark.django_db

PASSWORD = "right-horse-battery"


@pytest.fixture(autouse=True)
def _limits(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.LOGIN_FAILURES_PER_ACCOUNT = 5
    settings.LOGIN_FAILURES_PER_ADDRESS = 12
    settings.LOGIN_LOCKOUT_SECONDS = 900
    settings.NUM_PROXIES = 0  # the default (REST_FRAMEWORK["NUM_PROXIES"] left as configured)


def _address() -> str:
    """An address of this test's own: counts live in the cache (Redis in CI), which
    outlives the test."""
    part = uuid.uuid4().int
    return f"10.{part % 250}.{part // 250 % 250}.{part // 62500 % 250 + 1}"


@pytest.fixture
def user():
    name = f"anna-{uuid.uuid4().hex[:8]}"
    return get_user_model().objects.create_user(name, password=PASSWORD, is_staff=True)


def _page_login(client: Client, path: str, username: str, password: str, **headers):
    return client.post(path, {"username": username, "password": password}, **headers)


@pytest.mark.parametrize("path", ["/accounts/login/", "/admin/login/"])
def test_the_login_pages_lock_an_account_after_five_wrong_passwords(path, user):
    client = Client(REMOTE_ADDR=_address())
    for _ in range(4):
        page = _page_login(client, path, user.username, "wrong")
        assert page.status_code == 200 and "_auth_user_id" not in client.session
    page = _page_login(client, path, user.username, "wrong")
    assert "Try again in 15 minutes" in page.content.decode()
    # Locked: even the right password, and from another address, is refused.
    for other in (client, Client(REMOTE_ADDR=_address())):
        page = _page_login(other, path, user.username, PASSWORD)
        assert page.status_code == 200, "logged in while locked"
        assert "Too many failed log-in attempts. Try again in 15 minutes." in page.content.decode()
        assert "_auth_user_id" not in other.session


def test_the_message_is_in_the_visitors_language(user):
    client = Client(REMOTE_ADDR=_address())
    for _ in range(5):
        _page_login(client, "/accounts/login/", user.username, "wrong")
    page = _page_login(
        client, "/accounts/login/", user.username, PASSWORD, HTTP_ACCEPT_LANGUAGE="it"
    )
    assert "Riprova tra 15 minuti" in page.content.decode()


def test_a_right_password_before_the_limit_starts_the_account_count_again(user):
    client = Client(REMOTE_ADDR=_address())
    for _ in range(4):
        _page_login(client, "/accounts/login/", user.username, "wrong")
    assert _page_login(client, "/accounts/login/", user.username, PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        assert _page_login(client, "/accounts/login/", user.username, "wrong").status_code == 200
    assert _page_login(client, "/accounts/login/", user.username, PASSWORD).status_code == 302


def test_one_address_trying_many_accounts_is_locked():
    client = Client(REMOTE_ADDR=_address())
    for i in range(12):
        _page_login(client, "/accounts/login/", f"guess-{uuid.uuid4().hex}-{i}", "wrong")
    page = _page_login(client, "/admin/login/", f"another-{uuid.uuid4().hex}", "wrong")
    assert "Try again in 15 minutes" in page.content.decode()
    # another address is not locked
    other = _page_login(Client(REMOTE_ADDR=_address()), "/accounts/login/", "x", "y")
    assert "Try again" not in other.content.decode()


def _token(client: APIClient, username: str, password: str, **headers):
    return client.post(
        "/api/v1/auth/token/",
        {"username": username, "password": password},
        format="json",
        **headers,
    )


def test_the_token_endpoint_locks_the_account_with_the_api_error_shape(user, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "1000/min", "writes": "1000/min"},
    }
    client = APIClient(REMOTE_ADDR=_address())
    codes = [_token(client, user.username, "wrong").status_code for _ in range(4)]
    assert codes == [400] * 4
    locked = _token(client, user.username, "wrong")
    assert locked.status_code == 429
    right = _token(APIClient(REMOTE_ADDR=_address()), user.username, PASSWORD)
    assert right.status_code == 429
    body = right.json()
    assert body["code"] == "locked_out"
    assert body["message"] == "Too many failed log-in attempts. Try again in 15 minutes."
    assert 890 <= body["params"]["wait"] <= 900
    assert 890 <= int(right["Retry-After"]) <= 900
    italian = _token(client, user.username, PASSWORD, HTTP_ACCEPT_LANGUAGE="it")
    assert "Riprova tra 15 minuti" in italian.json()["message"]


def test_a_forged_x_forwarded_for_does_not_dodge_the_token_throttle(user, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "3/min", "writes": "1000/min"},
    }
    client = APIClient(REMOTE_ADDR=_address())
    codes = [
        _token(client, f"x{i}", "y", HTTP_X_FORWARDED_FOR=_address()).status_code for i in range(4)
    ]
    assert codes == [400, 400, 400, 429]


def test_behind_a_configured_proxy_the_address_it_saw_is_the_clients(user, settings):
    """NUM_PROXIES=1: the proxy appends the address it saw; what a client wrote before it
    is ignored, and two clients behind the one proxy are counted apart."""
    settings.NUM_PROXIES = 1
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "NUM_PROXIES": 1,
        "DEFAULT_THROTTLE_RATES": {"auth": "3/min", "writes": "1000/min"},
    }
    proxy = _address()
    first, second = _address(), _address()
    client = APIClient(REMOTE_ADDR=proxy)
    codes = [
        _token(client, f"x{i}", "y", HTTP_X_FORWARDED_FOR=f"{_address()}, {first}").status_code
        for i in range(4)
    ]
    assert codes == [400, 400, 400, 429]
    other = _token(client, "x", "y", HTTP_X_FORWARDED_FOR=second)
    assert other.status_code == 400


def test_client_address_takes_only_the_trusted_proxies_word(rf, settings):
    request = rf.get("/", REMOTE_ADDR="172.18.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9")
    settings.NUM_PROXIES = 0
    assert login_limits.client_address(request) == "172.18.0.1"
    settings.NUM_PROXIES = 1
    assert login_limits.client_address(request) == "203.0.113.9"
    settings.NUM_PROXIES = 2
    assert login_limits.client_address(request) == "6.6.6.6"
    settings.NUM_PROXIES = 5  # fewer addresses than proxies: the farthest one
    assert login_limits.client_address(request) == "6.6.6.6"
    settings.NUM_PROXIES = 1
    assert login_limits.client_address(rf.get("/", REMOTE_ADDR="1.2.3.4")) == "1.2.3.4"


def test_the_limits_fail_open_without_a_cache(user, monkeypatch, caplog):
    """The cache (Redis) down: logins go on, and the log says the limits are off."""

    def down(*args, **kwargs):
        raise ConnectionError("Connection refused")

    from django.core.cache import cache

    for name in ("get_many", "add", "incr", "set", "delete"):
        monkeypatch.setattr(cache, name, down)
    client = Client(REMOTE_ADDR=_address())
    with caplog.at_level(logging.WARNING, logger="clubs.login_limits"):
        assert _page_login(client, "/accounts/login/", user.username, "wrong").status_code == 200
        assert _page_login(client, "/accounts/login/", user.username, PASSWORD).status_code == 302
    assert "login limits unavailable" in caplog.text
