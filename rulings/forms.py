"""HTML forms of the rulings pages: shape validation only. Whether the user may open, answer, rule,
appeal, name a committee or vote, and whether a ruling's details fit its outcome, is for the
services to say (their refusals come back onto these forms, on the field they name)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django import forms
from django.contrib.auth import get_user_model
from django.forms import BoundField
from django.utils.translation import gettext_lazy as _

from core.bounds import INT_MAX, SMALLINT_MAX
from core.text import join_list
from matches.models import MAX_SCORE, Player
from matches.pickers import PlayerChoiceField, PlayerMultipleChoiceField

from .models import Appeal, Dispute, Ruling
from .selectors import DisputeFilters
from .services.disputes import MAX_GAME_NUMBER
from .services.outcomes import MAX_MINUTES_LATE, MAX_PLAYED_LENGTH
from .wording import WRONG_LENGTH_CHOICES, outcome_choices

STATEMENT_MAX = 5000
RULE_MAX = 200
YES_NO = [("", "—"), ("yes", _("Yes")), ("no", _("No"))]


def _whole(raw) -> int | None:
    """A whole number of 1 or more from a query string's value, else None."""
    try:
        number = int(raw)
    except (TypeError, ValueError):
        return None
    return number if number >= 1 else None


def _text(label, rows: int = 4, **kwargs) -> forms.CharField:
    return forms.CharField(label=label, max_length=STATEMENT_MAX, widget=forms.Textarea(attrs={"rows": rows}), **kwargs)


class DisputeFilterForm(forms.Form):
    """The queue's filters (a GET form): every field optional; ``filters()`` gives them to
    ``selectors.dispute_list``."""

    status = forms.ChoiceField(required=False, choices=[("", _("Any status")), *Dispute.Status.choices], label=_("Status"))
    category = forms.ChoiceField(required=False, choices=[("", _("Any category")), *Dispute.Category.choices],
                                 label=_("Category"))
    event = forms.IntegerField(required=False, min_value=1, max_value=INT_MAX, label=_("Event number"))

    def filters(self) -> DisputeFilters:
        """The cleaned filters (an unbound form: none)."""
        if not self.is_bound:
            return DisputeFilters()
        data = self.cleaned_data
        return DisputeFilters(status=data["status"], category=data["category"], event=data["event"])


class DisputeOpenForm(forms.Form):
    """A dispute about the whole match, one game or one moment of a game. The match page's board
    links here with ``?game_number=&move_number=`` (the action after the moment shown), so the
    form opens with the moment filled in; :meth:`moment` says it in words."""

    category = forms.ChoiceField(choices=Dispute.Category.choices, label=_("Category"))
    game_number = forms.IntegerField(required=False, min_value=1, max_value=MAX_GAME_NUMBER, label=_("Game (optional)"),
                                     help_text=_("Empty: the dispute is about the whole match."))
    move_number = forms.IntegerField(required=False, min_value=1, max_value=INT_MAX,
                                     label=_("Action of that game (optional)"),
                                     help_text=_("1 for the game's first action (the roll-off), and so on; the board "
                                                 "recorded is the one before it (the match page's moment one less)."))
    statement = _text(_("What happened"), rows=5)

    def clean(self):
        data = super().clean()
        if data.get("move_number") is not None and data.get("game_number") is None:
            self.add_error("game_number", _("An action belongs to a game: give the game's number."))
        return data

    def moment(self) -> dict | None:
        """The game and action the form carries (bound: as posted and valid; unbound: as the
        board's link gave them), as ``{"game", "move"}`` (``move`` may be None), or None."""
        if self.is_bound:
            data = self.cleaned_data if self.is_valid() else {}
            game, move = data.get("game_number"), data.get("move_number")
        else:
            game, move = _whole(self.initial.get("game_number")), _whole(self.initial.get("move_number"))
        if game is None:
            return None
        return {"game": game, "move": move, "moment": move - 1 if move else None}


class StatementForm(forms.Form):
    text = _text(_("Your statement"))


