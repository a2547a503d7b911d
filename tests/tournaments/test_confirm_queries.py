"""A confirmation reads only what its result feeds: the same number of queries at 16 and at 1,000
players (single and double elimination, Swiss), and exactly the writes of the full rebuild.

The big events are built with bulk inserts in the shape the draw leaves them (every pairing's
entries as ``bracket_reads.expected_entries`` gives them, a scheduled match for every ready pairing), so
that the tests run in seconds; ``test_the_narrow_path_writes_what_the_full_rebuild_writes``
plays small events through the services and holds each confirmation against the full rebuild.
"""

from __future__ import annotations

import random
from contextlib import contextmanager

import pytest
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import User
from audit.models import AuditEntry
from matches.models import Match, Player, Side
from matches.services.reporting import claim_make, match_override
from tests.tournaments.factories import cast, closed, drawn, enter, entry_of, names, pairing, play
from tournaments.draw import advance
from tournaments.models import Entry, EventMatch, Pairing, Round, Tournament
from tournaments.services import advance as advance_service
from tournaments.services import (
    bracket_reads,
    draw_sync,
    entry_withdraw,
    state,
    tournament_draw,
    tournament_result_confirmed,
)

pytestmark = pytest.mark.django_db

#: The goal: a confirmation's own queries (the tournament's part, the creation of
#: the at most two matches it makes aside).
QUERY_GOAL = 15
SIZES = (16, 1000)
# The originals, before a test wraps them to count. The service makes the matches of several
# pairings in one call (pairing_matches_create): its queries are counted apart.
CREATOR = "pairing_matches_create"
CREATE = getattr(draw_sync, CREATOR)
#: The modules that call it (each by its own name for it): the draw's writes (the bracket's sync,
#: the formats') and a confirmation's narrow writes.
CREATOR_MODULES = (draw_sync, advance_service)
LOAD = state.load


# --- building big events in bulk ------------------------------------------------------------------


def _entries(tournament: Tournament, count: int) -> list[Entry]:
    tag = f"t{tournament.pk}"
    users = User.objects.bulk_create([User(username=f"{tag}-{i:04}") for i in range(count)])
    players = Player.objects.bulk_create([Player(user=u, display_name=f"{tag} {i:04}") for i, u in enumerate(users)])
    sides = Side.objects.bulk_create([Side(player_a=p) for p in players])
    return Entry.objects.bulk_create([
        Entry(tournament=tournament, side=side, seed=i, status=Entry.Status.CHECKED_IN)
        for i, side in enumerate(sides, start=1)
    ])


def _matches(tournament: Tournament, pairings: list[Pairing], by_id: dict[int, Entry]) -> None:
    """A scheduled match, linked to the event, for every pairing of two entries."""
    ready = [p for p in pairings if p.entry0_id is not None and p.entry1_id is not None]
    matches = Match.objects.bulk_create([
        Match(side0_id=by_id[p.entry0_id].side_id, side1_id=by_id[p.entry1_id].side_id, length=p.length,
              organiser=tournament.organiser, created_by=tournament.organiser,
              consent0=Match.Consent.GIVEN, consent1=Match.Consent.GIVEN)
        for p in ready
    ])
    EventMatch.objects.bulk_create([EventMatch(match=m, tournament=tournament) for m in matches])
    for row, match in zip(ready, matches, strict=True):
        row.match = match
    Pairing.objects.bulk_update(ready, ["match"])


def bulk_bracket(organiser, count: int, **rules) -> Tournament:
    """A drawn bracket of ``count`` players, as the draw leaves it, in a few bulk inserts."""
    tournament = Tournament.objects.create(name=f"bracket {count}", organiser=organiser, status=Tournament.Status.RUNNING,
                                           drawn_at=timezone.now(), **rules)
    entries = _entries(tournament, count)
    bracket = state.build_bracket(tournament, [e.pk for e in entries])
    pairings = Pairing.objects.bulk_create([
        Pairing(tournament=tournament, key=s.match.id, flight=s.match.flight, round_number=s.match.round,
                length=s.match.length, entry0_id=bracket_reads.expected_entries(s)[0],
                entry1_id=bracket_reads.expected_entries(s)[1])
        for s in advance(bracket, {}).matches
    ])
    _matches(tournament, pairings, {e.pk: e for e in entries})
    return tournament


