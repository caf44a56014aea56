"""No user-visible text outside the translation machinery, in templates or Python modules."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.i18n.scan import ROOT, python_files, scan_python, scan_template, template_files


def _id(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", template_files(), ids=_id)
def test_template_text_is_translated(path: Path) -> None:
    findings = scan_template(path)
    assert not findings, "text outside {% translate %}/{% blocktranslate %}:\n" + "\n".join(
        map(str, findings)
    )


@pytest.mark.parametrize("path", python_files(), ids=_id)
def test_python_text_is_translated(path: Path) -> None:
    findings = scan_python(path)
    assert not findings, "user-visible literal not wrapped in gettext:\n" + "\n".join(
        map(str, findings)
    )


def test_every_place_of_templates_and_python_is_scanned() -> None:
    scanned = {_id(p) for p in template_files()}
    assert "templates/base.html" in scanned
    modules = {_id(p) for p in python_files()}
    assert {"clubs/models.py", "games/models/core.py", "games/barbu/submission.py"} <= modules
    assert not any(m.startswith("scoring/engine/") for m in modules)


# --- the scanner itself: it finds what it must and leaves the rest ----------------------------


def _template(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "page.html"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return [f.text for f in scan_template(path)]


def test_template_scanner_flags_bare_words_and_visible_attributes(tmp_path: Path) -> None:
    found = _template(
        tmp_path,
        """\
        {% load i18n %}
        <h1>Standings</h1>
        <input type="text" placeholder="Your name">
        <input type="submit" value="Save">
        <a href="/x" title="Open the {{ club }} page">{{ club }}</a>
        <img src="a.png" alt="Logo">
        <p>{{ flag|yesno:"yes,no" }}</p>
        <p>{{ when|date:"d/m/Y" }}</p>
        """,
    )
    assert "Standings" in found
    assert "<input placeholder='Your name'>" in found
    assert "<input value='Save'>" in found
    assert "<a title='Open the … page'>" in found
    assert "<img alt='Logo'>" in found
    assert any("yesno" in f for f in found)
    assert any("not a localised format" in f for f in found)
    assert len(found) == 7


def test_template_scanner_accepts_translated_text(tmp_path: Path) -> None:
    found = _template(
        tmp_path,
        """\
        {% load i18n %}{# A comment with words #}
        <title>{% block title %}Tavolo{% endblock %}</title>
        <h1>{% translate "Standings" %}</h1>
        <p>{% blocktranslate with n=count %}{{ n }} players
        on two lines{% endblocktranslate %}</p>
        <a href="{% url 'home' %}" title="{% translate 'Home' %}">{{ club.name }}</a>
        <input type="hidden" name="next" value="{{ request.path }}">
        <input type="text" name="q" placeholder="{% translate 'Search' %}">
        <script>const label = "not checked here";</script>
        <p>{{ when|date:"SHORT_DATE_FORMAT" }} · 3 – 4 {{ total|floatformat:1 }}</p>
        {% comment %}Notes for developers{% endcomment %}
        <pre>name,email,role
        Anna Rossi,anna@example.org,member</pre>
        <p>{{ method|default:"total" }} {{ at|time:"H:i:s" }}</p>
        """,
    )
    assert found == []


def test_template_scanner_reports_the_template_line(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_text("{% load i18n %}\n<p>{% translate 'a' %}</p>\n\n<p>\nHello\n</p>\n")
    (finding,) = scan_template(path)
    assert finding.line == 5


def _python(tmp_path: Path, source: str) -> list[str]:
    path = tmp_path / "module.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return [f.text for f in scan_python(path)]


def test_python_scanner_flags_user_visible_literals(tmp_path: Path) -> None:
    found = _python(
        tmp_path,
        """\
        from django import forms
        from django.contrib import messages
        from django.db import models

        class Event(models.Model):
            title = models.CharField("event title", max_length=80, help_text="Shown to all")
            kind = models.CharField(choices=[("a", "Evening"), ("b", _("League"))])

            class Meta:
                verbose_name = "event"

        class Status(models.TextChoices):
            OPEN = "open", "Open"
            CLOSED = "closed"

        def view(request, number):
            messages.success(request, "Saved.")
            raise ValidationError(f"Deal {number} is wrong")

        def api(request):
            return Response({"detail": "Not allowed here."}, status=403)

        def title(day):
            return day.strftime("%A %d %B")

        class NameForm(forms.Form):
            name = forms.CharField(
                label="Your name", widget=forms.TextInput(attrs={"placeholder": "Name"})
            )
        """,
    )
    assert sorted(found) == sorted(
        [
            "event title",
            "Shown to all",
            "Evening",
            "event",
            "Open",
            "choice without a translated label: CLOSED = 'closed'",
            "Saved.",
            "Deal {…} is wrong",
            "Not allowed here.",
            "not a localised format: strftime('%A %d %B')",
            "Your name",
            "Name",
        ]
    )


def test_python_scanner_accepts_wrapped_strings_codes_and_programmer_errors(
    tmp_path: Path,
) -> None:
    found = _python(
        tmp_path,
        """\
        from django.utils.translation import gettext as _, gettext_lazy
        from django.db import models

        class Club(models.Model):
            name = models.CharField(_("name"), max_length=80, help_text=gettext_lazy("Shown"))
            parent = models.ForeignKey("self", on_delete=models.CASCADE, verbose_name=_("parent"))

        class Status(models.TextChoices):
            OPEN = "open", _("Open")

        def check(value):
            if value is None:
                raise ValueError("value must not be None")
            raise EntryError(_("Deal %(n)s is wrong") % {"n": value}, code="deal_wrong")
        """,
    )
    assert found == []
