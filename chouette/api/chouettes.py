"""API of the chouette tables, under /api/v1/clubs/<club_id>/chouettes/. Each view checks who reads or
acts, reads its body with a strict serializer, calls one service or selector, and answers with the
table's state as chouette.selectors recomputes it.

Who: every chouette read is for the club's members only, the whole of it (a session's players and
its amounts are the club's business): anonymous 401, anyone else 403 ``not_club_member``. Writes are
for the club's owners and organisers (403 ``not_club_manager``), checked before the body is read.

A table's state (GET) carries its most recent games only (``games``: 20 unless asked, ``all`` for
every one; ``game_count`` counts them all); its ledger and settlement are always over every game. The
writes answer with the whole state, every game in it.

Status codes: 200 (201 for a started table and a recorded game), 400 for a bad body, a bad ``games``
or a record the engine refuses (``code`` the broken rule's, ``field`` where it is, e.g.
``cubes[2].value`` inside the record, ``action_index`` for a full record's board), 404 for an unknown club, table or game number,
409 when the table's state forbids it (``chouette_ended``: the session has ended, and nothing of it
changes until an owner or organiser reopens it with ``reopen/``; ``stale_table`` with the current
``version``, ``duplicate_player``, ``too_few_players``, ``chouette_game_voided``, or
``later_games_to_amend``: a correction that changes who plays later games, named in the message
with their players, the first one's ``game`` and ``step``; send them again in ``later``, each on the
line-up it now falls to). Recording and amending a game share the ``reports`` throttle.
"""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from clubs.api.base import ClubBaseApi, read_body, require_member_reader
from clubs.api.serializers import NoBodySerializer
from clubs.models import Club
from clubs.permissions import require_club_manager
from clubs.selectors import club_get
from core import throttles
from core.api import ApiErrorSerializer, Pagination, paginated_response

from .. import selectors, services
from ..models import ChouetteSession, ChouetteStep
from .serializers import (
    DEFAULT_STATE_GAMES,
    GAMES_HELP,
    GAMES_SCHEMA,
    ChouetteGameInputSerializer,
    ChouettePlayerSerializer,
    ChouetteRulesInputSerializer,
    ChouetteSerializer,
    ChouetteStartSerializer,
    ChouetteStateQuerySerializer,
    ChouetteStateSerializer,
    ChouetteVersionSerializer,
    ChouetteVoidInputSerializer,
    ChouetteVoidQuerySerializer,
    GameRowSerializer,
    SettlementSerializer,
    later_games,
)

TAGS = ["chouettes"]
ERROR = ApiErrorSerializer
WRITE_ERRORS = {400: ERROR, 401: ApiErrorSerializer, 403: ApiErrorSerializer, 404: ApiErrorSerializer, 409: ERROR}
READ_ERRORS = {401: ApiErrorSerializer, 403: ApiErrorSerializer, 404: ApiErrorSerializer}

class ChouetteBaseApi(ClubBaseApi):
    """An unknown table or game (or another club's) is a 404 (core/api.py puts a refusal's field,
    step, player and the table's version in the body)."""

    def handle_exception(self, exc):
        if isinstance(exc, ChouetteSession.DoesNotExist):
            exc = NotFound(gettext("there is no such chouette table here"))
        elif isinstance(exc, ChouetteStep.DoesNotExist):
            exc = NotFound(gettext("there is no such game at this table"))
        return super().handle_exception(exc)


class ThrottledWritesMixin:
    """Writes of games use the ``reports`` scope on top of the defaults; reads only the defaults."""

    def get_throttles(self):
        classes = throttles.REPORTS if self.request.method not in ("GET", "HEAD", "OPTIONS") else throttles.DEFAULT
        return [throttle() for throttle in classes]


def _member_club(request, club_id: int) -> Club:
    club = club_get(club_id=club_id)
    require_member_reader(club, request.user)
    return club


def _manager_club(request, club_id: int) -> Club:
    club = club_get(club_id=club_id)
    require_club_manager(club, request.user)
    return club


