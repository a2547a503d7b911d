"""The ABT-style modified Swiss through the services: it stops when the
players who can still cash are no more than the paid places (tournaments/draw/abt.py) and plays
single-elimination playoffs among them; three players: seed 1 has a bye into the final, seeds 2
and 3 play for the other seat (tournaments/services/playoffs.py)."""

from __future__ import annotations

import pytest

from audit.models import AuditEntry
from core.errors import Conflict, DomainError
from tests.tournaments.factories import drawn, entry_of, names, override, pairing, play, snapshot
from tournaments.labels import rule_label
from tournaments.models import Pairing, Round, Tournament
from tournaments.selectors.standings import tournament_placings, tournament_standings
from tournaments.services import tournament_create, tournament_pair_next_round, tournament_update
from tournaments.services.contention import paid_places
from tournaments.services.events import EventRules
from tournaments.services.playoffs import tournament_playoffs_start

pytestmark = pytest.mark.django_db

THREE_PAID = {"main": {"pool": 10000, "percentages": [50, 30, 20]}}


def modified_swiss(organiser, count=4, **rules):
    rules = {"format": "swiss", "swiss_rounds": 2, "abt_playoffs": True, "payouts": THREE_PAID,
             "lengths": {"rounds": 5, "playoffs": [7, 9]}, **rules}
    return drawn(count, organiser=organiser, **rules)


def play_round_one(tournament, four):
    alice, bob, _carol, _dave = four
    # the fair pairing's round 1 by rating: Alice-Carol, Bob-Dave
    play(tournament, "swiss-1-1", alice)
    play(tournament, "swiss-1-2", bob)
    tournament_pair_next_round(tournament_id=tournament.pk, user=tournament.organiser)


def keys_of(tournament, flight="playoffs"):
    return sorted(Pairing.objects.filter(tournament=tournament, flight=flight).values_list("key", flat=True))


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"format": "single_elimination", "swiss_rounds": None}, "abt_playoffs"),
        ({"kind": "teams"}, "abt_playoffs"),
        ({"swiss_rounds": None}, "swiss_rounds"),
        ({"max_losses": 2}, "max_losses"),
        ({"payouts": None}, "abt_paid_places"),
        ({"abt_playoffs": False, "abt_paid_places": 3}, "abt_paid_places"),
        ({"payouts": None, "abt_paid_places": 0}, "abt_paid_places"),
    ],
)
def test_abt_setting_is_refused_naming_the_field_when_the_rule_cannot_apply(organiser, rules, field):
    """ABT rule: who can still cash needs the paid places and the rounds left; a Swiss of players."""
    base = {"format": "swiss", "swiss_rounds": 3, "abt_playoffs": True, "payouts": THREE_PAID, **rules}
    with pytest.raises(DomainError) as caught:
        tournament_create(user=organiser, rules=EventRules(name="Open", **base))
    assert caught.value.code == "bad_rules" and caught.value.details["field"] == field
    assert not Tournament.objects.exists()


def test_abt_paid_places_come_from_the_setting_or_the_main_payouts(organiser):
    own = tournament_create(user=organiser, rules=EventRules(name="A", format="swiss", swiss_rounds=3,
                                                             abt_playoffs=True, abt_paid_places=4))
    from_payouts = tournament_create(user=organiser, rules=EventRules(name="B", format="swiss", swiss_rounds=3,
                                                                      abt_playoffs=True, payouts=THREE_PAID))

    assert (paid_places(own), paid_places(from_payouts)) == (4, 3)


def test_abt_the_last_confirmation_of_a_round_stops_the_swiss_and_draws_a_three_player_playoff(organiser):
    """ABT rule: after round 2 of 2, 3 paid places, Alice (2-0) can win, Bob and Carol (1-1) can
    still cash but no longer win, Dave (0-2) is out: three players, so seed 1 (Alice) has a bye
    into the final and Bob plays Carol for the other seat, at the playoffs' published lengths."""
    tournament, four = modified_swiss(organiser)
    alice, bob, carol, _dave = four
    play_round_one(tournament, four)
    play(tournament, "swiss-2-1", alice)  # Alice-Bob
    play(tournament, "swiss-2-2", carol)  # Carol-Dave: completes the round
    tournament.refresh_from_db()
    ids = {p: entry_of(tournament, p).pk for p in four}
    assert tournament.abt_playoff == {"after_round": 2, "paid": 3, "seeds": [ids[alice], ids[bob], ids[carol]],
                                      "cash_only": [ids[bob], ids[carol]]}
    assert keys_of(tournament) == ["playoffs-1-1", "playoffs-1-2"]
    bye, semi = pairing(tournament, "playoffs-1-1"), pairing(tournament, "playoffs-1-2")
    assert names(bye) == ("Alice", None) and bye.match_id is None
    assert names(semi) == ("Bob", "Carol") and semi.match.length == 7 and semi.round_number == 3
    assert Round.objects.filter(tournament=tournament, number=3).exists()
    entry = AuditEntry.objects.get(action="tournament.playoffs_started")
    assert entry.after["seeds"] == ["Alice", "Bob", "Carol"] and entry.after["cash_only"] == ["Bob", "Carol"]
    # The playoffs are no Swiss round: the table is the Swiss's alone.
    assert [(r.entrant.name, r.wins) for r in tournament_standings(tournament=tournament)] == [
        ("Alice", 2), ("Bob", 1), ("Carol", 1), ("Dave", 0)]


