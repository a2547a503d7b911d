"""API: exchange a username and password for the token the API uses (``Authorization: Token …``)."""

from django.urls import path
from rest_framework.authtoken.views import ObtainAuthToken

urlpatterns = [
    path("auth/token/", ObtainAuthToken.as_view(), name="api-token"),
]
