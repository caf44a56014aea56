"""A pairing pasted from the referee's desktop program
(games/burraco/movements/pairing_import.py)."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from games.burraco.movement_messages import MOVEMENT_MESSAGES, movement_message
from games.burraco.movements import MovementError, mitchell, round_robin
from games.burraco.movements.pairing_import import format_pairing, parse_pairing
from games.burraco.movements.schedule import Table, Turn


def codes(problems: list) -> list[tuple[str, dict]]:
    return [(p.code, p.params) for p in problems]


def test_commas_semicolons_tabs_spaces_header_and_blank_lines() -> None:
    text = "Table;NS;EW\n\n1, 1, 8\n2;2;9\n3\t3\t10\n  4   4 11  \r\n-, 7\n"
    turn, problems = parse_pairing(text, turn=2)
    assert problems == []
    assert turn is not None
    assert turn.to_json() == {
        "turn": 2,
        "tables": [
            {"table": 1, "NS": 1, "EW": 8},
            {"table": 2, "NS": 2, "EW": 9},
            {"table": 3, "NS": 3, "EW": 10},
            {"table": 4, "NS": 4, "EW": 11},
        ],
        "byes": [7],
    }


def test_bye_words_and_table_order() -> None:
    turn, problems = parse_pairing("\ufeff2 3 4\nBye 5\n1 1 2\nriposo;6\n", pairs=range(1, 7))
    assert problems == []
    assert turn is not None
    assert [t.number for t in turn.tables] == [1, 2]
    assert turn.byes == (5, 6)


def test_every_problem_with_its_line() -> None:
    text = "\n".join(
        [
            "table ns ew",  # 1: header, skipped
            "1, 1, 8",  # 2
            "1, 2, 9",  # 3: table 1 again
            "2, 8, 3",  # 4: pair 8 again
            "3, 4",  # 5: malformed
            "4, 5, 99",  # 6: unknown pair
            "5, x, 6",  # 7: malformed
            "0, 6, 7",  # 8: table 0
            "bye, 1",  # 9: pair 1 again
        ]
    )
    turn, problems = parse_pairing(text, pairs=range(1, 11))
    assert turn is None
    assert codes(problems) == [
        ("table_twice", {"line": 3, "table": 1, "first_line": 2}),
        ("pair_twice", {"line": 4, "pair": 8, "first_line": 2}),
        ("malformed_line", {"line": 5, "text": "3, 4"}),
        ("unknown_pair", {"line": 6, "pair": 99}),
        ("malformed_line", {"line": 7, "text": "5, x, 6"}),
        ("malformed_line", {"line": 8, "text": "0, 6, 7"}),
        ("pair_twice", {"line": 9, "pair": 1, "first_line": 2}),
    ]
    assert "line 3" in problems[0].message
    assert problems[0].as_dict()["code"] == "table_twice"


def test_a_pair_against_itself_and_pair_zero() -> None:
    _turn, problems = parse_pairing("1 3 3\n2 0 4\n")
    assert codes(problems) == [
        ("pair_twice", {"line": 1, "pair": 3, "first_line": 1}),
        ("unknown_pair", {"line": 2, "pair": 0}),
    ]


def test_missing_pairs_and_empty_text() -> None:
    _turn, problems = parse_pairing("1 1 2\n", pairs=[1, 2, 3, 4])
    assert codes(problems) == [("pairs_missing", {"pairs": "3, 4", "count": 2})]
    assert codes(parse_pairing("\n  \nTable NS EW\n")[1]) == [("empty_pairing", {})]


def test_a_long_bad_line_is_shortened() -> None:
    _turn, problems = parse_pairing("1 1 2\n" + "x" * 200)
    assert problems[0].code == "malformed_line"
    assert problems[0].params["line"] == 2
    assert len(problems[0].params["text"]) == 60


def test_a_mitchell_turn_round_trips() -> None:
    for turn in mitchell(15, 3).turns:
        parsed, problems = parse_pairing(
            format_pairing(turn, separator=";"), turn=turn.number, pairs=range(1, 16)
        )
        assert problems == []
        assert parsed == turn


@st.composite
def turns(draw: st.DrawFn) -> Turn:
    pairs = draw(st.integers(2, 60))
    order = draw(st.permutations(range(1, pairs + 1)))
    byes = tuple(sorted(order[: pairs % 2]))
    seated = order[pairs % 2 :]
    numbers = draw(
        st.lists(
            st.integers(1, 200), min_size=len(seated) // 2, max_size=len(seated) // 2, unique=True
        )
    )
    tables = tuple(
        sorted(
            (Table(n, seated[2 * i], seated[2 * i + 1]) for i, n in enumerate(numbers)),
            key=lambda t: t.number,
        )
    )
    return Turn(draw(st.integers(1, 9)), tables, byes)


@settings(max_examples=200, deadline=None)
@given(turns(), st.sampled_from([", ", ";", "\t", " ", " ; "]))
def test_format_then_parse_round_trip(turn: Turn, separator: str) -> None:
    pairs = [p for t in turn.tables for p in (t.ns, t.ew)] + list(turn.byes)
    parsed, problems = parse_pairing(format_pairing(turn, separator), turn=turn.number, pairs=pairs)
    assert problems == []
    assert parsed == turn


# --- the site's words for them (games/burraco/movement_messages.py) ------------------------------


@pytest.mark.parametrize("language", [code for code, _name in django_settings.LANGUAGES])
def test_every_problem_is_said_in_every_language(language: str) -> None:
    text = "t ns ew\n1 1 8\n1 2 9\n2 8 3\n3 4\n4 5 99\n"
    _turn, problems = parse_pairing(text, pairs=range(1, 11))
    _turn, missing = parse_pairing("1 1 2\n", pairs=[1, 2, 3, 4])
    _turn, empty = parse_pairing("")
    with translation.override(language):
        said = [movement_message(p) for p in [*problems, *missing, *empty]]
        as_dict = movement_message(problems[0].as_dict())
    assert as_dict == said[0]
    assert all("%(" not in s for s in said)
    assert "3, 4" in said[-2] and "99" in said[3] and "3 4" in said[2]
    if language != "en":
        english = [p.message for p in [*problems, *missing, *empty]]
        assert not set(said) & set(english)


def test_the_movements_own_errors_are_said_too() -> None:
    with pytest.raises(MovementError) as caught:
        round_robin(6, 9)
    with translation.override("it"):
        said = movement_message(caught.value)
    assert "5" in said and "9" in said and said != caught.value.message
    assert movement_message(MovementError("new_code", "as it came")) == "as it came"
    assert {"malformed_line", "pair_twice", "table_twice", "unknown_pair"} <= set(MOVEMENT_MESSAGES)
