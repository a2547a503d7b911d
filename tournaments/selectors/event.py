"""Reads shared by the API and the pages: events (a player's running ones, those a viewer may
see), an event's entrants and the players still to add, and whether a player is still to accept
an entry made for him.

The draw's reads live beside this module: ``pairings`` (a match of the draw as shown),
``brackets``, ``rounds`` (Swiss and round robin), ``standings`` (tables and final placings),
``next_match`` and ``teams``. Every read of one event runs a fixed number of queries whatever its
size (the entries with their players, the pairings with their matches: two queries; see
``tournaments.services.state.load``), then asks the pure draw where the event stands. Outputs are
frozen dataclasses holding what a page or an API body shows (names, seeds, scores, winners), never
model instances to walk further.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet

from matches.models import Match, Player
from tournaments import hosts
from tournaments.models import Entry, Tournament
from tournaments.services import acceptance, reentry, state

# --- events and entrants -----------------------------------------------------------------------


#: ``viewer`` left out: every event, drafts included (the services' and tests' reads).
EVERYONE = object()


def visible_to(tournaments: QuerySet[Tournament], viewer) -> QuerySet[Tournament]:
    """``tournaments`` without the drafts ``viewer`` may not see: a draft is its organiser's (and
    staff's) alone, everywhere (lists, pages, the API, the front page)."""
    if viewer is EVERYONE or getattr(viewer, "is_staff", False):
        return tournaments
    hidden = Q(status=Tournament.Status.DRAFT)
    if getattr(viewer, "is_authenticated", False):
        hidden &= ~Q(organiser_id=viewer.pk)
    return tournaments.exclude(hidden)


def may_see(tournament: Tournament, viewer) -> bool:
    """Whether ``viewer`` may see ``tournament`` (a draft: its organiser and staff only). No query."""
    if tournament.status != Tournament.Status.DRAFT or getattr(viewer, "is_staff", False):
        return True
    return bool(getattr(viewer, "is_authenticated", False) and tournament.organiser_id == viewer.pk)


def tournament_list(*, status: str | None = None, organiser_id: int | None = None, club_id: int | None = None,
                    viewer=EVERYONE) -> QuerySet[Tournament]:
    """Tournaments, newest start first, with organiser and club joined; those ``viewer`` may see
    (:func:`visible_to`) when given."""
    tournaments = visible_to(Tournament.objects.select_related("organiser__player", *hosts.host_joins()), viewer)
    if status:
        tournaments = tournaments.filter(status=status)
    if organiser_id is not None:
        tournaments = tournaments.filter(organiser_id=organiser_id)
    if club_id is not None:
        tournaments = hosts.host_filter(tournaments, club_id)
    return tournaments


def tournament_get(tournament_id: int) -> Tournament:
    """One tournament with organiser and club; raises Tournament.DoesNotExist."""
    return Tournament.objects.select_related("organiser__player", *hosts.host_joins()).get(pk=tournament_id)


def tournament_named(*, organiser, name: str) -> Tournament | None:
    """The organiser's event called ``name`` (of several, the one starting last), or None."""
    return Tournament.objects.filter(organiser=organiser, name=name).first()


def tournament_match_list(*, tournament: Tournament, status: str | None = None) -> QuerySet[Match]:
    """The event's matches (with ``status``, if given) in the order they were made, with their
    sides' first players and their users joined."""
    matches = Match.objects.filter(event_link__tournament=tournament)
    if status:
        matches = matches.filter(status=status)
    return matches.select_related("side0__player_a__user", "side1__player_a__user").order_by("pk")


def tournament_list_running(*, player: Player) -> QuerySet[Tournament]:
    """The running events ``player`` plays in, by name: alone, as one of a pair, or as a member
    (or reserve) of a team."""
    return (Tournament.objects.filter(status=Tournament.Status.RUNNING)
            .filter(Q(entries__side__player_a=player) | Q(entries__side__player_b=player)
                    | Q(teams__members__player=player))
            .distinct().order_by("name"))


