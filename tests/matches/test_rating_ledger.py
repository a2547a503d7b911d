"""The ratings ledger (matches.services.ratings): a correction of a rated result replays every
rating change from that match on, in ledger order, for the players it touches transitively, so
"has played rated matches since" never blocks it; the old changes are kept, superseded, and a
player's history says what the correction changed."""

from __future__ import annotations

import html
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import formats, timezone

from engine.ratings import fibs_change
from matches.models import Match, Player, RatingChange
from matches.selectors.players import player_rating_corrections
from matches.services.ratings import match_rating_apply, match_rating_correct, match_rating_revert, ratings_pending
from matches.services.reporting import Claim, match_override
from tests.concurrency import at_once
from tests.matches.factories_api import client_for
from tests.matches.factories_ratings import confirm, match_between, player

pytestmark = pytest.mark.django_db


def played(games: list[tuple[Player, Player, int]]) -> list[Match]:
    """Each (winner, loser, length) confirmed and rated in this order (the ledger's order)."""
    matches = []
    for winner, loser, length in games:
        match = confirm(match_between(winner, loser, length=length), (length, 0))
        match_rating_apply(match_id=match.pk)
        matches.append(match)
    return matches


def from_scratch(start: dict[int, tuple[float, int]], games: list[tuple[int, int, int]]) -> dict[int, tuple]:
    """Every player's (rating, experience) after ``games`` (winner id, loser id, length) in this
    order, computed with the engine alone from the players' starting ratings."""
    standing = dict(start)
    for winner, loser, length in games:
        (won_from, won_experience), (lost_from, lost_experience) = standing[winner], standing[loser]
        change = fibs_change(won_from, lost_from, length, winner_experience=won_experience,
                             loser_experience=lost_experience)
        standing[winner] = (won_from + change.winner_delta, won_experience + length)
        standing[loser] = (lost_from + change.loser_delta, lost_experience + length)
    return standing


def standing(*players: Player) -> dict[int, tuple]:
    return {p.pk: (p.rating, p.experience) for p in Player.objects.filter(pk__in=[p.pk for p in players])}


def consistent(p: Player) -> bool:
    """The player's live changes chain (each starts where the previous ended, in ledger order)
    and end at his rating."""
    p.refresh_from_db()
    rating = experience = None
    for change in RatingChange.objects.filter(player=p).order_by("sequence"):
        if rating is not None and (change.rating_before, change.experience_before) != (rating, experience):
            return False
        rating, experience = change.rating_after, change.experience_after
    return rating is None or (p.rating, p.experience) == (rating, experience)


@pytest.fixture
def six():
    """Six players, new and experienced (K from 5 down to 1: experience matters in the replay)."""
    return [player("ana", rating=1500, experience=0), player("ben", rating=1620, experience=150),
            player("cleo", rating=1480, experience=420), player("dan", rating=1550, experience=60),
            player("eve", rating=1530, experience=500), player("finn", rating=1490, experience=10)]


def test_a_replay_after_a_correction_equals_the_ratings_computed_from_scratch(six):
    ana, ben, cleo, dan, eve, finn = six
    start = standing(*six)
    games = [(dan, eve, 5),    # m1: before the correction; dan is touched only from m5 on
             (ana, ben, 7),    # m2: corrected below to ben's win
             (cleo, dan, 3),   # m3: neither is touched yet: stays as it was
             (ana, cleo, 5),   # m4: cleo touched from here
             (cleo, dan, 9),   # m5: dan touched from here
             (ben, dan, 1),
             (eve, finn, 11),  # m7: eve is not touched yet, finn never: stays
             (dan, ana, 5),
             (ben, cleo, 3),
             (eve, dan, 7)]    # m10: eve touched from here
    matches = played(games)
    corrected = matches[1]
    places = dict(RatingChange.objects.values_list("match_id", "sequence"))
    match_override(match_id=corrected.pk, user=corrected.organiser, claim=Claim((2, 7)))

    # From scratch, in the order the matches were confirmed, with ben winning the corrected one.
    results = [(loser, winner, n) if m == corrected else (winner, loser, n)
               for m, (winner, loser, n) in zip(matches, games, strict=True)]
    expected = from_scratch(start, [(winner.pk, loser.pk, n) for winner, loser, n in results])
    assert standing(*six) == expected
    for p in six:
        p.refresh_from_db()
        assert p.experience == expected[p.pk][1]
        assert consistent(p), p
    # Only the changes that moved were superseded, each by this correction; the others are as they were.
    superseded = RatingChange.ledger.filter(superseded_at__isnull=False)
    assert {c.corrected_match_id for c in superseded} == {corrected.pk}
    assert {c.match_id for c in superseded} == {matches[i].pk for i in (1, 3, 4, 5, 7, 8, 9)}
    assert set(superseded.filter(match=matches[9]).values_list("player_id", flat=True)) == {dan.pk, eve.pk}
    # The ledger keeps its order: each match at the place it had.
    assert dict(RatingChange.objects.values_list("match_id", "sequence")) == places
    assert RatingChange.objects.count() == 2 * len(matches)


