"""How the chouette tables plug into the apps below them, connected by
:class:`chouette.apps.ChouetteConfig` when the app is ready (:func:`connect`): on clubs
(:mod:`clubs.hooks`), the link to a club's tables in every club page's navigation, for its members,
and the tables played at a club night with each player's net result over them; on matches, a player
seated at a table is kept (``matches.hooks.player_keepers``)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from audit.hooks import sentences
from clubs import hooks
from clubs.hooks import ClubLink, NightChouette, NightChouettes
from clubs.models import ClubNight
from matches import hooks as match_hooks

from . import wording
from .selectors import chouette_night_sessions, chouette_night_totals, chouette_player_seated

CLUB_LINK = ClubLink(label=_("Chouettes"), url_name="chouette:list", members_only=True)


def night_chouettes(night: ClubNight) -> NightChouettes:
    """The night's tables in the order they started, each with its page, and each player's net money
    over them (points x each table's stake). Two queries."""
    sessions = chouette_night_sessions(night)
    tables = tuple(
        NightChouette(id=session.pk, name=session.name, title=str(session), status=session.status,
                      status_label=session.get_status_display(), stake=session.stake, currency=session.currency,
                      started_at=session.started_at, ended_at=session.ended_at,
                      url=reverse("chouette:table", args=[session.club.slug, session.pk]))
        for session in sessions)
    return NightChouettes(tables=tables, totals=chouette_night_totals(night, sessions=sessions))


def connect() -> None:
    sentences.register(wording.WORDING)
    hooks.club_links.connect(CLUB_LINK, name="chouette.tables")
    hooks.night_chouettes.connect(night_chouettes, name="chouette.tables")
    match_hooks.player_keepers.register(match_hooks.PlayerKeeper(name="chouette.seat", why=_("chouette games"),
                                                                 keeps=chouette_player_seated))
