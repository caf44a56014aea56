"""The standings tasks retry, with backoff, when the database connection fails (cut,
restarted, failed over), instead of dying and leaving the standings to the next sweep
(issue 32, point 11)."""

from __future__ import annotations

import pytest
from django.db import InterfaceError, OperationalError

from scoring import rebuild, tasks
from scoring.barbu import rating_sync as barbu_rating_sync
from scoring.barbu import rebuild as barbu_rebuild
from scoring.burraco import rating_sync as burraco_rating_sync

pytestmark = pytest.mark.django_db

STANDINGS_TASKS = [
    (tasks.event_standings_task, (7,), rebuild, "rebuild_event_standings", 3),
    (tasks.league_standings_task, (8,), barbu_rebuild, "rebuild_league_standings", 4),
    (tasks.ratings_task, (), barbu_rating_sync, "sync_ratings", None),
    (tasks.burraco_ratings_task, (), burraco_rating_sync, "sync_burraco_ratings", None),
    (tasks.rebuild_all_task, (), rebuild, "rebuild_all", {"events": 0}),
]
IDS = ["event", "league", "ratings", "burraco_ratings", "rebuild_all"]


class _Report:
    games = 2
    replayed = 1


@pytest.mark.parametrize(("task", "args", "module", "name", "result"), STANDINGS_TASKS, ids=IDS)
@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_a_lost_connection_is_retried_until_the_task_succeeds(
    monkeypatch, task, args, module, name, result, error
) -> None:
    calls = []

    def flaky(*a, **kw):
        calls.append(1)
        if len(calls) < 3:
            raise error("server closed the connection unexpectedly")
        return _Report() if result is None else result

    monkeypatch.setattr(module, name, flaky)
    # As a worker runs it: an error is the task's outcome, not raised at the caller (the
    # settings' eager mode propagates it, and Celery then never retries).
    monkeypatch.setitem(task.app.conf, "task_eager_propagates", False)
    outcome = task.apply(args=args)
    assert outcome.successful(), outcome.traceback
    assert len(calls) == 3


@pytest.mark.parametrize(("task", "args", "module", "name", "result"), STANDINGS_TASKS, ids=IDS)
def test_the_retries_back_off_and_end(task, args, module, name, result) -> None:
    assert set(task.autoretry_for) >= {OperationalError, InterfaceError}
    assert task.retry_backoff and task.retry_jitter
    assert 30 <= task.retry_backoff_max <= 600
    assert 3 <= task.max_retries <= 10


def test_a_bug_is_not_retried(monkeypatch) -> None:
    calls = []

    def broken(**kw):
        calls.append(1)
        raise ValueError("a bug")

    monkeypatch.setattr(rebuild, "rebuild_event_standings", broken)
    with pytest.raises(ValueError):  # eager tasks propagate (CELERY_TASK_EAGER_PROPAGATES)
        tasks.event_standings_task.apply(args=(7,)).get()
    assert len(calls) == 1
