"""The draw, and pairing a Swiss round by round."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.bulk import rows_update
from tournaments import errors
from tournaments.draw import DrawError, SwissPairing, seed_by_list, seed_by_rating, seed_randomly
from tournaments.hooks import round_paired
from tournaments.models import Entry, Pairing, Round, TeamMember, Tournament

from . import contention, state
from .advance import bracket_sync, pairing_matches_create, swiss_pair, swiss_round_write
from .audit import entrant_names, event_audit_record, pairing_summary, tournament_summary
from .common import require_organiser, tournament_lock

MAX_SEED = 2**63 - 1  # Tournament.draw_seed is a BigIntegerField

MINIMUM_ENTRIES = {
    Tournament.Format.SINGLE_ELIMINATION: 2,
    Tournament.Format.DOUBLE_ELIMINATION: 3,
    Tournament.Format.SWISS: 2,
}


def _ratings(entries: list[Entry]) -> dict[int, float]:
    """Each entrant's rating for seeding, by entry id: a player's, a pair's average, a team's
    players' average (the members of every team read in one query)."""
    members: dict[int, list] = {e.team_id: [] for e in entries if e.team_id is not None}
    if members:
        for member in (TeamMember.objects.filter(team_id__in=list(members)).select_related("player")
                       .order_by("reserve", "id")):
            members[member.team_id].append(member.player)
    out = {}
    for entry in entries:
        players = members[entry.team_id] if entry.team_id is not None else entry.side.players
        out[entry.pk] = sum(p.rating for p in players) / len(players)
    return out


def _random_key(entry: Entry):
    """What a random draw shuffles: the side (a player or a pair), not the entry, so that the same
    entrants and seed give the same draw in any event, whatever order they signed up in."""
    return entry.side_id if entry.side_id is not None else ("team", entry.team_id)


def _order(tournament: Tournament, entries: list[Entry], seed: int | None) -> tuple[int, ...]:
    """The checked-in entries (in entry order) as the draw's seeding: entry ids, seed 1 first."""
    if tournament.seeding == Tournament.Seeding.RATING:
        return seed_by_rating(list(_ratings(entries).items())).order
    if tournament.seeding == Tournament.Seeding.ORGANISER:
        # The organiser's seeds first, in order (equal seeds by entry order), then the unseeded.
        listed = sorted(entries, key=lambda e: (e.seed is None, e.seed or 0))
        return seed_by_list(e.pk for e in listed).order
    by_key = {_random_key(e): e.pk for e in entries}
    return tuple(by_key[k] for k in seed_randomly(list(by_key), seed).order)


