"""Italian counts of hands read right for one hand too (issue 31, smaller points): "1
smazzate su 3" was a plural after one; the count now follows the word."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext


def test_one_hand_of_three_is_not_plural_in_italian() -> None:
    with translation.override("it"):
        one = gettext("%(hands)s of %(of)s hands") % {"hands": 1, "of": 3}
        card = gettext(
            "%(hands)s of %(of)s hands · difference %(difference)s · VP NS %(ns)s – EW %(ew)s"
        ) % {"hands": 1, "of": 3, "difference": 50, "ns": 11, "ew": 9}
        deals = gettext("%(done)s of %(target)s deals") % {"done": 1, "target": 3}
    for said in (one, card, deals):
        assert "1 smazzate" not in said and "smazzate: 1 su 3" in said, said
    assert "EO 9" in card