def club_choices(*, user) -> list[tuple[int, str]]:
    """``(id, name)`` of the clubs ``user`` may put a new event on, by name: those he owns or
    organises if he is an organiser (or staff), else those he owns (a club's owner creates his
    club's events without the organiser role)."""
    if getattr(user, "is_authenticated", False) and not user.is_organiser:
        return hosts.host_owned_choices(user)
    return hosts.host_choices(user)


@dataclass(frozen=True)
class Entrant:
    """An entrant as shown: its entry, name (``Alice`` or ``Alice & Bob``), seed in the draw
    (None before it, or when not in it), players ``(id, name)``, status, late entry, and for a
    pair who rolls (``a``, ``b``: always that member; ``alternate``)."""

    entry_id: int
    name: str
    seed: int | None
    players: tuple[tuple[int, str], ...]
    status: str
    late: bool
    roller: str | None = None
    division: str = ""  # the entrant's division; empty in an event without divisions
    reentry_of: int | None = None  # the entry a re-entry (buy-back) re-enters for

    @property
    def reentry(self) -> bool:
        return self.reentry_of is not None

    @property
    def withdrawn(self) -> bool:
        return self.status == Entry.Status.WITHDRAWN


def entrant_of(entry: Entry) -> Entrant:
    """The :class:`Entrant` ``entry`` is, as pages and the API show it: its name, seed, players (a
    side's; none for a team), status, late entry, the roller of a pair, division and the entry it
    re-enters. ``entry`` comes with its side's players (``select_related``)."""
    players = tuple((p.pk, p.display_name) for p in state.entrant_players(entry)) if entry.side_id else ()
    roller = entry.side.roller if entry.side_id and entry.side.is_pair else None
    return Entrant(entry.pk, state.entrant_name(entry), entry.seed, players, entry.status, entry.late, roller,
                   entry.division, entry.reentry_of_id)


def entry_list(*, tournament: Tournament) -> tuple[Entrant, ...]:
    """The event's entrants: by seed once drawn (those not in the draw last), else in entry
    order. One query."""
    entries = (Entry.objects.filter(tournament=tournament).select_related("side__player_a", "side__player_b", "team")
               .order_by("seed", "created_at", "id"))
    return tuple(entrant_of(e) for e in entries)


def entry_queryset(*, tournament: Tournament) -> QuerySet[Entry]:
    """The event's entries in :func:`entry_list`'s order, sides, players and team joined: slice
    it to read one page, and show it with :func:`entrants_of`."""
    return (Entry.objects.filter(tournament=tournament).select_related("side__player_a", "side__player_b", "team")
            .order_by("seed", "created_at", "id"))


def entrants_of(entries) -> tuple[Entrant, ...]:
    """``entries`` (from :func:`entry_queryset`) as shown."""
    return tuple(entrant_of(e) for e in entries)


def reentry_candidates(*, tournament: Tournament) -> frozenset[int]:
    """The entries whose player the director may re-enter into the main now (buy-back,
    ``services.reentry.reentry_candidates``). No query unless the event allows re-entry
    and is running; then two (its entries and pairings)."""
    if not tournament.reentries or tournament.status != Tournament.Status.RUNNING:
        return frozenset()
    return reentry.reentry_candidates(tournament, state.load(tournament))


def entry_candidates(*, entrants: tuple[Entrant, ...]) -> QuerySet[Player]:
    """The players the organiser may still add: every player not among ``entrants``'
    (``entry_list``), by name."""
    entered = {player_id for entrant in entrants for player_id, _ in entrant.players}
    return Player.objects.exclude(pk__in=entered).order_by("display_name")


def acceptance_awaited(tournament: Tournament, player: Player) -> bool:
    """Whether ``player`` (with an account) is in ``tournament`` by someone else's entry and has not
    answered it: the event page asks him to accept it (``services.acceptance.entry_accept``). One
    query; a draft or a cancelled event asks nothing."""
    if player.user_id is None or tournament.status in (Tournament.Status.DRAFT, Tournament.Status.CANCELLED):
        return False
    return Player.objects.filter(acceptance.entered_players(tournament), pk=player.pk).exclude(
        event_acceptances__tournament=tournament).exists()
