"""An individual Burraco tournament's pages speak of players, partners and lines, never of
pairs (issue 18): the desk, the table's phone page in each of its states, the referee's
correction, the public page and its live part, the CSV and PDF ranking, the table cards
and the blank score cards, in the five languages.

The referee's form to seat a turn is left out: it is shared with pair tournaments and
is being reworked on its own."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from games.burraco import scorecards, tournaments
from games.core.errors import EntryError
from games.models import Event, Round
from scoring.rebuild import rebuild_event_standings
from tests.factories import make_organiser
from tests.games.burraco.builders import individual_tournament, play_table, play_turn
from tests.games.burraco.words import PAIR_WORDS, visible_text

pytestmark = pytest.mark.django_db

PDFTOTEXT = "/usr/bin/pdftotext"


def pdf_text(data: bytes, tmp_path: Path) -> str:
    if not Path(PDFTOTEXT).exists():
        pytest.skip(f"{PDFTOTEXT} is not installed (poppler-utils)")
    source = tmp_path / "page.pdf"
    source.write_bytes(data)
    run = subprocess.run([PDFTOTEXT, str(source), "-"], capture_output=True, check=True)
    return run.stdout.decode()


def _scenario() -> tuple[Event, Client, dict[str, str]]:
    """Nine players, turn 1 played (a penalty, a correction), turn 2 under way: table 1
    entered by NS and not confirmed, table 2 with one hand in. Returns the event, the
    referee's client and the pages' URLs."""
    event = individual_tournament(9)
    make_organiser(event.club, "referee")
    referee = Client()
    referee.login(username="referee", password="tavolo-test")
    first = tournaments.turn_seat(event=event, movement="first", seed=3).round
    play_turn(first)
    table = first.tables.select_related("game").get(number=1)
    scorecards.card_correct(
        game_id=table.game.pk,
        hands=[{"mp": {"NS": 300, "EW": 100}}] * 3,
        reason="wrong hand 2",
        by_user=None,
    )
    scorecards.penalty_set(
        round_id=first.pk, pair_id=table.ns_pair_id, vp=1, mp=0, reason="late", by_user=None
    )
    second = tournaments.turn_seat(event=event, movement="individual").round
    entered, opened = second.tables.select_related("game").order_by("number")[:2]
    play_table(entered.game, [(200, 100)] * 3, confirm=False)
    scorecards.hand_submit(game_id=opened.game.pk, hand={"mp": {"NS": 200, "EW": 100}}, line="NS")
    rebuild_event_standings(event_id=event.pk)
    slug = event.club.slug
    urls = {
        "desk": reverse("burraco-desk", args=[slug, event.pk]),
        "correction": reverse("burraco-card-correct", args=[slug, event.pk, table.game.pk]),
        "table cards": reverse("table-cards", args=[slug, event.pk, 2]),
        "public": reverse("scoring:event", args=[event.pk]),
        "live": reverse("scoring:event-live", args=[event.pk]),
        "csv": reverse("scoring:event-csv", args=[event.pk]),
        "pdf": reverse("scoring:event-pdf", args=[event.pk]),
        "score cards": reverse("burraco-score-cards", args=[slug, event.pk, 2]),
        "card entered": reverse("burraco-card", args=[entered.key]),
        "card open": reverse("burraco-card", args=[opened.key]),
    }
    return event, referee, urls


def _at(url: str, language: str) -> str:
    """The URL in `language` (English has no prefix)."""
    return url if language == "en" else f"/{language}{url}"


def _phone_pages(url: str, language: str) -> dict[str, str]:
    """A table's page as a phone sees it before choosing a line, then as NS and as EW;
    then what each line is told when it does what the other line should: EW enters a
    hand NS is entering, NS confirms the hands it entered."""
    pages = {}
    for line in ("", "NS", "EW"):
        phone = Client()
        if line:
            phone.post(_at(url + "line/", language), {"line": line})
        pages[line or "no line"] = phone.get(_at(url, language)).content.decode()
        if line == "EW":
            hand = {"mode": "mp", "NS-mp": "200", "EW-mp": "100"}
            answer = phone.post(_at(url + "hand/", language), hand)
            pages["EW enters"] = answer.content.decode()
        if line == "NS":
            answer = phone.post(_at(url + "confirm/", language), {"agree": "1"})
            pages["NS confirms"] = answer.content.decode()
    return pages


@pytest.mark.parametrize("language", ["en", "it", "es", "de", "fr"])
def test_an_individual_tournament_never_speaks_of_pairs(language, tmp_path, eager_tasks) -> None:
    event, referee, urls = _scenario()
    texts: dict[str, str] = {}
    for name, url in urls.items():
        if name.startswith("card"):
            continue
        answer = referee.get(_at(url, language))
        assert answer.status_code == 200, (name, answer.status_code)
        body = answer.content
        if name in ("pdf", "score cards"):
            texts[name] = pdf_text(body, tmp_path)
        else:
            texts[name] = body.decode("utf-8-sig") if name == "csv" else visible_text(body.decode())
    for name in ("card entered", "card open"):
        for page, html in _phone_pages(urls[name], language).items():
            texts[f"{name}: {page}"] = visible_text(html)
    # The referee penalises someone with no result in the turn: the reason names a player.
    second = Round.objects.get(event=event, number=2)
    with translation.override(language), pytest.raises(EntryError) as refused:
        scorecards.penalty_set(round_id=second.pk, pair_id=0, vp=1, mp=0, reason="x", by_user=None)
    texts["penalty refused"] = refused.value.message
    words = PAIR_WORDS[language]
    found = {
        name: sorted(
            {" ".join(text[m.start() - 50 : m.end() + 30].split()) for m in words.finditer(text)}
        )
        for name, text in texts.items()
        if words.search(text)
    }
    assert not found, found
    # The pages said what they should, in the words of a line and its players.
    with translation.override(language):
        expected = {
            # Not "from either phone" any more (issue 31): the entering phone never confirms.
            "card entered: NS": _(
                "All hands are in: one of the other line's players confirms the score card "
                "on their own phone."
            ),
            "card open: EW": _(
                "The other line enters the hands; you confirm the score card when they are all in."
            ),
            "card entered: NS confirms": _(
                "The line that entered the hands cannot confirm them: the other line does."
            ),
            "card open: EW enters": _(
                "The hands of this table are entered by %(line)s; the other line confirms."
            )
            % {"line": "NS"},
            "desk": _("Turn %(turn)s, player %(player)s: −%(vp)s VP, −%(mp)s MP (%(reason)s)")
            .split(",")[0]
            .replace("%(turn)s", "1"),
        }
    for name, words_said in expected.items():
        assert words_said in " ".join(texts[name].split()), (name, words_said)
