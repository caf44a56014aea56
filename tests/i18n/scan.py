"""Find user-visible text outside the translation machinery, in templates and Python modules.

Templates: every text between tags, and the visible attributes (title, placeholder,
aria-label, alt, label, value of buttons), must come from {% translate %},
{% blocktranslate %} or a variable; what is left once those are taken out may hold no word.
Python: literal strings in the places that reach users (model and form labels, choices,
messages.*, ValidationError and the site's domain errors, API "detail" answers, e-mail
subjects) must be wrapped in gettext.

ALLOWED lists the few exceptions, each with its reason.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from django.template.base import Lexer, TokenType

ROOT = Path(__file__).resolve().parents[2]
APPS = ("clubs", "games", "scoring", "demo", "config")

# Words that are the same in every language.
ALLOWED_WORDS = frozenset(
    {
        "Tavolo",  # the brand
        "Barbu",  # the game's name
        "Barbù",
        "API",
        "JSON",
        "OK",
        "QR",
    }
)
# Python modules with literal English on purpose (file relative to the repo: reason).
ALLOWED_PY_FILES = {
    "scoring/engine": "the engine is Django-free: its problems carry codes that "
    "clubs/engine_words.py translates",
    "scoring/cli.py": "the command-line scorer for developers, English by design",
    "scoring/__main__.py": "the command-line scorer for developers",
    "demo/loader.py": "demo data loaded by `make demo`: its refusal speaks to developers",
    "games/barbu/seating/__main__.py": "the seating planner's command line, for developers",
    "games/burraco/movements/__main__.py": "the Burraco movements' command line, for referees' "
    "checks and developers (the site translates MovementError's codes)",
    "clubs/downgrades.py": "the refusal of a downgrade, printed by `manage.py migrate` to the "
    "operator, like the management commands",
    "games/api/examples.py": "sample answers shown in the OpenAPI schema for developers, "
    "copied from the API's English answers (tests/games/api/test_examples.py)",
}

# Not prose: scripts and styles, and samples of data formats (a CSV header, JSON keys).
LITERAL_ELEMENTS = frozenset({"script", "style", "pre", "code", "kbd", "samp"})
# A time of day in digits (20:30:05) reads the same in every language.
DIGIT_TIME_FORMAT = re.compile(r"[HGisu:.\s]+")
VISIBLE_ATTRIBUTES = frozenset({"title", "placeholder", "aria-label", "alt", "label"})
BUTTON_TYPES = frozenset({"submit", "button", "reset"})
WORD = re.compile(r"[^\W\d_]{2,}")
MARK = "\ue000"  # stands for a variable or a translated string in the rebuilt page
NAMED_FORMATS = frozenset(
    {
        "DATE_FORMAT",
        "DATETIME_FORMAT",
        "SHORT_DATE_FORMAT",
        "SHORT_DATETIME_FORMAT",
        "TIME_FORMAT",
        "MONTH_DAY_FORMAT",
        "YEAR_MONTH_FORMAT",
    }
)
# Filters whose string argument is shown to users.
_TEXT_FILTER = re.compile(r"""\|\s*(yesno|default|default_if_none)\s*:\s*(["'])(.*?)\2""")
_DATE_FILTER = re.compile(r"""\|\s*(date|time)\s*:\s*(["'])(.*?)\2""")


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text!r}"


