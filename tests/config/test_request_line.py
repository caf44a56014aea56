"""config/request_line.py: a request line over REQUEST_LINE_LIMIT is a 414, in the API's
JSON error shape under /api/ (gunicorn itself: tests/config/test_gunicorn.py)."""

from __future__ import annotations

import pytest
from django.conf import settings


def _target(path: str, length: int) -> str:
    """A path with a query making a request line "GET <target> HTTP/1.1" of `length`."""
    padding = length - len("GET ") - len(path) - len("?q=") - len(" HTTP/1.1")
    return f"{path}?q={'x' * padding}"


@pytest.mark.django_db
def test_the_api_answers_a_line_over_the_limit_with_its_json_error(client):
    answer = client.get(_target("/api/v1/games/", settings.REQUEST_LINE_LIMIT + 1))
    assert answer.status_code == 414
    assert answer["Content-Type"] == "application/json"
    body = answer.json()
    assert set(body) == {"status", "code", "message", "errors", "params"}
    assert (body["status"], body["code"]) == (414, "too_long")
    assert "4094" in body["message"]


@pytest.mark.django_db
def test_a_line_at_the_limit_is_answered_as_usual(client):
    target = _target("/api/v1/games/", settings.REQUEST_LINE_LIMIT)
    assert len(f"GET {target} HTTP/1.1") == settings.REQUEST_LINE_LIMIT
    assert client.get(target).status_code == 400  # an unknown filter: the view answered


@pytest.mark.django_db
def test_a_page_answers_a_line_over_the_limit_with_plain_text(client):
    answer = client.get(_target("/", settings.REQUEST_LINE_LIMIT + 1))
    assert answer.status_code == 414
    assert answer["Content-Type"].startswith("text/plain")
    assert "4094" in answer.content.decode()
    assert answer["Content-Security-Policy"]  # the site's headers, as on every answer
