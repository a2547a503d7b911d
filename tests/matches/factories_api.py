"""Helpers for the API tests: the named cast around one match, authenticated clients, game logs.

The cast (healthchecks style): alice and bob play the match (side 0 and side 1), carol is another
player, otto organises the match, olga is another organiser, stan is staff; anonymous is None.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rest_framework.test import APIClient

from engine.actions import action_to_dict
from engine.formats.mat_check import match_from_actions
from engine.formats.mat_write import write_mat
from engine.match import MatchRules
from engine.randomgame import random_match_games
from matches.models import Match
from tests.factories import MatchFactory, PlayerFactory, UserFactory, api_token

PASSWORD = "pass-word-123"  # tests.factories.UserFactory's password
ROLES = ("anonymous", "alice", "bob", "carol", "organiser", "other_organiser", "staff")


@dataclass
class Cast:
    match: Match
    alice: object
    bob: object
    carol: object
    organiser: object
    other_organiser: object
    staff: object
    anonymous: None = None

    def user(self, role: str):
        return getattr(self, role)


def make_cast(**match_fields) -> Cast:
    """A 5-point match (unless ``match_fields`` say otherwise) and everyone around it."""
    match = MatchFactory(
        side0__player_a__user__username="alice", side1__player_a__user__username="bob",
        organiser__username="otto", **{"length": 5, **match_fields},
    )
    return Cast(
        match=match,
        alice=match.side0.player_a.user,
        bob=match.side1.player_a.user,
        carol=PlayerFactory(user__username="carol").user,
        organiser=match.organiser,
        other_organiser=UserFactory(username="olga", organiser=True),
        staff=UserFactory(username="stan", staff=True),
    )


def client_for(user=None, *, auth: str = "token", enforce_csrf: bool = False) -> APIClient:
    """An APIClient as ``user``: token auth (an Authorization header) or session auth (a real login)."""
    client = APIClient(enforce_csrf_checks=enforce_csrf)
    if user is None:
        return client
    if auth == "token":
        client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(user)}")
    else:
        assert client.login(username=user.username, password=PASSWORD)
    return client


def json_games(length: int, seed: int) -> list[list[dict]]:
    """The JSON game logs of a random (but seeded, hence fixed) match to ``length`` points."""
    return [[action_to_dict(a) for a in game] for game in random_match_games(random.Random(seed), length)]


def mat_text(length: int, seed: int, players=("Alice", "Bob")) -> tuple[str, tuple[int, int], int]:
    """A random match written as .mat text by the engine: (text, final score, number of games)."""
    games = random_match_games(random.Random(seed), length)
    checked = match_from_actions(players, MatchRules(length), games)
    return write_mat(checked), checked.final_score, len(checked.games)
