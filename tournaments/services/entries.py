"""Entries: the organiser adds, a player signs up, check-in, withdrawal, late entry.

An entrant is an ``Entry``: a side (one player, or a consultation pair) now, a team later; the
draw knows it only by its id. Every service here locks the tournament row first, so entries
never change under a draw being made.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext

from core.errors import NotAllowed
from core.locking import locked
from matches.models import Match, Player, Report, Side
from matches.services.matches import match_create, match_rules, player_for_user, side_for
from matches.services.reporting import Claim, match_override
from tournaments import errors
from tournaments.models import Acceptance, BoardMatch, Entry, Pairing, Team, Tournament, event_id_of

from . import state
from .acceptance import acceptances_by
from .advance import bracket_sync
from .audit import entry_summary, event_audit_record
from .clocks import event_match_clock
from .common import before_draw, entry_of, plays_for, require_organiser, runs, tournament_lock
from .divisions import division_at_entry
from .naming import match_namer
from .teams import captains, order_for, team_check, team_players, team_summary, team_write


def _players(tournament: Tournament, player_ids: Sequence[int]) -> list[Player]:
    """The players named by id, as many as the event's kind seats on one side."""
    if tournament.kind == Tournament.Kind.TEAMS:
        raise errors.team_event()
    wanted = 2 if tournament.kind == Tournament.Kind.PAIRS else 1
    ids = list(player_ids or [])
    if len(ids) != wanted:
        if wanted == 2:
            raise errors.bad_entrant(gettext("an entrant of this event is a pair of two players, not %(count)d")
                                     % {"count": len(ids)})
        raise errors.bad_entrant(gettext("an entrant of this event is one player, not %(count)d") % {"count": len(ids)})
    if len(set(ids)) != len(ids):
        raise errors.bad_entrant(gettext("a pair is two different players"))
    for player_id in ids:
        if not isinstance(player_id, int) or isinstance(player_id, bool):
            raise errors.unknown_player(player_id)
    found = {p.pk: p for p in Player.objects.filter(pk__in=ids)}
    for player_id in ids:
        if player_id not in found:
            raise errors.unknown_player(player_id)
    return [found[i] for i in ids]


def _side(players: list[Player], rolls: int | None) -> Side:
    """The side of one player or a pair. A pair names who rolls: ``rolls`` is the id of the
    member who always rolls, or None to alternate by game (the pair's choice is stored on its
    side, so it holds for its later events until it says otherwise)."""
    if len(players) == 1:
        if rolls is not None:
            raise errors.bad_roller(gettext("only a consultation pair chooses who rolls"))
        return side_for(players)
    side = side_for(players)
    if rolls is None:
        roller = Side.Roller.ALTERNATE
    elif rolls == side.player_a_id:
        roller = Side.Roller.A
    elif rolls == side.player_b_id:
        roller = Side.Roller.B
    else:
        raise errors.bad_roller(gettext("player %(player)s is not one of the pair: the roller is one of them, or alternate")
                                % {"player": rolls})
    if side.roller != roller:
        side.roller = roller
        side.save(update_fields=["roller"])
    return side


def _entered(tournament: Tournament, players: list[Player]) -> Entry | None:
    """An entry of this event that already holds one of ``players``."""
    ids = [p.pk for p in players]
    return (
        Entry.objects.filter(tournament=tournament)
        .filter(Q(side__player_a_id__in=ids) | Q(side__player_b_id__in=ids))
        .select_related("side__player_a", "side__player_b")
        .first()
    )


def _create(tournament: Tournament, side: Side, **fields) -> Entry:
    try:
        with transaction.atomic():
            return Entry.objects.create(tournament=tournament, side=side, **fields)
    except IntegrityError:  # the unique (tournament, side): only reachable if the lock were skipped
        raise errors.already_entered(side.name) from None


def _check_seed(seed) -> int | None:
    if seed is None:
        return None
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 1:
        raise errors.bad_seed(gettext("a seed is a whole number, 1 or more"))
    return seed


