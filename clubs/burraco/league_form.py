"""A Burraco league's season ranking in tournament words: the methods Burraco has (the sum
of each pair's VP, or points for its place in each tournament) and its best N tournaments.

It writes the same League.ranking keys as Barbu's form (clubs.forms.RankingForm):
"method" ("total" or "placement"), "season_points" and "best_evenings", read by
scoring.burraco.selectors.season_settings. Barbu's table placement points, minimum games
and tie-breaks mean nothing here and are not asked.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.services import BURRACO_LEAGUE_METHODS, ranking_check

BURRACO_METHOD_LABELS = {
    "total": _("sum of the VP of each tournament"),
    "placement": _("points for the place in each tournament"),
}


class BurracoRankingForm(forms.Form):
    """League.ranking of a Burraco league, field by field."""

    method = forms.ChoiceField(
        label=_("Rank pairs by"),
        choices=[(m, BURRACO_METHOD_LABELS[m]) for m in BURRACO_LEAGUE_METHODS],
        help_text=_(
            "Sum of VP: the victory points each pair made in every closed tournament. "
            "Placement: points for the pair's place in each tournament (below)."
        ),
    )
    season_points = forms.CharField(
        label=_("Points per place in a tournament"),
        required=False,
        help_text=_(
            "For 1st, 2nd, 3rd… place, separated by commas; places further down score 0. "
            "Empty: 20,15,12,10,8,6,5,4,3,2,1."
        ),
    )
    best_tournaments = forms.IntegerField(
        label=_("Best tournaments"),
        min_value=1,
        required=False,
        help_text=_("Count only each pair's best N tournaments; empty: all of them."),
    )

    @classmethod
    def initial_from(cls, ranking: dict | None) -> dict[str, Any]:
        ranking = ranking or {}
        method = ranking.get("method", "total")
        initial: dict[str, Any] = {
            "method": method if method in BURRACO_LEAGUE_METHODS else "total"
        }
        if ranking.get("season_points"):
            initial["season_points"] = ",".join(str(v) for v in ranking["season_points"])
        if ranking.get("best_evenings"):
            initial["best_tournaments"] = ranking["best_evenings"]
        return initial

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        ranking: dict[str, Any] = {"method": data.get("method") or "total"}
        text = (data.get("season_points") or "").strip()
        if text:
            try:
                ranking["season_points"] = [
                    float(v) if "." in v else int(v) for v in text.split(",")
                ]
            except ValueError:
                self.add_error("season_points", _("Write numbers separated by commas."))
        ranking["best_evenings"] = data.get("best_tournaments") or None
        if not self.errors:
            for problem in ranking_check(ranking):
                self.add_error(None, problem)
        self.ranking = ranking
        return data
