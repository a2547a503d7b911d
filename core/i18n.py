"""The language a person reads, wherever he is not the one making the request.

A page answers in the language of its request (Django's LocaleMiddleware, then
:class:`core.middleware.UserLanguageMiddleware`): the signed-in user's preferred language when he
chose one, else the switcher's choice on this browser (the language cookie, cleared on sign-out),
else the browser's Accept-Language. An email is built by a worker, away from any request, for
someone else: it is written in its recipient's language, :func:`language_of` his account, inside
:func:`in_language_of`; for an account that follows its browser ("browser", no language of its
own) that is the site's language, or, for an email a request sends to its own author (allauth's:
a confirmation, a password reset), the language of that page (:func:`languages_of`'s default).
"""

from __future__ import annotations

from contextlib import contextmanager

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import translation


def language_known(code: str | None) -> bool:
    """Whether ``code`` is one of the languages Crawford speaks (settings.LANGUAGES)."""
    return bool(code) and code in dict(settings.LANGUAGES)


def language_of(user) -> str:
    """The language ``user`` reads: his preferred language, else the site's (settings.LANGUAGE_CODE)
    for nobody (None), an anonymous user, an account that follows its browser or a code Crawford
    no longer speaks. Changes nothing."""
    code = getattr(user, "preferred_language", None)
    return code if language_known(code) else settings.LANGUAGE_CODE


def languages_of(addresses, default: str | None = None) -> dict[str, str]:
    """The language to write to each email address: its account's preferred language, else
    ``default`` (else the site's) for an address no account has or whose account follows its
    browser. One query; changes nothing."""
    addresses = set(addresses)
    fallback = default if language_known(default) else settings.LANGUAGE_CODE
    known = dict(get_user_model().objects.filter(email__in=addresses).values_list("email", "preferred_language"))
    return {address: known[address] if language_known(known.get(address)) else fallback for address in addresses}


@contextmanager
def in_language_of(user):
    """Everything translated inside the block (gettext, templates, dates) is in ``user``'s
    language; the language before it is active again after it."""
    with translation.override(language_of(user)):
        yield


def remember_language(response, code: str) -> None:
    """Set the language cookie on ``response``, as Django's set_language view does: ``code`` is the
    browser's explicit choice from now on (it comes before Accept-Language, and after a signed-in
    user's own choice). A code Crawford does not speak changes nothing."""
    if not language_known(code):
        return
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, code, max_age=settings.LANGUAGE_COOKIE_AGE, path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN, secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY, samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


def forget_language(response) -> None:
    """Delete the language cookie with ``response``: the browser's Accept-Language speaks again
    (a sign-out, a profile set to follow the browser)."""
    response.delete_cookie(settings.LANGUAGE_COOKIE_NAME, path=settings.LANGUAGE_COOKIE_PATH,
                           domain=settings.LANGUAGE_COOKIE_DOMAIN, samesite=settings.LANGUAGE_COOKIE_SAMESITE)
