"""The site's translations of the engine: problem codes, contract names, rule sentences."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.utils import translation

from clubs.engine_words import (
    CONTRACT_NAMES,
    FIELD_MESSAGES,
    MESSAGES,
    contract_name,
    describe_ruleset_localised,
    problem_message,
    translate_problems,
)
from scoring.engine import barbu
from scoring.engine.barbu.presets import CONTRACT_NAMES as ENGINE_CONTRACT_NAMES
from scoring.engine.errors import FIELD_MESSAGES as ENGINE_FIELD_MESSAGES

LANGUAGES = ("it", "es", "de", "fr")


def _engine_placeholders(template: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", template))


def _our_placeholders(template: str) -> set[str]:
    return set(re.findall(r"%\((\w+)\)s", template))


def test_every_engine_code_has_a_message_with_the_same_placeholders() -> None:
    assert set(MESSAGES) == set(barbu.MESSAGES)
    for code, english in barbu.MESSAGES.items():
        assert _our_placeholders(str(MESSAGES[code])) == _engine_placeholders(english), code


def test_english_messages_equal_the_engines() -> None:
    with translation.override("en"):
        for code, english in barbu.MESSAGES.items():
            params = {name: f"<{name}>" for name in _engine_placeholders(english)}
            assert str(MESSAGES[code]) % params == english.format(**params), code


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_engine_message_is_translated(language: str) -> None:
    with translation.override("en"):
        english = {code: str(text) for code, text in MESSAGES.items()}
    with translation.override(language):
        for code, text in MESSAGES.items():
            # "%(field)s is missing" and its like are short but still translated.
            assert str(text) != english[code], f"{language}: {code} is not translated"


def _validate(record: dict) -> list[barbu.Problem]:
    return barbu.validate_game(record)


def _record(ruleset: str, deals: list[dict]) -> dict:
    return {"ruleset": ruleset, "players": ["Anna", "Bruno", "Carla", "Dario"], "deals": deals}


def test_a_real_problem_is_translated_with_its_parameters() -> None:
    (problem,) = _validate(
        _record(
            "italian7",
            [
                {
                    "dealer": "Anna",
                    "contract": "no_tricks",
                    "result": {"tricks": {"Anna": 3, "Bruno": 3, "Carla": 3, "Dario": 3}},
                }
            ],
        )
    )
    assert problem.code == "tricks_total"
    with translation.override("it"):
        assert problem_message(problem) == "le prese sommano a 12, non a 13"
    with translation.override("de"):
        assert problem_message(problem.as_dict()) == "die Stiche ergeben zusammen 12, nicht 13"
    with translation.override("en"):
        assert problem_message(problem) == problem.message


def test_contract_parameters_are_named_in_the_language() -> None:
    deal = {"dealer": "Anna", "contract": "trumps", "trump": "S", "result": {}}
    problems = [p for p in _validate(_record("italian6", [deal])) if p.code.startswith("contract")]
    (problem,) = problems
    assert problem.code == "contract_not_in_ruleset"
    with translation.override("de"):
        assert problem_message(problem) == "Trumpf wird nach diesen Regeln nicht gespielt"
    with translation.override("es"):
        assert problem_message(problem) == "con estas reglas no se juega Triunfo"


def test_every_field_message_is_translated_with_the_same_placeholders() -> None:
    assert set(FIELD_MESSAGES) == set(ENGINE_FIELD_MESSAGES)
    for key, english in ENGINE_FIELD_MESSAGES.items():
        ours = FIELD_MESSAGES[key]
        assert _our_placeholders(str(ours)) == _engine_placeholders(english), key
        params = {name: f"<{name}>" for name in _engine_placeholders(english)}
        with translation.override("en"):
            assert str(ours) % params == english.format(**params), key
        for language in LANGUAGES:
            with translation.override(language):
                assert str(ours) != english, f"{language}: {key} is not translated"


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "double 2 does not say who doubled"),
        ("it", "il 2° contro non dice chi ha contrato"),
        ("es", "el 2.º doblo no dice quién dobló"),
        ("de", "beim 2. Kontra steht nicht, wer kontriert hat"),
        ("fr", "le contre n° 2 ne dit pas qui a contré"),
    ],
)
def test_a_field_path_is_said_in_words(language: str, expected: str) -> None:
    deal = {
        "dealer": "Anna",
        "contract": "barbu",
        "doubles": [{"by": "Bruno", "against": "Anna"}, {"against": "Anna"}],
        "result": {"king_of_hearts": "Carla"},
    }
    (problem,) = _validate(_record("italian7", [deal]))
    assert (problem.field, problem.params) == ("doubles[1].by", {"field": "doubles[1].by"})
    with translation.override(language):
        assert problem_message(problem) == expected
        assert problem_message(problem.as_dict()) == expected


def test_a_name_in_a_field_path_is_kept() -> None:
    deal = {"dealer": "Anna", "contract": "no_tricks", "result": {"tricks": {"Dario": "13"}}}
    (problem,) = _validate(_record("italian7", [deal]))
    with translation.override("de"):
        assert (
            problem_message(problem) == "die Stiche von Dario sollten als ganze Zahl angegeben sein"
        )


def test_expected_and_field_phrases_are_translated() -> None:
    # a field the engine has no words for (yet) is shown as it is, its "expected" translated
    problem = barbu.Problem.make(None, "x", "invalid_type", field="result.extra", expected="a list")
    with translation.override("fr"):
        assert problem_message(problem) == "result.extra devrait être une liste"
    problem = barbu.Problem.make(
        None,
        "ruleset.options.dealer_rotation",
        "invalid_option",
        option="dealer_rotation",
        value="sideways",
        expected="it must be one of per_turn, per_deal",
    )
    with translation.override("it"):
        assert problem_message(problem) == (
            "l'opzione di regolamento dealer_rotation non può valere sideways: "
            "deve essere uno tra per_turn, per_deal"
        )
    problem = barbu.Problem.make(None, "x", "missing_field", field="deal 3")
    with translation.override("es"):
        assert problem_message(problem) == "falta mano 3"


def test_an_unknown_code_keeps_its_message() -> None:
    problem = {"code": "brand_new", "params": {"x": 1}, "message": "something new"}
    with translation.override("it"):
        assert problem_message(problem) == "something new"


def test_site_built_problems_are_translated() -> None:
    problem = {"code": "invalid_number", "params": {}, "message": "number must be ..."}
    with translation.override("fr"):
        assert problem_message(problem) == "number doit être un nombre entier positif"


def test_translate_problems_keeps_every_other_key() -> None:
    problem = barbu.Problem.make(2, "result.queens", "not_a_queen", card="KS").as_dict()
    with translation.override("de"):
        (out,) = translate_problems([problem])
    assert out == {**problem, "message": "KS ist keine Dame"}


EXPECTED_CONTRACT_NAMES = {
    # As the rule texts of shared/rules/sources/ name them.
    "it": {"hearts": "Cuori", "queens": "Donne", "last_two": "Ultime due", "trumps": "Atout"},
    "es": {
        "hearts": "Corazones",
        "queens": "Damas",
        "last_two": "Dos últimas",
        # The rule text calls it "Bazas" and says "no bazas" would be apter: "Bazas"
        # alone reads as "tricks" (issue 16; docs/glossary/es.md).
        "no_tricks": "No bazas",
        "domino": "Dominó",
    },
    "de": {"no_tricks": "Keine Stiche", "queens": "Keine Damen", "barbu": "Kein Herzkönig"},
    "fr": {"no_tricks": "Pas de plis", "queens": "Pas de dames", "domino": "Réussite"},
    "en": dict(ENGINE_CONTRACT_NAMES),
}


@pytest.mark.parametrize("language", sorted(EXPECTED_CONTRACT_NAMES))
def test_contract_names_follow_the_rule_texts(language: str) -> None:
    with translation.override(language):
        for key, name in EXPECTED_CONTRACT_NAMES[language].items():
            assert contract_name(key) == name
            assert str(CONTRACT_NAMES[key]) == name
    assert set(CONTRACT_NAMES) == set(barbu.CONTRACTS)


def test_unknown_contract_key_is_shown_as_given() -> None:
    assert contract_name("poker") == "poker"


RULESETS = [
    *barbu.PRESETS.values(),
    replace(barbu.PRESETS["italian7"], dealer_rotation="per_deal", domino_pass_when_able=True),
    replace(barbu.PRESETS["german"], positive_only_dealer=True, barbu_discard_first_chance=True),
    barbu.ruleset_from_json({"preset": "french", "options": {"contracts": ["hearts", "domino"]}}),
]


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.preset)
def test_rule_sentences_mirror_the_engine(ruleset: barbu.Ruleset) -> None:
    english = barbu.describe_ruleset(ruleset)
    with translation.override("en"):
        ours = describe_ruleset_localised(ruleset)
    # The first sentence names the preset ("Italian, 7 contracts") instead of its key.
    assert len(ours) == len(english)
    assert ours[1:] == english[1:]


@pytest.mark.parametrize("language", LANGUAGES)
def test_rule_sentences_are_translated(language: str) -> None:
    ruleset = barbu.PRESETS["italian6"]
    with translation.override("en"):
        english = describe_ruleset_localised(ruleset)
    with translation.override(language):
        ours = describe_ruleset_localised(ruleset)
    assert len(ours) == len(english)
    assert all(a != b for a, b in zip(ours, english, strict=True))


def test_hearts_sentence_uses_the_languages_card_letters() -> None:
    with translation.override("it"):
        lines = describe_ruleset_localised(barbu.PRESETS["italian7"])
    assert "Cuori: ogni carta di cuori presa vale (A -4, K -4, D -4, F -4, 10 -4," in " ".join(
        lines
    )