def _relative(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def _words(text: str) -> list[str]:
    return [w for w in WORD.findall(text.replace(MARK, " ")) if w not in ALLOWED_WORDS]


def template_files() -> list[Path]:
    folders = [ROOT / "templates"] + [ROOT / app / "templates" for app in APPS]
    return sorted(p for folder in folders if folder.is_dir() for p in folder.rglob("*.html")) + [
        p for folder in folders if folder.is_dir() for p in sorted(folder.rglob("*.txt"))
    ]


def _shown_text(match: re.Match[str]) -> bool:
    """yesno's words are always shown; a default may be a key ("total") passed on."""
    text = match.group(3)
    return bool(_words(text)) and (match.group(1) == "yesno" or not _is_identifier(text))


class _PageParser(HTMLParser):
    def __init__(self, path: str, line_of: list[int], findings: list[Finding]) -> None:
        super().__init__(convert_charrefs=True)
        self.path = path
        self.line_of = line_of  # rebuilt line -> template line
        self.findings = findings
        self.skip = 0  # inside <script>, <style> or a sample of a data format

    def _add(self, text: str, skipped_lines: int = 0) -> None:
        row = self.getpos()[0] - 1 + skipped_lines
        line = self.line_of[min(row, len(self.line_of) - 1)]
        self.findings.append(Finding(self.path, line, text.strip().replace(MARK, "…")))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in LITERAL_ELEMENTS:
            self.skip += 1
        values = dict(attrs)
        for name, value in attrs:
            if not value:
                continue
            visible = name in VISIBLE_ATTRIBUTES or (
                name == "value"
                and (tag == "button" or (values.get("type") or "").lower() in BUTTON_TYPES)
            )
            if visible and _words(value):
                self._add(f"<{tag} {name}={value.replace(MARK, '…')!r}>")

    def handle_endtag(self, tag: str) -> None:
        if tag in LITERAL_ELEMENTS and self.skip:
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip and _words(data):
            # The data starts where the previous tag ends: count the blank lines first.
            leading = data[: len(data) - len(data.lstrip())]
            self._add(data, leading.count("\n"))


def scan_template(path: Path) -> list[Finding]:
    """Literal words of one template outside translate/blocktranslate, with their lines."""
    source = path.read_text(encoding="utf-8")
    rel = _relative(path)
    findings: list[Finding] = []
    pieces: list[tuple[str, int]] = []  # (rebuilt text, template line)
    depth = 0  # inside blocktranslate / comment / verbatim
    for token in Lexer(source).tokenize():
        line = token.lineno
        contents = token.contents
        if token.token_type == TokenType.BLOCK:
            name = contents.split(" ", 1)[0] if contents else ""
            if name in ("blocktranslate", "blocktrans", "comment", "verbatim"):
                depth += 1
                pieces.append((MARK, line))
            elif name in ("endblocktranslate", "endblocktrans", "endcomment", "endverbatim"):
                depth = max(0, depth - 1)
            elif depth == 0:
                pieces.append((MARK if name in ("translate", "trans") else "", line))
                for bad in _TEXT_FILTER.finditer(contents):
                    if _shown_text(bad):
                        findings.append(Finding(rel, line, f"{{% {contents} %}}"))
        elif token.token_type == TokenType.VAR:
            if depth == 0:
                pieces.append((MARK, line))
            for bad in _TEXT_FILTER.finditer(contents):
                if _shown_text(bad):
                    findings.append(Finding(rel, line, f"{{{{ {contents} }}}}"))
            for fmt in _DATE_FILTER.finditer(contents):
                text = fmt.group(3)
                if text not in NAMED_FORMATS and not DIGIT_TIME_FORMAT.fullmatch(text):
                    findings.append(Finding(rel, line, f"not a localised format: {contents}"))
        elif token.token_type == TokenType.TEXT and depth == 0:
            pieces.append((contents, line))
    # Rebuild the page with marks for what is translated; line_of maps its lines back.
    line_of = [1]
    for piece, line in pieces:
        line_of.extend(line + k + 1 for k in range(piece.count("\n")))
    text = "".join(piece for piece, _line in pieces)
    parser = _PageParser(rel, line_of, findings)
    if path.suffix == ".txt":
        for number, row in enumerate(text.splitlines(), 1):
            if _words(row):
                findings.append(Finding(rel, line_of[min(number - 1, len(line_of) - 1)], row))
        return findings
    parser.feed(text)
    parser.close()
    return findings


# --- Python ----------------------------------------------------------------------------------

GETTEXT_NAMES = frozenset(
    {
        "_",
        "gettext",
        "gettext_lazy",
        "pgettext",
        "pgettext_lazy",
        "ngettext",
        "ngettext_lazy",
        "npgettext",
        "npgettext_lazy",
        "gettext_noop",
    }
)
LABEL_KEYWORDS = frozenset(
    {"verbose_name", "verbose_name_plural", "help_text", "label", "empty_label", "placeholder"}
)
ASSIGNED_LABELS = frozenset({"verbose_name", "verbose_name_plural", "help_text"})
ENGLISH_STRFTIME = ("%a", "%A", "%b", "%B", "%c", "%x", "%X", "%p")
MESSAGE_FUNCTIONS = frozenset({"debug", "info", "success", "warning", "error", "add_message"})
# Exceptions whose message reaches a user (the site's own EntryError family included).
USER_ERRORS = re.compile(
    r"(ValidationError|EntryError|DealRejected|DealConflict|StaleVersion|IdempotencyMismatch"
    r"|GameClosed|PermissionDenied|NotFound|ParseError|APIException|Throttled"
    r"|NotAuthenticated|AuthenticationFailed|\w+Error|\w+Refused|\w+Rejected)$"
)
# Programmer errors and dev-facing ones: their text is for developers.
DEV_ERRORS = frozenset(
    {
        "ValueError",
        "TypeError",
        "KeyError",
        "IndexError",
        "AttributeError",
        "RuntimeError",
        "AssertionError",
        "NotImplementedError",
        "LookupError",
        "OSError",
        "ImproperlyConfigured",
        "CommandError",
        "ImportError",
    }
)
RESPONSE_KEYS = frozenset({"detail", "message", "error", "title"})
# Fields whose first argument is the label (relations take the model there).
FIELD_CLASS = re.compile(r"Field$")
NOT_LABEL_FIRST = frozenset(
    {"ForeignKey", "OneToOneField", "ManyToManyField", "SerializerMethodField"}
)


def python_files() -> list[Path]:
    out = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            rel = str(path.relative_to(ROOT))
            parts = path.relative_to(ROOT).parts
            if "migrations" in parts or "management" in parts:
                continue  # migrations copy labels; commands talk to developers
            if any(rel == key or rel.startswith(key + "/") for key in ALLOWED_PY_FILES):
                continue
            out.append(path)
    return out


def _is_identifier(text: str) -> bool:
    """A code or key ("duplicate_player", "self"), not a sentence: no space, lower case."""
    return not any(c.isspace() for c in text) and ("_" in text or text == text.lower())


def _literal_words(node: ast.AST | None, label: bool = False) -> str | None:
    """The text of a literal string (or f-string) holding words, else None.

    A label (verbose_name, help_text, choice label...) is text even as one lower-case word;
    elsewhere such a word is taken for a code.
    """
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(v.value if isinstance(v, ast.Constant) else "{…}" for v in node.values)
    else:
        text = None
    if text is not None:
        return text if _words(text) and (label or not _is_identifier(text)) else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod):
        return _literal_words(node.left, label) or (
            _literal_words(node.right, label) if isinstance(node.op, ast.Add) else None
        )
    return None


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _is_settings_languages(node: ast.Assign) -> bool:
    return any(isinstance(t, ast.Name) and t.id == "LANGUAGES" for t in node.targets)


