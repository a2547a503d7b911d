"""The matches app's error catalogue: every message a service raises, in one place."""

from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import Conflict, DomainError, NotAllowed, TooMany
from core.text import isolate


def not_a_party() -> NotAllowed:
    return NotAllowed(_("only the match's players and its organiser may do this"), code="not_a_party")


def not_organiser() -> NotAllowed:
    return NotAllowed(_("only the match's organiser (or staff) may do this"), code="not_organiser")


def already_confirmed() -> Conflict:
    return Conflict(_("this match's result is already confirmed"), code="already_confirmed")


def nothing_to_confirm() -> Conflict:
    return Conflict(_("there is no report from the other side to confirm or contest"), code="nothing_to_confirm")


def side_has_account(name: str) -> NotAllowed:
    """A director confirming for a side that can confirm for itself."""
    return NotAllowed(_("%(name)s has an account and confirms the report himself; a director may enter the result "
                        "instead") % {"name": isolate(name)}, code="side_has_account")


def report_changed(score: tuple[int, int]) -> Conflict:
    """A confirmation of a pending report that no longer says what the confirmer was shown."""
    return Conflict(_("the report now says %(score0)d-%(score1)d: look at it again before confirming")
                    % {"score0": score[0], "score1": score[1]}, code="report_changed")


def bad_score(message: str, **where) -> DomainError:
    return DomainError(message, code="bad_score", **where)


def log_disagrees(message: str, **where) -> DomainError:
    return DomainError(message, code="log_disagrees", **where)


def log_too_large(actions: int, limit: int) -> DomainError:
    return DomainError(_("the game logs hold %(actions)s actions; the limit is %(limit)s") % {"actions": actions, "limit": limit},
                       code="log_too_large")


def log_too_many_games(name: str, limit: int, *, line: int, game: int) -> DomainError:
    message = _("game %(game)s at line %(line)s is past the limit of %(limit)s games")
    return DomainError(message % {"game": game, "line": line, "limit": limit}, code="log_too_large", file=name,
                       line=line, game=game)


def log_too_many_actions(name: str, limit: int, *, line: int, game: int) -> DomainError:
    message = _("game %(game)s passes the limit of %(limit)s actions at line %(line)s")
    return DomainError(message % {"game": game, "line": line, "limit": limit}, code="log_too_large", file=name,
                       line=line, game=game)


def upload_too_large(name: str, size: int | None, limit: int) -> DomainError:
    """An uploaded file over the limit (``limit`` bytes): its real ``size`` in bytes, or None when
    it is not known (a read stopped once past the limit). Both are said in the reader's units
    ("6.0 MB"); a size that reads as the limit itself says only that it is larger."""
    shown, most = (filesizeformat(size) if size is not None else None), filesizeformat(limit)
    if shown is None or shown == most:
        message = _("%(name)s is larger than the limit of %(limit)s") % {"name": name, "limit": most}
    else:
        message = _("%(name)s is %(size)s; the limit is %(limit)s") % {"name": name, "size": shown, "limit": most}
    return DomainError(message, code="upload_too_large", file=name)


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


# --- guests and invitations (matches.services.guests) -------------------------------------------------


class NotFound(DomainError):
    """No such row (HTTP 404): an invitation link that matches no invitation."""

    code = "not_found"
    status = 404


def guest_needs_sign_in() -> NotAllowed:
    return NotAllowed(_("sign in to enter a walk-in player"), code="not_authenticated")


def guest_bad_name() -> DomainError:
    return DomainError(_("name: give the player's name (at most 120 characters)"), code="bad_name", field="name")


def guest_bad_email() -> DomainError:
    return DomainError(_("email: this is not an email address"), code="bad_email", field="email")


def too_many_invitations(limit: int, when: str, wait: int) -> TooMany:
    return TooMany(ngettext("You have sent %(count)s invitation in the last 24 hours, as many as one person may: "
                            "you can send the next one from %(when)s.",
                            "You have sent %(count)s invitations in the last 24 hours, as many as one person may: "
                            "you can send the next one from %(when)s.", limit) % {"count": limit, "when": when},
                   code="too_many_invitations", retry_after=wait)


