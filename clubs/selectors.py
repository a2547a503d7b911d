"""Reads of the clubs app shared by the API and the pages: the club list, a club's members with
their last results, its upcoming nights and events, pending memberships, seasons and their ladder,
a night's summary, and what the iCal feed lists. Each is built with a fixed number of queries
whatever the club's size.

Who may read what is for :mod:`clubs.permissions` and the views; nothing here checks it.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.db import connection
from django.db.models import Count, Q, QuerySet
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone
from django.utils.translation import gettext_noop

from matches.models import Match, Player, RatingChange, Side
from tournaments.models import Tournament

from . import hooks
from .models import CheckIn, Club, ClubNight, Membership, Season

ROLE_ORDER = {Membership.Role.OWNER: 0, Membership.Role.ORGANISER: 1, Membership.Role.MEMBER: 2}
RECENT_RESULTS = 3


# --- clubs ---------------------------------------------------------------------------------------


def clubs_managed(*, user) -> QuerySet[Club]:
    """The clubs ``user`` owns or organises (an active membership with a manager's role), by name."""
    if not getattr(user, "is_authenticated", False):
        return Club.objects.none()
    return Club.objects.filter(memberships__user=user, memberships__status=Membership.Status.ACTIVE,
                               memberships__role__in=(Membership.Role.OWNER, Membership.Role.ORGANISER)
                               ).order_by("name").distinct()


def club_list() -> QuerySet[Club]:
    """Every club, by name, with ``member_count`` (active members)."""
    return Club.objects.annotate(
        member_count=Count("memberships", filter=Q(memberships__status=Membership.Status.ACTIVE))).order_by("name", "id")


def club_get(*, club_id: int | None = None, slug: str | None = None) -> Club:
    """One club by id or slug, with ``member_count``; raises Club.DoesNotExist."""
    clubs = club_list()
    return clubs.get(pk=club_id) if club_id is not None else clubs.get(slug=slug)


# --- members -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RecentResult:
    """One confirmed match of a player, from his side: won or lost, his score first."""

    match_id: int
    opponent: str
    won: bool
    score: tuple[int, int]
    length: int
    on: dt.date | None

    @property
    def score_text(self) -> str:
        """The score as written, his first (``5-2``)."""
        return f"{self.score[0]}-{self.score[1]}"


@dataclass(frozen=True)
class MemberRow:
    """An active member as the club page shows him: no email, no user id."""

    membership_id: int
    player_id: int | None
    display_name: str
    role: str
    rating: float | None
    joined_at: dt.datetime | None
    recent: tuple[RecentResult, ...]


def _display_name(user, player: Player | None) -> str:
    # A walk-in member (no user) always has his guest player.
    return player.display_name if player is not None else (user.get_full_name() or user.get_username())


def _player_of(user) -> Player | None:
    try:
        return user.player
    except Player.DoesNotExist:
        return None


def recent_results(player_ids: list[int], per_player: int = RECENT_RESULTS) -> dict[int, tuple[RecentResult, ...]]:
    """The last ``per_player`` confirmed matches of each player (newest first), in two queries:
    one window over the four places a player can hold in a match, one for those matches."""
    if not player_ids:
        return {}
    match_table, side_table = Match._meta.db_table, Side._meta.db_table
    ids = [int(pk) for pk in player_ids]
    # Plain IN placeholders (not PostgreSQL's = ANY(array)): SQLite, the embedded default, runs it too.
    placeholders = ", ".join(["%s"] * len(ids))
    branches = " UNION ALL ".join(
        f"SELECT m.id AS match_id, m.confirmed_at, s.{slot}_id AS player_id, {index} AS side "
        f"FROM {match_table} m JOIN {side_table} s ON s.id = m.side{index}_id "
        f"WHERE m.status = 'confirmed' AND s.{slot}_id IN ({placeholders})"
        for index in (0, 1) for slot in ("player_a", "player_b")
    )
    sql = (f"SELECT match_id, player_id, side FROM (SELECT slots.*, row_number() OVER (PARTITION BY player_id "
           f"ORDER BY confirmed_at DESC NULLS LAST, match_id DESC) AS place FROM ({branches}) slots) ranked "
           f"WHERE place <= %s ORDER BY player_id, place")
    with connection.cursor() as cursor:
        cursor.execute(sql, ids * 4 + [per_player])
        rows = cursor.fetchall()
    matches = Match.objects.with_sides().in_bulk({match_id for match_id, _, _ in rows})
    found: dict[int, list[RecentResult]] = defaultdict(list)
    for match_id, player_id, side in rows:
        match = matches[match_id]
        scores = (match.score0, match.score1)
        found[player_id].append(RecentResult(
            match_id=match_id, opponent=match.sides[1 - side].name, won=match.winner == side,
            score=(scores[side], scores[1 - side]), length=match.length,
            on=match.played_on or (timezone.localdate(match.confirmed_at) if match.confirmed_at else None),
        ))
    return {player_id: tuple(results) for player_id, results in found.items()}


def member_players(*, club_id: int) -> QuerySet[Player]:
    """The players of the club's active members: the players of its members' users and its
    walk-in members' guest players (who may check in, sit at its chouette tables, play its
    matches). One query when read."""
    active = Membership.objects.filter(club_id=club_id, status=Membership.Status.ACTIVE)
    return Player.objects.filter(Q(user_id__in=active.filter(user__isnull=False).values("user_id"))
                                 | Q(pk__in=active.filter(player__isnull=False).values("player_id")))


def member_list(*, club: Club) -> list[MemberRow]:
    """The club's active members (with an account, or walk-ins: their guest player), owners
    first, then organisers, then members, each by name, with rating and last results. Three
    queries."""
    memberships = list(Membership.objects.filter(club=club, status=Membership.Status.ACTIVE)
                       .select_related("user__player", "player"))
    players = {m.pk: m.player if m.user_id is None else _player_of(m.user) for m in memberships}
    recent = recent_results([p.pk for p in players.values() if p is not None])
    rows = [
        MemberRow(
            membership_id=m.pk, player_id=players[m.pk].pk if players[m.pk] else None,
            display_name=_display_name(m.user, players[m.pk]), role=m.role,
            rating=players[m.pk].rating if players[m.pk] else None, joined_at=m.joined_at,
            recent=recent.get(players[m.pk].pk, ()) if players[m.pk] else (),
        )
        for m in memberships
    ]
    return sorted(rows, key=lambda r: (ROLE_ORDER[r.role], r.display_name.casefold(), r.membership_id))


def membership_pending(*, club: Club) -> QuerySet[Membership]:
    """The club's requests to join and invitations, oldest first, users joined (for managers)."""
    return (Membership.objects.filter(club=club).exclude(status=Membership.Status.ACTIVE)
            .select_related("user__player", "invited_by__player").order_by("created_at", "id"))


def membership_of(*, club: Club, user) -> Membership | None:
    """The user's own membership row in the club (any status), or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Membership.objects.filter(club=club, user_id=user.pk).first()


# --- nights and events ---------------------------------------------------------------------------


def night_list(*, club: Club, upcoming_from: dt.date | None = None) -> QuerySet[ClubNight]:
    """The club's nights, newest first (or, from ``upcoming_from`` on, soonest first), with
    ``check_in_count``."""
    nights = ClubNight.objects.filter(club=club).annotate(check_in_count=Count("check_ins")).order_by("-date", "-id")
    if upcoming_from is not None:
        nights = nights.filter(date__gte=upcoming_from).order_by("date", "id")
    return nights


def event_list(*, club: Club, upcoming_from: dt.date | None = None) -> QuerySet[Tournament]:
    """The club's events (tournaments with this club), soonest first; from ``upcoming_from``
    on, only those not finished that start that day or later (or have no date yet)."""
    events = Tournament.objects.filter(club_event__club=club).exclude(status=Tournament.Status.DRAFT)  # drafts: their organiser's
    if upcoming_from is not None:
        events = events.exclude(status=Tournament.Status.FINISHED).filter(
            Q(starts_on__gte=upcoming_from) | Q(starts_on__isnull=True))
    return events.order_by(Coalesce("starts_on", dt.date.max), "name", "id")


def night_get(*, club: Club, night_id: int) -> ClubNight:
    """One night of the club; raises ClubNight.DoesNotExist (another club's night too)."""
    return ClubNight.objects.select_related("club", "opened_by").get(pk=night_id, club=club)


@dataclass(frozen=True)
class CheckInRow:
    player_id: int
    display_name: str
    at: dt.datetime


@dataclass(frozen=True)
class ChouetteTotal:
    player_id: int
    display_name: str
    amount: Decimal


@dataclass(frozen=True)
class NightSummary:
    """A night's page: who came, its matches with their results, its chouette tables and each
    player's net chouette result over them (``chouette_totals`` is None, and ``chouettes`` empty,
    when no app keeps chouette tables: see :mod:`clubs.hooks`)."""

    night: ClubNight
    check_ins: tuple[CheckInRow, ...]
    matches: tuple[Match, ...]
    chouettes: tuple[hooks.NightChouette, ...]
    chouette_totals: tuple[ChouetteTotal, ...] | None


def night_summary(*, night: ClubNight) -> NightSummary:
    """Everything the night's summary shows (for members only: it holds chouette amounts)."""
    check_ins = tuple(CheckInRow(c.player_id, c.player.display_name, c.at)
                      for c in CheckIn.objects.filter(night=night).select_related("player").order_by("at", "id"))
    matches = tuple(Match.objects.with_sides().filter(club_link__night=night).order_by("created_at", "id"))
    chouettes = hooks.night_chouettes_of(night)
    if chouettes is None:
        return NightSummary(night=night, check_ins=check_ins, matches=matches, chouettes=(), chouette_totals=None)
    totals = chouettes.totals
    names = dict(Player.objects.filter(pk__in=list(totals)).values_list("pk", "display_name"))
    rows = tuple(sorted((ChouetteTotal(pid, names.get(pid, "?"), Decimal(amount)) for pid, amount in totals.items()),
                        key=lambda t: (-t.amount, t.display_name.casefold())))
    return NightSummary(night=night, check_ins=check_ins, matches=matches, chouettes=chouettes.tables,
                        chouette_totals=rows)


# --- seasons and the ladder ----------------------------------------------------------------------


def season_list(*, club: Club) -> QuerySet[Season]:
    """The club's seasons, latest start first."""
    return Season.objects.filter(club=club).order_by("-starts_on", "-id")


def season_get(*, club: Club, season_id: int) -> Season:
    """One season of the club; raises Season.DoesNotExist (another club's season too)."""
    return Season.objects.select_related("club").get(pk=season_id, club=club)


LADDER_DEFINITION = gettext_noop(
    "From the club's confirmed matches (money sessions excepted) played within the season's dates "
    "(the day played, or else the day confirmed). Points: the match points a player scored, the sum "
    "of his side's final scores (a 5-3 win is 5 points, a 3-5 loss 3). Rating: the sum of his FIBS "
    "rating changes in those matches. Ranked by wins, then points, then rating change."
)


@dataclass(frozen=True)
class LadderRow:
    place: int
    shared: bool
    player_id: int
    display_name: str
    played: int
    won: int
    lost: int
    points: int
    rating_change: float


def season_matches(*, season: Season) -> QuerySet[Match]:
    """The confirmed matches of the club within the season (see LADDER_DEFINITION)."""
    return (Match.objects.filter(club_link__club_id=season.club_id, status=Match.Status.CONFIRMED, length__gt=0)
            .annotate(day=Coalesce("played_on", TruncDate("confirmed_at")))
            .filter(day__gte=season.starts_on, day__lte=season.ends_on))


def season_ladder(*, season: Season) -> list[LadderRow]:
    """The season's ladder, one row per player who played (see LADDER_DEFINITION); equal rows
    share a place. Three queries."""
    matches = list(season_matches(season=season).values(
        "pk", "score0", "score1", "winner", "side0__player_a", "side0__player_b", "side1__player_a", "side1__player_b"))
    tally: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])  # played, won, points
    for m in matches:
        for side in (0, 1):
            for slot in ("player_a", "player_b"):
                player_id = m[f"side{side}__{slot}"]
                if player_id is None:
                    continue
                row = tally[player_id]
                row[0] += 1
                row[1] += int(m["winner"] == side)
                row[2] += m[f"score{side}"] or 0
    rating: dict[int, float] = defaultdict(float)
    for player_id, before, after in RatingChange.objects.filter(match__in=[m["pk"] for m in matches]).values_list(
            "player", "rating_before", "rating_after"):
        rating[player_id] += after - before
    names = dict(Player.objects.filter(pk__in=list(tally)).values_list("pk", "display_name"))
    ordered = sorted(tally.items(), key=lambda item: (-item[1][1], -item[1][2], -round(rating[item[0]], 2),
                                                      names.get(item[0], "").casefold(), item[0]))
    rows: list[LadderRow] = []
    for index, (player_id, (played, won, points)) in enumerate(ordered):
        change = round(rating[player_id], 2)
        key = (won, points, change)
        previous = rows[-1] if rows else None
        same = previous is not None and (previous.won, previous.points, previous.rating_change) == key
        rows.append(LadderRow(
            place=previous.place if same else index + 1, shared=False, player_id=player_id,
            display_name=names.get(player_id, "?"), played=played, won=won, lost=played - won, points=points,
            rating_change=change,
        ))
    places = defaultdict(int)
    for row in rows:
        places[row.place] += 1
    return [LadderRow(**{**row.__dict__, "shared": places[row.place] > 1}) for row in rows]


# --- the calendar ----------------------------------------------------------------------------------


def calendar_items(*, club: Club) -> tuple[list[ClubNight], list[Tournament]]:
    """What the club's iCal feed lists: its nights and its dated events (all of them: a feed is
    read by calendars that keep past items anyway)."""
    nights = list(ClubNight.objects.filter(club=club).order_by("date", "id"))
    events = list(Tournament.objects.filter(club_event__club=club, starts_on__isnull=False)
                  .exclude(status=Tournament.Status.DRAFT).order_by("starts_on", "id"))
    return nights, events
