"""Token authentication that loads the user's player profile in the same query: every write
endpoint needs it to tell which side the user plays on."""

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from core.prepared import prepared

from .models import ApiToken
from .models_tokens import key_digest
from .services import api_token_used


class PlayerTokenAuthentication(TokenAuthentication):
    """DRF's token authentication (``Authorization: Token <key>``) over the house's tokens
    (accounts.models.ApiToken: looked up by the key's digest), with the player joined (one query
    instead of two), its query compiled once per thread (``core.prepared``: every authenticated API
    request runs it). The token's last use is noted every few minutes, not on every request."""

    model = ApiToken

    def authenticate_credentials(self, key):
        query = prepared("accounts.apitoken", lambda: ApiToken.objects.select_related("user__player"), ApiToken,
                         field="key_digest", kind=str)
        try:
            token = query.one(key_digest(key))
        except ApiToken.DoesNotExist:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        api_token_used(token)
        return (token.user, token)
