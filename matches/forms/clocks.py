"""The director's form for a clock brought in mid-match: shape only; the rule
and its refusals are ``matches.clocks.mid_match_clock``'s."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.clocks import ClockRules

from ..clocks import match_clock_rules
from ..models import Match

#: An hour a point is more than any published clock gives; the bound keeps the reserve (length
#: times this) a number the database stores.
MAX_SECONDS_PER_POINT = 3600
MAX_DELAY_SECONDS = 600


class ClockIntroduceForm(forms.Form):
    score0 = forms.IntegerField(min_value=0, max_value=9999)
    score1 = forms.IntegerField(min_value=0, max_value=9999)
    seconds_per_point = forms.IntegerField(label=_("Reserve per match point, in seconds"), min_value=1,
                                           max_value=MAX_SECONDS_PER_POINT)
    delay_seconds = forms.IntegerField(label=_("Delay per move, in seconds"), min_value=0, max_value=MAX_DELAY_SECONDS)
    # The values whose reserve the page showed ("2-1-120-12"): the clock is applied only when they
    # are the ones sent, so the director never applies a reserve he has not seen.
    shown = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def __init__(self, *args, match: Match, standing: tuple[int, int], **kwargs):
        rules = match_clock_rules(match) or ClockRules()
        kwargs.setdefault("initial", {"score0": standing[0], "score1": standing[1],
                                      "seconds_per_point": rules.seconds_per_point,
                                      "delay_seconds": rules.delay_seconds})
        super().__init__(*args, **kwargs)
        self.fields["score0"].label = _("Score of %(name)s as it stands") % {"name": match.side0.name}
        self.fields["score1"].label = _("Score of %(name)s as it stands") % {"name": match.side1.name}

    @property
    def score(self) -> tuple[int, int]:
        return (self.cleaned_data["score0"], self.cleaned_data["score1"])

    @property
    def key(self) -> str:
        """The sent values as one string, the ``shown`` field's value once their reserve is shown."""
        data = self.cleaned_data
        return f"{data['score0']}-{data['score1']}-{data['seconds_per_point']}-{data['delay_seconds']}"
