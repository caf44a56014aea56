"""games.core.short_names: the shortest names that tell a table's players apart."""

from __future__ import annotations

import pytest

from games.core.short_names import short_names


def test_first_names_when_they_differ() -> None:
    names = ["Valentina Conti", "Paola Giordano", "Martina Esposito", "Anna Rossi"]
    assert short_names(names) == ["Valentina", "Paola", "Martina", "Anna"]


def test_a_shared_first_name_gets_the_surname_initial_and_only_those_players() -> None:
    names = ["Paola Giordano", "Paola Rossi", "Martina Esposito", "Anna Bianchi"]
    assert short_names(names) == ["Paola G.", "Paola R.", "Martina", "Anna"]


def test_surnames_with_the_same_initial_take_as_many_letters_as_needed() -> None:
    names = ["Paola Giordano", "Paola Gilli", "Paola Rossi", "Anna Bianchi"]
    assert short_names(names) == ["Paola Gio.", "Paola Gil.", "Paola R.", "Anna"]


def test_a_one_word_name_next_to_the_same_first_name_keeps_it_and_the_other_is_told_apart() -> None:
    assert short_names(["Anna", "Anna Rossi", "Bruno Neri", "Carla"]) == [
        "Anna",
        "Anna R.",
        "Bruno",
        "Carla",
    ]


def test_the_full_name_is_the_last_resort() -> None:
    # "Maria Rossi" is every shortening of "Maria Rossini" short of the whole name.
    names = ["Maria Rossi", "Maria Rossini", "Luca Neri", "Ugo Bassi"]
    assert short_names(names) == ["Maria Rossi", "Maria Rossini", "Luca", "Ugo"]


def test_compound_surnames_and_extra_spaces() -> None:
    names = ["Maria De Luca", "Maria  Del Monte", "Luca Neri", "Ugo Bassi"]
    assert short_names(names) == ["Maria De L.", "Maria Del.", "Luca", "Ugo"]


@pytest.mark.parametrize(
    "names",
    [
        ["Anna Rossi", "Anna Rossi", "Bruno Neri", "Carla Blu"],
        ["Éva Kovács", "Éva Kiss", "Ödön Nagy", "Zsófia Tóth"],
        ["A B", "A Bc", "A Bcd", "A"],
    ],
)
def test_short_names_are_unique_whenever_the_full_names_are(names: list[str]) -> None:
    short = short_names(names)
    assert len(short) == len(names)
    for i, j in ((i, j) for i in range(4) for j in range(4) if i < j):
        if names[i].split() != names[j].split():
            assert short[i] != short[j], (names, short)
        assert len(short[i]) <= len(" ".join(names[i].split()))
