"""The organiser's walk-in form on the event's control page: shape validation only (the service,
tournaments.services.walkins, decides whether he may be entered)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from core.bounds import INT_MAX
from matches.forms.walkins import GuestForm


class WalkInEntrantForm(GuestForm):
    """A walk-in entrant: a player without an account, entered at once (before the draw with an
    optional seed; after it as a late entrant)."""

    seed = forms.IntegerField(min_value=1, max_value=INT_MAX, required=False, label=_("Seed (optional)"))

    def service_arguments(self) -> dict:
        return {**super().service_arguments(), "seed": self.cleaned_data["seed"]}
