"""Entries: the organiser adds, players sign up, check-in, withdrawal (before and after the draw)
and late entry, with every refusal changing nothing."""

from __future__ import annotations

import pytest

from core.errors import Conflict, DomainError, NotAllowed
from matches.models import Match, Side
from tests.factories import TournamentFactory, UserFactory
from tests.tournaments.factories import (
    cast,
    closed,
    drawn,
    enter,
    entry_of,
    names,
    pairing,
    play,
    player,
    report_only,
    snapshot,
)
from tournaments.models import Entry, Pairing, Tournament
from tournaments.services import (
    entry_add,
    entry_add_late,
    entry_check_in,
    entry_sign_up,
    entry_withdraw,
    tournament_draw,
    tournament_pair_next_round,
)

pytestmark = pytest.mark.django_db





def open_event(organiser, **rules) -> Tournament:
    return TournamentFactory(organiser=organiser, status=Tournament.Status.OPEN, **rules)


# --- the organiser adds ----------------------------------------------------------------------------


def test_the_organiser_adds_a_player_with_his_seed(organiser):
    tournament = closed(organiser=organiser)
    alice = player("alice")
    entry = entry_add(tournament_id=tournament.pk, user=organiser, player_ids=[alice.pk], seed=2)
    assert (entry.side.player_a, entry.side.player_b, entry.seed, entry.status) == (alice, None, 2, Entry.Status.ENTERED)


def test_the_organiser_adds_a_pair_that_names_who_rolls(organiser):
    tournament = closed(organiser=organiser, kind=Tournament.Kind.PAIRS)
    alice, bob = player("alice"), player("bob")
    entry = entry_add(tournament_id=tournament.pk, user=organiser, player_ids=[bob.pk, alice.pk], rolls=bob.pk)
    assert entry.side.name == "Alice & Bob" and entry.side.roller == Side.Roller.B
    again = entry_add(tournament_id=closed(organiser=organiser, kind=Tournament.Kind.PAIRS).pk, user=organiser,
                      player_ids=[alice.pk, bob.pk])
    assert again.side_id == entry.side_id and Side.objects.get(pk=entry.side_id).roller == Side.Roller.ALTERNATE


def test_staff_may_add_an_entry(staff):
    tournament = closed()
    entry = entry_add(tournament_id=tournament.pk, user=staff, player_ids=[player("alice").pk])
    assert entry.tournament_id == tournament.pk


@pytest.mark.parametrize(
    ("kind", "ids", "code"),
    [
        (Tournament.Kind.INDIVIDUAL, lambda a, b: [999999], "unknown_player"),
        (Tournament.Kind.INDIVIDUAL, lambda a, b: ["alice"], "unknown_player"),
        (Tournament.Kind.INDIVIDUAL, lambda a, b: [a.pk, b.pk], "bad_entrant"),
        (Tournament.Kind.INDIVIDUAL, lambda a, b: [], "bad_entrant"),
        (Tournament.Kind.PAIRS, lambda a, b: [a.pk], "bad_entrant"),
        (Tournament.Kind.PAIRS, lambda a, b: [a.pk, a.pk], "bad_entrant"),
        (Tournament.Kind.PAIRS, lambda a, b: [a.pk, 999999], "unknown_player"),
        (Tournament.Kind.TEAMS, lambda a, b: [a.pk], "team_event"),
    ],
)
def test_adding_a_wrong_entrant_is_refused_and_changes_nothing(organiser, kind, ids, code):
    tournament = closed(organiser=organiser, kind=kind)
    alice, bob = player("alice"), player("bob")
    before = snapshot(tournament)
    with pytest.raises(DomainError) as caught:
        entry_add(tournament_id=tournament.pk, user=organiser, player_ids=ids(alice, bob))
    assert caught.value.code == code and caught.value.status == 400
    assert snapshot(tournament) == before


def test_a_player_is_entered_once_even_as_half_of_a_pair(organiser):
    tournament = closed(organiser=organiser, kind=Tournament.Kind.PAIRS)
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    entry_add(tournament_id=tournament.pk, user=organiser, player_ids=[alice.pk, bob.pk])
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        entry_add(tournament_id=tournament.pk, user=organiser, player_ids=[carol.pk, bob.pk])
    assert caught.value.code == "already_entered" and "Alice & Bob" in caught.value.message
    assert snapshot(tournament) == before


