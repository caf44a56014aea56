"""The free match's state (docs/rules/burraco.md "Ways to play a match"): complete once a pair has
reached the target with the higher total, level above it plays on, what each line needs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import burraco


@pytest.mark.parametrize(
    ("ns", "ew", "target", "complete", "winner", "needs"),
    [
        (0, 0, 2005, False, None, {"NS": 2005, "EW": 2005}),
        (1665, 1200, 2005, False, None, {"NS": 340, "EW": 805}),
        (2010, 1990, 2005, True, "NS", {"NS": 0, "EW": 15}),
        (2100, 2300, 2005, True, "EW", {"NS": 0, "EW": 0}),
        (2100, 2100, 2005, False, None, {"NS": 0, "EW": 0}),  # level above: another hand
        (1005, 400, 1005, True, "NS", {"NS": 0, "EW": 605}),
        (1500, -200, 1505, False, None, {"NS": 5, "EW": 1705}),
    ],
)
def test_match_state(ns, ew, target, complete, winner, needs) -> None:
    state = burraco.free_match_state(ns, ew, target)
    assert (state.complete, state.winner, state.needs) == (complete, winner, needs)


def test_the_targets_clubs_play() -> None:
    assert burraco.FREE_TARGETS == (2005, 1505, 1005)
    assert burraco.PRESETS["fibur"].target == 2005


scores = st.integers(min_value=-400, max_value=800).map(lambda n: n * 5)


@given(st.lists(st.tuples(scores, scores), max_size=12), st.sampled_from(burraco.FREE_TARGETS))
def test_state_properties(hands, target) -> None:
    """Complete exactly when a pair passed the target ahead; the winner has the higher total."""
    ns = ew = 0
    for a, b in hands:
        if burraco.free_match_state(ns, ew, target).complete:
            break
        ns, ew = ns + a, ew + b
    state = burraco.free_match_state(ns, ew, target)
    assert state.complete == (ns != ew and max(ns, ew) >= target)
    assert (state.winner is None) == (not state.complete)
    if state.winner:
        assert {"NS": ns, "EW": ew}[state.winner] == max(ns, ew)
    assert all(v >= 0 for v in state.needs.values())
