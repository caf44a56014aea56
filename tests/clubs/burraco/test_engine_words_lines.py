"""Burraco's engine messages in Italian (issue 31, smaller points): a line is "EO", never
the engine's "EW"; one burraco is "1 burraco sporco", not "1 burraco sporchi"."""

from __future__ import annotations

from django.utils import translation

from clubs.engine_words import problem_message


def _it(code: str, **params) -> str:
    with translation.override("it"):
        return problem_message({"code": code, "params": params, "message": "english"})


def test_the_east_west_line_is_eo_in_italian() -> None:
    said = _it("close_without_pozzetto", line="EW")
    assert said.startswith("EO ") and "EW" not in said
    assert _it("close_without_pozzetto", line="NS").startswith("NS ")


def test_one_burraco_is_singular_and_two_plural() -> None:
    one = _it("too_few_wild_cards", line="NS", wild=0, burracos=1)
    assert "1 burraco sporco o semipulito" in one and "sporchi" not in one
    two = _it("too_few_wild_cards", line="NS", wild=1, burracos=2)
    assert "2 burraco sporchi o semipuliti" in two
    assert "1 burraco di 7 carte" in _it("too_few_melded_cards", line="EW", cards=5, burracos=1)
    with translation.override("en"):
        english = problem_message(
            {"code": "too_few_wild_cards", "params": {"line": "EW", "wild": 0, "burracos": 1}}
        )
    assert "1 dirty or semi-clean burraco, which needs a wild card" in english
