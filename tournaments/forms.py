"""HTML forms of the event and team pages: shape validation only. Whether the rules fit the format,
a player may enter, the draw can be made or a board order names the team's players is decided by
the services (tournaments.services)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from django import forms
from django.utils.translation import gettext_lazy as _

from core.bounds import INT_MAX, SMALLINT_MAX
from matches.models import Player
from matches.pickers import PlayerChoiceField, PlayerMultipleChoiceField
from tournaments.models import Tournament
from tournaments.services.draw import MAX_SEED
from tournaments.services.events import EventRules, rule_bounds

if TYPE_CHECKING:
    from tournaments.selectors import TeamView



def parse_lengths(text: str) -> dict:
    """``main: 5 5 7 9; consolation: 3`` -> ``{"main": [5, 5, 7, 9], "consolation": 3}``.
    Raises forms.ValidationError naming the part that is not ``name: lengths``."""
    out: dict = {}
    for part in filter(None, (p.strip() for p in re.split(r"[;\n]", text or ""))):
        name, colon, numbers = part.partition(":")
        name = name.strip().lower().replace(" ", "_").replace("-", "_")
        values = [n for n in re.split(r"[\s,]+", numbers.strip()) if n]
        if not colon or not name or not values or not all(v.isdigit() for v in values):
            raise forms.ValidationError(_("“%(part)s” is not “flight: lengths”, e.g. main: 5 5 7 9") % {"part": part})
        lengths = [int(v) for v in values]
        out[name] = lengths if len(lengths) > 1 else lengths[0]
    return out


class TournamentForm(forms.Form):
    """A new event and its published rules (see EventRules and tournament_create)."""

    name = forms.CharField(max_length=200, label=_("Name"))
    format = forms.ChoiceField(choices=Tournament.Format.choices, initial=Tournament.Format.SINGLE_ELIMINATION,
                               label=_("Format"))
    kind = forms.ChoiceField(choices=[c for c in Tournament.Kind.choices if c[0] != Tournament.Kind.TEAMS],
                             initial=Tournament.Kind.INDIVIDUAL, label=_("Entrants"))
    starts_on = forms.DateField(required=False, label=_("Starts on"), widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(required=False, label=_("Ends on"), widget=forms.DateInput(attrs={"type": "date"}))
    lengths = forms.CharField(
        required=False, label=_("Match lengths"),
        help_text=_("Per flight, one length per round, e.g. “main: 5 5 7 9; consolation: 3”. Swiss and round "
                  "robin: “rounds: 5”. Empty: the default length."),
    )
    consolation_rounds = forms.IntegerField(
        **rule_bounds("consolation_rounds"), initial=0, label=_("Consolation flight"),
        help_text=_("0: none; 1: first-round losers; k: losers of the first k rounds (single elimination)."))
    last_chance = forms.BooleanField(required=False, label=_("Last-chance flight for consolation losers"))
    swiss_rounds = forms.IntegerField(**rule_bounds("swiss_rounds"), required=False, label=_("Swiss rounds"))
    max_losses = forms.IntegerField(**rule_bounds("max_losses"), required=False,
                                    label=_("Elimination Swiss: out at this many losses"))
    groups = forms.IntegerField(**rule_bounds("groups"), initial=1, label=_("Round-robin groups"))
    forbid_same_club = forms.BooleanField(required=False, label=_("Never pair two players of one club (Swiss)"))
    crawford = forms.BooleanField(required=False, initial=True, label=_("Crawford rule"))
    move_policy = forms.ChoiceField(choices=[("legal", _("Legal moves")), ("responsible", _("Responsible moves"))],
                                    label=_("Moves"))
    premature_roll = forms.ChoiceField(choices=Tournament.PrematureRoll.choices, label=_("Premature roll"))
    clock_seconds_per_point = forms.IntegerField(**rule_bounds("clock_seconds_per_point"), required=False,
                                                 label=_("Clock: seconds per match point (empty: no clock)"))
    penalty_minutes_per_point = forms.IntegerField(**rule_bounds("penalty_minutes_per_point"), initial=5,
                                                   label=_("Late arrival: one penalty point per N minutes"))
    seeding = forms.ChoiceField(choices=Tournament.Seeding.choices, initial=Tournament.Seeding.RATING,
                                label=_("Seeding"))
    # Issue 17, point 7 (swiss17)
    swiss_pairing = forms.ChoiceField(choices=Tournament.SwissPairing.choices, initial=Tournament.SwissPairing.FAIR,
                                      required=False, label=_("Swiss pairing"))
    swiss_tiebreaks = forms.ChoiceField(choices=Tournament.SwissTiebreaks.choices, required=False,
                                        initial=Tournament.SwissTiebreaks.STANDARD, label=_("Swiss tie-breaks"))
    round_robin_order = forms.ChoiceField(choices=Tournament.RoundRobinOrder.choices, required=False,
                                          initial=Tournament.RoundRobinOrder.CIRCLE, label=_("Round-robin order"))
    club = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label=_("Club"),
                                  help_text=_("On that club's calendar (the clubs you own or organise)."))
    # One per form shown: the same form sent twice (a double click, a resend) makes one event.
    token = forms.UUIDField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, clubs=(), club_required: bool = False, **kwargs):
        """``clubs``: (id, name) of the clubs the organiser may put the event on; ``club_required``:
        a club's owner without the organiser role creates only his club's events (no "No club")."""
        super().__init__(*args, **kwargs)
        field = self.fields["club"]
        if club_required:
            field.required = True
            field.error_messages["required"] = _("choose the club the event is on: without the organiser role you "
                                                 "create only your club's events")
            field.choices = list(clubs)
            field.help_text = _("On the calendar of a club you own: without the organiser role you create only "
                                "your club's events.")
        else:
            field.choices = [("", _("No club")), *clubs]

    def clean_lengths(self) -> dict:
        return parse_lengths(self.cleaned_data.get("lengths", ""))

    def rules(self) -> EventRules:
        """The cleaned fields as the event's rules (``tournament_create``'s); an empty count keeps
        the rules' default. Raises DomainError ``bad_rules`` naming the field."""
        data = dict(self.cleaned_data)
        data.pop("token", None)
        data["club_id"] = data.pop("club", None)
        for name in ("consolation_rounds", "groups", "penalty_minutes_per_point"):
            if data[name] is None:
                data.pop(name)
        for name in ("swiss_pairing", "swiss_tiebreaks", "round_robin_order"):  # not sent: the default
            if not data.get(name):
                data.pop(name, None)
        return EventRules(**data)