def address_invited_enough(email: str, limit: int, when: str, wait: int) -> TooMany:
    return TooMany(ngettext("email: %(email)s has received %(count)s invitation in the last 24 hours, as many as "
                            "one address may: it can be invited again from %(when)s.",
                            "email: %(email)s has received %(count)s invitations in the last 24 hours, as many as "
                            "one address may: it can be invited again from %(when)s.", limit) % {
                       "email": email, "count": limit, "when": when},
                   code="address_invited_enough", field="email", retry_after=wait)


def guest_bad_country() -> DomainError:
    return DomainError(_("country: give the country as its two-letter code (GB, FR, US...), or leave it empty"),
                       code="bad_country", field="country")


def walk_in_known_player(name: str, players: str) -> Conflict:
    """A walk-in named as one existing player, with a country or email that are not his."""
    return Conflict(_("existing players named %(name)s: %(players)s. If the walk-in is this player, leave out the "
                      "country and email or give his own; if he is a different person with the same name, give his "
                      "country or email and confirm that he is a different person") % {"name": isolate(name), "players": players},
                    code="namesake_exists", field="name")


def walk_in_namesakes(name: str, players: str, example: str) -> Conflict:
    """A walk-in named as several existing players, and nothing given picks out one of them."""
    return Conflict(_("existing players named %(name)s: %(players)s. Write the one you mean as he is listed (such as "
                      "“%(example)s”); if the walk-in is a different person with the same name, give his country or "
                      "email and confirm that he is a different person")
                    % {"name": isolate(name), "players": players, "example": example}, code="namesakes_exist", field="name")


def walk_in_namesake_needs_detail(name: str, players: str) -> DomainError:
    """A walk-in confirmed as a different person than the players of his name, without a
    country or email to tell him apart."""
    return DomainError(_("existing players named %(name)s: %(players)s. To enter a different person with this name, "
                         "give his country or email") % {"name": isolate(name), "players": players},
                       code="namesake_needs_detail", field="country")


def walk_in_namesake_not_distinct(name: str, players: str, player: str) -> DomainError:
    """A walk-in confirmed as a different person, with the country and email of one of them."""
    return DomainError(_("existing players named %(name)s: %(players)s. The country and email given are those of "
                         "%(player)s: to enter a different person, give his own country or email")
                       % {"name": isolate(name), "players": players, "player": isolate(player)},
                       code="namesake_not_distinct", field="country")


def invitation_sign_in() -> NotAllowed:
    return NotAllowed(_("sign in (or create an account) to claim this player"), code="not_authenticated")


def invitation_unknown() -> NotFound:
    return NotFound(_("this invitation link is not valid: check that it was copied whole"), code="invitation_unknown")


def invitation_used(name: str, yours: bool) -> Conflict:
    if yours:
        return Conflict(_("you have already claimed %(player)s with this invitation") % {"player": isolate(name)},
                        code="invitation_used")
    return Conflict(_("this invitation to claim %(player)s has already been used") % {"player": isolate(name)},
                    code="invitation_used")


def invitation_replaced(name: str) -> Conflict:
    return Conflict(_("this invitation to claim %(player)s was replaced by a newer one: use the link in the "
                      "latest email") % {"player": isolate(name)}, code="invitation_replaced")


def invitation_expired(name: str, day: str) -> Conflict:
    return Conflict(_("this invitation to claim %(player)s expired on %(day)s: ask the organiser to invite you "
                      "again") % {"player": isolate(name), "day": day}, code="invitation_expired")


def invitation_unverified(address: str) -> NotAllowed:
    return NotAllowed(_("verify your email address %(email)s first: follow the link we email to it (ask for one on "
                        "your account page), then accept this invitation again") % {"email": address},
                      code="email_unverified")


def player_already_held(name: str) -> Conflict:
    return Conflict(_("%(player)s already belongs to an account: a player is held by one account only")
                    % {"player": isolate(name)}, code="player_held")