@transaction.atomic
def tournament_draw(*, tournament_id: int, user, seed: int | None = None) -> Tournament:
    """Make the draw of a tournament whose entries are closed; it starts running.

    - Entrants: the checked-in entries; the others drop out (their ``seed`` is cleared).
    - Seeding (the event's rule): by rating (a pair's average), by the organiser's seeds
      (``Entry.seed``; unseeded entrants after them, in entry order), or at random from a recorded
      seed: ``seed``, or a fresh ``secrets.randbits(32)``; the same entrants and seed give the same
      draw. Each entrant's ``Entry.seed`` becomes his seed number in the draw (the draw is rebuilt
      from it later, whatever ratings do meanwhile); ``draw_seed`` and ``drawn_at`` are recorded.
    - The format's draw: single elimination with its consolation and last-chance flights, double
      elimination, round robin in groups (its whole schedule), or Swiss round 1. A ``Pairing`` per
      draw match under the draw's id; a scheduled match (the event's lengths, Crawford and move
      policy, directed by the organiser) for every pairing whose two entrants are known; byes go
      through at once.

    Raises NotAllowed ``not_organiser``; Conflict ``already_drawn``, ``entries_open`` (close
    them and check in first), ``too_few_entries``, ``no_pairing`` (Swiss round 1 impossible, e.g.
    all of one club); DomainError ``seed_unused`` (a seed for a non-random
    draw), ``bad_seed``, and the draw's own codes (``bad_groups``, ``bad_drop_map``: the rules do
    not fit this many entrants). Nothing changes on failure. Audited as ``tournament.drawn``
    (the seeds and every pairing written, with its entrants) and ``match.created`` per match.
    """
    tournament = tournament_lock(tournament_id)
    require_organiser(tournament, user)
    if tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED) or tournament.drawn_at:
        raise errors.already_drawn()
    if tournament.status != Tournament.Status.CLOSED:
        raise errors.entries_open()
    random = tournament.seeding == Tournament.Seeding.RANDOM
    if seed is not None:
        if not random:
            raise errors.seed_unused(tournament.get_seeding_display().lower())
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise errors.bad_seed(gettext("a random seed is a whole number from 0 to %(max)d") % {"max": MAX_SEED})
    elif random:
        seed = secrets.randbits(32)
    entries = list(
        Entry.objects.filter(tournament=tournament).select_related("side__player_a", "side__player_b", "team")
        .order_by("created_at", "id")
    )
    present = [e for e in entries if e.status == Entry.Status.CHECKED_IN]
    minimum = MINIMUM_ENTRIES.get(tournament.format, 2 * tournament.groups)
    if len(present) < minimum:
        raise errors.too_few_entries(len(present), minimum)
    try:
        order = _order(tournament, present, seed)
    except DrawError as error:
        raise errors.from_draw(error) from None
    before = tournament_summary(tournament)
    number = {entry_id: i for i, entry_id in enumerate(order, start=1)}
    for entry in entries:
        entry.seed = number.get(entry.pk)
    rows_update(Entry, entries, ["seed"])
    tournament.draw_seed = seed if random else None
    tournament.drawn_at = timezone.now()
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["draw_seed", "drawn_at", "status"])
    try:
        if tournament.format in state.BRACKET_FORMATS:
            loaded = _draw_bracket(tournament, order, user, entries)
        elif tournament.format == Tournament.Format.ROUND_ROBIN:
            loaded = _draw_round_robin(tournament, order, user, entries)
        else:
            loaded = _draw_swiss(tournament, user, entries)
    except DrawError as error:
        raise errors.from_draw(error) from None
    names = entrant_names(loaded)
    event_audit_record("tournament.drawn", actor=user, tournament=tournament, obj=tournament, before=before,
                       after={**tournament_summary(tournament), "draw_seed": tournament.draw_seed,
                  "seeds": [[entry_id, names[entry_id]] for entry_id in order],
                  "pairings": [pairing_summary(p, names) for p in loaded.pairings]})
    if tournament.format != Tournament.Format.SWISS:  # a Swiss round 1 is announced by swiss_round_write
        round_paired.send(tournament=tournament, round_number=None, actor=user, pairings=[
            pairing_summary(p, names) for p in loaded.pairings if p.match_id is not None])
    return tournament


def _loaded(tournament: Tournament, entries: list[Entry], pairings: list[Pairing]) -> state.Loaded:
    """What :func:`state.load` would read right after the draw wrote ``entries`` (their seeds)
    and ``pairings`` (none has a report or a board yet; a round robin's have their matches),
    built from those rows without reading them again: entries in seed order (the others last),
    pairings by round then id."""
    for pairing in pairings:
        pairing.has_reports = False
        # --- team events ---
        if tournament.kind == Tournament.Kind.TEAMS:
            pairing.board_rows = []
        # --- end team events ---
    return state.Loaded(
        tournament, sorted(entries, key=lambda e: (e.seed is None, e.seed or 0, e.created_at, e.pk)),
        sorted(pairings, key=lambda p: (p.round_number, p.pk)),
    )


def _draw_bracket(tournament: Tournament, order, user, entries: list[Entry]) -> state.Loaded:
    bracket = state.build_bracket(tournament, order)
    rows = Pairing.objects.bulk_create(
        Pairing(tournament=tournament, key=m.id, flight=m.flight, round_number=m.round, length=m.length)
        for m in bracket.matches
    )
    loaded = _loaded(tournament, entries, rows)
    # Filling the entries and creating the first matches is what advancement does with no results.
    bracket_sync(tournament, loaded, created_by=user, refuse=lambda dependent, why: errors.already_drawn(), audit=False)
    return loaded


