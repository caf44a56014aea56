"""Words a page shows to a reader (the text and the labelling attributes), and the words each
language uses for a pair, which an individual tournament must never show."""

from __future__ import annotations

import re
from html import unescape

# The words each language uses for a pair of players (not for a pairing of turns).
PAIR_WORDS = {
    "en": re.compile(r"\bpairs?\b", re.I),
    "it": re.compile(r"\bcoppi[ae]\b", re.I),
    "es": re.compile(r"\bparejas?\b", re.I),
    "de": re.compile(r"\bpaar(e|en|es)?\b|paarturnier", re.I),
    "fr": re.compile(r"\bpaires?\b", re.I),
}


def visible_text(html: str) -> str:
    """What a reader sees or hears: the text between tags and the labelling attributes,
    without scripts, styles and the turn-seating form (module doc)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r'<form[^>]*id="turn-seat-form".*?</form>', " ", html, flags=re.S)
    labels = " ".join(SHOWN_ATTRIBUTES.findall(html))
    return unescape(re.sub(r"<[^>]+>", " ", html) + " " + labels)


SHOWN_ATTRIBUTES = re.compile(r'\b(?:aria-label|title|alt|placeholder)="([^"]*)"')
