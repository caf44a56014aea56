"""Each catalogue speaks its glossary (docs/glossary/<language>.md): the words of the game.

The glossary's "Words" table: an entry whose English text holds one of a row's English
words must use one of the row's words and none of its forbidden ones (README of
docs/glossary). Its "Contracts" table: the contract names, exactly.
"""

from __future__ import annotations

import re

import polib
import pytest

from tests.i18n.scan import ROOT

GLOSSARIES = ROOT / "docs" / "glossary"
LANGUAGES = ["it", "es", "de", "fr"]
PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|%[sdif]|\{\w*\}")
NONE = {"—", "-", ""}
# "deal" the verb ("Who deals", "deals first") is not the deal the glossary names.
VERB = re.compile(r"\b(who|player|whoever|players|dealer)\s+deals?\b|\bdeals first\b", re.I)


def _table(text: str, heading: str) -> list[list[str]]:
    """The rows (cells stripped) of the first Markdown table after `## heading`."""
    section = text.split(f"## {heading}", 1)[1]
    rows = []
    for line in section.splitlines():
        line = line.strip()
        if line.startswith("#"):
            break
        if line.startswith("|") and not set(line) <= set("|-: "):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows[1:]  # without the head


def _glossary(language: str) -> str:
    return (GLOSSARIES / f"{language}.md").read_text(encoding="utf-8")


def _entries(language: str) -> list[tuple[polib.POEntry, list[str]]]:
    po = polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))
    out = []
    for entry in po.translated_entries():
        if entry.msgid_plural:
            out.append((entry, [entry.msgstr_plural[k] for k in sorted(entry.msgstr_plural)]))
        else:
            out.append((entry, [entry.msgstr]))
    return out


def _words(cell: str, sep: str) -> list[str]:
    return [w.strip() for w in cell.split(sep) if w.strip() not in NONE]


def _mentions(english: str, words: list[str]) -> bool:
    """Whole words; a word written with a capital ("Turn of") only in that case."""
    text = VERB.sub(" ", PLACEHOLDER.sub(" ", english))
    return any(
        re.search(rf"(?<![\w'-]){re.escape(w)}(?![\w-])", text, 0 if w[0].isupper() else re.I)
        for w in words
    )


def _has_stem(text: str, stems: list[str]) -> bool:
    """Anywhere in a word: German compounds ("Einzelpartie", "Abendwertungen") count."""
    return any(stem.lower() in text.lower() for stem in stems)


def _has_phrase(text: str, phrases: list[str]) -> list[str]:
    return [p for p in phrases if re.search(rf"(?<!\w){re.escape(p)}(?!\w)", text, re.I)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogue_uses_the_glossary_words(language: str) -> None:
    rows = _table(_glossary(language), "Words")
    assert len(rows) >= 10, f"{language}: the glossary's Words table is missing"
    entries = _entries(language)
    # A forbidden word is fine where the English also names what that word means here
    # ("Round 2 is closed: no more deals" may say "Runde" in German).
    owners = [(_words(english, ","), _words(here, "/")) for english, here, *_rest in rows]
    wrong = []
    for english, here, never, exceptions in rows:
        words = _words(english, ",")
        stems, banned = _words(here, "/"), _words(never, ",")
        excepted = set(_words(exceptions, ";"))
        for entry, translations in entries:
            if entry.msgctxt == "contract" or not _mentions(entry.msgid, words):
                continue
            for text in translations:
                found = [
                    phrase
                    for phrase in _has_phrase(text, banned)
                    if not any(
                        _has_stem(phrase, owned) and _mentions(entry.msgid, named)
                        for named, owned in owners
                    )
                ]
                if found:
                    wrong.append(f"{entry.msgid!r}: {text!r} says {found} ({english})")
                elif stems and not _has_stem(text, stems) and entry.msgid not in excepted:
                    wrong.append(f"{entry.msgid!r}: {text!r} lacks {stems} ({english})")
    assert not wrong, f"{language}: {len(wrong)} entries disagree with the glossary:\n" + "\n".join(
        wrong
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_contract_names_follow_the_glossary(language: str) -> None:
    rows = _table(_glossary(language), "Contracts")
    names = {msgid: here for _key, msgid, here in rows}
    assert len(names) == 7
    found = {
        entry.msgid: entry.msgstr
        for entry, _texts in _entries(language)
        if entry.msgctxt == "contract" and entry.msgid in names
    }
    assert found == names


def test_glossary_flags_the_ambiguities_the_issue_found() -> None:
    """The words issue 16 found wrong stay forbidden."""
    it = _table(_glossary("it"), "Words")
    turn = next(row for row in it if row[0].startswith("dealer's turn"))
    assert "turno di mazziere" in turn[2]
    de = _table(_glossary("de"), "Words")
    assert "Runde" in next(row for row in de if row[0] == "deal, deals")[2]
    es = dict((key, here) for key, _msgid, here in _table(_glossary("es"), "Contracts"))
    assert es["no_tricks"] != "Bazas"
    for language in ("it", "es"):
        rating = next(row for row in _table(_glossary(language), "Words") if "rating" in row[0])
        assert "rating" in rating[2]
