"""Reads of the accounts app."""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.db.models import Case, Max, Q, When

from .models import ApiToken, User


def user_by_username(username: str) -> User | None:
    """The user signing in as ``username`` (the exact name), or None."""
    return User.objects.filter(username=username).first()


def email_unverified(user: User) -> bool:
    """Whether ``user`` signed up and has not verified his email address yet: the primary address
    of allauth's rows (sign-up makes it) is not verified. Accounts made by staff, the demo or a
    director have no primary row (allauth only adds their address as a plain one when it first
    meets it, in a password reset say) and sign in as they always have."""
    return EmailAddress.objects.filter(user_id=user.pk, primary=True, verified=False).exists()


def account_emails(user: User) -> tuple[str, bool, str]:
    """His email address, whether it is verified, and the address he asked to change to and has
    not verified yet ("" when none)."""
    rows = list(EmailAddress.objects.filter(user_id=user.pk).order_by("-primary", "pk"))
    current = next((row for row in rows if row.primary), None)
    pending = next((row for row in rows if not row.verified and row is not current), None)
    if current is None:
        return user.email, False, pending.email if pending else ""
    return current.email, current.verified, pending.email if pending else ""


#: What an email address is to an account (:func:`address_standing`).
ADDRESS_VERIFIED, ADDRESS_UNVERIFIED, ADDRESS_NOT_HIS = "verified", "unverified", "not_his"


def address_standing(user: User, address: str) -> str:
    """Whether ``address`` is ``user``'s, compared without regard to case: ADDRESS_VERIFIED when
    one of his allauth addresses is it and is verified; ADDRESS_UNVERIFIED when it is his but not
    verified (an allauth address not verified yet, or his account's address with no allauth row:
    accounts made by staff, the demo or a director); ADDRESS_NOT_HIS otherwise. One query."""
    address = (address or "").strip()
    if not address or not getattr(user, "is_authenticated", False):
        return ADDRESS_NOT_HIS
    rows = list(EmailAddress.objects.filter(user_id=user.pk, email__iexact=address).values_list("verified", flat=True))
    if any(rows):
        return ADDRESS_VERIFIED
    if rows or (user.email or "").strip().casefold() == address.casefold():
        return ADDRESS_UNVERIFIED
    return ADDRESS_NOT_HIS


def address_language(address: str) -> str | None:
    """The preferred language of the account that holds ``address`` (compared without regard to
    case): one with it verified first, then one with it among its addresses, then one whose
    account address it is; None when no account has it. One query."""
    address = (address or "").strip()
    if not address:
        return None
    return next(iter(_holders(address).values_list("preferred_language", flat=True)[:1]), None)


def address_holder(address: str) -> User | None:
    """The account that holds ``address``, chosen as :func:`address_language` chooses it (with
    its player, for his display name); None when no account has it. One query."""
    address = (address or "").strip()
    if not address:
        return None
    return _holders(address).select_related("player").first()


def _holders(address: str):
    """The accounts holding ``address``: one with it verified first, then one with it among its
    addresses, then one whose account address it is."""
    return (User.objects.filter(Q(emailaddress__email__iexact=address) | Q(email__iexact=address))
            .annotate(rank=Max(Case(When(emailaddress__email__iexact=address, emailaddress__verified=True, then=2),
                                    When(emailaddress__email__iexact=address, then=1), default=0)))
            .order_by("-rank", "pk"))


def api_tokens_of(user: User) -> list[ApiToken]:
    """His API tokens, the newest first (at most accounts.services.TOKENS_MAX). One query."""
    return list(ApiToken.objects.filter(user_id=user.pk).order_by("-created_at", "-pk"))


def address_signs_in(user: User, address: str) -> bool:
    """Whether ``address`` (compared without regard to case) signs ``user`` in in place of his
    username: an allauth address of his that is verified or is his primary (a new account's,
    unverified until its link is followed: the sign-in then says so), or his account's address
    when allauth has no row of it (accounts made by staff, the demo or a director). An address he
    asked to change to and has not verified is none of these. One query at most."""
    address = (address or "").strip()
    if not address:
        return False
    rows = list(EmailAddress.objects.filter(user_id=user.pk, email__iexact=address).values_list("verified", "primary"))
    if rows:
        return any(verified or primary for verified, primary in rows)
    return (user.email or "").strip().casefold() == address.casefold()
