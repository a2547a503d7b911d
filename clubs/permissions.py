"""Who is what in a club, and who may see and do what: the one rule the services, the API, the
pages (and the chouette tables) share.

Roles (``Membership.Role``), held only by an ACTIVE membership (a request or an invitation gives
no role at all):
- **owner**: everything an organiser does, and the membership itself: approves or declines
  requests, changes roles, removes members, edits the club. A club always keeps one owner.
- **organiser**: runs the club's life: invites people, opens and closes club nights, checks
  members in, creates and edits seasons, runs chouette tables.
- **member**: checks himself in, plays, sees the member-only pages.

Site staff has no role in a club by virtue of being staff: the money of a club's chouettes is the
club's business. Staff sees a club's rows in Django's admin (memberships, seasons and nights
read-only there: their changes go through the services and the audit log).

What is public and what is for members (a page and its API answer alike):
- public (anyone, logged in or not): the club list, the club page (its members' display names,
  ratings and last results, which the public player pages show already; its upcoming nights and
  events), the ladder of a season with its CSV export (derived from confirmed results, public on
  the match pages), the iCal feed of the club's events and nights;
- members only: the night pages (who came, the night's matches, the chouette sessions and each
  member's net chouette result); every chouette amount anywhere;
- managers only (owners and organisers): the pending requests and invitations.

An outsider asking for a member-only object of a club he is not in gets a 403 with the code
``not_club_member`` (the club and its nights are public knowledge; only their contents are not).
"""

from __future__ import annotations

from . import errors
from .models import Club, Membership

OWNER = Membership.Role.OWNER
ORGANISER = Membership.Role.ORGANISER
MEMBER = Membership.Role.MEMBER
MANAGERS = frozenset({OWNER, ORGANISER})


def _club_id(club) -> int:
    return club.pk if isinstance(club, Club) else int(club)


def club_role(club, user) -> str | None:
    """The role (``"owner"``, ``"organiser"`` or ``"member"``) of ``user`` in ``club`` (a Club or
    its id), or None: anonymous, not a member, or only asked to join or invited. One query;
    nothing is cached on the user, so a role changed a moment ago is seen at once."""
    if not getattr(user, "is_authenticated", False):
        return None
    return (Membership.objects.filter(club_id=_club_id(club), user_id=user.pk, status=Membership.Status.ACTIVE)
            .values_list("role", flat=True).first())


def require_club_member(club, user) -> str:
    """The user's role in the club; raises NotAllowed (``not_authenticated`` for an anonymous
    user, ``not_club_member`` otherwise) unless he is an active member (of any role)."""
    if not getattr(user, "is_authenticated", False):
        raise errors.not_logged_in()
    role = club_role(club, user)
    if role is None:
        raise errors.not_club_member()
    return role


def require_club_manager(club, user) -> str:
    """The user's role in the club; raises NotAllowed (``not_club_manager``) unless he is one of
    the club's owners or organisers."""
    if not getattr(user, "is_authenticated", False):
        raise errors.not_logged_in()
    role = club_role(club, user)
    if role not in MANAGERS:
        raise errors.not_club_manager()
    return role


def require_club_owner(club, user) -> str:
    """The user's role (``"owner"``); raises NotAllowed (``not_club_owner``) for anyone else."""
    if not getattr(user, "is_authenticated", False):
        raise errors.not_logged_in()
    role = club_role(club, user)
    if role != OWNER:
        raise errors.not_club_owner()
    return role
