"""The live version an event's public pages poll (static/js/live.js; tournaments/live.py).

Why polling, not server-sent events or WebSockets: the service runs under gunicorn's gthread
workers (4 x 4 threads in production). A held connection per viewer would take a thread each, and a
hall of 200 phones would take them all; WebSockets would need an ASGI server and Channels beside
it. A poll every few seconds is one short request answered 304 from the cache, with no query and
nothing rendered, and works with any server, any proxy and no Redis.
"""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from core.cache import conditional_answer
from tournaments.live import live_state
from tournaments.models import Tournament


@require_safe
def live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """``{"version": n}`` of the event, with its ETag and ``Cache-Control: no-cache``; 304 for an
    ``If-None-Match`` naming it. Public (a draft: its organiser and staff, 404 for others). No query
    while the cache holds the version, one otherwise (a draft: also the signed-in user's)."""
    try:
        state = live_state(tournament_id)
    except Tournament.DoesNotExist:
        raise Http404(_("There is no such event.")) from None
    if not state.visible_to(request.user):
        raise Http404(_("There is no such event."))
    body = json.dumps({"version": state.version}).encode()
    return conditional_answer(request, body=body, content_type="application/json",
                              etag=f'"event-{tournament_id}-{state.version}"')


urlpatterns = [
    path("<int:tournament_id>/live/", live, name="live"),
]
