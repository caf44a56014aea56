"""Content-Security-Policy: on every page, with nothing inline that would need an exception.

The browser suite (tests/browser/test_pages.py) sees the policy enforced on every page in
Chromium; these tests pin the header, the templates' lack of inline script and style, and
the API docs served from the site's own static files.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import make_club

pytestmark = pytest.mark.django_db

TEMPLATES = sorted((Path(settings.BASE_DIR) / "templates").rglob("*.html"))


def policy(response) -> dict[str, list[str]]:
    header = response.headers["Content-Security-Policy"]
    directives = (part.strip().split() for part in header.split(";") if part.strip())
    return {name: values for name, *values in directives}


@pytest.mark.parametrize(
    "path",
    ["/", "/accounts/login/", "/it/", "/t/no-such-table/", "/api/v1/clubs/", "/api/docs/"],
)
def test_every_answer_carries_the_policy(client, path: str) -> None:
    make_club("Circolo")
    found = policy(client.get(path))
    assert found["default-src"] == ["'self'"]
    assert found["script-src"] == ["'self'"]
    assert found["style-src"] == ["'self'"]
    assert found["object-src"] == ["'none'"]
    assert found["frame-ancestors"] == ["'none'"]
    for values in found.values():
        assert "'unsafe-inline'" not in values
        assert "'unsafe-eval'" not in values


def test_club_and_table_pages_carry_the_policy(client) -> None:
    club = make_club("Circolo")
    response = client.get(reverse("scoring:club", args=[club.slug]))
    assert response.status_code == 200
    assert policy(response)["script-src"] == ["'self'"]


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(settings.BASE_DIR)))
def test_templates_have_no_inline_script_or_style(path: Path) -> None:
    text = path.read_text()
    # A <script> runs only from a file; JSON data blocks (json_script) are not scripts.
    for tag in re.findall(r"<script\b[^>]*>", text):
        assert "src=" in tag or 'type="application/json"' in tag, tag
    assert not re.search(r"\son[a-z]+\s*=", text), "inline event handler"
    assert not re.search(r"\sstyle\s*=", text), "style attribute"
    assert "<style" not in text
    assert "javascript:" not in text


def test_api_docs_come_from_this_site(client) -> None:
    page = client.get("/api/docs/").content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert sources, page
    for source in sources:
        assert source.startswith("/"), source
    assert any("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in s for s in sources)
    assert "<style" not in page
    assert not re.search(r"<script>\s*\S", page), "inline script"
    # The start script is a separate request (SpectacularSwaggerSplitView).
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200
    assert script.headers["Content-Type"].startswith("application/javascript")
