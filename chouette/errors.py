"""The chouette app's error catalogue: the messages its services raise of their own. The rules of the
game refuse with the engine's codes (engine.chouette, turned into DomainError or Conflict by
chouette.services); who may act is clubs' (:mod:`clubs.errors`, ``not_club_manager``), and so is a
closed night (``night_closed``).

Each function returns a :class:`core.errors.DomainError` (400: the input is wrong) or
:class:`~core.errors.Conflict` (409: the table's state forbids it now) with a stable ``code``.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.errors import Conflict, DomainError
from core.labels import field_label, field_refusal

from .labels import TABLE_LABELS


def chouette_ended() -> Conflict:
    """Any change of an ended session: its settlement is final until it is reopened."""
    return Conflict(_("this chouette session has ended, so its games, players and house rules can no longer be "
                      "changed: one of the club's owners or organisers can reopen it"), code="chouette_ended")


def stale_table(expected: int, version: int) -> Conflict:
    return Conflict(_("the table has changed since your page was loaded (version %(expected)s, now %(version)s): "
                      "reload it and enter the game again") % {"expected": expected, "version": version},
                    code="stale_table", version=version)


def chouette_game_voided(number: int) -> Conflict:
    return Conflict(_("game %(number)s is voided: it no longer counts and cannot be amended") % {"number": number},
                    code="chouette_game_voided",
                    game=number)


def bad_chouette(field: str, message: str) -> DomainError:
    return DomainError(field_refusal(field_label(TABLE_LABELS, field), message), sentence=message, code="bad_chouette",
                       field=field)


def house_rules_break_game(game: int | None, step: int | None, reason: str, message: str) -> Conflict:
    """A change of the house rules that a recorded game breaks."""
    return Conflict(_("game %(game)s breaks these house rules, so they cannot apply to this session: %(message)s") % {
        "game": game, "message": message}, code="house_rules_break_game", game=game, step=step, reason=reason)
