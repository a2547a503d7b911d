"""A user's own profile: his player's display name and country, and his choices (preferred
language, whether his email address and his real name are public)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from audit.services import audit_record
from core.locking import locked_one
from core.text import name_clean

from .. import errors
from ..countries import country_known
from ..models import Player

#: What the profile changes, and where it is kept: the player's row or the user's.
PLAYER_FIELDS = ("display_name", "country")
USER_FIELDS = ("preferred_language", "email_public", "real_name_public")
EDITABLE = PLAYER_FIELDS + USER_FIELDS
NAME_MAX = Player._meta.get_field("display_name").max_length


def profile_summary(user, player: Player | None) -> dict:
    """What the audit log keeps of a profile (never the email address itself)."""
    return {
        "display_name": player.display_name if player is not None else None,
        "country": player.country if player is not None else None,
        "preferred_language": user.preferred_language,
        "email_public": user.email_public,
        "real_name_public": user.real_name_public,
    }


def _clean(changes: dict) -> dict:
    """``changes`` checked and normalised, or the first refusal naming its field."""
    unknown = sorted(set(changes) - set(EDITABLE))
    if unknown:
        raise errors.bad_profile(unknown[0], _("This cannot be changed on a profile."))
    clean = dict(changes)
    if "display_name" in clean:
        name = name_clean(str(clean["display_name"] or ""), field="display_name", refuse=errors.bad_profile)
        if not name:
            raise errors.bad_profile("display_name", _("Give the name other players will see."))
        if len(name) > NAME_MAX:
            raise errors.bad_profile("display_name", _("A display name has at most %(max)s characters; this one has "
                                                        "%(length)s.") % {"max": NAME_MAX, "length": len(name)})
        clean["display_name"] = name
    if "country" in clean:
        code = str(clean["country"] or "").strip().upper()
        if code and not country_known(code):
            raise errors.bad_profile("country", _("“%(code)s” is not a country code: give the two letters of "
                                                  "ISO 3166, such as GB, KR or RO.") % {"code": code[:8]})
        clean["country"] = code
    if "preferred_language" in clean:
        languages = get_user_model().Language
        if clean["preferred_language"] not in languages.values:
            raise errors.bad_profile("preferred_language", _("“%(language)s” is not a language Crawford speaks: "
                                                             "choose one of %(choices)s.") % {
                "language": str(clean["preferred_language"])[:16], "choices": ", ".join(languages.values)})
    for flag in ("email_public", "real_name_public"):
        if flag in clean and not isinstance(clean[flag], bool):
            raise errors.bad_profile(flag, _("Say yes or no."))
    return clean


@transaction.atomic
def player_profile_update(*, user, **changes) -> Player | None:
    """The signed-in ``user`` changes his profile: his player's ``display_name`` and ``country``,
    his ``preferred_language``, ``email_public`` and ``real_name_public``; only the keys given
    change. A user without a player gets one when he gives a display name. Audited as
    ``player.profile_updated`` when something changed. Returns his player (None: he has none).

    Every value is checked before anything is written: DomainError ``bad_profile`` with the
    ``field`` (an unknown field, an empty or too long name, an unknown country code or language,
    a flag that is not true or false); nothing is saved then.
    """
    clean = _clean(changes)
    User = get_user_model()
    # Both rows locked, the user's first (as every service that locks both does: one order).
    user = locked_one(User.objects.all(), pk=user.pk)
    player = Player.objects.filter(user=user).first()
    if player is not None:
        player = locked_one(Player.objects.all(), pk=player.pk)
    before = profile_summary(user, player)
    player_changes = {key: clean[key] for key in PLAYER_FIELDS if key in clean}
    if player is None and player_changes:
        if "display_name" not in player_changes:
            raise errors.bad_profile("display_name", _("Give the name other players will see to make your player "
                                                       "profile."))
        player = Player.objects.create(user=user, **player_changes)
    elif player is not None:
        changed = [key for key, value in player_changes.items() if getattr(player, key) != value]
        for key in changed:
            setattr(player, key, player_changes[key])
        if changed:
            player.save(update_fields=changed)
    changed = [key for key in USER_FIELDS if key in clean and getattr(user, key) != clean[key]]
    for key in changed:
        setattr(user, key, clean[key])
    if changed:
        user.save(update_fields=changed)
    after = profile_summary(user, player)
    if after != before:
        audit_record(actor=user, action="player.profile_updated", object_type="matches.Player",
                     object_id=player.pk if player is not None else None,
                     before={k: v for k, v in before.items() if after[k] != v},
                     after={k: v for k, v in after.items() if before[k] != v})
    return player
