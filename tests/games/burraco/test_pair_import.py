"""Pairs imported at the desk (issue 31, desk item 6): pasted, or a spreadsheet's CSV as an
Italian export writes it, each line two players matched to the club's players (or new
ones) with optional membership numbers; a preview first, every error on its line, and
nothing stored unless every line is right."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.models import Membership, Player
from games.burraco import pair_import, tournaments
from games.core.errors import EntryError
from games.models import BurracoPair, EventLog
from tests.factories import make_organiser, make_player
from tests.games.burraco.builders import burraco_club, tournament

pytestmark = pytest.mark.django_db

ITALIAN = (
    "\ufeffcoppia;giocatore 1;tessera 1;giocatore 2;tessera 2\r\n"
    ";Anna Rossi;IT001;Bruno Neri;\r\n"
    "7;Carla Bianchi;;Dario Verdi;IT004\r\n"
)


@pytest.fixture
def empty():
    club = burraco_club()
    return tournaments.tournament_create(club=club, name="Sabato", starts_at=timezone.now())


def _members(event):
    return {m.player.name: m.federation_number for m in Membership.objects.filter(club=event.club)}


def test_an_italian_export_enters_pairs_with_new_players_and_numbers(empty) -> None:
    make_player(empty.club, "Anna Rossi")
    preview = pair_import.pairs_import_preview(event=empty, text=ITALIAN)
    assert preview.ok, [(x.line, x.errors) for x in preview.lines]
    assert [(x.line, x.number) for x in preview.lines] == [(2, 8), (3, 7)]
    anna, bruno = preview.lines[0].players
    assert not anna.is_new and anna.number_learnt and bruno.is_new
    assert preview.new_players == 3
    assert not BurracoPair.objects.exists() and Player.objects.count() == 1  # a preview only
    pairs = pair_import.pairs_import(event=empty, text=ITALIAN)
    assert [(p.number, p.names) for p in pairs] == [
        (8, "Anna Rossi – Bruno Neri"),
        (7, "Carla Bianchi – Dario Verdi"),
    ]
    assert _members(empty) == {
        "Anna Rossi": "IT001",
        "Bruno Neri": "",
        "Carla Bianchi": "",
        "Dario Verdi": "IT004",
    }
    assert EventLog.objects.filter(event=empty, action="imported").get().detail["pairs"] == [8, 7]


def test_two_names_a_line_pasted_with_commas(empty) -> None:
    pairs = pair_import.pairs_import(event=empty, text="Anna, Bruno\nCarla, Dario\n")
    assert [(p.number, p.names) for p in pairs] == [(1, "Anna – Bruno"), (2, "Carla – Dario")]


def test_extra_separators_and_a_pair_number_first(empty) -> None:
    text = "Anna;Bruno;;\n12;Carla;IT7;Dario;\nEva;IT8;Ivo\n5;Olga;Pia;\n"
    preview = pair_import.pairs_import_preview(event=empty, text=text)
    assert preview.ok, [(x.line, x.errors) for x in preview.lines]
    read = [(x.number, [(p.name, p.number) for p in x.players]) for x in preview.lines]
    assert read == [
        (13, [("Anna", ""), ("Bruno", "")]),
        (12, [("Carla", "IT7"), ("Dario", "")]),
        (14, [("Eva", "IT8"), ("Ivo", "")]),
        (5, [("Olga", ""), ("Pia", "")]),
    ]


def test_a_membership_number_finds_the_player_and_a_wrong_one_is_refused(empty) -> None:
    anna = make_player(empty.club, "Anna Rossi")
    Membership.objects.filter(player=anna).update(federation_number="IT001")
    preview = pair_import.pairs_import_preview(
        event=empty, text="Anna Rossi;IT001;Bruno;\nAnna Rossi;IT009;Carla;\nZeno;IT001;Ugo;\n"
    )
    first, second, third = preview.lines
    assert first.players[0].player == anna and not first.errors
    assert "Anna Rossi's membership number is IT001, not IT009" in second.errors[0]
    assert "Membership number IT001 is Anna Rossi's, not Zeno's" in third.errors[0]


def test_every_error_is_on_its_line_and_nothing_is_stored(empty) -> None:
    eva, ivo = make_player(empty.club, "Eva"), make_player(empty.club, "Ivo")
    tournaments.pair_enter(event=empty, player_a=eva, player_b=ivo)
    text = (
        "Anna;Bruno\n"  # fine
        "Eva;Carla\n"  # Eva plays already
        "Anna;Dario\n"  # Anna also on line 1
        "Ugo;Ugo\n"  # twice the same player
        "1;Olga;Pia\n"  # pair number 1 taken
        "solo\n"  # one cell
        "x;Rita;Sara\n"  # a name where a membership number goes
        "1000;Tina;Vera\n"  # a pair number past 999
    )
    preview = pair_import.pairs_import_preview(event=empty, text=text)
    errors = {x.line: " ".join(x.errors) for x in preview.lines}
    assert errors[1] == ""
    assert "Eva is already in another pair" in errors[2]
    assert "Anna is also on line 1" in errors[3]
    assert "two different players" in errors[4]
    assert "Pair number 1 is already taken" in errors[5]
    assert "1 cells" in errors[6]
    assert "Rita is not a membership number" in errors[7]
    assert "not 1 to 999" in errors[8]
    with pytest.raises(EntryError) as refused:
        pair_import.pairs_import(event=empty, text=text)
    assert refused.value.params["lines"] == [2, 3, 4, 5, 6, 7, 8]
    assert empty.pairs.count() == 1 and not Player.objects.filter(name="Bruno").exists()


def test_a_failure_while_storing_leaves_nothing(empty, monkeypatch) -> None:
    real = tournaments.pair_enter

    def second_fails(**kw):
        if kw["event"].pairs.count() == 1:
            raise IntegrityError("boom")
        return real(**kw)

    monkeypatch.setattr("games.burraco.entries.pair_enter", second_fails)
    with pytest.raises(IntegrityError), transaction.atomic():
        pair_import.pairs_import(event=empty, text="Anna;Bruno\nCarla;Dario\n")
    assert not BurracoPair.objects.exists() and not Player.objects.exists()


def test_an_unknown_column_and_an_individual_tournament_are_said(empty) -> None:
    bad = pair_import.pairs_import_preview(event=empty, text="giocatore 1;giocatore 2;note\na;b;c")
    assert "note" in bad.errors[0]
    individual = tournaments.tournament_create(
        club=empty.club, name="Individuale", starts_at=empty.starts_at, individual=True
    )
    alone = pair_import.pairs_import_preview(event=individual, text="a;b")
    assert "alone, not in pairs" in alone.errors[0]


def test_the_page_previews_a_file_then_imports_and_warns_of_the_mitchell() -> None:
    event = tournament(6)
    tournaments.turn_seat(event=event, movement="first")
    client = Client()
    client.force_login(make_organiser(event.club, "referee"))
    url = reverse("burraco-pairs-import", args=[event.club.slug, event.pk])
    assert client.get(url).status_code == 200
    upload = SimpleUploadedFile("coppie.csv", "Niccolò;Agnès\r\n".encode("cp1252"))
    checked = client.post(url, {"file": upload, "preview": "1"}).content.decode()
    assert 'id="import-preview"' in checked and "Niccolò" in checked and "new player" in checked
    assert not BurracoPair.objects.filter(number=7).exists()
    done = client.post(url, {"text": "Niccolò;Agnès", "confirm": "1"}, follow=True)
    page = done.content.decode()
    assert "1 pair entered." in page
    assert BurracoPair.objects.get(event=event, number=7).late
    assert "an odd field" in page and "Danese" in page
    refused = client.post(url, {"text": "Niccolò;Zita", "confirm": "1"})
    assert refused.status_code == 400 and "nothing was imported" in refused.content.decode()


def test_the_clubs_players_page_shows_the_membership_numbers(empty) -> None:
    pair_import.pairs_import(event=empty, text=ITALIAN)
    client = Client()
    client.force_login(make_organiser(empty.club, "boss"))
    page = client.get(reverse("club-players", args=[empty.club.slug])).content.decode()
    assert '<td data-label="Membership number" class="federation-number">IT004</td>' in page
