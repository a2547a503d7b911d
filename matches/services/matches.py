"""Players, sides and matches: creating them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from audit.services import audit_record, audit_record_many
from core.engine_messages import refusal_text
from core.text import name_clean
from engine.errors import EngineError
from engine.match import MatchRules

from .. import errors, hooks
from ..clocks import MatchClock, clock_fields
from ..models import Match, Player, Side


def player_for_user(user) -> Player | None:
    """The user's player profile, or None (anonymous, or a user without one)."""
    if not getattr(user, "is_authenticated", False):
        return None
    try:
        return user.player
    except Player.DoesNotExist:
        return None


def side_of_user(match: Match, user) -> int | None:
    """The side (0 or 1) the user plays on in ``match``, or None."""
    player = player_for_user(user)
    if player is None:
        return None
    for index, side in enumerate(match.sides):
        if player.pk in (side.player_a_id, side.player_b_id):
            return index
    return None


@transaction.atomic
def player_create(*, display_name: str, user=None, country: str = "") -> Player:
    """Create a player (with its solo side). Raises DomainError for an empty name, or one
    :func:`core.text.name_clean` refuses (``bad_name``). (His home club, if any, is set by clubs.)"""
    name = name_clean(display_name or "", field="display_name")
    if not name:
        raise errors.bad_sides(gettext("a player needs a display name"))
    player = Player.objects.create(user=user, display_name=name[:120], country=country.upper()[:2])
    Side.objects.create(player_a=player)
    return player


def side_for(players: list[Player], roller: str = Side.Roller.A) -> Side:
    """The side of one player or of a pair (created on first use; one side per player or pair).

    Raises DomainError for anything but one player or two different players.
    """
    if len(players) == 1:
        side, _ = Side.objects.get_or_create(player_a=players[0], player_b=None)
        return side
    if len(players) != 2 or players[0].pk == players[1].pk:
        raise errors.bad_sides(gettext("a side is one player or a pair of two different players"))
    a, b = sorted(players, key=lambda p: p.pk)
    try:
        with transaction.atomic():
            side, _ = Side.objects.get_or_create(player_a=a, player_b=b, defaults={"roller": roller})
    except IntegrityError:
        # Two requests created the same pair at once: the unique constraint let one win.
        side = Side.objects.get(player_a=a, player_b=b)
    return side


def sides_for_many(groups: list[list[Player]]) -> list[Side]:
    """The side of each group of one player or a pair, in order (created on first use), in at
    most three queries whatever their number: the sides that exist are read, the missing ones
    inserted (a side another transaction inserts meanwhile is kept: the unique constraints turn
    ours into nothing), then read. Each side has its players cached (no query to read them).

    Raises DomainError for a group that is not one player or two different players."""
    keys = []
    for players in groups:
        if len(players) == 1:
            keys.append((players[0], None))
        elif len(players) == 2 and players[0].pk != players[1].pk:
            keys.append(tuple(sorted(players, key=lambda p: p.pk)))
        else:
            raise errors.bad_sides(gettext("a side is one player or a pair of two different players"))
    wanted = {(a.pk, b.pk if b is not None else None) for a, b in keys}

    def read() -> dict[tuple[int, int | None], Side]:
        firsts = {a for a, _ in wanted}
        rows = Side.objects.filter(player_a_id__in=firsts)
        return {key: side for side in rows if (key := (side.player_a_id, side.player_b_id)) in wanted}

    found = read()
    missing = {key for key in wanted if key not in found}
    if missing:
        Side.objects.bulk_create([Side(player_a_id=a, player_b_id=b) for a, b in sorted(missing, key=str)],
                                 ignore_conflicts=True)
        found = read()
    out = []
    for a, b in keys:
        side = found[(a.pk, b.pk if b is not None else None)]
        side.player_a = a
        side.player_b = b
        out.append(side)
    return out


def side_name(players: list[Player]) -> str:
    """A side's name from its players, as ``Side.name`` gives it (a pair's members by id), without
    reading the side's players again."""
    return " & ".join(p.display_name for p in sorted(players, key=lambda p: p.pk))


def match_summary(match: Match, names: tuple[str, str] | None = None) -> dict:
    """What the audit log keeps of a match: its sides' names (``names``, or read through the
    sides), length, status, score and winner; the organiser by id, and what its contexts add (the
    event by id: ``hooks.summary``, read through their joins)."""
    if names is None:
        names = (match.side0.name, match.side1.name)
    return {
        "sides": list(names), "length": match.length, "status": match.status, "score": [match.score0, match.score1],
        "winner": match.winner, **hooks.summary(match), "organiser": match.organiser_id, "rated": match.rated,
        "consent": [match.consent0, match.consent1],
    }


