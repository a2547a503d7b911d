"""What the rulings endpoints share: their base view (a hidden dispute, ruling or appeal is a
404), their error responses, reading a strict body, and loading a dispute, ruling or appeal
for a user who may read it (``rulings.access``)."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated

from core.api import ApiErrorSerializer, BaseApi
from core.parsers import JSONParser
from matches.models import Match
from rulings import access, selectors
from rulings.models import Appeal, Dispute, Ruling
from rulings.selectors import dispute_detail

TAGS = ["rulings"]
WRITE_ERRORS = {
    400: ApiErrorSerializer, 401: ApiErrorSerializer, 403: ApiErrorSerializer, 404: ApiErrorSerializer,
    409: ApiErrorSerializer, 429: ApiErrorSerializer,
}
READ_ERRORS = {401: ApiErrorSerializer, 404: ApiErrorSerializer}

MISSING = {Dispute.DoesNotExist: gettext_lazy("there is no such dispute"),
           Ruling.DoesNotExist: gettext_lazy("there is no such ruling"),
           Appeal.DoesNotExist: gettext_lazy("there is no such appeal"),
           Match.DoesNotExist: gettext_lazy("there is no such match")}


class RulingsBaseApi(BaseApi):
    """The rulings API's views: JSON bodies, authenticated callers.

    A row that vanished between the view's read and the service's lock is a 404 like any unknown
    one (core/api.py lists a refusal's ``field`` in ``errors``, as for a bad body).
    """

    parser_classes = [JSONParser]
    permission_classes = [IsAuthenticated]

    def handle_exception(self, exc):
        for missing, message in MISSING.items():
            if isinstance(exc, missing):
                exc = NotFound(str(message))
        return super().handle_exception(exc)


def read_body(serializer_class, request) -> dict:
    """The request's body as ``serializer_class`` validates it (a 400 when it does not)."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def dispute_loaded(dispute_id: int, user) -> Dispute:
    """The dispute with everything its detail shows (``selectors.dispute_detail``), if ``user``
    may read it; else a 404."""
    try:
        dispute = dispute_detail(dispute_id).dispute
    except Dispute.DoesNotExist:
        raise NotFound(gettext("there is no dispute %(id)s") % {"id": dispute_id}) from None
    if not access.dispute_visible(dispute, user):
        raise NotFound(gettext("there is no dispute %(id)s") % {"id": dispute_id})
    return dispute


def ruling_loaded(ruling_id: int, user) -> Ruling:
    """The ruling (``selectors.ruling_visible``), if ``user`` may read its dispute; else a 404."""
    ruling = selectors.ruling_visible(ruling_id, user)
    if ruling is None:
        raise NotFound(gettext("there is no ruling %(id)s") % {"id": ruling_id})
    return ruling


def appeal_loaded(appeal_id: int, user) -> Appeal:
    """The appeal (``selectors.appeal_visible``), if ``user`` may read its dispute; else a 404."""
    appeal = selectors.appeal_visible(appeal_id, user)
    if appeal is None:
        raise NotFound(gettext("there is no appeal %(id)s") % {"id": appeal_id})
    return appeal
