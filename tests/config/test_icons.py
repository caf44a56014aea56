"""The favicon and app icons: linked from every page, served from our own static files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse
from PIL import Image

pytestmark = pytest.mark.django_db

STATIC = "/static/"


def test_every_page_links_the_icons_and_a_manifest(client):
    page = client.get(reverse("home")).content.decode()
    links = re.findall(r'<link rel="(icon|apple-touch-icon|manifest)" href="([^"]+)"', page)
    rels = [rel for rel, _href in links]
    assert rels.count("icon") == 2 and "apple-touch-icon" in rels and "manifest" in rels
    for _rel, href in links:
        assert href.startswith(STATIC), href  # our own files, no other host
        assert finders.find(href[len(STATIC) :]), href
    assert '<meta name="theme-color"' in page


def test_the_icons_have_the_sizes_they_claim():
    manifest = json.loads(Path(finders.find("site.webmanifest")).read_text(encoding="utf-8"))
    assert manifest["name"] == "Tavolo" and manifest["start_url"] == "/"
    purposes = set()
    for icon in manifest["icons"]:
        path = finders.find(icon["src"])
        assert path, icon["src"]
        width, height = map(int, icon["sizes"].split("x"))
        assert Image.open(path).size == (width, height), icon["src"]
        purposes.add(icon["purpose"])
    assert {"any", "maskable"} <= purposes
    assert Image.open(finders.find("icons/apple-touch-icon.png")).size == (180, 180)
    assert (32, 32) in Image.open(finders.find("favicon.ico")).info["sizes"]


def test_favicon_ico_at_the_root_leads_to_the_static_file(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].startswith(STATIC)
    assert finders.find(response["Location"][len(STATIC) :])