@transaction.atomic
def entry_add(
    *, tournament_id: int, user, player_ids: Sequence[int], rolls: int | None = None, seed: int | None = None,
    division: str | None = None,
) -> Entry:
    """The organiser enters a player (or a pair) before the draw, optionally with his seed (used
    when the event seeds by the organiser's list). The entry must still check in.

    In an event with divisions he goes into ``division`` (any of the event's: the director places
    anyone), else the one his rating places him in (``services.divisions``).

    Raises NotAllowed ``not_organiser``; DomainError ``team_event``, ``bad_entrant`` (wrong
    number of players), ``unknown_player``, ``bad_roller``, ``bad_seed``, ``no_divisions``,
    ``unknown_division``, ``no_division``; Conflict
    ``already_entered``, ``already_drawn`` (use :func:`entry_add_late`), ``tournament_finished``.
    Audited as ``entry.added``.
    """
    tournament = tournament_lock(tournament_id)
    require_organiser(tournament, user)
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.finished()
    if tournament.status == Tournament.Status.RUNNING:
        raise errors.already_drawn_use_late_entry()
    players = _players(tournament, player_ids)
    seed = _check_seed(seed)
    existing = _entered(tournament, players)
    if existing is not None:
        raise errors.already_entered(existing.side.name)
    placed = division_at_entry(tournament, players, division, director=True)
    entry = _create(tournament, _side(players, rolls), seed=seed, division=placed, entered_by=user)
    _audit_new(entry, "entry.added", user, players)
    acceptances_by(tournament, players, user, Acceptance.How.SIGNED_UP)
    return entry


def _audit_new(entry: Entry, action: str, user, players: list[Player], before: dict | None = None) -> None:
    """Audit a new (or reused) entry of ``players``: its summary, the players by id, who rolls."""
    after = {**entry_summary(entry), "players": [p.pk for p in players], "roller": entry.side.roller}
    if entry.division:  # an event with divisions
        after["division"] = entry.division
    event_audit_record(action, actor=user, tournament=entry.tournament_id, obj=entry, before=before, after=after)


@transaction.atomic
def entry_sign_up(*, tournament_id: int, user, partner_id: int | None = None, rolls: int | None = None,
                  division: str | None = None) -> Entry:
    """A player enters himself while entries are open; in a consultation-pairs event he names
    his partner (who is entered with him) and who rolls (``rolls``: a member's id, or None to
    alternate by game). In an event with divisions he names one his rating is eligible for (he
    may play up, never down), or is placed in the weakest one his rating is eligible for.

    Raises NotAllowed ``no_player``; Conflict ``entries_closed``, ``already_entered``;
    DomainError ``team_event``, ``partner_required``, ``partner_not_allowed``,
    ``unknown_player``, ``bad_entrant``, ``bad_roller``, ``no_divisions``, ``unknown_division``,
    ``not_eligible``, ``no_division``. Audited as ``entry.signed_up``.
    """
    tournament = tournament_lock(tournament_id)
    player = player_for_user(user)
    if player is None:
        raise errors.no_player()
    if tournament.kind == Tournament.Kind.TEAMS:
        raise errors.team_event()
    if tournament.status != Tournament.Status.OPEN:
        raise errors.entries_closed()
    if tournament.kind == Tournament.Kind.PAIRS:
        if partner_id is None:
            raise errors.partner_required()
        ids = [player.pk, partner_id]
    else:
        if partner_id is not None:
            raise errors.partner_not_allowed()
        ids = [player.pk]
    players = _players(tournament, ids)
    existing = _entered(tournament, players)
    if existing is not None:
        raise errors.already_entered(existing.side.name)
    placed = division_at_entry(tournament, players, division, director=False)
    entry = _create(tournament, _side(players, rolls), division=placed, entered_by=user)
    _audit_new(entry, "entry.signed_up", user, players)
    acceptances_by(tournament, players, user, Acceptance.How.SIGNED_UP)  # himself; his partner accepts
    return entry


