"""The matches app's error catalogue: every message a service raises, in one place."""

from django.utils.translation import gettext as _

from core.errors import Conflict, DomainError, NotAllowed


def not_a_party() -> NotAllowed:
    return NotAllowed("only the match's players and its organiser may do this", code="not_a_party")


def not_organiser() -> NotAllowed:
    return NotAllowed("only the match's organiser (or staff) may do this", code="not_organiser")


def already_confirmed() -> Conflict:
    return Conflict("this match's result is already confirmed", code="already_confirmed")


def nothing_to_confirm() -> Conflict:
    return Conflict("there is no report from the other side to confirm or contest", code="nothing_to_confirm")


def bad_score(message: str, **where) -> DomainError:
    return DomainError(message, code="bad_score", **where)


def log_disagrees(message: str, **where) -> DomainError:
    return DomainError(message, code="log_disagrees", **where)


def log_too_large(actions: int, limit: int) -> DomainError:
    return DomainError(f"the game logs hold {actions} actions; the limit is {limit}", code="log_too_large")


def log_too_many_games(name: str, limit: int, *, line: int, game: int) -> DomainError:
    message = _("game %(game)s at line %(line)s is past the limit of %(limit)s games")
    return DomainError(message % {"game": game, "line": line, "limit": limit}, code="log_too_large", file=name,
                       line=line, game=game)


def log_too_many_actions(name: str, limit: int, *, line: int, game: int) -> DomainError:
    message = _("game %(game)s passes the limit of %(limit)s actions at line %(line)s")
    return DomainError(message % {"game": game, "line": line, "limit": limit}, code="log_too_large", file=name,
                       line=line, game=game)


def upload_too_large(name: str, size: int, limit: int) -> DomainError:
    return DomainError(f"{name} is {size} bytes; the limit is {limit}", code="upload_too_large", file=name)


def bad_sides(message: str) -> DomainError:
    return DomainError(message, code="bad_sides")


def not_your_side() -> NotAllowed:
    return NotAllowed(_("a player answers only for his own side of a match"), code="not_your_side")


def may_not_consent() -> NotAllowed:
    return NotAllowed(_("only the match's players, a director of an event or club they play in, or staff may "
                        "confirm a match for a side"), code="not_a_party")


def only_the_player_declines() -> NotAllowed:
    return NotAllowed(_("only the player himself may decline a match"), code="not_your_side")


def consent_side_required() -> DomainError:
    return DomainError(_("side: say which side (0 or 1) you confirm the match for"), code="side_required",
                       field="side")


def consent_already_given() -> Conflict:
    return Conflict(_("this side has already confirmed the match; a director or staff can correct it"),
                    code="consent_given")


def bad_consent_decision(decision) -> DomainError:
    return DomainError(_("decision: %(decision)s is not confirm or decline") % {"decision": decision},
                       code="bad_decision", field="decision")


# --- a player's profile (matches.services.profile) -----------------------------------------------------


def bad_profile(field: str, message: str) -> DomainError:
    """A profile field refused: ``field`` names it (the API's ``errors`` and the page's form)."""
    return DomainError(message, code="bad_profile", field=field)