def test_a_bad_seed_or_roller_is_refused(organiser):
    tournament = closed(organiser=organiser, kind=Tournament.Kind.PAIRS)
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    with pytest.raises(DomainError) as caught:
        entry_add(tournament_id=tournament.pk, user=organiser, player_ids=[alice.pk, bob.pk], seed=0)
    assert caught.value.code == "bad_seed"
    with pytest.raises(DomainError) as caught:
        entry_add(tournament_id=tournament.pk, user=organiser, player_ids=[alice.pk, bob.pk], rolls=carol.pk)
    assert caught.value.code == "bad_roller" and not Entry.objects.filter(tournament=tournament).exists()


def test_another_organiser_cannot_add_an_entry(organiser, another_organiser):
    tournament = closed(organiser=organiser)
    with pytest.raises(NotAllowed) as caught:
        entry_add(tournament_id=tournament.pk, user=another_organiser, player_ids=[player("alice").pk])
    assert caught.value.code == "not_organiser" and not Entry.objects.exists()


def test_adding_after_the_draw_points_to_a_late_entry(organiser):
    tournament, _ = drawn(4, organiser=organiser)
    with pytest.raises(Conflict) as caught:
        entry_add(tournament_id=tournament.pk, user=organiser, player_ids=[player("zoe").pk])
    assert caught.value.code == "already_drawn" and "late entry" in caught.value.message


# --- a player signs up -----------------------------------------------------------------------------


def test_a_player_signs_himself_up_while_entries_are_open(organiser):
    tournament = open_event(organiser)
    alice = player("alice")
    entry = entry_sign_up(tournament_id=tournament.pk, user=alice.user)
    assert entry.side.player_a == alice and entry.status == Entry.Status.ENTERED


def test_a_player_signs_up_a_pair_naming_his_partner_and_who_rolls(organiser):
    tournament = open_event(organiser, kind=Tournament.Kind.PAIRS)
    alice, bob = player("alice"), player("bob")
    entry = entry_sign_up(tournament_id=tournament.pk, user=bob.user, partner_id=alice.pk, rolls=alice.pk)
    assert entry.side.name == "Alice & Bob" and entry.side.roller == Side.Roller.A


@pytest.mark.parametrize("status", [Tournament.Status.DRAFT, Tournament.Status.CLOSED, Tournament.Status.RUNNING])
def test_signing_up_when_entries_are_not_open_is_refused(organiser, status):
    tournament = TournamentFactory(organiser=organiser, status=status)
    alice = player("alice")
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        entry_sign_up(tournament_id=tournament.pk, user=alice.user)
    assert caught.value.code == "entries_closed"
    assert snapshot(tournament) == before


@pytest.mark.parametrize(
    ("kind", "partner", "code"),
    [
        (Tournament.Kind.PAIRS, None, "partner_required"),
        (Tournament.Kind.PAIRS, 999999, "unknown_player"),
        (Tournament.Kind.PAIRS, "self", "bad_entrant"),
        (Tournament.Kind.INDIVIDUAL, "bob", "partner_not_allowed"),
    ],
)
def test_a_sign_up_with_a_wrong_partner_is_refused(organiser, kind, partner, code):
    tournament = open_event(organiser, kind=kind)
    alice, bob = player("alice"), player("bob")
    partner_id = {"self": alice.pk, "bob": bob.pk}.get(partner, partner)
    with pytest.raises(DomainError) as caught:
        entry_sign_up(tournament_id=tournament.pk, user=alice.user, partner_id=partner_id)
    assert caught.value.code == code and not Entry.objects.exists()


def test_signing_up_twice_is_a_conflict(organiser):
    tournament = open_event(organiser)
    alice = player("alice")
    entry_sign_up(tournament_id=tournament.pk, user=alice.user)
    with pytest.raises(Conflict) as caught:
        entry_sign_up(tournament_id=tournament.pk, user=alice.user)
    assert caught.value.code == "already_entered"
    assert Entry.objects.filter(tournament=tournament).count() == 1


def test_a_user_without_a_player_profile_cannot_sign_up(organiser):
    tournament = open_event(organiser)
    with pytest.raises(NotAllowed) as caught:
        entry_sign_up(tournament_id=tournament.pk, user=UserFactory(username="nobody"))
    assert caught.value.code == "no_player"


# --- check-in ------------------------------------------------------------------------------------


def test_a_player_checks_himself_in_and_again_changes_nothing(organiser):
    tournament = closed(organiser=organiser)
    alice = player("alice")
    (entry,) = enter(tournament, [alice], checked_in=False)
    checked = entry_check_in(tournament_id=tournament.pk, entry_id=entry.pk, user=alice.user)
    assert checked.status == Entry.Status.CHECKED_IN
    again = entry_check_in(tournament_id=tournament.pk, entry_id=entry.pk, user=alice.user)
    assert again.status == Entry.Status.CHECKED_IN


