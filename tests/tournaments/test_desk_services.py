"""The round desk's services (tournaments.services.desk): bulk check-in, pasted entrants, seeds before
the draw and tables; each success and each refusal, and nothing saved on a refusal."""

import pytest

from audit.models import AuditEntry
from core.errors import Conflict, DomainError, NotAllowed
from matches.models import Match, Player
from tests.factories import PlayerFactory
from tests.tournaments.factories import cast, closed, drawn, enter, snapshot
from tournaments.models import Entry, Tournament
from tournaments.selectors.rounds import tournament_round_page, tournament_rounds
from tournaments.services.desk import entries_check_in, entries_paste, entries_seed, match_set_table, round_set_tables

pytestmark = pytest.mark.django_db


def _actions(tournament, action):
    return AuditEntry.objects.filter(tournament_id=tournament.pk, action=action).count()


# --- check-in -------------------------------------------------------------------------------------


def test_check_in_all_checks_in_every_entrant_not_yet_checked_in_and_audits_each():
    tournament = closed()
    entries = enter(tournament, cast(4), checked_in=False)
    Entry.objects.filter(pk=entries[0].pk).update(status=Entry.Status.CHECKED_IN)
    done = entries_check_in(tournament_id=tournament.pk, entry_ids="all", user=tournament.organiser)
    assert sorted(e.pk for e in done) == sorted(e.pk for e in entries[1:])
    assert set(Entry.objects.filter(tournament=tournament).values_list("status", flat=True)) == {"checked_in"}
    assert _actions(tournament, "entry.checked_in") == 3


def test_check_in_of_the_chosen_leaves_the_others():
    tournament = closed()
    entries = enter(tournament, cast(4), checked_in=False)
    done = entries_check_in(tournament_id=tournament.pk, entry_ids=[str(entries[1].pk), entries[3].pk],
                            user=tournament.organiser)
    assert [e.pk for e in done] == [entries[1].pk, entries[3].pk]
    assert list(Entry.objects.filter(tournament=tournament).order_by("pk").values_list("status", flat=True)) == [
        "entered", "checked_in", "entered", "checked_in"]


@pytest.mark.parametrize("ids, code", [([], "no_entrants_chosen"), (["x"], "unknown_entry"), ([999999], "unknown_entry")])
def test_check_in_refuses_a_bad_choice_and_changes_nothing(ids, code):
    tournament = closed()
    entries = enter(tournament, cast(2), checked_in=False)
    before = snapshot(tournament)
    with pytest.raises(DomainError) as refused:
        entries_check_in(tournament_id=tournament.pk, entry_ids=[entries[0].pk, *ids] if ids else ids,
                         user=tournament.organiser)
    assert refused.value.code == code
    assert snapshot(tournament) == before


def test_check_in_is_refused_while_entries_are_open_after_the_draw_and_to_others():
    running, players = drawn(4)
    tournament = closed(status=Tournament.Status.OPEN)
    enter(tournament, players[:2], checked_in=False)
    with pytest.raises(Conflict) as refused:
        entries_check_in(tournament_id=tournament.pk, entry_ids="all", user=tournament.organiser)
    assert refused.value.code == "check_in_not_open"
    with pytest.raises(Conflict) as refused:
        entries_check_in(tournament_id=running.pk, entry_ids="all", user=running.organiser)
    assert refused.value.code == "already_drawn"
    with pytest.raises(NotAllowed):
        entries_check_in(tournament_id=tournament.pk, entry_ids="all", user=players[0].user)


# --- pasted entrants ------------------------------------------------------------------------------


def test_a_paste_matches_known_players_whatever_the_case_and_creates_guests_for_the_others():
    tournament = closed()
    alice, bob = cast(2)
    pasted = entries_paste(tournament_id=tournament.pk, text="ALICE\n\n  bob  \nZoë   Quinn\n", user=tournament.organiser)
    assert [(line.line, line.name, line.created) for line in pasted.lines] == [
        (1, "Alice", False), (3, "Bob", False), (4, "Zoë Quinn", True)]
    assert [line.player for line in pasted.matched] == [alice, bob]
    guest = Player.objects.get(display_name="Zoë Quinn")
    assert guest.user_id is None
    assert set(Entry.objects.filter(tournament=tournament).values_list("side__player_a", flat=True)) == {
        alice.pk, bob.pk, guest.pk}
    assert _actions(tournament, "entry.added") == 3
    assert AuditEntry.objects.filter(action="player.guest_created", object_id=guest.pk).exists()


