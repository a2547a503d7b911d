"""A draw and a round create their matches, sides, pairings and audit entries in bulk: the number
of queries is a constant, the same for a small event and a big one.

Queries are counted with a ``connection.execute_wrapper`` counter (``CaptureQueriesContext`` stops
recording at 9,000). Each big event is compared with a small one of the same format: the same
count proves it does not grow with the number of entrants; the exact figure makes a regression
(a query per match coming back) fail.
"""

from __future__ import annotations

import random

import pytest
from django.db import connection, models

from accounts.models import User
from audit.models import AuditEntry
from matches.models import Match, Player, Side
from tests.tournaments.factories import closed, make_organiser
from tests.tournaments.factories_teams import enter_teams, team_cast
from tournaments.models import Acceptance, BoardMatch, BoardOrder, Entry, EventMatch, Pairing, Round, Tournament
from tournaments.services import tournament_draw, tournament_pair_next_round

pytestmark = pytest.mark.django_db

# The draw's queries whatever the number of entrants: the event locked (and its version moved on),
# its entries read, their seeds and the event's status written; in a savepoint the matches, their
# event links and ``match.created`` entries inserted; the pairings inserted (a round robin's and a
# Swiss's with their matches; a bracket's first, then its entrants and matches written); the
# ``tournament.drawn`` entry. A round robin adds its Round rows, a Swiss its Round row (in a
# savepoint); a Swiss round reads the event's entries and pairings, and writes the
# ``round.paired`` entry instead of ``tournament.drawn``. Each draw and round then looks for the
# webhooks told of pairings (webhooks: one query). Creating matches reads once who the event
# vouches for (its acceptances: one query).
BRACKET_DRAW_QUERIES = 18
ROUND_ROBIN_DRAW_QUERIES = 17
SWISS_DRAW_QUERIES = 20
SWISS_ROUND_QUERIES = 18


class Counter:
    """Counts the queries run on the default connection while it is installed."""

    def __init__(self):
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


def count_queries(work) -> int:
    counter = Counter()
    with connection.execute_wrapper(counter):
        work()
    return counter.count


def event(size: int, organiser: User, **rules) -> Tournament:
    """A closed event of ``size`` checked-in players (their users, players and solo sides made in
    bulk), rated in a seeded random order."""
    rng = random.Random(size)
    tournament = closed(organiser=organiser, **rules)
    users = User.objects.bulk_create([User(username=f"t{tournament.pk}-{i:04}") for i in range(size)])
    players = Player.objects.bulk_create([
        Player(user=user, display_name=f"Player {i:04}", rating=1500 + rng.uniform(-300, 300))
        for i, user in enumerate(users)])
    sides = Side.objects.bulk_create([Side(player_a=p) for p in players])
    Entry.objects.bulk_create([Entry(tournament=tournament, side=s, status=Entry.Status.CHECKED_IN) for s in sides])
    # They signed up themselves: the event vouches for them (their matches' consent is given).
    Acceptance.objects.bulk_create([Acceptance(tournament=tournament, player=p, how=Acceptance.How.SIGNED_UP)
                                    for p in players])
    return tournament


def drawn_count(size: int, organiser: User, **rules) -> tuple[Tournament, int]:
    tournament = event(size, organiser, **rules)
    count = count_queries(lambda: tournament_draw(tournament_id=tournament.pk, user=organiser))
    return tournament, count


def assert_matches_made(tournament: Tournament, matches: int) -> None:
    """Every match of the event has its event link, its pairing and its ``match.created`` entry."""
    made = Match.objects.filter(event_link__tournament=tournament)
    assert made.count() == matches
    assert EventMatch.objects.filter(tournament=tournament).count() == matches
    assert Pairing.objects.filter(tournament=tournament, match__isnull=False).count() == matches
    assert AuditEntry.objects.filter(tournament_id=tournament.pk, action="match.created").count() == matches
    assert not made.exclude(consent0=Match.Consent.GIVEN, consent1=Match.Consent.GIVEN).exists()
    assert not made.exclude(organiser=tournament.organiser).exists()