#: The details each outcome reads (``rulings.services.rulings.ruling_apply``), by form field.
OUTCOME_FIELDS: dict[str, tuple[str, ...]] = {
    Ruling.Outcome.STANDS: ("score0", "score1"),
    Ruling.Outcome.SCORE_CORRECTED: ("score0", "score1"),
    Ruling.Outcome.PLAY_CORRECTED: ("game", "move", "play", "noticed_before_next_roll", "opponent_demands_replay"),
    Ruling.Outcome.PLAY_CONDONED: ("game", "move", "noticed_before_next_roll", "opponent_demands_replay"),
    Ruling.Outcome.GAME_VOIDED: ("game",),
    Ruling.Outcome.GAME_REPLAYED: ("game",),
    Ruling.Outcome.CRAWFORD_DOUBLE_VOIDED: ("game",),
    Ruling.Outcome.PENALTY_POINTS: ("side", "points", "minutes_late"),
    Ruling.Outcome.MATCH_AWARDED: ("side",),
    Ruling.Outcome.WARNING: ("side",),
    Ruling.Outcome.DISQUALIFICATION: ("side",),
    Ruling.Outcome.WRONG_LENGTH: ("played_length", "choice", "score0", "score1"),
}

#: The details grouped as the form shows them: a heading and its fields.
DETAIL_GROUPS = (
    ("score", _("The result"), ("score0", "score1")),
    ("where", _("Where in the match"), ("game", "move")),
    ("play", _("The illegal play"), ("play", "noticed_before_next_roll", "opponent_demands_replay")),
    ("side", _("Who"), ("side",)),
    ("penalty", _("The penalty"), ("points", "minutes_late")),
    ("length", _("The wrong length"), ("played_length", "choice")),
)


@dataclass(frozen=True)
class DetailField:
    field: BoundField
    outcomes: str  # the outcomes that read it, space-separated (the script's data-outcomes)


@dataclass(frozen=True)
class DetailGroup:
    key: str
    heading: str
    outcomes: str
    outcome_labels: str  # "for: the score is corrected, ..." (shown without the script)
    fields: list[DetailField]


