"""The messages makemessages would extract, found in Python alone (no GNU gettext needed).

Python files are read token by token for calls of the gettext family with literal
strings; templates first go through Django's own templatize(), the step makemessages
runs before xgettext. tests/i18n/test_catalogues.py checks this against makemessages
itself wherever xgettext is installed.
"""

from __future__ import annotations

import ast
import fnmatch
import io
import tokenize
from collections.abc import Iterator
from pathlib import Path

from django.utils.translation.template import templatize

ROOT = Path(__file__).resolve().parents[2]
# The --ignore patterns of the update command in locale/README.md.
IGNORE = (
    ".venv/*",
    "tests/*",
    "bench/*",
    "staticfiles/*",
    "docker/*",
    "scoring/engine/*",
    "games/barbu/seating/*",
    "games/burraco/movements/*",
)
EXTENSIONS = (".py", ".html", ".txt")
# Name -> (index of the context argument or None, index of the msgid).
KEYWORDS = {
    "_": (None, 0),
    "gettext": (None, 0),
    "gettext_lazy": (None, 0),
    "gettext_noop": (None, 0),
    "ngettext": (None, 0),
    "ngettext_lazy": (None, 0),
    "pgettext": (0, 1),
    "pgettext_lazy": (0, 1),
    "npgettext": (0, 1),
    "npgettext_lazy": (0, 1),
}


def source_files(root: Path = ROOT) -> list[Path]:
    """The files makemessages reads (domain django), with the project's ignore patterns."""
    out = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if not path.is_file() or path.suffix not in EXTENSIONS:
            continue
        if any(part.startswith(".") for part in path.relative_to(root).parts):
            continue
        if any(fnmatch.fnmatch(rel, pattern) for pattern in IGNORE):
            continue
        out.append(path)
    return out


def _arguments(tokens: list[tokenize.TokenInfo], start: int) -> list[str | None]:
    """The call's arguments from tokens[start] (the "("): literal strings, else None."""
    args: list[str | None] = []
    current: list[str] = []
    literal = True
    depth = 0
    for token in tokens[start:]:
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
            if depth == 1:
                continue
        if token.type == tokenize.OP and token.string in ")]}":
            depth -= 1
            if depth == 0:
                args.append("".join(current) if literal and current else None)
                return args
        if depth == 1 and token.type == tokenize.OP and token.string == ",":
            args.append("".join(current) if literal and current else None)
            current, literal = [], True
            continue
        if token.type in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
            continue
        if (
            depth == 1
            and token.type == tokenize.STRING
            and not token.string.lower().startswith(("f", "rf", "fr", "b", "rb", "br"))
        ):
            current.append(_literal(token.string))
        else:
            literal = False
    return args


def _literal(text: str) -> str:
    return ast.literal_eval(text)


def messages_in_code(code: str) -> Iterator[tuple[str, str]]:
    """(context, msgid) of every gettext-family call with literal strings in Python-like code."""
    tokens = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            tokens.append(token)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass  # templatize output may end oddly; what was read is enough
    for i, token in enumerate(tokens[:-1]):
        if token.type != tokenize.NAME or token.string not in KEYWORDS:
            continue
        following = tokens[i + 1]
        if following.type != tokenize.OP or following.string != "(":
            continue
        if i and tokens[i - 1].type == tokenize.OP and tokens[i - 1].string == ".":
            continue  # a method of something else
        context_at, msgid_at = KEYWORDS[token.string]
        args = _arguments(tokens, i + 1)
        if len(args) <= msgid_at or args[msgid_at] is None:
            continue
        context = "" if context_at is None else args[context_at]
        if context is None:
            continue
        yield context, args[msgid_at]  # type: ignore[misc]


def extract(root: Path = ROOT) -> set[tuple[str, str]]:
    """Every (context, msgid) of the project, as makemessages would find them."""
    found: set[tuple[str, str]] = set()
    for path in source_files(root):
        text = path.read_text(encoding="utf-8")
        if path.suffix != ".py":
            # Python-like, not Python: its blanked-out lines are indented at random.
            lines = templatize(text, origin=str(path)).splitlines()
            text = "\n".join(line.lstrip() for line in lines)
        found.update(messages_in_code(text))
    return found