def bulk_swiss(organiser, count: int) -> Tournament:
    """A Swiss of ``count`` players with round 1 paired (seed i against seed i + count / 2)."""
    tournament = Tournament.objects.create(name=f"swiss {count}", organiser=organiser, status=Tournament.Status.RUNNING,
                                           format=Tournament.Format.SWISS, swiss_rounds=9, drawn_at=timezone.now())
    entries = _entries(tournament, count)
    Round.objects.create(tournament=tournament, number=1)
    half = count // 2
    pairings = Pairing.objects.bulk_create([
        Pairing(tournament=tournament, key=f"swiss-1-{i + 1}", flight="swiss", round_number=1, length=5,
                entry0_id=entries[i].pk, entry1_id=entries[i + half].pk)
        for i in range(half)
    ])
    _matches(tournament, pairings, {e.pk: e for e in entries})
    return tournament


# --- counting -------------------------------------------------------------------------------------


@contextmanager
def counted(monkeypatch):
    """Count the queries run inside the block: ``total``, and ``creating`` (those of the match
    creation a confirmation asks for, counted apart: the service makes it a batch)."""
    counts = {"total": 0, "creating": 0, "created": 0}
    inside = []

    def creating(tournament, pairings, *args, **kwargs):
        inside.append(True)
        try:
            counts["created"] += len(pairings) if isinstance(pairings, list) else 1
            return CREATE(tournament, pairings, *args, **kwargs)
        finally:
            inside.pop()

    def wrapper(execute, sql, params, many, context):
        counts["total"] += 1
        counts["creating"] += bool(inside)
        return execute(sql, params, many, context)

    for module in CREATOR_MODULES:
        monkeypatch.setattr(module, CREATOR, creating)
    with connection.execute_wrapper(wrapper):
        yield counts


def confirm(tournament: Tournament, key: str, monkeypatch, *, top_wins: bool = True) -> dict:
    """Confirm pairing ``key``'s match (the result written as the reporting services write it),
    then count the queries of the tournament's hook alone."""
    match = Match.objects.select_related("event_link").get(pairing__tournament=tournament, pairing__key=key)
    match.score0, match.score1 = (match.length, 0) if top_wins else (0, match.length)
    match.winner = 0 if top_wins else 1
    match.status = Match.Status.CONFIRMED
    match.save(update_fields=["score0", "score1", "winner", "status"])
    with transaction.atomic(), counted(monkeypatch) as counts:
        tournament_result_confirmed(match=match)
    return counts


def no_full_load(monkeypatch) -> list:
    """Record every call of ``state.load`` (the whole event) from now on."""
    calls = []
    monkeypatch.setattr(state, "load", lambda tournament: calls.append(tournament.pk) or LOAD(tournament))
    return calls


def _first_pair(tournament: Tournament, flight: str) -> tuple[str, str]:
    """Two first-round pairings of ``flight`` that feed the same next pairing and both have a
    match (no bye), and whose losers meet in a fed flight if there is one: in a bracket of
    1,000 the byes are at the top, so this is the bottom pair of the bracket."""
    keys = set(Pairing.objects.filter(tournament=tournament, flight=flight, round_number=1, match__isnull=False)
               .values_list("key", flat=True))
    last = max(int(k.rsplit("-", 1)[1]) for k in keys)
    first, second = f"{flight}-1-{last - 1}", f"{flight}-1-{last}"
    assert {first, second} <= keys
    return first, second




@pytest.mark.parametrize("rules, flight", [
    ({"format": Tournament.Format.SINGLE_ELIMINATION, "consolation_rounds": 2, "last_chance": True}, "main"),
    ({"format": Tournament.Format.DOUBLE_ELIMINATION}, "winners"),
], ids=["single-with-consolation-and-last-chance", "double"])
def test_a_bracket_confirmation_costs_the_same_queries_at_16_and_1000_players(organiser, monkeypatch, rules, flight):
    loads = no_full_load(monkeypatch)
    waiting, ready = {}, {}
    for count in SIZES:
        tournament = bulk_bracket(organiser, count, **rules)
        first, second = _first_pair(tournament, flight)
        waiting[count] = confirm(tournament, first, monkeypatch)
        assert waiting[count]["created"] == 0  # its winner and its loser wait for the other pairing
        ready[count] = confirm(tournament, second, monkeypatch, top_wins=False)
        # The winners meet in round 2, the losers in the fed flight: two matches made.
        assert ready[count]["created"] == 2
        assert Pairing.objects.filter(tournament=tournament, round_number=2, flight=flight,
                                      match__isnull=False).count() == 1
    assert loads == []  # never the whole event
    assert waiting[16] == waiting[1000] and waiting[16]["total"] < QUERY_GOAL
    assert ready[16] == ready[1000]
    assert ready[16]["total"] - ready[16]["creating"] < QUERY_GOAL