@transaction.atomic
def entry_check_in(*, tournament_id: int, entry_id: int, user) -> Entry:
    """The entrant (one of its players) or the organiser checks the entry in, while entries are
    closed and before the draw; entries not checked in drop out of the draw (a team: its captain
    or the organiser). Checking in twice changes nothing. Audited as ``entry.checked_in``.

    Raises DomainError ``unknown_entry``; NotAllowed ``not_your_entry``; Conflict
    ``check_in_not_open`` (entries still open), ``already_drawn``, ``tournament_finished``.
    """
    tournament = tournament_lock(tournament_id)
    entry = entry_of(tournament, entry_id)
    if not (runs(tournament, user) or plays_for(entry, user) or captains(entry, user)):  # captains: team events
        raise errors.not_your_entry()
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.finished()
    if tournament.status == Tournament.Status.RUNNING:
        raise errors.already_drawn()
    if tournament.status != Tournament.Status.CLOSED:
        raise errors.check_in_not_open()
    if entry.status != Entry.Status.CHECKED_IN:
        before = entry_summary(entry)
        entry.status = Entry.Status.CHECKED_IN
        entry.save(update_fields=["status"])
        event_audit_record("entry.checked_in", actor=user, tournament=tournament, obj=entry, before=before,
                           after=entry_summary(entry))
    # A player checking his own entry in (a captain his team) stands behind the event.
    acceptances_by(tournament, _checked_in_players(entry), user, Acceptance.How.ACCEPTED)
    return entry


def _checked_in_players(entry: Entry) -> list[Player]:
    if entry.side_id is not None:
        return [p for p in (entry.side.player_a, entry.side.player_b) if p is not None]
    return [entry.team.captain]


def entry_withdraw(*, tournament_id: int, entry_id: int, user) -> Entry | None:
    """The entrant (one of its players; a team's captain) or the organiser withdraws the entry.

    - Before the draw: the entry is removed (returns None); the player may enter again. A team
      is removed with its entry (members, reserves and board orders), so its players are free
      to enter again.
    - After the draw: the entry is marked withdrawn and stays in the draw (its results count,
      for its opponents' tie-breaks too). Each of its matches without a confirmed result is
      forfeited: the organiser's override confirms it with the minimum winning score for the
      opponent (the match length to 0), unrated because nothing was played; this advances the
      draw like any confirmed result. Bracket matches not created yet become walkovers as soon
      as the opponent is known (no match is created: the opponent goes through); a Swiss does
      not pair the entrant again; a round robin's remaining matches are all forfeited now.
    - A team: every board match of its team matches without a confirmed result is forfeited the
      same way (boards already confirmed keep their result), which decides the team match for
      the opponent unless the withdrawn team already had its majority. In a round robin of
      teams the team matches of later rounds (whose boards would only be created when their
      round starts) are created now and forfeited at once: the withdrawn team's table is final
      at once, and the round they belong to does not start (the other captains may still set
      its board order); their boards name each team's order for that round as it stands now,
      without locking it.
    - An entrant who did not check in (not in the draw) is simply marked withdrawn.
    Audited as ``entry.withdrawn`` (before the draw: no ``after``, the entry is gone), then the
    forfeits' ``match.unrated`` and ``match.result_overridden`` and the bracket's moves.

    Raises DomainError ``unknown_entry``; NotAllowed ``not_your_entry``; Conflict
    ``already_withdrawn``, ``tournament_finished``, ``forfeit_refused`` (the organiser plays in
    a match to forfeit: only staff can record it, by withdrawing the entrant themselves).
    """
    with transaction.atomic():
        if isinstance(entry_id, int) and not isinstance(entry_id, bool):
            _lock_open_matches(tournament_id, entry_id)
        tournament = tournament_lock(tournament_id)
        entry = entry_of(tournament, entry_id)
        if not (runs(tournament, user) or plays_for(entry, user) or captains(entry, user)):
            raise errors.not_your_entry()
        if tournament.status == Tournament.Status.FINISHED:
            raise errors.finished()
        before = entry_summary(entry)
        if before_draw(tournament):
            entry_id = entry.pk
            # A team goes with its entry (the entry cascades with it).
            (entry.team if entry.team_id is not None else entry).delete()
            event_audit_record("entry.withdrawn", actor=user, tournament=tournament, obj=entry, object_id=entry_id, before=before,
                               note="removed before the draw" + (" with its team" if entry.team_id is not None else ""))
            return None
        if entry.status == Entry.Status.WITHDRAWN:
            raise errors.already_withdrawn(state.entrant_name(entry))
        entry.status = Entry.Status.WITHDRAWN
        entry.save(update_fields=["status"])
        event_audit_record("entry.withdrawn", actor=user, tournament=tournament, obj=entry, before=before,
                           after=entry_summary(entry))
        if entry.seed is None:
            return entry
        name = state.entrant_name(entry)
        director = user if runs(tournament, user) else tournament.organiser
        if entry.team_id is not None:
            _forfeit_team(tournament, entry, name, director)
        else:
            open_pairings = (
                Pairing.objects.filter(tournament=tournament, match__isnull=False)
                .filter(Q(entry0=entry) | Q(entry1=entry))
                .exclude(match__status=Match.Status.CONFIRMED)
                .select_related("match__event_link")
                .order_by("round_number", "key")
            )
            namer = match_namer(tournament)
            for pairing in open_pairings:
                withdrawn_side = 0 if pairing.match.side0_id == entry.side_id else 1
                _forfeit(pairing.match, withdrawn_side, name, director, named=partial(namer, pairing.key),
                         key=pairing.key)
        if tournament.format in state.BRACKET_FORMATS:
            bracket_sync(
                tournament, state.load(tournament), created_by=tournament.organiser,
                refuse=_refuse_named(tournament, name),
            )
        return entry


