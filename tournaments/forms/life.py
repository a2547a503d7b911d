"""The forms of an event's life: its settings edited (prefilled, the settings that may not change
now shown but disabled, with the reason) and its cancellation (the reason the entrants read)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.forms.divisions import divisions_text, handicaps_text
from tournaments.forms.event import (
    CLOCK_COUNTS,
    LENGTH_ALIASES,
    LENGTH_FIELDS,
    PAYOUT_FIELDS,
    TournamentForm,
    lengths_initial,
    payout_field_names,
    payouts_initial,
)
from tournaments.models import Tournament
from tournaments.services.life import EDITABLE, REASON_MAX, editable_fields


def _fields_of(setting: str) -> tuple[str, ...]:
    """The form fields that set ``setting``: the match lengths have one per flight, the paid places
    two per flight."""
    if setting == "lengths":
        return tuple(name for name, _label, _help in LENGTH_FIELDS.values())
    if setting == "payouts":
        return tuple(name for flight in PAYOUT_FIELDS for name in payout_field_names(flight))
    return (setting,)


def _schedules(lengths: dict) -> dict:
    """Match lengths as the draw reads them: every schedule a list, the main flight's aliases as "main"."""
    return {("main" if key in LENGTH_ALIASES else key): list(value) if isinstance(value, list) else [value]
            for key, value in (lengths or {}).items()}


class TournamentEditForm(TournamentForm):
    """The event's settings, prefilled; those :func:`editable_fields` refuses now are disabled (the
    browser sends them not, the form keeps the current value) and say why."""

    def __init__(self, *args, tournament: Tournament, has_entries: bool, **kwargs):
        initial = {name: getattr(tournament, name) for name in EDITABLE}
        initial.pop("lengths", None)
        initial.update(lengths_initial(tournament.lengths))
        initial["divisions"] = divisions_text(tournament.divisions)
        initial["handicaps"] = handicaps_text(tournament.handicaps)
        initial.pop("payouts", None)
        initial.update(payouts_initial(tournament.payouts))
        super().__init__(*args, initial=initial, **kwargs)
        self.stored_lengths = tournament.lengths or {}
        del self.fields["club"], self.fields["token"]
        self.fields["kind"].choices = Tournament.Kind.choices
        self.fields["board_count"] = forms.IntegerField(min_value=1, max_value=50, label=_("Boards per team match"))
        self.fields["board_count"].initial = tournament.board_count
        for name, reason in editable_fields(status=tournament.status, has_entries=has_entries).items():
            for field in _fields_of(name):
                if reason and field in self.fields:
                    self.fields[field].disabled = True
                    self.fields[field].help_text = reason

    def changes(self) -> dict:
        """The settings that may change now, as sent (the service keeps what equals the current)."""
        data = {name: value for name, value in self.cleaned_data.items()
                if name in EDITABLE and not any(self.fields[field].disabled for field in _fields_of(name))}
        for name in ("consolation_rounds", "groups", "penalty_minutes_per_point", "board_count", *CLOCK_COUNTS):
            if data.get(name, 0) is None:
                data.pop(name)
        if "lengths" in data and _schedules(data["lengths"]) == _schedules(self.stored_lengths):
            data.pop("lengths")  # as stored (perhaps under another name of the main flight's schedule)
        if "clock_policy" in data and not data["clock_policy"]:
            data.pop("clock_policy")  # empty keeps the clock policy
        if "analysis_plies" in data and data["analysis_plies"] is None:
            data.pop("analysis_plies")  # empty keeps the analysis depth
        return data


class CancelForm(forms.Form):
    reason = forms.CharField(max_length=REASON_MAX, widget=forms.Textarea(attrs={"rows": 3}),
                             label=_("Why is the event cancelled?"),
                             help_text=_("Shown on the event's pages and emailed to every entrant."))