class _Visitor(ast.NodeVisitor):
    def __init__(self, rel: str) -> None:
        self.rel = rel
        self.findings: list[Finding] = []
        self.in_choices_class = False

    def _add(self, node: ast.AST, text: str) -> None:
        self.findings.append(Finding(self.rel, getattr(node, "lineno", 0), text))

    def _check(self, node: ast.AST | None, label: bool = False) -> None:
        text = _literal_words(node, label)
        if text is not None:
            self._add(node, text)  # type: ignore[arg-type]

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        bases = {_name(b) for b in node.bases}
        was = self.in_choices_class
        self.in_choices_class = bool(bases & {"TextChoices", "IntegerChoices", "Choices"})
        if self.in_choices_class:
            for item in node.body:
                if isinstance(item, ast.Assign) and isinstance(item.value, ast.Tuple):
                    if len(item.value.elts) >= 2:
                        self._check(item.value.elts[-1], label=True)
                elif isinstance(item, ast.Assign) and isinstance(item.value, ast.Constant):
                    # A member without a label gets one made from its name, in English.
                    self._add(item, f"choice without a translated label: {ast.unparse(item)}")
        self.generic_visit(node)
        self.in_choices_class = was

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id in ASSIGNED_LABELS:
                self._check(node.value, label=True)
        self.generic_visit(node)

    def visit_keyword_in(self, call: ast.Call) -> None:
        for kw in call.keywords:
            if kw.arg in LABEL_KEYWORDS:
                self._check(kw.value, label=True)
            elif kw.arg == "choices" and isinstance(kw.value, ast.List | ast.Tuple):
                for choice in kw.value.elts:
                    if isinstance(choice, ast.Tuple) and len(choice.elts) == 2:
                        self._check(choice.elts[1], label=True)
            elif kw.arg == "error_messages" and isinstance(kw.value, ast.Dict):
                for value in kw.value.values:
                    self._check(value)
            elif kw.arg == "attrs" and isinstance(kw.value, ast.Dict):
                for key, value in zip(kw.value.keys, kw.value.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value in VISIBLE_ATTRIBUTES:
                        self._check(value)

    def visit_Call(self, node: ast.Call) -> None:
        func = _name(node.func)
        if func in GETTEXT_NAMES:
            return  # wrapped: nothing inside needs checking
        self.visit_keyword_in(node)
        first = node.args[0] if node.args else None
        if FIELD_CLASS.search(func) and func not in NOT_LABEL_FIRST and first is not None:
            self._check(first, label=True)  # verbose_name given first
        if func in MESSAGE_FUNCTIONS and isinstance(node.func, ast.Attribute):
            owner = _name(node.func.value)
            if owner == "messages" and len(node.args) >= 2:
                self._check(node.args[-1] if func != "add_message" else node.args[2])
        if func not in DEV_ERRORS and USER_ERRORS.search(func):
            self._check(first)
            for kw in node.keywords:
                if kw.arg in ("message", "detail"):
                    self._check(kw.value)
        # Month and day names and the locale's own layouts come out in English.
        fmt = first.value if isinstance(first, ast.Constant) else None
        if func == "strftime" and isinstance(fmt, str) and any(c in fmt for c in ENGLISH_STRFTIME):
            self._add(node, f"not a localised format: strftime({fmt!r})")
        if func in ("send_mail", "EmailMessage", "EmailMultiAlternatives", "mail_admins"):
            self._check(first)
            for kw in node.keywords:
                if kw.arg == "subject":
                    self._check(kw.value)
        if func in ("Response", "JsonResponse", "HttpResponse", "HttpResponseBadRequest"):
            if isinstance(first, ast.Dict):
                for key, value in zip(first.keys, first.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value in RESPONSE_KEYS:
                        self._check(value)
            elif func.startswith("Http"):
                self._check(first)
        self.generic_visit(node)

    def visit_Dict(self, node: ast.Dict) -> None:
        # {"detail": "..."} or {"message": "..."} built for an answer.
        for key, value in zip(node.keys, node.values, strict=True):
            if isinstance(key, ast.Constant) and key.value in ("detail", "message"):
                self._check(value)
        self.generic_visit(node)


def scan_python(path: Path) -> list[Finding]:
    rel = _relative(path)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
    visitor = _Visitor(rel)
    visitor.visit(tree)
    # One report per line and text.
    return sorted(set(visitor.findings), key=lambda f: (f.line, f.text))
