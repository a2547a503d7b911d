"""The form of a user's own profile: shape only (lengths, one of the listed countries and
languages); matches.services.profile checks the same again and decides."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from ..countries import country_choices
from ..services.profile import NAME_MAX


class ProfileForm(forms.Form):
    display_name = forms.CharField(
        max_length=NAME_MAX, label=_("Display name"),
        help_text=_("The name other players see on results, brackets and your page."),
    )
    country = forms.ChoiceField(
        required=False, label=_("Country"),
        error_messages={"invalid_choice": _("“%(value)s” is not a country code: choose your country from the list.")},
    )
    preferred_language = forms.ChoiceField(
        label=_("Preferred language"),
        error_messages={"invalid_choice": _("“%(value)s” is not a language Crawford speaks: choose one from the list.")},
    )
    email_public = forms.BooleanField(required=False, label=_("Show my email address on my player page"))
    real_name_public = forms.BooleanField(required=False, label=_("Show my real name on my player page"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Built per form: the countries' names are in the request's language.
        self.fields["country"].choices = [("", _("Not said")), *country_choices()]
        self.fields["preferred_language"].choices = get_user_model().Language.choices
