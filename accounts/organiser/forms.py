"""HTML forms of the organiser pages: shape validation only (the services say the rest)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models_requests import REASON_MAX, STATEMENT_MAX


class OrganiserRequestForm(forms.Form):
    statement = forms.CharField(
        label=_("Which club or event do you run?"), max_length=STATEMENT_MAX,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("A sentence or two, so staff know who you are (for example your club's name and town)."),
        error_messages={"required": _("say which club or event you run, so staff know who you are")})


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), max_length=REASON_MAX, widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": _("say why: the player is shown the reason")})
