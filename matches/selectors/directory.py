"""The player directory: players found by a part of their name (accents, case and script as people
type them: ``core.text.search_key``), their country and what they belong to (a club, through the
player contexts' filters: ``matches.hooks.PlayerContext``), and a typed name resolved to one
player for the pickers (``matches.pickers``). The same on PostgreSQL and SQLite: the search reads
the stored key ``Player.search_name``, never a database's own unaccent or collation."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Case, IntegerField, QuerySet, Value, When

from core.text import search_key

from .. import hooks
from ..models import Player

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
    for context in hooks.player_contexts.entries():
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
    and ``count``, how many players in all the name fits (0: none). ``namesakes``: the candidates
    all have the whole name typed (they are told apart by :func:`player_labels`, not by more of the
    name)."""

    player: Player | None
    candidates: tuple[Player, ...] = ()
    count: int = 0
    namesakes: bool = False


#: "Name (detail, detail)": a name as :func:`player_label` writes it, with what tells him apart.
_LABELLED = re.compile(r"(?P<name>.*?\S)\s*\((?P<details>[^()]*)\)\s*")
#: The most namesakes a name written with its details is looked for among.
NAMESAKES_READ = 100


def player_details(player: Player) -> list[str]:
    """What tells ``player`` apart from others of the same name, as people read it: his country
    (ISO code), then what the player contexts say he belongs to (his home club). No query when
    the contexts' joins (``hooks.player_joins``) were read with him."""
    details = [player.country] if player.country else []
    return details + [text for _label, text in hooks.describe_player(player)]


def player_label(player: Player) -> str:
    """``player`` as a list of namesakes names him: "Alice Lambert (FR, Northside)" (his name and
    :func:`player_details`), or his name alone when nothing more is known. Written the same in
    every language: typed back, it is read by :func:`player_named`. A list of several players of
    one name is written by :func:`player_labels`."""
    return _written(player, player_details(player))


def player_labels(namesakes: Sequence[Player]) -> list[str]:
    """Players of one name, in the order :func:`player_namesakes` gives them, each as
    :func:`player_label` writes him; those whose details are alike (namesakes told apart only by
    an email address, which is never shown) also get their place among those alike: "Alice Lambert
    (GB, 1)", "Alice Lambert (GB, 2)". Typed back, each is read by :func:`player_named`."""
    return [_written(player, details) for player, details in zip(namesakes, _told_apart(namesakes), strict=True)]


def _written(player: Player, details: list[str]) -> str:
    return f"{player.display_name} ({', '.join(details)})" if details else player.display_name


def _told_apart(namesakes: Sequence[Player]) -> list[list[str]]:
    """Each namesake's details (:func:`player_details`), and for those alike their place among them
    (1, 2...), in the list's order."""
    details = [player_details(player) for player in namesakes]
    keys = [tuple(search_key(detail) for detail in found) for found in details]
    alike = Counter(keys)
    places: Counter = Counter()
    out = []
    for found, key in zip(details, keys, strict=True):
        if alike[key] > 1:
            places[key] += 1
            found = [*found, str(places[key])]
        out.append(found)
    return out


def player_namesakes(players: QuerySet[Player], name: str) -> QuerySet[Player]:
    """The players of ``players`` whose whole name is ``name`` (accents, case and spacing set
    aside: their search keys are equal), by name then id, with what :func:`player_label` reads."""
    return _with_details(players).filter(search_name=search_key(name)).order_by("display_name", "id")


def _with_details(players: QuerySet[Player]) -> QuerySet[Player]:
    joins = hooks.player_joins()
    return players.select_related(*joins) if joins else players


def player_named(players: QuerySet[Player], text: str) -> Resolved:
    """The one player of ``players`` whose whole name ``text`` is (:func:`player_namesakes`), or,
    for a text written as :func:`player_label` writes it ("Alice Lambert (FR)": a name and some
    of his details, any case), the one namesake those details fit. Otherwise nobody: with the
    namesakes it could be (``namesakes``), or no candidate at all when no player has the name.
    Never a player whose name only holds the words typed (see :func:`player_resolve`): what the
    desk's pasted list and the walk-in forms read, where any other name is a new player. One
    query (a second for a name written with details)."""
    return players_named(players, [text])[text]


def players_named(players: QuerySet[Player], texts: Iterable[str]) -> dict[str, Resolved]:
    """:func:`player_named` of each of ``texts`` (a pasted list of names): one query for them all,
    and one more for each text written with details that is no player's whole name."""
    keys = {text: search_key(text) for text in texts}
    by_key: dict[str, list[Player]] = {}
    wanted = {key for key in keys.values() if key}
    if wanted:
        for player in _with_details(players).filter(search_name__in=wanted).order_by("display_name", "id"):
            by_key.setdefault(player.search_name, []).append(player)
    return {text: _one_of(by_key[key]) if key in by_key else _labelled(players, text) if key else Resolved(None)
            for text, key in keys.items()}


def _one_of(namesakes: list[Player], fits: list[Player] | None = None) -> Resolved:
    """Of ``namesakes`` (the players of one name), the one ``fits`` leaves (all of them when not
    given); else nobody, with those it could be: the ones that fit, or every namesake if none does."""
    fits = namesakes if fits is None else fits
    if len(fits) == 1:
        return Resolved(fits[0], namesakes=True)
    shown = fits or namesakes
    if not shown:
        return Resolved(None)
    return Resolved(None, tuple(shown[:CANDIDATES_SHOWN]), len(shown), namesakes=True)


def _labelled(players: QuerySet[Player], text: str) -> Resolved:
    """``text`` read as "Name (detail, detail)": the one namesake of that name whom every detail
    fits (:func:`player_details` and his place among those alike: :func:`player_labels`; compared
    as search keys)."""
    labelled = _LABELLED.fullmatch(text.strip())
    if labelled is None:
        return Resolved(None)
    wanted = {search_key(detail) for detail in labelled["details"].split(",")} - {""}
    if not wanted:
        return Resolved(None)
    namesakes = list(player_namesakes(players, labelled["name"])[:NAMESAKES_READ])
    told = _told_apart(namesakes)
    return _one_of(namesakes, [player for player, details in zip(namesakes, told, strict=True)
                               if wanted <= {search_key(detail) for detail in details}])


def player_resolve(players: QuerySet[Player], text: str) -> Resolved:
    """The one player of ``players`` named ``text`` (accents, case and spacing set aside): the one
    whose whole name it is, or the one namesake the details written after it pick out
    (:func:`player_named`), else the one whose name alone holds all its words. Otherwise nobody,
    with the players it could be (several whose whole name it is, or whose name holds it). Three
    queries at most (four for a name written with details that no player has)."""
    named = player_named(players, text)
    if named.player is not None or named.count:
        return named
    if not search_key(text):
        return Resolved(None)
    fits = player_search(_with_details(players), text)
    found = list(fits[:CANDIDATES_SHOWN + 1])
    if len(found) == 1:
        return Resolved(found[0])
    count = fits.count() if len(found) > CANDIDATES_SHOWN else len(found)
    return Resolved(None, tuple(found[:CANDIDATES_SHOWN]), count)