def test_a_result_taken_back_is_replayed_without_it(six):
    ana, ben, cleo, dan, *_ = six
    start = standing(ana, ben, cleo, dan)
    matches = played([(ana, ben, 7), (ben, cleo, 5), (cleo, dan, 3), (dan, ana, 5)])
    assert match_rating_revert(match=matches[0]) == 4
    expected = from_scratch(start, [(ben.pk, cleo.pk, 5), (cleo.pk, dan.pk, 3), (dan.pk, ana.pk, 5)])
    assert standing(ana, ben, cleo, dan) == expected
    assert not matches[0].rating_changes.exists()
    assert all(consistent(p) for p in (ana, ben, cleo, dan))
    # Still confirmed here (match_reopen clears the result next): its superseded rows do not hide
    # it from the catch-up, which would rate it again, at the end of the ledger.
    assert list(ratings_pending()) == [matches[0].pk]


def test_a_correction_that_keeps_the_winner_changes_no_rating(six):
    # FIBS ratings depend on the match length and the winner, never on the score.
    ana, ben, cleo, *_ = six
    first, _ = played([(ana, ben, 7), (ana, cleo, 5)])
    before = (standing(ana, ben, cleo), list(RatingChange.ledger.order_by("pk").values()))
    match_override(match_id=first.pk, user=first.organiser, claim=Claim((7, 5)))
    first.refresh_from_db()
    assert (first.score0, first.score1, first.winner) == (7, 5, 0)
    assert (standing(ana, ben, cleo), list(RatingChange.ledger.order_by("pk").values())) == before
    assert match_rating_correct(match_id=first.pk, winner=0) == 0


def test_the_query_count_of_a_replay_is_fixed_for_a_small_chain(six):
    # A line: ana-ben (corrected), ana-cleo, cleo-dan. Who is affected is read in 3 waves ({ana,
    # ben}, then cleo, then dan), twice (without and with the locks): the service's savepoint (it
    # runs inside the correction's transaction) and 2 (the match, its changes) + 3 + savepoint +
    # the 2 other matches' locks + the players' locks + 3 + savepoint released + 3 writes + the
    # service's savepoint released: 9 + the matches + 2 x the waves = 18.
    ana, ben, cleo, dan, *_ = six
    first, *_ = played([(ana, ben, 7), (ana, cleo, 5), (cleo, dan, 3)])
    Match.objects.filter(pk=first.pk).update(score0=0, score1=7, winner=1)
    with CaptureQueriesContext(connection) as queries:
        assert match_rating_correct(match_id=first.pk, winner=1) == 3
    assert len(queries) == 18, [q["sql"] for q in queries]
    # One more match in the line adds one wave: two reads.
    eve = six[4]
    second, *_ = played([(ben, eve, 3), (eve, dan, 1), (dan, cleo, 5), (cleo, ana, 7)])
    Match.objects.filter(pk=second.pk).update(score0=0, score1=3, winner=1)
    with CaptureQueriesContext(connection) as queries:
        assert match_rating_correct(match_id=second.pk, winner=1) == 4  # ben-eve, eve-dan, dan-cleo, cleo-ana
    # Waves: {ben, eve}, then dan, then cleo, then ana: 4.
    assert len(queries) == 9 + 4 + 2 * 4, [q["sql"] for q in queries]


# --- the history ------------------------------------------------------------------------------------


