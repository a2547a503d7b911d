"""What the account endpoints share: their base view (no authentication, throttled per address),
the password field, allauth's form errors and per-address email limit as the API's, and their
error responses."""

from __future__ import annotations

from allauth.core import ratelimit
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny

from core import throttles
from core.api import ApiErrorSerializer, BaseApi
from core.parsers import JSONParser

PASSWORD_MAX = 4096
SENT = gettext_lazy("if the address belongs to an account, an email with a link is on its way to it")
UNVERIFIED = gettext_lazy("your email address is not verified yet: follow the link we emailed you, or ask for it "
                          "again")


def password_field(**options):
    """A password in a request body: never trimmed, at most PASSWORD_MAX characters."""
    return serializers.CharField(max_length=PASSWORD_MAX, trim_whitespace=False, style={"input_type": "password"},
                                 **options)


def form_errors(form, names: dict[str, str] | None = None) -> exceptions.ValidationError:
    """A form's refusal as the API's: field -> messages, allauth's field names given ours."""
    names = names or {}
    errors = {}
    for field, messages in form.errors.items():
        key = "non_field_errors" if field == "__all__" else names.get(field, field)
        errors.setdefault(key, []).extend(str(message) for message in messages)
    return exceptions.ValidationError(errors)


def http_request(request):
    """The Django request under a DRF one (allauth's flows and ``login`` take Django's)."""
    return getattr(request, "_request", request)


def allauth_limit(request, action: str, key: str) -> None:
    """allauth's per-address email limit (``ACCOUNT_RATE_LIMITS``), as the API's 429."""
    if not ratelimit.consume(http_request(request), action=action, key=key.lower()):
        raise exceptions.Throttled(detail=_("too many emails asked for this address; try again later"))


class AccountApi(BaseApi):
    """The accounts' views: no authentication needed, throttled per address (``accounts``)."""

    permission_classes = [AllowAny]
    throttle_classes = throttles.ACCOUNTS
    parser_classes = [JSONParser, FormParser, MultiPartParser]


ERRORS = {400: ApiErrorSerializer,
          429: OpenApiResponse(ApiErrorSerializer, description="too many requests from this address")}
