"""The Celery application; its settings come from Django's (CELERY_* names)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# config's own tasks (health check, housekeeping); the apps' tasks.py are autodiscovered.
app = Celery("tavolo", include=["config.health", "config.maintenance"])
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
