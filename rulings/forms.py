"""HTML forms of the rulings pages: shape validation only. Whether the user may open, answer, rule,
appeal, name a committee or vote, and whether a ruling's details fit its outcome, is for the
services to say (their refusals come back onto these forms, on the field they name)."""

from __future__ import annotations

import re

from django import forms
from django.contrib.auth import get_user_model

from core.bounds import INT_MAX, SMALLINT_MAX
from matches.models import MAX_SCORE

from .models import Appeal, Dispute, Ruling
from .selectors import DisputeFilters
from .services.disputes import MAX_GAME_NUMBER
from .services.rulings import MAX_MINUTES_LATE

STATEMENT_MAX = 5000
RULE_MAX = 200
YES_NO = [("", "—"), ("yes", "Yes"), ("no", "No")]


def _text(label: str, rows: int = 4, **kwargs) -> forms.CharField:
    return forms.CharField(label=label, max_length=STATEMENT_MAX, widget=forms.Textarea(attrs={"rows": rows}), **kwargs)


class DisputeFilterForm(forms.Form):
    """The queue's filters (a GET form): every field optional; ``filters()`` gives them to
    ``selectors.dispute_list``."""

    status = forms.ChoiceField(required=False, choices=[("", "Any status"), *Dispute.Status.choices])
    category = forms.ChoiceField(required=False, choices=[("", "Any category"), *Dispute.Category.choices])
    event = forms.IntegerField(required=False, min_value=1, max_value=INT_MAX, label="Event id")

    def filters(self) -> DisputeFilters:
        """The cleaned filters (an unbound form: none)."""
        if not self.is_bound:
            return DisputeFilters()
        data = self.cleaned_data
        return DisputeFilters(status=data["status"], category=data["category"], event=data["event"])


class DisputeOpenForm(forms.Form):
    category = forms.ChoiceField(choices=Dispute.Category.choices)
    game_number = forms.IntegerField(required=False, min_value=1, max_value=MAX_GAME_NUMBER, label="Game (optional)",
                                     help_text="Empty: the dispute is about the whole match.")
    move_number = forms.IntegerField(required=False, min_value=1, max_value=INT_MAX, label="Action of that game (optional)",
                                     help_text="1 for the game's first action (the roll-off), and so on; the board "
                                               "recorded is the one before it (the match page's moment one less).")
    statement = _text("What happened", rows=5)

    def clean(self):
        data = super().clean()
        if data.get("move_number") is not None and data.get("game_number") is None:
            self.add_error("game_number", "An action belongs to a game: give the game's number.")
        return data


class StatementForm(forms.Form):
    text = _text("Your statement")


