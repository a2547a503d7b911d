"""API routes of the webhooks, mounted under /api/v1/ (config/urls.py)."""

from django.urls import path

from . import webhooks

urlpatterns = [
    path("tournaments/<int:tournament_id>/webhooks/", webhooks.EventWebhooksApi.as_view(), name="api-tournament-webhooks"),
    path("clubs/<int:club_id>/webhooks/", webhooks.ClubWebhooksApi.as_view(), name="api-club-webhooks"),
    path("webhooks/<int:subscription_id>/", webhooks.WebhookDetailApi.as_view(), name="api-webhook"),
    path("webhooks/<int:subscription_id>/secret/", webhooks.WebhookSecretApi.as_view(), name="api-webhook-secret"),
    path("webhooks/<int:subscription_id>/deliveries/", webhooks.WebhookDeliveriesApi.as_view(),
         name="api-webhook-deliveries"),
    path("webhooks/<int:subscription_id>/deliveries/<int:delivery_id>/redeliver/", webhooks.WebhookRedeliverApi.as_view(),
         name="api-webhook-redeliver"),
]