@pytest.mark.parametrize(
    ("final_winner", "places"),
    [("carol", ["Carol", "Bob", "Alice", "Dave"]), ("alice", ["Alice", "Carol", "Bob", "Dave"])],
)
def test_abt_playoff_results_move_the_playoff_on_and_decide_the_placings(organiser, final_winner, places):
    """USBGF contingent bye: Carol beats Bob and meets Alice (the contingent bye) in the final, at
    the second round's length. Alice wins: Alice, Carol, Bob. Carol wins: the bye is taken back,
    Carol first, Bob (beaten in the first match) second, Alice third. Nobody in the playoffs is
    placed before the final; the players outside them keep their Swiss places after them."""
    tournament, four = modified_swiss(organiser)
    alice, _bob, carol, _dave = four
    play_round_one(tournament, four)
    play(tournament, "swiss-2-1", alice)
    play(tournament, "swiss-2-2", carol)
    play(tournament, "playoffs-1-2", carol)
    final = pairing(tournament, "playoffs-2-1")
    assert names(final) == ("Alice", "Carol") and final.match.length == 9 and final.round_number == 4
    tournament.refresh_from_db()
    assert [(p.label, p.entrant.name) for p in tournament_placings(tournament=tournament)] == [("4", "Dave")]
    play(tournament, "playoffs-2-1", {"alice": alice, "carol": carol}[final_winner])
    assert [(p.label, p.entrant.name) for p in tournament_placings(tournament=tournament)] == [
        (str(i), name) for i, name in enumerate(places, start=1)]


