"""The organiser's corrections of stored deals, and player names renamed in a deal.

The services that write a correction: versioned, audited, the whole game judged again,
the derived rows rewritten (games/barbu/game_scores.py). Not to be confused with
games/barbu/correction_form.py, the correction PAGE's logic (which contracts and players a deal's
fields may take there), which calls deals_correct here to store what the organiser sent.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.engine_words import engine_problems, problem_message
from games.barbu.game_scores import (
    announce_deals_changed,
    lock_game,
    read_seating,
    seat_changes,
    write_scores,
)
from games.barbu.seat_history import players_at
from games.barbu.selectors import game_record
from games.barbu.submission import normalised, split_number, stored_deal
from games.core.errors import DealRejected, EntryError, StaleVersion
from games.models import Deal, DealRevision, Game
from scoring.engine import barbu

PLAYER_FIELDS = ("dealer", "king_of_hearts", "twelfth", "thirteenth")


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
        game = lock_game(deal.game_id)
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

    `changes`: {deal number: its new content (docs/rules/format.md)}; `versions`: {deal number: the
    version the organiser corrected}, a stale one refusing the lot. Two deals of one dealer
    with their contracts swapped can only be corrected this way: each half alone repeats a
    contract. The whole game is validated once with every change applied; on any problem
    nothing is written. Answers the deals that got a new version, by number.
    """
    with transaction.atomic():
        game = lock_game(game_id)
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
                extra={"stored": stored_deal(deal)},
            )
        targets.append(deal)
    record = game_record(game, deals)
    contents = {}
    for deal in targets:
        content, _number = split_number(changes[deal.number])
        contents[deal.number] = content
        record["deals"][deal.number - 1] = content
    problems = barbu.validate_game(record)
    if problems:
        raise DealRejected(problem_message(problems[0]), problems=engine_problems(problems))
    scores = barbu.score_game(record)
    changed = []
    for deal in targets:
        before = deal.data
        after = normalised(game, contents[deal.number])
        if after != before:
            changed.append((deal, before, after))
    if not changed:
        return []
    seating = read_seating(game)
    player_ids = seating.player_ids
    changes = seat_changes(game)
    names = list(game.player_names)
    user = by_user if getattr(by_user, "is_authenticated", False) else None
    for deal, _before, after in changed:
        deal.data = after
        deal.contract = after["contract"]
        # The dealer's seat as played in this deal (a substitute's deals are theirs).
        played = players_at(player_ids, changes, deal.number)
        deal.dealer_id = played[names.index(after["dealer"])]
        deal.version += 1
        deal.status = Deal.Status.CONFIRMED
        deal.save()
    write_scores(game, scores, [deal for deal, _b, _a in changed], player_ids=player_ids)
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
    announce_deals_changed(game, seating)
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
