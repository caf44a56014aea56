"""GameScore.above: the players at the table with a higher total, filled for existing rows,
and GameScore.place made to agree with the stored totals.

Both from the stored totals, as the window functions the placement query used until now
saw them: above = RANK() - 1, place = above + (level + 1) / 2 with level the players of
that total. `place` only changes where it disagreed: rows written while `total` kept one
decimal (migration 0003), whose place came from the engine's unrounded totals (two totals
such as 10.75 and 10.83 stored as 10.8, level by total but not by place).

PostgreSQL: one UPDATE from window functions over each game (80,000 rows in about a
second), then ANALYZE. Elsewhere (SQLite): one UPDATE with correlated counts per row, the same numbers.
Rows already right are not rewritten, so running it again writes nothing.
"""

from django.db import migrations, models

POSTGRESQL = (
    'UPDATE "games_gamescore" SET "above" = w."above", "place" = w."place" FROM ('
    'SELECT "id", "above", "above" + ("level" + 1) / 2.0 AS "place" FROM ('
    'SELECT "id", RANK() OVER (PARTITION BY "game_id" ORDER BY "total" DESC) - 1 AS "above", '
    'COUNT(*) OVER (PARTITION BY "game_id", "total") AS "level" '
    'FROM "games_gamescore") r) w '
    'WHERE w."id" = "games_gamescore"."id" '
    'AND ("games_gamescore"."above" <> w."above" OR "games_gamescore"."place" <> w."place")'
)
PORTABLE = (
    'UPDATE "games_gamescore" SET "above" = ('
    'SELECT COUNT(*) FROM "games_gamescore" o WHERE o."game_id" = "games_gamescore"."game_id" '
    'AND o."total" > "games_gamescore"."total"), "place" = ('
    'SELECT COUNT(*) FROM "games_gamescore" o WHERE o."game_id" = "games_gamescore"."game_id" '
    'AND o."total" > "games_gamescore"."total") + (('
    'SELECT COUNT(*) FROM "games_gamescore" o WHERE o."game_id" = "games_gamescore"."game_id" '
    'AND o."total" = "games_gamescore"."total") + 1) / 2.0'
)


def fill_above(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(POSTGRESQL)
        # Fresh statistics for the planner after rewriting most rows (autovacuum reclaims
        # the old row versions later; VACUUM cannot run inside the migration's transaction).
        schema_editor.execute('ANALYZE "games_gamescore"')
    else:
        schema_editor.execute(PORTABLE)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_gamescore_total_hundredths"),
    ]

    operations = [
        migrations.AddField(
            model_name="gamescore",
            name="above",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.RunPython(fill_above, migrations.RunPython.noop, elidable=True),
    ]
