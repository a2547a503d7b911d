"""Who an event vouches for: the players whose results it may put on their records.

An event vouches for a side of one of its matches (the side's consent to the match is given
without the players' own word: ``matches.services.consent``) when it does for each player of it:

- a player with no account (a walk-in, a player known from imported files) is the organiser's own
  record until someone claims him: the event vouches for him;
- a player with an account only when he stands behind the event by his own act (an
  :class:`~tournaments.models.Acceptance`: he entered himself, captains his team, checked his
  entry in, or accepted the organiser's entry of him; or staff entered him) **and** the event is
  really run for him: its organiser holds the organiser role (or is staff), or the event is on
  the calendar of a club whose membership he asked for or accepted.

Otherwise his sides' consent waits for his own report or confirmation, as for any match someone
else created. The same test says whether the event's organiser directs the player (may confirm
a match outside the event for him: ``tournaments.hooks``), and whether his override of a result
leaves the players' consent standing (``matches.services.consent.consent_after_override``).

An organiser's entry of an account holder is an invitation: :func:`entry_accept` is the player's
answer. Accepting gives his consent to every match of the event he played that was waiting for it
(a confirmed rated match is then rated, from when it is accepted).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Q

from core.locking import locked_rows
from core.outbox import outbox_enqueue
from matches.models import Match, Player
from matches.services.consent import consent_by_side, rating_dispatch
from matches.services.matches import player_for_user
from tournaments import errors, hosts
from tournaments.models import Acceptance, Entry, TeamMember, Tournament

from .audit import event_audit_record
from .common import tournament_lock

#: The task telling a player someone else entered that his entry waits for his answer, named: the
#: tasks module imports the services.
ENTRY_INVITED_TASK = "tournaments.tasks.entry_invited_notify_task"


class Vouching:
    """What one event vouches for, read once and kept (an event's draw creates many matches at
    once: two queries at most, however many)."""

    def __init__(self, event: Tournament):
        self.event = event
        self._vouched: set[int] | None = None

    def vouched_ids(self) -> set[int]:
        """The account holders the event vouches for (accepted, and the event run for them)."""
        if self._vouched is None:
            accepted = set(Acceptance.objects.filter(tournament_id=self.event.pk).values_list("player_id", flat=True))
            self._vouched = accepted if runs_for_everyone(self.event) else self._club_members(accepted)
        return self._vouched

    def _club_members(self, accepted: set[int]) -> set[int]:
        club = self.event.club
        return hosts.member_players(club.pk, accepted) if club is not None and accepted else set()

    def vouches(self, players: Iterable[Player]) -> bool:
        """Whether the event vouches for a side of ``players`` (``Player`` rows)."""
        players = list(players)
        if all(player.user_id is None for player in players):
            return True
        vouched = self.vouched_ids()
        return all(player.user_id is None or player.pk in vouched for player in players)


def runs_for_everyone(event: Tournament) -> bool:
    """Whether the event's organiser holds the organiser role or is staff: an event he really
    runs for every entrant who accepted it (a club owner without the role runs his club's events
    for its members only)."""
    organiser = event.organiser
    return bool(organiser is not None and (organiser.is_staff or organiser.is_organiser))


def event_vouches(event: Tournament, players: Iterable[Player]) -> bool:
    """Whether ``event`` vouches for a side of ``players`` (see the module)."""
    return Vouching(event).vouches(players)


def entered_players(tournament: Tournament) -> Q:
    """A ``Q`` on ``Player`` for the players in ``tournament``: on an entry's side (not withdrawn)
    or in a team."""
    entries = Entry.objects.filter(tournament=tournament, side__isnull=False).exclude(status=Entry.Status.WITHDRAWN)
    return (Q(pk__in=entries.values("side__player_a")) | Q(pk__in=entries.values("side__player_b"))
            | Q(pk__in=TeamMember.objects.filter(tournament=tournament).values("player")))


def acceptances_record(tournament: Tournament, players: Iterable[Player], how: str, *, actor) -> list[int]:
    """Record that ``players`` (those with an account) stand behind ``tournament`` (``how``: an
    :class:`Acceptance.How`), inside the caller's transaction with the event locked, and give
    their consent to the event's matches that waited for it. Returns the ids of the matches whose
    consent changed. A player who had accepted already is left as he was."""
    ids = [player.pk for player in players if player.user_id is not None]
    if not ids:
        return []
    Acceptance.objects.bulk_create([Acceptance(tournament=tournament, player_id=pk, how=how) for pk in ids],
                                   ignore_conflicts=True)
    return _consents_given(tournament, ids, actor)


def _consents_given(tournament: Tournament, player_ids: list[int], actor) -> list[int]:
    sides = Q()
    for index in (0, 1):
        sides |= (Q(**{f"consent{index}": Match.Consent.PENDING})
                  & (Q(**{f"side{index}__player_a_id__in": player_ids})
                     | Q(**{f"side{index}__player_b_id__in": player_ids})))
    waiting = Match.objects.filter(sides, event_link__tournament=tournament).values_list("pk", flat=True)
    if not waiting:
        return []
    vouching = Vouching(tournament)
    changed = []
    loaded = Match.objects.with_side_ids().select_related(
        "side0__player_a", "side0__player_b", "side1__player_a", "side1__player_b")
    for match in locked_rows(loaded, waiting):
        now_consented = False
        for index, side in enumerate(match.sides):
            players = [p for p in (side.player_a, side.player_b) if p is not None]
            if match.consents[index] == Match.Consent.PENDING and vouching.vouches(players):
                now_consented = consent_by_side(match, index, actor, how="accepted the event") or now_consented
                changed.append(match.pk)
        if now_consented and match.status == Match.Status.CONFIRMED and match.rated:
            rating_dispatch(match.pk)
    return sorted(set(changed))


def acceptances_by(tournament: Tournament, players: Iterable[Player], user, how: str) -> list[int]:
    """What entering ``players`` in ``tournament`` says of them, when ``user`` entered them: staff
    vouch for everyone (``staff``); anyone else only for himself (``how``), never for the others
    he names (an invitation they accept: :func:`entry_accept`). Inside the caller's transaction,
    with the event locked; returns the ids of the matches whose consent changed."""
    players = list(players)
    if getattr(user, "is_staff", False):
        return acceptances_record(tournament, players, Acceptance.How.STAFF, actor=user)
    own = [player for player in players if player.user_id is not None and player.user_id == user.pk]
    for player in players:
        if player.user_id is not None and player.user_id != user.pk:
            # Told after the commit that the entry waits for his answer (services.notifications).
            outbox_enqueue(ENTRY_INVITED_TASK, tournament.pk, player.pk, user.pk)
    return acceptances_record(tournament, own, how, actor=user)


def is_accepted(tournament: Tournament, player: Player) -> bool:
    """Whether ``player`` stands behind ``tournament`` by his own act (or staff's)."""
    return Acceptance.objects.filter(tournament=tournament, player=player).exists()


@transaction.atomic
def entry_accept(*, tournament_id: int, user) -> Acceptance:
    """``user`` accepts his entry in the event (an organiser entered him, alone, in a pair or in a
    team): he stands behind its results from now on. His consent is given to every match of the
    event he played that waited for it (confirmed rated ones are then rated), when the event is
    run for him (see the module). Accepting twice changes nothing. Audited as ``entry.accepted``.

    Raises Tournament.DoesNotExist; NotAllowed ``no_player`` (no player profile); DomainError
    ``not_entered`` (he is not in the event).
    """
    tournament = tournament_lock(tournament_id)
    player = player_for_user(user)
    if player is None:
        raise errors.no_player()
    if not Player.objects.filter(entered_players(tournament), pk=player.pk).exists():
        raise errors.not_entered()
    existing = Acceptance.objects.filter(tournament=tournament, player=player).first()
    if existing is not None:
        return existing
    matches = acceptances_record(tournament, [player], Acceptance.How.ACCEPTED, actor=user)
    acceptance = Acceptance.objects.get(tournament=tournament, player=player)
    event_audit_record("entry.accepted", actor=user, tournament=tournament, obj=acceptance,
                       after={"player": player.display_name, "player_id": player.pk, "matches": matches})
    return acceptance
