"""Load the demo club (idempotent): players, a league of played evenings, one in progress."""

from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Create the demo club with its organiser login (organiser / tavolo-demo)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="Load the demo even though DEBUG is off (never on a production site).",
        )

    def handle(self, *args, **options) -> None:
        from demo.loader import DemoRefused, load_demo

        try:
            summary = load_demo(force=options["force"])
        except DemoRefused as error:
            raise CommandError(str(error)) from None
        self.stdout.write(summary)
