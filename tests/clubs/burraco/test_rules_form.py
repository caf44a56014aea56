"""The Burraco rules form (clubs/burraco/rules_form.py): fields and back, in every language."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.datastructures import MultiValueDict

from clubs.burraco.rules_form import BurracoRulesForm
from scoring.engine import burraco
from tests.browser_form import form_data

LANGUAGES = [code for code, _name in settings.LANGUAGES]

RULESETS = [
    {"preset": "fibur", "options": {}},
    {"preset": "international", "options": {}},
    {"preset": "free", "options": {}},
    {
        "preset": "fibur",
        "options": {
            "bonus": {"clean": 250, "reale": 300},
            "no_pozzetto": -150,
            "semi_clean": False,
            "target": 1505,
            "vp_tables": {"3": [[100, 10], [300, 12], [600, 15], [None, 20]]},
        },
    },
    {
        "preset": "international",
        "options": {"bonus": {"semi": 150}, "semi_clean": True, "close_needs_clean": False},
    },
    {
        "preset": "free",
        "options": {
            "vp_tables": {
                "2": [[0, 10], [200, 13], [None, 20]],
                "4": [[100, 10], [300, 11], [500, 12], [700, 13], [900, 14], [None, 20]],
            }
        },
    },
]


def _page(form: BurracoRulesForm) -> str:
    body = render_to_string("clubs/burraco/_rules.html", {"form": form})
    return f'<form id="rules" class="form">{body}</form>'


def _posted(html: str) -> MultiValueDict:
    _action, data = form_data(html, "rules")
    return MultiValueDict(data)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r["preset"] + str(len(r["options"])))
def test_round_trip_through_the_page(language: str, ruleset: dict) -> None:
    with translation.override(language):
        shown = BurracoRulesForm(initial=BurracoRulesForm.initial_from(ruleset))
        form = BurracoRulesForm(data=_posted(_page(shown)))
        assert form.is_valid(), form.errors
    assert form.ruleset == ruleset
    assert burraco.parse_ruleset(form.ruleset)[1] == []


def test_the_tables_in_force_are_shown_as_bands() -> None:
    initial = BurracoRulesForm.initial_from({"preset": "fibur", "options": {}})
    # FIBUR, 3 hands: 0-50 -> 10, 55-150 -> 11, ..., 1505 or more -> 20.
    assert (initial["vp3_1_from"], initial["vp3_1_to"], initial["vp3_1_vp"]) == (0, 50, 10)
    assert (initial["vp3_2_from"], initial["vp3_2_to"], initial["vp3_2_vp"]) == (55, 150, 11)
    assert (initial["vp3_11_from"], initial["vp3_11_vp"]) == (1505, 20)
    assert "vp3_11_to" not in initial and "vp3_12_from" not in initial
    html = _page(BurracoRulesForm(initial=initial))
    assert 'id="vp-table-4"' in html and 'value="2000"' in html
    assert "style=" not in html and "<script" not in html


def test_a_value_equal_to_the_preset_is_not_stored() -> None:
    data = BurracoRulesForm.initial_from({"preset": "fibur", "options": {}})
    data.update(bonus_clean=200, no_pozzetto=-100, target=2005, semi_clean="yes")
    form = BurracoRulesForm(data=data)
    assert form.is_valid(), form.errors
    assert form.ruleset == {"preset": "fibur", "options": {}}


def test_inheriting_stores_nothing() -> None:
    form = BurracoRulesForm(data={"preset": ""}, inherit_label="As the club")
    assert form.is_valid(), form.errors
    assert form.ruleset is None
    assert BurracoRulesForm.initial_from(None)["preset"] == ""


def _fibur(**changes: object) -> dict:
    data = BurracoRulesForm.initial_from({"preset": "fibur", "options": {}})
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def _errors(form: BurracoRulesForm) -> list[str]:
    assert not form.is_valid()
    return [e for errors in form.errors.values() for e in errors]


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"vp3_3_from": 160}, "vp3_3_from", ["band 3", "155", "band 2", "150"]),
        ({"vp3_1_from": 5}, "vp3_1_from", ["band 1", "starts at 0"]),
        ({"vp3_4_to": 245}, "vp3_4_to", ["band 4", "245", "below"]),
        ({"vp3_4_to": 352}, "vp3_4_to", ["band 4", "352", "multiple of 5"]),
        ({"vp3_11_to": 2000}, "vp3_11_to", ["band 11", "last"]),
        ({"vp3_5_to": None}, "vp3_5_to", ["band 5", "only the last"]),
        ({"vp2_5_vp": 21}, "vp2_5_vp", ["2 hands", "band 5", "from 10 to 20", "21"]),
        ({"vp4_6_vp": 12}, "vp4_6_vp", ["4 hands", "band 6", "12", "band 5", "14"]),
        ({"vp3_7_vp": None}, "vp3_7_vp", ["band 7", "winner's VP"]),
        ({"bonus_clean": 203}, "bonus_clean", ["203", "multiple of 5"]),
        ({"no_pozzetto": -102}, "no_pozzetto", ["-102", "multiple of 5"]),
        ({"other_kinds": "reale"}, "other_kinds", ["reale"]),
        ({"other_kinds": "clean 300"}, "other_kinds", ["clean 300"]),
        ({"other_kinds": "reale 302"}, "other_kinds", ["302"]),
    ],
)
def test_refusals_name_the_band_and_the_value(changes: dict, field: str, words: list[str]) -> None:
    form = BurracoRulesForm(data=_fibur(**changes))
    assert not form.is_valid()
    assert field in form.errors, form.errors
    message = " ".join(form.errors[field])
    for word in words:
        assert word in message, message
    assert form.ruleset is None


def test_a_negative_bonus_is_refused() -> None:
    assert "bonus_semi" in BurracoRulesForm(data=_fibur(bonus_semi=-5)).errors


def test_the_engine_has_the_last_word() -> None:
    # International has no semi-clean bonus: allowing semi-clean burracos needs one.
    data = BurracoRulesForm.initial_from({"preset": "international", "options": {}})
    data["semi_clean"] = "yes"
    errors = _errors(BurracoRulesForm(data=data))
    assert any("semi" in e for e in errors), errors


@pytest.mark.parametrize("language", ["it", "de"])
def test_refusals_are_translated(language: str) -> None:
    with translation.override(language):
        form = BurracoRulesForm(data=_fibur(vp3_3_from=160))
        message = " ".join(form.errors["vp3_3_from"])
    assert "155" in message and "VP table for" not in message


def test_rows_left_empty_in_the_middle_are_skipped() -> None:
    data = _fibur()
    for hands in (2, 3, 4):
        for part in ("from", "to", "vp"):
            data.pop(f"vp{hands}_11_{part}", None)
        data[f"vp{hands}_13_from"] = data[f"vp{hands}_10_to"] + 5
        data[f"vp{hands}_13_vp"] = 20
    form = BurracoRulesForm(data=data)
    assert form.is_valid(), form.errors
    assert form.ruleset == {"preset": "fibur", "options": {}}


def test_the_preset_values_show_in_the_empty_boxes() -> None:
    html = _page(BurracoRulesForm(initial={"preset": "international"}))
    assert 'name="bonus_clean"' in html and 'placeholder="200"' in html
    assert 'placeholder="-100"' in html and 'placeholder="2005"' in html
    semi = BurracoRulesForm(initial={"preset": "international"})["bonus_semi"]
    assert "placeholder" not in str(semi)  # international has no semi-clean burraco
