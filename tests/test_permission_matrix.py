"""The permission matrix: every API route under /api/v1/ and every page, as every role of the cast,
answers the status the table below says — and no answer carries anyone's email, password or token.

The routes come from the URL resolver itself, so a new route without a row in ``MATRIX`` fails
``test_every_route_is_in_the_matrix`` ("add it to the matrix"). Writes are sent with an empty body
(or, in ``BODIES``, a minimal valid one where the form is read before the permission): the point is
the permission layer (401/403/404 come before validation; 400 is what a permitted user with a bad
body gets). Each request runs in a savepoint that is rolled back, so one row's write never
changes what the next row sees.

The cast: alice and bob play the sample match (side 0 and 1), the drawn tournament and the team event
(alice captains the Aces, bob the Bears); carol is another player; otto organises all three; olga is
another organiser; stan is staff; anonymous is nobody. Alice owns the import job. Carol has asked to
become an organiser (her request is open).
In the Matrix Club alice is the owner, bob an organiser, carol a member and olga has asked to join;
otto and stan are outsiders to it. Its chouette table (bob started it: alice the Box, bob the
Captain, carol the crew) has one game.
On the sample match alice has opened a dispute, otto ruled on it, bob appealed the ruling and otto
named its committee: jon (the committee member, the eighth role), kim and lee. Off the appeal jon
stands where carol does (another player, a member of the Matrix Club), so a row of seven statuses
gives him carol's; the rulings rows give his column explicitly (eight statuses).

Alice chose to show her email address on her player page (``email_public``): there, and only
there (``PUBLIC_EMAIL_ROUTES``: her page and her player in the API), her address is no leak; every
other answer is still searched for it, and every answer for everyone else's.

Otto entered Walter, a walk-in without an account, and invited him by email: the invitation page
is the one of Walter's link.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from accounts.organiser.services import organiser_request
from accounts.services import api_token_create
from chouette.services import chouette_game_record, chouette_start
from clubs.models import Club, ClubNight, Membership, Season
from matches.models import ImportJob
from matches.services.claims import claim_request
from matches.services.guests import player_create_guest
from matches.services.invitations import invitation_token
from matches.services.matches import player_create, side_for
from rulings.services.appeals import appeal_lodge, committee_name
from rulings.services.disputes import dispute_open
from rulings.services.rulings import ruling_make
from tests.factories import UserFactory
from tests.matches.factories_api import client_for, make_cast
from tests.tournaments.factories import drawn, player
from tournaments.models import Entry, Pairing, Tournament
from tournaments.services import entry_check_in, tournament_draw
from tournaments.services.teams import team_create
from webhooks.models import Delivery
from webhooks.services import subscription_create

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "alice", "bob", "carol", "organiser", "other_organiser", "staff", "committee")

#: Routes outside the matrix: Django's admin (staff only, Django's own checks), the static files and
#: the OpenAPI schema and its docs page (public by design, and covered by tests/test_schema.py).
SKIPPED_PREFIXES = ("admin/", "static/")
SKIPPED_NAMES = {"schema", "api-docs", "api-redoc"}

#: The routes that show a player's email address when he chose to make it public (the world's
#: ``player_id`` is alice's, who did), and nowhere else.
PUBLIC_EMAIL_ROUTES = {"matches:player", "api-player-detail"}


def _routes(resolver=None, prefix: str = "", namespace: str | None = None):
    """Yield (pattern, name, callback) for every route below ``resolver``, through includes."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            inner = namespace
            if entry.namespace:
                inner = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
            yield from _routes(entry, prefix + str(entry.pattern), inner)
        elif isinstance(entry, URLPattern):
            name = f"{namespace}:{entry.name}" if namespace and entry.name else entry.name
            yield prefix + str(entry.pattern), name, entry.callback


def matrix_routes() -> dict[str, str]:
    """Every route of the matrix: route name -> its pattern."""
    found = {}
    for pattern, name, _callback in _routes():
        if pattern.startswith(SKIPPED_PREFIXES) or name in SKIPPED_NAMES:
            continue
        assert name, f"the route {pattern!r} has no name: name it, then add it to the matrix"
        found[name] = pattern
    return found


def _methods(callback) -> list[str]:
    """The methods a DRF/class-based view answers; GET and POST for a function view."""
    view_class = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
    if view_class is None:
        return ["get", "post"]
    return [m for m in ("get", "post", "put", "patch", "delete") if hasattr(view_class, m)]