def test_abt_the_swiss_goes_on_while_more_can_cash_than_are_paid(organiser):
    """ABT rule: after round 1 of 2 every player can still reach 2 wins: four can cash for three
    places, so nothing stops, and the director's start is refused with the draw's code."""
    tournament, four = modified_swiss(organiser)
    alice, bob, _carol, _dave = four
    play(tournament, "swiss-1-1", alice)
    play(tournament, "swiss-1-2", bob)
    tournament.refresh_from_db()
    assert tournament.abt_playoff == {} and keys_of(tournament) == []
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        tournament_playoffs_start(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "not_time_for_playoffs"
    assert snapshot(tournament) == before


@pytest.mark.parametrize(
    ("setup", "code"),
    [("plain_swiss", "abt_off"), ("round_in_play", "round_incomplete"), ("started", "playoffs_started")],
)
def test_abt_director_start_is_refused_with_its_code_and_changes_nothing(organiser, setup, code):
    if setup == "plain_swiss":
        tournament, _ = drawn(4, organiser=organiser, format="swiss", swiss_rounds=2)
    else:
        tournament, four = modified_swiss(organiser)
        play_round_one(tournament, four)
        if setup == "started":
            play(tournament, "swiss-2-1", four[0])
            play(tournament, "swiss-2-2", four[2])
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        tournament_playoffs_start(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == code
    assert snapshot(tournament) == before


def test_abt_director_starts_the_playoffs_when_the_round_ended_before_him(organiser, monkeypatch):
    """ABT rule, from the round page: the director's start takes the same step as the round's last
    confirmation (here that step was skipped, as for a round completed before the rule was on)."""
    from tournaments.services import advance

    tournament, four = modified_swiss(organiser)
    play_round_one(tournament, four)
    monkeypatch.setattr(advance, "playoffs_after_round", lambda *args, **kwargs: False)
    play(tournament, "swiss-2-1", four[0])
    play(tournament, "swiss-2-2", four[2])
    assert keys_of(tournament) == []
    with pytest.raises(Conflict) as caught:  # the Swiss may not go on either
        tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code in ("playoffs_due", "swiss_complete")
    tournament_playoffs_start(tournament_id=tournament.pk, user=organiser)
    assert keys_of(tournament) == ["playoffs-1-1", "playoffs-1-2"]
    with pytest.raises(Conflict) as caught:
        tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "playoffs_started"


def test_abt_a_swiss_correction_that_changes_the_playoffs_seeds_is_refused(organiser):
    """ABT rule: the playoffs were drawn from the Swiss table; a correction that would change who
    plays them is refused (result_built_on), one that does not stands."""
    tournament, four = modified_swiss(organiser)
    alice, _bob, carol, dave = four
    play_round_one(tournament, four)
    play(tournament, "swiss-2-1", alice)
    play(tournament, "swiss-2-2", carol)
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        override(tournament, "swiss-2-2", dave)  # Dave 1-1, Carol 0-2... Carol would be out
    assert caught.value.code == "result_built_on"
    assert snapshot(tournament) == before
    override(tournament, "swiss-2-2", carol, loser_points=2)  # the same winner: nothing moves
    assert keys_of(tournament) == ["playoffs-1-1", "playoffs-1-2"]


def test_abt_setting_cannot_change_after_the_draw(organiser):
    """ABT rule: every round's contention was counted by it (409 naming the field)."""
    tournament, _ = modified_swiss(organiser)
    for field, value in (("abt_playoffs", False), ("abt_paid_places", 2)):
        with pytest.raises(Conflict) as caught:
            tournament_update(tournament_id=tournament.pk, user=organiser, changes={field: value})
        assert caught.value.code == "not_editable" and caught.value.details["field"] == field
    with pytest.raises(Conflict) as caught:
        tournament_update(tournament_id=tournament.pk, user=organiser,
                          changes={"payouts": {"main": {"pool": 10000, "percentages": [60, 40]}}})
    assert caught.value.details["field"] == "payouts"
    tournament_update(tournament_id=tournament.pk, user=organiser,
                      changes={"payouts": {"main": {"pool": 20000, "percentages": [60, 30, 10]}}})


@pytest.mark.parametrize(("field", "value"), [("swiss_pairing", "top_down"), ("swiss_tiebreaks", "fide")])
def test_fide_swiss_settings_cannot_change_after_the_first_draw(organiser, field, value):
    """The FIDE Swiss settings: the rounds were paired and ranked by them (409 naming the field)."""
    tournament, _ = drawn(4, organiser=organiser, format="swiss")
    with pytest.raises(Conflict) as caught:
        tournament_update(tournament_id=tournament.pk, user=organiser, changes={field: value})
    assert caught.value.code == "not_editable" and caught.value.details["field"] == field
    assert caught.value.message.startswith(f"{rule_label(field)}: ")


def test_abt_playoff_lengths_change_only_for_playoff_rounds_not_begun(organiser):
    """The event's life rule (lengths of rounds not begun) applied to the playoffs' own schedule."""
    tournament, four = modified_swiss(organiser)
    alice, bob, carol, _dave = four
    play_round_one(tournament, four)
    play(tournament, "swiss-2-1", alice)
    play(tournament, "swiss-2-2", carol)
    with pytest.raises(Conflict) as caught:
        tournament_update(tournament_id=tournament.pk, user=organiser, changes={"lengths": {"rounds": 5,
                                                                                          "playoffs": [9, 11]}})
    assert caught.value.details["field"] == "lengths"
    tournament_update(tournament_id=tournament.pk, user=organiser, changes={"lengths": {"rounds": 5,
                                                                                      "playoffs": [7, 11]}})
    assert pairing(tournament, "playoffs-1-2").length == 7
    play(tournament, "playoffs-1-2", bob)
    assert pairing(tournament, "playoffs-2-1").match.length == 11


def test_abt_a_playoff_match_is_named_as_the_playoffs_in_the_players_next_match(organiser):
    from tournaments.selectors.next_match import player_next_match

    tournament, four = modified_swiss(organiser)
    play_round_one(tournament, four)
    play(tournament, "swiss-2-1", four[0])
    play(tournament, "swiss-2-2", four[2])
    tournament.refresh_from_db()
    found = player_next_match(tournament=tournament, player=four[1])
    assert found.key == "playoffs-1-2" and found.round_text == "Playoffs, in round 3 of the event"


def test_abt_three_way_playoff_gives_the_contingent_bye_to_the_best_placed_without_a_bye(organiser):
    """USBGF contingent bye: the bye into the final goes to a player with the fewest byes in the
    event. Three players, two rounds, two paid places: Carol (bye, then a win) and Alice (a bye)
    each had a bye, Bob none: Bob waits in the final, Carol and Alice play for the other seat."""
    tournament, three = drawn(3, organiser=organiser, format="swiss", swiss_rounds=2, abt_playoffs=True,
                              abt_paid_places=2)
    alice, bob, carol = three
    assert names(pairing(tournament, "swiss-1-1")) == ("Alice", "Bob")
    assert names(pairing(tournament, "swiss-1-bye")) == ("Carol", None)
    play(tournament, "swiss-1-1", bob)
    tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    assert names(pairing(tournament, "swiss-2-bye")) == ("Alice", None)
    play(tournament, "swiss-2-1", carol)
    tournament.refresh_from_db()
    ids = {p: entry_of(tournament, p).pk for p in three}
    assert tournament.abt_playoff["seeds"] == [ids[bob], ids[carol], ids[alice]]
    assert names(pairing(tournament, "playoffs-1-1")) == ("Bob", None)
    assert set(names(pairing(tournament, "playoffs-1-2"))) == {"Carol", "Alice"}
