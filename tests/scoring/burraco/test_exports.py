"""CSV of a Burraco ranking (scoring/burraco/exports.py)."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.utils import translation

from scoring.burraco.exports import _widths, ranking_pdf, ranking_rows, season_rows
from scoring.engine.burraco.ranking import TurnScore, rank_pairs, season_ranking
from scoring.exports import _Sheet, csv_download

D = Decimal


def _ranking():
    scores = [
        TurnScore(1, 1, 2, D(13), 800, 500, penalty_vp=D(1), penalty_mp=50),
        TurnScore(1, 2, 1, D(7), 500, 800),
        TurnScore(1, 3, None, D(14), 355, 0),
        TurnScore(2, 1, 3, D(10), 400, 400),
        TurnScore(2, 3, 1, D("10.5"), 400, 400),
        TurnScore(2, 2, None, D(14), 355, 0),
    ]
    return rank_pairs(scores)


def test_rows_of_a_tournament() -> None:
    rows = ranking_rows(_ranking(), {1: "1 – Rossi / Bianchi", 3: "=cmd"})
    assert rows[0] == [
        "Place", "Pair", "Name", "VP", "MP difference", "Turns", "Byes",
        "VP penalty", "MP penalty", "Decided by",
    ]  # fmt: skip
    assert rows[1] == [1, 3, "=cmd", "24.5", "+355", 2, 1, "", "", ""]
    assert rows[2] == [2, 1, "1 – Rossi / Bianchi", "22", "+250", 2, 0, "-1", -50, "VP"]
    assert rows[3] == [3, 2, "", "21", "+55", 2, 1, "", "", "VP"]


def test_csv_download_is_safe_for_spreadsheets() -> None:
    response = csv_download(ranking_rows(_ranking(), {3: "=cmd"}), filename="ranking.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="ranking.csv"' in response["Content-Disposition"]
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    lines = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert lines[1][2] == "'=cmd"
    assert lines[1][4] == "+355" and lines[2][7] == "-1"  # numbers stay numbers
    # Empty cells stay empty (no penalty, nothing decided the first place).
    assert lines[1][7] == lines[1][8] == lines[1][9] == ""


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("it", ["Posizione", "Coppia", "Differenza punti"]),
        ("de", ["Platz", "Paar", "Punktedifferenz"]),
    ],
)
def test_headers_are_translated(language: str, words: list[str]) -> None:
    with translation.override(language):
        header = ranking_rows(_ranking())[0]
    for word in words:
        assert word in header, header


def test_shared_places_and_individuals() -> None:
    rows = rank_pairs([TurnScore(1, 5, None, D(14), 355, 0), TurnScore(1, 9, None, D(14), 355, 0)])
    lines = ranking_rows(rows, individual=True)
    assert lines[0][1] == "Player"
    assert [line[-1] for line in lines[1:]] == ["level", "level"]


def test_rows_of_a_season() -> None:
    events = [_ranking(), _ranking()]
    rows = season_ranking(events, "placement", placement_points=[10, 6, 4])
    lines = season_rows(rows, {3: "Rossi / Bianchi"})
    assert lines[0][:3] == ["Place", "Name", "Points"]
    assert lines[1] == [1, "Rossi / Bianchi", "20", "49", "+710", 2, 2, ""]
    assert lines[2][1:3] == ["1", "12"] and lines[2][-1] == "Points"


@pytest.mark.parametrize(
    ("language", "heads"),
    [("en", ["Tournaments", "Tournaments counted"]), ("it", ["Tornei", "Tornei contati"])],
)
def test_a_seasons_heads_speak_of_tournaments(language: str, heads: list[str]) -> None:
    rows = season_ranking([_ranking()], "vp")
    with translation.override(language):
        lines = season_rows(rows, {3: "Rossi / Bianchi"})
    assert lines[0][5:7] == heads


@pytest.mark.parametrize("language", ["en", "it", "es", "de", "fr"])
@pytest.mark.parametrize("individual", [False, True])
def test_the_ranking_pdf_fits_the_page_in_every_language(language: str, individual) -> None:
    """The columns' widths, each rounded to 0.1 mm, never add up to more than the page
    (fpdf refuses a table wider than the page: the Spanish and French rankings of an
    individual tournament failed with 190.2 mm of 190)."""
    with translation.override(language):
        lines = ranking_rows(_ranking(), {1: "1 – Rossi", 2: "2 – Bianchi"}, individual=individual)
        pdf = _Sheet()
        pdf.add_page()
        widths = _widths(pdf, [[str(c) for c in line] for line in lines], 2)
        assert sum(widths) <= pdf.epw
        assert ranking_pdf(lines, title="T", subtitle="S", status="Final").startswith(b"%PDF")