def _default_organiser(created_by, first: Side, second: Side):
    """Who runs a match created outside an event: its creator if he is an organiser and does
    not play in it. A player's own friendly match has no organiser (staff can still rule)."""
    if created_by is None or not getattr(created_by, "is_organiser", False):
        return None
    players = {p.user_id for p in (*first.players, *second.players)}
    return None if created_by.pk in players else created_by


@dataclass(frozen=True)
class MatchDate:
    """When a match is played, if known: ``scheduled_at`` (the moment a match to come is set for) or
    ``played_on`` (the day a match already played was, e.g. an imported one's)."""

    scheduled_at: datetime | None = None
    played_on: date | None = None


def match_rules(*, length: int, crawford: bool = True, move_policy: str = Match.MovePolicy.LEGAL, jacoby: bool = False,
                beavers: bool = False, raccoons: bool = False, automatic_doubles: int = 0,
                cube_cap: int | None = None) -> MatchRules:
    """The engine's rules of a match set up with a match's own fields (a move policy rather than the
    engine's ``responsible_moves``), as a form, a request or an event gives them, for
    :func:`match_create`. Raises DomainError ``bad_sides`` for rules the engine refuses (money
    options in a match, a bad cube cap), with the engine's reason in the reader's language."""
    try:
        return MatchRules(length=length, crawford=crawford, jacoby=jacoby, beavers=beavers, raccoons=raccoons,
                          automatic_doubles=automatic_doubles, cube_cap=cube_cap,
                          responsible_moves=move_policy == Match.MovePolicy.RESPONSIBLE)
    except EngineError as error:
        raise errors.bad_sides(refusal_text(error)) from None


@transaction.atomic
def match_create(
    *,
    created_by,
    sides: tuple[list[Player], list[Player]],
    rules: MatchRules,
    rated: bool | None = None,
    organiser=None,
    when: MatchDate | None = None,
    context: dict | None = None,
    clock: MatchClock | None = None,
) -> Match:
    """Create a scheduled match between two sides (``sides``: each a list of one player, or of a
    consultation pair) under ``rules`` (the engine's, checked when they were made: see
    :func:`match_rules`), ``when`` it is set for or was played, if known.

    ``context`` says what the match belongs to, as the apps above matches take it (see
    ``matches.hooks.MatchContext``): ``{"event": tournament}`` (tournaments: the event's organiser
    directs the match, and is its organiser unless ``organiser`` is given); ``{"club": club}`` or
    ``{"club_night": night}`` (clubs: a club's match counts for its ladder; only the club's active
    members create one, NotAllowed ``not_club_member``; DomainError ``bad_club_night`` for a night
    of another club). Each context checks its part before anything is written and links the match
    in this transaction.

    Each side's consent (``Match.consent0``/``consent1``, see ``matches.services.consent``) is
    given at once when ``created_by`` plays on that side, or when a context vouches for it (an
    event for every side, a club for its members'); otherwise it is pending: the match is then not
    on that side's record (ratings, pages) until he or a director of his confirms it.

    Matches of pairs and money sessions are never rated. Audited as ``match.created`` (the actor:
    ``created_by``; with the ids the contexts give). Raises DomainError for sides that share a
    player.
    """
    side0, side1 = sides
    when = when or MatchDate()
    prepared = hooks.contexts_prepare(created_by=created_by, values=context or {})
    first, second = side_for(side0), side_for(side1)
    if {p.pk for p in first.players} & {p.pk for p in second.players}:
        raise errors.bad_sides(gettext("a player cannot be on both sides"))
    if organiser is None:
        # An event's match: the event's organiser; else see _default_organiser.
        named = [attachment.organiser for _, attachment in prepared if attachment.organiser is not None]
        organiser = named[0] if named else _default_organiser(created_by, first, second)
    consent = [
        Match.Consent.GIVEN if (created_by is not None and created_by.pk in {p.user_id for p in players})
        or hooks.vouched(prepared, players) else Match.Consent.PENDING
        for players in (side0, side1)
    ]
    match = Match(
        consent0=consent[0], consent1=consent[1],
        side0=first, side1=second, length=rules.length, crawford=rules.crawford,
        move_policy=Match.MovePolicy.RESPONSIBLE if rules.responsible_moves else Match.MovePolicy.LEGAL,
        jacoby=rules.jacoby, beavers=rules.beavers, raccoons=rules.raccoons, automatic_doubles=rules.automatic_doubles,
        cube_cap=rules.cube_cap, organiser=organiser, created_by=created_by, scheduled_at=when.scheduled_at,
        played_on=when.played_on, **clock_fields(clock, rules.length),
    )
    ratable = rules.length > 0 and not first.is_pair and not second.is_pair
    match.rated = ratable if rated is None else (rated and ratable)
    match.full_clean(exclude=["side0", "side1"])
    match.save()
    hooks.contexts_attach(match, prepared)
    ids = hooks.audit_ids(match)
    for _, attachment in prepared:
        ids.update(attachment.audit)
    audit_record(actor=created_by, action="match.created", object_type="matches.Match", object_id=match.pk,
                 match_id=match.pk, **ids, after=match_summary(match, (side_name(side0), side_name(side1))))
    return match


