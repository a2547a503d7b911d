"""The event form's divisions and handicap table as text, one a line, and the
director's division select of an entrant. The rules are ``tournaments.draw.divisions``'; a wrong
line is refused naming its number and why (``events.division_reason``).

Divisions, strongest first, one a line: ``Open``, ``Intermediate: 0-1650`` (the lowest rating
included, the highest excluded), ``Masters: 1800-`` (no highest). Handicaps, one a line: the
division that starts ahead, the one it plays, the match length and the points, ``Intermediate,
Open, 7, 1``.
"""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.draw import DrawError
from tournaments.draw.divisions import DEFAULT_HANDICAPS, Division, parse_divisions, parse_handicaps
from tournaments.services.events import division_reason


def _number(text: str):
    text = text.strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        return text  # refused by the parser as a bad rating
    return int(value) if value.is_integer() else value


def _bound(value) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else str(value)


def divisions_text(divisions) -> str:
    """The stored divisions as the form's lines."""
    lines = []
    for d in divisions or ():
        low, high = d.get("min_rating"), d.get("max_rating")
        lines.append(d["name"] if low is None and high is None else f"{d['name']}: {_bound(low)}-{_bound(high)}")
    return "\n".join(lines)


def handicaps_text(handicaps) -> str:
    """The stored handicap rows as the form's lines."""
    return "\n".join(f"{h['division']}, {h['against']}, {h['length']}, {h['points']}" for h in handicaps or ())


DEFAULT_HANDICAPS_TEXT = handicaps_text([h.as_dict() for h in DEFAULT_HANDICAPS])


def _line_error(error: DrawError) -> forms.ValidationError:
    field = error.details.get("field", "")
    parts = field.split(".")
    if len(parts) >= 2 and parts[1].isdigit():
        return forms.ValidationError(gettext("line %(line)d: %(reason)s") % {
            "line": int(parts[1]) + 1, "reason": division_reason(error)})
    return forms.ValidationError(division_reason(error))


def parse_divisions_text(text: str) -> list[dict]:
    """The divisions' lines as the rules take them; forms.ValidationError naming the line."""
    raw = []
    for index, line in enumerate(filter(None, (p.strip() for p in (text or "").splitlines()))):
        name, colon, bounds = line.partition(":")
        item: dict = {"name": name.strip()}
        if colon:
            low, dash, high = bounds.partition("-")
            if not dash:
                raise forms.ValidationError(gettext("line %(line)d: a rating range is “lowest-highest”, e.g. "
                                                    "“Intermediate: 0-1650”") % {"line": index + 1})
            item["min_rating"], item["max_rating"] = _number(low), _number(high)
        raw.append(item)
    try:
        return [d.as_dict() for d in parse_divisions(raw)]
    except DrawError as error:
        raise _line_error(error) from None


def parse_handicaps_text(text: str, divisions: list[dict]) -> list[dict]:
    """The handicap lines as the rules take them, checked against ``divisions``;
    forms.ValidationError naming the line."""
    raw = []
    for index, line in enumerate(filter(None, (p.strip() for p in (text or "").splitlines()))):
        parts = [p.strip() for p in re.split(r"[,;]", line)]
        if len(parts) != 4 or not parts[2].isdigit() or not parts[3].isdigit():
            raise forms.ValidationError(gettext("line %(line)d: “division, against, length, points”, e.g. "
                                                "“Intermediate, Open, 7, 1”") % {"line": index + 1})
        raw.append({"division": parts[0], "against": parts[1], "length": int(parts[2]), "points": int(parts[3])})
    try:
        known = [Division(d["name"], d.get("min_rating"), d.get("max_rating")) for d in divisions]
        return [h.as_dict() for h in parse_handicaps(raw, known)]
    except DrawError as error:
        raise _line_error(error) from None


def division_fields() -> dict[str, forms.Field]:
    """The event form's two fields."""
    return {
        "divisions": forms.CharField(
            required=False, label=_("Divisions"), widget=forms.Textarea(attrs={"rows": 3, "dir": "auto"}),
            help_text=_("Strongest first, one a line, with a rating range if any (lowest included, highest "
                        "excluded), e.g. “Open”, “Intermediate: 0-1650”, “Novice: 0-1500”. Empty: no divisions. "
                        "A player signing up is placed in the weakest division his rating allows, or chooses a "
                        "stronger one.")),
        "handicaps": forms.CharField(
            required=False, label=_("Handicap starts"), widget=forms.Textarea(attrs={"rows": 3, "dir": "auto"}),
            help_text=_("Between divisions, one a line: the division that starts ahead, the one it plays, the "
                        "match length and the points, e.g. “Intermediate, Open, 7, 1” (as at the Chicago Open: "
                        "an Intermediate starts 1-0 against an Open player in a match to 7). Other matches start "
                        "at 0-0. Read only when the event has divisions.")),
    }


def clean_division_fields(form) -> None:
    """Turn the two fields' text into the rules' lists in ``form.cleaned_data`` (handicaps are
    read only with divisions), or put the line's refusal on its field. A disabled field (the edit
    form after the draw) holds its initial text, which reads back as the stored lists."""
    data = form.cleaned_data
    try:
        data["divisions"] = parse_divisions_text(data.get("divisions", ""))
    except forms.ValidationError as error:
        data.pop("handicaps", None)
        form.add_error("divisions", error)
        return
    if not data["divisions"]:
        data["handicaps"] = []
        return
    try:
        data["handicaps"] = parse_handicaps_text(data.get("handicaps", ""), data["divisions"])
    except forms.ValidationError as error:
        form.add_error("handicaps", error)


class EntryDivisionForm(forms.Form):
    """The director puts an entrant in a division (``entry_set_division``)."""

    entry = forms.IntegerField(widget=forms.HiddenInput)
    division = forms.CharField(max_length=40, label=_("Division"))
