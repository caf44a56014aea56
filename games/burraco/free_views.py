"""The organiser's desk of a Burraco evening of free matches: pairs entered (the
tournament desk's own views), tables of two pairs formed for a match, each match's state
and score card, the evening closed, the tables' printed cards. Organisers of the club
only, but for the page a table card's QR code opens, where two pairs sit themselves at
that table (its signed key is the only credential). Each view calls a service
(games/burraco/free_matches.py, games/burraco/free_tables.py)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs.language import offer_club_language
from clubs.models import Club
from clubs.views import organiser_required
from games.burraco import free_matches, free_tables
from games.burraco.desk_forms import FreeMatchForm
from games.burraco.free_cards_print import free_score_cards_pdf
from games.core import closing
from games.core import table_cards as cards
from games.core.errors import EntryError
from games.core.event_words import event_words
from games.models import BurracoPair, Event, Game, Round, Table


def free_event(club: Club, event_id: int) -> Event:
    return get_object_or_404(
        Event, club=club, pk=event_id, game="burraco", burraco_format=Event.BurracoFormat.FREE
    )


def free_pair_choices(event: Event) -> list[tuple[int, str]]:
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
    # Two pairs not playing are the default, never one pair against itself: those that
    # have waited longest (no match yet, else the earliest last match) before those that
    # just played.
    last_played: dict[int, int] = {}
    for m in matches:
        for pair_id in (m["table"].ns_pair_id, m["table"].ew_pair_id):
            last_played[pair_id] = max(last_played.get(pair_id, 0), m["table"].round.number)
    free = sorted(free_matches.free_pairs(event), key=lambda p: last_played.get(p.pk, 0))
    waiting = [p.pk for p in free][:2]
    initial = {"table": next_table, **dict(zip(("ns", "ew"), waiting, strict=False))}
    return {
        "matches": matches,
        "target": free_matches.target_of(event),
        "match_form": forms.get("match_form")
        or FreeMatchForm(pairs=free_pair_choices(event), initial=initial),
    }


@organiser_required
@require_POST
def evening_close(request: HttpRequest, club: Club, event_id: int) -> HttpResponse:
    """Close the evening: a match nobody has won yet counts for nothing."""
    event = free_event(club, event_id)
    closing.event_close(event=event, unfinished="exclude", by_user=request.user)
    messages.success(request, event_words(event, "closed"))
    return redirect("burraco-desk", slug=club.slug, event_id=event.pk)


def _cards_count(event: Event, asked: str | None) -> int:
    """How many table cards to print: as asked (1 to the limit), else enough for the
    evening's pairs and every table already used."""
    if asked and asked.isdigit():
        return max(1, min(int(asked), free_tables.CARDS_LIMIT))
    used = event.rounds.values_list("tables__number", flat=True)
    tables = max((n for n in used if n), default=0)
    pairs = event.pairs.filter(active=True).count()
    return max(1, min(max(tables, pairs // 2), free_tables.CARDS_LIMIT))


@organiser_required
@require_GET
def table_cards(request: HttpRequest, club: Club, event_id: int) -> HttpResponse:
    """The evening's table cards (1..N, ?tables=N) to print on A4, each with its table's
    QR code: two pairs scan it to sit down at that table for a match."""
    event = free_event(club, event_id)
    count = _cards_count(event, request.GET.get("tables"))
    tables = []
    for number in range(1, count + 1):
        url = request.build_absolute_uri(
            reverse("burraco-free-sit", args=[free_tables.seat_key(event.pk, number)])
        )
        tables.append({"number": number, "entry_url": url, "qr": cards.qr_svg(url)})
    return render(
        request,
        "games/burraco/free_cards.html",
        {
            "club": club,
            "event": event,
            "tables": tables,
            "count": count,
            "limit": free_tables.CARDS_LIMIT,
            "target": free_matches.target_of(event),
        },
    )


def _render_sit(
    request: HttpRequest,
    seat: free_tables.SeatTable,
    key: str,
    *,
    errors: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    event = seat.event
    last = free_tables.current_match(event, seat.number)
    playing = last is not None and last.game.card.status == "open"
    closed = event.status == Event.Status.CLOSED
    pairs = [] if playing or closed else free_matches.ready_pairs(event)
    if last is not None:  # the pairs waiting first: the default, before the last match's
        pairs.sort(key=lambda p: p.pk in (last.ns_pair_id, last.ew_pair_id))
    return render(
        request,
        "games/burraco/free_sit.html",
        {
            "event": event,
            "number": seat.number,
            "key": key,
            "target": free_matches.target_of(event),
            "last": last,
            "playing": playing,
            "closed": closed,
            "pairs": pairs,
            "errors": errors or [],
        },
        status=status,
    )


@require_http_methods(["GET", "POST"])
def table_sit(request: HttpRequest, key: str) -> HttpResponse:
    """A free-match table's card: who plays at this table now (and its score card), or
    two pairs of the evening sit down at it and start a match."""
    seat = free_tables.seat_table(key)
    if seat is None:
        return render(request, "games/table/not_found.html", status=404)
    offer_club_language(request, seat.event.club)
    if request.method == "GET":
        return _render_sit(request, seat, key)
    chosen = request.POST.get("ns", ""), request.POST.get("ew", "")
    try:
        if not all(number.isdigit() for number in chosen):
            raise EntryError(_("Choose both pairs."), code="pairs_missing")
        started = free_tables.sit_from_card(seat=seat, ns=int(chosen[0]), ew=int(chosen[1]))
    except EntryError as error:
        return _render_sit(request, seat, key, errors=[error.message], status=error.status)
    messages.success(
        request,
        _("Match %(number)s at table %(table)s: good luck!")
        % {"number": started.match, "table": started.table.number},
    )
    return redirect("burraco-card", key=started.table.key)


def free_score_cards(
    request: HttpRequest, club: Club, event: Event, rnd: Round, per_page: int
) -> HttpResponse:
    """A sitting's blank score cards of free matches (the desk's score-cards.pdf for an
    evening of free matches): each match of the sitting with its table, its match number
    at that table, its pairs and the target; hand rows with running totals, no VP (two
    queries)."""
    earlier = Table.objects.filter(round__event=event, round__number__lt=rnd.number)
    before: dict[int, int] = {}
    for number in earlier.values_list("number", flat=True):
        before[number] = before.get(number, 0) + 1
    tables = [
        (
            t.number,
            before.get(t.number, 0) + 1,
            _line(t.ns_pair),
            _line(t.ew_pair),
        )
        for t in Table.objects.filter(round=rnd)
        .select_related("ns_pair__player_a", "ns_pair__player_b")
        .select_related("ew_pair__player_a", "ew_pair__player_b")
        .order_by("number")
    ]
    data = free_score_cards_pdf(
        event_name=f"{club.name} – {event.name}",
        target=free_matches.target_of(event),
        tables=tables,
        language=get_language(),
        per_page=per_page,
    )
    response = HttpResponse(data, content_type="application/pdf")
    filename = f"event-{event.pk}-sitting-{rnd.number}-score-cards.pdf"
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Content-Length"] = str(len(data))
    if request.method == "HEAD":
        response.content = b""
    return response


def _line(pair: BurracoPair) -> str:
    return f"{pair.number} – {pair.player_a.name} / {pair.player_b.name}"
