"""One date style per language: every date on the site goes through config/formats."""

from __future__ import annotations

import datetime
import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import formats, timezone, translation

from tests.i18n.scan import ROOT

LANGUAGES = [code for code, _name in settings.LANGUAGES]
WHEN = datetime.datetime(2026, 11, 22, 20, 30)
DAY = {"en": "22 Nov 2026", "it": "22 nov 2026", "es": "22 nov 2026", "de": "22. Nov 2026"}
DAY["fr"] = "22 nov 2026"
NAMED = {"DATE_FORMAT", "SHORT_DATE_FORMAT", "DATETIME_FORMAT", "SHORT_DATETIME_FORMAT"}
# Not shown to anyone: the rating history's sort key.
STRFTIME_ALLOWED = {"scoring/rating_sync.py"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_style_whatever_the_format_name(language: str) -> None:
    when = timezone.make_aware(WHEN)
    with translation.override(language):
        days = {formats.date_format(when, name) for name in ("DATE_FORMAT", "SHORT_DATE_FORMAT")}
        moments = {
            formats.date_format(when, name) for name in ("DATETIME_FORMAT", "SHORT_DATETIME_FORMAT")
        }
    assert days == {DAY[language]}
    assert moments == {f"{DAY[language]}, 20:30"}


def _files(folder: str, suffix: str):
    for path in sorted((ROOT / folder).rglob(f"*{suffix}")):
        if "migrations" not in path.parts:
            yield path


def test_templates_use_only_the_named_formats() -> None:
    wrong = []
    for path in _files("templates", ".html"):
        text = path.read_text(encoding="utf-8")
        for name in re.findall(r"\|date(?::\s*[\"']([^\"']*)[\"'])?", text):
            if name not in NAMED:
                wrong.append(f"{path.relative_to(ROOT)}: |date:{name!r}")
        wrong += [f"{path.relative_to(ROOT)}: |time" for _ in re.findall(r"\|time\b", text)]
    assert not wrong, "dates outside the named formats:\n" + "\n".join(wrong)


def test_python_shows_no_date_of_its_own_making() -> None:
    wrong = []
    for folder in ("clubs", "games", "scoring", "config", "demo"):
        for path in _files(folder, ".py"):
            name = str(path.relative_to(ROOT))
            text = path.read_text(encoding="utf-8")
            if "strftime(" in text and name not in STRFTIME_ALLOWED:
                wrong.append(f"{name}: strftime")
            for used in re.findall(r"date_format\([^)]*?,\s*[\"']([^\"']+)[\"']", text):
                if used not in NAMED:
                    wrong.append(f"{name}: date_format(..., {used!r})")
    assert not wrong, "dates outside the named formats:\n" + "\n".join(wrong)


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_pages_show_the_languages_style(client, language: str) -> None:
    from tests.factories import make_club, make_event, make_organiser

    club = make_club("Dates", slug="dates", language=language)
    event = make_event(club, name="Dated", starts_at=timezone.make_aware(WHEN))
    client.force_login(make_organiser(club))
    with translation.override(language):
        urls = [
            reverse("scoring:club", args=[club.slug]),
            reverse("scoring:event", args=[event.pk]),
            reverse("event-dashboard", args=[club.slug, event.pk]),
            reverse("club-manage", args=[club.slug]),
        ]
    for url in urls:
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert DAY[language] in page, (language, url)