class OutcomeFields(forms.Form):
    """An outcome and its details, as a ruling (or a committee's replacement) names them.

    Only the detail fields the outcome needs are filled in; ``params()`` gathers the filled ones
    under the names the ruling service reads: ``score`` ([side 0, side 1]), ``game``, ``move``,
    ``play``, ``noticed_before_next_roll``, ``opponent_demands_replay``, ``side``, ``points``,
    ``minutes_late``, ``played_length`` and ``choice`` (the service refuses a detail the outcome
    does not read, naming it).
    :meth:`detail_groups` gives the details grouped, each marked with the outcomes that read it:
    the page shows every group with its heading, and its script (``static/rulings.js``) only the
    chosen outcome's fields.

    ``stands_score``: the result that stands when the director chooses "the result stands" and
    gives no score (the match's one contested report); ``stands_label`` words that choice ("The
    reported result stands: 5-3 to Ana").
    """

    outcome = forms.ChoiceField(choices=outcome_choices(), label=_("Outcome"))
    score0 = forms.IntegerField(required=False, min_value=0, max_value=MAX_SCORE, label=_("Score of the first side"))
    score1 = forms.IntegerField(required=False, min_value=0, max_value=MAX_SCORE, label=_("Score of the second side"))
    game = forms.IntegerField(required=False, min_value=1, max_value=MAX_GAME_NUMBER, label=_("Game"),
                              help_text=_("Empty: the dispute's own game."))
    move = forms.IntegerField(required=False, min_value=1, max_value=INT_MAX, label=_("Action of the game"),
                              help_text=_("Empty: the dispute's own game and action."))
    play = forms.CharField(required=False, max_length=100, label=_("Corrected play"), help_text=_("e.g. 13/7 8/7"))
    noticed_before_next_roll = forms.TypedChoiceField(
        required=False, coerce=lambda value: value == "yes", empty_value=None, choices=YES_NO,
        label=_("Illegal play noticed before the opponent rolled or doubled"))
    opponent_demands_replay = forms.TypedChoiceField(
        required=False, coerce=lambda value: value == "yes", empty_value=None, choices=YES_NO,
        label=_("The opponent demands the roll be replayed (responsible moves)"))
    side = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, label=_("Side"),
                                  choices=[("", "—"), (0, _("The first side")), (1, _("The second side"))])
    points = forms.IntegerField(required=False, min_value=1, max_value=SMALLINT_MAX, label=_("Penalty points"))
    minutes_late = forms.IntegerField(required=False, min_value=1, max_value=MAX_MINUTES_LATE, label=_("Minutes late"),
                                      help_text=_("Instead of the points: one point per 5 minutes."))
    played_length = forms.IntegerField(required=False, min_value=1, max_value=MAX_PLAYED_LENGTH,
                                       label=_("Length the match was played to"))
    choice = forms.ChoiceField(required=False, label=_("What becomes of the match"),
                               choices=[("", "—"), *WRONG_LENGTH_CHOICES.items()],
                               help_text=_("Found after the match, the result stands; found during it, the match goes "
                                           "on to its right length, or the side that already reached it wins. The "
                                           "score above is the score as it stands (empty: the reported one)."))
    rule = forms.CharField(max_length=RULE_MAX, label=_("Rule applied"),
                           help_text=_("e.g. RULES 9: a double in the Crawford game is void"))
    reasoning = _text(_("Reasoning"))

    PARAM_FIELDS = ("game", "move", "play", "noticed_before_next_roll", "opponent_demands_replay", "side", "points",
                    "minutes_late", "played_length", "choice")
    DETAIL_FIELDS = ("score0", "score1", *PARAM_FIELDS)

    def __init__(self, *args, side_names: tuple[str, str] | None = None, stands_label: str | None = None,
                 stands_score: tuple[int, int] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.stands_score = stands_score
        self.fields["outcome"].choices = [*self._blank_choice(), *outcome_choices(stands_label)]
        if side_names:
            self.fields["side"].choices = [("", "—"), (0, side_names[0]), (1, side_names[1])]
            self.fields["score0"].label = _("Score of %(name)s") % {"name": side_names[0]}
            self.fields["score1"].label = _("Score of %(name)s") % {"name": side_names[1]}

    def _blank_choice(self) -> list[tuple[str, str]]:
        return []

    def clean(self):
        data = super().clean()
        given = [name for name in ("score0", "score1") if data.get(name) is not None]
        if len(given) == 1:
            missing = "score1" if given == ["score0"] else "score0"
            self.add_error(missing, _("A result has both sides' scores."))
        return data

    def params(self) -> dict:
        data = self.cleaned_data
        params = {name: data[name] for name in self.PARAM_FIELDS if data.get(name) not in (None, "")}
        if data.get("score0") is not None and data.get("score1") is not None:
            params["score"] = [data["score0"], data["score1"]]
        elif data.get("outcome") == Ruling.Outcome.STANDS and self.stands_score is not None:
            params["score"] = list(self.stands_score)
        return params

    def detail_groups(self) -> list[DetailGroup]:
        """The detail fields in their groups, each field and group marked with the outcomes
        that read it (in the order of the outcomes' choices)."""
        labels = dict(self.fields["outcome"].choices)
        groups = []
        for key, heading, names in DETAIL_GROUPS:
            fields = []
            for name in names:
                reading = [outcome for outcome, needs in OUTCOME_FIELDS.items() if name in needs]
                fields.append(DetailField(self[name], " ".join(reading)))
            outcomes = [outcome for outcome, needs in OUTCOME_FIELDS.items() if set(needs) & set(names)]
            groups.append(DetailGroup(key, str(heading), " ".join(outcomes),
                                      join_list(labels.get(o, o) for o in outcomes), fields))
        return groups

    def general_fields(self) -> list[BoundField]:
        """The fields outside the details' groups (outcome, rule, reasoning; a vote's decision)."""
        return [field for field in self if field.name not in self.DETAIL_FIELDS]


#: A refusal's ``field`` (``params.score``) -> the form field that shows it (core.pages.form_refuse).
PARAM_ALIASES = {**{f"params.{name}": name for name in OutcomeFields.PARAM_FIELDS}, "params.score": "score0",
                 "score": "score0"}


class RulingForm(OutcomeFields):
    """The director's ruling."""


class VoteForm(OutcomeFields):
    """A committee member's vote; the outcome, its details, the rule and the reasoning are the
    replacement ruling and are read only for a vote to replace."""

    decision = forms.ChoiceField(choices=Appeal.Decision.choices, label=_("Decision"))
    field_order = ["decision"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["outcome"].required = False
        self.fields["outcome"].label = _("Outcome of the new ruling (to replace it)")
        self.fields["rule"].required = False
        self.fields["reasoning"].required = False

    def _blank_choice(self) -> list[tuple[str, str]]:
        return [("", _("— (only to replace the ruling)"))]

    def clean(self):
        data = super().clean()
        if data.get("decision") == Appeal.Decision.REPLACE:
            for name in ("outcome", "rule", "reasoning"):
                if not data.get(name):
                    self.add_error(name, _("A vote to replace the ruling gives the new ruling: this field is required."))
        return data

    def service_arguments(self) -> dict:
        data = self.cleaned_data
        if data["decision"] != Appeal.Decision.REPLACE:
            return {"decision": data["decision"]}
        return {"decision": data["decision"], "outcome": data["outcome"], "params": self.params(),
                "rule": data["rule"], "reasoning": data["reasoning"]}


class AppealForm(forms.Form):
    grounds = _text(_("Why the ruling is wrong"))


class CommitteeField(PlayerMultipleChoiceField):
    """The committee's members: one player picker each (a chosen suggestion, or a player's name the
    server resolves), or usernames as the form always took them (several in one box, separated by
    commas or spaces). Cleaned to the members' user ids, in the order given; only people with an
    account can sit. Who may sit is the service's to say."""

    def __init__(self, **kwargs):
        kwargs.setdefault("error_messages", {
            "invalid_choice": _("That player has no account: a committee member needs one."),
        })
        super().__init__(Player.objects.filter(user__is_active=True).select_related("user"), spare=5, **kwargs)

    def to_python(self, value) -> list[int]:
        if value is None or value == "":
            return []
        items = value if isinstance(value, list) else [value]
        users: list[int] = []
        errors = []
        for number, item in enumerate(items, start=1):
            text, chosen = item if isinstance(item, tuple) else (str(item), "")
            text = text.strip()
            if not text and not chosen:
                continue
            if not chosen:
                names = [name for name in re.split(r"[,\s]+", text) if name]
                found = dict(get_user_model().objects.filter(username__in=names, is_active=True)
                             .values_list("username", "pk"))
                if all(name in found for name in names):
                    users.extend(found[name] for name in names)
                    continue
                if "," in text:  # usernames, as before: one of them is nobody's
                    unknown = next(name for name in names if name not in found)
                    errors.append(forms.ValidationError(
                        _("There is no active user named %(name)s.") % {"name": unknown}, code="unknown_user"))
                    continue
            try:
                player = PlayerChoiceField.to_python(self, (text, chosen))
            except forms.ValidationError as error:
                errors.extend(forms.ValidationError(_("Member %(number)d: %(error)s") % {"number": number, "error": message})
                              for message in error.messages)
                continue
            users.append(player.user_id)
        if errors:
            raise forms.ValidationError(errors)
        return users

    def validate(self, value):
        if not value:
            raise forms.ValidationError(_("Name the committee's members."), code="required")


class CommitteeForm(forms.Form):
    """The committee: 3 or 5 members, by the player picker or by usernames; ``member_ids()`` gives
    the user ids the service takes. Who may sit is the service's to say."""

    members = CommitteeField(label=_("Committee members"),
                             help_text=_("3 or 5 people: type part of each one's name and choose him, or give "
                                         "usernames separated by commas; not the director, not a player of the "
                                         "match."))

    def member_ids(self) -> list[int]:
        return self.cleaned_data["members"]