class EntrantForm(forms.Form):
    """The organiser adds a player (by name: the player picker) to the entry list."""

    player = PlayerChoiceField(
        label=_("Player"),
        error_messages={"invalid_choice": _("there is no such player to add: choose one from the list")},
    )
    partner = PlayerChoiceField(
        required=False, label=_("Partner (pairs events)"),
        error_messages={"invalid_choice": _("there is no such partner to add: choose one from the list")},
    )
    seed = forms.IntegerField(min_value=1, max_value=INT_MAX, required=False, label=_("Seed (optional)"))

    def __init__(self, *args, players=None, **kwargs):
        super().__init__(*args, **kwargs)
        players = players if players is not None else Player.objects.all()
        self.fields["player"].queryset = players
        self.fields["partner"].queryset = players

    @property
    def player_ids(self) -> list[int]:
        partner = self.cleaned_data.get("partner")
        return [self.cleaned_data["player"].pk] + ([partner.pk] if partner else [])


class PairSignUpForm(forms.Form):
    """A player enters a consultation-pairs event with his partner, and says who rolls."""

    partner = PlayerChoiceField(
        label=_("Partner"),
        error_messages={"invalid_choice": _("there is no such player: choose your partner from the list")},
    )
    rolls = forms.ChoiceField(choices=[("alternate", _("We alternate by game")), ("me", _("I always roll")),
                                       ("partner", _("My partner always rolls"))], label=_("Who rolls"))


class DrawForm(forms.Form):
    """The draw, with an optional recorded seed for a random draw."""

    seed = forms.IntegerField(min_value=0, max_value=MAX_SEED, required=False,
                              label=_("Random seed (optional, random draws only)"))


class EntryActionForm(forms.Form):
    """Check in or withdraw one entry."""

    entry = forms.IntegerField(min_value=1, max_value=INT_MAX,
                               error_messages={"required": _("name the entry"), "invalid": _("an entry is a number")})


class BoardOrderForm(forms.Form):
    """A round number and one member per board (shape only: the service checks membership)."""

    round_number = forms.IntegerField(min_value=1, max_value=SMALLINT_MAX, label=_("Round"))

    def __init__(self, *args, team: TeamView, boards: int, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(str(m.player_id), (_("%(name)s (reserve)") % {"name": m.name} if m.reserve else m.name))
                                 for m in team.members]
        for board in range(1, boards + 1):
            self.fields[f"board_{board}"] = forms.TypedChoiceField(label=_("Board %(number)d") % {"number": board},
                    choices=choices,
                                                                   coerce=int)
        self.boards = boards

    def player_ids(self) -> list[int]:
        return [self.cleaned_data[f"board_{board}"] for board in range(1, self.boards + 1)]


class LateTeamForm(forms.Form):
    """A team entered after the draw (shape only: the service checks the players and the format)."""

    name = forms.CharField(max_length=120, label=_("Team name"))
    captain = PlayerChoiceField(
        label=_("Captain"),
        error_messages={"invalid_choice": _("there is no such captain: choose one from the list")},
    )
    members = PlayerMultipleChoiceField(
        required=False, label=_("Other members"), spare=3,
        error_messages={"invalid_choice": _("there is no such member: choose from the list")},
    )
    reserves = PlayerMultipleChoiceField(
        required=False, label=_("Reserves"),
        error_messages={"invalid_choice": _("there is no such reserve: choose from the list")},
    )

    def service_arguments(self) -> dict:
        data = self.cleaned_data
        return {"name": data["name"], "captain_id": data["captain"].pk,
                "member_ids": [p.pk for p in data["members"]], "reserve_ids": [p.pk for p in data["reserves"]]}


class TeamMemberForm(forms.Form):
    """A player joining a team before the draw, as a member or a reserve (shape only: the
    service checks who may add him and when)."""

    player = PlayerChoiceField(
        label=_("Player"),
        error_messages={"invalid_choice": _("there is no such player to add: choose one from the list")},
    )
    reserve = forms.BooleanField(required=False, label=_("As a reserve"))

    def __init__(self, *args, players, **kwargs):
        """``players``: those who may join (``selectors.team_member_candidates``)."""
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = players

    def service_arguments(self) -> dict:
        """The cleaned fields as keyword arguments of team_member_add."""
        return {"player_id": self.cleaned_data["player"].pk, "reserve": self.cleaned_data["reserve"]}
