"""The director's round desk: what the organiser does to many entrants or matches at once.

- :func:`entries_check_in`: check in all entrants, or those chosen, in one go;
- :func:`entries_paste`: a pasted list of names (one a line) entered at once, each read as the
  player pickers read a name or created as a guest;
- :func:`entries_seed`: the organiser's seeds, set or fixed before the draw;
- :func:`round_set_tables` / :func:`match_set_table`: the table each match of the event is played at.

Each runs in one transaction under the event's row lock (``common.tournament_lock``) and is
audited; a refusal names the line, entrant or match that is wrong, and nothing is saved. Results
entered in the desk's grid go through ``matches.services.reporting.match_override`` and
``corrections.result_correct`` (the page calls them), never through a path of their own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import Conflict, DomainError
from core.locking import locked_rows
from core.text import isolate, join_list, list_separator, search_key
from matches.models import Match, Player
from matches.selectors.directory import player_labels, players_named
from matches.services.guests import NAME_MAX, player_create_guest
from tournaments import errors, formats
from tournaments.models import Entry, Pairing, Tournament

from . import state
from .audit import entry_summary, event_audit_record
from .common import before_draw, require_organiser, tournament_lock
from .entries import entry_add

#: The longest table label ("12", "B3", "Terrace 2").
TABLE_MAX = 20
#: The most names one paste enters.
PASTE_MAX_LINES = 512
ALL = "all"


# --- check-in -------------------------------------------------------------------------------------


@transaction.atomic
def entries_check_in(*, tournament_id: int, entry_ids: Iterable[int] | str, user) -> list[Entry]:
    """The organiser checks in every entrant (``entry_ids`` = ``"all"``) or those named, while
    entries are closed and before the draw. Entrants already checked in are left as they are.
    Returns the entries newly checked in. Audited as ``entry.checked_in`` per entry.

    Raises NotAllowed ``not_organiser``; DomainError ``no_entrants_chosen``, ``unknown_entry`` (the
    first id that is no entrant of the event); Conflict ``check_in_not_open``, ``already_drawn``,
    ``tournament_finished``. Nothing changes on failure."""
    tournament = tournament_lock(tournament_id)
    require_organiser(tournament, user)
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.finished()
    if tournament.status == Tournament.Status.RUNNING:
        raise errors.already_drawn()
    if tournament.status != Tournament.Status.CLOSED:
        raise errors.check_in_not_open()
    entries = Entry.objects.filter(tournament=tournament).select_related("side__player_a", "side__player_b", "team")
    if entry_ids != ALL:
        wanted = _whole_numbers(entry_ids)
        if not wanted:
            raise DomainError(_("choose at least one entrant to check in"), code="no_entrants_chosen", field="entries")
        found = {e.pk: e for e in entries.filter(pk__in=wanted)}
        missing = next((i for i in wanted if i not in found), None)
        if missing is not None:
            raise errors.unknown_entry(missing)
        chosen = [found[i] for i in wanted]
    else:
        chosen = list(entries.order_by("created_at", "id"))
    changed = []
    for entry in chosen:
        if entry.status == Entry.Status.ENTERED:
            before = entry_summary(entry)
            entry.status = Entry.Status.CHECKED_IN
            changed.append((entry, before))
    if changed:
        Entry.objects.filter(pk__in=[e.pk for e, _before in changed]).update(status=Entry.Status.CHECKED_IN)
        for entry, before in changed:
            event_audit_record("entry.checked_in", actor=user, tournament=tournament, obj=entry, before=before,
                               after=entry_summary(entry), note="checked in at the round desk")
    return [entry for entry, _before in changed]


def _whole_numbers(values) -> list[int]:
    """``values`` as a list of distinct ids, in order; DomainError ``unknown_entry`` for one that
    is no whole number."""
    out: list[int] = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise errors.unknown_entry(value)
        try:
            number = int(value)
        except ValueError:
            raise errors.unknown_entry(value) from None
        if number not in out:
            out.append(number)
    return out


# --- a pasted list of entrants --------------------------------------------------------------------


@dataclass(frozen=True)
class PastedLine:
    """One line of a paste as entered: its number, the name, the player, and whether he was
    created as a guest."""

    line: int
    name: str
    player: Player
    created: bool


@dataclass(frozen=True)
class Pasted:
    lines: tuple[PastedLine, ...]

    @property
    def matched(self) -> tuple[PastedLine, ...]:
        return tuple(line for line in self.lines if not line.created)

    @property
    def created(self) -> tuple[PastedLine, ...]:
        return tuple(line for line in self.lines if line.created)


def _namesakes_text(name: str, found) -> str:
    """Why a pasted name is refused when several players have it: whom it could be, each as he may
    be written to be told apart (``player_labels``: his country and club, his place among those
    alike)."""
    labels = player_labels(found.candidates)
    listed = join_list(labels) + (list_separator() + "…" if found.count > len(labels) else "")
    return _("several players are called %(name)s: %(players)s. Write the one you mean as he is listed (such as "
             "“%(example)s”), or enter him from the player picker") % {"name": name, "players": listed,
                                                                       "example": labels[-1]}


def _line_error(number: int, message: str, code: str) -> DomainError:
    """A refusal of line ``number`` of a paste: the page leads it with the line (``error_text``)."""
    return DomainError(message, code=code, field="names", line=number)


@transaction.atomic
def entries_paste(*, tournament_id: int, text: str, user) -> Pasted:
    """The organiser pastes a list of entrants, one name per line (blank lines ignored; spaces
    around and inside a name tidied), before the draw of an individual event. Each name is read as
    the player pickers read it (``matches.selectors.directory.player_named``): the player whose
    whole name it is (accents and case set aside), or, written with his details as a refusal lists
    him ("Alice Lambert (FR)"), the namesake they pick out; a name nobody has is created as a guest
    player (a walk-in without an email). Every player is then entered (``entry_add``).

    Audited as ``player.guest_created`` per guest and ``entry.added`` per entrant. Raises NotAllowed
    ``not_organiser``; Conflict ``tournament_finished``, ``already_drawn_use_late_entry``;
    DomainError ``walk_in_singles_only`` (a pairs or team event), ``no_names``, ``too_many_names``,
    and, naming the line (``line``): ``duplicate_line`` (the same name twice), ``ambiguous_name``
    (several players have it: each listed with his country and club), ``bad_name`` (too long),
    ``already_entered``. Nothing is saved when any line is refused."""
    tournament = tournament_lock(tournament_id)
    require_organiser(tournament, user)
    formats.format_of(tournament).refuse_walk_ins()
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.finished()
    if not before_draw(tournament):
        raise errors.already_drawn_use_late_entry()
    lines = [(number, " ".join(raw.split())) for number, raw in enumerate(str(text or "").splitlines(), start=1)]
    lines = [(number, name) for number, name in lines if name]
    if not lines:
        raise DomainError(_("paste at least one name, one per line"), code="no_names", field="names")
    if len(lines) > PASTE_MAX_LINES:
        raise DomainError(_("at most %(count)d names at once") % {"count": PASTE_MAX_LINES}, code="too_many_names",
                          field="names")
    first_seen: dict[str, int] = {}
    for number, name in lines:
        if len(name) > NAME_MAX:
            raise _line_error(number, _("a name has at most %(count)d characters") % {"count": NAME_MAX}, "bad_name")
        key = search_key(name)
        if key in first_seen:
            raise _line_error(number, _("%(name)s is already on line %(first)d") % {"name": name,
                                                                                 "first": first_seen[key]},
                              "duplicate_line")
        first_seen[key] = number
    # Every line read as the pickers read a name (its players in one query): the player whose whole
    # name it is, or the namesake the details written after it pick out ("Alice Lambert (FR)").
    named = players_named(Player.objects.all(), [name for _number, name in lines])
    entered = set(
        Entry.objects.filter(tournament=tournament, side__isnull=False).values_list("side__player_a_id", flat=True))
    done: list[PastedLine] = []
    for number, name in lines:
        found = named[name]
        if found.player is None and found.count:
            raise _line_error(number, _namesakes_text(name, found), "ambiguous_name")
        if found.player is not None:
            player, created = found.player, False
            if player.pk in entered:
                raise _line_error(number, _("%(name)s is already entered") % {"name": player.display_name},
                                  "already_entered")
        else:
            player, created = player_create_guest(actor=user, name=name), True
        try:
            entry_add(tournament_id=tournament.pk, user=user, player_ids=[player.pk])
        except DomainError as error:
            raise _line_error(number, error.message, error.code) from None
        entered.add(player.pk)
        done.append(PastedLine(number, player.display_name, player, created))
    return Pasted(tuple(done))


# --- seeds ----------------------------------------------------------------------------------------


@transaction.atomic
def entries_seed(*, tournament_id: int, seeds: Mapping[int, int | None], user) -> list[Entry]:
    """The organiser sets or fixes entrants' seeds before the draw: ``seeds`` maps entry ids to a
    seed (1 or more) or None (unseeded). The draw uses them when the event seeds by the
    organiser's list. No two entrants may hold one seed. Returns the entries whose seed changed.
    Audited as ``entry.seeded`` per changed entry.

    Raises NotAllowed ``not_organiser``; Conflict ``seeds_fixed`` (the draw is made: it fixed the
    seeds), ``tournament_finished``; DomainError ``unknown_entry``, ``bad_seed``, ``duplicate_seed``
    (naming both entrants). Nothing changes on failure."""
    tournament = tournament_lock(tournament_id)
    require_organiser(tournament, user)
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.finished()
    if not before_draw(tournament):
        raise Conflict(_("the draw is made and fixed every seed: seeds can only be set before it"),
                       code="seeds_fixed")
    entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament)
               .select_related("side__player_a", "side__player_b", "team")}
    wanted: dict[int, int | None] = {}
    for raw_id, seed in seeds.items():
        entry_id = _whole_numbers([raw_id])[0]
        if entry_id not in entries:
            raise errors.unknown_entry(raw_id)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 1):
            raise DomainError(_("%(name)s: a seed is a whole number, 1 or more")
                              % {"name": state.entrant_name(entries[entry_id])}, code="bad_seed", field="seeds",
                              entry=entry_id)
        wanted[entry_id] = seed
    holder: dict[int, Entry] = {}
    for entry in sorted(entries.values(), key=lambda e: (e.created_at, e.pk)):
        seed = wanted.get(entry.pk, entry.seed)
        if seed is None:
            continue
        if seed in holder:
            raise DomainError(_("%(a)s and %(b)s both have seed %(seed)d: give each entrant his own seed") % {
                "a": isolate(state.entrant_name(holder[seed])), "b": isolate(state.entrant_name(entry)), "seed": seed},
                code="duplicate_seed", field="seeds", entry=entry.pk)
        holder[seed] = entry
    changed = []
    for entry_id, seed in wanted.items():
        entry = entries[entry_id]
        if entry.seed != seed:
            before = entry_summary(entry)
            entry.seed = seed
            entry.save(update_fields=["seed"])
            event_audit_record("entry.seeded", actor=user, tournament=tournament, obj=entry, before=before,
                               after=entry_summary(entry))
            changed.append(entry)
    return changed


# --- tables ---------------------------------------------------------------------------------------


def _sides(match: Match) -> list[str]:
    return [match.side0.name, match.side1.name]


@transaction.atomic
def round_set_tables(*, tournament_id: int, tables: Mapping[int, str], user) -> list[Match]:
    """The organiser labels the table (or board) each match of the event is played at: ``tables``
    maps match ids to a label ("3", "B2"; "" clears it). Two matches of one round may not share a
    table. Returns the matches whose table changed. Audited as ``match.table_set`` per match.

    Raises NotAllowed ``not_organiser``; Conflict ``not_drawn``, ``tournament_finished``;
    DomainError ``not_event_match`` (a match of no pairing of the event), ``bad_table`` (too long),
    ``table_taken`` (naming both matches). Nothing changes on failure."""
    labels: dict[int, str] = {}
    for raw_id, label in tables.items():
        try:
            match_id = int(raw_id)
        except (TypeError, ValueError):
            match_id = None
        if match_id is None or isinstance(raw_id, bool):
            raise DomainError(_("match %(match)s is not a match of this event") % {"match": raw_id},
                              code="not_event_match", field="tables", match=raw_id)
        labels[match_id] = " ".join(str(label or "").split())
    # The matches first, then the event: the order a report's confirmation takes them.
    matches = {m.pk: m for m in locked_rows(
        Match.objects.filter(pairing__tournament_id=tournament_id)
        .select_related("side0__player_a", "side0__player_b", "side1__player_a", "side1__player_b"), labels)}
    tournament = tournament_lock(tournament_id)
    require_organiser(tournament, user)
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.finished()
    if before_draw(tournament):
        raise errors.not_drawn()
    pairings = {p.match_id: p for p in Pairing.objects.filter(tournament=tournament, match_id__in=list(labels))
                .only("match_id", "round_number", "flight")}
    missing = next((m for m in labels if m not in matches or m not in pairings), None)
    if missing is not None:
        raise DomainError(_("match %(match)s is not a match of this event") % {"match": missing},
                          code="not_event_match", field="tables", match=missing)
    for match_id, label in labels.items():
        if len(label) > TABLE_MAX:
            raise DomainError(_("%(match)s: a table is named in at most %(count)d characters") % {
                "match": _match_name(matches[match_id]), "count": TABLE_MAX}, code="bad_table", field="tables",
                match=match_id)
    # Two matches of one round at one table: the round's other matches keep theirs unless changed.
    rounds = {(pairings[m].flight, pairings[m].round_number) for m in labels}
    others = Match.objects.filter(pairing__tournament=tournament).exclude(pk__in=list(labels)).exclude(table="")
    taken: dict[tuple, int] = {}
    for match_id, flight, number, label in others.values_list("pk", "pairing__flight", "pairing__round_number",
                                                              "table"):
        if (flight, number) in rounds:
            taken[(flight, number, label.casefold())] = match_id
    for match_id, label in labels.items():
        if not label:
            continue
        pairing = pairings[match_id]
        key = (pairing.flight, pairing.round_number, label.casefold())
        if key in taken:
            other = matches.get(taken[key]) or Match.objects.select_related("side0", "side1").get(pk=taken[key])
            raise DomainError(_("%(match)s and %(other)s cannot both play at table %(table)s") % {
                "match": _match_name(matches[match_id]), "other": _match_name(other), "table": label},
                code="table_taken", field="tables", match=match_id)
        taken[key] = match_id
    changed = []
    for match_id, label in labels.items():
        match = matches[match_id]
        if match.table != label:
            before = {"table": match.table, "sides": _sides(match)}
            match.table = label
            match.save(update_fields=["table", "updated_at"])
            event_audit_record("match.table_set", actor=user, tournament=tournament, obj=match, match_id=match.pk,
                               before=before, after={"table": label, "sides": _sides(match)})
            changed.append(match)
    return changed


def _match_name(match: Match) -> str:
    return _("%(a)s v %(b)s") % {"a": isolate(match.side0.name), "b": isolate(match.side1.name)}


def match_set_table(*, tournament_id: int, match_id: int, table: str, user) -> Match:
    """One match's table (see :func:`round_set_tables`, which it calls: one transaction). Returns
    the match."""
    round_set_tables(tournament_id=tournament_id, tables={match_id: table}, user=user)
    return Match.objects.get(pk=match_id)
