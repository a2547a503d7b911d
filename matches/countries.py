"""Countries a player may name: ISO 3166-1 alpha-2 codes, with their names in the active language
(django-countries' list, which follows the standard)."""

from __future__ import annotations

from django_countries import countries


def country_known(code: str) -> bool:
    """Whether ``code`` (upper case) is an ISO 3166-1 alpha-2 code."""
    return bool(code) and code in dict(countries)


def country_name(code: str) -> str:
    """The country's name in the active language; the code itself when unknown (older rows)."""
    return countries.name(code) or code if code else ""


def country_choices() -> list[tuple[str, str]]:
    """(code, name) of every country, by name in the active language."""
    return list(countries)
