"""Factories and helpers for the tournaments services: the named cast, entries, playing matches
through the real reporting services, and a snapshot of an event's rows to prove nothing changed."""

from __future__ import annotations

import factory

from matches.models import Match, Player, Report, Side
from matches.services.reporting import claim_make, match_override, match_report
from tests.factories import PlayerFactory, SideFactory, TournamentFactory, UserFactory
from tournaments.models import Acceptance, Entry, Pairing, Round, Tournament
from tournaments.services import tournament_draw

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "niaj",
         "olivia", "peggy", "rupert", "sybil")


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    tournament = factory.SubFactory(TournamentFactory)
    side = factory.SubFactory(SideFactory)

    class Params:
        checked_in = factory.Trait(status=Entry.Status.CHECKED_IN)


def player(name: str, rating: float = 1500.0, club=None) -> Player:
    """A player with his own user (``alice`` -> display name ``Alice``)."""
    return PlayerFactory(user=UserFactory(username=name), display_name=name.title(), rating=rating, club=club)


def cast(count: int, *, club=None) -> list[Player]:
    """The first ``count`` players of the cast, rated so that the cast order is the rating order
    (alice 2000, bob 1990, ...)."""
    return [player(name, 2000.0 - 10 * i, club) for i, name in enumerate(NAMES[:count])]


def enter(tournament: Tournament, players, *, checked_in: bool = True, accepted: bool = True,
          **fields) -> list[Entry]:
    """One entry per player (or per pair, given as a tuple), in order. With ``accepted`` (as when
    the players signed up themselves) each player with an account stands behind the event's
    results (``Acceptance``); without it, the entries are an organiser's, not yet accepted."""
    entries = []
    for who in players:
        if isinstance(who, tuple):
            a, b = sorted(who, key=lambda p: p.pk)
            side = Side.objects.get_or_create(player_a=a, player_b=b)[0]
        else:
            side = Side.objects.get_or_create(player_a=who, player_b=None)[0]
        status = Entry.Status.CHECKED_IN if checked_in else Entry.Status.ENTERED
        entries.append(Entry.objects.create(tournament=tournament, side=side, status=status, **fields))
        if accepted:
            Acceptance.objects.bulk_create(
                [Acceptance(tournament=tournament, player=p, how=Acceptance.How.SIGNED_UP)
                 for p in (side.player_a, side.player_b) if p is not None and p.user_id is not None],
                ignore_conflicts=True)
    return entries


def closed(**rules) -> Tournament:
    """A tournament whose entries are closed (check-in running), with ``rules``."""
    rules.setdefault("status", Tournament.Status.CLOSED)
    return TournamentFactory(**rules)


def drawn(count: int, *, seed: int | None = None, players: list[Player] | None = None, **rules
          ) -> tuple[Tournament, list[Player]]:
    """A tournament of the first ``count`` players of the cast (or of ``players``), drawn (by
    rating unless told)."""
    tournament = closed(**rules)
    players = players or cast(count)
    enter(tournament, players)
    tournament_draw(tournament_id=tournament.pk, user=tournament.organiser, seed=seed)
    tournament.refresh_from_db()
    return tournament, players


def pairing(tournament: Tournament, key: str) -> Pairing:
    return Pairing.objects.select_related("match", "entry0__side", "entry1__side").get(tournament=tournament, key=key)


def entry_of(tournament: Tournament, who: Player) -> Entry:
    return Entry.objects.get(tournament=tournament, side__player_a=who)


def _side_index(match: Match, winner: Player) -> int:
    for index, side in enumerate((match.side0, match.side1)):
        if winner.pk in (side.player_a_id, side.player_b_id):
            return index
    raise AssertionError(f"{winner} does not play {match}")


def final_score(match: Match, winner_side: int, loser_points: int = 0) -> tuple[int, int]:
    score = [loser_points, loser_points]
    score[winner_side] = match.length
    return score[0], score[1]


def play(tournament: Tournament, key: str, winner: Player, loser_points: int = 0) -> Match:
    """Both players report ``winner`` winning the match of pairing ``key`` (the second report
    confirms it), through the real reporting services."""
    match = Match.objects.select_related("side0__player_a", "side1__player_a").get(pairing__tournament=tournament,
                                                                                   pairing__key=key)
    score = final_score(match, _side_index(match, winner), loser_points)
    for side in (match.side0, match.side1):
        match_report(match_id=match.pk, user=side.player_a.user, claim=claim_make(match, score, None))
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED, match.status
    return match


def override(tournament: Tournament, key: str, winner: Player, loser_points: int = 0) -> Match:
    """The organiser overrides the result of pairing ``key``: ``winner`` won."""
    match = Match.objects.select_related("side0", "side1").get(pairing__tournament=tournament, pairing__key=key)
    score = final_score(match, _side_index(match, winner), loser_points)
    match_override(match_id=match.pk, user=tournament.organiser, claim=claim_make(match, score, None))
    match.refresh_from_db()
    return match


def report_only(tournament: Tournament, key: str, winner: Player) -> Match:
    """The first side reports ``winner`` winning: the match has started, nothing is confirmed."""
    match = Match.objects.select_related("side0__player_a", "side1__player_a").get(pairing__tournament=tournament,
                                                                                   pairing__key=key)
    score = final_score(match, _side_index(match, winner))
    match_report(match_id=match.pk, user=match.side0.player_a.user, claim=claim_make(match, score, None))
    return match


def names(pairing_row: Pairing) -> tuple[str | None, str | None]:
    """The entrants' names of a pairing row (None for an empty side)."""
    return tuple(e.side.name if e is not None else None for e in (pairing_row.entry0, pairing_row.entry1))


def snapshot(tournament: Tournament) -> dict:
    """Every row of the event that a service may change, to assert a refused call changed none."""
    return {
        # Not its cache version: taking the event's lock moves it on even when nothing changes
        # (tests/tournaments/test_standings_cache.py shows a refused call rolls it back).
        "tournament": {k: v for k, v in Tournament.objects.filter(pk=tournament.pk).values().get().items()
                       if k != "version"},
        "entries": list(Entry.objects.filter(tournament=tournament).order_by("pk").values()),
        "pairings": list(Pairing.objects.filter(tournament=tournament).order_by("pk").values()),
        "rounds": list(Round.objects.filter(tournament=tournament).order_by("pk").values("number")),
        "matches": list(Match.objects.filter(event_link__tournament=tournament).order_by("pk")
                        .values("pk", "status", "score0", "score1", "winner", "side0", "side1", "length")),
        "reports": list(Report.objects.filter(match__event_link__tournament=tournament).order_by("pk")
                        .values("pk", "match", "side", "status", "score0", "score1")),
        "sides": list(Side.objects.order_by("pk").values()),
    }


def make_organiser():
    """Olga, the tournament's organiser (its director)."""
    return UserFactory(username="olga", organiser=True)


def make_another_organiser():
    """Oscar, an organiser of other events."""
    return UserFactory(username="oscar", organiser=True)


def make_staff():
    return UserFactory(username="stella", staff=True)
