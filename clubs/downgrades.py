"""Downgrades that would lose stored data are refused before anything is changed.

A migration run backwards drops what it added. Where the older schema cannot hold rows
the database has (a Burraco event where there was no Burraco, an individual tournament
where every pair had two players), the migration ends with `KeepRows`: forwards it does
nothing; backwards it runs first, and refuses (`DowngradeRefused`, naming the rows and
what to do) when one of its `Keep`s finds rows.

`refuse_lossy_downgrade` (pre_migrate, connected in clubs/apps.py) runs the `Keep`s of
every migration a `manage.py migrate` would take back before the first one is taken
back, so a refused downgrade leaves the database exactly as it was. Run through the
MigrationExecutor alone, each migration still refuses at its own turn; those taken back
before it lost nothing (that is why they carry no `KeepRows`).

A migration without `KeepRows` loses nothing when taken back: what it added is empty,
derived (`GameScore.above`, every table of scoring: rebuilt after the next forward
migrate, scoring/receivers.py) or a list of choices. The migrations of every app use
this module, the lowest of the apps.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import FieldError
from django.core.management.base import CommandError
from django.db import router
from django.db.migrations import Migration
from django.db.migrations.exceptions import IrreversibleError
from django.db.migrations.operations import RunPython
from django.db.models import Q

WHAT_TO_DO = (
    "To run the version you upgraded from, restore the backup taken before the upgrade "
    "(docs/operators.md, 'Upgrades and downgrades')"
)


class DowngradeRefused(CommandError, IrreversibleError):
    """A migration would drop rows the older schema cannot store; `manage.py migrate`
    prints the message without a traceback and exits with status 1."""


@dataclass(frozen=True)
class Keep:
    """Rows a migration's reversal would lose: `model` ("games.Event") filtered by `rows`,
    named for one row and for more ("individual Burraco tournament", "... tournaments")."""

    model: str
    rows: Q
    one: str
    many: str

    def named(self, count: int) -> str:
        return f"{count} {self.one if count == 1 else self.many} ({self.model})"

    def count(self, apps: Any, using: str) -> int:
        model = apps.get_model(self.model)
        return model._base_manager.using(using).filter(self.rows).count()


class KeepRows(RunPython):
    """The last operation of a migration whose reversal would lose what `keeps` find."""

    def __init__(self, *keeps: Keep) -> None:
        self.keeps = keeps
        super().__init__(RunPython.noop, self._refuse)

    def _refuse(self, apps: Any, schema_editor: Any) -> None:
        """Refuse if the database holds rows that taking this migration back would lose"""
        using = schema_editor.connection.alias
        found = [(keep, keep.count(apps, using)) for keep in self.keeps]
        found = [(keep, n) for keep, n in found if n]
        if found:
            raise DowngradeRefused(
                f"Downgrade refused: the database holds {_listed(found)}, which the older "
                f"schema cannot store. This migration was not taken back. {WHAT_TO_DO}."
            )

    def describe(self) -> str:
        return "Refuse to be taken back while it would lose stored rows"


def _listed(found: Iterable[tuple[Keep, int]]) -> str:
    return "; ".join(keep.named(n) for keep, n in found)


def blockers(
    plan: Iterable[tuple[Migration, bool]], apps: Any, using: str
) -> list[tuple[Migration, list[tuple[Keep, int]]]]:
    """The migrations of `plan` taken back that would lose rows, each with what it would
    lose, counted in the database as it is now (`apps`: its state). A `Keep` naming a
    model or a field this state lacks is left to the migration's own check."""
    refused = []
    for migration, backwards in plan:
        if not backwards or not router.allow_migrate(using, migration.app_label):
            continue
        found = []
        for operation in migration.operations:
            if not isinstance(operation, KeepRows):
                continue
            for keep in operation.keeps:
                try:
                    count = keep.count(apps, using)
                except (LookupError, FieldError):
                    continue
                if count:
                    found.append((keep, count))
        if found:
            refused.append((migration, found))
    return refused


def refuse_lossy_downgrade(
    sender: Any, *, apps: Any, using: str, plan: list | None = None, **kwargs: Any
) -> None:
    """pre_migrate: refuse the whole plan, before it starts, when taking back one of its
    migrations would lose rows."""
    refused = blockers(plan or [], apps, using)
    if not refused:
        return
    lines = [f"- {m.app_label}.{m.name}: {_listed(found)}" for m, found in refused]
    farthest: dict[str, str] = {}
    for migration, _found in refused:  # the plan takes each app's latest back first
        farthest.setdefault(migration.app_label, migration.name)
    stops = ", ".join(f"`migrate {app} {name}`" for app, name in farthest.items())
    raise DowngradeRefused(
        "Downgrade refused, nothing was changed: taking back these migrations would lose "
        "stored rows the older schema cannot hold:\n"
        + "\n".join(lines)
        + f"\nThe farthest back this database can go: {stops}. {WHAT_TO_DO}."
    )
