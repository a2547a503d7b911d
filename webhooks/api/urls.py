"""API routes of the webhooks, mounted under /api/v1/ (config/urls.py)."""

from django.urls import path

from . import views

urlpatterns = [
    path("tournaments/<int:tournament_id>/webhooks/", views.EventWebhooksApi.as_view(), name="api-tournament-webhooks"),
    path("clubs/<int:club_id>/webhooks/", views.ClubWebhooksApi.as_view(), name="api-club-webhooks"),
    path("webhooks/<int:subscription_id>/", views.WebhookDetailApi.as_view(), name="api-webhook"),
    path("webhooks/<int:subscription_id>/secret/", views.WebhookSecretApi.as_view(), name="api-webhook-secret"),
    path("webhooks/<int:subscription_id>/deliveries/", views.WebhookDeliveriesApi.as_view(),
         name="api-webhook-deliveries"),
    path("webhooks/<int:subscription_id>/deliveries/<int:delivery_id>/redeliver/", views.WebhookRedeliverApi.as_view(),
         name="api-webhook-redeliver"),
]
