"""The demo's two tournaments, run by the organiser at the demo club with the demo players, through
the tournaments services (create, enter, close entries, check in, draw, results, pair, finish):

- a finished 8-player single elimination with a one-round consolation flight;
- a 6-player Swiss after round 1 (round 1 confirmed, round 2 paired).

Their results are confirmed as in production, through the matches' reporting services: most by a
report of the winner confirmed by the loser, some by the organiser's override. A tournament is
known by its name and organiser (``tournament_named``); one that exists is left alone.
"""

from __future__ import annotations

from datetime import date, timedelta

from accounts.models import User
from matches.models import Match, Player
from matches.services.ratings import match_rating_apply
from matches.services.reporting import claim_make, match_confirm, match_override, match_report
from tournaments.models import Tournament
from tournaments.selectors.event import tournament_match_list, tournament_named
from tournaments.services import (
    EventRules,
    entry_add,
    entry_check_in,
    tournament_close_entries,
    tournament_create,
    tournament_draw,
    tournament_finish,
    tournament_pair_next_round,
)
from tournaments.services.acceptance import entry_accept

# The demo tournaments: (name, the usernames entered, in the organiser's seeding order).
BRACKET_EVENT = ("Crawford Demo Open", ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"])
SWISS_EVENT = ("Crawford Demo Swiss", ["erin", "frank", "grace", "heidi", "ivan", "judy"])


def _decide(match: Match, organiser: User, k: int) -> None:
    """Confirm a result for the ``k``-th decided match of a demo event through the reporting
    services, then rate it. A fixed pattern, so every load plays the same: side 0 wins two
    matches in three; every third result is the organiser's override, the others a report by
    the winner confirmed by the loser."""
    winner = 1 if k % 3 == 2 else 0
    score = [k % match.length, k % match.length]
    score[winner] = match.length
    claim = claim_make(match, (score[0], score[1]), None)
    if k % 3 == 1:
        match_override(match_id=match.pk, user=organiser, claim=claim, statement="Demo data: the director's ruling.")
    else:
        sides = (match.side0.player_a, match.side1.player_a)
        match_report(match_id=match.pk, user=sides[winner].user, claim=claim)
        match_confirm(match_id=match.pk, user=sides[1 - winner].user)
    match_rating_apply(match_id=match.pk)


def _decide_scheduled(tournament: Tournament, organiser: User, *, rounds: bool) -> int:
    """Decide every scheduled match of ``tournament``; with ``rounds`` (a bracket) again and
    again, as confirmed results create the next matches, until none is left. Returns how many."""
    decided = 0
    while True:
        waiting = list(tournament_match_list(tournament=tournament, status=Match.Status.SCHEDULED))
        for match in waiting:
            _decide(match, organiser, decided)
            decided += 1
        if not waiting or not rounds:
            return decided


def _event_start(organiser: User, name: str, usernames: list[str], by_name: dict[str, Player], **rules) -> Tournament:
    """A demo event created, its players entered in seeding order and checked in, and drawn."""
    tournament = tournament_create(user=organiser, rules=EventRules(name=name, seeding=Tournament.Seeding.ORGANISER,
                                                                    **rules))
    entries = [entry_add(tournament_id=tournament.pk, user=organiser, player_ids=[by_name[u].pk], seed=seed)
               for seed, u in enumerate(usernames, start=1)]
    for u in usernames:  # each player accepts the organiser's entry of him, as players do
        if by_name[u].user_id is not None:
            entry_accept(tournament_id=tournament.pk, user=by_name[u].user)
    tournament_close_entries(tournament_id=tournament.pk, user=organiser)
    for entry in entries:
        entry_check_in(tournament_id=tournament.pk, entry_id=entry.pk, user=organiser)
    return tournament_draw(tournament_id=tournament.pk, user=organiser)


def _load_bracket(organiser: User, club_id: int, by_name: dict[str, Player], today: date) -> Tournament:
    """The finished 8-player single elimination with a one-round consolation flight."""
    name, usernames = BRACKET_EVENT
    tournament = _event_start(organiser, name, usernames, by_name, club_id=club_id,
                              starts_on=today - timedelta(days=14), ends_on=today - timedelta(days=13),
                              consolation_rounds=1, lengths={"main": [5, 5, 7], "consolation": 3})
    _decide_scheduled(tournament, organiser, rounds=True)
    return tournament_finish(tournament_id=tournament.pk, user=organiser)


def _load_swiss(organiser: User, club_id: int, by_name: dict[str, Player], today: date) -> Tournament:
    """The running 6-player Swiss of three rounds: round 1 confirmed, round 2 paired."""
    name, usernames = SWISS_EVENT
    tournament = _event_start(organiser, name, usernames, by_name, club_id=club_id, starts_on=today,
                              format=Tournament.Format.SWISS, swiss_rounds=3, lengths={"rounds": [3, 3, 5]})
    _decide_scheduled(tournament, organiser, rounds=False)
    tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    return tournament


def tournaments_load(*, organiser: User, club_id: int, by_name: dict[str, Player], today: date
                     ) -> tuple[list[Tournament], int]:
    """The two demo tournaments (see the module) at club ``club_id``, each created once; and how
    many this run created. Raises the tournaments' DomainErrors only on a bug: the demo events are
    built from scratch."""
    tournaments, created = [], 0
    for (name, _), load in ((BRACKET_EVENT, _load_bracket), (SWISS_EVENT, _load_swiss)):
        tournament = tournament_named(organiser=organiser, name=name)
        if tournament is None:
            tournament = load(organiser, club_id, by_name, today)
            created += 1
        tournaments.append(tournament)
    return tournaments, created
