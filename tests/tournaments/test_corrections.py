"""Corrections that always work, and cascade visibly: a different winner resets every later match
the old winner reached (shown first, in sentences), the same winner with another score moves
nothing, a finished event is reopened first, and refusals change nothing."""

from __future__ import annotations

import pytest

from audit.models import AuditEntry
from core.errors import Conflict, DomainError, NotAllowed
from matches.models import Match, Report
from tests.tournaments.factories import drawn, names, pairing, play, player, report_only, snapshot
from tournaments.models import Pairing, Tournament
from tournaments.services import tournament_finish
from tournaments.services.corrections import result_correct, result_correction_preview
from tournaments.services.events import event_reopen

pytestmark = pytest.mark.django_db

RULES = {"consolation_rounds": 1, "lengths": {"main": [3, 5, 7, 9], "consolation": 3}}


def sixteen(organiser):
    """16 players with a consolation flight: main round 1 and main-2-1, main-2-2 played, the first
    consolation match played (its winner waits in consolation-2-1), main-3-1 made, not started."""
    tournament, players = drawn(16, organiser=organiser, **RULES)
    for i in range(1, 9):
        row = pairing(tournament, f"main-1-{i}")
        play(tournament, row.key, row.entry0.side.player_a)
    for key in ("main-2-1", "main-2-2", "consolation-1-1"):
        row = pairing(tournament, key)
        play(tournament, key, row.entry0.side.player_a, loser_points=1)
    return tournament, {p.display_name: p for p in players}


def score_for(tournament, key, winner_name, loser_points=2):
    row = pairing(tournament, key)
    match = row.match
    winner_side = 0 if match.side0.name == winner_name else 1
    score = [loser_points, loser_points]
    score[winner_side] = match.length
    return match, tuple(score)


def rows(tournament):
    return {p.key: (names(p), p.match.status if p.match else None)
            for p in Pairing.objects.filter(tournament=tournament).select_related(
                "match", "entry0__side", "entry1__side").order_by("id")}


def test_a_different_winner_two_rounds_deep_is_previewed_then_resets_every_flight(organiser):
    tournament, who = sixteen(organiser)
    old_semi = pairing(tournament, "main-3-1").match_id
    match, score = score_for(tournament, "main-1-1", "Sybil")
    before = snapshot(tournament)
    preview = result_correction_preview(match_id=match.pk, user=organiser, score=score, tournament_id=tournament.pk)
    assert snapshot(tournament) == before  # the dry run changes nothing
    assert preview.summary == "Sybil wins a round-of-16 match, Alice v Sybil, 3-2, instead of Alice."
    assert preview.keys == ["main-2-1", "main-3-1", "consolation-1-1"]
    assert [line.sentence for line in preview.resets] == [
        "A quarter-final, Alice v Heidi, which Alice won 5-1, is reset: its result is void and Sybil v Heidi will "
        "be played instead.",
        "A semi-final, Alice v Dave, is reset: Dave waits there for an opponent still to be decided.",
        "A quarter-final of the consolation flight, Sybil v Ivan, which Sybil won 3-1, is reset: its result is void and "
        "Alice v Ivan will be played instead.",
    ]
    assert [line.key for line in preview.started] == ["main-2-1", "consolation-1-1"]

    done = result_correct(match_id=match.pk, user=organiser, score=score, expected=preview.keys)
    assert done.applied and done.keys == preview.keys
    after = rows(tournament)
    assert after["main-1-1"] == (("Alice", "Sybil"), "confirmed")
    assert after["main-2-1"] == (("Sybil", "Heidi"), "scheduled")
    assert after["main-2-2"] == (("Dave", "Erin"), "confirmed")  # untouched
    assert after["main-3-1"] == ((None, None), None)
    assert after["consolation-1-1"] == (("Alice", "Ivan"), "scheduled")
    assert after["consolation-1-2"] == (("Olivia", "Niaj"), "scheduled")
    assert not Match.objects.filter(pk=old_semi).exists()
    winner = Match.objects.get(pk=match.pk)
    assert (winner.score0, winner.score1, winner.winner) == (2, 3, 1)
    # The voided results' reports live on in the audit log; the correction is one entry.
    deleted = {e.before["pairing"]: e.before for e in AuditEntry.objects.filter(
        tournament_id=tournament.pk, action="match.deleted")}
    assert set(deleted) == {"main-2-1", "main-3-1", "consolation-1-1"}
    assert [(r["score"], r["status"]) for r in deleted["main-2-1"]["reports"]] == [([5, 1], "confirmed"),
                                                                                   ([5, 1], "agreed")]
    assert deleted["main-2-1"]["status"] == "confirmed" and deleted["main-3-1"]["reports"] == []
    entry = AuditEntry.objects.get(tournament_id=tournament.pk, action="result.corrected")
    assert entry.actor_id == organiser.pk and entry.before == {"key": "main-1-1", "winner": "Alice"}
    assert [r["key"] for r in entry.after["resets"]] == preview.keys
    # The bracket goes on from there: Sybil wins the replayed quarter-final, then the semi-final is made.
    play(tournament, "main-2-1", who["Sybil"])
    assert names(pairing(tournament, "main-3-1")) == ("Sybil", "Dave")