def text_of(response) -> str:
    page = re.sub(r"<svg.*?</svg>", " ", response.content.decode(), flags=re.S)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def test_the_history_shows_the_correction_on_the_page_and_in_the_api(six, client):
    ana, ben, cleo, *_ = six
    first, later = played([(ana, ben, 7), (ana, cleo, 5)])

    def after(match, p):
        return match.rating_changes.get(player=p).rating_after

    was = {(m.pk, p.pk): after(m, p) for m in (first, later) for p in (ana, ben, cleo) if m.rating_changes.filter(player=p)}
    match_override(match_id=first.pk, user=first.organiser, claim=Claim((3, 7)))
    day = formats.date_format(timezone.localtime(), "j M")

    def moved(match, p):
        return f"rating {formats.number_format(was[match.pk, p.pk], 1)} → {formats.number_format(after(match, p), 1)}"

    said = f"Corrected on {day}: match against Ben now lost; {moved(first, ana)}"
    # Newest first, one correction's changes in ledger order.
    assert [c.sentence for c in player_rating_corrections(ana)] == [
        said, f"Recomputed on {day} after an earlier result was corrected: match against Cleo; {moved(later, ana)}"]
    assert [c.sentence for c in player_rating_corrections(ben)] == [
        f"Corrected on {day}: match against Ana now won; {moved(first, ben)}"]
    assert [c.sentence for c in player_rating_corrections(cleo)] == [
        f"Recomputed on {day} after an earlier result was corrected: match against Ana; {moved(later, cleo)}"]

    assert said in text_of(client.get(reverse("matches:player", args=[ana.pk])))
    data = client_for().get(f"/api/v1/players/{ana.pk}/").data
    assert data["rating_corrections"][0] | {"date": None} == {
        "match": first.pk, "date": None, "kind": "result", "won": False, "was": was[first.pk, ana.pk],
        "now": after(first, ana), "sentence": said}
    assert data["rating_corrections"][1]["kind"] == "recomputed"
    assert [(c["match"], c["after"]) for c in data["rating_history"]] == [
        (first.pk, after(first, ana)), (later.pk, after(later, ana))]


def test_a_match_taken_out_of_the_ledger_says_so(six):
    ana, ben, *_ = six
    [match] = played([(ana, ben, 7)])
    assert player_rating_corrections(ana) == []
    after = match.rating_changes.get(player=ana).rating_after
    match_rating_revert(match=match)
    [said] = player_rating_corrections(ana)
    day = formats.date_format(timezone.localtime(), "j M")
    assert said.sentence == (f"Corrected on {day}: match against Ben no longer counts for the rating "
                             f"(rating after it was {formats.number_format(after, 1)})")
    assert (said.kind, said.now, said.won) == ("removed", None, None)


def test_the_history_reads_take_the_same_queries_for_one_correction_as_for_many(six, client):
    ana, ben, cleo, dan, *_ = six
    matches = played([(ana, ben, 7), (ana, cleo, 5), (ana, dan, 3), (ben, cleo, 1)])
    few, many = dan, ana
    match_override(match_id=matches[0].pk, user=matches[0].organiser, claim=Claim((2, 7)))
    assert len(player_rating_corrections(many)) == 3 and len(player_rating_corrections(few)) == 1
    counts = {}
    for p in (few, many):
        with CaptureQueriesContext(connection) as page:
            assert client.get(reverse("matches:player", args=[p.pk])).status_code == 200
        with CaptureQueriesContext(connection) as api:
            assert client_for().get(f"/api/v1/players/{p.pk}/").status_code == 200
        counts[p.pk] = (len(page), len(api))
    assert counts[few.pk] == counts[many.pk]
    with CaptureQueriesContext(connection) as one:
        player_rating_corrections(many)
    assert len(one) == 1


# --- concurrency (real PostgreSQL, one connection per thread) ---------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_corrections_racing_are_serialised_and_both_replayed(monkeypatch):
    from tests.matches.factories_ratings import run_tasks_inline

    run_tasks_inline(monkeypatch, run=False)
    for _ in range(3):
        ana, ben, cleo, dan = (player(name, rating=rating, experience=experience) for name, rating, experience in
                               (("ana", 1500, 0), ("ben", 1620, 150), ("cleo", 1480, 420), ("dan", 1550, 60)))
        start = standing(ana, ben, cleo, dan)
        games = [(ana, ben, 7), (ben, cleo, 5), (cleo, dan, 3), (dan, ana, 5), (ana, cleo, 1)]
        matches = played(games)
        # Two corrections at once of two matches whose replays share every later player.
        first, second = matches[:2]
        outcomes = at_once([
            lambda first=first: match_override(match_id=first.pk, user=first.organiser, claim=Claim((0, 7))),
            lambda second=second: match_override(match_id=second.pk, user=second.organiser, claim=Claim((1, 5))),
        ])
        assert outcomes == ["done", "done"]
        expected = from_scratch(start, [(ben.pk, ana.pk, 7), (cleo.pk, ben.pk, 5), (cleo.pk, dan.pk, 3),
                                        (dan.pk, ana.pk, 5), (ana.pk, cleo.pk, 1)])
        assert standing(ana, ben, cleo, dan) == expected
        assert all(consistent(p) for p in (ana, ben, cleo, dan))
        assert RatingChange.objects.filter(match__in=matches).count() == 2 * len(matches)


