"""Writes of games and deals: submission from the tables, confirmation, corrections.

Every function here owns its transaction: the game row is locked first, the whole game
is validated by the engine, and the deal, its per-player rows, the game's scores and the
audit trail are written together or not at all. Standings are queued after commit.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ParamSpec

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import sql
from games.errors import (
    DealConflict,
    DealRejected,
    EntryError,
    EveningClosed,
    GameClosed,
    IdempotencyMismatch,
    StaleVersion,
)
from games.models import (
    Deal,
    DealRevision,
    DealScore,
    Event,
    Game,
    GameScore,
    IdempotencyRecord,
    Round,
    Seat,
    Table,
)
from games.selectors import game_record
from games.signals import deals_changed
from scoring.engine import barbu
from scoring.messages import problem_message

PLAYER_FIELDS = ("dealer", "king_of_hearts", "twelfth", "thirteenth")


@dataclass(frozen=True)
class Submission:
    """The answer to a deal submission, as the API and the entry page show it."""

    deal: Deal
    created: bool
    body: dict[str, Any]
    status_code: int


def request_fingerprint(payload: Any) -> str:
    return hashlib.sha256(
        json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str).encode()
    ).hexdigest()


def _problems(problems: list[barbu.Problem]) -> list[dict]:
    # The engine speaks English; its message is shown in the user's language.
    return [{**p.as_dict(), "message": problem_message(p)} for p in problems]


def _split_number(deal: Any) -> tuple[Any, int | None]:
    """The deal without its optional "number" key, and that number."""
    if not isinstance(deal, dict) or "number" not in deal:
        return deal, None
    deal = dict(deal)
    number = deal.pop("number")
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise DealRejected(
            _("number must be a positive whole number"),
            problems=[
                {
                    "deal": None,
                    "field": "number",
                    "code": "invalid_number",
                    "params": {},
                    "message": _("number must be a positive whole number"),
                }
            ],
        )
    return deal, number


def deal_answer(
    game: Game, deal: Deal, scores: dict | None = None, state: dict | None = None
) -> dict[str, Any]:
    """The JSON a table gets for a stored deal: its scores, the game's totals, what is next.

    `scores` and `state`: the engine's score_game and game_state of the game as stored,
    when the caller has them (barbu.judge_game); otherwise the game is read and judged.
    """
    if scores is None or state is None:
        judged = barbu.judge_game(game_record(game))
        scores, state = judged.scores, judged.state
    return {
        "game": game.pk,
        "number": deal.number,
        "version": deal.version,
        "status": deal.status,
        "deal": deal.data,
        "scores": deal.scores,
        "totals": scores["totals"],
        "complete": game.status == Game.Status.COMPLETE,
        "next": state["next"] if game.status != Game.Status.COMPLETE else None,
    }


@dataclass(frozen=True)
class _Seating:
    """The game's players' ids in seat order (seat 0 deals first), its event and league,
    and whether its round and event are still open."""

    player_ids: list[int]
    event_id: int
    league_id: int | None
    round_number: int = 0
    round_status: str = Round.Status.OPEN
    event_status: str = Event.Status.RUNNING


def check_open_for_deals(round_number: int, round_status: str, event_status: str) -> None:
    """Raise EveningClosed when a closed round or evening would take a new deal."""
    if event_status == Event.Status.CLOSED:
        raise EveningClosed(
            _("This evening is closed: no more deals can be entered."),
            code="event_closed",
            params={"round": round_number},
        )
    if round_status == Round.Status.CLOSED:
        raise EveningClosed(
            _("Round %(round)s is closed: no more deals can be entered.") % {"round": round_number},
            code="round_closed",
            params={"round": round_number},
        )


def _seating(game: Game) -> _Seating:
    """One plain query. (An ORM query with joins or subqueries costs several times its
    SQL to build: four seat subqueries on the lock statement took 8 ms of Python, this
    and the bare lock 2 ms.)"""
    rows = sorted(
        Seat.objects.filter(table_id=game.table_id)
        .order_by()
        .values_list(
            "position",
            "player_id",
            "table__round__event_id",
            "table__round__event__league_id",
            "table__round__number",
            "table__round__status",
            "table__round__event__status",
        )
    )
    if rows:
        return _Seating([row[1] for row in rows], *rows[0][2:])
    where = (
        Table.objects.filter(pk=game.table_id)
        .values_list(
            "round__event_id",
            "round__event__league_id",
            "round__number",
            "round__status",
            "round__event__status",
        )
        .get()
    )
    return _Seating([], *where)


def _deal_sheet(sheet: dict) -> dict:
    """What a Deal row keeps of the engine's scores of that deal."""
    return {k: sheet[k] for k in ("raw", "doubles", "score")}


