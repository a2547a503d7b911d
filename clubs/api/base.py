"""What the clubs API and the APIs standing on clubs (the chouette tables) share: the base view of a
club's endpoints, reading a strict body, and the check of a member-only read; and what the clubs
API's resources share: their tags and error responses, a club by its id, a file download."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import NotAuthenticated, NotFound
from rest_framework.permissions import AllowAny, IsAuthenticated

from core.api import ApiErrorSerializer, BaseApi
from core.parsers import JSONParser

from .. import selectors
from ..models import Club, ClubNight, Membership, Season
from ..permissions import require_club_member

# Whole sentences, one per kind of row: a translator never sees a sentence glued from a noun.
NOT_FOUND = {Club.DoesNotExist: _("there is no such club here"),
             Membership.DoesNotExist: _("there is no such membership here"),
             Season.DoesNotExist: _("there is no such season here"),
             ClubNight.DoesNotExist: _("there is no such club night here")}


class ClubBaseApi(BaseApi):
    """JSON bodies; a club, season or night unknown here (or vanished between the view's read and
    the service's lock, or another club's) is a 404."""

    parser_classes = [JSONParser]

    def handle_exception(self, exc):
        for missing, text in NOT_FOUND.items():
            if isinstance(exc, missing):
                exc = NotFound(str(text))
                break
        return super().handle_exception(exc)

    def get_permissions(self):
        # Reads are public or checked per object (member-only); writes need a user (401 first).
        if self.request is not None and self.request.method in ("GET", "HEAD", "OPTIONS"):
            return [AllowAny()]
        return [IsAuthenticated()]


def read_body(serializer_class, request) -> dict:
    """The request's body as ``serializer_class`` validates it; a 400 naming the field otherwise."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def require_member_reader(club: Club, user) -> None:
    """A member-only read: 401 for an anonymous visitor, 403 ``not_club_member`` for an outsider."""
    if not getattr(user, "is_authenticated", False):
        raise NotAuthenticated()
    require_club_member(club, user)


TAGS = ["clubs"]
WRITE_ERRORS = {
    400: ApiErrorSerializer, 401: ApiErrorSerializer, 403: ApiErrorSerializer, 404: ApiErrorSerializer,
    409: ApiErrorSerializer,
}
MEMBER_READ_ERRORS = {401: ApiErrorSerializer, 403: ApiErrorSerializer, 404: ApiErrorSerializer}
READ_ERRORS = {404: ApiErrorSerializer}


def club_by_id(club_id: int) -> Club:
    """The club ``club_id``, with its member count; raises Club.DoesNotExist, which a club's
    endpoint (:class:`~clubs.api.base.ClubBaseApi`) answers with a 404."""
    return selectors.club_get(club_id=club_id)


class FileApi(ClubBaseApi):
    """A file download: the file's type whatever the Accept header (errors stay JSON)."""

    def perform_content_negotiation(self, request, force=False):
        return super().perform_content_negotiation(request, force=True)