def test_the_same_winner_with_another_score_changes_nothing_else(organiser):
    tournament, _who = sixteen(organiser)
    match, score = score_for(tournament, "main-1-1", "Alice", loser_points=1)
    before = snapshot(tournament)
    preview = result_correction_preview(match_id=match.pk, user=organiser, score=score)
    assert preview.same_winner and preview.resets == ()
    assert preview.summary.startswith("Alice still wins a round-of-16 match, Alice v Sybil, now 3-1")
    result_correct(match_id=match.pk, user=organiser, score=score, expected=[])
    after = snapshot(tournament)
    assert after["pairings"] == before["pairings"]
    changed = [m for m, b in zip(after["matches"], before["matches"], strict=True) if m != b]
    assert [(m["pk"], m["score0"], m["score1"]) for m in changed] == [(match.pk, 3, 1)]


def test_the_dry_run_reads_a_constant_number_of_queries(organiser, django_assert_num_queries):
    tournament, _who = sixteen(organiser)
    match, score = score_for(tournament, "main-1-1", "Sybil")
    with django_assert_num_queries(3):  # the match (event joined), the entries, the pairings
        preview = result_correction_preview(match_id=match.pk, user=organiser, score=score)
    assert len(preview.resets) == 3


def test_a_finished_event_is_reopened_then_corrected(organiser):
    tournament, (alice, bob, _carol, _dave) = drawn(4, organiser=organiser)
    play(tournament, "main-1-1", alice)
    play(tournament, "main-1-2", bob)
    play(tournament, "main-2-1", alice)
    tournament_finish(tournament_id=tournament.pk, user=organiser)
    match, score = score_for(tournament, "main-1-1", "Dave")
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        result_correction_preview(match_id=match.pk, user=organiser, score=score)
    assert caught.value.code == "tournament_finished" and "reopen" in caught.value.message
    with pytest.raises(Conflict):
        result_correct(match_id=match.pk, user=organiser, score=score)
    assert snapshot(tournament) == before
    event_reopen(tournament_id=tournament.pk, user=organiser, note="wrong score sheet")
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
    reopened = AuditEntry.objects.get(tournament_id=tournament.pk, action="tournament.reopened")
    assert (reopened.before["status"], reopened.after["status"], reopened.note) == ("finished", "running",
                                                                                  "wrong score sheet")
    preview = result_correction_preview(match_id=match.pk, user=organiser, score=score)
    assert preview.keys == ["main-2-1"]
    assert preview.resets[0].sentence == ("The final, Alice v Bob, which Alice won 5-0, is reset: its result is "
                                          "void and Dave v Bob will be played instead.")
    result_correct(match_id=match.pk, user=organiser, score=score, expected=preview.keys)
    assert rows(tournament)["main-2-1"] == (("Dave", "Bob"), "scheduled")
    with pytest.raises(Conflict) as caught:
        event_reopen(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "not_finished"


def test_a_plain_override_in_a_finished_event_that_moves_the_bracket_is_refused(organiser):
    from tests.tournaments.factories import override
    tournament, (alice, bob, _carol, dave) = drawn(4, organiser=organiser)
    play(tournament, "main-1-1", alice)
    play(tournament, "main-1-2", bob)
    play(tournament, "main-2-1", alice)
    tournament_finish(tournament_id=tournament.pk, user=organiser)
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        override(tournament, "main-1-1", dave)
    assert caught.value.code == "tournament_finished"
    assert snapshot(tournament) == before


def test_refusals_say_what_and_change_nothing(organiser, another_organiser):
    tournament, _who = sixteen(organiser)
    other, _ = drawn(4, organiser=organiser, players=[player(f"zed{i}") for i in range(4)])
    match, score = score_for(tournament, "main-1-1", "Sybil")
    before = snapshot(tournament)
    with pytest.raises(NotAllowed) as caught:
        result_correct(match_id=match.pk, user=another_organiser, score=score)
    assert caught.value.code == "not_organiser"
    with pytest.raises(DomainError) as caught:
        result_correct(match_id=match.pk, user=organiser, score=score, tournament_id=other.pk)
    assert caught.value.code == "not_event_match" and str(match.pk) in caught.value.message
    with pytest.raises(DomainError) as caught:
        result_correct(match_id=match.pk, user=organiser, score=(3, 3))
    assert caught.value.code == "bad_score"
    with pytest.raises(Conflict) as caught:
        result_correct(match_id=match.pk, user=organiser, score=score, expected=["main-2-1"])
    assert caught.value.code == "cascade_changed"
    assert snapshot(tournament) == before


def test_a_reset_match_someone_reported_with_the_wrong_player_is_listed_and_reset(organiser):
    tournament, who = sixteen(organiser)
    report_only(tournament, "main-3-1", who["Alice"])
    match, score = score_for(tournament, "main-1-1", "Sybil")
    preview = result_correction_preview(match_id=match.pk, user=organiser, score=score)
    assert [line.key for line in preview.started] == ["main-2-1", "main-3-1", "consolation-1-1"]
    assert preview.resets[1].sentence.startswith("A semi-final, Alice v Dave, which had started, is reset")
    semi = pairing(tournament, "main-3-1").match_id
    result_correct(match_id=match.pk, user=organiser, score=score)
    assert not Report.objects.filter(match_id=semi).exists()
    deleted = AuditEntry.objects.get(tournament_id=tournament.pk, action="match.deleted", object_id=semi)
    assert [r["score"] for r in deleted.before["reports"]] == [[7, 0]]


def test_rated_results_reset_by_a_correction_give_their_rating_changes_back(
        organiser, monkeypatch, django_capture_on_commit_callbacks):
    from matches.models import Player, RatingChange
    from tests.matches.factories_ratings import run_tasks_inline
    run_tasks_inline(monkeypatch)
    tournament, (alice, bob, _carol, dave) = drawn(4, organiser=organiser)
    start = {p.pk: (p.rating, p.experience) for p in Player.objects.filter(pk__in=[alice.pk, bob.pk, dave.pk])}
    for key, winner in (("main-1-1", alice), ("main-1-2", bob), ("main-2-1", alice)):
        with django_capture_on_commit_callbacks(execute=True):
            play(tournament, key, winner)
    final = pairing(tournament, "main-2-1").match_id
    assert RatingChange.objects.filter(match_id=final).count() == 2
    match, score = score_for(tournament, "main-1-1", "Dave")
    with django_capture_on_commit_callbacks(execute=True):
        result_correct(match_id=match.pk, user=organiser, score=score)
    # The final Alice won is void: Alice's and Bob's changes from it are given back; main-1-1 is
    # rated again with Dave winning.
    assert not RatingChange.objects.filter(match_id=final).exists()
    now = {p.pk: p for p in Player.objects.filter(pk__in=[alice.pk, bob.pk, dave.pk])}
    bob_after_round_1 = RatingChange.objects.get(player=bob, match=pairing(tournament, "main-1-2").match)
    assert (now[bob.pk].rating, now[bob.pk].experience) == (bob_after_round_1.rating_after,
                                                            bob_after_round_1.experience_after)
    redone = RatingChange.objects.get(player=dave, match_id=match.pk)
    assert redone.rating_before == start[dave.pk][0] and redone.rating_after > redone.rating_before
    assert RatingChange.objects.get(player=alice, match_id=match.pk).rating_before == start[alice.pk][0]


def test_in_double_elimination_the_losers_bracket_is_reset_too(organiser):
    from tournaments.services import bracket_reads, state
    tournament, _players = drawn(4, organiser=organiser, format=Tournament.Format.DOUBLE_ELIMINATION)
    keys = [p.key for p in Pairing.objects.filter(tournament=tournament, match__isnull=False).order_by("key")]
    for key in keys:  # the first round of the winners' bracket: the top players win
        play(tournament, key, pairing(tournament, key).entry0.side.player_a)
    ready = Pairing.objects.filter(tournament=tournament, match__status="scheduled").order_by("key")
    for row in list(ready):
        play(tournament, row.key, pairing(tournament, row.key).entry0.side.player_a)
    first = keys[0]
    match = pairing(tournament, first).match
    loser = pairing(tournament, first).entry1.side.name
    _, score = score_for(tournament, first, loser)
    preview = result_correction_preview(match_id=match.pk, user=organiser, score=score)
    assert {line.flight for line in preview.resets} >= {"winners", "losers"}
    assert all(line.sentence and line.round_name for line in preview.resets)
    result_correct(match_id=match.pk, user=organiser, score=score, expected=preview.keys)
    view = bracket_reads.bracket_state(state.load(tournament))  # every result left fits the corrected bracket
    assert view.state.get(first).winner == pairing(tournament, first).entry1_id


def test_a_reset_match_with_a_dispute_kept_for_good_is_refused_by_name_and_nothing_changes(organiser):
    from rulings.services.disputes import dispute_open
    tournament, who = sixteen(organiser)
    semi = pairing(tournament, "main-3-1").match
    dispute_open(match_id=semi.pk, user=who["Dave"].user, category="slow_play", statement="Alice is slow.")
    match, score = score_for(tournament, "main-1-1", "Sybil")
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        result_correct(match_id=match.pk, user=organiser, score=score)
    assert caught.value.code == "result_built_on"
    assert caught.value.message.startswith("A semi-final, Alice v Dave, cannot be reset: it has started")
    assert snapshot(tournament) == before


def test_a_correction_that_would_change_more_than_its_plan_changes_nothing(organiser, monkeypatch):
    """The correction is held to its plan: were the plan to leave out a match the bracket then
    resets (here the semi-final, dropped from it on purpose), nothing would change."""
    from dataclasses import replace

    from tournaments.services import corrections

    def short_of_the_semi_final(*args, **kwargs):
        found = cascade(*args, **kwargs)
        return replace(found, resets=tuple(reset for reset in found.resets if reset.id != "main-3-1"))

    cascade = corrections.cascade
    monkeypatch.setattr(corrections, "cascade", short_of_the_semi_final)
    tournament, _who = sixteen(organiser)
    match, score = score_for(tournament, "main-1-1", "Sybil")
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        result_correct(match_id=match.pk, user=organiser, score=score)
    assert caught.value.code == "cascade_changed" and "otherwise than its preview shows" in caught.value.message
    assert snapshot(tournament) == before
    monkeypatch.undo()
    done = result_correct(match_id=match.pk, user=organiser, score=score)
    assert "main-3-1" in done.keys
