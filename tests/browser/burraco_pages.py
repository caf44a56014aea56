"""The demo's Burraco pages for the page walk (tests/browser/test_pages.py): the same
shape as its page lists, name -> path, from the Burraco club of demo/burraco/tournaments.py.

Table pages are named "table-..." so that the walk checks them as phone pages (16 px text,
44 px controls, no broken word); `table_variants` opens each with a line chosen (the
hand entry, with the points counted from the cards; the confirmation)."""

from __future__ import annotations

from django.urls import reverse
from django.utils import translation

from clubs.models import Club
from demo.burraco.tournaments import BURRACO_SLUG
from games.models import Event, Game, ScoreCard, ScoreCardRevision


def _localised(name: str, language: str, *args: object) -> str:
    with translation.override(language):
        return reverse(name, args=args)


def _tournaments() -> tuple[Club, Event, Event]:
    club = Club.objects.get(slug=BURRACO_SLUG)
    running = Event.objects.get(club=club, status=Event.Status.RUNNING)
    # The pair tournaments' season (the individual tournament and the free-match evening
    # are closed too: each has its own pages).
    closed = Event.objects.filter(
        club=club, league=running.league, status=Event.Status.CLOSED
    ).order_by("starts_at")
    return club, running, closed.first()


def _individual(club: Club) -> Event:
    """The demo's individual tournament (demo/burraco/individual.py)."""
    return Event.objects.get(club=club, individual=True)


def _free_evening(club: Club) -> Event:
    """The demo's played evening of free matches to 2005, in a league of its own."""
    return Event.objects.get(club=club, burraco_format=Event.BurracoFormat.FREE)


def public_pages(language: str) -> dict[str, str]:
    club, running, closed = _tournaments()
    league = running.league  # the club has two leagues: the tournaments' and the evenings'
    individual = _individual(club)
    free = _free_evening(club)
    return {
        "burraco-free-evening": _localised("scoring:event", language, free.pk),
        "burraco-free-league": _localised("scoring:league", language, free.league_id),
        "burraco-club": _localised("scoring:club", language, club.slug),
        "burraco-league": _localised("scoring:league", language, league.pk),
        "burraco-tournament-live": _localised("scoring:event", language, running.pk),
        "burraco-tournament-closed": _localised("scoring:event", language, closed.pk),
        "burraco-individual": _localised("scoring:event", language, individual.pk),
    }


def _running_games() -> list[Game]:
    _club, running, _closed = _tournaments()
    turn = running.rounds.order_by("-number").first()
    return list(
        Game.objects.filter(table__round=turn).select_related("card", "table").order_by("pk")
    )


def table_pages(language: str) -> dict[str, str]:
    """The running Danese turn's score card at a table with nothing entered yet and at one
    whose hands are entered and wait for the other pair's confirmation."""
    games = _running_games()
    empty = next(g for g in games if g.deals_count == 0)
    entered = next(g for g in games if g.card.status == ScoreCard.Status.ENTERED)
    return {
        "table-burraco-empty": _localised("burraco-card", language, empty.table.key),
        "table-burraco-entered": _localised("burraco-card", language, entered.table.key),
    }


def organiser_pages(language: str) -> dict[str, str]:
    club, running, _closed = _tournaments()
    corrected = (
        ScoreCardRevision.objects.filter(
            round__event__club=club, action=ScoreCardRevision.Action.CORRECTED
        )
        .select_related("game__table__round")
        .first()
    )
    game = corrected.game
    event_id = game.table.round.event_id
    return {
        "manage-burraco-desk": _localised("burraco-desk", language, club.slug, running.pk),
        "manage-burraco-individual": _localised(
            "burraco-desk", language, club.slug, _individual(club).pk
        ),
        "manage-burraco-individual-cards": _localised(
            "table-cards", language, club.slug, _individual(club).pk, 1
        ),
        "manage-burraco-correct": _localised(
            "burraco-card-correct", language, club.slug, event_id, game.pk
        ),
        "manage-burraco-rules": _localised("club-rules", language, club.slug),
        "manage-burraco-free-desk": _localised(
            "burraco-desk", language, club.slug, _free_evening(club).pk
        ),
    }


def table_variants(walk, name: str, axe) -> bool:
    """A Burraco score card with a line chosen: True when `name` is one (the walk's Barbu
    variants do not apply to it)."""
    if not name.startswith("table-burraco-"):
        return False
    page = walk.page
    buttons = page.locator("#line-choice button[name=line]")
    if not buttons.count():
        return True
    if name.endswith("-entered"):
        buttons.nth(1).click()  # EW confirms what NS entered
        page.wait_for_load_state()
        walk.check(f"{name}-confirm", axe)
        return True
    buttons.first.click()
    page.wait_for_load_state()
    walk.check(f"{name}-entry", axe)
    cards = page.locator("#hand-entry input[name=mode][value=cards]")
    if cards.count():
        cards.check(force=True)
        walk.check(f"{name}-entry-cards", axe)
    return True
