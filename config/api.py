"""Project-wide DRF plumbing: one error body, pagination.

Every error body has the shape ``{"detail": str, "code": str}`` plus, where they apply,
``"errors"`` (field -> messages; a service's refusal about one field too) and the location of a
bad match file, game log or chouette record (``file``, ``line``, ``game``, ``move``, ``side``,
``action``, ``rule``, ``action_index``, ``field``, ``step``, ``player``, the table's ``version``,
and the engine's ``reason`` behind a refusal).
"""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import OperationalError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from engine.errors import EngineError
from tournaments.draw.errors import DrawError

from .errors import DomainError

logger = logging.getLogger(__name__)

LOCATION_KEYS = ("file", "line", "game", "move", "side", "action", "rule", "action_index", "field", "step", "player",
                 "version", "reason")


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 100


def _flatten(detail) -> tuple[str, dict | None]:
    """A one-line summary of DRF validation details, and the field errors when there are some."""
    if isinstance(detail, dict):
        errors = {key: [str(m) for m in (value if isinstance(value, list) else [value])] for key, value in detail.items()}
        first_key = next(iter(errors), None)
        summary = f"{first_key}: {errors[first_key][0]}" if first_key else "invalid input"
        if first_key == "non_field_errors":
            summary = errors[first_key][0]
        return summary, errors
    if isinstance(detail, list):
        return (str(detail[0]) if detail else "invalid input"), None
    return str(detail), None


def exception_handler(exc, context):
    if isinstance(exc, (DomainError, EngineError, DrawError)):
        body = {"detail": exc.message, "code": exc.code}
        body.update({key: exc.details[key] for key in LOCATION_KEYS if exc.details.get(key) is not None})
        if isinstance(exc.details.get("field"), str):
            # The same shape as a serializer's refusal, so a client shows it beside the field.
            body.setdefault("errors", {exc.details["field"]: [exc.message]})
        status_code = getattr(exc, "status", status.HTTP_400_BAD_REQUEST)
        return Response(body, status=status_code)
    if isinstance(exc, RequestDataTooBig):
        return Response({"detail": "the request body is larger than the upload limit", "code": "body_too_large"},
                        status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    if isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, OperationalError) and "lock" in str(exc).lower():
        # Another request holds the row: the client may simply try again.
        response = Response({"detail": "busy, try again", "code": "locked"}, status=status.HTTP_409_CONFLICT)
        response["Retry-After"] = "1"
        return response
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    detail = response.data.get("detail") if isinstance(response.data, dict) and "detail" in response.data else response.data
    summary, errors = _flatten(detail)
    code = getattr(exc, "default_code", "error")
    if isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        if isinstance(codes, str):
            code = codes
    body = {"detail": summary, "code": code}
    if errors:
        body["errors"] = errors
    response.data = body
    return response
