"""A chouette table's life: started from its settings and roll-off, its house rules changed, players
joining at the bottom and leaving, the session ended with its settlement, or reopened by its
director."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, replace
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from clubs import errors as club_errors
from clubs.models import Club, ClubNight
from clubs.permissions import require_club_manager
from core.bounds import SMALLINT_MAX
from core.errors import DomainError
from core.text import name_clean
from engine.chouette import (
    ChouetteSettings,
    JoinStep,
    LeaveStep,
    SessionState,
    lineup_to_json,
    session_advance,
    settle_up,
    step_from_json,
    step_to_json,
)
from engine.errors import ChouetteError

from .. import errors
from ..models import ChouetteSession, ChouetteStep
from ..selectors import HOUSE_RULES, engine_steps, session_settings
from .state import (
    audit_change,
    check_open,
    club_player,
    engine_message,
    engine_refusal,
    fold_one,
    game_rows,
    keep_state,
    moved_on,
    player_named,
    session_locked,
    session_standing,
    settings_summary,
    step_create,
    step_rows,
)

CURRENCY = re.compile(r"[A-Z]{3}")
MAX_STAKE = Decimal("9999999.99")
MAX_AUTOMATIC = 30  # the engine counts automatic doubles up to 30 (a cube of 2**30)
MAX_BOX_PARTNER_FROM = SMALLINT_MAX  # no table seats that many: the column's bound


# --- the session -----------------------------------------------------------------------------------------


def _stake(stake) -> Decimal:
    try:
        value = Decimal(str(stake))
    except (InvalidOperation, ValueError):
        raise errors.bad_chouette("stake", gettext("%(stake)r is not an amount") % {"stake": stake}) from None
    if not value.is_finite() or value < 0 or value > MAX_STAKE or value != value.quantize(Decimal("0.01")):
        raise errors.bad_chouette("stake", gettext("an amount from 0 to 9999999.99, at most two decimals"))
    return value.quantize(Decimal("0.01"))


#: A new table's settings unless its director chooses others: a cube per member, Jacoby (an
#: automatic double not turning the cube for it), no beavers, no automatic doubles, no Box partner and
#: every house rule off.
NEW_TABLE = ChouetteSettings(beavers=False, box_partner_from=None, jacoby_counts_automatic=False)
#: The names of a table's settings (``ChouetteSettings``' fields).
SETTING_NAMES = tuple(ChouetteSettings.__dataclass_fields__)


def chouette_settings(options: Mapping[str, object]) -> ChouetteSettings:
    """A new table's settings: :data:`NEW_TABLE` with ``options`` (a setting's name -> its value; the
    settings left out keep :data:`NEW_TABLE`'s), as the start form and the API send them.

    Raises DomainError: the engine's ``bad_settings`` / ``raccoons_without_beavers`` (``field`` the
    option: a value of the wrong type, a negative limit, a Box partner from fewer than 3 players, a
    house rule without the setting it needs). A name that is not a setting's is a TypeError.
    """
    try:
        return replace(NEW_TABLE, **options)
    except ChouetteError as error:
        raise engine_refusal(error, field=error.details.get("field")) from None


@transaction.atomic
def chouette_start(*, club_id: int, user, rolloff, settings: ChouetteSettings = NEW_TABLE, name: str = "",
                   night_id: int | None = None, stake=Decimal("1.00"), currency: str = "EUR") -> ChouetteSession:
    """An owner or organiser starts a chouette table: its settings (RULES.md §7: one cube per member
    or a single cube, Jacoby, beavers and raccoons, the limit on automatic doubles, a Box partner from
    a given number of players, the house rules; :func:`chouette_settings` makes them from a form's or
    a request's options, :data:`NEW_TABLE` unless given), the stake per point and the opening roll-off
    (``rolloff``: rounds of ``[player_id, die]``, the first with every player, each later one the
    rerolls of the players still tied; see ``engine.chouette.lineup_from_rolloff``), which gives the
    first line-up. Creates the session and its step 1 (the start); audited as ``chouette.started``.

    The house rules (engine.chouette.settings): ``three_handed_both_cubes``,
    ``box_must_take_captain``, ``take_half_initial_only`` (narrows ``box_must_take_half``),
    ``captain_alone_must_beaver`` (needs beavers), ``box_partner_next_in_line`` (the partner
    convention: the partner is the next in line and captains when the Box loses) and
    ``jacoby_counts_automatic``: off by default, so at a new table an automatic double does not turn
    the cube for Jacoby (gnubg's and most clubs' convention); tables started before keep counting it.

    Raises Club.DoesNotExist; NotAllowed ``not_club_manager``; DomainError ``bad_chouette`` (name,
    stake, currency, automatic_doubles and box_partner_from above what a table stores),
    ``bad_json`` / ``bad_die`` / ``rolloff_tie`` / ``rolloff_not_tied`` /
    ``too_few_players`` / ``duplicate_player`` (``field`` in ``rolloff``), ``unknown_player`` (a player
    who is not an active member's), ``unknown_night``; Conflict ``night_closed``.
    """
    club = Club.objects.get(pk=club_id)
    require_club_manager(club, user)
    name = name_clean(name, field="name", refuse=errors.bad_chouette) if isinstance(name, str) else ""
    if len(name) > 80:
        raise errors.bad_chouette("name", gettext("at most 80 characters"))
    stake = _stake(stake)
    if not isinstance(currency, str) or not CURRENCY.fullmatch(currency.strip().upper()):
        raise errors.bad_chouette("currency", gettext("three letters, such as EUR"))
    currency = currency.strip().upper()
    if settings.automatic_doubles > MAX_AUTOMATIC:
        raise errors.bad_chouette("automatic_doubles", gettext("at most %(limit)s") % {"limit": MAX_AUTOMATIC})
    if settings.box_partner_from is not None and settings.box_partner_from > MAX_BOX_PARTNER_FROM:
        raise errors.bad_chouette("box_partner_from", gettext("at most %(limit)s") % {"limit": MAX_BOX_PARTNER_FROM})
    night = None
    if night_id is not None:
        night = ClubNight.objects.filter(pk=night_id, club=club).first()
        if night is None:
            raise DomainError(gettext("night %(night)s is not one of this club's nights") % {"night": night_id},
                              code="unknown_night", field="night")
        if night.status != ClubNight.Status.OPEN:
            raise club_errors.night_closed()
    try:
        start = step_from_json({"type": "start", "rolloff": rolloff})
    except ChouetteError as error:
        raise engine_refusal(error, field=error.details.get("path") or "rolloff") from None
    for index, (player_id, _die) in enumerate(start.rolloff[0] if start.rolloff else ()):
        club_player(club, player_id, f"rolloff[0][{index}][0]")
    try:
        state, _ = session_advance(SessionState(), [start], settings)
    except ChouetteError as error:
        where = error.details.get("round")
        raise engine_refusal(error, field="rolloff" if where is None else f"rolloff[{where}]") from None
    lineup = state.lineup

    session = ChouetteSession.objects.create(
        club=club, night=night, name=name, created_by=user, single_cube=settings.single_cube, jacoby=settings.jacoby,
        beavers=settings.beavers, raccoons=settings.raccoons, automatic_doubles=settings.automatic_doubles,
        box_partner_from=settings.box_partner_from, box_must_take_half=settings.box_must_take_half,
        lone_taker_must_beaver=settings.lone_taker_must_beaver, stake=stake, currency=currency, version=1,
        **{name: getattr(settings, name) for name in HOUSE_RULES},
    )
    step = step_create(session, user, ChouetteStep.Kind.START, step_to_json(start), 1)
    keep_state(session, state, last=step.number, games=0)
    session.save(update_fields=["kept"])
    audit_change("chouette.started", actor=user, club=club, obj=session, after={
        "name": session.name, "night": night_id, "settings": settings_summary(session),
        "rolloff": step.record["rolloff"], "lineup": lineup_to_json(lineup)})
    return session


#: The house rules a table may change while it is open: every recorded game must still stand under
#: them, and the session is settled again by them.
CHANGEABLE_RULES = ("box_must_take_half", "lone_taker_must_beaver", *HOUSE_RULES)


@transaction.atomic
def chouette_rules_change(*, club_id: int, chouette_id: int, user, rules: Mapping[str, bool],
                          expected_version: int | None = None) -> ChouetteSession:
    """Change the house rules of an open table (``rules``: a rule's name -> on or off; the rules left
    out keep their value). The rules apply to the whole session: every game recorded so far is
    replayed under them and must still stand, and the line-up and the ledger follow them (e.g.
    Jacoby with automatic doubles not counting settles an earlier gammon single). Changing nothing
    changes nothing. Audited as ``chouette.rules_changed`` with the rules before and after.

    Raises Club.DoesNotExist, ChouetteSession.DoesNotExist; NotAllowed ``not_club_manager``;
    DomainError ``bad_chouette`` (a name that is not a house rule, a value that is not true or
    false; ``field`` the name), the engine's ``bad_settings`` (``field`` the rule: "initial cubes
    only" without the take-half rule, a Captain made to beaver without beavers); Conflict
    ``chouette_ended``, ``stale_table``, ``house_rules_break_game`` (a recorded game breaks the new
    rules: ``details`` ``game``, ``step`` and ``reason``, the rule's code).
    """
    club, session = session_locked(club_id, chouette_id, user)
    check_open(session, expected_version)
    for name, value in rules.items():
        if name not in CHANGEABLE_RULES:
            raise errors.bad_chouette(str(name), gettext("not a house rule of the table"))
        if not isinstance(value, bool):
            raise errors.bad_chouette(name, gettext("true or false"))
    before = {name: getattr(session, name) for name in CHANGEABLE_RULES}
    after = {**before, **rules}
    if after == before:
        return session
    try:
        settings = ChouetteSettings(**{**asdict(session_settings(session)), **after})
    except ChouetteError as error:
        raise engine_refusal(error, field=error.details.get("field")) from None
    rows = step_rows(session)
    try:
        state, _ = session_advance(SessionState(), engine_steps(rows), settings)
    except ChouetteError as error:
        index = error.details.get("step")
        games = [number for number, (at, _row) in enumerate(game_rows(rows), start=1) if at == index]
        raise errors.house_rules_break_game(
            games[0] if games else None, rows[index].number if index is not None else None, error.code,
            player_named(engine_message(error), error.details.get("player"))) from None
    for name, value in after.items():
        setattr(session, name, value)
    moved_on(session, state, last=rows[-1].number, games=len(game_rows(rows)), fields=CHANGEABLE_RULES)
    changed = sorted(name for name in CHANGEABLE_RULES if before[name] != after[name])
    audit_change("chouette.rules_changed", actor=user, club=club, obj=session,
                 before={name: before[name] for name in changed}, after={name: after[name] for name in changed})
    return session


@transaction.atomic
def chouette_join(*, club_id: int, chouette_id: int, user, player_id: int,
                  expected_version: int | None = None) -> ChouetteStep:
    """A newcomer (an active member's player) joins the table at the bottom of the line, between
    games; a player who left may come back. Writes a join step; audited as ``chouette.joined``.

    Raises Club.DoesNotExist, ChouetteSession.DoesNotExist; NotAllowed ``not_club_manager``;
    DomainError ``unknown_player`` (field ``player``); Conflict ``duplicate_player`` (already at the
    table), ``chouette_ended``, ``stale_table``.
    """
    club, session = session_locked(club_id, chouette_id, user)
    check_open(session, expected_version)
    player = club_player(club, player_id, "player")
    standing = session_standing(session)
    step = JoinStep(player.pk)
    state, _ = fold_one(session, standing, step, field="player")
    row = step_create(session, user, ChouetteStep.Kind.JOIN, step_to_json(step), standing.last + 1, player.pk)
    moved_on(session, state, last=row.number, games=standing.games)
    audit_change("chouette.joined", actor=user, club=club, obj=row, after={
        "session": session.pk, "player": player.pk, "name": player.display_name,
        "lineup": lineup_to_json(state.lineup)})
    return row


@transaction.atomic
def chouette_leave(*, club_id: int, chouette_id: int, user, player_id: int,
                   expected_version: int | None = None) -> ChouetteStep:
    """A player leaves the table between games (the others move up, engine.chouette.lineup_leave);
    his ledger stays. Writes a leave step; audited as ``chouette.left``.

    Raises Club.DoesNotExist, ChouetteSession.DoesNotExist; NotAllowed ``not_club_manager``;
    DomainError ``unknown_player`` (not at the table; field ``player``); Conflict ``too_few_players``
    (the last two stay: end the session instead), ``chouette_ended``, ``stale_table``.
    """
    club, session = session_locked(club_id, chouette_id, user)
    check_open(session, expected_version)
    if not isinstance(player_id, int) or isinstance(player_id, bool):
        raise DomainError(gettext("player %(player)r is not at the table") % {"player": player_id}, code="unknown_player",
                          field="player")
    standing = session_standing(session)
    step = LeaveStep(player_id)
    state, _ = fold_one(session, standing, step, field="player")
    row = step_create(session, user, ChouetteStep.Kind.LEAVE, step_to_json(step), standing.last + 1, player_id)
    moved_on(session, state, last=row.number, games=standing.games)
    audit_change("chouette.left", actor=user, club=club, obj=row, after={
        "session": session.pk, "player": player_id, "lineup": lineup_to_json(state.lineup)})
    return row



def _transfers(session: ChouetteSession, state: SessionState) -> list[dict]:
    """Who pays whom to settle ``state``'s ledger (engine.chouette.settle_up), in points and money."""
    return [{"payer": payer, "payee": payee, "points": points, "money": str(Decimal(points) * session.stake)}
            for payer, payee, points in settle_up(state.ledger)]


@transaction.atomic
def chouette_end(*, club_id: int, chouette_id: int, user) -> ChouetteSession:
    """End the session: its settlement is final. Nothing changes any more (no game recorded,
    amended or voided, no join or leave, no change of the house rules: Conflict ``chouette_ended``)
    until one of the club's owners or organisers reopens it (:func:`chouette_reopen`). The
    settlement is the engine's ``settle_up`` of the ledger: who pays whom, with the fewest
    transfers, in points and in money (points x stake); the selector recomputes it. Ending again
    changes nothing. Audited as ``chouette.ended`` with the ledger and the transfers.

    Written under the session's row lock, as every change of the table: a game recorded at the same
    moment is either in before the end (and in its settlement) or refused after it.

    Raises Club.DoesNotExist, ChouetteSession.DoesNotExist; NotAllowed ``not_club_manager``.
    """
    club, session = session_locked(club_id, chouette_id, user)
    if session.status == ChouetteSession.Status.ENDED:
        return session
    standing = session_standing(session)
    replayed = standing.state
    session.status = ChouetteSession.Status.ENDED
    session.ended_at = timezone.now()
    moved_on(session, standing.state, last=standing.last, games=standing.games, fields=("status", "ended_at"))
    audit_change("chouette.ended", actor=user, club=club, obj=session, before={"status": "open"}, after={
        "status": "ended", "ledger": {str(player): points for player, points in replayed.ledger.items()},
        "stake": session.stake, "currency": session.currency, "transfers": _transfers(session, replayed)})
    return session


@transaction.atomic
def chouette_reopen(*, club_id: int, chouette_id: int, user) -> ChouetteSession:
    """Reopen an ended session, for the table's director (one of the club's owners or organisers):
    games can be recorded, amended and voided again, players join and leave, the house rules
    change; the settlement is no longer final until the session is ended again
    (:func:`chouette_end`). Reopening an open session changes nothing. Audited as
    ``chouette.reopened`` with the settlement that was final (its transfers) and when it ended.

    Raises Club.DoesNotExist, ChouetteSession.DoesNotExist; NotAllowed ``not_club_manager`` (a
    player at the table who does not manage the club included).
    """
    club, session = session_locked(club_id, chouette_id, user)
    if session.status == ChouetteSession.Status.OPEN:
        return session
    standing = session_standing(session)
    ended_at = session.ended_at
    session.status = ChouetteSession.Status.OPEN
    session.ended_at = None
    moved_on(session, standing.state, last=standing.last, games=standing.games, fields=("status", "ended_at"))
    audit_change("chouette.reopened", actor=user, club=club, obj=session,
                 before={"status": "ended", "ended_at": ended_at, "transfers": _transfers(session, standing.state)},
                 after={"status": "open"})
    return session
