"""judge_game: validate_game, score_game and game_state of a record in one pass."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.barbu import PRESETS, game_state, judge_game, score_game, validate_game
from scoring.engine.barbu.randomgame import random_game

presets = st.sampled_from(sorted(PRESETS))


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), presets, st.booleans(), st.integers(0, 40))
def test_judge_game_is_validate_score_and_state_in_one(rng, preset, messy, cut):
    record = random_game(rng, preset, messy=messy)
    record["deals"] = record["deals"][:cut]
    before = copy.deepcopy(record)
    judged = judge_game(record)
    assert record == before  # the record is read, never changed
    assert judged.problems == validate_game(record) == []
    assert judged.scores == score_game(record)
    assert judged.state == game_state(record)


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), presets, st.integers(1, 24))
def test_judge_game_reports_the_same_problems_as_validate(rng, preset, broken):
    record = random_game(rng, preset)
    deals = record["deals"][: min(broken, len(record["deals"]))]
    deals[-1] = {**deals[-1], "contract": "nonsense", "dealer": "Nobody"}
    record["deals"] = deals
    judged = judge_game(record)
    assert judged.problems and judged.problems == validate_game(record)
    assert judged.scores is None and judged.state is None


def test_judge_game_of_something_that_is_not_a_record():
    judged = judge_game(["not", "a", "record"])
    assert judged.problems == validate_game(["not", "a", "record"]) != []
    assert judged.scores is None and judged.state is None
