"""German Burraco texts speak of one thing with one word (docs/glossary/de.md): a turn
of a tournament is a "Runde", a hand played in it a "Spiel". "Hand" stays only where
the cards are held ("auf der Hand") or something is done "von Hand"."""

from __future__ import annotations

import re

import polib

from tests.i18n.scan import ROOT

CATALOGUE = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"
# English "hand" that is not a Burraco hand: cards held, something done by hand.
NOT_A_HAND = re.compile(r"\b(in|by|or|on)\s+hand\b", re.I)
A_HAND = re.compile(r"\bhands?\b", re.I)
# A German "Hand" that is still the cards held or work by hand.
HELD = re.compile(r"\b(auf|in) der Hand\b|\bvon Hand\b")
GERMAN_HAND = re.compile(r"\bH[aä]nde?n?\b")
# Barbu's turn of a dealer and its German words, which are not a tournament's turn.
DEALER_TURN = re.compile(r"dealer'?s? turns?|\bTurn of\b|this turn\b(?! (plays|are|is))", re.I)
A_TURN = re.compile(r"\bturns?\b", re.I)
# "turn" the verb: "turn mandatory doubles off".
TURN_OFF = re.compile(r"\bturn\b[\w ]{0,40}\b(off|on)\b")


def _entries() -> list[tuple[str, list[str]]]:
    out = []
    for entry in polib.pofile(str(CATALOGUE)).translated_entries():
        english = " / ".join(filter(None, [entry.msgid, entry.msgid_plural]))
        if entry.msgid_plural:
            german = [entry.msgstr_plural[k] for k in sorted(entry.msgstr_plural)]
        else:
            german = [entry.msgstr]
        out.append((english, german))
    return out


def test_a_hand_is_a_spiel_never_a_hand_nor_a_runde() -> None:
    wrong = []
    for english, german in _entries():
        if not A_HAND.search(NOT_A_HAND.sub(" ", english)):
            continue
        # "Runde" only where the English names a turn (or a round) too.
        turn = re.search(r"\b(turns?|rounds?)\b", english, re.I)
        for text in german:
            held = HELD.sub(" ", text)
            if "Spiel" not in text or (not turn and "Runde" in text) or GERMAN_HAND.search(held):
                wrong.append(f"{english!r} -> {text!r}")
    assert not wrong, "German hands must be 'Spiel':\n" + "\n".join(wrong)


def test_no_german_text_says_hand_for_a_hand_played() -> None:
    wrong = [
        f"{english!r} -> {text!r}"
        for english, german in _entries()
        for text in german
        if GERMAN_HAND.search(HELD.sub(" ", text))
    ]
    assert not wrong, "'Hand' only for the cards held or 'von Hand':\n" + "\n".join(wrong)


def test_a_tournament_turn_is_a_runde() -> None:
    wrong = []
    for english, german in _entries():
        if not A_TURN.search(TURN_OFF.sub(" ", english)) or DEALER_TURN.search(english):
            continue
        for text in german:
            if "runde" not in text.lower() or "Teilerdurchg" in text:
                wrong.append(f"{english!r} -> {text!r}")
    assert not wrong, "A tournament's turn must be 'Runde':\n" + "\n".join(wrong)


def test_the_checks_catch_the_mixed_words() -> None:
    assert GERMAN_HAND.search(HELD.sub(" ", "Hand 3 gespeichert."))
    assert GERMAN_HAND.search(HELD.sub(" ", "Alle Hände sind eingetragen"))
    assert not GERMAN_HAND.search(HELD.sub(" ", "Punkte der Karten auf der Hand; Handy"))
    assert not GERMAN_HAND.search(HELD.sub(" ", "von Hand (die Paarungen unten)"))
    assert A_HAND.search(NOT_A_HAND.sub(" ", "VP table for 3 hands"))
    assert not A_HAND.search(NOT_A_HAND.sub(" ", "the cards left in hand"))
