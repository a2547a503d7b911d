"""The webhooks page's form: the address and the event types."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Subscription


class WebhookForm(forms.Form):
    url = forms.CharField(label=_("Address"), max_length=Subscription._meta.get_field("url").max_length,
                          help_text=_("Where the deliveries are posted: an https:// address."),
                          widget=forms.URLInput(attrs={"dir": "ltr", "autocomplete": "off"}))
    events = forms.MultipleChoiceField(label=_("Tell it of"), choices=Subscription.Event.choices,
                                       widget=forms.CheckboxSelectMultiple)
