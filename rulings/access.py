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

from django.db.models import Q

from matches.services.reporting import side_of_user, user_runs_match

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
    if match.organiser_id == user.pk or (match.event_id is not None and match.event.organiser_id == user.pk):
        return True
    return CommitteeMember.objects.filter(appeal__ruling__dispute=dispute, user=user).exists()


def disputes_visible_q(user) -> Q:
    """The filter on Dispute of what ``user`` may read (staff: everything)."""
    if user.is_staff:
        return Q()
    plays = Q()
    for side in ("side0", "side1"):
        for player in ("player_a", "player_b"):
            plays |= Q(**{f"match__{side}__{player}__user": user})
    committee = Q(pk__in=CommitteeMember.objects.filter(user=user).values("appeal__ruling__dispute"))
    return plays | Q(match__organiser=user) | Q(match__event__organiser=user) | committee


def on_committee(appeal: Appeal, user) -> bool:
    return _authenticated(user) and any(member.user_id == user.pk for member in appeal.committee.all())


def sees_votes(appeal: Appeal, user) -> bool:
    """The votes of an appeal are for its committee and the director (and staff); the parties
    see the decision only."""
    return on_committee(appeal, user) or directs(appeal.ruling.dispute, user)
