"""One way to read an organiser's CSV (clubs/csv_text.py): a spreadsheet's export as it
comes, and the players' import that reads it (issue 31: an Italian export
``nome;email;ruolo`` with a byte-order mark and CRLF was taken as garbage names)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from clubs import services
from clubs.csv_text import csv_rows, decode_upload, header_columns
from clubs.models import Membership, Player
from tests.factories import make_club, make_organiser

ITALIAN_EXPORT = (
    "\ufeffnome;email;ruolo\r\nAnna Rossi;anna@example.org;socio\r\nBruno Neri;;ospite\r\n"
)


def test_semicolons_bom_and_crlf_are_read_as_cells() -> None:
    assert csv_rows(ITALIAN_EXPORT) == [
        (1, ["nome", "email", "ruolo"]),
        (2, ["Anna Rossi", "anna@example.org", "socio"]),
        (3, ["Bruno Neri", "", "ospite"]),
    ]


def test_commas_tabs_and_quotes() -> None:
    assert csv_rows('a,"b, c"\n\n d ,e\n') == [(1, ["a", "b, c"]), (3, ["d", "e"])]
    assert csv_rows("a\tb\r\nc\td") == [(1, ["a", "b"]), (2, ["c", "d"])]
    assert csv_rows("Anna Rossi\nBruno") == [(1, ["Anna Rossi"]), (2, ["Bruno"])]
    assert csv_rows("\ufeff\r\n") == []


def test_excel_windows_1252_is_decoded() -> None:
    assert decode_upload("Niccolò;Agnès".encode("cp1252")) == "Niccolò;Agnès"
    assert decode_upload("\ufeffNiccolò".encode()) == "Niccolò"


def test_header_names_in_any_language_and_case() -> None:
    names = {"nome": "name", "name": "name", "e-mail": "email"}
    assert header_columns(["Nome", "E_Mail", "tessera"], names) == ["name", "email", "tessera"]
    assert header_columns(["Anna", "anna@example.org"], names) is None


@pytest.mark.django_db
def test_an_italian_export_imports_real_players() -> None:
    club = make_club()
    preview = services.players_import_preview(club=club, text=ITALIAN_EXPORT)
    assert preview.ok, [line.errors for line in preview.lines]
    assert [(line.line, line.name, line.email, line.role) for line in preview.lines] == [
        (2, "Anna Rossi", "anna@example.org", "member"),
        (3, "Bruno Neri", "", "guest"),
    ]
    services.players_import(club=club, text=ITALIAN_EXPORT)
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Anna Rossi", "Bruno Neri"]
    assert Membership.objects.get(player__name="Bruno Neri").role == "guest"


@pytest.mark.django_db
def test_an_unknown_column_is_named_and_nothing_is_read() -> None:
    preview = services.players_import_preview(club=make_club(), text="nome;cognome\nAnna;Rossi")
    assert not preview.ok and "cognome" in preview.errors[0]


@pytest.mark.django_db
def test_the_page_takes_a_windows_1252_file() -> None:
    club = make_club()
    client = Client()
    client.force_login(make_organiser(club, "boss"))
    data = "nome;ruolo\r\nNiccolò Bianchi;socio\r\n".encode("cp1252")
    upload = SimpleUploadedFile("soci.csv", data)
    answer = client.post(
        reverse("club-players-import", args=[club.slug]), {"file": upload, "confirm": "1"}
    )
    assert answer.status_code == 302
    assert Player.objects.filter(name="Niccolò Bianchi").exists()


@pytest.mark.django_db
def test_the_players_import_takes_membership_numbers() -> None:
    club = make_club()
    services.player_add(club=club, name="Zeno", federation_number="IT009")
    text = "nome;tessera\nAnna;IT001\nBruno;IT001\nCarla;IT009\nDario;\nEva;abc\n"
    preview = services.players_import_preview(club=club, text=text)
    errors = {line.name: " ".join(line.errors) for line in preview.lines}
    assert errors["Anna"] == "" and errors["Dario"] == ""
    assert "already Anna's" in errors["Bruno"] and "already Zeno's" in errors["Carla"]
    assert "not a membership number" in errors["Eva"]
    services.players_import(club=club, text=text, skip_bad_lines=True)
    assert Membership.objects.get(club=club, player__name="Anna").federation_number == "IT001"