def test_the_organiser_or_either_member_of_a_pair_checks_it_in(organiser):
    tournament = closed(organiser=organiser, kind=Tournament.Kind.PAIRS)
    alice, bob, carol, dave = cast(4)
    first, second = enter(tournament, [(alice, bob), (carol, dave)], checked_in=False)
    entry_check_in(tournament_id=tournament.pk, entry_id=first.pk, user=bob.user)
    entry_check_in(tournament_id=tournament.pk, entry_id=second.pk, user=organiser)
    assert set(Entry.objects.values_list("status", flat=True)) == {Entry.Status.CHECKED_IN}


def test_another_player_cannot_check_someone_in(organiser):
    tournament = closed(organiser=organiser)
    alice, _bob, carol = cast(3)
    (entry,) = enter(tournament, [alice], checked_in=False)
    with pytest.raises(NotAllowed) as caught:
        entry_check_in(tournament_id=tournament.pk, entry_id=entry.pk, user=carol.user)
    assert caught.value.code == "not_your_entry"
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ENTERED


def test_checking_in_an_unknown_entrant_is_refused(organiser):
    tournament, other = closed(organiser=organiser), closed(organiser=organiser)
    (elsewhere,) = enter(other, [player("alice")], checked_in=False)
    for entry_id in (999999, elsewhere.pk, "x"):
        with pytest.raises(DomainError) as caught:
            entry_check_in(tournament_id=tournament.pk, entry_id=entry_id, user=organiser)
        assert caught.value.code == "unknown_entry"
    elsewhere.refresh_from_db()
    assert elsewhere.status == Entry.Status.ENTERED


def test_check_in_waits_for_the_entries_to_close(organiser):
    tournament = open_event(organiser)
    alice = player("alice")
    (entry,) = enter(tournament, [alice], checked_in=False)
    with pytest.raises(Conflict) as caught:
        entry_check_in(tournament_id=tournament.pk, entry_id=entry.pk, user=alice.user)
    assert caught.value.code == "check_in_not_open"


def test_checking_in_after_the_draw_is_refused_and_changes_nothing(organiser):
    tournament = closed(organiser=organiser)
    alice, bob, carol = cast(3)
    enter(tournament, [alice, bob])
    (late,) = enter(tournament, [carol], checked_in=False)
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        entry_check_in(tournament_id=tournament.pk, entry_id=late.pk, user=carol.user)
    assert caught.value.code == "already_drawn"
    assert snapshot(tournament) == before


# --- withdrawal ----------------------------------------------------------------------------------


def test_withdrawing_before_the_draw_removes_the_entry_and_twice_finds_nothing(organiser):
    tournament = closed(organiser=organiser)
    alice = player("alice")
    (entry,) = enter(tournament, [alice])
    assert entry_withdraw(tournament_id=tournament.pk, entry_id=entry.pk, user=alice.user) is None
    assert not Entry.objects.filter(tournament=tournament).exists()
    with pytest.raises(DomainError) as caught:
        entry_withdraw(tournament_id=tournament.pk, entry_id=entry.pk, user=alice.user)
    assert caught.value.code == "unknown_entry"


def test_another_player_cannot_withdraw_someone(organiser):
    tournament = closed(organiser=organiser)
    alice, bob = cast(2)
    (entry,) = enter(tournament, [alice])
    with pytest.raises(NotAllowed) as caught:
        entry_withdraw(tournament_id=tournament.pk, entry_id=entry.pk, user=bob.user)
    assert caught.value.code == "not_your_entry" and Entry.objects.filter(pk=entry.pk).exists()


def test_withdrawing_after_the_draw_forfeits_the_open_match_to_the_opponent(organiser):
    tournament, (alice, _bob, carol, _dave) = drawn(4, organiser=organiser, lengths={"main": 7})
    play(tournament, "main-1-1", alice)
    entry = entry_withdraw(tournament_id=tournament.pk, entry_id=entry_of(tournament, carol).pk, user=carol.user)
    assert entry.status == Entry.Status.WITHDRAWN
    forfeited = pairing(tournament, "main-1-2").match  # Bob v Carol
    assert (forfeited.status, forfeited.score0, forfeited.score1, forfeited.winner) == ("confirmed", 7, 0, 0)
    assert forfeited.rated is False  # nothing was played
    report = forfeited.reports.get()
    assert report.side is None and report.reporter == organiser
    assert (report.origin, report.origin_name, report.statement) == ("forfeit", "Carol", "")
    # The forfeit advanced the bracket like any confirmed result.
    assert names(pairing(tournament, "main-2-1")) == ("Alice", "Bob")


