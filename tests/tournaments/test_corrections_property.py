"""A correction does what its preview shows, nothing more and nothing less, on random brackets.

Each case draws a random bracket event (single elimination with or without consolation, progressive
and shifted consolations, a last chance, a playoff for 2nd, a last chance open to everyone who has
not cashed; or double elimination), plays random confirmed results through the services (some
matches only reported, some players withdrawn, so walkovers and forfeits happen), then corrects a
random confirmed match so that the other player won. The preview's list of matches it resets, the
matches it says are removed and the players to tell must be exactly what the correction then
changes in the database, compared row by row before and after. Seeded: a failing case is replayed
by its seed."""

from __future__ import annotations

import contextlib
import random
import re

import pytest

from core.errors import Conflict, DomainError
from matches.models import Match, Report
from matches.services.reporting import claim_make, match_override, match_report
from tests.tournaments.factories import cast, drawn, snapshot
from tournaments.draw.elimination import bracket_size
from tournaments.models import Entry, Pairing, Tournament
from tournaments.services import bracket_reads, state
from tournaments.services.corrections import result_correct, result_correction_preview
from tournaments.services.entries import entry_withdraw

pytestmark = pytest.mark.django_db

#: How many random events the property is held on (each seed one event, one correction).
CASES = 60

PAID = {"pool": 100, "percentages": [50, 30, 20]}


def random_rules(rng: random.Random) -> tuple[int, dict]:
    """A number of players and valid random rules of a bracket event, with its flights."""
    count = rng.randint(3, 16)
    lengths = rng.choice([1, 3])
    if rng.random() < 0.25:
        return count, {"format": Tournament.Format.DOUBLE_ELIMINATION, "lengths": {"winners": lengths}}
    rounds = bracket_size(count).bit_length() - 1
    rules: dict = {"format": Tournament.Format.SINGLE_ELIMINATION, "lengths": {"main": lengths, "consolation": 1}}
    consolation = rng.choice([0, 1, 1, 2, 3, 3])
    consolation = min(consolation, rounds - 1)
    if consolation:
        rules["consolation_rounds"] = consolation
        rules["consolation_shifted"] = consolation >= 3 and rng.random() < 0.5
        rules["playoff_second"] = rng.random() < 0.3
        rules["last_chance"] = rng.random() < 0.4
    if not rules.get("last_chance") and rng.random() < 0.3:
        rules["last_chance_open"] = True
        rules["payouts"] = {"main": PAID, **({"consolation": {"pool": 10, "percentages": [100]}} if consolation else {})}
    return count, rules


def open_matches(tournament: Tournament) -> list[Match]:
    return list(Match.objects.filter(event_link__tournament=tournament, pairing__isnull=False)
                .exclude(status=Match.Status.CONFIRMED).select_related("side0__player_a", "side1__player_a")
                .order_by("pk"))


def win(match: Match, side: int, rng: random.Random) -> tuple[int, int]:
    score = [rng.randrange(match.length), rng.randrange(match.length)]
    score[side] = match.length
    return score[0], score[1]


def play_randomly(tournament: Tournament, rng: random.Random) -> None:
    """Random confirmed results (reported by both players or overridden by the director), some
    matches only reported by one side, now and then a player withdrawn."""
    organiser = tournament.organiser
    for _ in range(rng.randint(3, 45)):
        matches = open_matches(tournament)
        if not matches:
            return
        match = rng.choice(matches)
        roll = rng.random()
        if roll < 0.04:
            entries = list(Entry.objects.filter(tournament=tournament, seed__isnull=False)
                           .exclude(status=Entry.Status.WITHDRAWN).order_by("pk"))
            # Refused when a started match depends on one of his forfeits: then nothing changed.
            with contextlib.suppress(Conflict):
                entry_withdraw(tournament_id=tournament.pk, entry_id=rng.choice(entries).pk, user=organiser)
            continue
        claim = claim_make(match, win(match, rng.randrange(2), rng), None)
        if roll < 0.12 and not Report.objects.filter(match=match).exists():
            match_report(match_id=match.pk, user=match.side0.player_a.user, claim=claim)  # started, not confirmed
        elif roll < 0.4:
            for side in (match.side0, match.side1):
                match_report(match_id=match.pk, user=side.player_a.user, claim=claim)
        else:
            match_override(match_id=match.pk, user=organiser, claim=claim)


def rows(tournament: Tournament) -> dict[str, tuple]:
    """Each pairing as stored: its entries and its match."""
    return {p["key"]: (p["entry0_id"], p["entry1_id"], p["match_id"])
            for p in Pairing.objects.filter(tournament=tournament).values("key", "entry0_id", "entry1_id", "match_id")}