def _lock_open_matches(tournament_id: int, entry_id: int) -> None:
    """Lock the entry's open matches (a team's: the boards of its team matches) before the
    tournament, in the order the reporting services take them (the match, then the tournament in
    the confirmation hook), so that a confirmation racing the withdrawal waits instead of
    deadlocking with it."""
    list(locked(
        Match.objects
        .filter(
            Q(pairing__tournament_id=tournament_id, pairing__entry0_id=entry_id)
            | Q(pairing__tournament_id=tournament_id, pairing__entry1_id=entry_id)
            | Q(board__pairing__tournament_id=tournament_id, board__pairing__entry0_id=entry_id)
            | Q(board__pairing__tournament_id=tournament_id, board__pairing__entry1_id=entry_id)
        )
        .exclude(status=Match.Status.CONFIRMED)
    ).values_list("pk", flat=True))


def _refuse_named(tournament: Tournament, name: str):
    """The refusal of a withdrawal (of ``name``) that would reset a later match (its key) that has
    started, that match named by its players and round."""
    namer = match_namer(tournament)
    return lambda dependent, why: errors.result_built_on(name, namer(dependent), why, key=dependent)


def _late_refusal(tournament: Tournament):
    """The refusal of a late entry whose bye feeds a match (its key) that has started, that match
    named by its players and round."""
    namer = match_namer(tournament)
    return lambda dependent, why: errors.late_entry_closed(
        gettext("the bye it would fill feeds %(match)s, which %(why)s") % {"match": namer(dependent), "why": why})


def _board_phrase(namer, key: str, board: int) -> str:
    return gettext("board %(board)s of %(match)s") % {"board": board, "match": namer(key)}


def _forfeit(match: Match, withdrawn_side: int, name: str, director, *, named, key: str) -> None:
    """Confirm the win of the side facing ``withdrawn_side`` by ``director``'s override (the
    organiser, or staff withdrawing the entrant themselves). ``named()``: the match as people know
    it (its players and round), ``key`` its key in the draw, both for a refusal."""
    score = [0, 0]
    score[1 - withdrawn_side] = match.length
    # A forfeit is not a game played: it must not move anyone's rating.
    Match.objects.filter(pk=match.pk).update(rated=False)
    if match.rated:
        event_audit_record("match.unrated", actor=director, tournament=event_id_of(match), obj=match, match_id=match.pk,
                           before={"rated": True}, after={"rated": False}, note=f"forfeit: {name} withdrew")
    try:
        match_override(match_id=match.pk, user=director, claim=Claim((score[0], score[1])),
                       origin=Report.Origin.FORFEIT, origin_name=name)
    except NotAllowed:
        raise errors.forfeit_refused(named(), key=key) from None


