"""How analysis listens to the apps below it, connected by :class:`analysis.apps.AnalysisConfig`
(:func:`connect`). What it does when matches tells it something (``matches.hooks``):

- a result confirmed (agreed, entered, overridden, corrected, ruled) whose match has game logs is
  queued for analysis in the same transaction, after the match's own records
  (``ORDER_BUILT_ON``, before the event's draw by name: a refusal there rolls the queueing back
  too);
- a match written by a match file's import is queued the same way, in the file's transaction;
  a player's own import (not staff's, nor an event's own: its director, an approved organiser,
  importing for it; a player who made an event on his own club's calendar is a player here) counts
  against his ``ANALYSIS_UPLOADS_PER_DAY`` and waits behind every other analysis
  (``match_analysis_queue_if_needed``'s ``uploaded_by``).

A match without logs, or already analysed (or queued) for the same games at the same depth, is
left as it is; where gnubg is not installed nothing is queued. Both cost no query for a match
without stored games (``matches.selectors.match.match_stored_games``).

And what it shows and says through the hooks below it: its section of a match's page and of a
player's page, its marks on the board stepper (``analysis.pages``), and its section of ``/health/``
(``core.hooks.health_sections``: the analyses running without progress)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from accounts.models import User
from audit.hooks import sentences
from core.hooks import health_sections
from matches import hooks
from matches.selectors.match import match_stored_games

from . import wording
from .pages import match_marks, match_section, player_section
from .selectors import analysis_health
from .services import match_analysis_queue_if_needed


def _result_confirmed(*, match, actor, ruled_dispute) -> None:
    if match_stored_games(match):
        match_analysis_queue_if_needed(match)


def _uploaded_by(match, actor):
    """The player whose own upload ``match`` is: the importer, unless he is staff or an approved
    organiser who imported it for his event as its director (``matches.hooks.directs``: the event's
    link is the one the import just made, read without a query); None then. Anyone may make an
    event on a club of his own: directing one does not lift a player's daily bound."""
    if actor is None or actor.is_staff:
        return None
    if actor.role == User.Role.ORGANISER and hooks.directs(match, actor):
        return None
    return actor


def _match_imported(*, match, actor) -> None:
    match_analysis_queue_if_needed(match, uploaded_by=_uploaded_by(match, actor))


#: The analysis's section of a match's page, after the match's own parts.
MATCH_SECTION = hooks.PageSection(name="analysis", order=50, render=match_section)
#: The PR section of a player's page: right after his rating history, before the lists of what he
#: did above matches (the events he played: 10, his clubs: 20).
PLAYER_SECTION = hooks.PageSection(name="analysis", order=5, render=player_section)
MOVE_MARKER = hooks.MoveMarker(name="analysis", marks=match_marks, next_label=gettext_lazy("Next blunder"),
                               previous_label=gettext_lazy("Previous blunder"))


def connect() -> None:
    sentences.register(wording.WORDING)
    hooks.result_confirmed.connect(_result_confirmed, name="analysis.match_analysis_queue", order=hooks.ORDER_BUILT_ON)
    hooks.match_imported.connect(_match_imported, name="analysis.match_analysis_queue", order=hooks.ORDER_BUILT_ON)
    hooks.match_page.register(MATCH_SECTION)
    hooks.player_page.register(PLAYER_SECTION)
    hooks.move_markers.register(MOVE_MARKER)
    health_sections.connect(analysis_health, name="analysis")