def event_matches(tournament: Tournament) -> dict[int, dict]:
    return {m["pk"]: m for m in Match.objects.filter(event_link__tournament=tournament)
            .values("pk", "status", "winner", "side0_id", "side1_id")}


def one_case(seed: int, organiser) -> None:
    rng = random.Random(seed)
    count, rules = random_rules(rng)
    players = cast(count)
    while True:
        try:
            tournament, _players = drawn(count, organiser=organiser, players=players, seed=seed,
                                         seeding=Tournament.Seeding.RANDOM, **rules)
            break
        except DomainError:  # a flight too small for this many players: without it
            flag = next(f for f in ("last_chance_open", "last_chance", "playoff_second", "consolation_shifted")
                        if rules.get(f))
            rules.pop(flag)
            if flag == "last_chance_open":
                rules.pop("payouts")
    play_randomly(tournament, rng)
    confirmed = list(Pairing.objects.filter(tournament=tournament, match__status=Match.Status.CONFIRMED)
                     .select_related("match").order_by("round_number", "key"))
    if not confirmed:  # nothing confirmed yet: confirm one first
        match = open_matches(tournament)[0]
        match_override(match_id=match.pk, user=organiser, claim=claim_make(match, win(match, 0, rng), None))
        confirmed = list(Pairing.objects.filter(tournament=tournament, match__status=Match.Status.CONFIRMED)
                         .select_related("match"))
    source = rng.choice(confirmed)
    match = source.match
    score = win(match, 1 - match.winner, rng)  # the other player won

    before = snapshot(tournament)
    preview = result_correction_preview(match_id=match.pk, user=organiser, score=score)
    assert snapshot(tournament) == before, "the preview changed something"
    stored, matches = rows(tournament), event_matches(tournament)
    reported = set(Report.objects.filter(match__event_link__tournament=tournament).values_list("match_id", flat=True))
    entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament).select_related(
        "side__player_a", "side__player_b")}
    name = {pk: e.side.name for pk, e in entries.items()}

    done = result_correct(match_id=match.pk, user=organiser, score=score, expected=preview.keys)

    after, matches_after = rows(tournament), event_matches(tournament)
    changed = [key for key in stored if key != source.key and stored[key] != after[key]]
    where = f"seed {seed}, {rules}, {count} players, correcting {source.key}"
    # The matches it resets: exactly the pairings whose entries or match changed, in bracket order.
    order = [m.id for m in state.build_bracket(tournament, state.load(tournament).order).matches]
    assert preview.keys == [key for key in order if key in changed], where
    assert len(set(preview.keys)) == len(preview.keys) and done.keys == preview.keys, where
    # The matches it removes: exactly the matches gone.
    gone = set(matches) - set(matches_after)
    assert {line.match_id for line in preview.resets if line.removed} == gone, where
    assert all(line.match_id == stored[line.key][2] for line in preview.resets), where
    # The players to tell: the corrected match's and everyone a changed pairing held, before or after.
    tell = {name[e] for e in (source.entry0_id, source.entry1_id)}
    tell |= {name[e] for key in changed for e in (*stored[key][:2], *after[key][:2]) if e is not None}
    assert set(preview.tell) == tell and len(preview.tell) == len(tell) and done.tell == preview.tell, where
    for line in preview.resets:
        was, now = stored[line.key], after[line.key]
        assert line.before == tuple(name.get(e) for e in was[:2]), where
        assert {name[e] for e in now[:2] if e is not None} <= set(line.after), where
        old = matches.get(was[2])
        if old is not None and old["status"] == Match.Status.CONFIRMED:  # its result is void
            side = old["side0_id"] if old["winner"] == 0 else old["side1_id"]
            (winner,) = [e for e in was[:2] if entries[e].side_id == side]
            assert line.voided == name[winner] and line.removed, where
        started = old is not None and (old["status"] != Match.Status.SCHEDULED or old["pk"] in reported)
        assert line.started == started, where
        assert line.sentence and line.round_name in line.sentence.lower(), where
        assert not re.search(r"(main|consolation|last_chance|winners|losers|final|playoff)-\d", line.sentence), where
    # The corrected event stands as its bracket says: every result left fits, the other player won.
    view = bracket_reads.bracket_state(state.load(tournament))
    side = match.side1_id if match.winner == 0 else match.side0_id
    (winner,) = [e for e in (source.entry0_id, source.entry1_id) if entries[e].side_id == side]
    assert view.state.get(source.key).winner == winner, where


@pytest.mark.parametrize("seed", range(CASES))
def test_a_correction_changes_exactly_what_its_preview_shows(seed, organiser):
    one_case(seed, organiser)
