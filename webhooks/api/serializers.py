"""The webhooks API's bodies: a subscription in (strict) and out, its secret, a delivery of the log."""

from __future__ import annotations

from rest_framework import serializers

from core.api import StrictInputSerializer

from ..models import Delivery, Subscription

URL_MAX = Subscription._meta.get_field("url").max_length
EVENTS_HELP = "Some of results, pairings and rulings."


class WebhookCreateSerializer(StrictInputSerializer):
    url = serializers.CharField(max_length=URL_MAX, help_text="https://... (http only to localhost while developing)")
    events = serializers.ListField(child=serializers.ChoiceField(choices=Subscription.Event.choices), min_length=1,
                                   max_length=len(Subscription.Event.values), help_text=EVENTS_HELP)
    active = serializers.BooleanField(required=False, default=True)

    class Meta:
        ref_name = "WebhookCreate"


class WebhookUpdateSerializer(StrictInputSerializer):
    url = serializers.CharField(max_length=URL_MAX, required=False)
    events = serializers.ListField(child=serializers.ChoiceField(choices=Subscription.Event.choices), min_length=1,
                                   max_length=len(Subscription.Event.values), required=False, help_text=EVENTS_HELP)
    active = serializers.BooleanField(required=False)

    class Meta:
        ref_name = "WebhookUpdate"


class WebhookNoBodySerializer(StrictInputSerializer):
    """An action without a body: any field sent is refused."""

    class Meta:
        ref_name = "WebhookNoBody"


class WebhookSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    event = serializers.IntegerField(source="tournament_id", allow_null=True, help_text="the event's id, or null")
    club = serializers.IntegerField(source="club_id", allow_null=True, help_text="the club's id, or null")
    url = serializers.CharField()
    events = serializers.ListField(child=serializers.ChoiceField(choices=Subscription.Event.choices))
    active = serializers.BooleanField()
    owner = serializers.CharField(source="owner.username", help_text="who made it (sees its secret)")
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "Webhook"


class WebhookCreatedSerializer(WebhookSerializer):
    secret = serializers.CharField(help_text="signs every delivery: shown now, and later to its owner only")

    class Meta:
        ref_name = "WebhookCreated"


class WebhookSecretSerializer(serializers.Serializer):
    secret = serializers.CharField()

    class Meta:
        ref_name = "WebhookSecret"


class DeliverySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    delivery = serializers.UUIDField(source="uid", help_text="the X-Crawford-Delivery header: the same on every retry")
    event = serializers.CharField(help_text="results, pairings or rulings")  # the events' enum is named once
    status = serializers.ChoiceField(choices=Delivery.Status.choices)
    attempts = serializers.IntegerField()
    last_status_code = serializers.IntegerField(allow_null=True, help_text="the receiver's last HTTP status, or null")
    last_error = serializers.CharField()
    next_attempt_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()
    delivered_at = serializers.DateTimeField(allow_null=True)
    redelivery_of = serializers.IntegerField(source="redelivery_of_id", allow_null=True)
    payload = serializers.JSONField(help_text="the body posted: type, id, occurred_at and data")

    class Meta:
        ref_name = "WebhookDelivery"
