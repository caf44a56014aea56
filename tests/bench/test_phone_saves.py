"""bench/phone_saves.py's report: the median and slowest of each phone's saves, judged
against the targets by the slowest. (The saves themselves run in test_every_bench_runs.)"""

from __future__ import annotations

from tests.bench.modules import bench_module


def phone_saves():
    return bench_module("phone_saves")


def test_each_phone_is_judged_by_its_slowest_save():
    saves = [{"own": 0.6}, {"other": 0.8}, {"own": 0.7}, {"other": 2.4}, {"own": 0.65}]
    text = "\n".join(phone_saves().render(saves, 4))
    assert "0.65 s median, 0.70 s slowest (3) | under 1 s: met" in text
    assert "1.60 s median, 2.40 s slowest (2) | under 2 s: NOT met" in text
    assert "CPU slowed 4x" in text


def test_no_table_to_save_at_is_said():
    assert "not measured" in "\n".join(phone_saves().render([], 4))
