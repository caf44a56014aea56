"""Public pages: club, live evening leaderboard, league table, player, score sheet, exports."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from clubs.language import activate_club_language
from games.deal_form import contract_label
from games.short_names import name_pairs
from scoring import charts, exports, selectors
from scoring.messages import contract_name


def _event_context(request: HttpRequest, pk: int) -> dict:
    who = selectors.viewer(request.user)
    event = selectors.visible_event(pk, who)
    activate_club_language(request, event.club)
    tables = selectors.event_tables(event)
    return {
        "event": event,
        "standings": selectors.event_standings(event.pk),
        "tables": tables,
        "standings_status": selectors.standings_status(event, tables),
        "organiser": who.organiser_of(event.club_id),
    }


@require_GET
def club(request: HttpRequest, slug: str) -> HttpResponse:
    who = selectors.viewer(request.user)
    club = selectors.visible_club(slug, who)
    activate_club_language(request, club)
    context = {
        "club": club,
        "organiser": who.organiser_of(club.pk),
        **selectors.club_page(club, who),
    }
    return render(request, "scoring/club.html", context)


@require_GET
def event(request: HttpRequest, pk: int) -> HttpResponse:
    context = _event_context(request, pk)
    ranking = selectors.event_ranking(context["event"])
    context["explanation"] = selectors.explain_ranking(ranking, league=False)
    context["method"] = ranking.method
    return render(request, "scoring/event.html", context)


@require_GET
def event_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The part of the evening page HTMX polls every few seconds."""
    context = _event_context(request, pk)
    context["method"] = selectors.event_ranking(context["event"]).method
    return render(request, "scoring/_event_live.html", context)


@require_GET
def league(request: HttpRequest, pk: int) -> HttpResponse:
    who = selectors.viewer(request.user)
    league = selectors.visible_league(pk, who)
    activate_club_language(request, league.club)
    ranking = selectors.ranking_of(league)
    events = league.events.order_by("-starts_at", "-id")
    if not who.organiser_of(league.club_id):
        events = events.filter(published=True)
    context = {
        "league": league,
        "standings": selectors.league_standings(league.pk),
        "events": list(events),
        "explanation": selectors.explain_ranking(ranking, league=True),
        "method": ranking.method,
    }
    return render(request, "scoring/league.html", context)


@require_GET
def player(request: HttpRequest, pk: int) -> HttpResponse:
    who = selectors.viewer(request.user)
    person = selectors.visible_player(pk, who)
    games = selectors.player_games(person, who)
    rating = selectors.player_rating(person, who)
    stats = selectors.contract_statistics(person, who)
    for row in stats:
        row["name"] = contract_name(row["contract"])
    running, progression = 0, []
    for g in games:
        running += g["total"]
        progression.append(running)
    context = {
        "player": person,
        "games": list(reversed(games)),
        "evenings": selectors.player_evenings(person, who),
        "stats": stats,
        "rating": rating,
        "score_chart": charts.line_chart(progression, label=_("Points over the games")),
        "rating_chart": charts.line_chart(
            [h["ordinal"] for h in rating["history"]],
            label=_("Rating over time"),
            zero_line=False,
        ),
    }
    return render(request, "scoring/player.html", context)


@require_GET
def game(request: HttpRequest, pk: int) -> HttpResponse:
    who = selectors.viewer(request.user)
    game = selectors.visible_game(pk, who)
    activate_club_language(request, game.table.round.event.club)
    sheet = selectors.score_sheet(game)
    for row in sheet["rows"]:
        if row["kind"] == "deal":
            # "Atout ♠", "Senza atout": the suit as a sign, not the engine's code (S, NT).
            row["contract_name"] = contract_label(row)
    # Four columns on a phone: the shortest names that tell the players apart.
    sheet["heads"] = name_pairs(sheet["players"])
    context = {"game": game, "event": game.table.round.event, "sheet": sheet}
    return render(request, "scoring/game.html", context)


@require_GET
def event_csv(request: HttpRequest, pk: int) -> HttpResponse:
    who = selectors.viewer(request.user)
    event = selectors.visible_event(pk, who)
    activate_club_language(request, event.club)
    status = selectors.standings_status(event, selectors.event_tables(event))
    return exports.standings_csv(
        selectors.event_standings(event.pk),
        filename=f"event-{event.pk}-standings.csv",
        status=status,
    )


@require_GET
def league_csv(request: HttpRequest, pk: int) -> HttpResponse:
    who = selectors.viewer(request.user)
    league = selectors.visible_league(pk, who)
    activate_club_language(request, league.club)
    return exports.standings_csv(
        selectors.league_standings(league.pk),
        filename=f"league-{league.pk}-standings.csv",
        league=True,
    )


@require_GET
def event_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    who = selectors.viewer(request.user)
    event = selectors.visible_event(pk, who)
    activate_club_language(request, event.club)
    tables = selectors.event_tables(event)
    data = exports.evening_pdf(
        event,
        selectors.event_standings(event.pk),
        tables,
        status=selectors.standings_status(event, tables),
    )
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="event-{event.pk}-results.pdf"'
    return response
