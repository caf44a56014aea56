"""Burraco words the screenshots of 2026-11-24 caught: the Danese movement keeps its
Italian name in every language (the desk said "Danese (ohne Wiederholung)" above a list
offering "Dänisch"), and a French match "en 2005" says "points" (alone it reads as the
year 2005); the German card game is a "Kartenspiel", never "Spiel" (a hand)."""

from __future__ import annotations

import re

import polib
import pytest

from tests.i18n.scan import ROOT

TRANSLATED = ("de", "es", "fr")


def _catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_danese_movement_is_named_danese(language: str) -> None:
    wrong = [
        f"{entry.msgid!r} -> {entry.msgstr!r}"
        for entry in _catalogue(language).translated_entries()
        if "Danese" in entry.msgid and "Danese" not in entry.msgstr
    ]
    assert not wrong, "\n".join(wrong)


def test_a_french_match_to_a_target_says_points() -> None:
    wrong = [
        f"{entry.msgid!r} -> {entry.msgstr!r}"
        for entry in _catalogue("fr").translated_entries()
        if "to %(target)s" in entry.msgid and "%(target)s points" not in entry.msgstr
    ]
    assert not wrong, "\n".join(wrong)


def test_the_german_card_game_field_is_kartenspiel() -> None:
    """The league's, club's and event's field "game" (Barbu or Burraco) is the card game,
    "Kartenspiel" (docs/glossary/de.md); "Spiel" is a hand, and the Burraco league form
    showed "Spiel: Barbu"."""
    german = {e.msgid: e.msgstr for e in _catalogue("de").translated_entries() if not e.msgctxt}
    assert german["game"] == german["Game"] == "Kartenspiel"


def test_italian_round_robin_is_a_girone_all_italiana() -> None:
    """ "All'italiana" is an adjective ("girone all'italiana"): the desk read "Gironi
    dell'all'italiana" and "al primo turno dell'all'italiana"."""
    wrong = [
        entry.msgstr
        for entry in _catalogue("it").translated_entries()
        if re.search(r"\b\w+[’']all[’']italiana", entry.msgstr, re.I)
    ]
    assert not wrong, "\n".join(wrong)
