"""Numbers before nouns go through ngettext: no "1 times", "(1 deals left)", "table(s)"."""

from __future__ import annotations

import dataclasses

import pytest
from django.utils import translation

from clubs.engine_words import describe_ruleset_localised
from games.barbu.deal_form import DealChoices, form_context
from scoring.engine.barbu.presets import PRESETS
from tests.factories import NAMES


def owed_lines(owed: list[dict]) -> list[str]:
    choices = DealChoices(
        number=27, dealer="Dario", contracts=["domino"], doubles_allowed={}, owed=owed
    )
    context = form_context(
        choices, list(NAMES), ruleset={"preset": "italian7", "options": {}}, selected={}
    )
    return context["owed"]


@pytest.mark.parametrize(
    ("needed", "left", "english", "italian"),
    [
        (1, 1, "1 time (1 deal left)", "1 volta (resta 1 smazzata)"),
        (2, 2, "2 times (2 deals left)", "2 volte (restano 2 smazzate)"),
        (1, 3, "1 time (3 deals left)", "1 volta (restano 3 smazzate)"),
        (2, 1, "2 times (1 deal left)", "2 volte (resta 1 smazzata)"),
    ],
)
def test_doubles_still_owed(needed, left, english, italian) -> None:
    owed = [{"by": "Anna", "against": "Dario", "needed": needed, "deals_left": left}]
    with translation.override("en"):
        assert owed_lines(owed) == [f"Anna must still double Dario {english}"]
    with translation.override("it"):
        (line,) = owed_lines(owed)
        assert line.endswith(italian), line


def test_one_deal_a_turn_in_the_rules_summary() -> None:
    rules = dataclasses.replace(PRESETS["italian7"], contracts=("barbu",))
    with translation.override("en"):
        lines = describe_ruleset_localised(rules)
    assert "Each player deals 1 deal in a row." in lines
