"""Create a club and make existing logins its organisers: how a site gets its first club.

No page creates a club; whoever runs the site does it once per club with this command
(docs/operators.md), and the organisers do the rest from the club's pages.

    python manage.py create_club "Circolo del Barbu" --organiser giulia
    python manage.py create_club "Burraco Roma" --slug burraco-roma --game burraco \
        --language it --organiser anna --organiser marco

Each organiser is a login (a user) made beforehand, with `createsuperuser` or on the
admin's Users page. A login without a player gets one, named after the user. Nothing is
stored unless everything is right: the club, its name and short name, every login.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils.text import slugify

from clubs.models import Club, Membership, Player


class Command(BaseCommand):
    help = "Create a club with its organisers (existing logins): the site's first club."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="The club's name, as its pages show it.")
        parser.add_argument(
            "--organiser",
            action="append",
            required=True,
            metavar="USERNAME",
            help="A login that organises the club (repeat for several).",
        )
        parser.add_argument(
            "--slug",
            help="The short name in the club's addresses (/manage/<slug>/); "
            "by default made from the name.",
        )
        parser.add_argument(
            "--game",
            choices=Club.Games.values,
            default=Club.Games.BARBU,
            help="What the club plays (default: barbu).",
        )
        parser.add_argument(
            "--language",
            choices=[code for code, _name in settings.LANGUAGES],
            default="it",
            help="The language the club's public pages are offered in (default: it).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["name"].strip()
        slug = options["slug"] or slugify(name)
        if not slug:
            raise CommandError(
                f"No short name can be made from {name!r}: give one with --slug (letters, "
                "digits, hyphens)."
            )
        if Club.objects.filter(slug=slug).exists():
            raise CommandError(
                f"A club with the short name {slug!r} exists already: choose another with --slug."
            )
        users = self._users(options["organiser"])
        club = Club(name=name, slug=slug, game=options["game"], language=options["language"])
        try:
            club.full_clean()
        except ValidationError as error:
            problems = "; ".join(
                f"{field}: {' '.join(messages)}" for field, messages in error.message_dict.items()
            )
            raise CommandError(f"The club cannot be created: {problems}") from None
        with transaction.atomic():
            club.save()
            for user in users:
                player = Player.objects.filter(user=user).first() or Player.objects.create(
                    name=user.get_full_name() or user.get_username(), email=user.email, user=user
                )
                Membership.objects.update_or_create(
                    club=club, player=player, defaults={"role": Membership.Role.ORGANISER}
                )
        names = ", ".join(user.get_username() for user in users)
        self.stdout.write(
            f"Created the club {club.name!r} (short name {club.slug!r}, {club.get_game_display()})"
            f" with its organisers: {names}. They sign in and manage it at /manage/{club.slug}/."
        )

    def _users(self, usernames: list[str]) -> list[Any]:
        """The logins named, each once; every missing one named in the error."""
        user_model = get_user_model()
        wanted = list(dict.fromkeys(usernames))
        found = {
            user.get_username(): user
            for user in user_model.objects.filter(**{f"{user_model.USERNAME_FIELD}__in": wanted})
        }
        missing = [username for username in wanted if username not in found]
        if missing:
            raise CommandError(
                f"No login named {', '.join(map(repr, missing))}: create it first "
                "(manage.py createsuperuser, or the admin's Users page at /admin/), then run "
                "this command again. Nothing was created."
            )
        return [found[username] for username in wanted]