@pytest.mark.parametrize("text, line, code", [
    ("Alice\nBob\nalice", 3, "duplicate_line"),
    ("Newcomer\nTwin", 2, "ambiguous_name"),
    ("Newcomer\n" + "x" * 121, 2, "bad_name"),
    ("Newcomer\nCarol", 2, "already_entered"),
])
def test_a_bad_line_is_refused_with_its_number_and_nothing_is_saved(text, line, code):
    tournament = closed()
    cast(2)
    enter(tournament, [PlayerFactory(display_name="Carol")], checked_in=False)
    PlayerFactory(display_name="Twin")
    PlayerFactory(display_name="twin")
    before, players = snapshot(tournament), Player.objects.count()
    with pytest.raises(DomainError) as refused:
        entries_paste(tournament_id=tournament.pk, text=text, user=tournament.organiser)
    assert (refused.value.code, refused.value.details["line"]) == (code, line)
    assert snapshot(tournament) == before
    assert Player.objects.count() == players  # the guest of line 1 was not kept either
    assert not Player.objects.filter(display_name="Newcomer").exists()


def test_a_paste_is_refused_without_names_after_the_draw_and_in_a_pairs_event():
    running, players = drawn(4)
    tournament = closed()
    with pytest.raises(DomainError) as refused:
        entries_paste(tournament_id=tournament.pk, text=" \n\n", user=tournament.organiser)
    assert refused.value.code == "no_names"
    with pytest.raises(Conflict):
        entries_paste(tournament_id=running.pk, text="Somebody", user=running.organiser)
    pairs = closed(kind=Tournament.Kind.PAIRS)
    with pytest.raises(DomainError) as refused:
        entries_paste(tournament_id=pairs.pk, text="Somebody", user=pairs.organiser)
    assert refused.value.code == "walk_in_singles_only"
    with pytest.raises(NotAllowed):
        entries_paste(tournament_id=tournament.pk, text="Somebody", user=players[0].user)


# --- seeds ----------------------------------------------------------------------------------------


def test_seeds_set_before_the_draw_are_saved_audited_and_used_by_the_draw():
    from tournaments.services import tournament_draw

    tournament = closed(seeding=Tournament.Seeding.ORGANISER)
    entries = enter(tournament, cast(4))
    changed = entries_seed(tournament_id=tournament.pk, seeds={entries[3].pk: 1, entries[2].pk: 2, entries[0].pk: None},
                           user=tournament.organiser)
    assert sorted(e.pk for e in changed) == sorted([entries[3].pk, entries[2].pk])
    assert _actions(tournament, "entry.seeded") == 2
    tournament_draw(tournament_id=tournament.pk, user=tournament.organiser)
    assert Entry.objects.get(pk=entries[3].pk).seed == 1


@pytest.mark.parametrize("seeds, code", [
    ({0: 1, 1: 1}, "duplicate_seed"),
    ({0: 0}, "bad_seed"),
    ({0: "2"}, "bad_seed"),
    ({"nobody": 1}, "unknown_entry"),
])
def test_bad_seeds_are_refused_and_nothing_changes(seeds, code):
    tournament = closed(seeding=Tournament.Seeding.ORGANISER)
    entries = enter(tournament, cast(3))
    Entry.objects.filter(pk=entries[2].pk).update(seed=3)
    wanted = {(entries[k].pk if isinstance(k, int) else 999999): v for k, v in seeds.items()}
    before = snapshot(tournament)
    with pytest.raises(DomainError) as refused:
        entries_seed(tournament_id=tournament.pk, seeds=wanted, user=tournament.organiser)
    assert refused.value.code == code
    assert snapshot(tournament) == before


