"""What a phone at the table reads of a hand besides its MP: the preview of the hand being
typed (the engine's own score, scorecards' read_hand, never a second calculator) and the
breakdown of a stored hand counted from the cards (who closed, the burracos, the pozzetto,
the cards in hand), which the confirming pair checks before it confirms."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.burraco.hand_form import KIND_LABELS, KINDS, hand_from_form
from games.burraco.hand_reading import LINES, read_hand
from games.core.errors import DealRejected
from games.models import Game, ScoreCard


def preview(game: Game, card: ScoreCard, form: Mapping[str, Any]) -> dict[str, Any]:
    """The next hand's MP as the engine scores the form's data (as card_hand would store
    it), and both lines' totals with it: {"ok": true, "number", "NS": {...}, "EW": {...},
    "totals": {"NS", "EW"}, "words": [the same in the reader's language]}, or {"ok":
    false, "problems": [what is wrong, in words]}.
    Nothing is stored."""
    number = game.hands.count() + 1
    try:
        _mode, _data, scores = read_hand(hand_from_form(form), game.ruleset, number)
    except DealRejected as error:
        return {
            "ok": False,
            "number": number,
            "problems": [p["message"] for p in error.problems] or [error.message],
        }
    totals = {
        line: getattr(card, f"{line.lower()}_total") + scores[line]["score"] for line in LINES
    }
    ns, ew = pgettext("line", "NS"), pgettext("line", "EW")
    words = [
        _("Hand %(number)s: %(ns)s %(ns_mp)s, %(ew)s %(ew_mp)s")
        % {
            "number": number,
            "ns": ns,
            "ew": ew,
            "ns_mp": scores["NS"]["score"],
            "ew_mp": scores["EW"]["score"],
        }
    ]
    for line, name in (("NS", ns), ("EW", ew)):
        if "cards" in scores[line]:  # counted from the cards: the engine's parts
            words.append(
                _("%(line)s: cards %(cards)s, bonus %(bonus)s, pozzetto %(pozzetto)s")
                % {"line": name, **scores[line]}
            )
    words.append(
        _("Totals with it: %(ns)s %(ns_total)s, %(ew)s %(ew_total)s")
        % {"ns": ns, "ew": ew, "ns_total": totals["NS"], "ew_total": totals["EW"]}
    )
    return {
        "ok": True,
        "number": number,
        "NS": scores["NS"],
        "EW": scores["EW"],
        "totals": totals,
        "words": words,
    }


def _cards(value: Any) -> str:
    """Cards as the hand stores them, in words: counted by kind ("2 × jokers, 5 × K to 8") or
    as points ("30 points"); "" for none."""
    if isinstance(value, Mapping):
        return ", ".join(
            f"{value[kind]} × {KIND_LABELS[kind]}"
            for kind in KINDS
            if isinstance(value.get(kind), int) and value[kind]
        )
    if isinstance(value, int) and not isinstance(value, bool) and value:
        return ngettext("%(points)s point", "%(points)s points", value) % {"points": value}
    return ""


def _burracos(entry: Mapping[str, Any]) -> list[str]:
    counts = {kind: entry.get(kind) for kind in ("clean", "semi", "dirty")}
    words = {
        "clean": lambda n: ngettext("%(count)s clean burraco", "%(count)s clean burracos", n),
        "semi": lambda n: ngettext(
            "%(count)s semi-clean burraco", "%(count)s semi-clean burracos", n
        ),
        "dirty": lambda n: ngettext("%(count)s dirty burraco", "%(count)s dirty burracos", n),
    }
    return [
        words[kind](count) % {"count": count}
        for kind, count in counts.items()
        if isinstance(count, int) and count > 0
    ] or [_("no burraco")]


def _in_hand(entry: Mapping[str, Any]) -> str:
    cards = _cards(entry.get("in_hand", 0))
    return _("in hand: %(cards)s") % {"cards": cards} if cards else _("no card in hand")


def breakdown(hand: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """How a hand counted from the cards was made, line by line, as the card stores it
    (a hand of scorecards.card_body); None for a hand entered as MP. Each line: who it
    is, its facts in words (closed, burracos, pozzetto, cards in hand) and the engine's
    score in parts (cards, bonus, pozzetto, total)."""
    if hand.get("mode") != "cards":
        return None
    data = hand.get("hand") or {}
    out = []
    for line in LINES:
        entry = data.get(line) or {}
        facts = []
        if data.get("closed") == line:
            facts.append(_("closed"))
        melded = _cards(entry.get("melded"))
        if melded:
            facts.append(_("melded: %(cards)s") % {"cards": melded})
        facts += _burracos(entry)
        facts.append(_("pozzetto taken") if entry.get("pozzetto") else _("pozzetto not taken"))
        facts.append(_in_hand(entry))
        score = hand.get(line) or {}
        out.append(
            {
                "line": line,
                "facts": facts,
                "cards": score.get("cards", 0),
                "bonus": score.get("bonus", 0),
                "pozzetto": score.get("pozzetto", 0),
                "score": score.get("score", 0),
            }
        )
    return out
