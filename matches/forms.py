"""HTML forms of the match pages: shape validation only. Whether a score can end the match, a
match file is legal or the user may act at all is decided by the services."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from . import hooks
from .models import MAX_SCORE, Match

MAX_STATEMENT = 2000


class ResultForm(forms.Form):
    """A final score, optionally with the match's .mat file and which of the file's players is the
    reporter (for the organiser: side 0) when the names in the file do not say: a report, or the
    organiser's result."""

    score0 = forms.IntegerField(min_value=0, max_value=MAX_SCORE)
    score1 = forms.IntegerField(min_value=0, max_value=MAX_SCORE)
    mat_file = forms.FileField(
        required=False, label=_("Match file (.mat, optional)"),
        help_text=_("The games as exported by GNU Backgammon, eXtreme Gammon, Galaxy or Studio; they must give "
                    "the score above (a winner's points past the match length may be left out, as in 3-2)."),
    )
    file_side = forms.TypedChoiceField(
        required=False, coerce=int, empty_value=None,
        choices=[("", _("Found by the names in the file")), ("0", _("The file's first (left) player")),
                 ("1", _("The file's second (right) player"))],
        label=_("Which player of the file is you?"),
        help_text=_("Only needed when the file names you differently than this site does."),
    )
    statement = forms.CharField(required=False, max_length=MAX_STATEMENT, widget=forms.Textarea(attrs={"rows": 2}),
                                label=_("Note (optional)"))

    def __init__(self, *args, match: Match, organiser: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["score0"].label = _("%(name)s's score") % {"name": match.side0.name}
        self.fields["score1"].label = _("%(name)s's score") % {"name": match.side1.name}
        for name in ("score0", "score1"):
            self.fields[name].widget.attrs.update({"inputmode": "numeric"})
        self.fields["mat_file"].widget.attrs.update({"accept": ".mat,.txt,text/plain"})
        if organiser:
            # The organiser plays no side: he says where side 0 sits in the file.
            self.fields["file_side"].label = _("Which player of the file is %(name)s?") % {"name": match.side0.name}
            self.fields["file_side"].help_text = _("Only needed when the file names the players differently than "
                                                   "this site does.")

    @property
    def score(self) -> tuple[int, int]:
        return (self.cleaned_data["score0"], self.cleaned_data["score1"])


class ContestForm(forms.Form):
    """Contesting the other side's report, with an optional reason for the organiser."""

    statement = forms.CharField(required=False, max_length=MAX_STATEMENT, widget=forms.Textarea(attrs={"rows": 2}),
                                label=_("Why (optional, for the organiser)"))


class ConsentForm(forms.Form):
    """A player's answer to a match naming him (confirm it for his record, or decline it), or a
    director's confirmation for a side (``side``)."""

    decision = forms.ChoiceField(choices=[("confirm", _("Confirm")), ("decline", _("Decline"))], label=_("Decision"))
    side = forms.TypedChoiceField(choices=[("", ""), ("0", "0"), ("1", "1")], coerce=int, empty_value=None,
                                  required=False, label=_("Side"))


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
