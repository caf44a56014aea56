"""A Burraco tournament's papers and pages for the room: each entry's page (its seat in
every turn), a turn's pairing sheet and the ranking after a turn on A4 (every name
printed, nothing cut or in the margins, in Italian and English), the room screen's
answer (304 while nothing changed), and the withdrawn and short-card marks on the public
ranking, its CSV and its PDF."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from games.burraco.results import tie_breaks_of, turn_scores
from scoring.burraco.seating import entry_marks
from scoring.engine.burraco.ranking import rank_pairs
from tests.print_checks import (
    a4_problems,
    ink_in_margin,
    needs_poppler,
    pdf_pages,
    pdf_to_png,
    words_outside,
)
from tests.scoring.burraco.day import day

pytestmark = pytest.mark.django_db

SHOTS = Path(os.environ.get("PAGE_SCREENSHOTS", settings.BASE_DIR / "var" / "screenshots"))


def _get(client: Client, name: str, *args, language: str = "en"):
    with translation.override(language):
        url = reverse(name, args=args)
    return client.get(url)


def test_marks_say_who_withdrew_and_whose_card_was_short() -> None:
    event = day()
    turn1 = event.rounds.get(number=1)
    short = turn1.tables.get(number=2)
    marks = entry_marks(event)
    assert marks[7].withdrawn_after == 1 and marks[7].short == []
    for entry in (short.ns_pair.number, short.ew_pair.number):
        assert marks[entry].short == [1] and marks[entry].withdrawn_after is None
    assert len(marks) == 3


def test_a_turns_ranking_carries_the_marks_of_that_turn_and_before() -> None:
    from scoring.burraco.seating import Marks, marks_until

    marks = {1: Marks(2, []), 2: Marks(None, [1, 3]), 3: Marks(0, []), 4: Marks(None, [3])}
    assert marks_until(marks, 1) == {2: Marks(None, [1]), 3: Marks(0, [])}
    assert marks_until(marks, 3) == marks


def test_an_entry_page_gives_its_seat_in_every_turn(client: Client) -> None:
    event = day()
    turn2 = event.rounds.get(number=2)
    table = turn2.tables.order_by("number").first()
    ns, ew = table.ns_pair, table.ew_pair
    page = _get(client, "scoring:burraco-entry", event.pk, ns.number).content.decode()
    assert f"table {table.number} NS against pair {ew.number} (" in page
    assert f"Pair {ns.number}: {ns.names}" in page
    page = _get(client, "scoring:burraco-entry", event.pk, ew.number).content.decode()
    assert f"table {table.number} EW against pair {ns.number} (" in page
    italian = _get(client, "scoring:burraco-entry", event.pk, ew.number, language="it")
    text = italian.content.decode()
    assert f"tavolo {table.number} EO contro la coppia {ns.number} (" in text
    # The withdrawn pair: its seat of turn 1, none in turn 2, and the mark.
    page = _get(client, "scoring:burraco-entry", event.pk, 7).content.decode()
    assert "withdrawn after turn 1" in page and 'id="seat-turn-2"' in page
    assert _get(client, "scoring:burraco-entry", event.pk, 99).status_code == 404
    # Each entry's page is reached from the tournament's page.
    event_page = _get(client, "scoring:event", event.pk).content.decode()
    with translation.override("en"):
        assert reverse("scoring:burraco-entry", args=[event.pk, 3]) in event_page


def test_a_private_tournament_keeps_its_papers_private(client: Client) -> None:
    event = day(5)
    event.published = False
    event.save(update_fields=["published"])
    for name, args in (
        ("scoring:burraco-entry", (event.pk, 1)),
        ("scoring:burraco-pairings", (event.pk, 1)),
        ("scoring:burraco-turn-ranking", (event.pk, 1)),
        ("scoring:burraco-screen", (event.pk,)),
    ):
        assert _get(client, name, *args).status_code == 404, name


def test_the_public_ranking_and_its_csv_carry_the_marks(client: Client) -> None:
    event = day()
    short = event.rounds.get(number=1).tables.get(number=2).ns_pair.number
    page = _get(client, "scoring:event", event.pk).content.decode()
    row = page[page.index(f'id="pair-row-{short}"') :]
    assert "short card in turn 1" in row[: row.index("</tr>")]
    row = page[page.index('id="pair-row-7"') :]
    assert "withdrawn after turn 1" in row[: row.index("</tr>")]
    italian = _get(client, "scoring:event", event.pk, language="it").content.decode()
    assert "ritirata dopo il turno 1" in italian and "segnapunti corto nel turno 1" in italian
    response = _get(client, "scoring:event-csv", event.pk)
    lines = list(csv.reader(io.StringIO(response.content.decode().lstrip("\ufeff"))))
    assert lines[0][-1] == "Notes"
    notes = {int(line[1]): line[-1] for line in lines[1:]}
    assert notes[7] == "withdrawn after turn 1"
    assert notes[short] == "short card in turn 1"
    assert sum(1 for n in notes.values() if n) == 3


def test_the_room_screen_is_a_304_while_nothing_changed(
    client: Client, django_assert_num_queries
) -> None:
    event = day()
    first = _get(client, "scoring:burraco-screen", event.pk)
    assert first.status_code == 200 and first["ETag"]
    text = first.content.decode()
    assert 'id="screen-seating"' in text and 'id="screen-ranking"' in text
    assert "Turn 2: who plays where" in text
    with translation.override("en"):
        url = reverse("scoring:burraco-screen", args=[event.pk])
    with django_assert_num_queries(0):
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def _engine_ranking(event, turn: int) -> list[tuple[int, int]]:
    scores = [s for s in turn_scores(event.pk) if s.turn <= turn]
    numbers = list(event.pairs.values_list("number", flat=True))
    return [(r.place, r.pair) for r in rank_pairs(scores, tie_breaks_of(event), None, numbers)]


@needs_poppler
@pytest.mark.parametrize("language", ["it", "en"])
def test_the_pairing_sheet_prints_every_table_on_a4(client: Client, language: str) -> None:
    event = day(27, long_names=True)
    turn = event.rounds.get(number=2)
    response = _get(client, "scoring:burraco-pairings", event.pk, 2, language=language)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    data = response.content
    pdf_to_png(data, SHOTS / "print" / language / "burraco-pairings", dpi=80)
    pages = pdf_pages(data)
    assert len(pages) == 1
    assert not a4_problems(pages)
    assert not words_outside(pages, margin_mm=9)
    assert not ink_in_margin(data, margin_mm=8)
    words = {w.text for w in pages[0].words}
    text = " ".join(w.text for w in pages[0].words)
    for table in turn.tables.select_related("ns_pair__player_a", "ew_pair__player_b"):
        assert str(table.number) in words
        assert table.ns_pair.player_a.name.split()[-1] in words
        assert table.ew_pair.player_b.name.split()[-1] in words
    for part in ("Maximiliane", "Hohenzollern-", "Sigmaringen", "Brünhild"):
        assert part in text, f"{part!r} of a long name is cut"
    heading = {"en": "Turn 2: pairings", "it": "Turno 2: tabellone"}[language]
    assert heading in text
    assert ("EO" if language == "it" else "EW") in words


@needs_poppler
@pytest.mark.parametrize("language", ["it", "en"])
def test_the_ranking_after_a_turn_prints_that_turns_ranking(client: Client, language: str) -> None:
    event = day(9)
    from tests.games.burraco.builders import play_turn

    play_turn(event.rounds.get(number=2))
    after = {}
    for turn in (1, 2):
        response = _get(client, "scoring:burraco-turn-ranking", event.pk, turn, language=language)
        assert response.status_code == 200
        data = response.content
        pdf_to_png(data, SHOTS / "print" / language / f"burraco-ranking-turn-{turn}", dpi=80)
        pages = pdf_pages(data)
        assert not a4_problems(pages)
        assert not words_outside(pages, margin_mm=9)
        assert not ink_in_margin(data, margin_mm=8)
        words = [w for p in pages for w in p.words]
        text = " ".join(w.text for w in words)
        status = {
            "en": f"Ranking after turn {turn} of 4",
            "it": f"Classifica dopo il turno {turn} di 4",
        }
        assert status[language] in text
        # The places and pairs, read row by row off the page: the engine's after that turn.
        rows = []
        for w in words:  # a place: the first word of its line, a number
            line = sorted(
                (v for v in words if abs(v.y0 - w.y0) < 2 and v.page == w.page), key=lambda v: v.x0
            )
            if w is line[0] and w.text.rstrip("=").isdigit() and line[1].text.isdigit():
                rows.append((int(w.text.rstrip("=")), int(line[1].text)))
        after[turn] = rows
        assert rows == _engine_ranking(event, turn), turn
        withdrawn = {"en": "withdrawn after turn 1", "it": "ritirata dopo il turno 1"}[language]
        assert withdrawn in text
    assert after[1] != after[2]
    assert _get(client, "scoring:burraco-turn-ranking", event.pk, 3).status_code == 404


def _queries(client: Client, name: str, args) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert _get(client, name, *args).status_code == 200
    return len(queries)


def test_the_lists_cost_the_same_queries_for_few_and_many_pairs(client: Client) -> None:
    from tests.games.burraco.builders import burraco_club

    small, large = day(5), day(21, club=burraco_club("Circolo Grande"))
    for name, args in (
        ("scoring:burraco-entry", lambda e: (e.pk, 1)),
        ("scoring:burraco-screen", lambda e: (e.pk,)),
        ("scoring:burraco-pairings", lambda e: (e.pk, 2)),
        ("scoring:burraco-turn-ranking", lambda e: (e.pk, 2)),
    ):
        few = _queries(client, name, args(small))
        many = _queries(Client(), name, args(large))
        assert few == many, f"{name}: {few} queries for 5 pairs, {many} for 21"


def test_an_individual_tournament_names_partners_and_opponents(client: Client) -> None:
    from tests.games.burraco.builders import played_individual

    event = played_individual(8)
    table = event.rounds.get(number=1).tables.get(number=1)
    north, south = table.ns_pair, table.ns_partner
    page = _get(client, "scoring:burraco-entry", event.pk, north.number).content.decode()
    assert f"Player {north.number}: {north.names}" in page
    assert f"with {south.number} – {south.names}, against {table.ew_pair.number} " in page
    sheet = _get(client, "scoring:burraco-pairings", event.pk, 1)
    assert sheet.status_code == 200 and sheet.content.startswith(b"%PDF")
