"""The player directory's filter form (matches/views/directory.py)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .. import hooks


class DirectoryFilterForm(forms.Form):
    """The player directory's filters (GET): words of the name, a country, and what the player
    contexts filter by (a club: ``hooks.PlayerContext.form_fields``). Every one may be empty."""

    q = forms.CharField(required=False, max_length=120, label=_("Name"),
                        widget=forms.TextInput(attrs={"type": "search", "autocomplete": "off"}),
                        help_text=_("Any part of the name; accents and capitals do not matter."))
    country = forms.RegexField(r"^[A-Za-z]{2}$", required=False, max_length=2, label=_("Country"),
                               widget=forms.TextInput(attrs={"size": 3}),
                               help_text=_("Two letters (ISO 3166), e.g. RO."),
                               error_messages={"invalid": _("A country is two letters (ISO 3166), e.g. RO.")})

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for context in hooks.player_contexts.entries():
            if context.form_fields is not None:
                self.fields.update(context.form_fields())

    def directory_arguments(self) -> dict:
        """The cleaned filters as ``player_directory``'s keyword arguments."""
        data = dict(self.cleaned_data)
        q, country = data.pop("q", ""), data.pop("country", "")
        return {"q": q, "country": country, "contexts": {name: value for name, value in data.items() if value}}