def _set_totals(game: Game, scores: dict) -> tuple[dict[str, Any], dict[str, int]]:
    """The game's totals, deal count and status from the engine's scores (not saved); each
    player's shared place and the number of players above, for the GameScore rows."""
    totals = scores["totals"]
    game.totals = totals
    game.deals_count = len(scores["deals"])
    game.status = (
        Game.Status.COMPLETE if game.deals_count >= game.deals_target else Game.Status.IN_PROGRESS
    )
    return _places(totals)


def _write_scores(
    game: Game,
    scores: dict,
    deals: list[Deal],
    *,
    player_ids: list[int] | None = None,
    new: bool = False,
) -> None:
    """Rewrite the derived rows of these deals and of the game from the engine's scores.

    `player_ids`: the seat players' ids, when the caller has them already. `new`: the
    deals were just inserted with their scores (Deal.scores set before the INSERT), so
    there are no DealScore rows to delete and no Deal row to update.
    """
    if player_ids is None:
        player_ids = _seating(game).player_ids
    by_name = dict(zip(game.player_names, player_ids, strict=True))
    if not new:
        DealScore.objects.filter(deal__in=deals).delete()
    rows = []
    for deal in deals:
        sheet = scores["deals"][deal.number - 1]
        won, lost = _doubles_won_lost(deal.data, sheet["raw"])
        king = deal.data.get("result", {}).get("king_of_hearts")
        for name, player_id in by_name.items():
            rows.append(
                DealScore(
                    deal=deal,
                    game=game,
                    player_id=player_id,
                    contract=deal.contract,
                    is_dealer=deal.data["dealer"] == name,
                    raw=sheet["raw"][name],
                    doubles=sheet["doubles"][name],
                    score=sheet["score"][name],
                    took_king=deal.contract == "barbu" and king == name,
                    doubles_won=won.get(name, 0),
                    doubles_lost=lost.get(name, 0),
                )
            )
        if not new:
            deal.scores = _deal_sheet(sheet)
            Deal.objects.filter(pk=deal.pk).update(scores=deal.scores)
    DealScore.objects.bulk_create(rows)

    places, aboves = _set_totals(game, scores)
    game.save(update_fields=["totals", "deals_count", "status", "updated_at"])
    # One INSERT ... ON CONFLICT (game, seat) DO UPDATE for the four rows, whether the
    # game had score rows already or not (instead of four update_or_create round trips).
    GameScore.objects.bulk_create(
        [
            GameScore(
                game=game,
                seat=seat,
                player_id=player_id,
                total=Decimal(str(game.totals[name])),
                place=Decimal(str(places[name])),
                above=aboves[name],
                deals=game.deals_count,
            )
            for seat, (name, player_id) in enumerate(by_name.items())
        ],
        update_conflicts=True,
        unique_fields=["game", "seat"],
        update_fields=["player", "total", "place", "above", "deals"],
    )


def _stored_totals(totals: dict[str, float]) -> dict[str, Decimal]:
    """The totals as GameScore.total stores them (hundredths): places are found from these,
    so the stored place and above always agree with the stored totals (which the window
    functions over GameScore would see), whatever the engine's rounding."""
    return {name: Decimal(str(total)).quantize(_HUNDREDTH) for name, total in totals.items()}


