"""HTML forms of the club pages: shape validation only. Who may act and what the club's state
allows is decided by the services (clubs.services)."""

from __future__ import annotations

from django import forms

from core.bounds import INT_MAX

from .models import Membership


class ClubForm(forms.Form):
    name = forms.CharField(max_length=120)
    city = forms.CharField(max_length=120, required=False)
    description = forms.CharField(required=False, max_length=5000, widget=forms.Textarea(attrs={"rows": 4}))
    open_to_requests = forms.BooleanField(required=False, initial=True, label="People may ask to join")


class InviteForm(forms.Form):
    username = forms.CharField(max_length=150, help_text="The username of the person to invite.")


class MembershipActionForm(forms.Form):
    """An owner's action on one membership; ``role`` only for a role change."""

    action = forms.ChoiceField(choices=[("approve", "Approve"), ("decline", "Decline"), ("role", "Change role"),
                                        ("remove", "Remove")])
    role = forms.ChoiceField(choices=Membership.Role.choices, required=False)

    def clean(self):
        data = super().clean()
        if data.get("action") == "role" and not data.get("role"):
            self.add_error("role", "choose the new role")
        return data


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=80)
    starts_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label="First day")
    ends_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label="Last day")

    def clean(self):
        data = super().clean()
        if data.get("starts_on") and data.get("ends_on") and data["starts_on"] > data["ends_on"]:
            self.add_error("ends_on", "the season ends before it starts")
        return data


class NightForm(forms.Form):
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    title = forms.CharField(max_length=120, required=False)


class CheckInForm(forms.Form):
    player = forms.IntegerField(min_value=1, max_value=INT_MAX, required=False, help_text="empty: yourself")


class NightMatchForm(forms.Form):
    """A match between two of the night's checked-in players (``players``: (player id, name))."""

    side0 = forms.TypedChoiceField(coerce=int, label="Player")
    side1 = forms.TypedChoiceField(coerce=int, label="Opponent")
    length = forms.IntegerField(min_value=1, max_value=25, initial=5, label="Points to win")

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["side0"].choices = self.fields["side1"].choices = list(players)
        if len(players) >= 2 and not self.is_bound:
            # Two different players by default: the form's first pairing is a real one.
            self.initial.setdefault("side1", players[1][0])

    def clean(self):
        data = super().clean()
        if data.get("side0") is not None and data.get("side0") == data.get("side1"):
            self.add_error("side1", "choose two different players")
        return data
