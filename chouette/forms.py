"""HTML forms of the chouette pages: shape validation only, and the translation of what was typed
into the engine's JSON forms (the roll-off's rounds, a quick result). Every rule — who is tied, whether
a record fits the line-up and the table — is checked by the services with the engine."""

from __future__ import annotations

import json
import re

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from core.bounds import SMALLINT_MAX
from core.parsers import json_loads
from matches.models import Player
from matches.pickers import PlayerChoiceField

from .selectors import ChouetteState, Seat

DICE = re.compile(r"[1-9](?:[\s,]+[1-9])*")
CUBE_FACES = [1 << power for power in range(11)]  # 1 .. 1024
ENDS = [("played", gettext_lazy("played to the end")), ("member_dropped", gettext_lazy("dropped")),
        # Translators: how a chouette game ended: the Box refused (dropped) the crew's double (KO 패스, never 드롭; RO respinge).
        ("box_dropped", gettext_lazy("Box dropped"))]


#: A club with more active members than this names its table's players with the player picker,
#: one seat each, rather than a roll-off line for every member.
SEATS_LISTED_MAX = 12
#: The seats offered then (a chouette of more is rare; the form can be sent again to add).
SEATS_PICKED = 10


class ChouetteStartForm(forms.Form):
    """The table's settings and each playing member's roll-off dice: ``6`` for one roll, ``6 3`` when
    he was tied and rerolled a 3 (one die per round; a blank means he does not play).

    The dice come as a line per member (``dice-<player id>``), or, for a ``club`` of more than
    :data:`SEATS_LISTED_MAX` members, as seats: a player picker (``seat-<n>``: the club's members
    only) and his dice (``seat-<n>-dice``). Both are always read."""

    name = forms.CharField(max_length=80, required=False, label=gettext_lazy("Name"),
                           help_text=gettext_lazy("e.g. the big table"))
    night = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label=gettext_lazy("Night"),
                                   help_text=gettext_lazy("the club night, if any"))
    stake = forms.DecimalField(max_digits=9, decimal_places=2, min_value=0, initial="1.00",
                               label=gettext_lazy("Stake per point"))
    currency = forms.CharField(max_length=3, initial="EUR", label=gettext_lazy("Currency"))
    single_cube = forms.BooleanField(required=False,
                                     label=gettext_lazy("One cube for the whole team (instead of one per member)"))
    jacoby = forms.BooleanField(required=False, initial=True, label=gettext_lazy("Jacoby rule"))
    beavers = forms.BooleanField(required=False, label=gettext_lazy("Beavers allowed"))
    raccoons = forms.BooleanField(required=False, label=gettext_lazy("Raccoons allowed (needs beavers)"))
    automatic_doubles = forms.IntegerField(min_value=0, max_value=30, initial=0,
                                           label=gettext_lazy("Automatic doubles (limit; 0: none)"))
    box_partner_from = forms.IntegerField(required=False, min_value=3, max_value=SMALLINT_MAX,
                                          label=gettext_lazy("Box partner from this many players"),
                                          help_text=gettext_lazy("blank: never"))
    box_must_take_half = forms.BooleanField(
        required=False, label=gettext_lazy("House rule: when all cubes are turned at once the Box takes half"))
    lone_taker_must_beaver = forms.BooleanField(required=False,
                                                label=gettext_lazy("House rule: a lone taker must beaver"))
    # The house rules clubs play by (engine.chouette.settings).
    take_half_initial_only = forms.BooleanField(required=False, label=gettext_lazy(
        "House rule: the Box takes half of a full turn of initial cubes only (turned from the centre)"))
    three_handed_both_cubes = forms.BooleanField(
        required=False, label=gettext_lazy("House rule: at three players the Box takes both cubes or passes both"))
    box_must_take_captain = forms.BooleanField(
        required=False, label=gettext_lazy("House rule: the Box takes the Captain's cube when he takes another"))
    captain_alone_must_beaver = forms.BooleanField(
        required=False, label=gettext_lazy("House rule: a Captain who takes alone must beaver (needs beavers)"))
    box_partner_next_in_line = forms.BooleanField(
        required=False,
        label=gettext_lazy("Partner convention: the Box partner is the next in line and captains when the Box loses"))
    jacoby_counts_automatic = forms.BooleanField(
        required=False, label=gettext_lazy("An automatic double counts for Jacoby"),
        help_text=gettext_lazy("Off by default, as in gnubg and most clubs: a gammon on a cube turned only by "
                               "automatic doubles counts single."))

    def __init__(self, *args, players: list[tuple[int, str]], nights: list[tuple[int, str]], club=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        self.fields["night"].choices = [("", pgettext_lazy("no night", "none")), *nights]
        for player_id, name in players:
            self.fields[f"dice-{player_id}"] = forms.CharField(
                required=False, max_length=40, label=_("%(name)s's roll-off") % {"name": name},
                help_text=_("blank: not playing; one die, then each reroll after a tie (6 3)"))
        self.seats_picked = club is not None and len(players) > SEATS_LISTED_MAX
        if club is not None:
            members = Player.objects.filter(pk__in=[player_id for player_id, _name in players])
            for seat in range(SEATS_PICKED):
                self.fields[f"seat-{seat}"] = PlayerChoiceField(
                    members, params={"club": club.pk}, required=False, label=_("Player %(n)d") % {"n": seat + 1},
                    error_messages={"invalid_choice": _("That player is not an active member of the club."),
                                    "no_match": _("No member of the club is called “%(name)s”.")})
                self.fields[f"seat-{seat}-dice"] = forms.CharField(
                    required=False, max_length=40, label=_("Player %(n)d's roll-off") % {"n": seat + 1},
                    help_text=_("one die, then each reroll after a tie (6 3)"))

    def dice_fields(self):
        return [] if self.seats_picked else [self[f"dice-{player_id}"] for player_id, _ in self.players]

    def seat_fields(self):
        """(picker, dice) of each seat, when the players are picked rather than listed."""
        if not self.seats_picked:
            return []
        return [(self[f"seat-{seat}"], self[f"seat-{seat}-dice"]) for seat in range(SEATS_PICKED)]

    def setting_fields(self):
        return [field for field in self if not field.name.startswith(("dice-", "seat-"))]

    def _dice(self, field: str, text: str) -> list[int] | None:
        if not DICE.fullmatch(text):
            self.add_error(field, _("dice from 1 to 6, separated by spaces (6 3)"))
            return None
        return [int(die) for die in re.split(r"[\s,]+", text)]

    def clean(self):
        data = super().clean()
        rolls: dict[int, list[int]] = {}
        for player_id, _name in self.players:
            text = (data.get(f"dice-{player_id}") or "").strip()
            dice = self._dice(f"dice-{player_id}", text) if text else None
            if dice:
                rolls[player_id] = dice
        for seat in range(SEATS_PICKED if "seat-0" in self.fields else 0):
            player, text = data.get(f"seat-{seat}"), (data.get(f"seat-{seat}-dice") or "").strip()
            if player is None:
                if text and f"seat-{seat}" not in self.errors:
                    self.add_error(f"seat-{seat}", _("Name the player who rolled these dice."))
                continue
            if not text:
                self.add_error(f"seat-{seat}-dice", _("Give %(name)s's roll-off die.") % {"name": player.display_name})
                continue
            if player.pk in rolls:
                self.add_error(f"seat-{seat}", _("%(name)s has a seat already.") % {"name": player.display_name})
                continue
            dice = self._dice(f"seat-{seat}-dice", text)
            if dice:
                rolls[player.pk] = dice
        if not self.errors and len(rolls) < 2:
            raise forms.ValidationError(_("a chouette needs at least two players: give each player's roll-off die"))
        data["rolls"] = rolls
        return data

    def rolloff(self) -> list[list[list[int]]]:
        """The roll-off's rounds as the engine takes them: round k holds the k-th die of each player
        who rolled that many times (the engine checks that exactly the tied players rerolled)."""
        rolls = self.cleaned_data["rolls"]
        rounds = max(len(dice) for dice in rolls.values())
        return [[[player, dice[k]] for player, dice in rolls.items() if len(dice) > k] for k in range(rounds)]

    def service_arguments(self) -> dict:
        """chouette_start's arguments but the settings, which :meth:`settings` gives."""
        data = self.cleaned_data
        return {"rolloff": self.rolloff(), "night_id": data["night"],
                **{name: data[name] for name in ("name", "stake", "currency")}}

    def settings(self) -> dict:
        """The table's settings as ticked (chouette_settings' options)."""
        names = ("single_cube", "jacoby", "beavers", "raccoons", "automatic_doubles", "box_partner_from",
                 "box_must_take_half", "lone_taker_must_beaver", "take_half_initial_only", "three_handed_both_cubes",
                 "box_must_take_captain", "captain_alone_must_beaver", "box_partner_next_in_line",
                 "jacoby_counts_automatic")
        return {name: self.cleaned_data[name] for name in names}


class ChouetteRulesForm(forms.Form):
    """The house rules of an open table, on its page: each rule as the start form words it, ticked as
    the table plays it now. ``version`` is the table's version the form was built from."""

    RULES = ("box_must_take_half", "take_half_initial_only", "lone_taker_must_beaver", "three_handed_both_cubes",
             "box_must_take_captain", "captain_alone_must_beaver", "box_partner_next_in_line",
             "jacoby_counts_automatic")
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        start = ChouetteStartForm.base_fields
        for name in self.RULES:
            self.fields[name] = forms.BooleanField(required=False, label=start[name].label,
                                                   help_text=start[name].help_text)

    @classmethod
    def for_session(cls, session) -> ChouetteRulesForm:
        return cls(initial={"version": session.version, **{name: getattr(session, name) for name in cls.RULES}},
                   prefix="rules")

    def rules(self) -> dict[str, bool]:
        return {name: self.cleaned_data[name] for name in self.RULES}


class QuickResultForm(forms.Form):
    """A quick result for the table's line-up: who won the board and how, each member's cube and how
    his game ended, the Box partner if the table allows one, the automatic doubles if it has them.
    ``version`` is the table's version the form was built from (a game entered from a table that has
    moved on is refused)."""

    winner = forms.ChoiceField(widget=forms.RadioSelect, label=gettext_lazy("Who won the board"), choices=[
        ("box", gettext_lazy("The Box")), ("team", gettext_lazy("The team")),
        ("none", gettext_lazy("Nobody: every member was out on the cube"))])
    level = forms.TypedChoiceField(widget=forms.RadioSelect, coerce=int, initial=1, label=gettext_lazy("How"),
                                   choices=[(1, pgettext_lazy("chouette result", "Single")), (2, gettext_lazy("Gammon")),
                                            (3, gettext_lazy("Backgammon"))])
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, seats: tuple[Seat, ...], automatic_limit: int, box_partner_allowed: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = seats
        team = seats[1:]
        if automatic_limit:
            self.fields["automatic"] = forms.IntegerField(min_value=0, max_value=automatic_limit, initial=0,
                                                          label=_("Automatic doubles on the opening roll"))
        if box_partner_allowed and len(team) > 1:
            self.fields["box_partner"] = forms.TypedChoiceField(
                coerce=int, empty_value=None, required=False, label=_("Box partner"),
                choices=[("", pgettext_lazy("no Box partner", "none")),
                         *((seat.player_id, seat.display_name) for seat in team[1:])])
        for seat in team:
            self.fields[f"cube-{seat.player_id}"] = forms.TypedChoiceField(
                coerce=int, empty_value=None, required=False, label=_("%(name)s's cube") % {"name": seat.display_name},
                choices=[("", _("not doubled")), *((face, str(face)) for face in CUBE_FACES)])
            self.fields[f"end-{seat.player_id}"] = forms.ChoiceField(
                choices=ENDS, initial="played", label=_("How %(name)s's game ended") % {"name": seat.display_name})

    @classmethod
    def for_state(cls, state: ChouetteState, *args, **kwargs) -> QuickResultForm:
        return cls(*args, seats=state.lineup, automatic_limit=state.session.automatic_doubles,
                   box_partner_allowed=state.box_partner_allowed, **kwargs)

    @staticmethod
    def initial_from(record: dict, version: int) -> dict:
        """The form's initial values for a quick record (to amend it)."""
        initial = {"winner": record.get("winner") or "none", "level": record.get("level", 1),
                   "automatic": record.get("automatic", 0), "box_partner": record.get("box_partner") or "",
                   "version": version}
        for cube in record.get("cubes", []):
            initial[f"cube-{cube['player']}"] = cube["value"]
            initial[f"end-{cube['player']}"] = cube.get("end", "played")
        return initial

    def member_rows(self):
        """(seat, its cube field, its end field) for every team member, Captain first."""
        return [(seat, self[f"cube-{seat.player_id}"], self[f"end-{seat.player_id}"]) for seat in self.seats[1:]]

    def clean(self):
        data = super().clean()
        partner = data.get("box_partner")
        for seat in self.seats[1:]:
            value, end = data.get(f"cube-{seat.player_id}"), data.get(f"end-{seat.player_id}")
            if seat.player_id != partner and end and end != "played" and value is None:
                # Translators: a drop: a double refused, so the game ends at the cube's value before it (KO 패스).
                self.add_error(f"cube-{seat.player_id}", _("give the cube's value when the game ended on a drop"))
        return data

    def record(self) -> dict:
        """The quick result in the engine's JSON form (a member whose cube was not doubled and who
        played to the end is left out: he played on the starting cube, 1 or what the automatic
        doubles turned it to)."""
        data = self.cleaned_data
        partner = data.get("box_partner")
        cubes = []
        for seat in self.seats[1:]:
            value, end = data.get(f"cube-{seat.player_id}"), data.get(f"end-{seat.player_id}")
            if seat.player_id == partner or value is None:
                continue
            cubes.append({"player": seat.player_id, "value": value, "end": end})
        return {"winner": None if data["winner"] == "none" else data["winner"], "level": data["level"],
                "automatic": data.get("automatic") or 0, "cubes": cubes, "box_partner": partner}

    def field_for(self, path: str | None) -> str | None:
        """The form field a refusal's path inside the record points at, if any."""
        if not path:
            return None
        head = path.split(".", 1)[0]
        if head in ("winner", "level", "automatic", "box_partner") and head in self.fields:
            return head
        match = re.fullmatch(r"cubes\[(\d+)\](?:\..*)?", path)
        if match:
            cubes = self.record()["cubes"]
            index = int(match.group(1))
            if index < len(cubes):
                return f"cube-{cubes[index]['player']}"
        return None


class PlayerChoiceForm(forms.Form):
    """One player of a list (joining: the members not at the table; leaving: those at it): a
    drop-down of the few at the table, or, for a whole ``club``'s members, the player picker
    (suggestions from the club's players; a name or an id outside ``players`` is refused). Cleaned
    to the player's id; ``chosen_name`` is his name."""

    player = forms.TypedChoiceField(coerce=int)
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, players: list[tuple[int, str]], label: str, club=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        if club is not None:
            self.fields["player"] = PlayerChoiceField(
                queryset=Player.objects.filter(pk__in=[player_id for player_id, _name in players]),
                params={"club": club.pk},
                error_messages={
                    "invalid_choice": _("That player is not one of the club's members away from the table."),
                    "no_match": _("No member of the club away from the table is called “%(name)s”."),
                    "several": _("%(count)d members of the club are called “%(name)s” (%(names)s): type more of "
                                 "the name, or choose one of the suggestions.")})
        else:
            self.fields["player"].choices = players
        self.fields["player"].label = label
        self.chosen_name = ""

    def clean_player(self):
        player = self.cleaned_data["player"]
        if isinstance(player, Player):
            self.chosen_name = player.display_name
            return player.pk
        self.chosen_name = dict(self.players).get(player, "")
        return player


class FullRecordForm(forms.Form):
    """A full game as the engine's JSON: the Box v Captain board's log (``board_log``), the crew's
    cube moments (``crew_moments``) and the Box partner (see engine/chouette/full_game.py). For scorers
    who keep the board's log; the quick result is the usual way at the table."""

    record = forms.CharField(widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}), max_length=200_000,
                             label=gettext_lazy("Full record (JSON)"),
                             help_text='{"board_log": [...engine actions...], "crew_moments": [{"before": 4, '
                                       '"moment": {...}}], "box_partner": null}')
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def clean_record(self):
        try:
            data = json_loads(self.cleaned_data["record"])
        except json.JSONDecodeError as error:
            raise forms.ValidationError(_("not JSON: %(error)s at line %(line)d, column %(column)d") % {
                "error": error.msg, "line": error.lineno, "column": error.colno}) from None
        except ValueError as error:  # nested too deep for any record, NaN
            raise forms.ValidationError(_("not JSON: %(error)s") % {"error": error}) from None
        if not isinstance(data, dict):
            raise forms.ValidationError(_("a full record is a JSON object with board_log and crew_moments"))
        return data
