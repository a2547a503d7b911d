"""The tournaments app's error catalogue: every message its services raise, in one place.

Each function returns a :class:`core.errors.DomainError` (400: the input is wrong),
:class:`~core.errors.Conflict` (409: the event's state forbids it now) or
:class:`~core.errors.NotAllowed` (403) with a stable ``code``. Errors of the pure draw
(:class:`tournaments.draw.DrawError`) are translated by :func:`from_draw`, keeping their code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.engine_messages import DRAW_MESSAGES
from core.errors import Conflict, DomainError, NotAllowed
from core.labels import field_label, field_refusal
from core.text import isolate
from tournaments.draw import DrawError
from tournaments.labels import TEAM_LABELS, rule_label, rule_parts

if TYPE_CHECKING:
    from matches.models import Player
    from tournaments.models import Team

# --- who may act -------------------------------------------------------------------------------


def not_an_organiser() -> NotAllowed:
    return NotAllowed(_("only organisers (and staff) may create a tournament, and a club's owner one on his club's "
                        "calendar"), code="not_an_organiser")


def club_events_only() -> NotAllowed:
    return NotAllowed(_("without the organiser role you may create only an event on the calendar of a club you own: "
                        "choose that club"), code="club_events_only", field="club")


def not_organiser() -> NotAllowed:
    return NotAllowed(_("only the tournament's organiser (or staff) may do this"), code="not_organiser")


def not_your_entry() -> NotAllowed:
    return NotAllowed(_("only the entrant's own players and the organiser may do this"), code="not_your_entry")


def no_player() -> NotAllowed:
    return NotAllowed(_("you need a player profile to enter a tournament"), code="no_player")


# --- bad input ---------------------------------------------------------------------------------


def bad_rules(field: str, message: str) -> DomainError:
    """A setting refused: ``field`` its name (the API's), the message led by its label (and the
    part of it concerned: the flight, the place), the sentence beside its field by that part only."""
    return DomainError(field_refusal(rule_label(field), message), code="bad_rules", field=field,
                       sentence=_beside(rule_parts(field)[1], message))


def _beside(part: str, message: str) -> str:
    return field_refusal(part, message) if part else message


def unknown_player(player_id) -> DomainError:
    return DomainError(_("there is no player %(player)s") % {"player": player_id}, code="unknown_player", player=player_id)


def unknown_entry(entry_id) -> DomainError:
    return DomainError(_("entry %(entry)s is not an entrant of this tournament") % {"entry": entry_id},
            code="unknown_entry", entry=entry_id)


def unknown_club(club_id) -> DomainError:
    return DomainError(_("there is no club %(club)s") % {"club": club_id}, code="unknown_club", field="club", club=club_id)


def bad_entrant(message: str) -> DomainError:
    return DomainError(message, code="bad_entrant")


def partner_required() -> DomainError:
    return DomainError(_("a consultation-pairs event needs your partner: name him"), code="partner_required")


def partner_not_allowed() -> DomainError:
    return DomainError(_("this event is for single players: enter without a partner"), code="partner_not_allowed")


def bad_roller(message: str) -> DomainError:
    return DomainError(message, code="bad_roller")


def bad_seed(message: str) -> DomainError:
    return DomainError(message, code="bad_seed")


def seed_unused(seeding: str) -> DomainError:
    return DomainError(
        # Translators: %(seeding)s is how this event seeds its draw (by rating, by the organiser's list ...);
        # a random seed is the number a random draw is made from, a seed an entrant's place in the draw.
        _("a random seed is used only by a random draw; this event seeds %(seeding)s") % {"seeding": seeding}, code="seed_unused"
    )


def team_event() -> DomainError:
    return DomainError(_("team events are entered and drawn by the team services"), code="team_event")


# --- the event's state -------------------------------------------------------------------------


def already_entered(name: str) -> Conflict:
    return Conflict(_("%(name)s is already entered in this tournament") % {"name": isolate(name)}, code="already_entered")


def entries_closed() -> Conflict:
    return Conflict(_("entries are not open for this tournament"), code="entries_closed")


def entries_open() -> Conflict:
    return Conflict(_("close the entries (and check the players in) before the draw"), code="entries_open")


def check_in_not_open() -> Conflict:
    return Conflict(_("check-in opens when the entries close"), code="check_in_not_open")


def already_drawn() -> Conflict:
    return Conflict(_("the draw has already been made"), code="already_drawn")


def already_drawn_use_late_entry() -> Conflict:
    return Conflict(_("the draw has already been made: add a late entry instead"), code="already_drawn")


def not_drawn() -> Conflict:
    return Conflict(_("the draw has not been made yet"), code="not_drawn")


def finished() -> Conflict:
    return Conflict(_("the tournament is finished"), code="tournament_finished")


def cancelled() -> Conflict:
    return Conflict(_("the tournament is cancelled"), code="tournament_cancelled")


def too_few_entries(count: int, minimum: int) -> Conflict:
    return Conflict(
        ngettext("%(count)d checked-in entry: this format needs at least %(minimum)d",
                 "%(count)d checked-in entries: this format needs at least %(minimum)d",
                 count) % {"count": count, "minimum": minimum},
        code="too_few_entries",
    )


def already_withdrawn(name: str) -> Conflict:
    return Conflict(_("%(name)s has already withdrawn") % {"name": isolate(name)}, code="already_withdrawn")


def not_a_bracket() -> Conflict:
    return Conflict(_("a Swiss or round robin has no bracket: see its rounds"), code="not_a_bracket")


def not_swiss() -> Conflict:
    return Conflict(_("only a Swiss event is paired round by round"), code="not_swiss")


def round_incomplete(number: int, missing: int) -> Conflict:
    return Conflict(
        ngettext("round %(number)d is not complete: %(missing)d match without a confirmed result",
                 "round %(number)d is not complete: %(missing)d matches without a confirmed result",
                 missing) % {"number": number, "missing": missing},
        code="round_incomplete", round=number,
    )


def round_paired(number: int) -> Conflict:
    return Conflict(_("round %(number)d is already paired") % {"number": number}, code="round_paired", round=number)


def swiss_complete(message: str) -> Conflict:
    return Conflict(message, code="swiss_complete")


# --- the modified Swiss's playoffs -------------------------------------------------------------


def abt_off() -> Conflict:
    return Conflict(_("this Swiss is not a modified Swiss with playoffs: it is played to its last round"),
                    code="abt_off")


def playoffs_started() -> Conflict:
    return Conflict(_("the Swiss has stopped: its playoffs are drawn"), code="playoffs_started")


def playoffs_due(contenders: int, paid: int) -> Conflict:
    return Conflict(ngettext("%(count)d player can still cash for %(paid)d paid places: the Swiss stops, start the "
                             "playoffs", "%(count)d players can still cash for %(paid)d paid places: the Swiss stops, "
                             "start the playoffs", contenders) % {"count": contenders, "paid": paid},
                    code="playoffs_due")


def playoffs_changed(changed: str, *, key: str) -> Conflict:
    return Conflict(_("the result of %(changed)s cannot change: the playoffs were drawn from the Swiss table it "
                      "gives, and it would change who plays them") % {"changed": changed},
                    code="result_built_on", pairing=key)


def _no_pairing_reason(reason: str, message: str) -> str:
    """The draw's reason (``tournaments.draw.swiss.NO_PAIRING``) in the reader's language; the
    draw's own English sentence for a reason not known here."""
    return {
        "too_few_players": _("fewer than two players left to pair"),
        "finished": _("elimination Swiss: one player left, the winner"),
        "no_bye": _("every player who may have the bye (the fewest byes so far) would leave the others "
                    "unpairable"),
        "forbidden": _("the forbidden pairings (same club, or pairs the organiser declared) leave no valid "
                       "pairing"),
        "rematches": _("every possible pairing would repeat a game already played"),
    }.get(reason, message)


