"""Who may see a dispute, its rulings and its appeals: the rule the API and the pages share.

A dispute is private to the people it concerns: the match's players (both sides), its director
(the match's organiser, its event's organiser) and staff, and the members of the committees of
its appeals. Everyone else is answered as if it did not exist (404), as for another user's import
job: an outsider learns nothing, not even that a match was disputed. The event's rulings alone are
public (category, outcome, rule and date; see ``rulings_of_event``).

Who may *act* (rule, appeal, name a committee, vote) is for the services to say; these functions
only decide who may read, and return booleans or a filter without raising.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from matches.models import Match, Player, Side
from matches.services.reporting import side_of_user, user_runs_match
from tournaments.models import Tournament, event_of

from .models import Appeal, CommitteeMember, Dispute


def _authenticated(user) -> bool:
    return bool(getattr(user, "is_authenticated", False))


def directs(dispute: Dispute, user) -> bool:
    """The dispute's match's director or staff (``user_runs_match``: never one of its players)."""
    return user_runs_match(dispute.match, user)


def dispute_visible(dispute: Dispute, user) -> bool:
    """Whether ``user`` may read ``dispute`` (its match loaded with its sides and event)."""
    if not _authenticated(user):
        return False
    if user.is_staff or side_of_user(dispute.match, user) is not None:
        return True
    match = dispute.match
    event = event_of(match)
    if match.organiser_id == user.pk or (event is not None and event.organiser_id == user.pk):
        return True
    return CommitteeMember.objects.filter(appeal__ruling__dispute=dispute, user=user).exists()


def played_match_ids(user) -> QuerySet:
    """The ids of the matches ``user``'s player plays in (either side, alone or in a pair), as a
    subquery: the player's sides first, then the matches of those sides."""
    player = Player.objects.filter(user=user).values("pk")
    sides = Side.objects.filter(Q(player_a__in=player) | Q(player_b__in=player)).values("pk")
    return Match.objects.filter(Q(side0__in=sides) | Q(side1__in=sides)).values("pk")


def organised_match_ids(user) -> QuerySet:
    """The ids of the matches ``user`` organises, himself or as the organiser of their event (he may
    also play in some of them: see ``played_match_ids``), as a subquery."""
    events = Tournament.objects.filter(organiser=user).values("pk")
    return Match.objects.filter(Q(organiser=user) | Q(event_link__tournament__in=events)).values("pk")


def disputes_visible_q(user) -> Q:
    """The filter on Dispute of what ``user`` may read (staff: everything).

    Built from subqueries on the match id (the matches he plays in or organises) and the dispute id
    (the appeals he sits on) rather than joins: ORing joins through four player columns and the
    event made PostgreSQL spend 15 ms planning a 0.4 ms query (bench/clubs.py).
    """
    if user.is_staff:
        return Q()
    committee = CommitteeMember.objects.filter(user=user).values("appeal__ruling__dispute")
    return (Q(match_id__in=played_match_ids(user)) | Q(match_id__in=organised_match_ids(user))
            | Q(pk__in=committee))


def on_committee(appeal: Appeal, user) -> bool:
    return _authenticated(user) and any(member.user_id == user.pk for member in appeal.committee.all())


def sees_votes(appeal: Appeal, user) -> bool:
    """The votes of an appeal are for its committee and the director (and staff); the parties
    see the decision only."""
    return on_committee(appeal, user) or directs(appeal.ruling.dispute, user)