_HUNDREDTH = Decimal("0.01")


def _places(totals: dict[str, float]) -> tuple[dict[str, float], dict[str, int]]:
    """Each player's place 1..4 by stored total (tied players share the average of the
    places they occupy) and how many players have a higher stored total (GameScore.above):
    with the place, that tells the players level too (place = above + (level + 1) / 2)."""
    stored = _stored_totals(totals)
    places, aboves = {}, {}
    for name, total in stored.items():
        above = sum(1 for other in stored.values() if other > total)
        tied = sum(1 for other in stored.values() if other == total)
        places[name] = above + (tied + 1) / 2
        aboves[name] = above
    return places, aboves


def _doubles_won_lost(data: dict, raw: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """How many doubles each player won and lost in this deal (mutual doubles count once)."""
    won: dict[str, int] = {}
    lost: dict[str, int] = {}
    seen = set()
    for double in data.get("doubles") or []:
        pair = frozenset((double["by"], double["against"]))
        if pair in seen:
            continue
        seen.add(pair)
        a, b = double["by"], double["against"]
        d = raw[a] - raw[b]
        if d > 0:
            won[a] = won.get(a, 0) + 1
            lost[b] = lost.get(b, 0) + 1
        elif d < 0:
            won[b] = won.get(b, 0) + 1
            lost[a] = lost.get(a, 0) + 1
    return won, lost


def _announce(game: Game, seating: _Seating) -> None:
    # The game's status as this transaction leaves it: the receiver need not read it again.
    leagues = [seating.league_id] if game.status == Game.Status.COMPLETE else []
    event_id = seating.event_id
    transaction.on_commit(
        lambda: deals_changed.send(
            sender=Game, game_ids=[game.pk], event_ids=[event_id], complete_league_ids=leagues
        )
    )


def _lock_game(game_id: int) -> Game:
    """The game, its row locked until the transaction ends.

    Only the game's row: a FOR UPDATE with select_related would lock the table, round
    and event rows too, and the tables of one evening would queue behind each other's
    deals. _seating() reads the rest.
    """
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise EntryError(_("This game does not exist."), code="not_found") from None


class NotAuthorised(Exception):
    """Raised by deal_submit's `authorise` callback: this client may not write this game."""


_Arguments = ParamSpec("_Arguments")


def _rerun_if_statements_lost(
    submit: Callable[_Arguments, Submission],
) -> Callable[_Arguments, Submission]:
    """Run `submit` once more if the database session lost the prepared statements of
    games/sql.py (sql.StatementsLost: the first run's transaction was rolled back)."""

    @functools.wraps(submit)
    def run(*args: _Arguments.args, **kwargs: _Arguments.kwargs) -> Submission:
        try:
            return submit(*args, **kwargs)
        except sql.StatementsLost:
            return submit(*args, **kwargs)

    return run


@_rerun_if_statements_lost
def deal_submit(
    *,
    game_id: int,
    deal: Any,
    by_user: Any = None,
    by_label: str = "",
    idempotency_key: str | None = None,
    needs_confirmation: bool = False,
    authorise: Callable[[Game, bool | None], None] | None = None,
) -> Submission:
    """Store the next deal of a game, entered at the table or sent through the API.

    `authorise(game, organises)`, if given, is called first thing once the game is
    locked: it raises NotAuthorised to refuse (the transaction is rolled back, nothing
    else is read). `organises`: whether `by_user` organises the game's club, when known
    (the PostgreSQL path reads it with the game), else None. A game that does not exist
    raises NotAuthorised too then (the caller decides between 404 and 403).

    `deal` is one deal of FORMAT.md, with an optional "number" (the number the table
    believes it is entering: a second phone sending the same deal is then told so).

    On PostgreSQL the reads and writes are the prepared statements of games/sql.py (two
    round trips: lock and read, write); elsewhere the ORM's. Both store the same rows.
    If the database session lost the prepared statements, the transaction is rolled
    back and run once more (sql.StatementsLost).
    """
    fingerprint = request_fingerprint(deal)
    fast = sql.available()
    with transaction.atomic():
        scope = f"game:{int(game_id)}:deals"
        if fast:
            user_id = by_user.pk if getattr(by_user, "is_authenticated", False) else None
            game, loaded = sql.lock_and_read(game_id, scope, idempotency_key, user_id)
            if game is None:
                if authorise is not None:
                    raise NotAuthorised()
                raise EntryError(_("This game does not exist."), code="not_found")
            if authorise is not None:
                authorise(game, loaded.organises if user_id is not None else None)
            seating = _Seating(
                loaded.player_ids,
                loaded.event_id,
                loaded.league_id,
                loaded.round_number,
                loaded.round_status,
                loaded.event_status,
            )
            stored_data, earlier = loaded.deals, loaded.earlier
        else:
            if authorise is not None:
                game = Game.objects.select_for_update().filter(pk=game_id).first()
                if game is None:
                    raise NotAuthorised()
                authorise(game, None)
            else:
                game = _lock_game(game_id)
            seating = _seating(game)
            earlier = None
            if idempotency_key:
                record_row = (
                    IdempotencyRecord.objects.filter(scope=scope, key=idempotency_key)
                    .values_list("request_hash", "status_code", "body")
                    .first()
                )
                earlier = tuple(record_row) if record_row else None
            stored_data = list(game.deals.order_by("number").values_list("data", flat=True))
        if idempotency_key and earlier is not None:
            request_hash, status_code, earlier_body = earlier
            if request_hash != fingerprint:
                raise IdempotencyMismatch(
                    _("This Idempotency-Key was already used for a different deal."),
                )
            stored = Deal.objects.get(game=game, number=earlier_body["number"])
            return Submission(stored, False, earlier_body, status_code)

        # Read under the game's lock: closing takes the locks of the round's games first,
        # so a deal is either stored before the round closes or refused after.
        check_open_for_deals(seating.round_number, seating.round_status, seating.event_status)
        content, number = _split_number(deal)
        count = len(stored_data)
        if number is not None and number <= count:
            existing = Deal.objects.get(game=game, number=number)
            return _same_or_conflict(game, existing, content)
        if number is not None and number > count + 1:
            raise DealRejected(
                _("Deal %(number)s cannot be entered before deal %(expected)s.")
                % {"number": number, "expected": count + 1},
                code="deal_out_of_order",
                params={"number": number, "expected": count + 1},
            )
        if game.status == Game.Status.COMPLETE or count >= game.deals_target:
            raise GameClosed(
                _("This game is complete: no more deals can be entered."),
                params={"deals": count},
            )
        data = None
        if stored_data and isinstance(content, dict):
            data = _normalised(game, content)
            if data == stored_data[-1]:
                last = Deal.objects.get(game=game, number=count)
                raise DealConflict(
                    _("This deal is already stored as deal %(number)s.") % {"number": last.number},
                    params={"number": last.number},
                    extra={"stored": _stored(last)},
                )

        record = {
            "ruleset": game.ruleset,
            "players": list(game.player_names),
            "deals": [*stored_data, content],
        }
        # One pass of the engine over the game: its problems, or its scores and state.
        judged = barbu.judge_game(record)
        if judged.problems:
            problems = judged.problems
            raise DealRejected(problem_message(problems[0]), problems=_problems(problems))
        scores = judged.scores

        new_number = count + 1
        if data is None:
            data = _normalised(game, content)
        player_ids = seating.player_ids
        players = dict(zip(game.player_names, player_ids, strict=True))
        entered_by = by_user if getattr(by_user, "is_authenticated", False) else None
        fields = {
            "game": game,
            "number": new_number,
            "dealer_id": players[data["dealer"]],
            "contract": data["contract"],
            "data": data,
            "scores": _deal_sheet(scores["deals"][new_number - 1]),
            "status": Deal.Status.PENDING if needs_confirmation else Deal.Status.CONFIRMED,
            "entered_by": entered_by,
            "entered_from": by_label[:80],
        }
        if fast:
            stored = Deal(**fields)
            body = _write_new_deal_sql(
                game,
                stored,
                scores,
                judged.state,
                players,
                by_label,
                fingerprint,
                scope if idempotency_key else None,
                idempotency_key,
            )
        else:
            stored = Deal.objects.create(**fields)
            _write_scores(game, scores, [stored], player_ids=player_ids, new=True)
            DealRevision.objects.create(
                game=game,
                deal=stored,
                number=new_number,
                version=1,
                action=DealRevision.Action.ENTERED,
                after=data,
                by_user=stored.entered_by,
                by_label=by_label[:80],
            )
            body = deal_answer(game, stored, scores, judged.state)
            if idempotency_key:
                IdempotencyRecord.objects.create(
                    scope=scope,
                    key=idempotency_key[:200],
                    request_hash=fingerprint,
                    status_code=201,
                    body=body,
                )
        _announce(game, seating)
    return Submission(stored, True, body, 201)


def _write_new_deal_sql(
    game: Game,
    stored: Deal,
    scores: dict,
    state: dict | None,
    players: dict[str, int],
    by_label: str,
    fingerprint: str,
    scope: str | None,
    idempotency_key: str | None,
) -> dict[str, Any]:
    """_write_scores, the revision and the idempotency record of a new deal, as the ORM
    path writes them, in games/sql.py's one statement; the answer's body."""
    now = timezone.now()
    data = stored.data
    sheet = scores["deals"][stored.number - 1]
    won, lost = _doubles_won_lost(data, sheet["raw"])
    king = data.get("result", {}).get("king_of_hearts")
    places, aboves = _set_totals(game, scores)
    game.updated_at = stored.created_at = stored.updated_at = now
    body = deal_answer(game, stored, scores, state)
    stored.pk = sql.write(
        sql.NewDeal(
            game_id=game.pk,
            number=stored.number,
            dealer_id=stored.dealer_id,
            contract=stored.contract,
            data=data,
            scores=stored.scores,
            status=stored.status,
            entered_by_id=stored.entered_by_id,
            entered_from=stored.entered_from,
            deal_scores=[
                {
                    "game_id": game.pk,
                    "player_id": player_id,
                    "contract": stored.contract,
                    "is_dealer": data["dealer"] == name,
                    "raw": sheet["raw"][name],
                    "doubles": sheet["doubles"][name],
                    "score": sheet["score"][name],
                    "took_king": stored.contract == "barbu" and king == name,
                    "doubles_won": won.get(name, 0),
                    "doubles_lost": lost.get(name, 0),
                }
                for name, player_id in players.items()
            ],
            totals=game.totals,
            deals_count=game.deals_count,
            game_status=game.status,
            game_scores=[
                (
                    seat,
                    player_id,
                    Decimal(str(game.totals[name])),
                    Decimal(str(places[name])),
                    aboves[name],
                )
                for seat, (name, player_id) in enumerate(players.items())
            ],
            revision_label=by_label[:80],
            idempotency=(scope, idempotency_key[:200], fingerprint, 201, body)
            if scope and idempotency_key
            else None,
            now=now,
        )
    )
    stored._state.adding = False
    return body


def _normalised(game: Game, content: dict) -> dict:
    return barbu.normalise_deal(content, list(game.player_names))


def _stored(deal: Deal) -> dict:
    return {
        "number": deal.number,
        "version": deal.version,
        "status": deal.status,
        "deal": deal.data,
        "scores": deal.scores,
    }


def _same_or_conflict(game: Game, existing: Deal, content: Any) -> Submission:
    try:
        same = isinstance(content, dict) and _normalised(game, content) == existing.data
    except Exception:  # a malformed deal is simply not the same deal
        same = False
    if same:
        return Submission(existing, False, deal_answer(game, existing), 200)
    raise DealConflict(
        _("Deal %(number)s is already stored with other content; ask the organiser to correct it.")
        % {"number": existing.number},
        params={"number": existing.number},
        extra={"stored": _stored(existing)},
    )


def deal_confirm(*, deal_id: int, agree: bool, by_label: str = "", by_user: Any = None) -> Deal:
    """A player at another seat accepts a pending deal, or disputes it for the organiser."""
    with transaction.atomic():
        deal = Deal.objects.select_related("game").get(pk=deal_id)
        game = _lock_game(deal.game_id)
        deal.refresh_from_db()
        if deal.status == Deal.Status.CONFIRMED:
            raise EntryError(_("This deal is already confirmed."), code="already_confirmed")
        if agree and by_label and by_label == deal.entered_from:
            raise EntryError(
                _("A deal must be confirmed from another seat than the one that entered it."),
                code="confirm_same_seat",
            )
        deal.status = Deal.Status.CONFIRMED if agree else Deal.Status.DISPUTED
        deal.confirmed_from = by_label[:80]
        deal.save(update_fields=["status", "confirmed_from", "updated_at"])
        DealRevision.objects.create(
            game=game,
            deal=deal,
            number=deal.number,
            version=deal.version,
            action=DealRevision.Action.CONFIRMED if agree else DealRevision.Action.DISPUTED,
            after=deal.data,
            by_user=by_user if getattr(by_user, "is_authenticated", False) else None,
            by_label=by_label[:80],
        )
        _announce(game, _seating(game))
    return deal


def deal_correct(
    *,
    deal_id: int,
    data: Any,
    by_user: Any,
    expected_version: int | None = None,
    reason: str = "",
) -> Deal:
    """An organiser's correction of a stored deal: versioned, audited, the game revalidated.

    A correction that makes any deal of the game invalid (a later one included) is refused.
    """
    with transaction.atomic():
        try:
            deal = Deal.objects.get(pk=deal_id)
        except Deal.DoesNotExist:
            raise EntryError(_("This deal does not exist."), code="not_found") from None
        game = _lock_game(deal.game_id)
        deals = list(game.deals.order_by("number"))
        corrected = _correct(
            game,
            deals,
            changes={deal.number: data},
            versions={deal.number: expected_version},
            reason=reason,
            by_user=by_user,
        )
    return corrected[0] if corrected else next(d for d in deals if d.pk == deal.pk)


def deals_correct(
    *,
    game_id: int,
    changes: Mapping[int, Any],
    versions: Mapping[int, int | None] | None = None,
    reason: str = "",
    by_user: Any = None,
) -> list[Deal]:
    """An organiser's correction of several deals of one game, judged and stored together.

    `changes`: {deal number: its new content (FORMAT.md)}; `versions`: {deal number: the
    version the organiser corrected}, a stale one refusing the lot. Two deals of one dealer
    with their contracts swapped can only be corrected this way: each half alone repeats a
    contract. The whole game is validated once with every change applied; on any problem
    nothing is written. Answers the deals that got a new version, by number.
    """
    with transaction.atomic():
        game = _lock_game(game_id)
        deals = list(game.deals.order_by("number"))
        return _correct(
            game, deals, changes=changes, versions=versions or {}, reason=reason, by_user=by_user
        )


def _correct(
    game: Game,
    deals: list[Deal],
    *,
    changes: Mapping[int, Any],
    versions: Mapping[int, int | None],
    reason: str,
    by_user: Any,
) -> list[Deal]:
    """The corrections applied to the locked game's `deals` (inside the caller's transaction)."""
    by_number = {deal.number: deal for deal in deals}
    targets = []
    for number in sorted(changes):
        deal = by_number.get(number)
        if deal is None:
            raise EntryError(
                _("Deal %(number)s does not exist.") % {"number": number},
                code="not_found",
                params={"number": number},
            )
        expected = versions.get(number)
        if expected is not None and expected != deal.version:
            raise StaleVersion(
                _(
                    "Deal %(number)s was changed meanwhile (now version %(version)s); "
                    "reload it and correct again."
                )
                % {"number": deal.number, "version": deal.version},
                params={"version": deal.version, "expected": expected},
                extra={"stored": _stored(deal)},
            )
        targets.append(deal)
    record = game_record(game, deals)
    contents = {}
    for deal in targets:
        content, _number = _split_number(changes[deal.number])
        contents[deal.number] = content
        record["deals"][deal.number - 1] = content
    problems = barbu.validate_game(record)
    if problems:
        raise DealRejected(problem_message(problems[0]), problems=_problems(problems))
    scores = barbu.score_game(record)
    changed = []
    for deal in targets:
        before = deal.data
        after = _normalised(game, contents[deal.number])
        if after != before:
            changed.append((deal, before, after))
    if not changed:
        return []
    seating = _seating(game)
    player_ids = seating.player_ids
    players = dict(zip(game.player_names, player_ids, strict=True))
    user = by_user if getattr(by_user, "is_authenticated", False) else None
    for deal, _before, after in changed:
        deal.data = after
        deal.contract = after["contract"]
        deal.dealer_id = players[after["dealer"]]
        deal.version += 1
        deal.status = Deal.Status.CONFIRMED
        deal.save()
    _write_scores(game, scores, [deal for deal, _b, _a in changed], player_ids=player_ids)
    DealRevision.objects.bulk_create(
        [
            DealRevision(
                game=game,
                deal=deal,
                number=deal.number,
                version=deal.version,
                action=DealRevision.Action.CORRECTED,
                before=before,
                after=after,
                by_user=user,
                reason=reason[:200],
            )
            for deal, before, after in changed
        ]
    )
    _announce(game, seating)
    return [deal for deal, _b, _a in changed]


def rename_in_deal(data: dict, mapping: dict[str, str]) -> dict:
    """The deal with player names replaced (a seat taken over by another player)."""

    def name(value: Any) -> Any:
        return mapping.get(value, value) if isinstance(value, str) else value

    out = json.loads(json.dumps(data))
    for key in ("dealer",):
        out[key] = name(out.get(key))
    for double in out.get("doubles") or []:
        double["by"] = name(double.get("by"))
        double["against"] = name(double.get("against"))
    result = out.get("result") or {}
    for key in PLAYER_FIELDS:
        if key in result:
            result[key] = name(result[key])
    for key in ("hearts", "queens", "tricks"):
        if isinstance(result.get(key), dict):
            result[key] = {name(k): v for k, v in result[key].items()}
    if isinstance(result.get("order"), list):
        result["order"] = [name(v) for v in result["order"]]
    return out


def unique_names(names: list[str]) -> list[str]:
    """Names for a game record: as entered, with a number added where two are the same."""
    out: list[str] = []
    for name in names:
        label, n = name.strip() or "?", 1
        while label in out:
            n += 1
            label = f"{name.strip()} ({n})"
        out.append(label)
    return out


def game_create(*, table: Table, turns: int | None = None) -> Game:
    """The game of a seated table, with the event's ruleset frozen in it."""
    event = table.round.event
    ruleset = barbu.ruleset_from_json(event.ruleset)
    turns = turns or event.turns_per_round or 4
    seats = list(table.seats.select_related("player").order_by("position"))
    if len(seats) != 4:
        raise EntryError(
            _("A table needs exactly four players."),
            code="table_not_full",
            params={"players": len(seats)},
        )
    return Game.objects.create(
        table=table,
        ruleset=barbu.ruleset_to_json(ruleset),
        player_names=unique_names([seat.player.name for seat in seats]),
        deals_target=min(turns, 4) * ruleset.deals_per_turn,
    )
