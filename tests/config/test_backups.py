"""A backup as docs/operators.md takes it (pg_dump -Fc) restored with pg_restore into a
database of its own: every table has its rows, and the standings rebuilt there equal
the ones backed up."""

from __future__ import annotations

import os

import pytest
from django.core.management import call_command
from django.db import connection

from tests.config.databases import (
    load_both_games,
    pg_dump,
    restored,
    standings,
    stored_rows,
    table_counts,
)

# Slow: the demo clubs are loaded (about 10 s), dumped and restored.
pytestmark = [pytest.mark.postgres, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_a_dump_restored_into_a_new_database_has_every_row_and_the_same_standings(tmp_path):
    load_both_games()
    counts, rows, ranked = table_counts(), stored_rows(), standings()
    assert counts["games_burracohand"] and counts["games_deal"] and counts["scoring_pairstanding"]
    dump = tmp_path / "tavolo.dump"

    pg_dump(dump)

    with restored(dump, f"{connection.settings_dict['NAME']}_restored_{os.getpid()}"):
        assert table_counts() == counts
        assert stored_rows() == rows
        call_command("rebuild_standings", verbosity=0)
        assert standings() == ranked
    assert table_counts() == counts  # back on the tested database
