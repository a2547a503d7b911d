"""Reads of the organiser role: a user's own requests, staff's queue, the organisers."""

from __future__ import annotations

from django.db.models import QuerySet

from ..models import User
from ..models_requests import OrganiserRequest


def organiser_request_list(*, user, status: str | None = None, own: bool = False) -> QuerySet[OrganiserRequest]:
    """The requests ``user`` may see, newest first: all of them for staff (unless ``own``), else
    his own; only those of ``status`` when given. The applicant and his player (whose name is
    shown) joined."""
    requests = OrganiserRequest.objects.select_related("user__player")
    if own or not user.is_staff:
        requests = requests.filter(user_id=user.pk)
    if status:
        requests = requests.filter(status=status)
    return requests.order_by("-created_at", "-id")


def organiser_request_get(*, request_id: int, user) -> OrganiserRequest:
    """One request ``user`` may see (staff: any; others: their own). Raises
    OrganiserRequest.DoesNotExist, also for another's request (it is not his to know of)."""
    return organiser_request_list(user=user).get(pk=request_id)


def organiser_list() -> QuerySet[User]:
    """The users holding the organiser role (staff are organisers by being staff, not listed), by
    username, with their player (whose name is shown)."""
    return User.objects.filter(role=User.Role.ORGANISER).select_related("player").order_by("username")