def _forfeit_team(tournament: Tournament, entry: Entry, name: str, director) -> None:
    """Forfeit every unconfirmed board of the withdrawn team's team matches (a round robin's later
    team matches are created first). Each forfeit runs the confirmation hook, which may start
    further team matches (a round robin's next round): the boards are looked up again until
    none is left open."""
    of_entry = Q(pairing__entry0=entry) | Q(pairing__entry1=entry)
    forfeited: set[int] = set()
    namer = match_namer(tournament)
    while True:
        boards = list(
            BoardMatch.objects.filter(of_entry, pairing__tournament=tournament)
            .exclude(match__status=Match.Status.CONFIRMED)
            .exclude(match_id__in=forfeited)  # an override always confirms: never twice
            .select_related("match__event_link", "pairing")
            .order_by("pairing__round_number", "pairing__key", "board")
        )
        if not boards and tournament.format == Tournament.Format.ROUND_ROBIN:
            boards = _create_remaining_team_matches(tournament, entry)
        if not boards:
            return
        for board in boards:
            withdrawn_side = 0 if board.pairing.entry0_id == entry.pk else 1
            named = partial(_board_phrase, namer, board.pairing.key, board.board)
            _forfeit(board.match, withdrawn_side, name, director, named=named,
                     key=f"{board.pairing.key} board {board.board}")
            forfeited.add(board.match_id)


def _create_remaining_team_matches(tournament: Tournament, entry: Entry) -> list[BoardMatch]:
    """The boards of the withdrawn team's round-robin team matches that have none yet, created
    now so they can be forfeited at once. Unlike a round starting (``teams.team_matches_create``)
    this neither locks a board order nor marks the round started: the round has not started
    for the other teams, and the opponent plays no board of it."""
    pending = (
        Pairing.objects.filter(tournament=tournament, entry0__isnull=False, entry1__isnull=False)
        .filter(Q(entry0=entry) | Q(entry1=entry))
        .filter(~Exists(BoardMatch.objects.filter(pairing_id=OuterRef("pk"))))
        .select_related("entry0", "entry1")
        .order_by("round_number", "key")
    )
    boards = []
    for pairing in pending:
        orders = [order_for(tournament, e.team_id, pairing.round_number) for e in (pairing.entry0, pairing.entry1)]
        found = Player.objects.in_bulk(orders[0] + orders[1])
        for number, (top, bottom) in enumerate(zip(*orders, strict=True), start=1):
            match = match_create(
                created_by=tournament.organiser, sides=([found[top]], [found[bottom]]),
                rules=match_rules(length=pairing.length, crawford=tournament.crawford, move_policy=tournament.move_policy),
                context={"event": tournament}, clock=event_match_clock(tournament),
            )
            boards.append(BoardMatch.objects.create(pairing=pairing, board=number, match=match))
    return boards


@transaction.atomic
def entry_add_late(*, tournament_id: int, user, player_ids: Sequence[int], rolls: int | None = None,
                   division: str | None = None) -> Entry:
    """The organiser adds a late entrant after the draw, as the last seed, checked in.

    Where he plays, by format:
    - Swiss: from the next round paired on (his record starts empty: no points for the rounds
      he missed);
    - single or double elimination: only into a bye. He takes the next seed, which the draw
      places in the bracket line of the first unused bye (facing the seed who had it); this is
      allowed while no match that bye fed has started: the unstarted ones are reset and drawn
      again. A full bracket, or a started match, is refused with the reason;
    - round robin: refused (the schedule is fixed at the draw).
    An entrant who entered but did not check in (so was left out of the draw) may be added late:
    his entry is reused.

    Raises NotAllowed ``not_organiser``; Conflict ``not_drawn``, ``tournament_finished``,
    ``already_entered``, ``late_entry_closed``; DomainError ``team_event``, ``bad_entrant``,
    ``unknown_player``, ``bad_roller``. Audited as ``entry.added_late`` (then the bracket's moves).
    """
    tournament = tournament_lock(tournament_id)
    require_organiser(tournament, user)
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.finished()
    if before_draw(tournament):
        raise errors.not_drawn()
    players = _players(tournament, player_ids)
    placed = division_at_entry(tournament, players, division, director=True)
    seed = _late_seed(tournament)
    side = _side(players, rolls)
    existing = _entered(tournament, players)
    before = None
    if existing is not None:
        if existing.side_id != side.pk or existing.seed is not None or existing.status == Entry.Status.WITHDRAWN:
            raise errors.already_entered(existing.side.name)
        before = entry_summary(existing)
        existing.seed, existing.late, existing.status = seed, True, Entry.Status.CHECKED_IN
        existing.division = placed if division or not existing.division else existing.division
        existing.save(update_fields=["seed", "late", "status", "division"])
        entry = existing
    else:
        entry = _create(tournament, side, seed=seed, late=True, status=Entry.Status.CHECKED_IN, division=placed,
                        entered_by=user)
    _audit_new(entry, "entry.added_late", user, players, before)
    acceptances_by(tournament, players, user, Acceptance.How.SIGNED_UP)  # before his matches exist
    _place_late(tournament, user)
    return entry