def no_pairing(number: int, reason: str, message: str) -> Conflict:
    message = _no_pairing_reason(reason, message)
    return Conflict(_("round %(number)d cannot be paired: %(message)s") % {"number": number, "message": message},
            code="no_pairing", reason=reason)


def event_unfinished(message: str) -> Conflict:
    return Conflict(message, code="event_unfinished")


def result_built_on(changed: str, dependent: str, why: str, *, key: str | None = None) -> Conflict:
    """``changed`` and ``dependent``: the matches as people know them (services.naming); ``key``:
    the dependent match's key in the draw, kept in the details."""
    return Conflict(
        _("the result of %(changed)s cannot change now: %(dependent)s depends on it and %(why)s; the event's "
          "director corrects it from the match page's correction, which shows and resets what depends on it")
        % {"changed": changed, "dependent": dependent, "why": why},
        code="result_built_on", match=key or dependent,
    )


def finished_built_on(changed: str, event: str, *, key: str) -> Conflict:
    return Conflict(
        _("the result of %(match)s cannot change the bracket of %(event)s: the event is finished; its director "
          "reopens it first") % {"match": changed, "event": isolate(event)},
        code="tournament_finished", match=key,
    )


def not_finished(event: str) -> Conflict:
    return Conflict(_("%(event)s is not finished: only a finished event is reopened") % {"event": isolate(event)},
                    code="not_finished")


