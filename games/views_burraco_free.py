"""The organiser's desk of a Burraco evening of free matches: pairs entered (the
tournament desk's own views), tables of two pairs formed for a match, each match's state
and score card, the evening closed. Organisers of the club only; each view calls a
service (games/burraco/free_matches.py)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.models import Club
from clubs.views import organiser_required
from games import closing
from games.burraco import free_matches
from games.errors import EntryError
from games.forms_burraco import FreeMatchForm
from games.models import BurracoPair, Event, Game


def _free_event(club: Club, event_id: int) -> Event:
    return get_object_or_404(
        Event, club=club, pk=event_id, game="burraco", burraco_format=Event.BurracoFormat.FREE
    )


def _pairs(event: Event) -> list[tuple[int, str]]:
    return [
        (p.pk, str(p))
        for p in event.pairs.filter(active=True).select_related("player_a", "player_b")
    ]


def _matches(event: Event) -> list[dict[str, Any]]:
    """Every match of the evening, by table then in the order played (one query)."""
    games = (
        Game.objects.filter(table__round__event=event)
        .select_related(
            "card", "table__round", "table__ns_pair__player_a", "table__ns_pair__player_b"
        )
        .select_related("table__ew_pair__player_a", "table__ew_pair__player_b")
        .order_by("table__number", "table__round__number")
    )
    out = []
    seen: dict[int, int] = {}
    for game in games:
        table = game.table
        seen[table.number] = seen.get(table.number, 0) + 1
        out.append({"game": game, "table": table, "card": game.card, "match": seen[table.number]})
    return out


def free_desk_context(event: Event, forms: dict[str, Any]) -> dict[str, Any]:
    """What the free-match desk shows beside the pairs (the tournament desk's context)."""
    matches = _matches(event)
    playing = {m["table"].number for m in matches if m["card"].status == "open"}
    free_tables = sorted({m["table"].number for m in matches} - playing)
    next_table = free_tables[0] if free_tables else max(playing, default=0) + 1
    return {
        "matches": matches,
        "target": free_matches.target_of(event),
        "match_form": forms.get("match_form")
        or FreeMatchForm(pairs=_pairs(event), initial={"table": next_table}),
    }


@organiser_required
@require_POST
def match_start(request: HttpRequest, club: Club, event_id: int) -> HttpResponse:
    """Sit two pairs at a table for a new match."""
    from games.views_burraco_desk import _render_desk

    event = _free_event(club, event_id)
    form = FreeMatchForm(request.POST, pairs=_pairs(event))
    if form.is_valid():
        data = form.cleaned_data
        try:
            started = free_matches.match_start(
                event=event,
                table_number=data["table"],
                ns=get_object_or_404(BurracoPair, event=event, pk=data["ns"]),
                ew=get_object_or_404(BurracoPair, event=event, pk=data["ew"]),
            )
        except EntryError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request,
                _("Match %(number)s at table %(table)s started.")
                % {"number": started.match, "table": started.table.number},
            )
            return redirect("burraco-desk", slug=club.slug, event_id=event.pk)
    return _render_desk(request, club, event, match_form=form)


@organiser_required
@require_POST
def evening_close(request: HttpRequest, club: Club, event_id: int) -> HttpResponse:
    """Close the evening: a match nobody has won yet counts for nothing."""
    event = _free_event(club, event_id)
    closing.event_close(event=event, unfinished="exclude", by_user=request.user)
    messages.success(request, _("%(name)s closed.") % {"name": event.name})
    return redirect("burraco-desk", slug=club.slug, event_id=event.pk)
