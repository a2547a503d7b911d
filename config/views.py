"""Project-wide error views: the API answers in its own error body, pages with templates."""

import sys

from django.http import HttpResponse, HttpResponseRedirect, JsonResponse
from django.templatetags.static import static
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.defaults import page_not_found, server_error
from django.views.i18n import JavaScriptCatalog, set_language
from drf_spectacular.views import SpectacularRedocView

from core.i18n import language_known
from core.middleware import database_unavailable, database_unavailable_response
from matches.services.profile import player_profile_update


def not_found(request, exception):
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("Not found."), "code": "not_found"}, status=404)
    return page_not_found(request, exception)


def server_failure(request):
    # Called while the error is being handled: a database that failed outside any view (a session
    # saved as the response went out) answers 503, as core.middleware does for the views.
    error = sys.exc_info()[1]
    if database_unavailable(error):
        return database_unavailable_response(request, error)
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("Server error."), "code": "server_error"}, status=500)
    return server_error(request)


@require_POST
def language_set(request):
    """The language switcher (base.html): Django's set_language (the language cookie, back to
    ``next``), and for a signed-in user the same language saved as his preferred one (his profile,
    so his emails follow). A language Crawford does not speak changes nothing."""
    response = set_language(request)
    code = request.POST.get("language")
    if request.user.is_authenticated and language_known(code) and request.user.preferred_language != code:
        player_profile_update(user=request.user, preferred_language=code)
    return response


#: How long browsers keep /favicon.ico's answer: a day (the icon's address changes with its
#: content where the static files are hashed, so it is not a permanent redirect).
FAVICON_MAX_AGE = 86400


@require_safe
def favicon(request):
    """/favicon.ico, which browsers ask of every site: sent to the icon every page names."""
    response = HttpResponseRedirect(static("favicon.svg"))
    patch_cache_control(response, public=True, max_age=FAVICON_MAX_AGE)
    return response


#: The scripts' catalog of each language, made once per process (the catalogs change only with a
#: deploy, which starts new processes): the page loads it on every visit.
_catalogs: dict[str, tuple[bytes, str]] = {}
#: Browsers keep it an hour; it varies with the language the request is answered in.
CATALOG_MAX_AGE = 3600


@require_safe
def javascript_catalog(request):
    """The djangojs catalog of the request's language (gettext, ngettext, interpolate for
    static/*.js), cached in the process per language."""
    code = translation.get_language()
    if code not in _catalogs:
        made = JavaScriptCatalog.as_view()(request)
        _catalogs[code] = (made.content, made["Content-Type"])
    content, content_type = _catalogs[code]
    response = HttpResponse(content, content_type=content_type)
    patch_cache_control(response, public=True, max_age=CATALOG_MAX_AGE)
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


#: What the ReDoc page may load: this site's files alone, and what ReDoc makes in the page (its
#: inline start and styles, its search worker from a blob, data: images). Scripts may compile code
#: (the bundle's schema validator does): only hosts are kept out.
REDOC_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
])


class RedocView(SpectacularRedocView):
    """ReDoc from the service's own static files (templates/drf_spectacular/redoc.html), sent with
    a policy that keeps the browser from loading anything from another host: ReDoc's bundle draws
    the Redocly logo from cdn.redoc.ly whatever its options say, and leaves it out when refused."""

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        response["Content-Security-Policy"] = REDOC_POLICY
        return response
