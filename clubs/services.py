"""Writes of clubs: rules, players (add, merge, CSV import), memberships and leagues.

Each function owns its transaction; a mistake the organiser can fix raises ClubError
with a stable code, its parameters and a translated message.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.csv_text import csv_rows, header_columns
from clubs.engine_words import problem_message
from clubs.models import Club, GameChoice, League, Membership, Player
from clubs.signals import player_merging
from scoring.engine import barbu, burraco
from scoring.engine.ranking import parse_ranking

ROLE_ORDER = {Membership.Role.GUEST: 0, Membership.Role.MEMBER: 1, Membership.Role.ORGANISER: 2}
MAX_IMPORT_LINES = 2000
# The season rankings a Burraco league has (League.ranking's "method"), read by
# scoring.burraco.selectors: the sum of each pair's VP, or points for its place.
BURRACO_LEAGUE_METHODS = ("total", "placement")


class ClubError(Exception):
    """An organiser's mistake: a stable code, its parameters and a translated message."""

    def __init__(self, message: str, *, code: str, params: dict | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.params = params or {}


def ruleset_check(obj: Any) -> tuple[dict | None, list[str]]:
    """The ruleset as {"preset", "options"} if the engine accepts it, else its problems."""
    try:
        rs = barbu.ruleset_from_json(obj)
    except barbu.InvalidGame as error:
        return None, [problem_message(p) for p in error.problems]
    # Keep only the overrides the organiser chose, so the words shown stay short.
    options = dict(obj.get("options") or {}) if isinstance(obj, dict) else {}
    return {"preset": rs.preset, "options": options}, []


def club_set_ruleset(*, club: Club, ruleset: dict) -> Club:
    """Change the club's default rules; events already created keep their frozen copy."""
    checked, problems = ruleset_check(ruleset)
    if checked is None:
        raise ClubError("; ".join(problems), code="invalid_ruleset", params={"problems": problems})
    club.ruleset = checked
    club.save(update_fields=["ruleset"])
    return club


def club_set_burraco_ruleset(*, club: Club, ruleset: dict) -> Club:
    """Change the club's Burraco rules (a preset and its overrides, VP tables included);
    tournaments already created keep their frozen copy."""
    checked, problems = burraco.parse_ruleset(ruleset)
    if checked is None or problems:
        words = [problem_message(p) for p in problems]
        raise ClubError("; ".join(words), code="invalid_ruleset", params={"problems": words})
    club.burraco_ruleset = ruleset
    club.save(update_fields=["burraco_ruleset"])
    return club


def ranking_check(obj: Any) -> list[str]:
    """The problems of a League.ranking object (empty when scoring.engine.ranking accepts it)."""
    _ranking, problems = parse_ranking(obj)
    messages = {
        "not_object": _("The ranking must be an object."),
        "unknown_option": _("Unknown ranking option %(option)s."),
        "unknown_method": _("Unknown ranking method %(method)s."),
        "placement_points": _("Placement points must be four numbers, for 1st to 4th place."),
        "season_points": _(
            "Points per place in a tournament must be numbers of 0 or more, from 1st place down."
        ),
        "not_count": _("%(field)s must be a whole number (not %(value)s)."),
        "unknown_tiebreak": _("Unknown or repeated tie-break %(tiebreak)s."),
        "not_list": _("Tie-breaks must be a list."),
    }
    out = []
    for problem in problems:
        template = messages.get(problem.code)
        params = {"field": problem.field, **problem.params}
        try:
            out.append(template % params if template else f"{problem.field}: {problem.code}")
        except (KeyError, TypeError):
            out.append(f"{problem.field}: {problem.code}")
    return out


def league_save(*, league: League) -> League:
    """Store a league after checking its rules and ranking method, those of its game."""
    burraco_league = league.game == GameChoice.BURRACO
    if league.ruleset and burraco_league:
        rules, rule_problems = burraco.parse_ruleset(league.ruleset)
        if rules is None or rule_problems:
            words = [problem_message(p) for p in rule_problems]
            raise ClubError("; ".join(words), code="invalid_ruleset")
    elif league.ruleset:
        checked, problems = ruleset_check(league.ruleset)
        if checked is None:
            raise ClubError("; ".join(problems), code="invalid_ruleset")
        league.ruleset = checked
    problems = ranking_check(league.ranking or {})
    if problems:
        raise ClubError("; ".join(problems), code="invalid_ranking")
    method = (league.ranking or {}).get("method", "total")
    if burraco_league and method not in BURRACO_LEAGUE_METHODS:
        raise ClubError(
            _(
                "A Burraco league ranks pairs by the sum of their VP or by placement points, "
                "not by %(method)s."
            )
            % {"method": method},
            code="invalid_ranking",
            params={"method": method},
        )
    league.save()
    return league


def _check_number(club: Club, number: str, player: Player | None = None) -> str:
    """A membership number as stored (stripped), refused when another player of the club
    holds it."""
    number = number.strip()
    holder = (
        Membership.objects.filter(club=club, federation_number=number)
        .exclude(player=player)
        .select_related("player")
        .first()
        if number
        else None
    )
    if holder is not None:
        raise ClubError(
            _("Membership number %(number)s is already %(name)s's.")
            % {"number": number, "name": holder.player.name},
            code="number_taken",
        )
    return number


def player_add(
    *,
    club: Club,
    name: str,
    email: str = "",
    role: str = Membership.Role.MEMBER,
    federation_number: str = "",
) -> Player:
    """A new player of the club (a guest is a player with the guest role)."""
    name = name.strip()
    if not name:
        raise ClubError(_("A player needs a name."), code="name_missing")
    if role not in Membership.Role.values:
        raise ClubError(_("Unknown role: %(role)s.") % {"role": role}, code="invalid_role")
    with transaction.atomic():
        number = _check_number(club, federation_number)
        player = Player.objects.create(name=name[:80], email=email.strip())
        Membership.objects.create(club=club, player=player, role=role, federation_number=number)
    return player


def membership_update(*, club: Club, player: Player, role: str, number: str) -> Membership:
    """The player's role and federation membership number (empty: none) in the club:
    both, or neither when one is refused."""
    with transaction.atomic():
        membership = membership_set_role(club=club, player=player, role=role)
        membership.federation_number = _check_number(club, number, player)
        membership.save(update_fields=["federation_number"])
    return membership


def membership_set_role(*, club: Club, player: Player, role: str) -> Membership:
    if role not in Membership.Role.values:
        raise ClubError(_("Unknown role: %(role)s.") % {"role": role}, code="invalid_role")
    with transaction.atomic():
        membership = Membership.objects.select_for_update().get(club=club, player=player)
        if (
            membership.role == Membership.Role.ORGANISER
            and role != Membership.Role.ORGANISER
            and not club.memberships.filter(role=Membership.Role.ORGANISER)
            .exclude(pk=membership.pk)
            .exists()
        ):
            raise ClubError(
                _("A club needs at least one organiser."), code="last_organiser", params={}
            )
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


def player_merge(*, club: Club, keep: Player, duplicate: Player) -> Player:
    """Move everything of `duplicate` to `keep` and mark `duplicate` merged, in one transaction.

    Moves memberships (the higher role wins), the login, the e-mail and earlier merges; the
    apps built on clubs move their own rows on the `player_merging` signal (check-ins,
    seats, scores, deals dealt, byes; derived standings and ratings) and may refuse the
    merge, e.g. when both sat at the same table (one game cannot have the same person twice).
    """
    if keep.pk == duplicate.pk:
        raise ClubError(_("Choose two different players."), code="same_player")
    with transaction.atomic():
        players = {
            p.pk: p
            for p in Player.objects.select_for_update().filter(pk__in=[keep.pk, duplicate.pk])
        }
        keep, duplicate = players[keep.pk], players[duplicate.pk]
        member_of = set(
            Membership.objects.filter(player__in=[keep, duplicate]).values_list(
                "club_id", "player_id"
            )
        )
        if (club.pk, keep.pk) not in member_of or (club.pk, duplicate.pk) not in member_of:
            raise ClubError(
                _("Both players must belong to this club."), code="not_in_club", params={}
            )
        if duplicate.merged_into_id is not None:
            raise ClubError(
                _("%(name)s was already merged.") % {"name": duplicate.name}, code="already_merged"
            )
        player_merging.send(sender=Player, club=club, keep=keep, duplicate=duplicate)

        # Memberships: the kept player keeps the higher role in a club both belong to.
        kept_roles = {m.club_id: m for m in Membership.objects.filter(player=keep)}
        for membership in Membership.objects.filter(player=duplicate):
            mine = kept_roles.get(membership.club_id)
            if mine is None:
                membership.player = keep
                membership.save(update_fields=["player"])
                continue
            if ROLE_ORDER[membership.role] > ROLE_ORDER[mine.role]:
                mine.role = membership.role
                mine.save(update_fields=["role"])
            number = membership.federation_number
            membership.delete()
            if number and not mine.federation_number:  # the duplicate's number is kept
                mine.federation_number = number
                mine.save(update_fields=["federation_number"])

        Player.objects.filter(merged_into=duplicate).update(merged_into=keep)
        if keep.user_id is None and duplicate.user_id is not None:
            keep.user_id, duplicate.user_id = duplicate.user_id, None
            duplicate.save(update_fields=["user"])
            keep.save(update_fields=["user"])
        if not keep.email and duplicate.email:
            keep.email = duplicate.email
            keep.save(update_fields=["email"])
        duplicate.merged_into = keep
        duplicate.save(update_fields=["merged_into"])
    return keep


@dataclass
class ImportLine:
    """One line of a CSV import: what would be created, or what is wrong with it."""

    line: int
    name: str
    email: str
    role: str
    errors: list[str] = field(default_factory=list)
    number: str = ""  # the federation membership number, given in a named column


@dataclass
class ImportPreview:
    lines: list[ImportLine]
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors and all(not line.errors for line in self.lines)

    @property
    def valid_lines(self) -> list[ImportLine]:
        return [line for line in self.lines if not line.errors]


# The players' import's columns as a spreadsheet names them, in the site's languages.
PLAYER_COLUMNS = {
    **dict.fromkeys(("name", "nome", "nombre", "nom"), "name"),
    **dict.fromkeys(("email", "e-mail", "mail", "correo", "courriel"), "email"),
    **dict.fromkeys(("role", "ruolo", "rol", "rôle", "rolle"), "role"),
    **dict.fromkeys(
        ("membership number", "tessera", "numero tessera", "licencia", "mitgliedsnummer"),
        "number",
    ),
}
# A role as an Italian, Spanish, German or French organiser writes it.
ROLE_WORDS = {
    **dict.fromkeys(("socio", "membro", "miembro", "mitglied", "membre"), "member"),
    **dict.fromkeys(("ospite", "invitado", "gast", "invité", "invitée"), "guest"),
    **dict.fromkeys(
        ("organizzatore", "organizador", "organisator", "organisateur", "organizer"),
        "organiser",
    ),
}


def _number_holders(club: Club) -> dict[str, str]:
    """The club's membership numbers and who holds each (one query)."""
    return dict(
        Membership.objects.filter(club=club)
        .exclude(federation_number="")
        .values_list("federation_number", "player__name")
    )


def _check_import_number(line: ImportLine, holders: dict[str, str]) -> None:
    """An imported line's membership number: digits in it, 20 characters at most, no
    other player's (of the club, or of an earlier line, which then holds it)."""
    if not line.number:
        return
    if len(line.number) > 20 or not any(c.isdigit() for c in line.number):
        line.errors.append(
            _("%(number)s is not a membership number: it has no digit.")
            % {"number": line.number[:20]}
        )
    elif line.number in holders:
        line.errors.append(
            _("Membership number %(number)s is already %(name)s's.")
            % {"number": line.number, "name": holders[line.number]}
        )
    else:
        holders[line.number] = line.name


def players_import_preview(*, club: Club, text: str) -> ImportPreview:
    """Read CSV text (columns name, email, role; a header line is optional, in any of the
    site's languages: ``nome;email;ruolo``) and check each line. The separator, line ends
    and byte-order mark of a spreadsheet's export are read by clubs.csv_text.

    Nothing is stored: players_import stores the valid lines of the same text.
    """
    rows = csv_rows(text)
    if not rows:
        return ImportPreview([], [_("The file is empty.")])
    if len(rows) > MAX_IMPORT_LINES:
        return ImportPreview(
            [], [_("At most %(max)s lines at a time.") % {"max": MAX_IMPORT_LINES}]
        )
    columns = ["name", "email", "role"]
    header = header_columns(rows[0][1], PLAYER_COLUMNS)
    if header is not None:
        unknown = [c for c in header if c not in ("name", "email", "role", "number")]
        if unknown or "name" not in header:
            return ImportPreview(
                [],
                [
                    _("Unknown columns %(columns)s: the columns are name, e-mail and role.")
                    % {"columns": ", ".join(unknown) or "–"}
                ],
            )
        columns = header
        rows = rows[1:]
    existing = {
        name.casefold()
        for name in Player.objects.filter(memberships__club=club).values_list("name", flat=True)
    }
    seen: dict[str, int] = {}
    numbers = _number_holders(club)
    lines = []
    for number, row in rows:
        values = dict(zip(columns, row, strict=False))
        role = (values.get("role") or Membership.Role.MEMBER).lower()
        line = ImportLine(
            number, values.get("name", ""), values.get("email", ""), ROLE_WORDS.get(role, role)
        )
        line.number = values.get("number", "")
        _check_import_number(line, numbers)
        if len(row) > len(columns):
            line.errors.append(
                _("%(count)s columns, expected at most %(expected)s (name, email, role).")
                % {"count": len(row), "expected": len(columns)}
            )
        if not line.name:
            line.errors.append(_("The name is missing."))
        elif len(line.name) > 80:
            line.errors.append(_("The name is longer than 80 characters."))
        elif line.name.casefold() in existing:
            line.errors.append(_("%(name)s is already a player of the club.") % {"name": line.name})
        elif line.name.casefold() in seen:
            line.errors.append(
                _("%(name)s is also on line %(line)s.")
                % {"name": line.name, "line": seen[line.name.casefold()]}
            )
        if line.name:
            seen.setdefault(line.name.casefold(), number)
        if line.email:
            try:
                validate_email(line.email)
            except ValidationError:
                line.errors.append(_("%(email)s is not an e-mail address.") % {"email": line.email})
        if line.role not in Membership.Role.values:
            line.errors.append(
                _("Unknown role %(role)s: use member, guest or organiser.") % {"role": line.role}
            )
        lines.append(line)
    if not lines:
        return ImportPreview([], [_("The file has no players.")])
    return ImportPreview(lines)


def players_import(*, club: Club, text: str, skip_bad_lines: bool = False) -> list[Player]:
    """Create the players of a CSV text; refused when a line is wrong unless told to skip it."""
    with transaction.atomic():
        preview = players_import_preview(club=club, text=text)
        if preview.errors or (not preview.ok and not skip_bad_lines):
            raise ClubError(
                _("The file has errors: nothing was imported."),
                code="import_errors",
                params={"lines": [line.line for line in preview.lines if line.errors]},
            )
        lines = preview.valid_lines
        players = Player.objects.bulk_create(
            [Player(name=line.name, email=line.email) for line in lines]
        )
        Membership.objects.bulk_create(
            [
                Membership(club=club, player=player, role=line.role, federation_number=line.number)
                for player, line in zip(players, lines, strict=True)
            ]
        )
    return players
