"""A table's deals stored: submission (from the entry page or the API) and confirmation.

Every function here owns its transaction: the game row is locked first, the whole game
is validated by the engine, and the deal, its per-player rows, the game's scores and the
audit trail are written together or not at all (games/game_scores.py). Standings are
queued after commit. On PostgreSQL deal_submit's reads and writes are the prepared
statements of games/sql.py; elsewhere the ORM's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ParamSpec

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.cache import deletes_held
from games import sql
from games.errors import (
    DealConflict,
    DealRejected,
    EntryError,
    GameClosed,
    IdempotencyMismatch,
)
from games.game_scores import (
    Seating,
    announce_deals_changed,
    check_open_for_deals,
    deal_sheet,
    doubles_won_lost,
    lock_game,
    read_seating,
    result_player_ids,
    set_totals,
    write_scores,
)
from games.idempotency import earlier_answer, keep_answer, request_fingerprint
from games.models import Deal, DealRevision, Game
from games.selectors import game_record
from scoring.engine import barbu
from scoring.messages import problem_message


@dataclass(frozen=True)
class Submission:
    """The answer to a deal submission, as the API and the entry page show it."""

    deal: Deal
    created: bool
    body: dict[str, Any]
    status_code: int


def engine_problems(problems: list[barbu.Problem]) -> list[dict]:
    """The engine's problems as the answer lists them, each message in the user's language."""
    # The engine speaks English; its message is shown in the user's language.
    return [{**p.as_dict(), "message": problem_message(p)} for p in problems]


def split_number(deal: Any) -> tuple[Any, int | None]:
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
@deletes_held()  # the commit's cache writes in one round trip (clubs/cache.py)
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

    After the commit, the API's reads generation and the game's and evening's live
    versions are dropped and the evening's standings marked queued in one round trip to
    the cache (clubs.cache.deletes_held), not three.
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
            seating = Seating(
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
                game = lock_game(game_id)
            seating = read_seating(game)
            earlier = earlier_answer(scope, idempotency_key)
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
        content, number = split_number(deal)
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
            data = normalised(game, content)
            if data == stored_data[-1]:
                last = Deal.objects.get(game=game, number=count)
                raise DealConflict(
                    _("This deal is already stored as deal %(number)s.") % {"number": last.number},
                    params={"number": last.number},
                    extra={"stored": stored_deal(last)},
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
            raise DealRejected(problem_message(problems[0]), problems=engine_problems(problems))
        scores = judged.scores

        new_number = count + 1
        if data is None:
            data = normalised(game, content)
        player_ids = seating.player_ids
        players = dict(zip(game.player_names, player_ids, strict=True))
        entered_by = by_user if getattr(by_user, "is_authenticated", False) else None
        fields = {
            "game": game,
            "number": new_number,
            "dealer_id": players[data["dealer"]],
            "contract": data["contract"],
            "data": data,
            "scores": deal_sheet(scores["deals"][new_number - 1]),
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
            write_scores(game, scores, [stored], player_ids=player_ids, new=True)
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
            keep_answer(scope, idempotency_key, fingerprint, body)
        announce_deals_changed(game, seating)
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
    """write_scores, the revision and the idempotency record of a new deal, as the ORM
    path writes them, in games/sql.py's one statement; the answer's body."""
    now = timezone.now()
    data = stored.data
    sheet = scores["deals"][stored.number - 1]
    won, lost = doubles_won_lost(data, sheet["raw"])
    king = data.get("result", {}).get("king_of_hearts")
    places, aboves = set_totals(game, scores)
    # A seat's result goes to whoever played most of its deals (games/seat_history.py).
    results = result_player_ids(game, list(players.values()))
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
                for seat, (name, player_id) in enumerate(zip(players, results, strict=True))
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


def normalised(game: Game, content: dict) -> dict:
    """The deal's content as stored: the engine's normal form of it for this game's players."""
    return barbu.normalise_deal(content, list(game.player_names))


def stored_deal(deal: Deal) -> dict:
    """A stored deal as a conflict answer shows it (the table can compare it with its own)."""
    return {
        "number": deal.number,
        "version": deal.version,
        "status": deal.status,
        "deal": deal.data,
        "scores": deal.scores,
    }


def _same_or_conflict(game: Game, existing: Deal, content: Any) -> Submission:
    try:
        same = isinstance(content, dict) and normalised(game, content) == existing.data
    except Exception:  # a malformed deal is simply not the same deal
        same = False
    if same:
        return Submission(existing, False, deal_answer(game, existing), 200)
    raise DealConflict(
        _("Deal %(number)s is already stored with other content; ask the organiser to correct it.")
        % {"number": existing.number},
        params={"number": existing.number},
        extra={"stored": stored_deal(existing)},
    )


def deal_confirm(*, deal_id: int, agree: bool, by_label: str = "", by_user: Any = None) -> Deal:
    """A player at another seat accepts a pending deal, or disputes it for the organiser."""
    with transaction.atomic():
        deal = Deal.objects.select_related("game").get(pk=deal_id)
        game = lock_game(deal.game_id)
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
        announce_deals_changed(game, read_seating(game))
    return deal