def test_withdrawing_twice_after_the_draw_is_a_conflict(organiser):
    tournament, (_alice, _bob, _carol, dave) = drawn(4, organiser=organiser)
    entry_withdraw(tournament_id=tournament.pk, entry_id=entry_of(tournament, dave).pk, user=organiser)
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        entry_withdraw(tournament_id=tournament.pk, entry_id=entry_of(tournament, dave).pk, user=dave.user)
    assert caught.value.code == "already_withdrawn" and "Dave" in caught.value.message
    assert snapshot(tournament) == before


def test_a_withdrawn_players_later_bracket_match_is_a_walkover_without_a_match(organiser):
    tournament, cast8 = drawn(8, organiser=organiser)
    alice, bob, carol, _dave, erin, _frank, _grace, _heidi = cast8
    play(tournament, "main-1-1", alice)  # Alice waits for Dave v Erin
    entry_withdraw(tournament_id=tournament.pk, entry_id=entry_of(tournament, alice).pk, user=alice.user)
    assert pairing(tournament, "main-2-1").match is None
    play(tournament, "main-1-2", erin)
    walkover = pairing(tournament, "main-2-1")
    assert names(walkover) == ("Alice", "Erin") and walkover.match is None
    play(tournament, "main-1-3", bob)
    play(tournament, "main-1-4", carol)
    play(tournament, "main-2-2", bob)
    # Erin went through the walkover: the final is Erin v Bob.
    assert names(pairing(tournament, "main-3-1")) == ("Erin", "Bob")


def test_a_withdrawn_swiss_player_forfeits_his_board_and_is_not_paired_again(organiser):
    tournament, cast4 = drawn(4, organiser=organiser, format=Tournament.Format.SWISS, swiss_rounds=3)
    alice, _bob, _carol, dave = cast4
    play(tournament, "swiss-1-1", alice)  # Alice v Carol; Bob v Dave
    entry_withdraw(tournament_id=tournament.pk, entry_id=entry_of(tournament, dave).pk, user=dave.user)
    assert pairing(tournament, "swiss-1-2").match.winner == 0  # Bob by forfeit
    tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    round_two = Pairing.objects.filter(tournament=tournament, round_number=2).select_related(
        "entry0__side__player_a", "entry1__side__player_a")
    assert {names(p) for p in round_two} == {("Alice", "Bob"), ("Carol", None)}  # Carol has the bye


def test_a_withdrawn_round_robin_player_forfeits_every_remaining_match(organiser):
    tournament, (_alice, _bob, _carol, dave) = drawn(4, organiser=organiser, format=Tournament.Format.ROUND_ROBIN)
    entry_withdraw(tournament_id=tournament.pk, entry_id=entry_of(tournament, dave).pk, user=organiser)
    dave_matches = Match.objects.filter(event_link__tournament=tournament, side1__player_a=dave) | Match.objects.filter(
        event_link__tournament=tournament, side0__player_a=dave)
    assert dave_matches.count() == 3
    assert all(m.status == Match.Status.CONFIRMED and m.rated is False for m in dave_matches)
    assert Match.objects.filter(event_link__tournament=tournament, status=Match.Status.SCHEDULED).count() == 3


def test_the_organiser_who_plays_cannot_forfeit_his_own_match(organiser):
    tournament = closed(organiser=organiser)
    olga = player("olga-player")
    olga.user = organiser
    olga.save()
    bob = player("bob")
    enter(tournament, [olga, bob])
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        entry_withdraw(tournament_id=tournament.pk, entry_id=entry_of(tournament, bob).pk, user=bob.user)
    assert caught.value.code == "forfeit_refused"
    assert snapshot(tournament) == before


def test_staff_record_the_forfeit_themselves_when_the_organiser_plays(organiser, staff):
    tournament = closed(organiser=organiser)
    olga = player("olga-player")
    olga.user = organiser
    olga.save()
    bob = player("bob")
    enter(tournament, [olga, bob])
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    entry_withdraw(tournament_id=tournament.pk, entry_id=entry_of(tournament, bob).pk, user=staff)
    forfeited = pairing(tournament, "main-1-1").match
    assert forfeited.status == Match.Status.CONFIRMED and forfeited.reports.get().reporter == staff


# --- late entry ----------------------------------------------------------------------------------


