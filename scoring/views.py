"""Public pages: club, live evening leaderboard, league table, player, score sheet, exports."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_safe

from clubs.engine_words import contract_name
from clubs.language import offer_club_language
from games.barbu.deal_form import contract_label
from games.barbu.selectors import seat_notes
from games.core import live
from games.core.short_names import name_pairs
from games.models import Event
from scoring import charts, selectors
from scoring.barbu import exports as barbu_exports
from scoring.barbu import player_history
from scoring.barbu import selectors as barbu_selectors
from scoring.barbu.aggregates import ranking_of
from scoring.burraco import exports as burraco_exports
from scoring.burraco import player as burraco_player
from scoring.burraco import seating
from scoring.burraco import selectors as burraco_selectors
from scoring.exports import csv_download

RANKING_ROWS = 50
"""How many rows of a longer ranking an evening's page and its live part show, unless
asked for the whole (`?all=1`, one tap away). A 150-table evening's whole ranking is 600
rows, about 7,000 elements that a slow phone parsed and laid out again at every poll: 0.7
of each second (bench/bench_viewer.py)."""


def _whole(request: HttpRequest) -> bool:
    """Whether the visitor asked for the whole ranking (and every Burraco turn's tables)."""
    return request.GET.get("all") == "1"


def _live_etag(request: HttpRequest, token: str | None, path: str | None = None) -> str:
    """The live part's ETag: the evening's version, what decides the page's language
    (games/core/live.py) and whether the whole ranking was asked for; `path`: the live
    part's URL, when the request is for another."""
    shown = "whole" if _whole(request) else "first"
    return live.etag(token, "event-live", live.language_inputs(request, path), shown)


def _first_rows(request: HttpRequest, context: dict) -> None:
    """The ranking cut to its first RANKING_ROWS rows unless the whole was asked for;
    `context["ranking"]` says how many there are and whether they are all shown."""
    rows = context["standings"]
    whole = _whole(request)
    long = len(rows) > RANKING_ROWS
    context["ranking"] = {
        "total": len(rows),
        "shown": RANKING_ROWS,
        "long": long,
        "whole": whole,
        # How often the live part polls: a long whole ranking every third second, as a
        # slow phone takes over a second to lay it out again (bench/RESULTS.md, "A viewer
        # at a big evening").
        "every": "3s" if long and whole else "1s",
    }
    if not whole:
        context["standings"] = rows[:RANKING_ROWS]


def export(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A file download that answers HEAD too: GET's headers, Content-Length included, no body.

    (A link checker or a browser asking what the file is before fetching it.)
    """

    @require_safe
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        response["Content-Length"] = str(len(response.content))
        if request.method == "HEAD":
            response.content = b""
        return response

    return wrapper


def _live_context(request: HttpRequest, event: Event, token: str | None) -> dict:
    """What every live part needs: the ETag it is sent with (of `token`, the evening's
    version read before the data it labels) and whether every visitor gets the same."""
    # The URL the page polls carries the page's language (a club's Italian page: /it/...).
    path = reverse("scoring:event-live", args=[event.pk])
    return {
        "event": event,
        "live_etag": _live_etag(request, token, path),
        "public": event.public,
    }


def _event_context(request: HttpRequest, event: Event, token: str | None) -> dict:
    who = selectors.viewer(request.user)
    tables = barbu_selectors.event_tables(event)
    context = {
        **_live_context(request, event, token),
        "standings": barbu_selectors.event_standings(event.pk),
        "tables": tables,
        "standings_status": barbu_selectors.standings_status(event, tables),
        "organiser": who.organiser_of(event.club_id),
    }
    _first_rows(request, context)
    return context


def _shown_event(request: HttpRequest, pk: int) -> tuple[Event, str | None]:
    """The evening (404 for whoever may not see it) and its live version, read first."""
    token = live.version("event", pk)  # before the reads it labels
    event = selectors.visible_event(pk, selectors.viewer(request.user))
    offer_club_language(request, event.club)
    return event, token


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The site's front page: public clubs, evenings running now, recent results."""
    managed = selectors.managed_clubs(selectors.viewer(request.user))
    return render(request, "home.html", {"managed": managed, **selectors.home_page()})


@require_GET
def club(request: HttpRequest, slug: str) -> HttpResponse:
    who = selectors.viewer(request.user)
    club = selectors.visible_club(slug, who)
    offer_club_language(request, club)
    context = {
        "club": club,
        "organiser": who.organiser_of(club.pk),
        **selectors.club_page(club, who),
    }
    return render(request, "scoring/club.html", context)


def _burraco_context(request: HttpRequest, event: Event, token: str | None) -> dict:
    context = {
        **_live_context(request, event, token),
        "standings": selectors.pair_standings(event.pk),
    }
    _first_rows(request, context)
    if event.is_free_matches:
        context["matches"] = burraco_selectors.evening_matches(event)
        context["target"] = event.ruleset.get("options", {}).get("target")
    else:
        turns = selectors.burraco_turns(event)
        if context["ranking"]["long"] and not context["ranking"]["whole"]:
            # A big tournament's earlier turns show their prints, not their tables again.
            for turn in turns[:-1]:
                turn["folded"] = True
        context["turns"] = turns
        # Withdrawn, short cards (scoring/burraco/seating.py): two queries.
        seating.with_marks(context["standings"], seating.entry_marks(event))
    return context


def _burraco_template(event: Event, live_part: bool = False) -> str:
    name = "free_" if event.is_free_matches else ""
    return f"scoring/burraco/_{name}live.html" if live_part else f"scoring/burraco/{name}event.html"


@require_GET
def event(request: HttpRequest, pk: int) -> HttpResponse:
    shown, token = _shown_event(request, pk)
    if shown.is_burraco:
        context = _burraco_context(request, shown, token)
        context["organiser"] = selectors.viewer(request.user).organiser_of(shown.club_id)
        if not shown.is_free_matches:  # each entry's page: its seat in every turn
            context["entries"] = list(shown.pairs.values_list("number", flat=True))
        return render(request, _burraco_template(shown), context)
    context = _event_context(request, shown, token)
    ranking = barbu_selectors.event_ranking(shown)
    context["explanation"] = barbu_selectors.explain_ranking(ranking, league=False)
    context["method"] = ranking.method
    return render(request, "scoring/event.html", context)


@require_GET
def event_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The part of the evening page HTMX polls every second, with the ETag it was given:
    304 without a database query while nothing changed, and one render per change for
    every viewer of a public evening (the answer is cached under its ETag), for a
    Barbu evening's or a Burraco tournament's."""
    tag = _live_etag(request, live.version("event", pk))
    unchanged = live.not_modified(request, tag)
    if unchanged is not None:
        return unchanged
    body = live.cached_body(tag)
    if body is None:
        shown, token = _shown_event(request, pk)
        if shown.is_burraco:
            context = _burraco_context(request, shown, token)
            template = _burraco_template(shown, live_part=True)
        else:
            context = _event_context(request, shown, token)
            context["method"] = barbu_selectors.event_ranking(shown).method
            template = "scoring/_event_live.html"
        tag = context["live_etag"]
        body = render_to_string(template, context, request).encode()
        if context["public"]:  # the same answer for every visitor: keep it for them
            live.keep_body(tag, body)
    return live.mark(request, HttpResponse(body), tag)


@require_GET
def league(request: HttpRequest, pk: int) -> HttpResponse:
    who = selectors.viewer(request.user)
    league = selectors.visible_league(pk, who)
    offer_club_language(request, league.club)
    events = league.events.visible_to(request.user).order_by("-starts_at", "-id")
    if league.game == "burraco":
        context = {"league": league, "events": list(events)}
        context.update(burraco_selectors.season(league))
        # A league of evenings of free matches: matches won and lost over the season.
        if burraco_selectors.plays_free_matches(league):
            context["free"] = burraco_selectors.free_season(league)
        return render(request, "scoring/burraco/league.html", context)
    ranking = ranking_of(league)
    context = {
        "league": league,
        "standings": barbu_selectors.league_standings(league.pk),
        "events": list(events),
        "explanation": barbu_selectors.explain_ranking(ranking, league=True),
        "method": ranking.method,
    }
    return render(request, "scoring/league.html", context)


@require_GET
def player(request: HttpRequest, pk: int) -> HttpResponse:
    who = selectors.viewer(request.user)
    person = selectors.visible_player(pk, who)
    games = player_history.player_games(person, who)
    rating = barbu_selectors.player_rating(person, who)
    stats = barbu_selectors.contract_statistics(person, who)
    for row in stats:
        row["name"] = contract_name(row["contract"])
    running = 0
    for g in games:
        running += g["total"] or 0
        g["running"] = running
    evenings = barbu_selectors.player_evenings(person, who)
    pairs = burraco_player.player_burraco(person, who)
    context = {
        "player": person,
        "clubs": selectors.player_clubs(person, who),
        "games": list(reversed(games)),
        "evenings": evenings,
        "stats": stats,
        "rating": rating,
        # A player of Burraco only sees no Barbu section (and one of Barbu only no
        # Burraco section); a player with neither yet sees Barbu's empty sections.
        "barbu": bool(games or evenings or stats or rating["ordinal"] is not None) or not pairs,
        "burraco": pairs,
        # One point per evening: the running total, and the rating, the evening ended on.
        "score_chart": charts.line_chart(
            charts.by_evening(games, "running"),
            label=_("Points over the games"),
            value_name=_("Points"),
        ),
        "rating_chart": charts.line_chart(
            charts.by_evening(rating["history"], "ordinal"),
            label=_("Rating over time"),
            value_name=_("Rating"),
            zero_line=False,
        ),
    }
    if pairs:
        context["burraco_chart"] = charts.line_chart(
            charts.by_evening(pairs["rating"]["history"], "ordinal"),
            label=_("Burraco pair rating over time"),
            value_name=_("Rating"),
            zero_line=False,
            tournaments=True,
        )
    return render(request, "scoring/player.html", context)


@require_GET
def game(request: HttpRequest, pk: int) -> HttpResponse:
    who = selectors.viewer(request.user)
    game = selectors.visible_game(pk, who)
    offer_club_language(request, game.table.round.event.club)
    sheet = barbu_selectors.score_sheet(game)
    for row in sheet["rows"]:
        if row["kind"] == "deal":
            # "Atout ♠", "Senza atout": the suit as a sign, not the engine's code (S, NT).
            row["contract_name"] = contract_label(row)
    # Four columns on a phone: the shortest names that tell the players apart.
    sheet["heads"] = name_pairs(sheet["players"])
    context = {
        "game": game,
        "event": game.table.round.event,
        "sheet": sheet,
        "seat_notes": seat_notes(game),
    }
    return render(request, "scoring/game.html", context)


@export
def event_csv(request: HttpRequest, pk: int) -> HttpResponse:
    who = selectors.viewer(request.user)
    event = selectors.visible_event(pk, who)
    offer_club_language(request, event.club)
    if event.is_free_matches:
        rows, _final = burraco_selectors.evening_ranking(event)
        return csv_download(
            burraco_exports.evening_rows(rows), filename=f"event-{event.pk}-ranking.csv"
        )
    if event.is_burraco:
        rows, labels, _final = burraco_selectors.tournament_ranking(event)
        marks = seating.entry_marks(event)
        return csv_download(
            burraco_exports.ranking_rows(rows, labels, individual=event.individual, marks=marks),
            filename=f"event-{event.pk}-ranking.csv",
        )
    status = barbu_selectors.standings_status(event, barbu_selectors.event_tables(event))
    return barbu_exports.standings_csv(
        barbu_selectors.event_standings(event.pk),
        filename=f"event-{event.pk}-standings.csv",
        status=status,
    )


@export
def league_csv(request: HttpRequest, pk: int) -> HttpResponse:
    who = selectors.viewer(request.user)
    league = selectors.visible_league(pk, who)
    offer_club_language(request, league.club)
    if league.game == "burraco" and burraco_selectors.plays_free_matches(league):
        free = burraco_selectors.free_season(league)
        return csv_download(
            burraco_exports.free_season_rows(free["rows"], free["labels"]),
            filename=f"league-{league.pk}-ranking.csv",
        )
    if league.game == "burraco":
        season = burraco_selectors.season(league)
        return csv_download(
            burraco_exports.season_rows(season["rows"], season["labels"]),
            filename=f"league-{league.pk}-ranking.csv",
        )
    return barbu_exports.standings_csv(
        barbu_selectors.league_standings(league.pk),
        filename=f"league-{league.pk}-standings.csv",
        league=True,
    )


@export
def event_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    who = selectors.viewer(request.user)
    event = selectors.visible_event(pk, who)
    offer_club_language(request, event.club)
    if event.is_burraco:
        return _burraco_pdf(event)
    tables = barbu_selectors.event_tables(event)
    data = barbu_exports.evening_pdf(
        event,
        barbu_selectors.event_standings(event.pk),
        tables,
        status=barbu_selectors.standings_status(event, tables),
    )
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="event-{event.pk}-results.pdf"'
    return response


def _burraco_pdf(event: Any) -> HttpResponse:
    """A Burraco tournament's ranking to print: final once closed with every card confirmed
    (an evening of free matches: matches won and lost)."""
    if event.is_free_matches:
        return _free_pdf(event)
    rows, labels, final = burraco_selectors.tournament_ranking(event)
    when = formats.date_format(timezone.localtime(event.starts_at), "DATETIME_FORMAT")
    marks = seating.entry_marks(event)
    data = burraco_exports.ranking_pdf(
        burraco_exports.ranking_rows(rows, labels, individual=event.individual, marks=marks),
        title=f"{event.club.name} – {event.name}",
        subtitle=(
            _("Burraco individual tournament") if event.individual else _("Burraco pair tournament")
        )
        + f" · {when}",
        status=_("Final ranking")
        if final
        else _("Provisional ranking: the tournament is still being played."),
    )
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="event-{event.pk}-ranking.pdf"'
    return response


def _free_pdf(event: Any) -> HttpResponse:
    rows, final = burraco_selectors.evening_ranking(event)
    when = formats.date_format(timezone.localtime(event.starts_at), "DATETIME_FORMAT")
    target = event.ruleset.get("options", {}).get("target")
    data = burraco_exports.ranking_pdf(
        burraco_exports.evening_rows(rows),
        title=f"{event.club.name} – {event.name}",
        subtitle=_("Burraco free matches to %(target)s") % {"target": target} + f" · {when}",
        status=_("Final ranking")
        if final
        else _("Provisional ranking: the evening is still being played."),
    )
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="event-{event.pk}-ranking.pdf"'
    return response
