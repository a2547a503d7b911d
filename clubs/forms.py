"""HTML forms of the club pages: shape validation only. Who may act and what the club's state
allows is decided by the services (clubs.services)."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from core.bounds import INT_MAX
from matches.models import Player
from matches.pickers import PlayerChoiceField

from .models import Membership


class UserPickerField(PlayerChoiceField):
    """The player picker for a person with an account (an active user): a chosen suggestion, his
    exact username (as the form always took it), or a player's name resolved by the server.
    Cleaned to the username: the services take people by username."""

    def __init__(self, **kwargs):
        kwargs.setdefault("error_messages", {
            "invalid_choice": _("That player has no account to invite: choose one of the suggestions."),
            "no_match": _("there is no user or player called “%(name)s”: type part of the player's name and choose "
                          "one of the suggestions, or his username."),
        })
        super().__init__(Player.objects.filter(user__is_active=True).select_related("user"), **kwargs)

    def prepare_value(self, value):
        if isinstance(value, str) and value and not value.isdigit():
            return (value, "")
        return super().prepare_value(value)

    def to_python(self, value):
        text, chosen = value if isinstance(value, tuple) else (str(value or ""), "")
        text = text.strip()
        if text and not chosen and get_user_model().objects.filter(username=text, is_active=True).exists():
            return text
        player = super().to_python((text, chosen))
        return player.user.get_username() if player is not None else None


class ClubForm(forms.Form):
    name = forms.CharField(max_length=120, label=_("Name"))
    city = forms.CharField(max_length=120, required=False, label=_("City"))
    description = forms.CharField(required=False, max_length=5000, widget=forms.Textarea(attrs={"rows": 4}),
                                  label=_("Description"))
    open_to_requests = forms.BooleanField(required=False, initial=True, label=_("People may ask to join"))


class InviteForm(forms.Form):
    """Whom to invite: the player picker (a name, a chosen suggestion) or a username; cleaned to
    the username ``membership_invite`` takes."""

    username = UserPickerField(label=_("Player"), help_text=_("Type part of the name and choose the player, or "
                                                              "give his username."))


class MembershipActionForm(forms.Form):
    """An owner's action on one membership; ``role`` only for a role change."""

    action = forms.ChoiceField(choices=[("approve", _("Approve")), ("decline", _("Decline")),
                                        ("role", _("Change role")), ("remove", _("Remove"))])
    role = forms.ChoiceField(choices=Membership.Role.choices, required=False, label=_("Role"))

    def clean(self):
        data = super().clean()
        if data.get("action") == "role" and not data.get("role"):
            self.add_error("role", _("choose the new role"))
        return data


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=80, label=_("Name"))
    starts_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label=_("First day"))
    ends_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label=_("Last day"))

    def clean(self):
        data = super().clean()
        if data.get("starts_on") and data.get("ends_on") and data["starts_on"] > data["ends_on"]:
            self.add_error("ends_on", _("the season ends before it starts"))
        return data


class NightForm(forms.Form):
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label=_("Date"))
    title = forms.CharField(max_length=120, required=False, label=_("Title"))


class CheckInForm(forms.Form):
    player = forms.IntegerField(min_value=1, max_value=INT_MAX, required=False, label=_("Player"),
                                help_text=_("empty: yourself"))


class NightMatchForm(forms.Form):
    """A match between two of the night's checked-in players (``players``: (player id, name))."""

    side0 = forms.TypedChoiceField(coerce=int, label=_("Player"))
    side1 = forms.TypedChoiceField(coerce=int, label=_("Opponent"))
    length = forms.IntegerField(min_value=1, max_value=25, initial=5, label=_("Points to win"))

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["side0"].choices = self.fields["side1"].choices = list(players)
        if len(players) >= 2 and not self.is_bound:
            # Two different players by default: the form's first pairing is a real one.
            self.initial.setdefault("side1", players[1][0])

    def clean(self):
        data = super().clean()
        if data.get("side0") is not None and data.get("side0") == data.get("side1"):
            self.add_error("side1", _("choose two different players"))
        return data