def test_a_loser_going_through_a_bye_in_the_consolation_costs_the_same_at_24_and_1000(organiser, monkeypatch):
    """main-1-1 is seed 1's bye at both sizes: the loser of main-1-2 goes through consolation-1-1
    without playing (what that pass feeds is read with the rest, in the same query) and its
    winner meets seed 1."""
    loads = no_full_load(monkeypatch)
    counts = {}
    for count in (24, 1000):
        tournament = bulk_bracket(organiser, count, consolation_rounds=1)
        counts[count] = confirm(tournament, "main-1-2", monkeypatch)
        loser = Pairing.objects.get(tournament=tournament, key="main-1-2").entry1_id
        assert Pairing.objects.filter(tournament=tournament, key="consolation-1-1").values_list(
            "entry0", "entry1").get() == (None, loser)
        # Its winner meets seed 1, who had the bye: that match is made.
        assert counts[count]["created"] == 1
        assert Pairing.objects.get(tournament=tournament, key="main-2-1").match_id is not None
    assert loads == []
    assert counts[24] == counts[1000] and counts[24]["total"] - counts[24]["creating"] < QUERY_GOAL


def test_a_swiss_confirmation_costs_the_same_queries_at_16_and_1000_players(organiser, monkeypatch):
    loads = no_full_load(monkeypatch)
    counts = {}
    for count in SIZES:
        tournament = bulk_swiss(organiser, count)
        counts[count] = confirm(tournament, "swiss-1-3", monkeypatch)
    assert loads == []
    assert counts[16] == counts[1000] and counts[16]["total"] < QUERY_GOAL


def test_a_whole_confirmation_through_the_reporting_services_costs_the_same_at_16_and_1000(organiser):
    totals = {}
    for count in SIZES:
        tournament = bulk_bracket(organiser, count, consolation_rounds=1)
        first, _ = _first_pair(tournament, "main")
        match = Match.objects.get(pairing__tournament=tournament, pairing__key=first)
        calls = []

        def wrapper(execute, sql, params, many, context, calls=calls):
            calls.append(sql)
            return execute(sql, params, many, context)

        user = User.objects.get(pk=organiser.pk)  # as a request has it: nothing read through it yet
        with connection.execute_wrapper(wrapper):
            match_override(match_id=match.pk, user=user, claim=claim_make(match, (match.length, 0), None))
        totals[count] = len(calls)
    assert totals[16] == totals[1000]


# --- the narrow path against the full rebuild -------------------------------------------------------


def _writes(tournament: Tournament, since: int) -> dict:
    """What a confirmation wrote, with match ids (which differ between two runs) left out."""
    pairings = list(Pairing.objects.filter(tournament=tournament).order_by("key").values_list(
        "key", "entry0", "entry1", "match__side0", "match__side1", "match__length", "match__status"))

    def plain(value):
        if isinstance(value, dict):
            return {k: (v is not None) if k in ("match", "match_id") else plain(v) for k, v in value.items()}
        return value

    audit = [(a.action, a.object_type, a.match_id is not None, plain(a.before), plain(a.after))
             for a in AuditEntry.objects.filter(tournament_id=tournament.pk, pk__gt=since)
             .exclude(object_type="matches.Match").order_by("pk")]
    return {"pairings": pairings, "audit": audit}


def _both_ways(tournament: Tournament, key: str, winner_side: int, monkeypatch) -> None:
    """Confirm ``key`` by the organiser's override once through the narrow path and once through
    the full rebuild (each in a savepoint rolled back), assert they write the same, then keep the
    narrow path's writes."""
    match = Match.objects.get(pairing__tournament=tournament, pairing__key=key)
    score = [0, 0]
    score[winner_side] = match.length
    claim = claim_make(match, tuple(score), None)
    since = AuditEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    outcomes = []
    for narrow in (True, False):
        with monkeypatch.context() as patch:
            loads = no_full_load(patch)
            if not narrow:
                patch.setattr(bracket_reads, "bracket_plan", _refuse_to_plan)
            point = transaction.savepoint()
            match_override(match_id=match.pk, user=tournament.organiser, claim=claim)
            outcomes.append(_writes(tournament, since))
            transaction.savepoint_rollback(point)
            if narrow:
                assert loads == [], f"{key}: the confirmation loaded the whole event"
    assert outcomes[0] == outcomes[1], key
    match_override(match_id=match.pk, user=tournament.organiser, claim=claim)


