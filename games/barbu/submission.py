"""A table's deals stored: submission (from the entry page or the API) and confirmation.

Every function here owns its transaction: the game row is locked first, the whole game
is validated by the engine, and the deal, its per-player rows, the game's scores and the
audit trail are written together or not at all (games/barbu/game_scores.py). Standings are
queued after commit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.engine_words import engine_problems, problem_message
from games.barbu.game_scores import (
    announce_deals_changed,
    check_open_for_deals,
    deal_sheet,
    lock_game,
    read_seating,
    write_scores,
)
from games.barbu.selectors import game_record
from games.core.errors import (
    DealConflict,
    DealRejected,
    EntryError,
    GameClosed,
    IdempotencyMismatch,
)
from games.core.idempotency import earlier_answer, keep_answer, request_fingerprint
from games.models import Deal, DealRevision, Game
from scoring.engine import barbu


@dataclass(frozen=True)
class Submission:
    """The answer to a deal submission, as the API and the entry page show it."""

    deal: Deal
    created: bool
    body: dict[str, Any]
    status_code: int


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


def deal_submit(
    *,
    game_id: int,
    deal: Any,
    by_user: Any = None,
    by_label: str = "",
    idempotency_key: str | None = None,
    needs_confirmation: bool = False,
) -> Submission:
    """Store the next deal of a game, entered at the table or sent through the API.

    `deal` is one deal of docs/rules/format.md, with an optional "number" (the number the table
    believes it is entering: a second phone sending the same deal is then told so).
    After the commit, the game's and its evening's live versions are dropped and the
    standings queued (the deals_changed signal).
    """
    fingerprint = request_fingerprint(deal)
    with transaction.atomic():
        scope = f"game:{int(game_id)}:deals"
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
            same = _same_or_conflict(game, existing, content)
            # The key now stands for this request: reused with another deal, it is refused.
            keep_answer(scope, idempotency_key, fingerprint, same.body, status=200)
            return same
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
