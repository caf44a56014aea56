"""What the upgrade and backup tests compare: every stored row of a database holding both
games (the demo clubs), and the standings and ratings derived from them."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.apps import apps
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder

from demo.loader import load_demo
from scoring.rebuild import rebuild_all

# The apps whose rows are stored (the deals, the hands, who played); scoring's are derived.
STORED_APPS = ("auth", "authtoken", "clubs", "games")
DERIVED_APP = "scoring"
# Bookkeeping of the rebuilds, not standings: when they ran, what they were computed from.
BOOKKEEPING = {"StandingsSource", "RatingRun", "BurracoRatingRun"}
WHEN = {"id", "updated_at", "rebuilt_at"}


def load_both_games() -> None:
    """The demo clubs: a Barbu league of evenings (deals, a correction, closed evenings),
    a Burraco season of pair tournaments (score cards, hands, penalties), an evening of
    free matches and an individual tournament, with their standings and ratings, as a
    full rebuild leaves them (the demo's load leaves the Burraco pair ratings to it)."""
    load_demo(force=True)
    rebuild_all()


def stored_rows() -> dict[str, list[dict[str, Any]]]:
    """Every row of every stored model, in the order of its primary key."""
    return {
        model._meta.label: list(model._base_manager.order_by("pk").values())
        for label in STORED_APPS
        for model in apps.get_app_config(label).get_models()
    }


def standings() -> dict[str, list[str]]:
    """Every standing and rating row without its id and time stamps, in a stable order
    (a rebuild writes new rows where the old were dropped)."""
    derived = {}
    for model in apps.get_app_config(DERIVED_APP).get_models():
        if model.__name__ in BOOKKEEPING:
            continue
        rows = model._base_manager.values()
        derived[model._meta.label] = sorted(
            repr(sorted((k, v) for k, v in row.items() if k not in WHEN)) for row in rows
        )
    return derived


def applied_migrations() -> set[tuple[str, str]]:
    return set(MigrationRecorder(connection).applied_migrations())


def table_counts() -> dict[str, int]:
    """The rows of every table of the database (every model's, the many-to-many ones and
    the migrations' record included)."""
    counts = {
        model._meta.db_table: model._base_manager.count()
        for model in apps.get_models(include_auto_created=True)
    }
    counts[MigrationRecorder.Migration._meta.db_table] = MigrationRecorder(
        connection
    ).migration_qs.count()
    assert set(counts) == set(connection.introspection.table_names())
    return counts


def _pg(*command: str, database: str | None = None) -> None:
    """A PostgreSQL client program run on the test database's server, as its user."""
    db = connection.settings_dict
    env = {**os.environ, "PGHOST": db["HOST"] or "", "PGPORT": str(db["PORT"] or "")}
    env |= {"PGUSER": db["USER"] or "", "PGPASSWORD": db["PASSWORD"] or ""}
    env["PGDATABASE"] = database or db["NAME"]
    subprocess.run(command, env=env, check=True, capture_output=True, text=True, timeout=300)


def pg_dump(path: Path) -> None:
    """The database, as docs/operators.md backs it up: pg_dump in its custom format."""
    _pg("pg_dump", "-Fc", "-f", str(path))


@contextmanager
def restored(path: Path, name: str) -> Iterator[None]:
    """The dump restored with pg_restore into a new database of that name, the default
    connection pointed at it meanwhile; the database is dropped after."""
    _pg("dropdb", "--if-exists", name, database="postgres")
    _pg("createdb", name, database="postgres")
    db = connection.settings_dict
    tested = db["NAME"]
    try:
        _pg("pg_restore", "--no-owner", "--exit-on-error", "-d", name, str(path))
        connection.close()
        db["NAME"] = name
        yield
    finally:
        connection.close()
        db["NAME"] = tested
        _pg("dropdb", "--if-exists", name, database="postgres")
