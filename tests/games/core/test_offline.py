"""The site-wide parts of the offline table pages (games/core/offline.py): the service
worker from the site's root, the catalogue of the scripts' texts, the table's manifest."""

from __future__ import annotations

import pytest

from tests.factories import make_game

pytestmark = pytest.mark.django_db


def test_the_service_worker_is_served_from_the_root_for_the_whole_site(client):
    answer = client.get("/table-worker.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/"
    assert "no-cache" in answer["Cache-Control"]
    assert b'self.addEventListener("fetch"' in answer.content


@pytest.mark.parametrize(
    ("language", "words"),
    [("it", "smazzate in attesa di invio"), ("de", "Spiele warten auf das Senden")],
)
def test_the_scripts_texts_come_in_the_language_of_the_address(client, language, words):
    answer = client.get(f"/offline/texts/{language}.js")
    assert answer.status_code == 200
    assert words in answer.content.decode()
    # Only our scripts' texts (djangojs), not the site's whole catalogue nor the admin's.
    assert "Filter" not in answer.content.decode()
    assert len(answer.content) < 6_000


def test_an_unknown_language_has_no_catalogue(client):
    assert client.get("/offline/texts/xx.js").status_code == 404


def test_the_table_manifest_opens_that_table(client):
    game = make_game()
    key = game.table.key
    manifest = client.get(f"/offline/manifest/{key}.webmanifest").json()
    assert manifest["start_url"] == f"/t/{key}/"
    assert manifest["id"] == f"/t/{key}/"
    assert manifest["display"] == "standalone"
    assert all(icon["src"].startswith("/static/icons/") for icon in manifest["icons"])
    page = client.get(f"/t/{key}/").content.decode()
    assert f'rel="manifest" href="/offline/manifest/{key}.webmanifest"' in page
    assert 'src="/offline/texts/' in page


def test_a_key_no_table_could_have_gets_no_manifest(client):
    assert client.get("/offline/manifest/a%00b.webmanifest").status_code == 404
