"""The table page and the public score sheet show the shortest names unique at the table,
and keep the full names for screen readers."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_game
from tests.games.barbu.table.pages import entry_url

NAMES = ("Paola Giordano", "Paola Gilli", "Martina Esposito", "Valentina Conti")


@pytest.fixture
def paolas(club):
    return make_game(club, names=NAMES)


def shown(short: str, full: str) -> str:
    return f'<span aria-hidden="true">{short}</span><span class="visually-hidden">{full}</span>'


def test_table_page_buttons_and_heads_use_unique_short_names(client, paolas):
    html = client.get(entry_url(paolas)).content.decode()
    # The score table's heads.
    thead = html.split("<thead>")[1].split("</thead>")[0]
    for short, full in (("Paola Gio.", "Paola Giordano"), ("Paola Gil.", "Paola Gilli")):
        assert shown(short, full) in thead
    assert shown("Martina", "Martina Esposito") in thead
    # The king of hearts' buttons (one per player) and the doubles' buttons.
    assert html.count(shown("Valentina", "Valentina Conti")) >= 1 + 1 + 1 + 2
    # The card grids' heads are short; each box is still named by card and full name.
    assert '<span class="head" aria-hidden="true">Paola Gio.</span>' in html
    assert (
        '<span class="visually-hidden">A♥: </span><span class="name">Paola Giordano</span>' in html
    )
    # The players' line keeps the full names.
    assert "Paola Giordano · Paola Gilli · Martina Esposito · Valentina Conti" in html
    # No button shows a name two players share.
    assert '<span aria-hidden="true">Paola</span>' not in html


def test_distinct_first_names_show_alone(client, club):
    game = make_game(club, names=("Anna Rossi", "Bruno Neri", "Carla Blu", "Dario Verdi"))
    html = client.get(entry_url(game)).content.decode()
    assert shown("Anna", "Anna Rossi") in html
    assert '<span class="head" aria-hidden="true">Dario</span>' in html


def test_score_sheet_heads_use_unique_short_names(client, paolas):
    html = client.get(reverse("scoring:game", args=[paolas.pk])).content.decode()
    assert shown("Paola Gil.", "Paola Gilli") in html
    assert shown("Valentina", "Valentina Conti") in html


def test_all_the_rest_buttons_wait_for_the_script(client, paolas):
    html = client.get(entry_url(paolas)).content.decode()
    for kind, card in (("hearts", "heart"), ("queens", "queen")):
        button = (
            f'<button type="button" class="secondary rest" data-rest="{kind}" data-seat="1" '
            f'data-rest-row hidden aria-label="Every {card} not yet given to Paola Gilli">'
            + shown("Paola Gil.", "Paola Gilli")
            + "</button>"
        )
        assert button in html