def test_a_seed_taken_by_an_entrant_not_named_is_a_duplicate():
    tournament = closed(seeding=Tournament.Seeding.ORGANISER)
    entries = enter(tournament, cast(2))
    Entry.objects.filter(pk=entries[1].pk).update(seed=1)
    with pytest.raises(DomainError) as refused:
        entries_seed(tournament_id=tournament.pk, seeds={entries[0].pk: 1}, user=tournament.organiser)
    assert refused.value.code == "duplicate_seed"
    assert "Alice" in refused.value.message and "Bob" in refused.value.message


def test_seeds_are_refused_after_the_draw_with_the_reason():
    tournament, _players = drawn(4)
    entry = Entry.objects.filter(tournament=tournament).first()
    with pytest.raises(Conflict) as refused:
        entries_seed(tournament_id=tournament.pk, seeds={entry.pk: 9}, user=tournament.organiser)
    assert refused.value.code == "seeds_fixed"
    assert "draw" in refused.value.message


# --- tables ---------------------------------------------------------------------------------------


def _round_matches(tournament, number=1):
    return list(Match.objects.filter(pairing__tournament=tournament, pairing__round_number=number)
                .order_by("pairing__key"))


def test_tables_are_labelled_audited_and_order_the_rounds_page():
    tournament, _players = drawn(8, format=Tournament.Format.SWISS, swiss_rounds=3)
    matches = _round_matches(tournament)
    assert len(matches) == 4
    changed = round_set_tables(tournament_id=tournament.pk, tables={matches[0].pk: "10", matches[1].pk: "2",
                                                                     matches[2].pk: "B", matches[3].pk: " 1 "},
                               user=tournament.organiser)
    assert len(changed) == 4
    assert Match.objects.get(pk=matches[3].pk).table == "1"
    assert _actions(tournament, "match.table_set") == 4
    tournament.refresh_from_db()
    shown = tournament_rounds(tournament=tournament)[0].pairings
    assert [p.table for p in shown] == ["1", "2", "10", "B"]
    page = tournament_round_page(tournament=tournament)
    assert [p.table for p in page.pairings] == ["1", "2", "10", "B"]
    # A match without a table comes after those with one; setting one again changes nothing.
    match_set_table(tournament_id=tournament.pk, match_id=matches[1].pk, table="", user=tournament.organiser)
    tournament.refresh_from_db()
    assert [p.table for p in tournament_round_page(tournament=tournament).pairings] == ["1", "10", "B", ""]
    assert round_set_tables(tournament_id=tournament.pk, tables={matches[0].pk: "10"}, user=tournament.organiser) == []


@pytest.mark.parametrize("label, code", [("1", "table_taken"), ("x" * 21, "bad_table")])
def test_a_bad_table_is_refused_naming_the_match_and_nothing_changes(label, code):
    tournament, _players = drawn(8, format=Tournament.Format.SWISS, swiss_rounds=3)
    matches = _round_matches(tournament)
    round_set_tables(tournament_id=tournament.pk, tables={matches[0].pk: "1"}, user=tournament.organiser)
    with pytest.raises(DomainError) as refused:
        round_set_tables(tournament_id=tournament.pk, tables={matches[2].pk: "3", matches[1].pk: label},
                         user=tournament.organiser)
    assert (refused.value.code, refused.value.details["match"]) == (code, matches[1].pk)
    assert list(Match.objects.filter(pk__in=[m.pk for m in matches]).order_by("pairing__key")
                .values_list("table", flat=True)) == ["1", "", "", ""]


def test_tables_are_refused_for_another_events_match_before_the_draw_and_to_others():
    tournament, players = drawn(4, format=Tournament.Format.SWISS, swiss_rounds=2)
    stranger = Match.objects.create(side0=Match.objects.first().side0, side1=Match.objects.first().side1, length=3)
    for wrong in (stranger.pk, "x"):
        with pytest.raises(DomainError) as refused:
            round_set_tables(tournament_id=tournament.pk, tables={wrong: "1"}, user=tournament.organiser)
        assert refused.value.code == "not_event_match"
    with pytest.raises(NotAllowed):
        round_set_tables(tournament_id=tournament.pk, tables={}, user=players[0].user)
    early = closed()
    with pytest.raises(Conflict) as refused:
        round_set_tables(tournament_id=early.pk, tables={}, user=early.organiser)
    assert refused.value.code == "not_drawn"
