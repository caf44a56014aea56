"""Burraco leagues stored with Barbu's ranking method "average" (saved before a Burraco
league was refused it, clubs.services.league_save) rank by "total", the sum of each pair's
VP: what their season page has always counted for them (scoring.burraco.selectors), now
said in its words. Barbu leagues keep their average; the other keys stay as they are.
Running it again changes nothing; there is nothing to undo (the count is the same)."""

from django.db import migrations


def average_to_total(apps, schema_editor):
    League = apps.get_model("clubs", "League")
    changed = []
    for league in League.objects.filter(game="burraco").only("pk", "ranking"):
        ranking = league.ranking or {}
        if isinstance(ranking, dict) and ranking.get("method") == "average":
            league.ranking = {**ranking, "method": "total"}
            changed.append(league)
    League.objects.bulk_update(changed, ["ranking"])


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0002_burraco_game"),
    ]

    operations = [
        migrations.RunPython(average_to_total, migrations.RunPython.noop),
    ]
