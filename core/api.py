"""The API's plumbing, shared by every app's API: the views' base class (:class:`BaseApi`), strict
input serializers (:class:`StrictInputSerializer`), pagination, and one error body for every refusal
(:func:`exception_handler`, documented by :class:`ApiErrorSerializer`).

Every error body has the shape ``{"detail": str, "code": str}`` plus, where they apply,
``"errors"`` (field -> messages; a service's refusal about one field too) and the location of a
bad match file, game log or chouette record (``file``, ``line``, ``game``, ``move``, ``side``,
``action``, ``rule``, ``action_index``, ``field``, ``step``, ``player``, the table's ``version``,
and the engine's ``reason`` behind a refusal).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.http import Http404, HttpResponse, JsonResponse
from django.template.defaultfilters import filesizeformat
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from rest_framework import exceptions, serializers, status
from rest_framework.fields import SkipField, is_simple_callable
from rest_framework.pagination import PageNumberPagination
from rest_framework.relations import PKOnlyObject
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.utils import html
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from engine.errors import EngineError
from tournaments.draw.errors import DrawError

from .bounds import INT_MAX, INT_MIN
from .engine_messages import reads_english, refusal_text
from .errors import DomainError, Locked
from .labels import field_label, field_refusal
from .locking import lock_failed

logger = logging.getLogger(__name__)

LOCATION_KEYS = ("file", "line", "game", "move", "side", "action", "rule", "action_index", "field", "step", "player",
                 "version", "reason")


class Pagination(PageNumberPagination):
    """25 a page; ``page`` from 1 and ``page_size`` from 1 to 100, whole numbers, else a 400 naming
    the parameter (DRF would take a bad ``page_size`` silently as the default and a bad ``page``
    as "no such page"). A page past the last is a 404."""

    page_size_query_param = "page_size"
    max_page_size = 100
    last_page_strings = ()

    def get_page_number(self, request, paginator):
        return _whole_parameter(request, self.page_query_param, INT_MAX) or 1

    def get_page_size(self, request):
        return _whole_parameter(request, self.page_size_query_param, self.max_page_size) or self.page_size

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        ceilings = {self.page_query_param: INT_MAX, self.page_size_query_param: self.max_page_size}
        for parameter in parameters:
            if parameter["name"] in ceilings:
                parameter["schema"].update(minimum=1, maximum=ceilings[parameter["name"]])
        return parameters


def _whole_parameter(request, name: str, ceiling: int) -> int | None:
    """The query parameter ``name`` as a whole number from 1 to ``ceiling``; None when absent."""
    if name not in request.query_params:
        return None
    text = request.query_params[name]
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(ceiling)) and 1 <= int(text) <= ceiling):
        raise exceptions.ValidationError(
            {name: [_("%(name)s is a whole number from 1 to %(ceiling)d") % {"name": name, "ceiling": ceiling}]})
    return int(text)


def paginated_response(*, request, view, queryset, serializer_class):
    """One page of ``queryset`` (:class:`Pagination`: 25 a page, ``page_size`` up to 100)."""
    paginator = Pagination()
    page = paginator.paginate_queryset(queryset, request, view=view)
    return paginator.get_paginated_response(serializer_class(page, many=True).data)


# --- the request body's size ----------------------------------------------------------------------


BODY_TOO_LARGE = gettext_noop("the request body is over the limit of %(limit)s")


def body_too_large(*, limit: int, api: bool) -> HttpResponse:
    """The one 413 answer for a request body over a limit (the whole body's, checked by
    config.middleware before anything reads it, or a form's, met while DRF reads it): the API's
    error body, or a line of text for a page. The limit in the reader's units ("20.0 MB")."""
    shown = filesizeformat(limit)
    if api:
        return JsonResponse({"detail": _(BODY_TOO_LARGE) % {"limit": shown}, "code": "body_too_large"}, status=413)
    return HttpResponse(_("The request body is over the limit of %(limit)s.") % {"limit": shown}, status=413,
                        content_type="text/plain; charset=utf-8")


def _body_too_large_api() -> Response:
    limit = filesizeformat(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    return Response({"detail": _(BODY_TOO_LARGE) % {"limit": limit}, "code": "body_too_large"},
                    status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)


# --- views and input ------------------------------------------------------------------------------


class BaseApi(APIView):
    """Every app's API views derive from it: the project's authentication, throttles and error body
    (config/settings.py's REST_FRAMEWORK, :func:`exception_handler`) with a strict reading of input
    through :class:`StrictInputSerializer`."""


JSON = "application/json"


def json_body(data) -> bytes:
    """``data`` as the API's JSON renderer writes it: the bytes a :class:`BytesAnswer` carries."""
    return JSONRenderer().render(data)


class BytesAnswer(Response):
    """A JSON answer rendered once (by :func:`json_body`), whose bytes are kept or cached and sent
    as they are: the renderer runs again only for a client that asks for another rendering (the
    browsable API, an indented JSON). ``data`` is the body decoded, read only when asked for."""

    def __init__(self, body: bytes, status: int | None = None):
        self.body_bytes = body
        super().__init__(data=None, status=status)

    @property
    def data(self):
        if self._data is None:
            self._data = json.loads(self.body_bytes)
        return self._data

    @data.setter
    def data(self, value) -> None:
        self._data = value

    @property
    def rendered_content(self):
        renderer = getattr(self, "accepted_renderer", None)
        if type(renderer) is JSONRenderer and renderer.get_indent(self.accepted_media_type,
                                                                  self.renderer_context) is None:
            self["Content-Type"] = self.content_type or renderer.media_type
            return self.body_bytes
        return super().rendered_content


#: Off only in the tests that compare :class:`PlainOutput` with DRF's own ``to_representation``.
PLAIN_OUTPUT = True


class PlainOutput:
    """For output serializers (never for input): ``to_representation`` as DRF's, field for field
    and value for value, with the plan of the readable fields made once per serializer and each
    field's value read directly (DRF's generic reading, through ``Field.get_attribute``, asks of
    every value whether it is a mapping or a callable, which costs more than most fields' own
    ``to_representation``). A value it cannot read so (a missing attribute or key) is read DRF's
    way, with DRF's defaults, nulls and messages. A result's answer is built with it on the path of
    every report."""

    def to_representation(self, instance):
        if not PLAIN_OUTPUT:
            return super().to_representation(instance)
        plan = self.__dict__.get("_output_plan")
        if plan is None:
            plan = self.__dict__["_output_plan"] = [
                (field.field_name, field, tuple(field.source_attrs)) for field in self._readable_fields]
        ret = {}
        for name, field, attrs in plan:
            try:
                attribute = _attribute(instance, attrs)
            except (AttributeError, KeyError):
                try:
                    attribute = field.get_attribute(instance)
                except SkipField:
                    continue
            if attribute is None or (isinstance(attribute, PKOnlyObject) and attribute.pk is None):
                ret[name] = None
            else:
                ret[name] = field.to_representation(attribute)
        return ret


def _attribute(instance, attrs: tuple):
    # DRF's fields.get_attribute, with a plain dict and a non-callable value told apart cheaply.
    for attr in attrs:
        if type(instance) is dict:
            instance = instance[attr]
        else:
            try:
                instance = getattr(instance, attr)
            except ObjectDoesNotExist:
                return None
        if callable(instance) and is_simple_callable(instance):
            instance = instance()
    return instance


class StrictInputSerializer(serializers.Serializer):
    """A serializer that takes nothing but what its schema says.

    - It refuses any field it does not declare as writable: a client can never slip ``status``,
      ``winner``, ``score`` or ``rating`` into a request (no mass assignment), and a typo is an
      error instead of being silently ignored. ``read_only_names`` lists fields clients see in
      responses but may never set: they are refused as "read-only" rather than "unknown", which
      tells a client what went wrong. ``allowed_extra`` names keys that are accepted and ignored
      (``page`` in a query string). The schema says so: ``additionalProperties: false``
      (config/schema.py).
    - Every whole number is bounded: a field that names no maximum (or minimum) gets the
      database's, :data:`INT_MAX` (:data:`INT_MIN`), so a number no column holds is a 400 naming
      its field, never a database error (core/bounds.py). The domain's own bounds are on the fields.
    - In a JSON body each value has its schema's type: a text field takes a string only, a whole
      number an integer only (not ``"5"`` nor ``5.0``), a flag ``true`` or ``false`` only (DRF
      would turn ``0`` into ``"0"`` and ``"yes"`` into true). A query string or a form carries
      text only, which the fields read as DRF does; but an empty value (``?status=``) is refused
      unless the field takes an empty text, where DRF would take it as no value at all.
    """

    read_only_names: tuple[str, ...] = ()
    allowed_extra: tuple[str, ...] = ()

    def is_valid(self, *, raise_exception=False):
        """DRF's, but a refusal raised carries the fields' labels (``labels``: name -> label), so
        that the error body's ``detail`` names a field as people read it (:func:`exception_handler`);
        its ``errors`` keep the fields' names."""
        valid = super().is_valid(raise_exception=False)
        if not valid and raise_exception:
            error = serializers.ValidationError(self.errors)
            error.labels = {name: field.label for name, field in self.fields.items() if field.label}
            raise error
        return valid

    @cached_property
    def fields(self):
        fields = super().fields
        for field in fields.values():
            _tighten(field)
        return fields

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            writable = {name for name, field in self.fields.items() if not field.read_only}
            extra = sorted(key for key in data if key not in writable and key not in self.allowed_extra)
            if extra:
                raise serializers.ValidationError({
                    key: ["this field is read-only" if key in self.read_only_names else "unknown field"]
                    for key in extra
                })
            if html.is_html_input(data):
                empty = [name for name in sorted(writable) if name in data and data.get(name) == ""
                         and not getattr(self.fields[name], "allow_blank", False)]
                if empty:
                    raise serializers.ValidationError({name: [_("this may not be empty; leave it out instead")]
                                                       for name in empty})
        return super().to_internal_value(data)


def _tighten(field) -> None:
    """Bound ``field``'s whole numbers and type its JSON values (:class:`StrictInputSerializer`),
    inside lists, dicts and nested serializers too."""
    if isinstance(field, StrictInputSerializer):
        return  # it tightens its own fields
    if isinstance(field, serializers.ListSerializer):
        _tighten(field.child)
    elif isinstance(field, serializers.Serializer):
        for inner in field.fields.values():
            _tighten(inner)
    elif isinstance(field, (serializers.ListField, serializers.DictField)):
        _tighten(field.child)
    elif isinstance(field, serializers.IntegerField):
        if field.max_value is None:
            field.max_value = INT_MAX
            field.validators.append(MaxValueValidator(
                INT_MAX, message=field.error_messages["max_value"].format(max_value=INT_MAX)))
        if field.min_value is None:
            field.min_value = INT_MIN
            field.validators.append(MinValueValidator(
                INT_MIN, message=field.error_messages["min_value"].format(min_value=INT_MIN)))
        _typed(field, lambda value: isinstance(value, int) and not isinstance(value, bool))
    elif isinstance(field, serializers.PrimaryKeyRelatedField) and field.pk_field is None:
        _typed(field, lambda value: isinstance(value, int) and not isinstance(value, bool), error="incorrect_type")
    elif isinstance(field, serializers.CharField):
        _typed(field, lambda value: isinstance(value, str))
    elif isinstance(field, serializers.BooleanField):
        _typed(field, lambda value: isinstance(value, bool))
    elif (isinstance(field, serializers.ChoiceField) and not isinstance(field, serializers.MultipleChoiceField)
          and all(isinstance(key, str) for key in field.choices)):
        _typed(field, lambda value: isinstance(value, str), error="invalid_choice")


def _typed(field, is_json_type, *, error: str = "invalid") -> None:
    """Make ``field`` refuse (its ``error``) a JSON value that ``is_json_type`` refuses; text from a
    query string or a form goes to the field as before."""
    lenient = field.to_internal_value

    def to_internal_value(data):
        from_text = html.is_html_input(getattr(field.root, "initial_data", None))
        if not (isinstance(data, str) if from_text else is_json_type(data)):
            field.fail(error, input=data, data_type=type(data).__name__)
        return lenient(data)

    field.to_internal_value = to_internal_value


# --- the error body -------------------------------------------------------------------------------


class ApiErrorSerializer(serializers.Serializer):
    """The one error body of :func:`exception_handler` (for the schema only)."""

    detail = serializers.CharField()
    code = serializers.CharField()
    errors = serializers.DictField(child=serializers.ListField(child=serializers.CharField()), required=False,
                                   help_text="field -> messages, for a bad request body or query")
    file = serializers.CharField(required=False)
    line = serializers.IntegerField(required=False)
    game = serializers.IntegerField(required=False)
    move = serializers.IntegerField(required=False)
    side = serializers.IntegerField(required=False)
    action = serializers.CharField(required=False)
    rule = serializers.CharField(required=False)
    action_index = serializers.IntegerField(required=False)
    field = serializers.CharField(required=False, help_text="the field refused (in a chouette record, a path: cubes[2].value)")
    step = serializers.IntegerField(required=False, help_text="a chouette session's step a correction no longer fits")
    player = serializers.IntegerField(required=False)
    version = serializers.IntegerField(required=False, help_text="stale_table: the chouette table's version now")
    reason = serializers.CharField(required=False, help_text="the engine's or the event's code behind a refusal")

    class Meta:
        ref_name = "ApiError"


def _flatten(detail, labels: Mapping | None = None) -> tuple[str, dict | None]:
    """A one-line summary of DRF validation details, and the field errors when there are some. The
    summary names the first field by its label (``labels``: a serializer's, name -> label; a key
    without one is quoted as sent); the errors keep the fields' names."""
    if isinstance(detail, dict):
        errors = {key: [str(m) for m in (value if isinstance(value, list) else [value])] for key, value in detail.items()}
        first_key = next(iter(errors), None)
        if first_key is None:
            summary = _("invalid input")
        elif first_key == "non_field_errors":
            summary = errors[first_key][0]
        elif labels is None:
            summary = f"{first_key}: {errors[first_key][0]}"
        else:
            summary = field_refusal(field_label(labels, first_key), errors[first_key][0])
        return summary, errors
    if isinstance(detail, list):
        return (str(detail[0]) if detail else _("invalid input")), None
    return str(detail), None


def exception_handler(exc, context):
    """Every refusal in the one error body: a domain, engine or draw error with its code and where
    it applies, a row lock not had in time as :class:`Locked` (409, ``Retry-After``), a body over
    the limit as the one 413, and DRF's own refusals flattened to ``detail`` and ``errors``."""
    if lock_failed(exc):
        exc = Locked()
    if isinstance(exc, RequestDataTooBig):
        return _body_too_large_api()
    if isinstance(exc, (DomainError, EngineError, DrawError)):
        # The engine and the draw speak English: their refusals are worded here, by code, in the
        # reader's language; a service's own refusal is translated where it is raised.
        translated = not isinstance(exc, DomainError)
        # An English reader gets the engine's own message as it always was: where it applies is in the
        # body's own keys (file, line, game...); a translated sentence is led by it.
        detail = refusal_text(exc, located=not reads_english()) if translated else exc.message
        body = {"detail": detail, "code": exc.code}
        body.update({key: exc.details[key] for key in LOCATION_KEYS if exc.details.get(key) is not None})
        if isinstance(exc.details.get("field"), str):
            # The same shape as a serializer's refusal, so a client shows it beside the field.
            # Its message there is the one beside the field (without the field's label), as DRF's are.
            beside = refusal_text(exc) if translated else (getattr(exc, "sentence", None) or exc.message)
            body.setdefault("errors", {exc.details["field"]: [beside]})
        status_code = getattr(exc, "status", status.HTTP_400_BAD_REQUEST)
        response = Response(body, status=status_code)
        if getattr(exc, "retry_after", None):
            response["Retry-After"] = str(exc.retry_after)
        return response
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    if isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    detail = response.data.get("detail") if isinstance(response.data, dict) and "detail" in response.data else response.data
    summary, errors = _flatten(detail, getattr(exc, "labels", None))
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