def user_holds_player(own: str, count: int) -> Conflict:
    return Conflict(ngettext(
        "you already play as %(player)s, who has %(count)s match on his record: one account cannot hold two "
        "players. Ask staff to merge the two players",
        "you already play as %(player)s, who has %(count)s matches on his record: one account cannot hold two "
        "players. Ask staff to merge the two players", count) % {"player": isolate(own), "count": count},
        code="user_holds_player")


def user_player_has_records(own: str) -> Conflict:
    return Conflict(_("you already play as %(player)s, who has entries, chouette games or other records: one "
                      "account cannot hold two players. Ask staff to merge the two players") % {"player": isolate(own)},
                    code="user_holds_player")


def user_holds_a_player() -> Conflict:
    return Conflict(_("you already play as another player: one account cannot hold two players"),
                    code="user_holds_player")


def user_claimed_player(own: str) -> Conflict:
    return Conflict(_("you already claimed %(player)s: one account cannot hold two players. Ask staff to "
                      "merge the two players") % {"player": isolate(own)}, code="user_holds_player")


# --- claims and merges (matches.services.claims) ------------------------------------------------


def claim_sign_in() -> NotAllowed:
    return NotAllowed(_("sign in to claim a player"), code="not_authenticated")


def claim_own_player() -> Conflict:
    return Conflict(_("this player is already yours"), code="claim_own_player")


def claim_player_held() -> Conflict:
    return Conflict(_("this player already belongs to a signed-in user, so nobody else can claim him; if he is "
                      "you, ask a director or staff to look into it"), code="claim_player_held")


def claim_not_open(status: str) -> Conflict:
    # Translators: %(status)s is the claim's status (Approved, Refused, Withdrawn), as its "claim status" context
    # translates it.
    return Conflict(_("this claim is no longer waiting for a decision (it is %(status)s)") % {"status": status},
                    code="claim_decided")


def claim_may_not_decide() -> NotAllowed:
    return NotAllowed(_("only staff, or a director of an event or club this player played in who did not enter "
                        "him there and has no tie to the claimant, may decide this claim"), code="not_a_director")


def claim_own_decision() -> NotAllowed:
    return NotAllowed(_("nobody decides his own claim: another director or staff must"), code="own_claim")


def claim_not_yours() -> NotAllowed:
    return NotAllowed(_("only the user who made a claim may withdraw it"), code="not_your_claim")


def claim_reason_required() -> DomainError:
    return DomainError(_("reason: say why the claim is refused; the user is shown it"), code="reason_required",
                       field="reason")


def claim_needs_merge(name: str, why: str) -> Conflict:
    return Conflict(_("the claimant already has a player of his own, %(name)s, with %(why)s: the claim cannot simply "
                      "be approved; a staff member must merge the two players instead (Players, Merge)")
                    % {"name": isolate(name), "why": why}, code="claim_needs_merge")


def claim_changed() -> Conflict:
    return Conflict(_("the claimant's player changed while this was decided; try again"), code="locked")


def merge_not_staff() -> NotAllowed:
    return NotAllowed(_("only staff may merge two players"), code="not_staff")


def merge_same_player() -> DomainError:
    return DomainError(_("target: choose two different players"), code="same_player", field="target")


def merge_both_held() -> Conflict:
    return Conflict(_("both players belong to signed-in users, and one user holds one player: these are two "
                      "people, they cannot be merged"), code="merge_both_held")


def merge_played_each_other(count: int) -> Conflict:
    return Conflict(_("the two players met in %(count)s match(es), as opponents or as partners of a pair; one player "
                      "cannot play himself, so they cannot be merged") % {"count": count},
                    code="merge_played_each_other")


def merge_blocked(name: str) -> Conflict:
    return Conflict(_("%(name)s still has records in events or clubs (an entry, a team, a check-in or a chouette "
                      "seat) that a merge cannot move; remove them first") % {"name": isolate(name)}, code="merge_blocked")
