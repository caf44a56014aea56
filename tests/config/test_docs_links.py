"""The pages' Help links (templates/_guide_link.html) lead to a section that exists in the
right guide, and /docs/ serves the built guides or sends the reader to DOCS_URL
(config/guides.py)."""

from __future__ import annotations

import re
from pathlib import Path

import markdown
import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from config import guides
from tests.factories import make_game

ROOT = Path(__file__).resolve().parents[2]
# The pages that need help, and the topic each names in its one include line.
PAGES = {
    "templates/games/table/entry.html": "table",
    "templates/games/burraco/card.html": "card",
    "templates/games/organiser/event.html": "evening",
    "templates/games/burraco/desk.html": "desk",
    "templates/games/burraco/free_desk.html": "free-desk",
}
HREF = re.compile(r'href="/docs/([\w.]+)/#([\w-]+)"')


def link(topic: str, language: str) -> tuple[str, str]:
    """The guide page and the section the topic's Help link leads to, in `language`."""
    with translation.override(language):
        html = render_to_string("_guide_link.html", {"topic": topic})
    match = HREF.search(html)
    assert match, f"{topic}: no section in {html}"
    return match.group(1), match.group(2)


def sections(guide: str) -> set[str]:
    """The anchors of a guide's headings, as MkDocs makes them (Markdown's toc)."""
    text = (ROOT / "docs" / f"{guide}.md").read_text()
    converter = markdown.Markdown(extensions=["toc", "tables", "admonition"])
    return set(re.findall(r'<h\d id="([\w-]+)"', converter.convert(text)))


def test_every_page_that_needs_help_includes_the_link_once() -> None:
    for path, topic in PAGES.items():
        text = (ROOT / path).read_text()
        line = f'{{% include "_guide_link.html" with topic="{topic}" %}}'
        assert text.count("_guide_link.html") == 1 and line in text, path


@pytest.mark.parametrize("language", ["en", "it", "de"])
@pytest.mark.parametrize("topic", sorted(set(PAGES.values())))
def test_each_help_link_leads_to_a_section_of_its_guide(topic: str, language: str) -> None:
    guide, section = link(topic, language)
    assert section in sections(guide)


def test_the_referee_reads_the_italian_guide_in_italian() -> None:
    assert link("desk", "en") == ("referees", "a-tournament-day")
    assert link("desk", "it") == ("referees.it", "la-giornata-di-torneo")
    assert link("free-desk", "it")[0] == "referees.it"
    assert link("table", "it") == ("players", "barbu-the-table-page")


@pytest.mark.django_db
def test_the_table_page_and_the_evening_page_show_the_help_link(client, club, organiser) -> None:
    game = make_game(club)
    table = game.table
    page = client.get(reverse("table-entry", args=[table.key])).content.decode()
    assert 'href="/docs/players/#barbu-the-table-page"' in page
    assert ">Help</a>" in page
    client.force_login(organiser)
    event = table.round.event
    page = client.get(reverse("event-dashboard", args=[event.club.slug, event.pk])).content
    assert b'href="/docs/organisers/#an-evening-step-by-step"' in page


# --- /docs/ ---------------------------------------------------------------------------


def test_with_docs_url_the_reader_is_sent_there(client, settings) -> None:
    settings.DOCS_URL = "https://guides.example.org/tavolo/"
    response = client.get("/docs/players/")
    assert response.status_code == 302
    assert response["Location"] == "https://guides.example.org/tavolo/players/"


def test_a_site_without_the_built_guides_says_how_to_have_them(
    client, settings, monkeypatch, tmp_path
) -> None:
    settings.DOCS_URL = ""
    settings.DEBUG = False
    monkeypatch.setattr(guides, "site_dir", lambda: tmp_path / "site")
    response = client.get("/docs/players/")
    assert response.status_code == 404
    assert "make docs-build" in response.content.decode()
    assert "DOCS_URL" in response.content.decode()


def test_the_built_guides_are_served_a_folder_by_its_index(
    client, settings, monkeypatch, tmp_path
) -> None:
    settings.DOCS_URL = ""
    settings.DEBUG = False
    site = tmp_path / "site"
    (site / "players").mkdir(parents=True)
    (site / "index.html").write_text("<h1>Tavolo</h1>")
    (site / "players" / "index.html").write_text("<h1>Players</h1>")
    monkeypatch.setattr(guides, "site_dir", lambda: site)
    response = client.get("/docs/players/")
    assert b"Players" in b"".join(response.streaming_content)
    # The theme's one inline script runs on the guides' pages, and on no page of the site.
    assert "script-src 'self' 'unsafe-inline'" in response["Content-Security-Policy"]
    assert "'unsafe-inline'" not in client.get("/favicon.ico")["Content-Security-Policy"]
    assert b"Tavolo" in b"".join(client.get("/docs/").streaming_content)
    assert client.get("/docs/nothing/").status_code == 404
    # Nothing outside the built site: no way up to the project's files.
    for path in ("/docs/../config/settings.py", "/docs/%2e%2e/%2e%2e/config/settings.py"):
        assert client.get(path).status_code in {400, 404}


@pytest.mark.slow
def test_in_development_the_guides_are_built_when_their_sources_changed(tmp_path) -> None:
    site = tmp_path / "site"
    assert guides.build_if_stale(ROOT, site) == ""
    index = site / "players" / "index.html"
    assert 'id="barbu-the-table-page"' in index.read_text()
    built = index.stat().st_mtime_ns
    assert guides.build_if_stale(ROOT, site) == ""
    assert index.stat().st_mtime_ns == built, "built again with nothing changed"