#: (route name, method) -> the status for
#: (anonymous, alice, bob, carol, organiser, other organiser, staff[, committee member]).
MATRIX = {
    ("login", "get"):                                    (200, 200, 200, 200, 200, 200, 200),
    ("login", "post"):                                   (200, 200, 200, 200, 200, 200, 200),
    ("login", "put"):                                    (200, 200, 200, 200, 200, 200, 200),
    ("logout", "get"):                                   (302, 200, 200, 200, 200, 200, 200),  # asks first (allauth)
    ("health", "get"):                                   (200, 200, 200, 200, 200, 200, 200),  # for load balancers
    ("health", "post"):                                  (405, 405, 405, 405, 405, 405, 405),
    ("favicon", "get"):                                  (302, 302, 302, 302, 302, 302, 302),  # to the static icon
    ("favicon", "post"):                                 (405, 405, 405, 405, 405, 405, 405),
    # The language switcher: anyone chooses (a signed-in user's profile keeps it), back to the page.
    ("set_language", "get"):                             (405, 405, 405, 405, 405, 405, 405),
    ("set_language", "post"):                            (302, 302, 302, 302, 302, 302, 302),
    # The scripts' translations: public, read-only.
    ("javascript-catalog", "get"):                       (200, 200, 200, 200, 200, 200, 200),
    ("javascript-catalog", "post"):                      (405, 405, 405, 405, 405, 405, 405),
    ("logout", "post"):                                  (302, 302, 302, 302, 302, 302, 302),
    ("api-token", "post"):                               (400, 400, 400, 400, 400, 400, 400),  # no credentials: 400 for everyone
    ("api-invitation-accept", "post"):                   (401, 400, 400, 400, 400, 400, 400),  # no token: 400
    ("matches:invitation", "get"):                       (200, 200, 200, 200, 200, 200, 200),  # whoever has the link
    # A guest's invitation: alice and bob play as players with matches, carol sat at the chouette: one
    # account holds one player (409); otto, olga and stan have no player, jon an empty one, and none has
    # the invited address: each asks for the player, a claim a director decides (302 to /claims/).
    ("matches:invitation", "post"):                      (302, 409, 409, 409, 302, 302, 302, 302),
    ("account_change_password", "get"):                  (302, 200, 200, 200, 200, 200, 200),
    ("account_change_password", "post"):                 (302, 200, 200, 200, 200, 200, 200),
    ("account_change_password", "put"):                  (302, 200, 200, 200, 200, 200, 200),
    ("account_confirm_email", "get"):                    (200, 200, 200, 200, 200, 200, 200),
    ("account_confirm_email", "post"):                   (404, 404, 404, 404, 404, 404, 404),  # no such key
    ("account_delete", "get"):                           (302, 200, 200, 200, 200, 200, 200),
    ("account_delete", "post"):                          (302, 400, 400, 400, 400, 400, 400),
    ("account_sign_out_everywhere", "get"):              (302, 405, 405, 405, 405, 405, 405),
    ("account_sign_out_everywhere", "post"):             (302, 302, 302, 302, 302, 302, 302),
    ("account_token_revoke", "get"):                     (302, 405, 405, 405, 405, 405, 405),
    ("account_token_revoke", "post"):                    (302, 302, 404, 404, 404, 404, 404),
    ("account_email", "get"):                            (302, 200, 200, 200, 200, 200, 200),
    ("account_email", "post"):                           (302, 302, 302, 302, 302, 302, 302),  # no action named: back to the page
    ("account_email", "put"):                            (302, 302, 302, 302, 302, 302, 302),
    ("account_email_verification_sent", "get"):          (200, 200, 200, 200, 200, 200, 200),
    ("account_email_verification_sent", "post"):         (405, 405, 405, 405, 405, 405, 405),
    ("account_inactive", "get"):                         (200, 200, 200, 200, 200, 200, 200),
    ("account_login", "get"):                            (200, 200, 200, 200, 200, 200, 200),
    ("account_login", "post"):                           (200, 200, 200, 200, 200, 200, 200),
    ("account_login", "put"):                            (200, 200, 200, 200, 200, 200, 200),
    ("account_logout", "get"):                           (302, 200, 200, 200, 200, 200, 200),
    ("account_logout", "post"):                          (302, 302, 302, 302, 302, 302, 302),
    ("account_reauthenticate", "get"):                   (302, 200, 200, 200, 200, 200, 200),
    ("account_reauthenticate", "post"):                  (302, 200, 200, 200, 200, 200, 200),
    ("account_reauthenticate", "put"):                   (302, 200, 200, 200, 200, 200, 200),
    ("account_reset_password", "get"):                   (200, 200, 200, 200, 200, 200, 200),
    ("account_reset_password", "post"):                  (200, 200, 200, 200, 200, 200, 200),
    ("account_reset_password", "put"):                   (200, 200, 200, 200, 200, 200, 200),
    ("account_reset_password_done", "get"):              (200, 200, 200, 200, 200, 200, 200),
    ("account_reset_password_from_key", "get"):          (200, 200, 200, 200, 200, 200, 200),
    ("account_reset_password_from_key", "post"):         (200, 200, 200, 200, 200, 200, 200),  # no such link: the page says so
    ("account_reset_password_from_key", "put"):          (200, 200, 200, 200, 200, 200, 200),
    ("account_reset_password_from_key_done", "get"):     (200, 200, 200, 200, 200, 200, 200),
    ("account_set_password", "get"):                     (302, 302, 302, 302, 302, 302, 302),  # has one: to change it
    ("account_set_password", "post"):                    (302, 302, 302, 302, 302, 302, 302),
    ("account_set_password", "put"):                     (302, 302, 302, 302, 302, 302, 302),
    ("account_signup", "get"):                           (200, 302, 302, 302, 302, 302, 302),  # signed in: home
    ("account_signup", "post"):                          (200, 302, 302, 302, 302, 302, 302),
    ("account_signup", "put"):                           (200, 302, 302, 302, 302, 302, 302),
    ("api-email-resend", "post"):                        (400, 400, 400, 400, 400, 400, 400),
    ("api-email-verify", "post"):                        (400, 400, 400, 400, 400, 400, 400),
    ("api-login", "post"):                               (400, 400, 400, 400, 400, 400, 400),
    ("api-logout", "post"):                              (204, 204, 204, 204, 204, 204, 204),  # signing out is always allowed
    ("api-me", "get"):                                   (401, 200, 200, 200, 200, 200, 200),
    ("api-me", "patch"):                                 (401, 200, 200, 200, 200, 200, 200),
    ("api-me-delete", "post"):                           (401, 400, 400, 400, 400, 400, 400),
    # His own tokens (alice's is the one named): another's is a 404, as one that does not exist.
    ("api-me-tokens", "get"):                            (401, 200, 200, 200, 200, 200, 200),
    ("api-me-token", "delete"):                          (401, 204, 404, 404, 404, 404, 404),
    ("api-me-sign-out-everywhere", "post"):              (401, 204, 204, 204, 204, 204, 204),
    ("api-password-reset", "post"):                      (400, 400, 400, 400, 400, 400, 400),
    ("api-password-reset-confirm", "post"):              (400, 400, 400, 400, 400, 400, 400),
    ("api-signup", "post"):                              (400, 409, 409, 409, 409, 409, 409),  # signed in: 409
    ("api-player-list", "get"):                          (200, 200, 200, 200, 200, 200, 200),
    ("api-player-detail", "get"):                        (200, 200, 200, 200, 200, 200, 200),
    ("api-player-me", "get"):                            (401, 200, 200, 200, 200, 200, 200),
    ("api-player-me", "patch"):                          (401, 200, 200, 200, 200, 200, 200),  # empty: no change
    ("api-match-list", "get"):                           (200, 200, 200, 200, 200, 200, 200),
    ("api-match-list", "post"):                          (401, 201, 201, 403, 201, 201, 201),
    ("api-match-detail", "get"):                         (200, 200, 200, 200, 200, 200, 200),
    ("api-match-report", "post"):                        (401, 200, 200, 403, 200, 403, 200),
    ("api-match-confirm", "post"):                       (401, 409, 409, 403, 403, 403, 403),
    ("api-match-contest", "post"):                       (401, 409, 409, 403, 403, 403, 403),
    ("api-match-override", "post"):                      (401, 403, 403, 403, 400, 403, 400),
    ("api-match-consent", "post"):                       (401, 400, 400, 403, 400, 403, 400),  # otto: their events
    # Clocks: the director records a flag fall, introduces a clock mid-match.
    ("api-match-flag-fall", "post"):                     (401, 403, 403, 403, 400, 403, 400),
    ("api-match-clock", "post"):                         (401, 403, 403, 403, 400, 403, 400),
    ("api-match-penalties", "get"):                      (200, 200, 200, 200, 200, 200, 200),  # public, as the match
    ("api-match-penalties", "post"):                     (401, 403, 403, 403, 400, 403, 400),  # its director only
    ("api-match-games", "get"):                          (200, 200, 200, 200, 200, 200, 200),
    ("api-match-game", "get"):                           (404, 404, 404, 404, 404, 404, 404),  # the match has no games yet
    ("api-match-mat", "get"):                            (409, 409, 409, 409, 409, 409, 409),  # nothing played to export yet
    ("import-create", "post"):                           (401, 415, 415, 415, 415, 415, 415),  # JSON: uploads are multipart
    ("import-detail", "get"):                            (401, 200, 404, 404, 404, 404, 200),  # alice's job: hidden as 404
    ("import-mapping", "post"):                          (401, 409, 404, 404, 404, 404, 409),  # not checked yet: 409
    ("api-tournaments", "get"):                          (200, 200, 200, 200, 200, 200, 200),
    ("api-tournaments", "post"):                         (401, 400, 403, 403, 400, 400, 400),  # alice owns a club
    ("api-tournament", "get"):                           (200, 200, 200, 200, 200, 200, 200),
    ("api-tournament", "patch"):                         (401, 403, 403, 403, 200, 403, 200),  # nothing sent: no change
    ("api-tournament", "delete"):                        (401, 403, 403, 403, 409, 403, 409),  # drawn: not a draft
    ("api-tournament-cancel", "post"):                   (401, 403, 403, 403, 400, 403, 400),  # no reason sent
    ("api-tournament-open", "post"):                     (401, 403, 403, 403, 409, 403, 409),
    ("api-tournament-close", "post"):                    (401, 403, 403, 403, 409, 403, 409),
    ("api-tournament-draw", "post"):                     (401, 403, 403, 403, 409, 403, 409),
    ("api-tournament-pair-next-round", "post"):          (401, 403, 403, 403, 409, 403, 409),
    ("api-tournament-finish", "post"):                   (401, 403, 403, 403, 409, 403, 409),
    ("api-tournament-reopen", "post"):                   (401, 403, 403, 403, 409, 403, 409),  # not finished
    ("api-tournament-result-correct", "post"):           (401, 403, 403, 403, 400, 403, 400),  # no score sent
    ("api-tournament-entries", "get"):                   (200, 200, 200, 200, 200, 200, 200),
    ("api-tournament-entries", "post"):                  (401, 403, 403, 403, 400, 403, 400),
    ("api-tournament-sign-up", "post"):                  (401, 409, 409, 409, 403, 403, 403),  # closed; organisers play no one
    ("api-tournament-accept", "post"):                   (401, 200, 200, 400, 403, 403, 403),  # carol is not in it
    ("api-tournament-entry-check-in", "post"):           (401, 409, 403, 403, 409, 403, 409),  # alice's entry
    ("api-tournament-entry-withdraw", "post"):           (401, 200, 403, 403, 200, 403, 200),  # alice's entry
    ("api-tournament-walk-in", "post"):                  (401, 403, 403, 403, 400, 403, 400),  # otto's event: a walk-in
    ("api-tournament-late-entries", "post"):             (401, 403, 403, 403, 400, 403, 400),
    ("api-tournament-entry-division", "post"):           (401, 403, 403, 403, 400, 403, 400),  # no division sent
    ("api-tournament-entry-reenter", "post"):            (401, 403, 403, 403, 409, 403, 409),  # re-entry off
    ("api-tournament-bracket", "get"):                   (200, 200, 200, 200, 200, 200, 200),
    ("api-tournament-rounds", "get"):                    (200, 200, 200, 200, 200, 200, 200),
    ("api-tournament-standings", "get"):                 (200, 200, 200, 200, 200, 200, 200),
    ("api-tournament-placings", "get"):                  (200, 200, 200, 200, 200, 200, 200),
    ("api-tournament-my-next-match", "get"):             (401, 200, 200, 200, 403, 403, 403),
    ("api-tournament-teams", "get"):                     (200, 200, 200, 200, 200, 200, 200),
    ("api-tournament-teams", "post"):                    (401, 409, 409, 409, 409, 409, 409),  # drawn: the state is checked first
    ("api-tournament-late-teams", "post"):               (401, 403, 403, 403, 400, 403, 400),
    ("api-tournament-team", "get"):                      (200, 200, 200, 200, 200, 200, 200),
    ("api-tournament-team-members", "post"):             (401, 409, 403, 403, 409, 403, 409),  # drawn: the list is fixed
    ("api-tournament-team-member", "delete"):            (401, 409, 403, 403, 409, 403, 409),
    ("api-tournament-team-board-order", "post"):         (401, 400, 403, 403, 400, 403, 400),  # alice captains the Aces
    ("api-tournament-team-match", "get"):                (200, 200, 200, 200, 200, 200, 200),
    ("api-tournament-audit", "get"):                     (401, 403, 403, 403, 200, 403, 200),  # the organiser and staff only
    ("tournaments:list", "get"):                         (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:list", "post"):                        (200, 200, 200, 200, 200, 200, 200),  # read pages answer POST as GET
    ("tournaments:new", "get"):                          (302, 200, 403, 403, 200, 200, 200),  # alice: her club's
    ("tournaments:new", "post"):                         (302, 400, 403, 403, 400, 400, 400),
    ("tournaments:mine", "get"):                         (302, 200, 200, 200, 200, 200, 200),
    ("tournaments:mine", "post"):                        (302, 200, 200, 200, 200, 200, 200),
    ("tournaments:detail", "get"):                       (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:edit", "get"):                         (302, 403, 403, 403, 200, 403, 200),
    ("tournaments:edit", "post"):                        (302, 403, 403, 403, 400, 403, 400),  # no name sent
    ("tournaments:cancel", "get"):                       (302, 403, 403, 403, 200, 403, 200),
    ("tournaments:cancel", "post"):                      (302, 403, 403, 403, 400, 403, 400),  # no reason sent
    ("tournaments:delete", "get"):                       (302, 403, 403, 403, 200, 403, 200),
    ("tournaments:delete", "post"):                      (302, 403, 403, 403, 409, 403, 409),  # drawn: not a draft
    ("tournaments:detail", "post"):                      (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:sign_up", "get"):                      (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:sign_up", "post"):                     (302, 409, 409, 409, 403, 403, 403),
    ("tournaments:check_in", "get"):                     (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:accept", "get"):                       (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:accept", "post"):                      (302, 302, 302, 400, 403, 403, 403),
    ("tournaments:check_in", "post"):                    (302, 409, 403, 403, 409, 403, 409),
    ("tournaments:withdraw", "get"):                     (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:withdraw", "post"):                    (302, 302, 403, 403, 302, 403, 302),
    ("tournaments:bracket", "get"):                      (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:bracket", "post"):                     (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:rounds", "get"):                       (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:rounds", "post"):                      (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:standings", "get"):                    (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:standings", "post"):                   (200, 200, 200, 200, 200, 200, 200),
    # The live version the event's pages poll: public (a draft's: its organiser and staff); GET only.
    ("tournaments:live", "get"):                         (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:live", "post"):                        (405, 405, 405, 405, 405, 405, 405),
    ("tournaments:manage", "get"):                       (302, 403, 403, 403, 200, 403, 200),
    ("tournaments:manage", "post"):                      (302, 403, 403, 403, 200, 403, 200),
    ("tournaments:open_entries", "get"):                 (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:open_entries", "post"):                (302, 403, 403, 403, 409, 403, 409),
    ("tournaments:close_entries", "get"):                (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:close_entries", "post"):               (302, 403, 403, 403, 409, 403, 409),
    ("tournaments:add_entrant", "get"):                  (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:add_entrant", "post"):                 (302, 403, 403, 403, 400, 403, 400),
    ("tournaments:manage_check_in", "get"):              (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:manage_check_in", "post"):             (302, 403, 403, 403, 400, 403, 400),
    ("tournaments:manage_withdraw", "get"):              (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:manage_withdraw", "post"):             (302, 403, 403, 403, 400, 403, 400),
    ("tournaments:manage_division", "get"):              (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:manage_division", "post"):             (302, 403, 403, 403, 400, 403, 400),  # no entry sent
    ("tournaments:manage_reenter", "get"):               (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:manage_reenter", "post"):              (302, 403, 403, 403, 400, 403, 400),  # no entry sent
    ("tournaments:draw", "get"):                         (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:draw", "post"):                        (302, 403, 403, 403, 409, 403, 409),
    ("tournaments:pair", "get"):                         (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:pair", "post"):                        (302, 403, 403, 403, 409, 403, 409),
    ("tournaments:finish", "get"):                       (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:finish", "post"):                      (302, 403, 403, 403, 409, 403, 409),
    ("tournaments:reopen", "get"):                       (302, 403, 403, 403, 200, 403, 200),
    ("tournaments:reopen", "post"):                      (302, 403, 403, 403, 409, 403, 409),  # not finished
    ("tournaments:result_correct", "get"):               (302, 403, 403, 403, 404, 403, 404),  # not its match
    ("tournaments:result_correct", "post"):              (302, 403, 403, 403, 404, 403, 404),
    ("tournaments:teams", "get"):                        (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:teams", "post"):                       (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:add_walk_in", "get"):                  (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:add_walk_in", "post"):                 (302, 403, 403, 403, 400, 403, 400),
    # The round desk (tournaments/views/desk.py): the drawn event is running, so check-in, pasting,
    # seeds and the draw are refused (409), as is the next round (its results are not in); the
    # sample match is no match of the event (404).
    ("tournaments:desk", "get"):                         (302, 403, 403, 403, 200, 403, 200),
    ("tournaments:desk", "post"):                        (302, 403, 403, 403, 200, 403, 200),
    ("tournaments:desk_check_in", "get"):                (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:desk_check_in", "post"):               (302, 403, 403, 403, 409, 403, 409),
    ("tournaments:desk_paste", "get"):                   (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:desk_paste", "post"):                  (302, 403, 403, 403, 409, 403, 409),
    ("tournaments:desk_seeds", "get"):                   (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:desk_seeds", "post"):                  (302, 403, 403, 403, 409, 403, 409),
    ("tournaments:desk_tables", "get"):                  (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:desk_tables", "post"):                 (302, 403, 403, 403, 302, 403, 302),
    ("tournaments:desk_draw", "get"):                    (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:desk_draw", "post"):                   (302, 403, 403, 403, 409, 403, 409),
    ("tournaments:desk_pair", "get"):                    (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:desk_pair", "post"):                   (302, 403, 403, 403, 409, 403, 409),
    ("tournaments:desk_result", "get"):                  (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:desk_result", "post"):                 (302, 403, 403, 403, 404, 403, 404),  # not its match
    ("tournaments:team_add_late", "get"):                (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:team_add_late", "post"):               (302, 403, 403, 403, 400, 403, 400),
    ("tournaments:team", "get"):                         (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:team", "post"):                        (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:team_member_add", "get"):              (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:team_member_add", "post"):             (302, 409, 403, 403, 409, 403, 409),  # drawn: the list is fixed
    ("tournaments:team_member_remove", "get"):           (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:team_member_remove", "post"):          (302, 409, 403, 403, 409, 403, 409),
    ("tournaments:team_board_order", "get"):             (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:team_board_order", "post"):            (302, 400, 403, 403, 400, 403, 400),
    ("tournaments:team_match", "get"):                   (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:team_match", "post"):                  (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:audit", "get"):                      (302, 403, 403, 403, 200, 403, 200),
    ("tournaments:audit", "post"):                     (302, 403, 403, 403, 200, 403, 200),  # a read page answers POST as GET
    # Disputes, rulings, appeals: a dispute is hidden (404) from everyone but the match's players,
    # its director, staff and its appeal's committee; the dispute is under appeal, its committee named.
    ("api-disputes", "get"):                             (401, 200, 200, 200, 200, 200, 200, 200),  # each sees his own
    ("api-disputes", "post"):                            (401, 201, 201, 403, 201, 403, 201, 403),
    ("api-dispute", "get"):                              (401, 200, 200, 404, 200, 404, 200, 200),
    ("api-dispute-statements", "post"):                  (401, 201, 201, 404, 201, 404, 201, 403),
    ("api-dispute-rulings", "post"):                     (401, 403, 403, 404, 409, 404, 409, 403),  # under appeal
    ("api-ruling", "get"):                               (401, 200, 200, 404, 200, 404, 200, 200),
    ("api-ruling-appeal", "post"):                       (401, 409, 409, 404, 403, 404, 403, 403),  # appealed already
    ("api-appeal", "get"):                               (401, 200, 200, 404, 200, 404, 200, 200),
    ("api-appeal-committee", "post"):                    (401, 403, 403, 404, 409, 404, 409, 403),  # named already
    ("api-appeal-votes", "post"):                        (401, 403, 403, 404, 403, 404, 403, 200),
    ("api-tournament-rulings", "get"):                   (200, 200, 200, 200, 200, 200, 200, 200),  # public
    ("rulings:queue", "get"):                            (302, 200, 200, 200, 200, 200, 200, 200),
    ("rulings:queue", "post"):                           (302, 200, 200, 200, 200, 200, 200, 200),  # POST read as GET
    ("rulings:open", "get"):                             (302, 200, 200, 403, 200, 403, 200, 403),
    ("rulings:open", "post"):                            (302, 302, 302, 403, 302, 403, 302, 403),
    ("rulings:dispute", "get"):                          (302, 200, 200, 404, 200, 404, 200, 200),
    ("rulings:dispute", "post"):                         (302, 200, 200, 404, 200, 404, 200, 200),
    ("rulings:answer", "get"):                           (302, 405, 405, 405, 405, 405, 405, 405),
    ("rulings:answer", "post"):                          (302, 302, 302, 404, 302, 404, 302, 403),
    ("rulings:rule", "get"):                             (302, 405, 405, 405, 405, 405, 405, 405),
    ("rulings:rule", "post"):                            (302, 403, 403, 404, 409, 404, 409, 403),
    ("rulings:appeal_lodge", "get"):                     (302, 405, 405, 405, 405, 405, 405, 405),
    ("rulings:appeal_lodge", "post"):                    (302, 409, 409, 404, 403, 404, 403, 403),
    ("rulings:appeal", "get"):                           (302, 200, 200, 404, 200, 404, 200, 200),
    ("rulings:appeal", "post"):                          (302, 200, 200, 404, 200, 404, 200, 200),
    ("rulings:committee", "get"):                        (302, 405, 405, 405, 405, 405, 405, 405),
    ("rulings:committee", "post"):                       (302, 403, 403, 404, 409, 404, 409, 403),
    ("rulings:vote", "get"):                             (302, 405, 405, 405, 405, 405, 405, 405),
    ("rulings:vote", "post"):                            (302, 403, 403, 404, 403, 404, 403, 302),
    ("rulings:event", "get"):                            (200, 200, 200, 200, 200, 200, 200, 200),  # public
    ("rulings:event", "post"):                           (200, 200, 200, 200, 200, 200, 200, 200),
    # "/": the visitors' front page for the anonymous (config/front.py), each user's own page for him.
    ("front", "get"):                                    (200, 200, 200, 200, 200, 200, 200),
    ("front", "post"):                                   (200, 200, 200, 200, 200, 200, 200),
    ("matches:mine", "get"):                             (200, 200, 200, 200, 200, 200, 200),
    ("matches:mine", "post"):                            (200, 200, 200, 200, 200, 200, 200),
    ("matches:detail", "get"):                           (200, 200, 200, 200, 200, 200, 200),
    ("matches:detail", "post"):                          (200, 200, 200, 200, 200, 200, 200),
    ("matches:report", "get"):                           (302, 405, 405, 405, 405, 405, 405),
    ("matches:report", "post"):                          (302, 302, 302, 403, 302, 403, 302),
    ("matches:confirm", "get"):                          (302, 405, 405, 405, 405, 405, 405),
    ("matches:confirm", "post"):                         (302, 409, 409, 403, 403, 403, 403),
    ("matches:contest", "get"):                          (302, 405, 405, 405, 405, 405, 405),
    ("matches:contest", "post"):                         (302, 409, 409, 403, 403, 403, 403),
    ("matches:override", "get"):                         (302, 405, 405, 405, 405, 405, 405),
    ("matches:override", "post"):                        (302, 403, 403, 403, 302, 403, 302),
    ("matches:consent", "get"):                          (302, 405, 405, 405, 405, 405, 405),
    ("matches:consent", "post"):                         (302, 400, 400, 403, 400, 403, 400),
    ("matches:flag_fall", "get"):                        (302, 405, 405, 405, 405, 405, 405),  # a flag fall: POST only
    ("matches:flag_fall", "post"):                       (302, 403, 403, 403, 400, 403, 400),
    # A clock brought in mid-match: the match's director only; an empty form is a 400.
    ("matches:clock_introduce", "get"):                  (302, 403, 403, 403, 200, 403, 200),
    ("matches:clock_introduce", "post"):                 (302, 403, 403, 403, 400, 403, 400),
    # How ratings are computed: public, read-only.
    ("matches:ratings", "get"):                          (200, 200, 200, 200, 200, 200, 200),
    ("matches:ratings", "post"):                         (405, 405, 405, 405, 405, 405, 405),
    # Penalty points mid-match: the match's director only; an empty form is a 400.
    ("matches:penalty", "get"):                          (302, 405, 405, 405, 405, 405, 405),
    ("matches:penalty", "post"):                         (302, 403, 403, 403, 400, 403, 400),
    ("matches:directory", "get"):                        (200, 200, 200, 200, 200, 200, 200),  # public
    ("matches:directory", "post"):                       (405, 405, 405, 405, 405, 405, 405),
    ("matches:player", "get"):                           (200, 200, 200, 200, 200, 200, 200),
    ("matches:player", "post"):                          (200, 200, 200, 200, 200, 200, 200),
    ("matches:profile", "get"):                          (302, 200, 200, 200, 200, 200, 200),
    ("matches:profile", "post"):                         (302, 302, 302, 302, 302, 302, 302),  # saved: to the page
    ("api-player-claim", "post"):                        (401, 409, 409, 409, 409, 409, 409),  # alice's player is held
    ("api-claims", "get"):                               (401, 200, 200, 200, 200, 200, 200),  # each sees his own
    ("api-claim-approve", "post"):                       (401, 403, 403, 403, 200, 403, 200),  # otto: lasse entered his event
    ("api-claim-refuse", "post"):                        (401, 403, 403, 403, 400, 403, 400),  # no reason sent
    ("api-claim-withdraw", "post"):                      (401, 403, 403, 403, 403, 403, 403),  # zed's claim
    ("api-player-merge", "post"):                        (401, 403, 403, 403, 403, 403, 400),  # staff only
    ("matches:claims", "get"):                           (302, 200, 200, 200, 200, 200, 200),
    ("matches:claims", "post"):                          (302, 200, 200, 200, 200, 200, 200),  # a read page
    ("matches:claim", "get"):                            (302, 405, 405, 405, 405, 405, 405),
    ("matches:claim", "post"):                           (302, 409, 409, 409, 409, 409, 409),
    ("matches:claim_approve", "get"):                    (302, 405, 405, 405, 405, 405, 405),
    ("matches:claim_approve", "post"):                   (302, 403, 403, 403, 302, 403, 302),
    ("matches:claim_refuse", "get"):                     (302, 405, 405, 405, 405, 405, 405),
    ("matches:claim_refuse", "post"):                    (302, 403, 403, 403, 400, 403, 400),
    ("matches:claim_withdraw", "get"):                   (302, 405, 405, 405, 405, 405, 405),
    ("matches:claim_withdraw", "post"):                  (302, 403, 403, 403, 403, 403, 403),
    ("matches:player_merge", "get"):                     (302, 403, 403, 403, 403, 403, 200),
    ("matches:player_merge", "post"):                    (302, 403, 403, 403, 403, 403, 400),
    ("matches:import", "get"):                           (302, 200, 200, 200, 200, 200, 200),
    ("matches:import", "post"):                          (302, 400, 400, 400, 400, 400, 400),
    ("matches:import_progress", "get"):                  (302, 200, 404, 404, 404, 404, 200),
    ("matches:import_progress", "post"):                 (302, 200, 404, 404, 404, 404, 200),
    ("matches:import_players", "get"):                   (302, 302, 404, 404, 404, 404, 302),  # not checked: back
    ("matches:import_players", "post"):                  (302, 302, 404, 404, 404, 404, 302),
    ("api-clubs", "get"):                                (200, 200, 200, 200, 200, 200, 200),
    ("api-clubs", "post"):                               (401, 400, 400, 400, 400, 400, 400),
    ("api-club", "get"):                                 (200, 200, 200, 200, 200, 200, 200),
    ("api-club", "patch"):                               (401, 200, 403, 403, 403, 403, 403),  # the club: alice owns it
    ("api-club-memberships", "get"):                     (401, 200, 200, 403, 403, 403, 403),  # bob organises it
    ("api-club-membership-request", "post"):             (401, 409, 409, 409, 200, 200, 200),  # carol is a member, olga asked
    ("api-club-membership-invite", "post"):              (401, 400, 400, 403, 403, 403, 403),
    ("api-club-membership-accept", "post"):              (401, 200, 200, 200, 409, 409, 409),
    ("api-club-membership-leave", "post"):               (401, 409, 204, 204, 409, 204, 409),  # alice: the last owner
    ("api-club-membership-approve", "post"):             (401, 200, 403, 403, 403, 403, 403),  # olga's request
    ("api-club-membership-decline", "post"):             (401, 204, 403, 403, 403, 403, 403),
    ("api-club-membership-role", "post"):                (401, 400, 403, 403, 403, 403, 403),
    ("api-club-membership-walk-in", "post"):             (401, 400, 400, 403, 403, 403, 403),  # owners, organisers
    ("api-club-membership-remove", "post"):              (401, 409, 403, 403, 403, 403, 403),  # a request: decline it
    ("api-club-seasons", "get"):                         (200, 200, 200, 200, 200, 200, 200),
    ("api-club-seasons", "post"):                        (401, 400, 400, 403, 403, 403, 403),
    ("api-club-season", "get"):                          (200, 200, 200, 200, 200, 200, 200),
    ("api-club-season", "patch"):                        (401, 200, 200, 403, 403, 403, 403),
    ("api-club-season", "delete"):                       (401, 204, 204, 403, 403, 403, 403),
    ("api-club-ladder", "get"):                          (200, 200, 200, 200, 200, 200, 200),
    ("api-club-ladder-csv", "get"):                      (200, 200, 200, 200, 200, 200, 200),
    ("api-club-calendar", "get"):                        (200, 200, 200, 200, 200, 200, 200),
    ("api-club-nights", "get"):                          (200, 200, 200, 200, 200, 200, 200),
    ("api-club-nights", "post"):                         (401, 400, 400, 403, 403, 403, 403),
    ("api-club-night", "get"):                           (401, 200, 200, 200, 403, 403, 403),  # members only: chouette money
    ("api-club-night-close", "post"):                    (401, 200, 200, 403, 403, 403, 403),
    ("api-club-night-check-in", "post"):                 (401, 200, 200, 200, 403, 403, 403),
    ("clubs:list", "get"):                               (200, 200, 200, 200, 200, 200, 200),
    ("clubs:list", "post"):                              (200, 200, 200, 200, 200, 200, 200),
    ("clubs:new", "get"):                                (302, 200, 200, 200, 200, 200, 200),
    ("clubs:new", "post"):                               (302, 400, 400, 400, 400, 400, 400),
    ("clubs:detail", "get"):                             (200, 200, 200, 200, 200, 200, 200),
    ("clubs:detail", "post"):                            (200, 200, 200, 200, 200, 200, 200),
    ("clubs:join", "get"):                               (302, 405, 405, 405, 405, 405, 405),
    ("clubs:join", "post"):                              (302, 409, 409, 409, 302, 302, 302),
    ("clubs:accept", "get"):                             (302, 405, 405, 405, 405, 405, 405),
    ("clubs:accept", "post"):                            (302, 302, 302, 302, 409, 409, 409),
    ("clubs:leave", "get"):                              (302, 405, 405, 405, 405, 405, 405),
    ("clubs:leave", "post"):                             (302, 409, 302, 302, 409, 302, 409),
    ("clubs:members", "get"):                            (302, 200, 200, 403, 403, 403, 403),
    ("clubs:members", "post"):                           (302, 200, 200, 403, 403, 403, 403),
    ("clubs:add_walk_in", "get"):                        (302, 405, 405, 405, 405, 405, 405),
    ("clubs:add_walk_in", "post"):                       (302, 400, 400, 403, 403, 403, 403),
    ("clubs:invite", "get"):                             (302, 405, 405, 405, 405, 405, 405),
    ("clubs:invite", "post"):                            (302, 400, 400, 403, 403, 403, 403),
    ("clubs:membership", "get"):                         (302, 405, 405, 405, 405, 405, 405),
    ("clubs:membership", "post"):                        (302, 400, 403, 403, 403, 403, 403),
    ("clubs:seasons", "get"):                            (200, 200, 200, 200, 200, 200, 200),
    ("clubs:seasons", "post"):                           (302, 400, 400, 403, 403, 403, 403),
    ("clubs:ladder", "get"):                             (200, 200, 200, 200, 200, 200, 200),
    ("clubs:ladder", "post"):                            (302, 400, 400, 403, 403, 403, 403),
    ("clubs:nights", "get"):                             (200, 200, 200, 200, 200, 200, 200),
    ("clubs:nights", "post"):                            (302, 400, 400, 403, 403, 403, 403),
    ("clubs:night", "get"):                              (302, 200, 200, 200, 403, 403, 403),
    ("clubs:night", "post"):                             (302, 200, 200, 200, 403, 403, 403),
    ("clubs:night_check_in", "get"):                     (302, 405, 405, 405, 405, 405, 405),
    ("clubs:night_check_in", "post"):                    (302, 302, 302, 302, 403, 403, 403),
    ("clubs:night_close", "get"):                        (302, 405, 405, 405, 405, 405, 405),
    ("clubs:night_close", "post"):                       (302, 302, 302, 403, 403, 403, 403),
    ("clubs:night_match", "get"):                        (302, 405, 405, 405, 405, 405, 405),
    ("clubs:night_match", "post"):                       (302, 400, 400, 400, 403, 403, 403),
    # Chouette tables: the Matrix Club's table (alice the Box, bob the Captain, carol the crew) has one game.
    # Everything of a table is for the club's members; writes for its owners and organisers.
    ("api-club-chouettes", "get"):                       (401, 200, 200, 200, 403, 403, 403),
    ("api-club-chouettes", "post"):                      (401, 400, 400, 403, 403, 403, 403),
    ("api-club-chouette", "get"):                        (401, 200, 200, 200, 403, 403, 403),
    ("api-club-chouette-version", "get"):                (401, 200, 200, 200, 403, 403, 403),
    ("api-club-chouette-join", "post"):                  (401, 400, 400, 403, 403, 403, 403),
    ("api-club-chouette-leave", "post"):                 (401, 400, 400, 403, 403, 403, 403),
    ("api-club-chouette-games", "post"):                 (401, 400, 400, 403, 403, 403, 403),
    ("api-club-chouette-game", "get"):                   (401, 200, 200, 200, 403, 403, 403),
    ("api-club-chouette-game", "put"):                   (401, 400, 400, 403, 403, 403, 403),
    ("api-club-chouette-game", "delete"):                (401, 200, 200, 403, 403, 403, 403),  # voids game 1
    ("api-club-chouette-end", "post"):                   (401, 200, 200, 403, 403, 403, 403),
    ("api-club-chouette-reopen", "post"):                (401, 200, 200, 403, 403, 403, 403),  # open: no change
    ("api-club-chouette-settlement", "get"):             (401, 200, 200, 200, 403, 403, 403),
    ("api-club-chouette-rules", "post"):                 (401, 200, 200, 403, 403, 403, 403),  # the same house rules: no change
    ("chouette:list", "get"):                            (302, 200, 200, 200, 403, 403, 403),
    ("chouette:list", "post"):                           (302, 200, 200, 200, 403, 403, 403),  # a read page
    ("chouette:new", "get"):                             (302, 200, 200, 403, 403, 403, 403),
    ("chouette:new", "post"):                            (302, 400, 400, 403, 403, 403, 403),
    ("chouette:table", "get"):                           (302, 200, 200, 200, 403, 403, 403),
    ("chouette:table", "post"):                          (302, 200, 200, 200, 403, 403, 403),  # a read page
    ("chouette:game_record", "get"):                     (302, 405, 405, 405, 405, 405, 405),
    ("chouette:game_record", "post"):                    (302, 400, 400, 403, 403, 403, 403),
    ("chouette:game_record_full", "get"):                (302, 405, 405, 405, 405, 405, 405),
    ("chouette:game_record_full", "post"):               (302, 400, 400, 403, 403, 403, 403),
    ("chouette:game", "get"):                            (302, 200, 200, 200, 403, 403, 403),
    ("chouette:game", "post"):                           (302, 400, 400, 403, 403, 403, 403),  # an amendment without a result
    ("chouette:join", "get"):                            (302, 405, 405, 405, 405, 405, 405),
    ("chouette:join", "post"):                           (302, 400, 400, 403, 403, 403, 403),
    ("chouette:leave", "get"):                           (302, 405, 405, 405, 405, 405, 405),
    ("chouette:leave", "post"):                          (302, 400, 400, 403, 403, 403, 403),
    ("chouette:end", "get"):                             (302, 405, 405, 405, 405, 405, 405),
    ("chouette:end", "post"):                            (302, 302, 302, 403, 403, 403, 403),
    ("chouette:reopen", "get"):                          (302, 405, 405, 405, 405, 405, 405),
    ("chouette:reopen", "post"):                         (302, 302, 302, 403, 403, 403, 403),  # open: no change
    ("chouette:rules", "get"):                           (302, 405, 405, 405, 405, 405, 405),  # the house rules: POST only
    ("chouette:rules", "post"):                          (302, 302, 302, 403, 403, 403, 403),  # the same rules again
    # The organiser role: carol has asked (her request is open), olga holds the role; staff decide.
    # Asking: players who have not asked yet (alice, bob, jon); the rest have asked or hold it.
    ("api-organiser-requests", "get"):                   (401, 200, 200, 200, 200, 200, 200),  # each sees his own
    ("api-organiser-requests", "post"):                  (401, 201, 201, 409, 409, 409, 409, 201),
    ("api-organiser-request-approve", "post"):           (401, 403, 403, 403, 403, 403, 200),  # carol's request
    ("api-organiser-request-refuse", "post"):            (401, 403, 403, 403, 403, 403, 200),
    ("organiser:home", "get"):                           (302, 200, 200, 200, 200, 200, 200),
    ("organiser:home", "post"):                          (302, 302, 302, 409, 409, 409, 409, 302),
    ("organiser:requests", "get"):                       (302, 403, 403, 403, 403, 403, 200),
    ("organiser:requests", "post"):                      (302, 403, 403, 403, 403, 403, 200),  # a read page
    ("organiser:approve", "get"):                        (302, 405, 405, 405, 405, 405, 405),
    ("organiser:approve", "post"):                       (302, 403, 403, 403, 403, 403, 302),
    ("organiser:refuse", "get"):                         (302, 405, 405, 405, 405, 405, 405),
    ("organiser:refuse", "post"):                        (302, 403, 403, 403, 403, 403, 302),
    ("organiser:revoke", "get"):                         (302, 405, 405, 405, 405, 405, 405),
    ("organiser:revoke", "post"):                        (302, 403, 403, 403, 403, 403, 302),  # olga's role
    # Paper (PDF): a public event's sheets and a match's scoresheet are public; read-only (a draft's: its organiser's).
    ("tournaments:paper_draw", "get"):                   (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:paper_draw", "post"):                  (405, 405, 405, 405, 405, 405, 405),
    ("tournaments:paper_scoresheets", "get"):            (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:paper_scoresheets", "post"):           (405, 405, 405, 405, 405, 405, 405),
    ("tournaments:paper_results", "get"):                (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:paper_results", "post"):               (405, 405, 405, 405, 405, 405, 405),
    ("matches:scoresheet", "get"):                       (200, 200, 200, 200, 200, 200, 200),
    ("matches:scoresheet", "post"):                      (405, 405, 405, 405, 405, 405, 405),
    # An event away from the site: public like the event, read-only (POST: 405). The
    # embed is the one page any site may frame (tests/tournaments/test_display.py).
    ("tournaments:projector", "get"):                    (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:projector", "post"):                   (405, 405, 405, 405, 405, 405, 405),
    ("tournaments:embed_bracket", "get"):                (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:embed_bracket", "post"):               (405, 405, 405, 405, 405, 405, 405),
    ("tournaments:bracket_svg", "get"):                  (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:bracket_svg", "post"):                 (405, 405, 405, 405, 405, 405, 405),
    ("tournaments:bracket_png", "get"):                  (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:bracket_png", "post"):                 (405, 405, 405, 405, 405, 405, 405),
    # Webhooks: otto's on his event (otto and staff manage it; its secret is otto's alone), and the
    # Matrix Club's, managed by its owner alice and its organiser bob (staff has no role in a club).
    ("api-tournament-webhooks", "get"):                  (401, 403, 403, 403, 200, 403, 200),
    ("api-tournament-webhooks", "post"):                 (401, 403, 403, 403, 201, 403, 201),
    ("api-club-webhooks", "get"):                        (401, 200, 200, 403, 403, 403, 403),
    ("api-club-webhooks", "post"):                       (401, 201, 201, 403, 403, 403, 403),
    ("api-webhook", "get"):                              (401, 403, 403, 403, 200, 403, 200),
    ("api-webhook", "patch"):                            (401, 403, 403, 403, 200, 403, 200),
    ("api-webhook", "delete"):                           (401, 403, 403, 403, 204, 403, 204),
    ("api-webhook-secret", "get"):                       (401, 403, 403, 403, 200, 403, 403),
    ("api-webhook-deliveries", "get"):                   (401, 403, 403, 403, 200, 403, 200),
    ("api-webhook-redeliver", "post"):                   (401, 403, 403, 403, 201, 403, 201),
    ("webhooks:event", "get"):                           (302, 403, 403, 403, 200, 403, 200),
    ("webhooks:event", "post"):                          (302, 403, 403, 403, 201, 403, 201),
    ("webhooks:club", "get"):                            (302, 200, 200, 403, 403, 403, 403),
    ("webhooks:club", "post"):                           (302, 201, 201, 403, 403, 403, 403),
    ("webhooks:switch", "get"):                          (302, 405, 405, 405, 405, 405, 405),
    ("webhooks:switch", "post"):                         (302, 403, 403, 403, 302, 403, 302),
    ("webhooks:delete", "get"):                          (302, 405, 405, 405, 405, 405, 405),
    ("webhooks:delete", "post"):                         (302, 403, 403, 403, 302, 403, 302),
    ("webhooks:secret", "get"):                          (302, 405, 405, 405, 405, 405, 405),
    ("webhooks:secret", "post"):                         (302, 403, 403, 403, 200, 403, 403),
    ("webhooks:redeliver", "get"):                       (302, 405, 405, 405, 405, 405, 405),
    ("webhooks:redeliver", "post"):                      (302, 403, 403, 403, 302, 403, 302),
    # The paid places, public (GET only on the page)
    ("api-tournament-payouts", "get"):                   (200, 200, 200, 200, 200, 200, 200),
    # A modified Swiss's contention and playoffs: the matrix's event is a bracket, no modified Swiss: 404;
    # not a Swiss: 409
    ("api-tournament-contention", "get"):                (404, 404, 404, 404, 404, 404, 404),
    ("api-tournament-playoffs", "post"):                 (401, 403, 403, 403, 409, 403, 409),
    ("tournaments:playoffs_start", "get"):               (302, 405, 405, 405, 405, 405, 405),
    ("tournaments:playoffs_start", "post"):              (302, 403, 403, 403, 409, 403, 409),
    ("tournaments:payouts", "get"):                      (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:payouts", "post"):                     (405, 405, 405, 405, 405, 405, 405),
    # A match's analysis, public; asked for by its director (no games yet: 409)
    ("api-match-analysis", "get"):                       (200, 200, 200, 200, 200, 200, 200),
    ("api-match-analysis", "post"):                      (401, 403, 403, 403, 409, 403, 409),
    ("api-player-analysis", "get"):                      (200, 200, 200, 200, 200, 200, 200),
    ("api-tournament-analysis", "get"):                  (200, 200, 200, 200, 200, 200, 200),
    ("analysis:export", "get"):                          (404, 404, 404, 404, 404, 404, 404),  # not analysed yet
    ("analysis:export", "post"):                         (405, 405, 405, 405, 405, 405, 405),
    # The match page's poll of its analysis, public; the director's
    # request from the page (the sample match has no games: 409); an event's PR ranking, public
    ("analysis:live", "get"):                            (200, 200, 200, 200, 200, 200, 200),
    ("analysis:live", "post"):                           (405, 405, 405, 405, 405, 405, 405),
    ("analysis:request", "get"):                         (302, 405, 405, 405, 405, 405, 405),
    ("analysis:request", "post"):                        (302, 403, 403, 403, 409, 403, 409),
    ("tournaments:analysis", "get"):                     (200, 200, 200, 200, 200, 200, 200),
    ("tournaments:analysis", "post"):                    (405, 405, 405, 405, 405, 405, 405),
}


# --- the sample world -----------------------------------------------------------------------------


@pytest.fixture
def world():
    """The cast and their objects, and the URL kwargs that name them."""
    cast = make_cast()
    users = {role: cast.user(role) for role in ROLES if role not in ("anonymous", "committee")}
    users["anonymous"] = None
    cast.alice.email_public = True  # her choice: shown on her page (PUBLIC_EMAIL_ROUTES) and nowhere else
    cast.alice.save(update_fields=["email_public"])
    alice, bob = cast.match.side0.player_a, cast.match.side1.player_a
    tournament, _ = drawn(4, players=[alice, bob, player("dave"), player("erin")], organiser=cast.organiser)
    team_event = Tournament.objects.create(name="Team cup", organiser=cast.organiser,
                                           kind=Tournament.Kind.TEAMS, status=Tournament.Status.CLOSED)
    aces = team_create(tournament_id=team_event.pk, user=cast.organiser, name="Aces", captain_id=alice.pk,
                       member_ids=[player("frank").pk, player("grace").pk])
    bears = team_create(tournament_id=team_event.pk, user=cast.organiser, name="Bears", captain_id=bob.pk,
                        member_ids=[player("heidi").pk, player("ivan").pk])
    for team, captain in ((aces, cast.alice), (bears, cast.bob)):
        entry_check_in(tournament_id=team_event.pk, entry_id=team.entry.pk, user=captain)
    tournament_draw(tournament_id=team_event.pk, user=cast.organiser)
    team_pairing = Pairing.objects.filter(tournament=team_event).order_by("pk").first()
    job = ImportJob.objects.create(owner=cast.alice)
    entry = tournament.entries.get(side__player_a=alice)
    club = Club.objects.create(name="Matrix Club", slug="matrix-club")
    for user, role, status in ((cast.alice, "owner", "active"), (cast.bob, "organiser", "active"),
                               (cast.carol, "member", "active"), (cast.other_organiser, "member", "requested")):
        Membership.objects.create(club=club, user=user, role=role, status=status)
    season = Season.objects.create(club=club, name="Spring", starts_on=dt.date(2025, 3, 1), ends_on=dt.date(2025, 5, 31))
    night = ClubNight.objects.create(club=club, date=dt.date(2025, 3, 4), opened_by=cast.bob)
    jon, kim, lee = player("jon").user, UserFactory(username="kim"), UserFactory(username="lee")
    users["committee"] = jon
    Membership.objects.create(club=club, user=jon, role="member", status="active")
    dispute = dispute_open(match_id=cast.match.pk, user=cast.alice, category="conduct",
                           statement="Bob rolled before I had picked up my dice.")
    ruling = ruling_make(dispute_id=dispute.pk, user=cast.organiser, outcome="warning", params={"side": 1},
                         rule="RULES 9: conduct, a warning", reasoning="A first premature roll.")
    appeal = appeal_lodge(ruling_id=ruling.pk, user=cast.bob, grounds="She had picked them up.")
    committee_name(appeal_id=appeal.pk, user=cast.organiser, member_ids=[jon.pk, kim.pk, lee.pk])
    chouette = chouette_start(club_id=club.pk, user=cast.bob, rolloff=[[[alice.pk, 6], [bob.pk, 5],
                                                                       [cast.carol.player.pk, 4]]])
    chouette_game_record(club_id=club.pk, chouette_id=chouette.pk, user=cast.bob, kind="quick",
                         record={"winner": "box"})
    asked = organiser_request(user=cast.carol, statement="I run the Matrix Club's Tuesday nights.")
    walk_in = player_create_guest(actor=cast.organiser, name="Walter", email="walter@example.com")
    invitation = walk_in.invitations.get()
    # A claim waiting: zed (no player yet) says he is lasse, imported, who entered an event of the
    # organiser's (staff typed in the entry: the organiser did not enter him, so he may decide).
    lasse = player_create(display_name="lasse")
    Entry.objects.create(tournament=Tournament.objects.create(name="Claims cup", organiser=cast.organiser),
                         side=side_for([lasse]), entered_by=cast.user("staff"))
    claim = claim_request(player_id=lasse.pk, user=UserFactory(username="zed"))
    webhook = subscription_create(user=cast.organiser, url="https://hooks.example.org/crawford", events=["results"],
                                  tournament=tournament)
    delivery = Delivery.objects.create(subscription=webhook, event="results", payload={"type": "result.confirmed"})
    common = {"organiser_request_id": asked.pk, "organiser_id": cast.other_organiser.pk, "claim_id": claim.pk,
              "match_id": cast.match.pk, "player_id": alice.pk, "number": 1, "job_id": job.pk,
              "entry_id": entry.pk, "club_id": club.pk, "slug": club.slug, "season_id": season.pk, "night_id": night.pk,
              "membership_id": Membership.objects.get(club=club, user=cast.other_organiser).pk,
              "dispute_id": dispute.pk, "ruling_id": ruling.pk, "appeal_id": appeal.pk,
              "chouette_id": chouette.pk, "game_number": 1, "token": invitation_token(invitation),
              "subscription_id": webhook.pk, "delivery_id": delivery.pk,
              "token_id": api_token_create(user=cast.alice, name="alice's script")[0].pk,
              # allauth's links (re_path routes): a verification key and a reset link that do not exist
              "key": "not-a-key", "uidb36": "1"}
    return {
        "users": users,
        "alice_player": alice.pk,
        "bob_player": bob.pk,
        "carol_player": cast.carol.player.pk,
        "committee_ids": [jon.pk, kim.pk, lee.pk],
        "emails": [u.email for u in users.values() if u is not None],
        "public_emails": [cast.alice.email],
        "kwargs": {**common, "tournament_id": tournament.pk},
        "team_kwargs": {**common, "tournament_id": team_event.pk, "team_id": aces.pk,
                        "pairing_id": team_pairing.pk},
    }


#: A minimal valid body for the writes whose form is read before the permission is checked: with an
#: empty body everyone would get the same 400, and the row would prove nothing about who may act.
BODIES = {
    "api-match-list": lambda world: {"side0": [world["alice_player"]], "side1": [world["bob_player"]], "length": 7},
    "api-match-report": {"score": [5, 1]},
    "import-mapping": {"mapping": {"lasse": "guest"}},
    "matches:report": {"report-score0": "5", "report-score1": "1"},
    "matches:override": {"override-score0": "5", "override-score1": "1"},
    "analysis:request": {"plies": "0"},
    "set_language": {"language": "ko", "next": "/players/"},
    "matches:profile": {"display_name": "Someone Else", "country": "RO", "preferred_language": "ro"},
    "api-tournament-teams": lambda world: {"name": "Cats", "captain_id": world["carol_player"]},
    "api-tournament-team-members": lambda world: {"player_id": world["carol_player"]},
    "tournaments:team_member_add": lambda world: {"member-player": world["carol_player"]},
    "tournaments:check_in": lambda world: {"entry": world["kwargs"]["entry_id"]},
    "tournaments:withdraw": lambda world: {"entry": world["kwargs"]["entry_id"]},
    "api-disputes": lambda world: {"match": world["kwargs"]["match_id"], "category": "slow_play", "statement": "Slow."},
    "api-dispute-statements": {"text": "I agree."},
    "api-dispute-rulings": {"outcome": "warning", "params": {"side": 0}, "rule": "RULES 9", "reasoning": "Slow."},
    "api-ruling-appeal": {"grounds": "Too harsh."},
    "api-appeal-committee": lambda world: {"members": world["committee_ids"]},
    "api-appeal-votes": {"decision": "uphold"},
    "rulings:open": {"category": "slow_play", "statement": "Slow."},
    "rulings:answer": {"text": "I agree."},
    "rulings:rule": {"outcome": "warning", "side": "0", "rule": "RULES 9", "reasoning": "Slow."},
    "rulings:appeal_lodge": {"grounds": "Too harsh."},
    "rulings:committee": {"members": "jon, kim, lee"},
    "rulings:vote": {"decision": "uphold"},
    "api-organiser-requests": {"statement": "I run the Friday club."},
    "api-organiser-request-refuse": {"reason": "We do not know this club."},
    "organiser:home": {"statement": "I run the Friday club."},
    "organiser:refuse": {"reason": "We do not know this club."},
    "organiser:revoke": {"reason": "The club closed."},
    "tournaments:desk_paste": {"paste-names": "Somebody New"},
    "tournaments:desk_check_in": {"all": "1"},
    "api-tournament-webhooks": {"url": "https://hooks.example.org/event", "events": ["results"]},
    "api-club-webhooks": {"url": "https://hooks.example.org/club", "events": ["pairings"]},
    "webhooks:event": {"url": "https://hooks.example.org/event", "events": ["results"]},
    "webhooks:club": {"url": "https://hooks.example.org/club", "events": ["pairings"]},
}


#: The pages and endpoints of one's own account: they show the asker his own email address (and
#: name it), never anyone else's.
OWN_ACCOUNT_ROUTES = {"account_email", "api-me"}


# --- asking -----------------------------------------------------------------------------------------


def _url(name: str, pattern: str, world) -> str:
    kwargs = world["team_kwargs"] if "team" in name else world["kwargs"]
    needed = {key: value for key, value in kwargs.items() if f":{key}>" in pattern or f"<{key}>" in pattern}
    return reverse(name, kwargs=needed)


def _ask(name: str, pattern: str, method: str, role: str, world):
    """The response of ``role`` to ``method`` on the route, inside a savepoint rolled back after."""
    user = world["users"][role]
    url = _url(name, pattern, world)
    body = BODIES.get(name, {})
    body = body(world) if callable(body) else body
    if pattern.startswith("api/"):
        client, options = client_for(user), {"format": "json"}
    else:
        client, options = Client(), {}
        if user is not None:
            client.force_login(user)
    send = getattr(client, method)
    with transaction.atomic():
        response = send(url) if method == "get" else send(url, body, **options)
        transaction.set_rollback(True)
    return response


def _chosen(key: str, inner, shown) -> bool:
    """Whether a key naming an email carries none the owner kept private: his choice itself
    (``email_public``: true or false), or ``email`` empty or one he chose to show (``shown``)."""
    return (key == "email_public" and isinstance(inner, bool)) or (key == "email" and (inner is None or inner in shown))


def _private_keys(value, path: str = "$", shown=()):
    """Yield the JSON paths of every key naming an email, a password or a token, but for a user's
    choice to show his email and an email he chose to show (``shown``: on the routes that show
    it). An error body's ``errors`` name the fields that were wrong (``password`` of the token
    exchange): no data there."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if path == "$" and key == "errors":
                continue
            if any(word in str(key).lower() for word in ("email", "password", "token")) and not _chosen(key, inner, shown):
                yield f"{path}.{key}"
            yield from _private_keys(inner, f"{path}.{key}", shown)
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _private_keys(inner, f"{path}[{index}]", shown)


def _route_methods() -> list[tuple[str, str, str]]:
    """(name, pattern, method) for every route and method of the matrix, in resolver order."""
    rows = []
    wanted = matrix_routes()
    for pattern, name, callback in _routes():
        if name in wanted and wanted[name] == pattern:
            rows.extend((name, pattern, method) for method in _methods(callback))
    return rows


def test_every_route_is_in_the_matrix():
    rows = {(name, method) for name, _pattern, method in _route_methods()}
    missing = sorted(rows - MATRIX.keys())
    assert not missing, "".join(f"\n{name} {method.upper()} is a route without a row: add it to the matrix"
                                for name, method in missing)
    stale = sorted(MATRIX.keys() - rows)
    assert not stale, f"rows of the matrix without a route (remove them): {stale}"


def _expected(row: tuple[int, ...], role: str) -> int:
    """The role's status in a row; a row of seven gives the committee member carol's (see above)."""
    if role == "committee" and len(row) == len(ROLES) - 1:
        role = "carol"
    return row[ROLES.index(role)]


def test_every_row_gives_a_status_for_every_role():
    short = [key for key, row in MATRIX.items() if len(row) not in (len(ROLES) - 1, len(ROLES))]
    assert not short, f"rows without a status for every role: {short}"


@pytest.mark.parametrize("role", ROLES)
def test_every_route_answers_each_role_as_the_matrix_says_and_shows_nobody_private_data(role, world):
    wrong, leaks = [], []
    for name, pattern, method in _route_methods():
        expected = _expected(MATRIX[(name, method)], role)
        response = _ask(name, pattern, method, role, world)
        if response.status_code != expected:
            wrong.append(f"{name} {method.upper()} as {role}: {response.status_code}, the matrix says {expected}")
        content_type = response.get("Content-Type", "")
        body = response.content.decode(errors="replace")
        shown = world["public_emails"] if name in PUBLIC_EMAIL_ROUTES else []
        own = name in OWN_ACCOUNT_ROUTES and world["users"][role] is not None
        if "json" in content_type and body and not own:
            leaks.extend(f"{name} {method.upper()} as {role}: {key}" for key in _private_keys(json.loads(body), shown=shown))
        mine = world["users"][role].email if own else None
        leaks.extend(f"{name} {method.upper()} as {role}: shows {email}"
                     for email in world["emails"] if email in body and email not in shown and email != mine)
    assert not wrong, "\n".join(wrong)
    assert not leaks, "\n".join(leaks)


def test_the_email_alice_chose_to_show_is_on_her_page_and_in_her_player(world):
    # The exemption above is not idle: her page and her player in the API do show it.
    for name in sorted(PUBLIC_EMAIL_ROUTES):
        pattern = matrix_routes()[name]
        response = _ask(name, pattern, "get", "anonymous", world)
        assert world["public_emails"][0] in response.content.decode(), name