def late_entry_closed(reason: str) -> Conflict:
    return Conflict(_("a late entry is not possible: %(reason)s") % {"reason": reason}, code="late_entry_closed")


# --- re-entry (buy-back) -----------------------------------------------------------------------


def reentry_off() -> Conflict:
    return Conflict(_("this event allows no re-entry: its director may allow one in the event's settings"),
                    code="reentry_off")


def reentry_refused(reason: str, name: str, **details) -> Conflict:
    """The pure rule's refusal (``tournaments.draw.flights.reentry``) in a sentence, by its
    ``reason`` (kept in the error's details)."""
    sentences = {
        "not_a_first_round_loser": _("%(name)s did not lose a match of the main's first round: only a first-round "
                                     "loser may re-enter"),
        "already_reentered": _("%(name)s has already re-entered: a player re-enters once"),
        "first_round_closed": _("the main's first round is over (every match of it has a result): re-entry is closed"),
        "bracket_full": _("the bracket is full: a re-entry takes a bye and none is left"),
        "slot_played_on": _("the player who had the bye %(name)s would take has already played on"),
        "withdrawn": _("%(name)s has withdrawn from the event"),
    }
    message = sentences.get(reason, _("the bracket does not take this re-entry now")) % {"name": name}
    return Conflict(_("%(name)s cannot re-enter: %(reason)s") % {"name": isolate(name), "reason": message},
                    code="reentry_refused", reason=reason, **details)


def reentry_bye_taken(name: str, match: str, why: str, *, key: str) -> Conflict:
    # Translators: %(name)s is the player, %(match)s a match ("Round 2, A v B"), %(why)s says why it cannot
    # change now ("has started"); a bye is a place won without playing.
    return Conflict(_("%(name)s cannot re-enter: the bye a re-entry takes feeds %(match)s, which %(why)s")
                    % {"name": isolate(name), "match": match, "why": why}, code="reentry_refused", reason="slot_played_on",
                    match=key)


def reentered_loser(name: str) -> Conflict:
    return Conflict(_("%(name)s re-entered the main after losing this match: withdraw the re-entry first, then "
                      "correct the result") % {"name": isolate(name)}, code="reentered_loser")


def forfeit_refused(match: str, *, key: str) -> Conflict:
    return Conflict(
        _("%(match)s cannot be forfeited by the organiser, who plays in it: staff must record it") % {"match": match},
        code="forfeit_refused", match=key,
    )


# --- team events ------------------------------------------------------------------------------


def not_team_event() -> DomainError:
    return DomainError(_("this tournament is not a team event"), code="not_team_event")


def not_captain() -> NotAllowed:
    return NotAllowed(_("only the team's captain (or the tournament's organiser) may do this"), code="not_captain")


def not_entrant_captain() -> NotAllowed:
    return NotAllowed(
        _("a team is entered by the organiser, or by its captain himself while entries are open"), code="not_captain"
    )


def unknown_team(team_id) -> DomainError:
    return DomainError(_("team %(team)s is not a team of this tournament") % {"team": team_id},
            code="unknown_team", team=str(team_id))


def bad_team(field: str, message: str) -> DomainError:
    return DomainError(field_refusal(field_label(TEAM_LABELS, field), message), code="bad_team", field=field,
                       sentence=message)