@transaction.atomic
def team_add_late(
    *, tournament_id: int, user, name: str, captain_id: int, member_ids: Sequence[int] = (),
    reserve_ids: Sequence[int] = (),
) -> Team:
    """The organiser enters a team after the draw: the team (its captain, members and reserves,
    validated as by ``teams.team_create``) and its entry, as the last seed, checked in. It
    enters exactly where a late side would (see :func:`entry_add_late`): a Swiss from the next
    round paired on; a bracket into the first unused bye, while nothing that bye fed has started
    (unstarted team matches it fed are reset, their boards deleted and the board orders they
    locked unlocked); a round robin refuses it.

    Raises DomainError ``not_team_event``, ``bad_team``, ``unknown_player``, ``team_too_small``;
    NotAllowed ``not_organiser``; Conflict ``not_drawn``, ``tournament_finished``,
    ``late_entry_closed``, ``team_name_taken``, ``already_in_team``. Nothing changes on failure.
    Audited as ``team.added_late`` (then the bracket's moves).
    """
    tournament = tournament_lock(tournament_id)
    if tournament.kind != Tournament.Kind.TEAMS:
        raise errors.not_team_event()
    require_organiser(tournament, user)
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.finished()
    if before_draw(tournament):
        raise errors.not_drawn()
    checked = team_check(tournament, name=name, captain_id=captain_id, member_ids=member_ids,
                         reserve_ids=reserve_ids)
    seed = _late_seed(tournament)
    team = team_write(tournament, checked, seed=seed, late=True, status=Entry.Status.CHECKED_IN, entered_by=user)
    event_audit_record("team.added_late", actor=user, tournament=tournament, obj=team, after=team_summary(team, checked))
    acceptances_by(tournament, team_players(team), user, Acceptance.How.SIGNED_UP)  # before its matches exist
    _place_late(tournament, user)
    return team


def _late_seed(tournament: Tournament) -> int:
    """The seed a late entrant takes (the next one), once the format allows one. Raises Conflict
    ``late_entry_closed`` (a round robin; a full bracket)."""
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        raise errors.late_entry_closed(gettext("a round robin's schedule is fixed at the draw"))
    loaded = state.load(tournament)
    order = loaded.order
    if tournament.format in state.BRACKET_FORMATS:
        size = state.build_bracket(tournament, order).size
        if len(order) >= size:
            raise errors.late_entry_closed(gettext("the bracket is full (%(count)d entrants in %(size)d places): no bye to fill")
                                           % {"count": len(order), "size": size})
    return max((e.seed for e in loaded.entries if e.seed is not None), default=0) + 1


def _place_late(tournament: Tournament, user) -> None:
    """A bracket takes the late entrant into the bye his seed fills; a Swiss pairs him with the
    next round. Raises Conflict ``late_entry_closed`` when a match the bye fed has started."""
    if tournament.format in state.BRACKET_FORMATS:
        bracket_sync(
            tournament, state.load(tournament), created_by=user,
            refuse=_late_refusal(tournament),
        )