def _refuse_to_plan(*args, **kwargs):
    raise bracket_reads.Unplannable("the full rebuild, for comparison")


@pytest.mark.slow  # about 30 s for the six events: each result confirmed twice, both ways
@pytest.mark.parametrize("count, rules, withdraw", [
    (11, {"consolation_rounds": 2, "last_chance": True}, ()),
    (13, {"consolation_rounds": 3}, (4, 9)),
    (11, {"format": Tournament.Format.DOUBLE_ELIMINATION}, ()),
    (7, {"format": Tournament.Format.DOUBLE_ELIMINATION}, (2,)),
    (10, {"consolation_rounds": 1, "last_chance": True}, (0, 7)),
    (9, {"format": Tournament.Format.DOUBLE_ELIMINATION}, (8, 3)),
], ids=["single-byes-last-chance", "single-withdrawals", "double-byes", "double-withdrawal",
        "last-chance-withdrawals", "double-withdrawals"])
def test_the_narrow_path_writes_what_the_full_rebuild_writes(organiser, monkeypatch, count, rules, withdraw):
    tournament = closed(organiser=organiser, **rules)
    players = cast(count)
    enter(tournament, players)
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    rng = random.Random(count)
    played = 0
    while True:
        if played in (2, 5) and withdraw:
            gone = Entry.objects.get(tournament=tournament, side__player_a=players[withdraw[0]])
            withdraw = withdraw[1:]
            entry_withdraw(tournament_id=tournament.pk, entry_id=gone.pk, user=organiser)
        open_keys = list(Pairing.objects.filter(tournament=tournament, match__status=Match.Status.SCHEDULED)
                         .order_by("round_number", "key").values_list("key", flat=True))
        if not open_keys:
            break
        _both_ways(tournament, rng.choice(open_keys), rng.randrange(2), monkeypatch)
        played += 1
    assert played >= count - 2
    # Nothing is left for the full rebuild to do.
    loaded = state.load(tournament)
    before = _writes(tournament, 0)
    draw_sync.bracket_sync(tournament, loaded, created_by=organiser, refuse=_refuse_to_plan)
    assert _writes(tournament, 0) == before


def test_a_correction_takes_the_full_rebuild_and_resets_the_next_match(organiser, monkeypatch):
    tournament, (_alice, _bob, _carol, dave) = drawn(4, organiser=organiser)
    for key in ("main-1-1", "main-1-2"):
        match = Match.objects.get(pairing__tournament=tournament, pairing__key=key)
        match_override(match_id=match.pk, user=organiser, claim=claim_make(match, (match.length, 0), None))
    final = Pairing.objects.get(tournament=tournament, key="main-2-1")
    loads = no_full_load(monkeypatch)
    match = Match.objects.get(pairing__tournament=tournament, pairing__key="main-1-1")
    match_override(match_id=match.pk, user=organiser, claim=claim_make(match, (0, match.length), None))
    assert loads == [tournament.pk]  # a correction: the rare path
    final.refresh_from_db()
    assert final.match_id is not None and final.entry0_id == Entry.objects.get(
        tournament=tournament, side__player_a=dave).pk


def test_a_result_after_a_walkover_is_confirmed_and_the_full_rebuild_agrees(organiser):
    """Dave goes through consolation-1-1 by walkover (Heidi withdrew); his next match's result
    used to be refused by the full rebuild, which advanced the confirmed results before the
    walkovers they come after."""
    tournament, (alice, bob, carol, dave, erin, frank, _grace, heidi) = drawn(
        8, organiser=organiser, consolation_rounds=1)
    play(tournament, "main-1-1", alice)
    entry_withdraw(tournament_id=tournament.pk, entry_id=entry_of(tournament, heidi).pk, user=organiser)
    play(tournament, "main-1-2", erin)
    walkover = pairing(tournament, "consolation-1-1")
    assert names(walkover) == ("Heidi", "Dave") and walkover.match is None
    play(tournament, "main-1-3", bob)
    play(tournament, "main-1-4", frank)
    play(tournament, "consolation-1-2", carol)
    assert names(pairing(tournament, "consolation-2-1")) == ("Dave", "Carol")
    play(tournament, "consolation-2-1", dave)
    view = bracket_reads.bracket_state(state.load(tournament))
    assert view.walkovers == {"consolation-1-1"}
    assert view.state.champion("consolation") == entry_of(tournament, dave).pk
    before = _writes(tournament, 0)
    draw_sync.bracket_sync(tournament, state.load(tournament), created_by=organiser, refuse=_refuse_to_plan)
    assert _writes(tournament, 0) == before
