"""What the server-rendered pages of every app share: a refusal turned into words on its form.

A service refuses with a domain error (core.errors) or the engine with an engine error; both carry
a ``message`` and ``details`` that say where it applies (a field, a file's line, a game, a move).
A page shows that as a sentence on the field it concerns, never as a code or a dict.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from engine.errors import EngineError
from tournaments.draw.errors import DrawError

from .engine_messages import refusal_text, where_text
from .errors import error_status
from .text import join_clauses

__all__ = ["error_status", "error_text", "form_errors_text", "form_refuse", "success_redirect"]


def error_text(error, *, beside_field: bool = False) -> str:
    """The refusal as a sentence in the reader's language, led by where it applies (file, line,
    game, move) when the message does not say so already. An engine or draw refusal is worded by
    its code (core.engine_messages); a service's own message is translated where it is raised.
    ``beside_field``: shown beside the field it names, so without that field's label (the
    error's ``sentence``, when it has one)."""
    if isinstance(error, (EngineError, DrawError)):
        return refusal_text(error, located=True)
    message = (getattr(error, "sentence", None) if beside_field else None) or error.message
    shown = {key: value for key, value in error.details.items()
             if key in ("file", "line", "game", "move") and value is not None and f"{key} {value}" not in message}
    if "file" in shown and str(shown["file"]) in message:
        del shown["file"]
    where = where_text(shown)
    return _("%(where)s: %(sentence)s") % {"where": where, "sentence": message} if where else message


def form_refuse(form, error, *, field: str | None = None, aliases: Mapping[str, str] | None = None,
                text: Callable[[object], str] = error_text) -> None:
    """Put a refusal on ``form``: on the field it names (``field``, else the error's own ``field``
    detail, mapped through ``aliases`` where the form calls it otherwise) when the form has that
    field, else above the form. ``text`` words the refusal (:func:`error_text` unless a page says
    more, such as a player's name). Changes only the form's errors."""
    named = field if field is not None else error.details.get("field")
    name = (aliases or {}).get(named, named) if isinstance(named, str) else None
    if name not in form.fields:
        form.add_error(None, text(error))
    elif text is error_text:
        form.add_error(name, error_text(error, beside_field=True))
    else:
        form.add_error(name, text(error))


def form_errors_text(form) -> str:
    """A bound form's errors as one line (``Field label: message; message``), for a page that shows
    the refusal of a small form above the page rather than on the form itself. A field is named by
    its label, as the person saw it, never by its name in the code."""
    return join_clauses(f"{form[name].label}: {message}" if name in form.fields else message
                        for name, errors in form.errors.items() for message in errors)


def success_redirect(request: HttpRequest, text: str, url: str) -> HttpResponse:
    """The end of a POST that worked: ``text`` as a success message on the next page, and a
    redirect to ``url`` (POST, redirect, GET)."""
    messages.success(request, text)
    return redirect(url)
