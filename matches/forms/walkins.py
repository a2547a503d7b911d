"""The form of a walk-in (guest) player, shared by the events' and the clubs' walk-in forms: shape
validation only; the service (matches.services.guests) decides the rest."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..services.guests import EMAIL_MAX, NAME_MAX


class GuestForm(forms.Form):
    """A player without an account: name, and optionally email (he is invited to claim the
    player) and country; ``confirm_namesake`` says he is a different person from the players who
    already have his name (matches.services.walkins)."""

    name = forms.CharField(max_length=NAME_MAX, label=_("Name"), error_messages={
        "required": _("give the player's name"), "max_length": _("a name has at most %(limit_value)d characters")})
    email = forms.EmailField(max_length=EMAIL_MAX, required=False, label=_("Email (optional: he is invited to claim "
                                                                         "the player)"),
                             error_messages={"invalid": _("this is not an email address")})
    country = forms.CharField(max_length=2, required=False, label=_("Country code (optional)"), error_messages={
        "max_length": _("give the country as its two-letter code (GB, FR, US...)")})

    confirm_namesake = forms.BooleanField(required=False, label=_(
        "He is a different person from the player who already has this name (give his country or email)"))

    def service_arguments(self) -> dict:
        return {key: self.cleaned_data[key] for key in ("name", "email", "country", "confirm_namesake")}