def team_too_small(count: int, needed: int) -> DomainError:
    return DomainError(
        ngettext("a team needs at least %(needed)d player (members and reserves) for its %(needed)d board, "
                 "not %(count)d",
                 "a team needs at least %(needed)d players (members and reserves) for its %(needed)d boards, "
                 "not %(count)d", needed) % {"needed": needed, "count": count},
        code="team_too_small",
    )


def team_name_taken(name: str) -> Conflict:
    return Conflict(_("there is already a team called “%(name)s” in this tournament") % {"name": name}, code="team_name_taken")


def already_in_team(player: Player, team: str) -> Conflict:
    return Conflict(_("%(player)s is already in team %(team)s") % {"player": isolate(player.display_name), "team": isolate(team)},
            code="already_in_team", player=player.pk)


def not_a_member(player_id, team: Team, name: str | None = None) -> DomainError:
    """``name``: the player's display name when he exists (else his id, as it was sent, is said)."""
    message = (_("%(name)s is not a member of team %(team)s") % {"name": isolate(name), "team": isolate(team.name)} if name else
               _("player %(player)s is not a member of team %(team)s") % {"player": player_id, "team": isolate(team.name)})
    return DomainError(message, code="not_a_member", player=player_id if isinstance(player_id, int) else str(player_id))


def captain_required(team: Team) -> DomainError:
    return DomainError(_("the captain cannot leave team %(team)s") % {"team": isolate(team.name)}, code="captain_required")


def bad_board_order(message: str, **details) -> DomainError:
    """A board order refused (the API's ``player_ids``): named "Board order" for people."""
    return DomainError(field_refusal(_("Board order"), message), sentence=message, code="bad_board_order", **details)


def bad_round(number) -> DomainError:
    return DomainError(field_refusal(_("Round"), _("%(number)s is not a round number (1 or more)") % {
        "number": repr(number)}), code="bad_round", field="round_number")


def board_order_locked(team: Team, number: int) -> Conflict:
    return Conflict(_("round %(number)d has started: the board order of %(team)s is locked")
                    % {"number": number, "team": isolate(team.name)}, code="board_order_locked", round=number)


def members_fixed() -> Conflict:
    return Conflict(_("the draw has been made: the team list is fixed (a reserve substitutes through the board order)"),
                    code="already_drawn")


# --- the pure draw -----------------------------------------------------------------------------


def from_draw(error: DrawError) -> DomainError:
    """The draw's error as a domain error with the same code, message and status class."""
    kind = Conflict if error.status == 409 else DomainError
    details = {key: value for key, value in error.details.items() if isinstance(value, str | int | float)}
    return kind(_draw_message(error), code=error.code, **details)


def _draw_message(error: DrawError) -> str:
    """The draw's refusal in the reader's language, by its code where a person can meet it (the
    pure draw speaks English only); its own sentence otherwise."""
    details = error.details
    if error.code == "too_few_entrants" and isinstance(details.get("count"), int):
        return ngettext("%(count)d entrant is too few for this format", "%(count)d entrants are too few for this format",
                        details["count"]) % {"count": details["count"]}
    if error.code == "bad_length" and "schedule" in details:
        return _("%(schedule)s is not a match length schedule") % {"schedule": details["schedule"]}
    if error.code == "bad_seed" and "seed" in details:
        # Translators: %(seed)s is what was typed as the draw's random seed (a number).
        return _("%(seed)s is not a usable random seed") % {"seed": details["seed"]}
    if "match" in details:
        # The draw names a match by its key (main-2-1), which no one reads: its code's sentence.
        sentences = DRAW_MESSAGES.get(error.code) or DRAW_MESSAGES["draw_error"]
        return _(sentences[-1])
    return error.message


def walk_in_singles_only() -> DomainError:
    return DomainError(_("a walk-in is entered alone: in a pairs or team event, enter him first as a player, then "
                         "add him with his partner or to his team"), code="walk_in_singles_only")


def walk_in_late_seed() -> DomainError:
    # Translators: "seed:" names the field, as the form's "Seed"; a seed is an entrant's place in the draw (AR ترتيب القرعة,
    # never تصنيف, which is the rating).
    return DomainError(_("seed: a late entrant is the last seed; leave the seed empty"), code="bad_seed", field="seed")


def not_entered() -> DomainError:
    return DomainError(_("you are not entered in this event"), code="not_entered")
