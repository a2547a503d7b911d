"""HTML forms of the event and team pages: shape validation only. Whether the rules fit the format,
a player may enter, the draw can be made or a board order names the team's players is decided by
the services (tournaments.services)."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

from django import forms
from django.utils.translation import gettext_lazy as _

from core.bounds import INT_MAX, SMALLINT_MAX
from matches.models import Player
from matches.pickers import PlayerChoiceField, PlayerMultipleChoiceField
from tournaments import formats
from tournaments.models import Tournament
from tournaments.services.draw import MAX_SEED
from tournaments.services.events import EventRules, rule_bounds

from .divisions import DEFAULT_HANDICAPS_TEXT, clean_division_fields, division_fields

if TYPE_CHECKING:
    from tournaments.selectors.teams import TeamView


#: The event form's match-length fields, one per schedule the formats read (each format's
#: ``length_keys``), by that schedule's name: its field's name, label and help. A Swiss's and a
#: round robin's ``rounds`` and a double elimination's ``winners`` fall back to the main flight's
#: schedule, so the main flight's field sets them (:data:`LENGTH_ALIASES`).
LENGTH_FIELDS = {
    "main": ("lengths_main", _("Match lengths of the main flight"),
             _("One length for every round, or one per round: 5 5 7 9. Swiss and round robin: its rounds; "
               "double elimination: the winners' bracket. Empty: the default length.")),
    "consolation": ("lengths_consolation", _("Match lengths of the consolation flight"),
                    _("Single elimination with a consolation flight. Empty: as the main flight.")),
    "last_chance": ("lengths_last_chance", _("Match lengths of the last-chance flight"),
                    _("Empty: as the consolation flight.")),
    "playoff": ("lengths_playoff", _("Match length of the playoff for 2nd"), _("Empty: as the main flight.")),
    "losers": ("lengths_losers", _("Match lengths of the losers' bracket"),
               _("Double elimination. Empty: as the winners' bracket.")),
    "final": ("lengths_final", _("Match length of the double elimination's final"), _("Empty: the default length.")),
    "playoffs": ("lengths_playoffs", _("Match lengths of the modified Swiss's playoffs"),
                 _("One per playoff round: 7 9 11. Empty: as the Swiss rounds.")),
}

#: The schedules that are the main flight's under another name (the API may send them).
LENGTH_ALIASES = ("rounds", "winners")


def parse_lengths(text: str):
    """``"5 5 7 9"`` (or ``"5, 5, 7, 9"``, in any digits) -> ``[5, 5, 7, 9]``; ``"7"`` -> ``7``;
    empty -> None. Raises forms.ValidationError when a part is not a whole number (the service
    checks the numbers)."""
    values = [v for v in re.split(r"[\s,;\u060c]+", (text or "").strip()) if v]
    if not all(v.isdecimal() for v in values):
        raise forms.ValidationError(_("write whole numbers, one length or one per round, e.g. 5 5 7 9"))
    lengths = [int(v) for v in values]
    if not lengths:
        return None
    return lengths if len(lengths) > 1 else lengths[0]


def length_formats(key: str) -> list[str]:
    """The formats (``Tournament.Format`` values) that read the schedule ``key`` (under its own
    name or, for the main flight's, an alias), as their ``length_keys`` say."""
    names = {key, *LENGTH_ALIASES} if key == "main" else {key}
    found = {event_format.format for event_format in formats.FORMATS.values() if names & set(event_format.length_keys)}
    return [value for value, _label in Tournament.Format.choices if value in found]


def lengths_fields() -> dict[str, forms.Field]:
    """The match-length fields of the event form (:data:`LENGTH_FIELDS`), by field name; each
    says the formats that read it (``data-formats``: the page shows only the chosen format's)."""
    return {name: forms.CharField(required=False, label=label, help_text=help_text,
                                  widget=forms.TextInput(attrs={"data-formats": " ".join(length_formats(key))}))
            for key, (name, label, help_text) in LENGTH_FIELDS.items()}


def lengths_initial(lengths: dict | None) -> dict[str, str]:
    """The stored match lengths as the fields show them (``{"lengths_main": "5 7", ...}``); a
    schedule stored under an alias of the main flight's fills the main flight's field."""
    lengths = dict(lengths or {})
    for alias in LENGTH_ALIASES:
        if alias in lengths:
            lengths["main"] = lengths.pop(alias)
    return {LENGTH_FIELDS[key][0]: " ".join(map(str, value)) if isinstance(value, list) else str(value)
            for key, value in lengths.items() if key in LENGTH_FIELDS}


def clean_lengths_fields(form) -> None:
    """Turn the match-length fields of ``form`` into the rules' ``lengths`` in its cleaned data
    (``{"main": [5, 7], "consolation": 3}``: the API's shape), or put a refusal on the field that
    does not read. The fields themselves leave the cleaned data."""
    data, lengths = form.cleaned_data, {}
    for key, (name, _label, _help) in LENGTH_FIELDS.items():
        if name not in data:
            continue
        text = data.pop(name)
        try:
            value = parse_lengths(text)
        except forms.ValidationError as error:
            form.add_error(name, error)
            continue
        if value is not None:
            lengths[key] = value
    data["lengths"] = lengths


def lengths_field(path: str) -> str | None:
    """The form field a refusal of ``lengths.<schedule>`` names (None for another setting)."""
    head, _dot, key = path.partition(".")
    if head != "lengths":
        return None
    key = "main" if key in LENGTH_ALIASES else key
    return LENGTH_FIELDS[key][0] if key in LENGTH_FIELDS else LENGTH_FIELDS["main"][0]


#: The clock's counts: empty keeps the rules' default.
CLOCK_COUNTS = ("clock_delay_seconds", "clock_doubling_seconds_per_point", "clock_doubling_delay_seconds",
                "clock_overtime_seconds")
# --- paid places per flight: its prize pool and its places' percentages ---

#: The flights an event may pay (a format's ``payout_flights``), each with two fields: its prize
#: pool (``payouts_<flight>_pool``) and the percentage of each paid place, best first
#: (``payouts_<flight>_places``); labels and help by flight.
PAYOUT_FIELDS = {
    "main": (_("Prize pool of the main flight"), _("Paid places of the main flight")),
    "consolation": (_("Prize pool of the consolation flight"), _("Paid places of the consolation flight")),
    "last_chance": (_("Prize pool of the last-chance flight"), _("Paid places of the last-chance flight")),
}

def payout_field_names(flight: str) -> tuple[str, str]:
    """The names of ``flight``'s prize-pool field and paid-places field."""
    return f"payouts_{flight}_pool", f"payouts_{flight}_places"


def parse_pool(text: str) -> int | None:
    """``"1000"``, ``"200.50"`` or ``"200,50"`` (in any digits) -> the pool in cents; empty -> None.
    Raises forms.ValidationError when it is not an amount with two decimals at most."""
    text = (text or "").strip()
    if not text:
        return None
    try:
        amount = Decimal(text.replace(",", ".").replace("\u066b", "."))
    except InvalidOperation:
        amount = None
    if amount is None or not amount.is_finite() or amount < 0 or amount != amount.quantize(Decimal("0.01")):
        raise forms.ValidationError(_("write an amount, with two decimals at most, e.g. 1000 or 200.50"))
    return int(amount * 100)


def parse_places(text: str) -> list | None:
    """``"50 30 12.5 7.5"`` (or with commas between, in any digits) -> ``[50, 30, 12.5, 7.5]``;
    empty -> None. Raises forms.ValidationError when a part is not a number (the service checks
    that they add up to 100 and never increase)."""
    values = [v for v in re.split(r"[\s;\u060c]+|,(?=\s)", (text or "").strip()) if v]
    numbers = []
    for value in values:
        try:
            number = Decimal(value.replace(",", ".").replace("\u066b", "."))
        except InvalidOperation:
            number = None
        if number is None or not number.is_finite():  # "NaN" and "Infinity" read as Decimals too
            raise forms.ValidationError(_("write the percentage of each paid place, best first, e.g. 50 30 20"))
        numbers.append(number)
    if not numbers:
        return None
    return [int(n) if n == n.to_integral_value() else float(n) for n in numbers]


def payout_formats(flight: str) -> list[str]:
    """The formats (``Tournament.Format`` values) that may pay ``flight``, as their
    ``payout_flights`` say with every flight they can have."""
    found = {event_format.format for event_format in formats.FORMATS.values()
             if flight in event_format.payout_flights(1, True)}
    return [value for value, _label in Tournament.Format.choices if value in found]


def payouts_fields() -> dict[str, forms.Field]:
    """The paid places' fields of the event form (:data:`PAYOUT_FIELDS`), by field name; each
    says the formats that may pay its flight (``data-formats``: the page shows only the chosen
    format's)."""
    fields = {}
    for flight, (pool_label, places_label) in PAYOUT_FIELDS.items():
        pool, places = payout_field_names(flight)
        attrs = {"data-formats": " ".join(payout_formats(flight))}
        fields[pool] = forms.CharField(
            required=False, label=pool_label, widget=forms.TextInput(attrs={**attrs, "inputmode": "decimal"}),
            help_text=_("In the event's currency, e.g. 1000 or 200.50. Empty with paid places: not known yet (0)."))
        fields[places] = forms.CharField(
            required=False, label=places_label, widget=forms.TextInput(attrs=attrs),
            help_text=_("The percentage of each paid place, best first, e.g. 50 30 10 10: they add up to 100. "
                        "Empty: the flight pays nothing."))
    return fields


def payouts_initial(payouts: dict | None) -> dict[str, str]:
    """The stored paid places as the fields show them (``{"payouts_main_pool": "1000", ...}``)."""
    def money(cents: int) -> str:
        return str(cents // 100) if cents % 100 == 0 else f"{cents // 100}.{cents % 100:02d}"

    initial = {}
    for flight, rule in (payouts or {}).items():
        if flight in PAYOUT_FIELDS:
            pool, places = payout_field_names(flight)
            initial[pool] = money(int(rule.get("pool", 0)))
            initial[places] = " ".join(str(p) for p in rule.get("percentages", []))
    return initial


def clean_payouts_fields(form) -> None:
    """Turn the paid places' fields of ``form`` into the rules' ``payouts`` in its cleaned data
    (``{"main": {"pool": 100000, "percentages": [50, 30, 20]}}``: the API's shape), or put a
    refusal on the field that does not read. A flight with a pool but no places is refused on its
    places; places without a pool pay from a pool of 0 (not known yet). The fields leave the
    cleaned data."""
    data, payouts = form.cleaned_data, {}
    for flight in PAYOUT_FIELDS:
        pool_name, places_name = payout_field_names(flight)
        if pool_name not in data and places_name not in data:
            continue
        try:
            pool = parse_pool(data.pop(pool_name, ""))
        except forms.ValidationError as error:
            form.add_error(pool_name, error)
            data.pop(places_name, None)
            continue
        try:
            places = parse_places(data.pop(places_name, ""))
        except forms.ValidationError as error:
            form.add_error(places_name, error)
            continue
        if places is None:
            if pool:
                form.add_error(places_name, _("write the percentage of each paid place, best first, e.g. 50 30 20"))
            continue
        payouts[flight] = {"pool": pool or 0, "percentages": places}
    data["payouts"] = payouts


def payouts_field(path: str) -> str | None:
    """The form field a refusal of ``payouts`` or ``payouts.<flight>[.pool|.percentages…]`` names
    (None for another setting): the flight's pool or places, the main flight's places otherwise."""
    head, _dot, rest = path.partition(".")
    if head != "payouts":
        return None
    flight, _dot, what = rest.partition(".")
    pool, places = payout_field_names(flight if flight in PAYOUT_FIELDS else "main")
    return pool if what == "pool" and flight in PAYOUT_FIELDS else places


# --- end of paid places ---


def _after(fields: dict, name: str, added: dict) -> dict:
    """``fields`` with ``added`` placed right after the field ``name`` (at the end without it)."""
    out = {}
    for key, field in fields.items():
        out[key] = field
        if key == name:
            out.update(added)
    out.update({key: field for key, field in added.items() if key not in out})
    return out


class TournamentForm(forms.Form):
    """A new event and its published rules (see EventRules and tournament_create)."""

    name = forms.CharField(max_length=200, label=_("Name"))
    format = forms.ChoiceField(choices=Tournament.Format.choices, initial=Tournament.Format.SINGLE_ELIMINATION,
                               label=_("Format"))
    # The kinds the new-event form offers (players and pairs), set from the formats' own list when
    # the form is made: the formats package imports the services, which come back to this module.
    kind = forms.ChoiceField(choices=(), initial=Tournament.Kind.INDIVIDUAL, label=_("Entrants"))
    starts_on = forms.DateField(required=False, label=_("Starts on"), widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(required=False, label=_("Ends on"), widget=forms.DateInput(attrs={"type": "date"}))
    # The match lengths, one field per flight (LENGTH_FIELDS), are added where the form is made.
    consolation_rounds = forms.IntegerField(
        **rule_bounds("consolation_rounds"), initial=0, label=_("Consolation flight"),
        help_text=_("0: none; 1: first-round losers; k: losers of the first k rounds (single elimination)."))
    last_chance = forms.BooleanField(required=False, label=_("Last-chance flight for consolation losers"))
    # --- the flights directors use, and paid places ---
    consolation_shifted = forms.BooleanField(
        required=False, label=_("Shifted progressive consolation"),
        help_text=_("Losers of later main rounds join the consolation sooner, so it ends one or two rounds earlier "
                    "(3 consolation rounds or more)."))
    playoff_second = forms.BooleanField(
        required=False, label=_("Playoff for 2nd"),
        help_text=_("The loser of the main final plays the winner of the consolation for 2nd place."))
    last_chance_open = forms.BooleanField(
        required=False, label=_("Last chance open to everyone who has not cashed"),
        help_text=_("Every player who goes out in a place that is not paid plays a last-chance flight (needs the "
                    "paid places)."))
    # The paid places, two fields a flight (PAYOUT_FIELDS), are added where the form is made.
    reentries = forms.TypedChoiceField(
        coerce=int, required=False, empty_value=0, initial=0, label=_("Re-entry (buy-back)"),
        choices=[(0, _("No re-entry")), (1, _("Once: a first-round loser may enter the main again"))],
        help_text=_("While the main's first round is open, a player who lost his first match may enter again, "
                    "into a bye (single elimination without a consolation or last chance)."))
    # --- end of flights and paid places ---
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
                                                 label=_("Clock: seconds of reserve per match point"),
                                                 help_text=_("Empty: 120 (2 minutes) when the event has clocks."))
    # --- clocks
    clock_policy = forms.ChoiceField(choices=[("", _("As the reserve says (none when empty)")),
                                              *Tournament.ClockPolicy.choices],
                                     required=False, label=_("Clocks"))
    clock_delay_seconds = forms.IntegerField(**rule_bounds("clock_delay_seconds"), required=False, initial=12,
                                             label=_("Clock: delay per move in seconds"))
    clock_doubling = forms.BooleanField(required=False,
                                        label=_("Clock: the longer reserve and delay when doubling is in play"))
    clock_doubling_seconds_per_point = forms.IntegerField(**rule_bounds("clock_doubling_seconds_per_point"),
                                                          required=False, initial=180,
                                                          label=_("Doubling in play: seconds of reserve per point"))
    clock_doubling_delay_seconds = forms.IntegerField(**rule_bounds("clock_doubling_delay_seconds"), required=False,
                                                      initial=15, label=_("Doubling in play: delay per move in seconds"))
    clock_overtime_seconds = forms.IntegerField(**rule_bounds("clock_overtime_seconds"), required=False, initial=0,
                                                label=_("Clock: overtime in seconds (0: no overtime)"))
    # --- end clocks
    penalty_minutes_per_point = forms.IntegerField(**rule_bounds("penalty_minutes_per_point"), initial=5,
                                                   label=_("Late arrival: one penalty point per N minutes"))
    seeding = forms.ChoiceField(choices=Tournament.Seeding.choices, initial=Tournament.Seeding.RATING,
                                label=_("Seeding"))
    # How a Swiss is paired and its table ordered, and the order of a round robin's rounds.
    swiss_pairing = forms.ChoiceField(choices=Tournament.SwissPairing.choices, initial=Tournament.SwissPairing.FAIR,
                                      required=False, label=_("Swiss pairing"))
    swiss_tiebreaks = forms.ChoiceField(choices=Tournament.SwissTiebreaks.choices, required=False,
                                        initial=Tournament.SwissTiebreaks.STANDARD, label=_("Swiss tie-breaks"))
    round_robin_order = forms.ChoiceField(choices=Tournament.RoundRobinOrder.choices, required=False,
                                          initial=Tournament.RoundRobinOrder.CIRCLE, label=_("Round-robin order"))
    # The ABT-style modified Swiss: playoffs once no more players can still cash than the paid places.
    abt_playoffs = forms.BooleanField(
        required=False, label=_("Modified Swiss: playoffs once no more players can still cash than there are paid places"),
        help_text=_("After each round; the players who can still cash play single-elimination playoffs, seeded by the "
                    "Swiss table. Needs the number of Swiss rounds."))
    abt_paid_places = forms.IntegerField(
        **rule_bounds("abt_paid_places"), required=False, label=_("Modified Swiss: paid places"),
        help_text=_("Empty: the main flight's paid places."))
    # How deep GNU Backgammon analyses the event's matches; not sent, the default (2 plies).
    analysis_plies = forms.TypedChoiceField(choices=Tournament.AnalysisPlies.choices, coerce=int, empty_value=None,
                                            initial=Tournament.AnalysisPlies.TWO, required=False,
                                            label=_("Depth of GNU Backgammon's analysis"))
    club = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label=_("Club"),
                                  help_text=_("On that club's calendar (the clubs you own or organise)."))
    # One per form shown: the same form sent twice (a double click, a resend) makes one event.
    token = forms.UUIDField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, clubs=(), club_required: bool = False, **kwargs):
        """``clubs``: (id, name) of the clubs the organiser may put the event on; ``club_required``:
        a club's owner without the organiser role creates only his club's events (no "No club")."""
        super().__init__(*args, **kwargs)
        self.fields = _after(self.fields, "ends_on", lengths_fields())
        self.fields = _after(self.fields, "last_chance_open", payouts_fields())
        self.fields["kind"].choices = [c for c in Tournament.Kind.choices if c[0] in formats.kinds.NEW_EVENT_KINDS]
        # --- divisions and handicaps (tournaments.forms.divisions) ---
        self.fields.update(division_fields())
        self.fields["handicaps"].initial = DEFAULT_HANDICAPS_TEXT
        # --- end divisions ---
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

    def clean(self):
        cleaned = super().clean()
        clean_division_fields(self)  # the divisions and the handicap table
        clean_lengths_fields(self)
        clean_payouts_fields(self)
        return cleaned


    def rules(self) -> EventRules:
        """The cleaned fields as the event's rules (``tournament_create``'s); an empty count keeps
        the rules' default. Raises DomainError ``bad_rules`` naming the field."""
        data = dict(self.cleaned_data)
        data.pop("token", None)
        data["club_id"] = data.pop("club", None)
        for name in ("consolation_rounds", "groups", "penalty_minutes_per_point", *CLOCK_COUNTS):
            if data.get(name, 0) is None:
                data.pop(name)
        if not data.get("clock_policy"):
            data["clock_policy"] = None
        for name in ("swiss_pairing", "swiss_tiebreaks", "round_robin_order"):  # not sent: the default
            if not data.get(name):
                data.pop(name, None)
        if data.get("analysis_plies") is None:  # not sent: the default depth
            data.pop("analysis_plies", None)
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
