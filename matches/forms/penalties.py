"""The director's form for penalty points given mid-match."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import Match, MatchPenalty


class PenaltyForm(forms.Form):
    side = forms.TypedChoiceField(label=_("Penalised player"), coerce=int, choices=())
    points = forms.IntegerField(label=_("Penalty points"), min_value=1, max_value=99, initial=1)
    reason = forms.ChoiceField(label=_("Why"), choices=MatchPenalty.Reason.choices)
    score0 = forms.IntegerField(min_value=0, max_value=9999)
    score1 = forms.IntegerField(min_value=0, max_value=9999)

    def __init__(self, *args, match: Match, standing: tuple[int, int], **kwargs):
        kwargs.setdefault("initial", {"score0": standing[0], "score1": standing[1]})
        super().__init__(*args, **kwargs)
        self.fields["side"].choices = [(0, match.side0.name), (1, match.side1.name)]
        self.fields["score0"].label = _("Score of %(name)s as it stands") % {"name": match.side0.name}
        self.fields["score1"].label = _("Score of %(name)s as it stands") % {"name": match.side1.name}

    @property
    def score(self) -> tuple[int, int]:
        return (self.cleaned_data["score0"], self.cleaned_data["score1"])
