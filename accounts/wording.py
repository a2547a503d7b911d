"""How the audit log says what accounts writes: the organiser role (asked for, approved, refused,
withdrawn) and an account's credentials (every session and token ended, one API token revoked).

Each action has its own sentence (the table :data:`WORDING`), read from the entry's ``before``,
``after`` and ``note`` as ``accounts.services`` and ``accounts.services_organiser`` write them.
Registered on ``audit.hooks.sentences`` by :class:`accounts.apps.AccountsConfig`.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy

from audit.describe import Sides, data, who
from audit.hooks import Wording

# --- the organiser role ----------------------------------------------------------------------------


def _organiser_values(entry) -> dict:
    before, after = data(entry.before), data(entry.after)
    return {"who": who(entry), "user": (after or before).get("user") or gettext("a player")}


def organiser_requested_sentence(entry, sides: Sides) -> str:
    return gettext("%(user)s asked to become an organiser") % _organiser_values(entry)


def organiser_approved_sentence(entry, sides: Sides) -> str:
    return gettext("%(who)s approved %(user)s's request to become an organiser") % _organiser_values(entry)


def organiser_refused_sentence(entry, sides: Sides) -> str:
    """Refused, with the reason when one was given."""
    values = _organiser_values(entry)
    reason = data(entry.after).get("reason")
    if reason:
        return gettext("%(who)s refused %(user)s's request to become an organiser, saying: %(reason)s") % {
            **values, "reason": reason}
    return gettext("%(who)s refused %(user)s's request to become an organiser") % values


def organiser_revoked_sentence(entry, sides: Sides) -> str:
    """Withdrawn, with the reason (the entry's note) when one was given."""
    values = _organiser_values(entry)
    if entry.note:
        return gettext("%(who)s withdrew %(user)s's organiser role, saying: %(reason)s") % {
            **values, "reason": entry.note}
    return gettext("%(who)s withdrew %(user)s's organiser role") % values


# --- an account's credentials (accounts.services) ----------------------------------------------


def credentials_revoked_sentence(entry, sides: Sides) -> str:
    """Every token and session of an account ended, and why."""
    sentences_by_reason = {
        "password_reset": gettext("%(who)s reset his password: every session of his ended and his API tokens "
                                  "were revoked"),
        "password_changed": gettext("%(who)s changed his password: his other sessions ended and his API tokens "
                                    "were revoked"),
        "password_set": gettext("%(who)s changed his password: his other sessions ended and his API tokens "
                                "were revoked"),
        "email_changed": gettext("%(who)s's email address changed: his sessions ended and his API tokens were "
                                 "revoked"),
        "signed_out_everywhere": gettext("%(who)s signed out everywhere: his other sessions ended and his API "
                                         "tokens were revoked"),
    }
    return sentences_by_reason.get(data(entry.after).get("reason"), gettext("%(who)s's sessions ended and his API tokens "
                                                                            "were revoked")) % {"who": who(entry)}


def token_revoked_sentence(entry, sides: Sides) -> str:
    """One API token revoked, by its name when it has one."""
    name = data(entry.after).get("name")
    if name:
        return gettext("%(who)s revoked his API token “%(name)s”") % {"who": who(entry), "name": name}
    return gettext("%(who)s revoked one of his API tokens") % {"who": who(entry)}


WORDING = Wording("accounts", {
    "organiser.requested": (gettext_lazy("Asked to become an organiser"), organiser_requested_sentence),
    "organiser.approved": (gettext_lazy("Organiser request approved"), organiser_approved_sentence),
    "organiser.refused": (gettext_lazy("Organiser request refused"), organiser_refused_sentence),
    "organiser.revoked": (gettext_lazy("Organiser role withdrawn"), organiser_revoked_sentence),
    "account.credentials_revoked": (gettext_lazy("Signed out everywhere"), credentials_revoked_sentence),
    "account.token_revoked": (gettext_lazy("API token revoked"), token_revoked_sentence),
})
