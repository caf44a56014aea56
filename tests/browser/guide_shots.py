"""The screenshots the guides show (docs/img/), and how each is taken from the demo clubs.

Each shot is a page of the demo opened in Chromium at a phone's width (390 px) or a
laptop's (1200 px), made ready (a seat or a line chosen, scrolled to what the guide
talks about) and photographed as the screen shows it (the viewport, not the whole page),
then reduced to a palette of colours so the PNGs stay small. `make docs-screenshots`
writes them into docs/img/ (tests/browser/test_guide_images.py); the guides name them
as `img/<name>.png`, and tests/config/test_docs_images.py checks both sets agree.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from django.urls import reverse
from django.utils import translation

ROOT = Path(__file__).resolve().parents[2]
IMAGES = ROOT / "docs" / "img"
GUIDES = ROOT / "docs"

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1200, "height": 760}
# The colours a shot keeps: a page of text, borders and a few badges needs no more, and a
# palette PNG is a quarter of a full-colour one.
COLOURS = 96

# A picture in Markdown: `![what it shows](img/<name>.png)` in a guide, `../img/` from
# docs/rules/, `docs/img/` from the README.
IMAGE_LINK = re.compile(r"\]\(((?:\.\./|docs/)?img/[\w.-]+\.png)\)")
CODE = re.compile(r"```.*?```|`[^`\n]+`", re.S)
MARKDOWN = [ROOT / "README.md", *sorted(GUIDES.rglob("*.md"))]


@dataclass(frozen=True)
class Shot:
    """One screenshot: its file name, the screen, the language, whether it needs the
    organiser's login, the page's address (read from the demo when taken), and what to do
    on the page before the picture (choose a line, scroll)."""

    name: str
    viewport: dict[str, int]
    language: str
    organiser: bool
    path: Callable[[str], str]
    prepare: Callable[[object], None] | None = None


def localised(name: str, language: str, *args: object) -> str:
    with translation.override(language):
        return reverse(name, args=args)


def _barbu_running():
    from demo.loader import DEMO_SLUG
    from games.models import Event

    return Event.objects.get(club__slug=DEMO_SLUG, status=Event.Status.RUNNING)


def _burraco_running():
    from demo.burraco.tournaments import BURRACO_SLUG
    from games.models import Event

    return Event.objects.get(club__slug=BURRACO_SLUG, status=Event.Status.RUNNING, individual=False)


def barbu_table(language: str) -> str:
    """The running evening's table with the most deals entered."""
    from games.models import Table

    table = (
        Table.objects.filter(round__event=_barbu_running())
        .order_by("-game__deals_count", "number")
        .first()
    )
    return localised("table-entry", language, table.key)


def burraco_card(language: str) -> str:
    """The running tournament's last turn: a score card whose hands are entered, waiting
    for the other pair."""
    from games.models import Game, ScoreCard

    event = _burraco_running()
    turn = event.rounds.order_by("-number").first()
    game = (
        Game.objects.filter(table__round=turn, card__status=ScoreCard.Status.ENTERED)
        .select_related("table")
        .order_by("table__number")
        .first()
    )
    return localised("burraco-card", language, game.table.key)


def evening(language: str) -> str:
    event = _barbu_running()
    return localised("event-dashboard", language, event.club.slug, event.pk)


def desk(language: str) -> str:
    event = _burraco_running()
    return localised("burraco-desk", language, event.club.slug, event.pk)


def burraco_ranking(language: str) -> str:
    return localised("scoring:event", language, _burraco_running().pk)


def league(language: str) -> str:
    return localised("scoring:league", language, _barbu_running().league_id)


def player(language: str) -> str:
    """The Barbu club's organiser, who plays too: her page has the most to show."""
    from clubs.models import Player
    from demo.loader import ORGANISER_NAME

    return localised("scoring:player", language, Player.objects.get(name=ORGANISER_NAME).pk)


def choose_seat(page) -> None:
    """Sit at the table's first seat, then show the form from the deal's heading."""
    buttons = page.locator("#seat-choice button[name=seat]")
    if buttons.count():
        if page.locator("details#seat-choice").count():
            page.locator("details#seat-choice > summary").click()
        buttons.first.click()
        page.wait_for_load_state()


def choose_confirming_line(page) -> None:
    """The other pair's phone: East-West, which confirms what North-South entered."""
    page.locator("#line-choice button[name=line]").nth(1).click()
    page.wait_for_load_state()


def scroll_to(selector: str) -> Callable[[object], None]:
    def prepare(page) -> None:
        page.locator(selector).first.evaluate("(el) => el.scrollIntoView({block: 'start'})")

    return prepare


SHOTS = (
    Shot("barbu-table-390", PHONE, "en", False, barbu_table, choose_seat),
    Shot("burraco-card-390", PHONE, "en", False, burraco_card, choose_confirming_line),
    Shot("burraco-card-it-390", PHONE, "it", False, burraco_card, choose_confirming_line),
    Shot("player-390", PHONE, "en", False, player),
    Shot("evening-1200", LAPTOP, "en", True, evening),
    Shot("league-1200", LAPTOP, "en", False, league),
    Shot("desk-1200", LAPTOP, "en", True, desk),
    Shot("desk-it-1200", LAPTOP, "it", True, desk),
    Shot("burraco-ranking-1200", LAPTOP, "en", False, burraco_ranking),
)


def shot_names() -> set[str]:
    return {f"{shot.name}.png" for shot in SHOTS}


def referenced_images() -> dict[str, list[str]]:
    """Each image file the guides (and the README) show, with the files showing it."""
    found: dict[str, list[str]] = {}
    for guide in MARKDOWN:
        for link in IMAGE_LINK.findall(prose(guide.read_text())):
            found.setdefault(Path(link).name, []).append(str(guide.relative_to(ROOT)))
    return found


def prose(text: str) -> str:
    """Markdown without its code (where a picture's syntax may be shown, not meant)."""
    return CODE.sub("", text)


def compressed(png: bytes) -> bytes:
    """A screenshot reduced to COLOURS colours, as an optimised palette PNG."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    palette = image.quantize(colors=COLOURS, method=Image.Quantize.MEDIANCUT, dither=0)
    out = io.BytesIO()
    palette.save(out, format="PNG", optimize=True)
    return out.getvalue()


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