def _state(club: Club, chouette_id: int, code: int = status.HTTP_200_OK, *,
           last_games: int | None = DEFAULT_STATE_GAMES) -> Response:
    """The table's state as the answer to a read or a write: the most recent ``last_games`` games
    (None: all), and always the whole ledger, line-up and settlement."""
    session = selectors.chouette_get(club=club, chouette_id=chouette_id)
    state = selectors.chouette_state(session=session, last_games=last_games)
    return Response(ChouetteStateSerializer(state).data, status=code)


class ChouetteCollectionApi(ChouetteBaseApi):
    pagination_class = Pagination  # the schema shows the page, as the answer is
    @extend_schema(operation_id="clubs_chouettes_list", tags=TAGS, summary="The club's chouette tables, newest first",
                   description="Members only. Paginated.", responses={200: ChouetteSerializer(many=True), **READ_ERRORS})
    def get(self, request, club_id: int):
        club = _member_club(request, club_id)
        return paginated_response(request=request, view=self, queryset=selectors.chouette_list(club=club),
                                  serializer_class=ChouetteSerializer)

    @extend_schema(operation_id="clubs_chouettes_start", tags=TAGS, summary="Start a chouette table (owners, organisers)",
                   description="The table's settings and the opening roll-off of its players (active members), which "
                               "gives the first line-up. 400 with the engine's code and the field (rolloff[1], "
                               "raccoons...); 409 night_closed.",
                   request=ChouetteStartSerializer, responses={201: ChouetteStateSerializer, **WRITE_ERRORS})
    def post(self, request, club_id: int):
        club = _manager_club(request, club_id)
        body = read_body(ChouetteStartSerializer, request)
        settings = services.chouette_settings({name: body.pop(name) for name in services.SETTING_NAMES})
        session = services.chouette_start(club_id=club.pk, user=request.user, night_id=body.pop("night"),
                                          settings=settings, **body)
        return _state(club, session.pk, status.HTTP_201_CREATED)


class ChouetteDetailApi(ChouetteBaseApi):
    @extend_schema(operation_id="clubs_chouettes_retrieve", tags=TAGS, summary="A chouette table (members)",
                   description="The line-up for the next game with roles and running totals, the most recent games "
                               f"(``games`` of them, {DEFAULT_STATE_GAMES} unless asked, ``games=all`` for every one) "
                               "with each member's cube and every player's amount (newest first; ``game_count`` counts "
                               "them all), the ledger in points and money, and the settlement with the fewest "
                               "transfers, over every game whatever ``games`` is. Recomputed from the steps. 400 "
                               "naming ``games`` for a value that is neither a number of games nor all.",
                   parameters=[OpenApiParameter("games", GAMES_SCHEMA, required=False, description=GAMES_HELP)],
                   responses={200: ChouetteStateSerializer, 400: ApiErrorSerializer, **READ_ERRORS})
    def get(self, request, club_id: int, chouette_id: int):
        club = _member_club(request, club_id)
        query = ChouetteStateQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        return _state(club, chouette_id, last_games=query.validated_data["games"])


class ChouetteVersionApi(ChouetteBaseApi):
    @extend_schema(operation_id="clubs_chouettes_version", tags=TAGS, summary="A table's version (members)",
                   description="Cheap to poll: it moves on with every change at the table.",
                   responses={200: ChouetteVersionSerializer, **READ_ERRORS})
    def get(self, request, club_id: int, chouette_id: int):
        session = selectors.chouette_get(club=_member_club(request, club_id), chouette_id=chouette_id)
        return Response(ChouetteVersionSerializer(session).data)


class ChouetteSettlementApi(ChouetteBaseApi):
    @extend_schema(operation_id="clubs_chouettes_settlement", tags=TAGS, summary="Who pays whom (members)",
                   description="The fewest transfers that square the ledger, in points and money; final once the "
                               "session has ended, what would be paid now before that.",
                   responses={200: SettlementSerializer, **READ_ERRORS})
    def get(self, request, club_id: int, chouette_id: int):
        session = selectors.chouette_get(club=_member_club(request, club_id), chouette_id=chouette_id)
        state = selectors.chouette_state(session=session, last_games=0)
        return Response(SettlementSerializer({
            "final": session.status == ChouetteSession.Status.ENDED, "stake": session.stake,
            "currency": session.currency, "transfers": state.settlement, "ledger": state.ledger}).data)