@dataclass(frozen=True)
class MatchSpec:
    """One match for :func:`match_create_many`: its two sides (``Side`` rows with their players
    loaded, e.g. an entry's side or :func:`sides_for_many`'s) and its rules."""

    side0: Side
    side1: Side
    length: int
    crawford: bool = True
    move_policy: str = Match.MovePolicy.LEGAL
    # The score it starts from (each side's points before the first game: an event's handicap
    # between divisions), kept as the match's penalty points, which the engine replays from.
    start: tuple[int, int] = (0, 0)
    clock: MatchClock | None = None  # the event's clock


@transaction.atomic
def match_create_many(*, created_by, specs: list[MatchSpec], context: dict | None = None) -> list[Match]:
    """Create a scheduled match for each of ``specs``, all in the same ``context``: what
    :func:`match_create` does for one match (the same organiser, consents, rating, context links
    and ``match.created`` audit entries), with the matches, their links and their audit entries
    each inserted at once: a constant number of queries whatever their number, when the contexts
    answer from what they hold (an event whose organiser is loaded vouches for every side). For
    the services that create many matches from rows they hold (an event's draw and rounds).

    The rules of each distinct (length, Crawford, move policy) are checked once, by the engine
    and the fields' validation; the rest is guarded by the database's constraints (two different
    sides, money options, the foreign keys), not by ``full_clean``'s queries. Returns the matches
    in the order of ``specs``. Raises DomainError for sides that share a player and for rules the
    engine refuses; nothing is written then.
    """
    if not specs:
        return []
    prepared = hooks.contexts_prepare(created_by=created_by, values=context or {})
    named = [attachment.organiser for _, attachment in prepared if attachment.organiser is not None]
    creator = created_by.pk if created_by is not None else None
    checked: set[tuple] = set()
    matches, names = [], []
    for spec in specs:
        first, second = spec.side0, spec.side1
        players0, players1 = first.players, second.players
        if {p.pk for p in players0} & {p.pk for p in players1}:
            raise errors.bad_sides(gettext("a player cannot be on both sides"))
        consent = [
            Match.Consent.GIVEN if (creator is not None and creator in {p.user_id for p in players})
            or hooks.vouched(prepared, players) else Match.Consent.PENDING
            for players in (players0, players1)
        ]
        match = Match(
            consent0=consent[0], consent1=consent[1], side0=first, side1=second, length=spec.length,
            crawford=spec.crawford, move_policy=spec.move_policy, penalty0=spec.start[0], penalty1=spec.start[1],
            organiser=named[0] if named else _default_organiser(created_by, first, second), created_by=created_by,
            **clock_fields(spec.clock, spec.length),
        )
        rules = (spec.length, spec.crawford, spec.move_policy)
        if rules not in checked:
            try:
                match.rules()
            except EngineError as error:
                raise errors.bad_sides(refusal_text(error)) from None
            # The fields' own validation (choices, ranges), without the foreign keys' look-ups.
            match.clean_fields(exclude=["side0", "side1", "organiser", "created_by"])
            checked.add(rules)
        match.rated = spec.length > 0 and not first.is_pair and not second.is_pair
        matches.append(match)
        names.append((side_name(players0), side_name(players1)))
    Match.objects.bulk_create(matches)
    hooks.contexts_attach_many(matches, prepared)
    extra = {}
    for _, attachment in prepared:
        extra.update(attachment.audit)
    audit_record_many(actor=created_by, entries=[
        {"action": "match.created", "object_type": "matches.Match", "object_id": match.pk, "match_id": match.pk,
         **hooks.audit_ids(match), **extra, "after": match_summary(match, pair)}
        for match, pair in zip(matches, names, strict=True)
    ])
    return matches
