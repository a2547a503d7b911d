"""What matches, the kernel, offers the apps above it, which it never imports.

matches imports no app above it (tournaments, clubs, rulings...). Each hook here is a
:class:`core.hooks.Hook`; those apps connect to them in their ``receivers.py``, from their
``AppConfig.ready()``:

- result hooks: what they must do when a match's result changes (settle its disputes, advance
  its event's draw), called by the matches services;
- match and player contexts: what a match or a player belongs to (an event, a club and its night,
  a home club), which they hold in their own link rows; how matches creates, joins, audits,
  shows and serializes it (see :class:`MatchContext`).
- the pages' sections: what a player's page and a match's page show of what the apps above
  know (the events he played, the clubs he belongs to, his home club, a match's event, the
  analysis; see :class:`PageSection`).

The result hooks
----------------
:data:`result_confirmed`, :data:`result_disputed` and :data:`result_reopened` are sent by
``matches.services.reporting`` inside the transaction that changes the match, with the match row
locked and the change saved. A callback runs in that same transaction and its exceptions
propagate to the service: nothing is caught (there is no ``send_robust``), so a change a callback
refuses (an event's bracket built on the result) rolls back whole, the match's change with it.

Callbacks run in a fixed order: by their ``order``, then by their name. Never by the order the
apps happen to be installed or imported. The bands:

- :data:`ORDER_MATCH_RECORDS` (10): what is kept about the match itself (its disputes: rulings);
- :data:`ORDER_BUILT_ON` (20): what other rows build on the result (an event's draw: tournaments).

So a confirmed result first settles the match's automatic dispute, then advances the event's
draw; a refusal from the draw rolls back both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from core.hooks import Hook

#: Callbacks about the match's own records (its disputes) run first...
ORDER_MATCH_RECORDS = 10
#: ...then those that build on the result elsewhere (an event's draw).
ORDER_BUILT_ON = 20


#: A match's result is confirmed: agreed by both sides, entered or overridden by its director, or
#: confirmed by a ruling. Payload: ``match`` (the locked ``Match``, saved with its new score,
#: winner, status ``confirmed`` and games), ``actor`` (the user the change is audited under) and
#: ``ruled_dispute`` (the id of the dispute a ruling confirms this result for, which records its
#: own outcome; else None).
result_confirmed = Hook("result_confirmed", ("match", "actor", "ruled_dispute"))

#: A match went to its director: its reports disagree or one was contested (the match is saved
#: with status ``disputed``). Payload: ``match`` (locked), ``user`` (whose report or contest
#: made it disputed), ``statement`` (the user's own words, perhaps empty) and ``scores`` (why:
#: the two reported scores that disagree, or the one contested, each ``[side 0, side 1]``).
result_disputed = Hook("result_disputed", ("match", "user", "statement", "scores"))

#: A match file's match was written by an import (``matches.services.imports``), confirmed with
#: its games, inside the file's transaction (a savepoint: a duplicate racing in takes it back with
#: the match). Payload: ``match`` (saved, status ``confirmed``, its games written) and ``actor``
#: (the importer). Apps that work on a match's games (its analysis) start from here as they do
#: from :data:`result_confirmed`, which an import does not send.
match_imported = Hook("match_imported", ("match", "actor"))

#: A match's result was taken back (a ruling had a game replayed, or reverted a result): the
#: match is saved without score or winner. Payload: ``match`` (locked) and ``actor``.
result_reopened = Hook("result_reopened", ("match", "actor"))


# --- match contexts ---------------------------------------------------------------------------------
#
# What a match belongs to (an event; a club and the night it was played at) is held by the app
# above, in a row linked one-to-one to the match (``tournaments.EventMatch``, ``clubs.ClubMatch``):
# matches models name no model of an app above them. The app registers a :class:`MatchContext`
# saying how to create that link in ``match_create``'s transaction, which select_related paths
# read it, what the audit log and the pages show of it, and the fields the matches API takes and
# answers for it. The API and the pages stay the same whatever is registered; matches never names
# the context's models.


@dataclass(frozen=True)
class Attachment:
    """What a context makes of ``match_create``'s input, checked before anything is written.

    ``attach`` links the saved match (in the same transaction); ``organiser``, when set, is the
    match's organiser unless the caller names one (an event's organiser); ``audit`` adds ids
    (``club_id``...) to the ``match.created`` entry only; ``vouches(players)`` says whether the
    context vouches for a side of these players (``Player`` rows), whose consent to the match is
    then given at creation (an event for every side, a club for its members'; None: for none).
    ``attach_many(matches)``, when set, links many saved matches at once (``match_create_many``:
    one INSERT, and each match's link cached on it as ``attach`` leaves it); without it each is
    linked by ``attach``.
    """

    attach: Callable[[Any], None]
    organiser: Any = None
    audit: dict[str, int] = field(default_factory=dict)
    vouches: Callable[[list], bool] | None = None
    attach_many: Callable[[list], None] | None = None


@dataclass(frozen=True)
class MatchContext:
    """Something a match can belong to, registered by the app that holds it.

    Identity and storage:

    - ``name``: the registration key and the key of its brief in API answers (``event``);
    - ``order``: contexts are listed (API fields, page lines) by order, then name;
    - ``link``: the reverse one-to-one accessor of the app's link row on ``Match`` (``event_link``);
    - ``joins``: the ``select_related`` paths every read below needs, added to
      ``Match.objects.with_sides()`` / ``with_side_ids()`` so a list costs no query per match.

    Services:

    - ``inputs``: the keys of ``match_create(context=...)`` it takes (``club``, ``club_night``);
    - ``prepare(created_by=, **inputs)``: checks them (raising DomainError / NotAllowed before
      anything is written) and returns an :class:`Attachment`, or None when they are all empty;
    - ``audit_ids(match)``: ids every audit entry about the match carries (``tournament_id``);
    - ``summary(match)``: keys it adds to ``match_summary`` (what the audit log keeps of a match);
    - ``directs(match, user)``: whether ``user`` directs the match through it (an event's
      organiser; read through ``joins``, or ``director_fields`` in ``for_claims``), besides the
      match's own organiser; ``directed_by(user)``: the same as a ``Q`` on ``Match``;
    - ``director_fields``: the ``only()`` paths ``directs`` reads (``event_link__tournament__organiser``).

    Interfaces (factories: each call returns fresh DRF fields):

    - ``input_fields()``: fields of ``POST /matches/`` (named as ``inputs``);
    - ``may_create(user, values)``: the API's check before creating (raises NotAllowed);
    - ``filter_fields()`` and ``apply_filter(queryset, values)``: ``GET /matches/`` query parameters;
    - ``response_fields()``: fields of a match in API answers (a brief, read through ``joins``);
    - ``label`` and ``describe(match)``: the line pages show (None: nothing to show);
    - ``mat_tag``: the .mat export's tag that carries ``describe(match)``;
    - ``members(value)``: the players a match of the context given by ``value`` (an event) may be
      between, as a ``Player`` queryset (an event's entrants); None: anyone. Imports for the
      context offer and accept only them;
    - ``vouches_for(match, players)``: whether the context the match belongs to vouches, now, for
      a side of these players (``Player`` rows; see ``matches.services.consent``); None: for none.
    """

    name: str
    order: int
    link: str
    joins: tuple[str, ...] = ()
    inputs: tuple[str, ...] = ()
    prepare: Callable[..., Attachment | None] | None = None
    audit_ids: Callable[[Any], dict[str, int | None]] | None = None
    summary: Callable[[Any], dict] | None = None
    directs: Callable[[Any, Any], bool] | None = None
    directed_by: Callable[[Any], Any] | None = None
    director_fields: tuple[str, ...] = ()
    input_fields: Callable[[], dict] | None = None
    may_create: Callable[[Any, dict], None] | None = None
    filter_fields: Callable[[], dict] | None = None
    apply_filter: Callable[[Any, dict], Any] | None = None
    response_fields: Callable[[], dict] | None = None
    label: str = ""
    describe: Callable[[Any], str | None] | None = None
    mat_tag: str | None = None
    members: Callable[[Any], Any] | None = None
    vouches_for: Callable[[Any, list], bool] | None = None


@dataclass(frozen=True)
class PlayerContext:
    """Something a player belongs to (his home club), registered by the app that holds it:
    ``joins`` (``select_related`` paths from ``Player``), ``response_fields()`` (API fields of a
    player), ``label`` and ``describe(player)`` (the line his page shows; None: nothing).

    The player directory (``matches.selectors.directory``) filters by it when it gives
    ``filter_fields()`` (the ``GET /players/`` query parameters it takes, as DRF fields: ``club``),
    ``form_fields()`` (the same for the directory page, as Django form fields) and
    ``apply_filter(players, values)`` (a ``Player`` queryset narrowed to the given values: the
    club's players)."""

    name: str
    order: int
    joins: tuple[str, ...] = ()
    response_fields: Callable[[], dict] | None = None
    label: str = ""
    describe: Callable[[Any], str | None] | None = None
    filter_fields: Callable[[], dict] | None = None
    form_fields: Callable[[], dict] | None = None
    apply_filter: Callable[[Any, dict], Any] | None = None


#: What a match can belong to: :class:`MatchContext` objects (``match_contexts.register``).
match_contexts = Hook("match_contexts", doc="what a match belongs to (MatchContext)")
#: What a player belongs to: :class:`PlayerContext` objects.
player_contexts = Hook("player_contexts", doc="what a player belongs to (PlayerContext)")


def match_joins() -> tuple[str, ...]:
    """The select_related paths that reading every match context needs."""
    return tuple(path for context in match_contexts.entries() for path in context.joins)


def player_joins() -> tuple[str, ...]:
    return tuple(path for context in player_contexts.entries() for path in context.joins)


def match_context_inputs() -> tuple[str, ...]:
    """Every key ``match_create(context=...)`` takes."""
    return tuple(name for context in match_contexts.entries() for name in context.inputs)


def contexts_prepare(*, created_by, values: dict) -> list[tuple[MatchContext, Attachment]]:
    """Check ``match_create``'s ``context`` input, context by context, before anything is
    written; the attachments to make once the match is saved. Raises what the contexts raise,
    and TypeError for a key no context takes (a programming error, never a client's)."""
    values = dict(values or {})
    unknown = set(values) - set(match_context_inputs())
    if unknown:
        raise TypeError(f"no match context takes {', '.join(sorted(unknown))}")
    prepared = []
    for context in match_contexts.entries():
        given = {name: values.get(name) for name in context.inputs}
        if context.prepare is None or all(value is None for value in given.values()):
            continue
        attachment = context.prepare(created_by=created_by, **given)
        if attachment is not None:
            prepared.append((context, attachment))
    return prepared


def contexts_attach(match, prepared: list[tuple[MatchContext, Attachment]]) -> None:
    """Link the saved ``match`` to its contexts; the contexts it has none of are cached as empty
    on it, so reading them (the audit entry of its creation) costs no query."""
    attached = set()
    for context, attachment in prepared:
        attachment.attach(match)
        attached.add(context.name)
    for context in match_contexts.entries():
        if context.name not in attached:
            type(match)._meta.get_field(context.link).set_cached_value(match, None)


def contexts_attach_many(matches: list, prepared: list[tuple[MatchContext, Attachment]]) -> None:
    """:func:`contexts_attach` for many saved matches of the same contexts: each context links
    them all at once when it can (``Attachment.attach_many``), else one by one."""
    attached = set()
    for context, attachment in prepared:
        if attachment.attach_many is not None:
            attachment.attach_many(matches)
        else:
            for match in matches:
                attachment.attach(match)
        attached.add(context.name)
    for context in match_contexts.entries():
        if context.name not in attached:
            for match in matches:
                type(match)._meta.get_field(context.link).set_cached_value(match, None)


def context_members(values: dict):
    """The players a match of ``values`` (``match_create``'s context input, e.g. ``{"event":
    tournament}``) may be between, as a ``Player`` queryset; None when no context limits them."""
    found = None
    for context in match_contexts.entries():
        for name in context.inputs:
            if values.get(name) is not None and context.members is not None:
                members = context.members(values[name])
                found = members if found is None else found & members
    return found


def audit_ids(match) -> dict[str, int | None]:
    """The ids every audit entry about ``match`` carries besides its own (``tournament_id`` of
    an event's match), read through the contexts' joins."""
    ids: dict[str, int | None] = {}
    for context in match_contexts.entries():
        if context.audit_ids is not None:
            ids.update(context.audit_ids(match))
    return ids


def directs(match, user) -> bool:
    """Whether ``user`` directs ``match`` through one of its contexts (an event's organiser)."""
    return any(context.directs(match, user) for context in match_contexts.entries() if context.directs is not None)


def directed_by(user):
    """A ``Q`` on ``Match``: the matches ``user`` directs through their contexts (never matching
    anything when no context says so)."""
    q = Q(pk__in=[])
    for context in match_contexts.entries():
        if context.directed_by is not None:
            q |= context.directed_by(user)
    return q


def director_fields() -> tuple[str, ...]:
    """The ``only()`` paths ``directs`` reads, for a query that loads few columns."""
    return tuple(path for context in match_contexts.entries() for path in context.director_fields)


def summary(match) -> dict:
    """What the contexts add to the audit log's summary of ``match``."""
    out: dict = {}
    for context in match_contexts.entries():
        if context.summary is not None:
            out.update(context.summary(match))
    return out


def describe(match) -> list[tuple[str, str]]:
    """(label, text) of each context ``match`` belongs to that pages show."""
    lines = []
    for context in match_contexts.entries():
        text = context.describe(match) if context.describe is not None else None
        if text:
            lines.append((context.label, text))
    return lines


def mat_tags(match) -> dict[str, str]:
    """The .mat tags the contexts of ``match`` give (``Event``: the event's name)."""
    tags = {}
    for context in match_contexts.entries():
        if context.mat_tag and context.describe is not None:
            text = context.describe(match)
            if text:
                tags[context.mat_tag] = text
    return tags


def describe_player(player) -> list[tuple[str, str]]:
    """(label, text) of each context ``player`` belongs to (his home club), as the directory and
    the admin show it."""
    lines = []
    for context in player_contexts.entries():
        text = context.describe(player) if context.describe is not None else None
        if text:
            lines.append((context.label, text))
    return lines


def context_vouches(match, players: list) -> bool:
    """Whether a context ``match`` belongs to vouches, now, for a side of ``players`` (``Player``
    rows): an event for the players who accepted it and whom it is really run for, a club for its
    members. A director's result keeps the consent of such a side (``consent_after_override``)."""
    return any(context.vouches_for is not None and context.vouches_for(match, players)
               for context in match_contexts.entries())


def vouched(prepared: list[tuple[MatchContext, Attachment]], players: list) -> bool:
    """Whether one of the contexts a new match is prepared for vouches for a side of ``players``."""
    return any(attachment.vouches is not None and attachment.vouches(players) for _, attachment in prepared)


# --- the sections of a player's page and of a match's page --------------------------------------------
#
# What the apps above know of a player (the events he played, the clubs he belongs to, his home club,
# his PR over time) or of a match (its event, its analysis) shows on his or its page without matches
# naming them: each app registers a :class:`PageSection` on :data:`player_page` or :data:`match_page`.
# The page shows the sections by order, then name: the facts among the page's own facts (its ``<dl>``),
# the lists and the drawn sections after the page's own (a player's rating history; a match's board).


@dataclass(frozen=True)
class PlayerItem:
    """One line of a list of a player's page: ``text`` (an event's or a club's name), where it
    links (``url``, or empty), a date (``on``, or None) and a short ``note`` ("finished",
    "organiser"), all ready to show (translated)."""

    text: str
    url: str = ""
    on: Any = None
    note: str = ""


@dataclass(frozen=True)
class PageSection:
    """A section of a player's or a match's page, registered by the app that knows what it shows.
    It is one of three kinds, by which callable it gives:

    - ``fact(obj)``: a line of the page's facts, ``title`` its label (his home club; the match's
      event and round), or None for nothing to show;
    - ``items(obj, limit)``: a list under the heading ``title``, at most ``limit``
      :class:`PlayerItem`, newest first, with ``empty`` the sentence shown when it has none (the
      events he played, his clubs);
    - ``render(request, obj)``: the section's HTML (safe, translated: the app's own template), or ""
      for nothing to show (the analysis).

    ``name``: the registration key (the list's ``id`` and class on the page); ``order``: sections
    are shown by order, then name. ``obj`` is the page's ``Player`` or ``Match``. A fixed number of
    queries, whatever the size of what it shows (the pages' query counts are tested).
    """

    name: str
    order: int
    title: Any = ""
    empty: Any = ""
    fact: Callable[[Any], str | None] | None = None
    items: Callable[[Any, int], list[PlayerItem]] | None = None
    render: Callable[[Any, Any], str] | None = None


#: The sections of a player's page (:class:`PageSection`, ``obj`` a ``Player``).
player_page = Hook("player_page", doc="the sections of a player's page (PageSection)")
#: The sections of a match's page (:class:`PageSection`, ``obj`` a ``Match``).
match_page = Hook("match_page", doc="the sections of a match's page (PageSection)")


@dataclass(frozen=True)
class PagePart:
    """A list or a drawn section of a page, ready for its template: ``html`` (a drawn section),
    else the list's ``name``, ``title``, ``empty`` and ``items``."""

    name: str
    title: str = ""
    empty: str = ""
    items: list[PlayerItem] = field(default_factory=list)
    html: str = ""


def page_facts(page: Hook, obj) -> list[tuple[str, str]]:
    """(label, text) of each fact section of ``page`` that has something to say of ``obj``, in order."""
    lines = []
    for section in page.entries():
        text = section.fact(obj) if section.fact is not None else None
        if text:
            lines.append((str(section.title), text))
    return lines


def page_parts(page: Hook, request, obj, *, limit: int) -> list[PagePart]:
    """The lists and drawn sections of ``page`` for ``obj``, in order; a drawn section with nothing
    to show is left out, a list without items shows its ``empty`` sentence."""
    parts = []
    for section in page.entries():
        if section.render is not None:
            html = section.render(request, obj)
            if html:
                parts.append(PagePart(section.name, html=html))
        elif section.items is not None:
            parts.append(PagePart(section.name, str(section.title), str(section.empty), section.items(obj, limit)))
    return parts


# --- who answers for a player ------------------------------------------------------------------------
#
# A match outside any event or club, or imported with a player's name, is on his record only once
# he, or a director of an event or club he plays in, consents (matches.services.consent). Who
# directs an event or a club is known above matches: each app registers a :class:`PlayerDirector`.


@dataclass(frozen=True)
class PlayerDirector:
    """``directs(user, player_id)``: whether ``user`` directs an event or a club the player plays
    in (an event's organiser for its entrants; a club's owners and organisers for its members)."""

    name: str
    directs: Callable[[Any, Any], bool]


#: Who directs a player: :class:`PlayerDirector` objects, asked by name.
player_directors = Hook("player_directors", doc="who directs a player (PlayerDirector)")


def directs_player(user, player_id: int) -> bool:
    """Whether ``user`` directs an event or a club the player ``player_id`` plays in, by any
    registered app (asked by name, the first yes answers)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return any(director.directs(user, player_id) for director in player_directors.entries())


# --- who decides a claim of a player -------------------------------------------------------------------
#
# A claim of a player known from imported files or entered as a walk-in ("this is me":
# matches.services.claims) is decided by staff, or by a director of an event or a club where the player
# played, when that director has no tie to the claimant and did not enter the player himself: one
# person with two accounts must not hand himself a player he put in his own event. Who played where,
# who entered whom and who is tied to whom are known above matches: each app registers a
# :class:`ClaimDirector`.


@dataclass(frozen=True)
class ClaimDirector:
    """What an app says about the claims ``user`` may decide, each as a subquery of keys
    (``.values("pk")``), so that one query decides one claim or lists them all:

    - ``players(user)``: the players he directs through this app (``Player`` keys);
    - ``entered(user)``: those of them he put there himself (entered in his event, registered as a
      walk-in, imported into his club): he may not decide their claims;
    - ``tied(user)``: the users tied to him through this app (entrants of his events, members of
      his clubs, those he invited): he may not decide their claims.
    """

    name: str
    players: Callable[[Any], Any]
    entered: Callable[[Any], Any] | None = None
    tied: Callable[[Any], Any] | None = None


#: Who decides a player's claim: :class:`ClaimDirector` objects, by name.
claim_directors = Hook("claim_directors", doc="who decides a claim of a player (ClaimDirector)")


def claim_directed(user, field: str = "player_id") -> Q:
    """A ``Q`` on the key ``field`` of a player (a claim's ``player_id``; ``pk`` on ``Player``): the
    players ``user`` directs in an event or a club where they played (matching nothing when no app
    says so, or for anonymous)."""
    q = Q(pk__in=[])
    if not getattr(user, "is_authenticated", False):
        return q
    for director in claim_directors.entries():
        q |= Q(**{f"{field}__in": director.players(user)})
    return q


def claim_decidable(user) -> Q:
    """A ``Q`` on ``PlayerClaim``: the claims ``user`` may decide as a director (staff decide
    every claim): of a player he directs (:func:`claim_directed`), whom he did not enter himself,
    by a claimant other than himself and not tied to him."""
    q = claim_directed(user) & ~Q(user_id=getattr(user, "pk", None))
    if not getattr(user, "is_authenticated", False):
        return q
    for director in claim_directors.entries():
        if director.entered is not None:
            q &= ~Q(player_id__in=director.entered(user))
        if director.tied is not None:
            q &= ~Q(user_id__in=director.tied(user))
    return q


# --- records kept about a match ----------------------------------------------------------------------
#
# An app above may keep rows about a match for good (a dispute: its match is PROTECTed). Such a
# match has started, whatever its status: an event's draw must not drop and re-create it. The app
# registers a :class:`MatchRecord` on :data:`match_records`; whoever would drop a match asks them.


@dataclass(frozen=True)
class MatchRecord:
    """Rows an app keeps about a match for good.

    - ``name``: the registration key (``dispute``);
    - ``why``: the words a refusal uses for it ("a dispute was opened on it");
    - ``exists()``: a fresh ``Exists`` over those rows for ``OuterRef("pk")`` of a ``Match``
      queryset, to annotate it in the same query.
    """

    name: str
    why: str
    exists: Callable[[], Any]


#: The records kept about a match: :class:`MatchRecord` objects, by name (``match_records.entries()``).
match_records = Hook("match_records", doc="rows kept about a match for good (MatchRecord)")


# --- a guest player claimed by a user ------------------------------------------------------------------
#
# A guest player (no user: a walk-in, an imported name) becomes a user's when the user accepts an
# invitation to claim him (matches.services.guests). Rows above matches that stand for the guest
# rather than for his player (a club membership held by the player, clubs.Membership) follow him to
# the user.

#: A guest player is now a user's. Payload: ``player``, ``user`` and ``actor``; sent inside the
#: claim's transaction, after the player is the user's: each callback moves what its app holds for
#: the guest to the user (and audits it).
player_claimed = Hook("player_claimed", ("player", "user", "actor"))


# --- records that keep a player ------------------------------------------------------------------------
#
# A user who claims a guest player gives up his own player only if that one holds nothing: no match
# (matches.services.guests checks), and no row an app above keeps about him. Rows with a foreign key
# to the player refuse his removal by themselves (PROTECT); an app that names players inside its own
# data (a chouette's roll-off, in JSON) registers a :class:`PlayerKeeper` so that the player is kept.


@dataclass(frozen=True)
class PlayerKeeper:
    """``keeps(player_id)``: whether the app holds records of the player; ``why``: the words a
    refusal uses for them ("chouette games")."""

    name: str
    why: str
    keeps: Callable[[int], bool]


#: What keeps a player from being removed: :class:`PlayerKeeper` objects, by name.
player_keepers = Hook("player_keepers", doc="records that keep a player (PlayerKeeper)")


def player_kept_by(player_id: int) -> list[str]:
    """The words of every registered app that holds records of ``player_id``, by name."""
    return [str(keeper.why) for keeper in player_keepers.entries() if keeper.keeps(player_id)]


# --- marks on the moments of a game --------------------------------------------------------------------
#
# The board stepper of a match's page shows one moment of a game at a time. An app above that judges
# the actions of a game (the analysis: a blunder, an error) marks them: it registers a
# :class:`MoveMarker`, whose ``marks(match)`` says which action of which game it judges and how. The
# stepper shows the mark of the moment before that action, and links to the next and previous
# marked moments that are ``stops``, across the games.


@dataclass(frozen=True)
class MoveMark:
    """A judgement of the action ``index`` of game ``game`` (its number) of a match's log: ``kind``
    (a word for the page's style: ``blunder``, ``error``) and ``text`` (the sentence, translated:
    "Blunder: played 13/7 6/5, best 24/18 13/11, equity lost 0.215"; plain text, or safe HTML
    from ``format_html``/``mark_safe`` to isolate its notation); ``stop``: whether the stepper's
    next and previous links stop at it."""

    game: int
    index: int
    kind: str
    text: str
    stop: bool = False


@dataclass(frozen=True)
class MoveMarker:
    """Marks on a match's actions, registered by the app that judges them.

    - ``name``: the registration key;
    - ``marks(match)``: its :class:`MoveMark` list, in log order (game, index); a fixed number of
      queries (one at most: read once per page);
    - ``next_label`` and ``previous_label``: the stepper's links to the next and previous stops
      ("Next blunder").
    """

    name: str
    marks: Callable[[Any], list[MoveMark]]
    next_label: Any = ""
    previous_label: Any = ""


#: The marks on a game's moments: :class:`MoveMarker` objects, by name (``move_markers.entries()``).
move_markers = Hook("move_markers", doc="marks on the moments of a game (MoveMarker)")
