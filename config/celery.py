"""The Celery application; its settings come from Django's (CELERY_* names)."""

import logging
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# config's own tasks (health check, housekeeping); the apps' tasks.py are autodiscovered.
app = Celery("tavolo", include=["config.health", "config.maintenance"])
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _survive_lost_unacked_restore() -> None:
    """A worker that loses Redis while it holds a task (acks_late, a countdown) must not die.

    On a lost connection kombu's Redis channel closes itself and then tries to put its
    unacknowledged messages back, through the connection it has just dropped: an
    AttributeError ('NoneType' object has no attribute 'hostname') that Celery treats as
    unrecoverable, and the worker exits (kombu 5.7). The messages are still in Redis's
    "unacked" hash, which hands them out again after the visibility timeout (and
    scoring/healing.py rebuilds the standings before that), so giving up the restore and
    logging it is safe; the worker then reconnects as it should.
    """
    from kombu.transport import redis as kombu_redis
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    original = kombu_redis.QoS.restore_unacked
    if getattr(original, "survives_lost_connection", False):
        return

    def restore_unacked(self, client=None):
        try:
            return original(self, client)
        except (AttributeError, OSError, RedisConnectionError, RedisTimeoutError):
            logging.getLogger(__name__).warning(
                "Redis unreachable: %d unacknowledged message(s) left for the visibility "
                "timeout to hand out again",
                len(self._delivered),
            )
            self._delivered.clear()
            return None

    restore_unacked.survives_lost_connection = True
    kombu_redis.QoS.restore_unacked = restore_unacked


_survive_lost_unacked_restore()