def test_a_1024_entrant_draw_with_consolation_takes_the_same_queries_as_a_64_entrant_one():
    organiser = make_organiser()
    rules = {"consolation_rounds": 3, "last_chance": True, "seeding": Tournament.Seeding.RANDOM,
             "lengths": {"main": [5, 5, 7, 9], "consolation": [3, 5], "last_chance": 3}}
    big, big_count = drawn_count(1024, organiser, **rules)
    small, small_count = drawn_count(64, organiser, **rules)
    assert_matches_made(big, 512)
    assert_matches_made(small, 32)
    assert (big_count, small_count) == (BRACKET_DRAW_QUERIES, BRACKET_DRAW_QUERIES)


def test_a_1024_entrant_double_elimination_draw_takes_the_same_queries_as_a_32_entrant_one():
    organiser = make_organiser()
    big, big_count = drawn_count(1024, organiser, format=Tournament.Format.DOUBLE_ELIMINATION)
    small, small_count = drawn_count(32, organiser, format=Tournament.Format.DOUBLE_ELIMINATION)
    assert_matches_made(big, 512)
    assert_matches_made(small, 16)
    assert (big_count, small_count) == (BRACKET_DRAW_QUERIES, BRACKET_DRAW_QUERIES)


def test_a_64_player_round_robin_draw_takes_the_same_queries_as_an_8_player_one():
    organiser = make_organiser()
    big, big_count = drawn_count(64, organiser, format=Tournament.Format.ROUND_ROBIN)
    small, small_count = drawn_count(8, organiser, format=Tournament.Format.ROUND_ROBIN)
    assert_matches_made(big, 64 * 63 // 2)
    assert_matches_made(small, 8 * 7 // 2)
    assert (big_count, small_count) == (ROUND_ROBIN_DRAW_QUERIES, ROUND_ROBIN_DRAW_QUERIES)


def confirm_all(tournament: Tournament, rng: random.Random) -> None:
    """Every open match of the event confirmed with a seeded winner, in one UPDATE per outcome
    (the confirmation path is not what these tests count)."""
    open_matches = list(Match.objects.filter(event_link__tournament=tournament).exclude(status="confirmed"))
    for match in open_matches:
        match.winner = rng.randrange(2)
        match.score0, match.score1 = (match.length, 0) if match.winner == 0 else (0, match.length)
        match.status = Match.Status.CONFIRMED
    Match.objects.bulk_update(open_matches, ["winner", "score0", "score1", "status"])


def swiss_round_count(size: int, organiser: User) -> tuple[Tournament, int, int]:
    tournament, draw_count = drawn_count(size, organiser, format=Tournament.Format.SWISS, swiss_rounds=5)
    confirm_all(tournament, random.Random(size))
    count = count_queries(lambda: tournament_pair_next_round(tournament_id=tournament.pk, user=organiser))
    return tournament, draw_count, count


def test_a_1000_player_swiss_round_takes_the_same_queries_as_a_10_player_one():
    organiser = make_organiser()
    big, big_draw, big_round = swiss_round_count(1000, organiser)
    small, small_draw, small_round = swiss_round_count(10, organiser)
    assert_matches_made(big, 1000)
    assert_matches_made(small, 10)
    assert Round.objects.filter(tournament=big).count() == 2
    assert AuditEntry.objects.filter(tournament_id=big.pk, action="round.paired").count() == 2
    assert (big_draw, small_draw) == (SWISS_DRAW_QUERIES, SWISS_DRAW_QUERIES)
    assert (big_round, small_round) == (SWISS_ROUND_QUERIES, SWISS_ROUND_QUERIES)


def test_a_small_draw_and_round_take_the_constant_number_of_queries():
    """A third size for each: a 16-entrant bracket with two consolation rounds and a last chance,
    a 6-player round robin, a 12-player Swiss and its round 2 take the same constants."""
    organiser = make_organiser()
    _, bracket = drawn_count(16, organiser, consolation_rounds=2, last_chance=True)
    _, round_robin = drawn_count(6, organiser, format=Tournament.Format.ROUND_ROBIN)
    swiss, swiss_draw, swiss_round = swiss_round_count(12, organiser)
    assert (bracket, round_robin, swiss_draw, swiss_round) == (
        BRACKET_DRAW_QUERIES, ROUND_ROBIN_DRAW_QUERIES, SWISS_DRAW_QUERIES, SWISS_ROUND_QUERIES)
    assert_matches_made(swiss, 12)


@pytest.mark.parametrize("draw_format", [Tournament.Format.ROUND_ROBIN, Tournament.Format.SINGLE_ELIMINATION])
def test_team_matches_are_started_in_the_same_queries_for_more_teams(organiser, draw_format):
    """Team events: the boards of a round (board orders stored and locked, sides, board matches,
    their audit entries) are made in bulk too; two teams (one team match) and four teams (two)
    give the same count. (The two teams' players get their solo sides at the first draw, the
    other two teams' at the second: both draws create sides.)"""
    players = team_cast()
    counts = []
    for count in (2, 4):
        tournament = closed(organiser=organiser, kind=Tournament.Kind.TEAMS, format=draw_format)
        enter_teams(tournament, players, count)
        counts.append(count_queries(lambda t=tournament: tournament_draw(tournament_id=t.pk, user=organiser)))
        round_one = Pairing.objects.filter(tournament=tournament, round_number=1, entry1__isnull=False)
        boards = BoardMatch.objects.filter(pairing__in=round_one)
        assert round_one.count() == count // 2
        assert boards.count() == round_one.count() * tournament.board_count
        assert BoardOrder.objects.filter(team__tournament=tournament, round_number=1, locked=True).count() == count
        assert AuditEntry.objects.filter(tournament_id=tournament.pk, action="match.created").count() == boards.count()
    assert counts[0] == counts[1]


# --- divisions and handicaps ---

DIVISIONS = [{"name": "Open"}, {"name": "Intermediate"}, {"name": "Novice"}]
HANDICAPS = [{"division": "Intermediate", "against": "Open", "length": 7, "points": 1},
             {"division": "Novice", "against": "Open", "length": 7, "points": 2}]


def test_handicap_starts_between_divisions_take_no_query_of_their_own():
    """A draw and a Swiss round of an event with divisions (entrants spread over three) take the
    same constants: the handicap start is read from the entries and the event already loaded."""
    organiser = make_organiser()
    counts = []
    for size in (12, 200):
        tournament = event(size, organiser, format=Tournament.Format.SWISS, swiss_rounds=5, lengths={"rounds": 7},
                           divisions=DIVISIONS, handicaps=HANDICAPS)
        entries = list(Entry.objects.filter(tournament=tournament).order_by("pk"))
        for i, entry in enumerate(entries):
            entry.division = DIVISIONS[i % 3]["name"]
        Entry.objects.bulk_update(entries, ["division"])
        draw = count_queries(lambda t=tournament: tournament_draw(tournament_id=t.pk, user=organiser))
        confirm_all(tournament, random.Random(size))
        paired = count_queries(lambda t=tournament: tournament_pair_next_round(tournament_id=t.pk, user=organiser))
        counts.append((draw, paired))
        started = Match.objects.filter(event_link__tournament=tournament).exclude(penalty0=0, penalty1=0)
        assert started.exists()
        assert not Pairing.objects.filter(tournament=tournament, match__isnull=False).exclude(
            handicap0=models.F("match__penalty0"), handicap1=models.F("match__penalty1")).exists()
    assert counts == [(SWISS_DRAW_QUERIES, SWISS_ROUND_QUERIES)] * 2