def _player_action(name: str, summary: str, description: str, service):
    class PlayerActionApi(ChouetteBaseApi):
        @extend_schema(operation_id=f"clubs_chouettes_{name}", tags=TAGS, summary=summary, description=description,
                       request=ChouettePlayerSerializer, responses={200: ChouetteStateSerializer, **WRITE_ERRORS})
        def post(self, request, club_id: int, chouette_id: int):
            club = _manager_club(request, club_id)
            body = read_body(ChouettePlayerSerializer, request)
            service(club_id=club.pk, chouette_id=chouette_id, user=request.user, player_id=body["player"],
                    expected_version=body["version"])
            return _state(club, chouette_id)

    PlayerActionApi.__name__ = PlayerActionApi.__qualname__ = f"Chouette{name.title()}Api"
    return PlayerActionApi


ChouetteJoinApi = _player_action(
    "join", "A newcomer joins at the bottom of the line (owners, organisers)",
    "Between games; an active member's player. 409 duplicate_player (already at the table), chouette_ended.",
    services.chouette_join)
ChouetteLeaveApi = _player_action(
    "leave", "A player leaves the table (owners, organisers)",
    "Between games; his ledger stays. 400 unknown_player (not at the table); 409 too_few_players (end it instead).",
    services.chouette_leave)


class ChouetteGameCollectionApi(ThrottledWritesMixin, ChouetteBaseApi):
    @extend_schema(operation_id="clubs_chouettes_games_record", tags=TAGS, summary="Record the next game (owners, "
                   "organisers)", description="A quick result or the full record, played by the current line-up; "
                   "checked by replaying every step of the session with it. 400 with the engine's code and the "
                   "field inside the record; 409 chouette_ended, stale_table. Throttled (reports).",
                   request=ChouetteGameInputSerializer, responses={201: ChouetteStateSerializer, **WRITE_ERRORS})
    def post(self, request, club_id: int, chouette_id: int):
        club = _manager_club(request, club_id)
        body = read_body(ChouetteGameInputSerializer, request)
        services.chouette_game_record(club_id=club.pk, chouette_id=chouette_id, user=request.user, kind=body["kind"],
                                      record=body["record"], expected_version=body["version"])
        return _state(club, chouette_id, status.HTTP_201_CREATED)


class ChouetteGameDetailApi(ThrottledWritesMixin, ChouetteBaseApi):
    @extend_schema(operation_id="clubs_chouettes_games_retrieve", tags=TAGS, summary="One game (members)",
                   responses={200: GameRowSerializer, **READ_ERRORS})
    def get(self, request, club_id: int, chouette_id: int, game_number: int):
        session = selectors.chouette_get(club=_member_club(request, club_id), chouette_id=chouette_id)
        state = selectors.chouette_state(session=session)
        game = next((game for game in state.games if game.number == game_number), None)
        if game is None:
            raise ChouetteStep.DoesNotExist
        return Response(GameRowSerializer(game).data)

    @extend_schema(operation_id="clubs_chouettes_games_amend", tags=TAGS, summary="Amend a game (owners, organisers)",
                   description="Replaces the game's record (checked against the line-up it was played with). Every "
                               "later game's line-up is recomputed: a later game whose Box or Captain changed (or "
                               "whose record no longer fits) is amended with it (later), or 409 "
                               "later_games_to_amend names those games and their players; 409 chouette_ended once "
                               "the session has ended. Audited before and after.",
                   request=ChouetteGameInputSerializer, responses={200: ChouetteStateSerializer, **WRITE_ERRORS})
    def put(self, request, club_id: int, chouette_id: int, game_number: int):
        club = _manager_club(request, club_id)
        body = read_body(ChouetteGameInputSerializer, request)
        services.chouette_game_amend(club_id=club.pk, chouette_id=chouette_id, number=game_number, user=request.user,
                                     kind=body["kind"], record=body["record"], expected_version=body["version"],
                                     later=later_games(body["later"]))
        return _state(club, chouette_id)

    @extend_schema(operation_id="clubs_chouettes_games_void", tags=TAGS, summary="Void a game (owners, organisers)",
                   description="The game stays listed but no longer counts: its amounts leave the ledger and its "
                               "rotation is undone. Every later game's line-up is recomputed; the later games that no "
                               "longer stand are amended with it (an optional body, later), or 409 "
                               "later_games_to_amend names them; 409 chouette_ended once the session has ended. "
                               "Voiding again changes nothing.",
                   parameters=[OpenApiParameter("version", OpenApiTypes.INT, required=False,
                                                description="the table's version your page was built from")],
                   request=ChouetteVoidInputSerializer, responses={200: ChouetteStateSerializer, **WRITE_ERRORS})
    def delete(self, request, club_id: int, chouette_id: int, game_number: int):
        club = _manager_club(request, club_id)
        query = ChouetteVoidQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        body = read_body(ChouetteVoidInputSerializer, request) if request.data else {"later": []}
        services.chouette_game_void(club_id=club.pk, chouette_id=chouette_id, number=game_number, user=request.user,
                                    expected_version=query.validated_data["version"], later=later_games(body["later"]))
        return _state(club, chouette_id)


