"""OpenAPI schema hooks (drf-spectacular ``POSTPROCESSING_HOOKS``).

Some error answers come from the project-wide plumbing, not from a view, so no view's
``extend_schema`` lists them. This hook documents them on every operation where they can happen
and the view did not already say otherwise; every one has the API's error body (core/api.py):

- 401 on every operation: a bad or stale token is refused even where no sign-in is needed;
- 429 on every operation: the throttles (core/throttles.py), with Retry-After;
- 503 on every operation: the database cannot be reached just now (core/middleware.py), with
  Retry-After;
- 403 on every write: a session-signed write without its CSRF token;
- 400, 413 and 415 on every operation with a request body: a body that does not parse, is over
  the upload limit, or comes in a media type the operation does not take;
- 400 and 404 on every paginated list: a ``page`` or ``page_size`` that is not a whole number in
  its range (core.api.Pagination), a page past the last.

And :class:`StrictInputSchema` says of every strict serializer's request body
(core.api.StrictInputSerializer) what it does: no property but its own
(``additionalProperties: false``). It is registered when this module is imported (config/urls.py).
"""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiSerializerExtension

ERROR_REF = {"$ref": "#/components/schemas/ApiError"}
ERROR_COMPONENT = {
    "type": "object",
    "description": "The API's one error body.",
    "properties": {"detail": {"type": "string"}, "code": {"type": "string"}},
    "required": ["detail", "code"],
}
WRITES = {"post", "put", "patch", "delete"}

EVERY_OPERATION = {
    "401": "Not signed in where that is needed, or the token is not valid (code not_authenticated or "
           "authentication_failed).",
    "429": "Too many requests (code throttled; Retry-After says in how many seconds to try again).",
    "503": "The database cannot be reached just now (code service_unavailable; Retry-After says in how many "
           "seconds to try again).",
}
WRITE = {"403": "Not allowed; or, signed in by the session cookie, the CSRF token is missing (code permission_denied)."}
WITH_BODY = {
    "400": "The request body is not valid (code parse_error, invalid or a field's own).",
    "413": "The request body is over the upload limit (code body_too_large).",
    "415": "The request body's media type is not one this operation takes (code unsupported_media_type).",
}
PAGINATED = {"400": "A page or page_size that is not a whole number in its range, or a bad filter (code invalid).",
             "404": "There is no such page (code not_found)."}


class StrictInputSchema(OpenApiSerializerExtension):
    """A strict serializer's request body takes no property it does not declare."""

    target_class = "core.api.StrictInputSerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_basic_serializer(self.target, direction)
        if direction == "request":
            schema["additionalProperties"] = False
        return schema


def document_common_errors(result, generator, request, public):
    """Add the project-wide error answers to every operation of ``result`` that lacks them."""
    result.setdefault("components", {}).setdefault("schemas", {}).setdefault("ApiError", ERROR_COMPONENT)
    for item in result.get("paths", {}).values():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            errors = dict(EVERY_OPERATION)
            if method in WRITES:
                errors.update(WRITE)
            if "requestBody" in operation:
                errors.update(WITH_BODY)
            if any(p.get("in") == "query" and p.get("name") == "page" for p in operation.get("parameters", [])):
                errors.update(PAGINATED)
            responses = operation["responses"]
            for code, description in errors.items():
                responses.setdefault(code, {"content": {"application/json": {"schema": ERROR_REF}},
                                            "description": description})
    return result
