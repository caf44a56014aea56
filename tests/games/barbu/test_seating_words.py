"""The seating explanation of a round: stored as codes, said in the reader's language, in
plain words naming who plays together again; seats numbered from 1."""

from __future__ import annotations

from django.urls import reverse
from django.utils import translation

from games.barbu import evenings
from games.barbu.seating_words import seating_notes, seating_sentences
from games.models import Round, Seat
from tests.factories import make_event, make_player


def checked_in(club, names):
    event = make_event(club)
    players = [make_player(club, name) for name in names]
    evenings.checkin_set(event=event, player_ids=[p.pk for p in players])
    return event, players


def test_notes_name_who_plays_together_again_and_who_met_before() -> None:
    notes = seating_notes(
        method="mix",
        tables=[[1, 2, 3, 4], [5, 6, 7, 8]],
        byes=[9],
        met_tonight={frozenset((1, 2))},
        met_before={frozenset((1, 2)), frozenset((5, 8))},
        earlier_rounds=True,
        stopped_by_time_limit=False,
    )
    codes = [n["code"] for n in notes]
    assert codes == [
        "tables",
        "bye_rule",
        "method_mix",
        "meet_again",
        "met_earlier_evenings",
        "first_dealer",
    ]
    assert notes[0]["params"] == {"players": 9, "tables": 2, "byes": [9]}
    assert notes[3]["params"] == {"pairs": [[1, 2, 1]]}
    assert notes[4]["params"] == {"pairs": [[5, 8, 2]]}


def test_a_seated_round_explains_itself_in_each_language(organiser_client, club) -> None:
    names = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
    event, _players = checked_in(club, names)
    evenings.round_seat(event=event, method="mix", seed=1)
    stored = Round.objects.get(event=event).seating_explanation
    assert all(isinstance(note, dict) and "code" in note for note in stored)
    bye = Round.objects.get(event=event).byes.get().name
    with translation.override("en"):
        english = seating_sentences(stored)
    assert english[0] == f"5 players: 1 table of four. {bye} sits out this round."
    assert (
        "At each table, whoever has dealt first least often sits in seat 1 and deals first."
        in english
    )
    assert not any("seat 0" in line for line in english)
    for language in ("it", "es", "de", "fr"):
        with translation.override(language):
            said = seating_sentences(stored)
        assert said[0] != english[0] and bye in said[0], (language, said)
        assert not set(said) & set(english), (language, said)

    # The organiser's round page.
    page = organiser_client.get(
        reverse("round-detail", args=[club.slug, event.pk, 1])
    ).content.decode()
    assert f"5 players: 1 table of four. {bye} sits out this round." in page
    assert "sits in seat 1 and deals first" in page


def test_the_second_round_names_who_meets_again(club) -> None:
    names = ["Anna", "Bruno", "Carla", "Dario"]
    event, _players = checked_in(club, names)
    evenings.round_seat(event=event, method="mix", seed=1)
    Round.objects.filter(event=event).update(status=Round.Status.CLOSED)
    evenings.round_seat(event=event, method="mix", seed=2)
    second = Round.objects.get(event=event, number=2)
    with translation.override("en"):
        said = seating_sentences(second.seating_explanation)
    table = [s.player.name for s in Seat.objects.filter(table__round=second).order_by("position")]
    again = next(line for line in said if line.startswith("Playing together again tonight: "))
    # Four players, one table: all six pairs meet again, each named.
    assert again.count("(table 1)") == 6
    for name in table:
        assert name in again


def test_rounds_stored_in_english_sentences_are_still_shown() -> None:
    assert seating_sentences(["13 players, 1 round of 3 tables of four."]) == [
        "13 players, 1 round of 3 tables of four."
    ]