@pytest.mark.django_db(transaction=True)
def test_a_correction_that_finds_a_new_rating_under_its_locks_takes_them_again(monkeypatch):
    from django.db import transaction

    from matches.services import ratings
    from tests.matches.factories_ratings import run_tasks_inline
    from tests.matches.test_services_ratings import InThread, blocked

    run_tasks_inline(monkeypatch, run=False)
    reads = []
    real = ratings._affected
    monkeypatch.setattr(ratings, "_affected", lambda *args: reads.append(args) or real(*args))
    ana, ben, cleo = (player(name, rating=rating, experience=0) for name, rating in
                      (("ana", 1500), ("ben", 1620), ("cleo", 1480)))
    start = standing(ana, ben, cleo)
    [first] = played([(ana, ben, 7)])
    later = confirm(match_between(ben, cleo, length=5), (5, 0))
    # ben's row held: the later match's rating waits for it, then the correction (which has read
    # the ledger without cleo). The rating goes first and brings cleo in: the correction must
    # give its locks back and take them again, with cleo and the later match.
    with transaction.atomic():
        Player.objects.select_for_update().get(pk=ben.pk)
        rating = InThread(lambda: match_rating_apply(match_id=later.pk))
        waited = blocked(rating)
        correction = InThread(lambda: match_override(match_id=first.pk, user=first.organiser, claim=Claim((3, 7))))
        waited = waited and blocked(rating, correction)
    rating.join()
    correction.join()
    assert waited and (rating.error, correction.error) == (None, None)
    assert len(reads) == 3  # read without the locks, with them, and with them again (cleo in)
    expected = from_scratch(start, [(ben.pk, ana.pk, 7), (ben.pk, cleo.pk, 5)])
    assert standing(ana, ben, cleo) == expected
    assert all(consistent(p) for p in (ana, ben, cleo))


# --- the migration ----------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_each_existing_change_its_matchs_place_in_application_order():
    from django.db.migrations.executor import MigrationExecutor

    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        executor = MigrationExecutor(connection)
        executor.migrate([("matches", "0007_match_newest_first")])
        apps = MigrationExecutor(connection).loader.project_state([("matches", "0007_match_newest_first")]).apps
        Player, Side, Match = (apps.get_model("matches", name) for name in ("Player", "Side", "Match"))
        OldChange = apps.get_model("matches", "RatingChange")
        players = [Player.objects.create(display_name=name) for name in ("Ana", "Ben", "Cleo")]
        sides = [Side.objects.create(player_a=p) for p in players]
        applied = []
        for a, b in ((0, 1), (1, 2), (2, 0)):
            match = Match.objects.create(side0=sides[a], side1=sides[b], length=5)
            for p in (players[a], players[b]):
                OldChange.objects.create(player=p, match=match, rating_before=1500, rating_after=1500,
                                         experience_before=0, experience_after=5)
            applied.append(match.pk)
        firsts = {m: min(OldChange.objects.filter(match_id=m).values_list("pk", flat=True)) for m in applied}

        executor = MigrationExecutor(connection)
        executor.migrate([("matches", "0008_ledger_rating_sequence")])
        apps = MigrationExecutor(connection).loader.project_state([("matches", "0008_ledger_rating_sequence")]).apps
        NewChange = apps.get_model("matches", "RatingChange")
        places = {}
        for match_id, sequence in NewChange.objects.values_list("match_id", "sequence"):
            places.setdefault(match_id, set()).add(sequence)
        assert places == {m: {firsts[m]} for m in applied}  # both rows of a match at one place
        assert [firsts[m] for m in applied] == sorted(firsts.values())  # in the order they were applied
    finally:
        MigrationExecutor(connection).migrate(latest)