def test_a_late_swiss_entrant_is_the_last_seed_and_plays_from_the_next_round(organiser):
    tournament, cast4 = drawn(4, organiser=organiser, format=Tournament.Format.SWISS, swiss_rounds=3)
    alice, bob, _carol, _dave = cast4
    erin = player("erin", 2500)  # the best rating does not matter: a late entrant is the last seed
    entry = entry_add_late(tournament_id=tournament.pk, user=organiser, player_ids=[erin.pk])
    assert (entry.seed, entry.late, entry.status) == (5, True, Entry.Status.CHECKED_IN)
    assert not Pairing.objects.filter(tournament=tournament, entry0=entry).exists()
    play(tournament, "swiss-1-1", alice)
    play(tournament, "swiss-1-2", bob)
    tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    assert Pairing.objects.filter(tournament=tournament, round_number=2, entry0=entry).exists() or \
        Pairing.objects.filter(tournament=tournament, round_number=2, entry1=entry).exists()


def test_a_late_bracket_entrant_fills_the_first_unused_bye_and_resets_what_it_fed(organiser):
    tournament, _ = drawn(5, organiser=organiser)
    # Byes: Alice (main-1-1), Bob (main-1-3), Carol (main-1-4); Bob v Carol already exists.
    old = pairing(tournament, "main-2-2").match
    frank = player("frank")
    entry = entry_add_late(tournament_id=tournament.pk, user=organiser, player_ids=[frank.pk])
    assert entry.seed == 6
    assert names(pairing(tournament, "main-1-4")) == ("Carol", "Frank")  # seed 6 stands opposite seed 3
    assert pairing(tournament, "main-1-4").match is not None
    assert names(pairing(tournament, "main-2-2")) == (None, None)
    assert not Match.objects.filter(pk=old.pk).exists()


def test_a_late_entry_into_a_full_bracket_is_refused_with_the_reason(organiser):
    tournament, _ = drawn(4, organiser=organiser)
    zoe = player("zoe")
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        entry_add_late(tournament_id=tournament.pk, user=organiser, player_ids=[zoe.pk])
    assert caught.value.code == "late_entry_closed" and "bracket is full" in caught.value.message
    assert snapshot(tournament) == before


def test_a_late_entry_is_refused_once_the_match_its_bye_fed_has_started(organiser):
    tournament, cast5 = drawn(5, organiser=organiser)
    _alice, bob, _carol, _dave, _erin = cast5
    report_only(tournament, "main-2-2", bob)
    frank = player("frank")
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        entry_add_late(tournament_id=tournament.pk, user=organiser, player_ids=[frank.pk])
    assert caught.value.code == "late_entry_closed" and "the match Bob v Carol (a semi-final)" in caught.value.message
    assert "main-" not in caught.value.message
    assert snapshot(tournament) == before


def test_a_round_robin_takes_no_late_entry(organiser):
    tournament, _ = drawn(4, organiser=organiser, format=Tournament.Format.ROUND_ROBIN)
    with pytest.raises(Conflict) as caught:
        entry_add_late(tournament_id=tournament.pk, user=organiser, player_ids=[player("zoe").pk])
    assert caught.value.code == "late_entry_closed" and "round robin" in caught.value.message


def test_a_late_entry_needs_the_draw_and_the_organiser(organiser, another_organiser):
    tournament = closed(organiser=organiser)
    zoe = player("zoe")
    with pytest.raises(Conflict) as caught:
        entry_add_late(tournament_id=tournament.pk, user=organiser, player_ids=[zoe.pk])
    assert caught.value.code == "not_drawn"
    with pytest.raises(NotAllowed):
        entry_add_late(tournament_id=tournament.pk, user=another_organiser, player_ids=[zoe.pk])
    assert not Entry.objects.exists()


def test_an_entrant_who_missed_check_in_may_be_added_late_on_his_entry(organiser):
    tournament = closed(organiser=organiser, format=Tournament.Format.SWISS)
    alice, bob, carol = cast(3)
    enter(tournament, [alice, bob])
    (missed,) = enter(tournament, [carol], checked_in=False)
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    entry = entry_add_late(tournament_id=tournament.pk, user=organiser, player_ids=[carol.pk])
    assert entry.pk == missed.pk and (entry.seed, entry.late, entry.status) == (3, True, Entry.Status.CHECKED_IN)
    with pytest.raises(Conflict) as caught:
        entry_add_late(tournament_id=tournament.pk, user=organiser, player_ids=[carol.pk])
    assert caught.value.code == "already_entered"
