"""API: exchange a username and password for the token the API uses (``Authorization: Token …``).

The password is checked by ``django.contrib.auth.authenticate`` with the request, so the sign-in
lockout (django-axes) counts failures here exactly as on the sign-in page: after too many for one
username from one address, even the right password gets a 429 ``locked_out`` until the cool-off
ends. A token handed out is a sign-in: it resets the failures and sets ``last_login``.
"""

from django.contrib.auth import authenticate
from django.contrib.auth.signals import user_logged_in
from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ApiErrorSerializer, StrictInputSerializer
from core.errors import DomainError
from core.parsers import JSONParser

from .lockout import LockedOut, seconds_left


class TokenObtainApi(APIView):
    permission_classes = [AllowAny]
    parser_classes = [JSONParser, FormParser, MultiPartParser]

    class InputSerializer(StrictInputSerializer):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=4096, trim_whitespace=False, style={"input_type": "password"})

        class Meta:
            ref_name = "TokenRequest"

    class OutputSerializer(serializers.Serializer):
        token = serializers.CharField()

        class Meta:
            ref_name = "TokenResponse"

    @extend_schema(
        operation_id="auth_token_create", tags=["auth"], summary="Get your API token with your password",
        request=InputSerializer,
        responses={200: OutputSerializer, 400: ApiErrorSerializer,
                   429: OpenApiResponse(ApiErrorSerializer, description="too many failed sign-ins for this username "
                                                                         "from this address (code locked_out, with "
                                                                         "Retry-After), or too many requests")},
    )
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        credentials = serializer.validated_data
        user = authenticate(request=request, username=credentials["username"], password=credentials["password"])
        if user is None:
            if getattr(request, "axes_locked_out", False):
                raise LockedOut(wait=seconds_left(request, {"username": credentials["username"]}))
            raise DomainError("unable to sign in with these credentials", code="invalid_credentials")
        user_logged_in.send(sender=type(user), request=request, user=user)
        token, _ = Token.objects.get_or_create(user=user)
        return Response(self.OutputSerializer({"token": token.key}).data)


urlpatterns = [
    path("auth/token/", TokenObtainApi.as_view(), name="api-token"),
]
