"""Pages of a player: his public page (profile, rating chart and history, events, clubs, recent
matches) and the signed-in user's own profile form. Each view reads through a selector or changes
through a service, and renders or redirects."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import formats
from django.utils.translation import gettext, ngettext

from core.errors import DomainError
from core.i18n import forget_language, remember_language
from core.pages import error_status, form_refuse, success_redirect

from .. import hooks
from ..charts import rating_chart_svg
from ..forms.players import ProfileForm
from ..models import Player
from ..selectors.match import match_list, with_pending_reports
from ..selectors.players import (
    SECTION_ITEMS,
    player_page_get,
    player_public,
    player_rating_corrections,
    player_rating_points,
    player_rating_recent,
    profile_of,
)
from ..services.profile import player_profile_update
from .match import RECENT_MATCHES, match_list_rows

#: How a tick of the chart's time axis is written, by its step's unit (Django date formats).
TICK_FORMATS = {"day": "DATE_FORMAT", "month": "YEAR_MONTH_FORMAT", "year": "Y"}


def _tick_label(moment: datetime, unit: str) -> str:
    return formats.date_format(moment, TICK_FORMATS[unit])


def _rating(value: float) -> str:
    return formats.number_format(value, 0 if value == int(value) else 1)


def _chart(profile: Player, points: list[tuple[datetime, float]]) -> str:
    """The rating chart with its title and a description that says what it shows in words."""
    if len(points) < 2:
        return ""
    values = [value for _, value in points]
    matches = len(points) - 1
    words = {"name": profile.display_name, "count": matches,
             "first": formats.date_format(points[0][0], "DATE_FORMAT"), "last": formats.date_format(points[-1][0], "DATE_FORMAT"),
             "low": formats.number_format(min(values), 1), "high": formats.number_format(max(values), 1),
             "now": formats.number_format(profile.rating, 1)}
    desc = ngettext(
        "%(count)s rated match from %(first)s to %(last)s; the rating went between %(low)s and %(high)s and is "
        "%(now)s now.",
        "%(count)s rated matches from %(first)s to %(last)s; the rating went between %(low)s and %(high)s and is "
        "%(now)s now.", matches) % words
    return rating_chart_svg(points, title=gettext("Rating of %(name)s over time") % words, desc=desc,
                            date_label=_tick_label, value_label=_rating)


def player(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's public page: name, country, what he chose to show (email, real name), his clubs,
    rating with its chart and history, the events he played and his recent matches. A fixed number
    of queries however long his record."""
    try:
        profile = player_page_get(player_id)
    except Player.DoesNotExist:
        raise Http404("no such player") from None
    points = player_rating_points(profile)
    recent = match_list_rows(with_pending_reports(match_list(viewer=request.user, player=profile))[:RECENT_MATCHES], profile)
    own = request.user.is_authenticated and profile.user_id == request.user.pk
    return render(request, "matches/player.html", {
        "profile": profile,
        "public": player_public(profile),
        # What the apps above say of him (his home club; the events he played, his clubs, his PR
        # over time), each section from its own app (matches.hooks.player_page).
        "facts": hooks.page_facts(hooks.player_page, profile),
        "chart": _chart(profile, points),
        "changes": player_rating_recent(profile),
        "rated_count": max(len(points) - 1, 0),
        "corrections": player_rating_corrections(profile),
        "sections": hooks.page_parts(hooks.player_page, request, profile, limit=SECTION_ITEMS),
        "recent": recent,
        "own": own,
    })


@login_required
def profile_edit(request: HttpRequest) -> HttpResponse:
    """The signed-in user's profile: display name, country, preferred language, and whether his
    email address and real name show on his page. A refusal shows on its field, nothing saved."""
    user = request.user
    mine = profile_of(user)
    initial = {"display_name": mine.display_name if mine else "", "country": mine.country if mine else "",
               "preferred_language": user.preferred_language, "email_public": user.email_public,
               "real_name_public": user.real_name_public}
    status = 200
    if request.method == "POST":
        form = ProfileForm(request.POST, initial=initial)
        if form.is_valid():
            try:
                saved = player_profile_update(user=user, **form.cleaned_data)
            except DomainError as error:
                form_refuse(form, error)
                status = error_status(error)
            else:
                url = reverse("matches:player", args=[saved.pk]) if saved else reverse("matches:profile")
                response = success_redirect(request, gettext("Your profile is saved."), url)
                # The language chosen here is this browser's choice too, as the switcher's is; "as my
                # browser says" lets Accept-Language speak again (core/i18n.py).
                chosen = form.cleaned_data.get("preferred_language")
                if chosen == get_user_model().Language.BROWSER:
                    forget_language(response)
                else:
                    remember_language(response, chosen)
                return response
        else:
            status = 400
    else:
        form = ProfileForm(initial=initial)
    return render(request, "matches/profile_edit.html", {"form": form, "player": mine}, status=status)


urlpatterns = [
    path("players/<int:player_id>/", player, name="player"),
    path("me/profile/", profile_edit, name="profile"),
]
