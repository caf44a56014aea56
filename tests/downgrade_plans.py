"""What a downgrade would be refused by (clubs/downgrades.py), for the tests of each
migration's KeepRows."""

from __future__ import annotations

from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from clubs.downgrades import blockers


def refused_by(app: str, target: str) -> dict[str, str]:
    """What `migrate app target` would be refused by: {migration: what it would lose}."""
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan([(app, target)])
    apps = executor.loader.project_state().apps
    return {
        f"{m.app_label}.{m.name}": "; ".join(keep.named(n) for keep, n in found)
        for m, found in blockers(plan, apps, connection.alias)
    }
