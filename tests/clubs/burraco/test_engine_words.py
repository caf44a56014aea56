"""Burraco's problems in the site's languages: codes, field messages and parameter words."""

from __future__ import annotations

import pytest
from django.utils import translation

from clubs.engine_words import (
    FIELD_MESSAGES,
    MESSAGES,
    problem_message,
    translate_problems,
)
from clubs.engine_words import (
    PARAM_WORDS as SITE_WORDS,
)
from scoring.engine.errors import BURRACO_FIELD_MESSAGES, BURRACO_MESSAGES, PARAM_WORDS
from scoring.engine.records import validate_record
from tests.scoring.engine.burraco.records import hand, line, record

LANGUAGES = ("it", "es", "de", "fr")


def _problem(h):
    (problem,) = validate_record(record([h]))
    return problem


def test_every_burraco_code_and_field_has_the_sites_words():
    assert set(BURRACO_MESSAGES) <= set(MESSAGES)
    assert set(BURRACO_FIELD_MESSAGES) <= set(FIELD_MESSAGES)
    assert {k: set(v) for k, v in PARAM_WORDS.items()} == {k: set(v) for k, v in SITE_WORDS.items()}


@pytest.mark.parametrize("language", LANGUAGES)
def test_parameter_words_are_translated(language):
    for name, words in PARAM_WORDS.items():
        with translation.override(language):
            said = {key: str(SITE_WORDS[name][key]) for key in words}
        with translation.override("en"):
            assert {key: str(SITE_WORDS[name][key]) for key in words} == words
        assert said != words, (language, name)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            "EW: the cards left in hand should be card points, a whole number 0 or more, not -5",
        ),
        (
            "it",
            "EO: le carte rimaste in mano dovrebbero essere punti carta, un numero intero "
            "da 0 in su, non -5",
        ),
        (
            "de",
            "OW: die auf der Hand verbliebenen Karten sollten Kartenpunkte sein, eine ganze "
            "Zahl ab 0, nicht -5",
        ),
    ],
)
def test_a_hand_problem_in_words_of_the_language(language, expected):
    problem = _problem(hand(None, line(0, 0), line(0, -5)))
    assert problem.code == "invalid_points"
    with translation.override(language):
        assert problem_message(problem) == expected
        (translated,) = translate_problems([problem.as_dict()])
    assert translated["hand"] == 1
    assert translated["message"] == expected


def test_kind_words_in_french_and_spanish():
    problem = _problem(hand(None, line(0, 0, semi=-2), line(0, 0)))
    with translation.override("fr"):
        assert problem_message(problem) == (
            "NS : le nombre de burracos semi-propres devrait être un nombre entier de 0 ou plus, "
            "pas -2"
        )
    problem = _problem(hand(None, line({"jokers": 3}, {"jokers": 2}), line(0, 0)))
    with translation.override("es"):
        assert problem_message(problem) == (
            "esta mano cuenta 5 comodines, más que los 4 que tienen dos barajas"
        )


def test_a_field_message_names_the_line():
    problem = _problem({"closed": None, "NS": {"in_hand": 0}, "EW": {"melded": 0, "in_hand": 0}})
    assert problem.message == "the hand does not say what NS melded"
    with translation.override("it"):
        assert problem_message(problem) == "la smazzata non dice cosa ha calato NS"
