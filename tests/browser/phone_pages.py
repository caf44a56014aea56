"""A Barbu evening whose players have long first names ("Valentina", "Francesca",
"Massimiliano"), one game complete and rated, one under way: the pages around its
tables, to open on a phone."""

from __future__ import annotations

import random

from django.urls import reverse
from django.utils import translation

from clubs.models import Player
from games.barbu.submission import deal_submit
from games.models import Game
from scoring.barbu.rating_sync import sync_ratings
from scoring.engine.barbu.randomgame import random_game
from tests.factories import make_club, make_event, make_game, make_organiser

NAMES = ("Valentina Bianchi", "Francesca Ricci", "Massimiliano Neri", "Annamaria Conti")
OTHERS = ("Valentina Russo", "Francesca Greco", "Bartolomeo Gallo", "Mariangela Costa")

# Any element past the screen's right edge (a cell pushed off-screen by a wide figure).
OFF_SCREEN_JS = """() => {
  const out = [];
  const width = document.documentElement.clientWidth;
  for (const el of document.querySelectorAll("main *")) {
    if (!el.getClientRects().length || el.closest(".visually-hidden")) continue;
    const box = el.getBoundingClientRect();
    if (box.width && box.right > width + 1) {
      const text = el.textContent.trim().slice(0, 30);
      out.push(`${el.tagName.toLowerCase()} "${text}" ends at ${Math.round(box.right)} px`);
    }
  }
  return out.slice(0, 10);
}"""


def play(game: Game, deals: int | None = None) -> None:
    """The game's first `deals` deals (all of them by default), from a random valid game."""
    record = random_game(random.Random(game.pk), "italian7", players=list(game.player_names))
    for number, deal in enumerate(record["deals"][:deals], start=1):
        deal_submit(game_id=game.pk, deal={**deal, "number": number}, by_label="Table")


def evening(language: str) -> dict[str, str]:
    """The evening, made in a club of `language`: the pages to open, by name."""
    club = make_club(language=language)
    make_organiser(club)
    event = make_event(club)
    complete = make_game(club, names=NAMES, event=event)
    play(complete)
    running = make_game(club, names=OTHERS, event=event)
    play(running, 5)
    sync_ratings(full=True)
    with translation.override(language):
        rated = Player.objects.filter(name__in=NAMES).select_related("rating")
        lowest = min(rated, key=lambda player: player.rating.ordinal)
        return {
            "table": reverse("table-entry", args=[running.table.key]),
            "score-sheet": reverse("scoring:game", args=[complete.pk]),
            "score-sheet-running": reverse("scoring:game", args=[running.pk]),
            "player": reverse("scoring:player", args=[lowest.pk]),
            "manage-game": reverse("game-deals", args=[club.slug, running.pk]),
        }
