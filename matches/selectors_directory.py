"""The player directory: players found by a part of their name (accents, case and script as people
type them: ``core.text.search_key``), their country and what they belong to (a club, through the
player contexts' filters: ``matches.hooks.PlayerContext``), and a typed name resolved to one
player for the pickers (``matches.pickers``). The same on PostgreSQL and SQLite: the search reads
the stored key ``Player.search_name``, never a database's own unaccent or collation."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Case, IntegerField, QuerySet, Value, When

from core.text import search_key

from . import hooks
from .models import Player

#: How many players a name that is not one player's is answered with (the picker's error says whom
#: it could be).
CANDIDATES_SHOWN = 5


def _words(text: str) -> list[str]:
    return search_key(text).split()


def player_search(players: QuerySet[Player], text: str) -> QuerySet[Player]:
    """``players`` whose name holds every word of ``text`` (in any order, each anywhere in the
    name: "pop stef" finds "Ștefan Popescu"), by their search keys; those whose name starts with
    the first word come first, then by name. An empty ``text`` leaves ``players`` as they are."""
    words = _words(text)
    if not words:
        return players
    for word in words:
        players = players.filter(search_name__contains=word)
    starts = Case(When(search_name__startswith=words[0], then=Value(0)), default=Value(1), output_field=IntegerField())
    return players.alias(starts_with=starts).order_by("starts_with", "display_name", "id")


def player_directory(*, q: str = "", country: str = "", contexts: dict | None = None) -> QuerySet[Player]:
    """The directory: every player (none left out: a guest known only from match files is a
    player too), by name, or those whose name holds the words of ``q`` (:func:`player_search`),
    of ``country`` (ISO 3166 alpha-2, any case) and of what ``contexts`` name (``{"club": club}``:
    the registered player contexts' filters). Each with what the player contexts join (his home
    club), so a page of them costs one query whatever its length."""
    joins = hooks.player_joins()
    # (select_related() without a path would follow every relation.)
    players = (Player.objects.select_related(*joins) if joins else Player.objects.all()).order_by("display_name", "id")
    if country:
        players = players.filter(country=country.upper())
    for context in hooks.player_contexts():
        if context.apply_filter is None or context.filter_fields is None:
            continue
        given = {name: (contexts or {})[name] for name in context.filter_fields() if (contexts or {}).get(name) is not None}
        if given:
            players = context.apply_filter(players, given)
    return player_search(players, q)


@dataclass(frozen=True)
class Resolved:
    """What a typed name is among ``players`` (:func:`player_resolve`): ``player`` when it is one
    player's name; else ``candidates`` (up to :data:`CANDIDATES_SHOWN`, best first) it could be,
    and ``count``, how many players in all the name fits (0: none)."""

    player: Player | None
    candidates: tuple[Player, ...] = ()
    count: int = 0


def player_resolve(players: QuerySet[Player], text: str) -> Resolved:
    """The one player of ``players`` named ``text`` (accents, case and spacing set aside): the one
    whose whole name it is, else the one whose name alone holds all its words. Otherwise nobody,
    with the players it could be (several whose whole name it is, or whose name holds it). Two
    queries at most."""
    key = search_key(text)
    if not key:
        return Resolved(None)
    exact = list(players.filter(search_name=key).order_by("display_name", "id")[:CANDIDATES_SHOWN + 1])
    if len(exact) == 1:
        return Resolved(exact[0])
    if exact:
        return Resolved(None, tuple(exact[:CANDIDATES_SHOWN]), players.filter(search_name=key).count())
    fits = player_search(players, text)
    found = list(fits[:CANDIDATES_SHOWN + 1])
    if len(found) == 1:
        return Resolved(found[0])
    count = fits.count() if len(found) > CANDIDATES_SHOWN else len(found)
    return Resolved(None, tuple(found[:CANDIDATES_SHOWN]), count)
