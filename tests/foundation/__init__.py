"""Tests of the foundation: settings, SQLite under load, Celery, docker files, demo data."""
