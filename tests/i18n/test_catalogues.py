"""Every catalogue is complete, in step with the code, and its placeholders match."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation

from tests.i18n.extract import IGNORE, extract
from tests.i18n.scan import ROOT

LOCALE = ROOT / "locale"
LANGUAGES = [code for code, _name in settings.LANGUAGES]
TRANSLATED = [code for code in LANGUAGES if code != "en"]
SOURCE_DIRS = ["clubs", "games", "scoring", "demo", "config", "templates"]
PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|%[sdif]|\{\w*\}")


def _catalogue(language: str) -> polib.POFile:
    path = LOCALE / language / "LC_MESSAGES" / "django.po"
    assert path.exists(), f"{path} is missing"
    return polib.pofile(str(path))


def _key(entry: polib.POEntry) -> tuple[str, str]:
    return (entry.msgctxt or "", entry.msgid)


def _placeholders(text: str) -> tuple[set[str], int]:
    """Named placeholders (each may be used again or in another order) and unnamed ones."""
    found = PLACEHOLDER.findall(text)
    named = {p for p in found if "(" in p or (p.startswith("{") and p != "{}")}
    return named, sum(1 for p in found if p not in named)


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogue_is_complete(language: str) -> None:
    po = _catalogue(language)
    assert po.metadata.get("Language") == language
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    obsolete = [e.msgid for e in po.obsolete_entries()]
    assert not untranslated, f"{language}: untranslated: {untranslated}"
    assert not fuzzy, f"{language}: fuzzy: {fuzzy}"
    assert not obsolete, f"{language}: obsolete: {obsolete}"
    assert len(po) > 100


@pytest.mark.parametrize("language", LANGUAGES)
def test_placeholders_match(language: str) -> None:
    wrong = []
    for entry in _catalogue(language).translated_entries():
        if entry.msgid_plural:
            pairs = [(entry.msgid_plural, text) for text in entry.msgstr_plural.values()]
            # The singular may drop the number ("one deal"), never add a placeholder.
        else:
            pairs = [(entry.msgid, entry.msgstr)]
        for source, text in pairs:
            if _placeholders(source) != _placeholders(text):
                wrong.append((entry.msgid, text))
    assert not wrong, f"{language}: placeholders differ: {wrong}"


def test_english_is_the_source_language() -> None:
    for entry in _catalogue("en"):
        if entry.msgid_plural:
            assert entry.msgstr_plural == {0: entry.msgid, 1: entry.msgid_plural}
        else:
            assert entry.msgstr == entry.msgid


def test_every_catalogue_holds_the_same_messages() -> None:
    keys = {language: {_key(e) for e in _catalogue(language)} for language in LANGUAGES}
    for language in LANGUAGES:
        assert keys[language] == keys["en"], language


@pytest.mark.parametrize(
    ("language", "msgid", "expected"),
    [
        ("it", "Log in", "Accedi"),
        ("es", "Log in", "Iniciar sesión"),
        ("de", "Log in", "Anmelden"),
        ("fr", "Log in", "Se connecter"),
    ],
)
def test_compiled_catalogues_are_used(language: str, msgid: str, expected: str) -> None:
    with translation.override(language):
        assert translation.gettext(msgid) == expected


def _compare(extracted: set[tuple[str, str]]) -> None:
    catalogue = {_key(e) for e in _catalogue("en") if not e.obsolete}
    assert not extracted - catalogue, f"new messages to translate: {sorted(extracted - catalogue)}"
    assert not catalogue - extracted, f"messages no longer used: {sorted(catalogue - extracted)}"


def test_catalogues_hold_exactly_the_messages_of_the_code() -> None:
    """The extraction of tests/i18n/extract.py: runs without GNU gettext too."""
    _compare(extract())


def test_makemessages_would_add_or_drop_nothing(tmp_path: Path) -> None:
    """Extract a copy of the code with Django's makemessages itself and compare."""
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        pytest.skip("GNU gettext (xgettext) is not installed: apt-get install gettext")
    for name in SOURCE_DIRS:
        shutil.copytree(
            ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
        )
    shutil.copy(ROOT / "manage.py", tmp_path / "manage.py")
    (tmp_path / "locale").mkdir()
    command = [sys.executable, "manage.py", "makemessages", "-l", "en", "--no-location"]
    for pattern in IGNORE:
        command += ["--ignore", pattern]
    subprocess.run(command, cwd=tmp_path, check=True, capture_output=True, timeout=300)
    extracted = {_key(e) for e in polib.pofile(str(tmp_path / "locale/en/LC_MESSAGES/django.po"))}
    # The pure-Python extraction finds the same, so it can stand in where gettext is missing.
    assert extract(tmp_path) == extracted
    _compare(extracted)
