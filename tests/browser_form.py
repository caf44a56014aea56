"""A form submitted as a browser submits it, from the page's HTML (no script run).

What a browser sends: text-like inputs and textareas as they are, checked checkboxes and
radios, each select's selected options (or its first), nothing disabled, no file. A date,
time or datetime-local input whose value the browser cannot read is sent empty: a date
field only takes yyyy-mm-dd ("01/01/2026" is dropped), a datetime-local field
yyyy-mm-ddThh:mm[:ss], a time field hh:mm[:ss].
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

BROWSER_VALUES = {
    "date": re.compile(r"\d{4}-\d{2}-\d{2}"),
    "datetime-local": re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?"),
    "time": re.compile(r"\d{2}:\d{2}(:\d{2}(\.\d+)?)?"),
    "month": re.compile(r"\d{4}-\d{2}"),
}
SKIPPED = {"submit", "button", "reset", "image", "file"}


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self.form: dict | None = None
        self.select: dict | None = None
        self.option: dict | None = None
        self.textarea: dict | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self.form = {"attrs": a, "fields": [], "selects": []}
            self.forms.append(self.form)
        if self.form is None:
            return
        if tag == "input":
            self.form["fields"].append(a)
        elif tag == "select":
            self.select = {"attrs": a, "options": []}
            self.form["selects"].append(self.select)
        elif tag == "option" and self.select is not None:
            self.option = {"attrs": a, "text": ""}
            self.select["options"].append(self.option)
        elif tag == "textarea":
            self.textarea = {"type": "textarea", **a, "value": ""}
            self.form["fields"].append(self.textarea)

    def handle_data(self, data: str) -> None:
        if self.option is not None:
            self.option["text"] += data
        if self.textarea is not None:
            self.textarea["value"] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None
        elif tag == "option":
            self.option = None
        elif tag == "textarea":
            self.textarea = None


def form_data(html: str, form_id: str) -> tuple[str | None, dict[str, list[str]]]:
    """The form's action and what a browser posts for it, as {name: [values]}."""
    parser = _Forms()
    parser.feed(html)
    form = next((f for f in parser.forms if f["attrs"].get("id") == form_id), None)
    assert form is not None, f"no form #{form_id} on the page"
    data: dict[str, list[str]] = {}
    for field in form["fields"]:
        name = field.get("name")
        kind = field.get("type", "text").lower()
        if not name or "disabled" in field or kind in SKIPPED:
            continue
        if kind in ("checkbox", "radio"):
            if "checked" in field:
                data.setdefault(name, []).append(field.get("value", "on"))
            continue
        value = field.get("value", "")
        if kind == "textarea" and value.startswith("\n"):
            value = value[1:]  # a browser drops the newline right after <textarea>
        pattern = BROWSER_VALUES.get(kind)
        if pattern is not None and not pattern.fullmatch(value):
            value = ""
        data.setdefault(name, []).append(value)
    for select in form["selects"]:
        name = select["attrs"].get("name")
        if not name or "disabled" in select["attrs"] or not select["options"]:
            continue
        chosen = [o for o in select["options"] if "selected" in o["attrs"]]
        if not chosen and "multiple" not in select["attrs"]:
            chosen = select["options"][:1]
        for option in chosen:
            value = option["attrs"].get("value", option["text"].strip())
            data.setdefault(name, []).append(value)
    return form["attrs"].get("action") or None, data
