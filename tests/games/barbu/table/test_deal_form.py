"""The shared deal form: a stored deal pre-fills it and reads back the same; its choices."""

from __future__ import annotations

import random

import pytest
from django.http import QueryDict

from games.barbu.deal_form import deal_from_form, selected_from_deal, stored_deal_choices
from scoring.engine import barbu
from scoring.engine.barbu.randomgame import random_game
from tests.factories import NAMES


def as_posted(selected: dict[str, list[str]]) -> QueryDict:
    posted = QueryDict(mutable=True)
    for key, values in selected.items():
        posted.setlist(key, values)
    return posted


@pytest.mark.parametrize("preset", ["italian7", "italian6", "french", "german"])
def test_every_stored_deal_reads_back_from_its_prefilled_form(preset):
    record = random_game(random.Random(11), preset, players=list(NAMES))
    names = record["players"]
    for number, stored in enumerate(record["deals"], start=1):
        stored = barbu.normalise_deal(stored, names)
        posted = as_posted(selected_from_deal(stored, names))
        read = deal_from_form(posted, names, ruleset=record["ruleset"], number=number)
        assert read.pop("number") == number
        assert barbu.normalise_deal(read, names) == stored, number


def test_a_stored_deals_choices_exclude_the_dealers_other_contracts_and_name_must_doubles():
    record = random_game(random.Random(5), "italian7", players=list(NAMES))
    names, deals = record["players"], record["deals"]
    for number, deal in enumerate(deals, start=1):
        choices = stored_deal_choices(
            ruleset=record["ruleset"], names=names, deals=deals, number=number
        )
        assert choices.dealer == deal["dealer"]
        assert choices.contracts == [deal["contract"]]  # a full game: one contract left
        # A "must" double left out makes the engine refuse the game; any other may go.
        for double in deal.get("doubles") or []:
            if double["against"] != deal["dealer"]:
                continue
            without = [d for d in deal["doubles"] if d is not double]
            changed = {**record, "deals": [*deals]}
            changed["deals"][number - 1] = {**deal, "doubles": without}
            codes = {p.code for p in barbu.validate_game(changed)}
            pair = {"by": double["by"], "against": double["against"]}
            assert ("mandatory_double_now" in codes) == (pair in choices.must), number
