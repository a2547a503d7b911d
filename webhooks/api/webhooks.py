"""API of the webhooks, under /api/v1/: an event's and a club's subscriptions
(``tournaments/<id>/webhooks/``, ``clubs/<id>/webhooks/``), one subscription (``webhooks/<id>/``:
read, change, remove), its secret (its owner only), its delivery log and a delivery sent again.

Who: the event's organiser and staff, or the club's owners and organisers (403
``not_webhook_manager`` for anyone else, checked before a body is read; anonymous 401); the secret
to the subscription's owner only (403 ``not_webhook_owner``). 400 ``bad_webhook`` with ``field``
(an address that is not https, not public, or events unknown); 404 for an unknown event, club,
webhook or delivery (or another webhook's delivery); 409 ``webhook_inactive`` to redeliver on a
switched-off webhook.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from clubs.models import Club
from core.api import ApiErrorSerializer, BaseApi, Pagination, paginated_response
from core.parsers import JSONParser
from tournaments.models import Tournament

from .. import selectors, services
from ..models import Delivery, Subscription
from .serializers import (
    DeliverySerializer,
    WebhookCreatedSerializer,
    WebhookCreateSerializer,
    WebhookNoBodySerializer,
    WebhookSecretSerializer,
    WebhookSerializer,
    WebhookUpdateSerializer,
)

TAGS = ["webhooks"]
ERRORS = {401: ApiErrorSerializer, 403: ApiErrorSerializer, 404: ApiErrorSerializer}
WRITE_ERRORS = {400: ApiErrorSerializer, **ERRORS}

# Whole sentences, one per kind of row.
NOT_FOUND = {Tournament.DoesNotExist: gettext_lazy("there is no such event here"),
             Club.DoesNotExist: gettext_lazy("there is no such club here"),
             Subscription.DoesNotExist: gettext_lazy("there is no such webhook here"),
             Delivery.DoesNotExist: gettext_lazy("there is no such delivery of this webhook")}


def _body(serializer_class, request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class WebhookBaseApi(BaseApi):
    """JSON bodies; signed in, always (401 first); an unknown row is a 404 with a sentence."""

    parser_classes = [JSONParser]
    permission_classes = [IsAuthenticated]

    def handle_exception(self, exc):
        for missing, text in NOT_FOUND.items():
            if isinstance(exc, missing):
                exc = NotFound(str(text))
                break
        return super().handle_exception(exc)


class _TargetWebhooksApi(WebhookBaseApi):
    """The webhooks of one target: ``target_model`` (an event or a club), read by key and passed
    to the selectors and services under ``target_name``."""

    pagination_class = Pagination
    target_model: type
    target_name: str

    def target(self, request, pk: int) -> dict:
        return {self.target_name: self.target_model.objects.get(pk=pk)}

    def _list(self, request, pk: int):
        target = self.target(request, pk)
        selectors.require_manager(request.user, **target)
        return paginated_response(request=request, view=self, queryset=selectors.subscription_list(**target),
                                  serializer_class=WebhookSerializer)

    def _create(self, request, pk: int):
        target = self.target(request, pk)
        selectors.require_manager(request.user, **target)
        body = _body(WebhookCreateSerializer, request)
        subscription = services.subscription_create(user=request.user, **target, **body)
        return Response(WebhookCreatedSerializer(subscription).data, status=status.HTTP_201_CREATED)


class EventWebhooksApi(_TargetWebhooksApi):
    target_model, target_name = Tournament, "tournament"

    @extend_schema(operation_id="tournaments_webhooks_list", tags=TAGS, summary="The event's webhooks",
                   description="Its organiser and staff. Paginated; never the secrets.",
                   responses={200: WebhookSerializer(many=True), **ERRORS})
    def get(self, request, tournament_id: int):
        return self._list(request, tournament_id)

    @extend_schema(operation_id="tournaments_webhooks_create", tags=TAGS, summary="Subscribe a URL to the event",
                   description="Its organiser and staff. The answer carries the secret that signs every delivery.",
                   request=WebhookCreateSerializer, responses={201: WebhookCreatedSerializer, **WRITE_ERRORS})
    def post(self, request, tournament_id: int):
        return self._create(request, tournament_id)


class ClubWebhooksApi(_TargetWebhooksApi):
    target_model, target_name = Club, "club"

    @extend_schema(operation_id="clubs_webhooks_list", tags=TAGS, summary="The club's webhooks",
                   description="Its owners and organisers. Paginated; never the secrets.",
                   responses={200: WebhookSerializer(many=True), **ERRORS})
    def get(self, request, club_id: int):
        return self._list(request, club_id)

    @extend_schema(operation_id="clubs_webhooks_create", tags=TAGS, summary="Subscribe a URL to the club",
                   description="Its owners and organisers. The answer carries the secret that signs every delivery.",
                   request=WebhookCreateSerializer, responses={201: WebhookCreatedSerializer, **WRITE_ERRORS})
    def post(self, request, club_id: int):
        return self._create(request, club_id)


class WebhookDetailApi(WebhookBaseApi):
    @extend_schema(operation_id="webhooks_retrieve", tags=TAGS, summary="A webhook",
                   responses={200: WebhookSerializer, **ERRORS})
    def get(self, request, subscription_id: int):
        subscription = selectors.subscription_get(subscription_id=subscription_id, user=request.user)
        return Response(WebhookSerializer(subscription).data)

    @extend_schema(operation_id="webhooks_update", tags=TAGS, summary="Change a webhook's URL, events or switch",
                   request=WebhookUpdateSerializer, responses={200: WebhookSerializer, **WRITE_ERRORS})
    def patch(self, request, subscription_id: int):
        selectors.subscription_get(subscription_id=subscription_id, user=request.user)
        body = _body(WebhookUpdateSerializer, request)
        subscription = services.subscription_update(subscription_id=subscription_id, user=request.user, **body)
        return Response(WebhookSerializer(selectors.subscription_get(subscription_id=subscription.pk,
                                                                     user=request.user)).data)

    @extend_schema(operation_id="webhooks_destroy", tags=TAGS, summary="Remove a webhook and its delivery log",
                   request=None, responses={204: None, **ERRORS})
    def delete(self, request, subscription_id: int):
        services.subscription_delete(subscription_id=subscription_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookSecretApi(WebhookBaseApi):
    @extend_schema(operation_id="webhooks_secret", tags=TAGS, summary="A webhook's signing secret (its owner)",
                   description="HMAC-SHA256 of \"<t>.<body>\" under it is the v1 of X-Crawford-Signature.",
                   responses={200: WebhookSecretSerializer, **ERRORS})
    def get(self, request, subscription_id: int):
        secret = services.subscription_secret(subscription_id=subscription_id, user=request.user)
        return Response(WebhookSecretSerializer({"secret": secret}).data)


class WebhookDeliveriesApi(WebhookBaseApi):
    pagination_class = Pagination

    @extend_schema(operation_id="webhooks_deliveries_list", tags=TAGS, summary="A webhook's delivery log, newest first",
                   description="Status, attempts, the receiver's last answer and the body posted. Paginated.",
                   responses={200: DeliverySerializer(many=True), **ERRORS})
    def get(self, request, subscription_id: int):
        subscription = selectors.subscription_get(subscription_id=subscription_id, user=request.user)
        return paginated_response(request=request, view=self, queryset=selectors.delivery_log(subscription=subscription,
                                                                                              with_payload=True),
                                  serializer_class=DeliverySerializer)


class WebhookRedeliverApi(WebhookBaseApi):
    @extend_schema(operation_id="webhooks_deliveries_redeliver", tags=TAGS, summary="Send a delivery again",
                   description="A new delivery (its own X-Crawford-Delivery and attempts) of the same body. "
                               "409 webhook_inactive on a switched-off webhook.",
                   request=WebhookNoBodySerializer,
                   responses={201: DeliverySerializer, 409: ApiErrorSerializer, **WRITE_ERRORS})
    def post(self, request, subscription_id: int, delivery_id: int):
        selectors.subscription_get(subscription_id=subscription_id, user=request.user)
        _body(WebhookNoBodySerializer, request)
        delivery = services.delivery_redeliver(subscription_id=subscription_id, delivery_id=delivery_id,
                                               user=request.user)
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_201_CREATED)