class OutcomeFields(forms.Form):
    """An outcome and its details, as a ruling (or a committee's replacement) names them.

    Only the detail fields the outcome needs are filled in; ``params()`` gathers the filled ones
    under the names the ruling service reads: ``score`` ([side 0, side 1]), ``game``, ``move``,
    ``play``, ``noticed_before_next_roll``, ``opponent_demands_replay``, ``side``, ``points`` and
    ``minutes_late`` (the service refuses a detail the outcome does not read, naming it).
    """

    outcome = forms.ChoiceField(choices=Ruling.Outcome.choices)
    score0 = forms.IntegerField(required=False, min_value=0, max_value=MAX_SCORE, label="Corrected score, side 0")
    score1 = forms.IntegerField(required=False, min_value=0, max_value=MAX_SCORE, label="Corrected score, side 1")
    game = forms.IntegerField(required=False, min_value=1, max_value=MAX_GAME_NUMBER, label="Game")
    move = forms.IntegerField(required=False, min_value=1, max_value=INT_MAX, label="Action of the game",
                              help_text="Empty: the dispute's own game and action.")
    play = forms.CharField(required=False, max_length=100, label="Corrected play", help_text="e.g. 13/7 8/7")
    noticed_before_next_roll = forms.TypedChoiceField(
        required=False, coerce=lambda value: value == "yes", empty_value=None, choices=YES_NO,
        label="Illegal play noticed before the opponent rolled or doubled")
    opponent_demands_replay = forms.TypedChoiceField(
        required=False, coerce=lambda value: value == "yes", empty_value=None, choices=YES_NO,
        label="The opponent demands the roll be replayed (responsible moves)")
    side = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, label="Side",
                                  choices=[("", "—"), (0, "Side 0"), (1, "Side 1")])
    points = forms.IntegerField(required=False, min_value=1, max_value=SMALLINT_MAX, label="Penalty points")
    minutes_late = forms.IntegerField(required=False, min_value=1, max_value=MAX_MINUTES_LATE, label="Minutes late")
    rule = forms.CharField(max_length=RULE_MAX, label="Rule applied", help_text="e.g. RULES 9: a double in the Crawford "
                                                                              "game is void")
    reasoning = _text("Reasoning")

    PARAM_FIELDS = ("game", "move", "play", "noticed_before_next_roll", "opponent_demands_replay", "side", "points",
                    "minutes_late")

    def __init__(self, *args, side_names: tuple[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if side_names:
            self.fields["side"].choices = [("", "—"), (0, f"Side 0: {side_names[0]}"), (1, f"Side 1: {side_names[1]}")]
            self.fields["score0"].label = f"Corrected score: {side_names[0]}"
            self.fields["score1"].label = f"Corrected score: {side_names[1]}"

    def clean(self):
        data = super().clean()
        given = [name for name in ("score0", "score1") if data.get(name) is not None]
        if len(given) == 1:
            missing = "score1" if given == ["score0"] else "score0"
            self.add_error(missing, "A corrected score has both sides' scores.")
        return data

    def params(self) -> dict:
        data = self.cleaned_data
        params = {name: data[name] for name in self.PARAM_FIELDS if data.get(name) not in (None, "")}
        if data.get("score0") is not None and data.get("score1") is not None:
            params["score"] = [data["score0"], data["score1"]]
        return params


#: A refusal's ``field`` (``params.score``) -> the form field that shows it (core.pages.form_refuse).
PARAM_ALIASES = {**{f"params.{name}": name for name in OutcomeFields.PARAM_FIELDS}, "params.score": "score0",
                 "score": "score0"}


class RulingForm(OutcomeFields):
    """The director's ruling."""


class VoteForm(OutcomeFields):
    """A committee member's vote; the outcome, its details, the rule and the reasoning are the
    replacement ruling and are read only for a vote to replace."""

    decision = forms.ChoiceField(choices=Appeal.Decision.choices)
    field_order = ["decision"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["outcome"].required = False
        self.fields["outcome"].choices = [("", "— (replace only)"), *Ruling.Outcome.choices]
        self.fields["rule"].required = False
        self.fields["reasoning"].required = False

    def clean(self):
        data = super().clean()
        if data.get("decision") == Appeal.Decision.REPLACE:
            for name in ("outcome", "rule", "reasoning"):
                if not data.get(name):
                    self.add_error(name, "A vote to replace the ruling gives the new ruling: this field is required.")
        return data

    def service_arguments(self) -> dict:
        data = self.cleaned_data
        if data["decision"] != Appeal.Decision.REPLACE:
            return {"decision": data["decision"]}
        return {"decision": data["decision"], "outcome": data["outcome"], "params": self.params(),
                "rule": data["rule"], "reasoning": data["reasoning"]}


class AppealForm(forms.Form):
    grounds = _text("Why the ruling is wrong")


class CommitteeForm(forms.Form):
    """The committee by usernames (3 or 5, separated by commas or spaces); ``member_ids()`` gives
    the user ids the service takes. Who may sit is the service's to say."""

    members = forms.CharField(max_length=1000, label="Committee members (usernames)",
                              help_text="3 or 5 usernames, separated by commas; not the director, not a player of "
                                        "the match.")

    def clean_members(self) -> list[str]:
        names = [name for name in re.split(r"[,\s]+", self.cleaned_data["members"]) if name]
        if not names:
            raise forms.ValidationError("Name the committee's members.")
        found = dict(get_user_model().objects.filter(username__in=names, is_active=True).values_list("username", "pk"))
        unknown = [name for name in names if name not in found]
        if unknown:
            raise forms.ValidationError(f"There is no active user named {unknown[0]}.")
        self.ids = [found[name] for name in names]
        return names

    def member_ids(self) -> list[int]:
        return self.ids
