"""The scripts' texts (locale/*/LC_MESSAGES/djangojs.po, served by games/core/offline.py):
every text a script translates is in every catalogue, translated, with its placeholders."""

from __future__ import annotations

import re

import polib
import pytest
from django.conf import settings

from tests.i18n.scan import ROOT

LANGUAGES = [code for code, _name in settings.LANGUAGES]
# gettext("…") and ngettext("…", "…", n) in static/*.js, each string on its own.
CALL = re.compile(r'(?<![\w.])(n?)gettext\(\s*"((?:[^"\\]|\\.)*)"(?:\s*,\s*"((?:[^"\\]|\\.)*)")?')
PLACEHOLDER = re.compile(r"%\(\w+\)s")


def script_texts() -> set[tuple[str, str]]:
    found = set()
    for script in sorted((ROOT / "static").glob("*.js")):
        for plural, one, many in CALL.findall(script.read_text()):
            found.add((one, many if plural else ""))
    return found


def test_the_scripts_translate_some_texts() -> None:
    assert ("%(count)s deal waiting to be sent", "%(count)s deals waiting to be sent") in (
        script_texts()
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_script_text_is_translated(language: str) -> None:
    po = polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "djangojs.po"))
    assert po.metadata.get("Language") == language
    assert {(e.msgid, e.msgid_plural) for e in po} == script_texts()
    assert not po.untranslated_entries() and not po.fuzzy_entries()
    for entry in po:
        texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        for text in texts:
            assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(entry.msgid)), text