class ChouetteRulesApi(ChouetteBaseApi):
    @extend_schema(operation_id="clubs_chouettes_rules", tags=TAGS,
                   summary="Change the table's house rules (owners, organisers)",
                   description="The house rules sent are set (those left out keep their value) and apply to the "
                               "whole session: every recorded game is replayed under them and the ledger follows. "
                               "400 per field for a value that is not true or false, bad_settings naming the rule "
                               "another needs; 409 house_rules_break_game (a recorded game breaks them: game, step "
                               "and reason, the rule's code), chouette_ended, stale_table.",
                   request=ChouetteRulesInputSerializer, responses={200: ChouetteStateSerializer, **WRITE_ERRORS})
    def post(self, request, club_id: int, chouette_id: int):
        club = _manager_club(request, club_id)
        body = read_body(ChouetteRulesInputSerializer, request)
        version = body.pop("version")
        services.chouette_rules_change(club_id=club.pk, chouette_id=chouette_id, user=request.user, rules=body,
                                       expected_version=version)
        return _state(club, chouette_id)


class ChouetteEndApi(ChouetteBaseApi):
    @extend_schema(operation_id="clubs_chouettes_end", tags=TAGS, summary="End the session (owners, organisers)",
                   description="The settlement is final: who pays whom with the fewest transfers. Nothing changes "
                               "any more (a game recorded, amended or voided, a join, a leave, the house rules: 409 "
                               "chouette_ended) until the session is reopened (reopen/). Ending again changes nothing.",
                   request=NoBodySerializer, responses={200: ChouetteStateSerializer, **WRITE_ERRORS})
    def post(self, request, club_id: int, chouette_id: int):
        club = _manager_club(request, club_id)
        read_body(NoBodySerializer, request)
        services.chouette_end(club_id=club.pk, chouette_id=chouette_id, user=request.user)
        return _state(club, chouette_id)


class ChouetteReopenApi(ChouetteBaseApi):
    @extend_schema(operation_id="clubs_chouettes_reopen", tags=TAGS,
                   summary="Reopen an ended session (owners, organisers)",
                   description="Games can be recorded, amended and voided again, players join and leave, the house "
                               "rules change; the settlement is no longer final until the session ends again. "
                               "Audited. Reopening an open session changes nothing. A player at the table who does not "
                               "manage the club gets 403 not_club_manager.",
                   request=NoBodySerializer, responses={200: ChouetteStateSerializer, **WRITE_ERRORS})
    def post(self, request, club_id: int, chouette_id: int):
        club = _manager_club(request, club_id)
        read_body(NoBodySerializer, request)
        services.chouette_reopen(club_id=club.pk, chouette_id=chouette_id, user=request.user)
        return _state(club, chouette_id)