def _draw_round_robin(tournament: Tournament, order, user, entries: list[Entry]) -> state.Loaded:
    draw = state.build_round_robin(tournament, order)
    rounds = max(len(group.rounds) for group in draw.groups)
    Round.objects.bulk_create(Round(tournament=tournament, number=n) for n in range(1, rounds + 1))
    rows = [
        Pairing(tournament=tournament, key=p.id, flight=p.flight, round_number=p.round, entry0_id=p.top,
                entry1_id=p.bottom, length=p.length)
        for p in draw.pairings
    ]
    # --- team events: only round 1 starts now, so captains can set later rounds' orders; its
    # boards name their pairings, which are written first ---
    if tournament.kind == Tournament.Kind.TEAMS:
        Pairing.objects.bulk_create(rows)
        loaded = _loaded(tournament, entries, rows)
        pairing_matches_create(tournament, [row for row in rows if row.round_number == 1], loaded, user)
        return loaded
    # --- end team events ---
    # The matches first: each pairing is then inserted with its match.
    pairing_matches_create(tournament, rows, _loaded(tournament, entries, []), user)
    Pairing.objects.bulk_create(rows)
    return _loaded(tournament, entries, rows)


def _draw_swiss(tournament: Tournament, user, entries: list[Entry]) -> state.Loaded:
    loaded = _loaded(tournament, entries, [])
    answer = swiss_pair(tournament, loaded)
    if not isinstance(answer, SwissPairing):
        raise errors.no_pairing(answer.round, answer.code, answer.message)
    swiss_round_write(tournament, loaded, answer, user)
    return loaded


@transaction.atomic
def tournament_pair_next_round(*, tournament_id: int, user) -> Round:
    """Pair the next round of a running Swiss from the confirmed results: equal records meet, no
    rematches, the bye (a win) to the lowest-ranked player with the fewest byes, no two players
    of one club when the event forbids it; withdrawn players are not paired, late entrants are.
    Audited as ``round.paired`` (its pairings and bye) and ``match.created`` per board.

    Creates the Round row (one per number: two concurrent calls are serialised by the
    tournament lock, and the unique constraint would refuse a second row anyway), a pairing per
    board plus one for the bye, and the boards' matches. Raises NotAllowed ``not_organiser``;
    Conflict ``not_swiss``, ``not_drawn``, ``tournament_finished``, ``round_incomplete`` (a match
    of the current round has no confirmed result), ``swiss_complete`` (the published rounds are
    played, or an elimination Swiss has one player left: finish the event), ``playoffs_started``
    and ``playoffs_due`` (a modified Swiss has stopped, or must stop, for its playoffs), ``no_pairing`` (no
    valid pairing exists, with the draw's reason), ``round_paired``. Nothing changes on failure.
    """
    tournament = tournament_lock(tournament_id)
    require_organiser(tournament, user)
    if tournament.format != Tournament.Format.SWISS:
        raise errors.not_swiss()
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.finished()
    if tournament.status != Tournament.Status.RUNNING:
        raise errors.not_drawn()
    # A modified Swiss stops for its playoffs
    if tournament.abt_playoff:
        raise errors.playoffs_started()
    loaded = state.load(tournament)
    current = max((p.round_number for p in loaded.pairings), default=0)
    missing = [p for p in loaded.pairings
               if p.round_number == current and state.has_matches(p) and not state.is_confirmed(p)]
    if missing:
        raise errors.round_incomplete(current, len(missing))
    if tournament.abt_playoffs:
        found = contention.event_contention(loaded)
        if found is not None and found.complete and found.state.to_playoffs:
            raise errors.playoffs_due(len(found.state.can_cash), found.state.paid)
    if tournament.swiss_rounds is not None and current >= tournament.swiss_rounds:
        raise errors.swiss_complete(gettext("all %(count)d rounds are played: finish the event")
                                    % {"count": tournament.swiss_rounds})
    answer = swiss_pair(tournament, loaded)
    if not isinstance(answer, SwissPairing):
        if answer.code == "finished":
            last = loaded.by_id[answer.unpaired[0]]
            raise errors.swiss_complete(gettext("%(name)s is the last player left: finish the event")
                                        % {"name": state.entrant_name(last)})
        raise errors.no_pairing(answer.round, answer.code, answer.message)
    return swiss_round_write(tournament, loaded, answer, user)
