"""Opening and answering disputes. Every function runs in one transaction under the match's row
lock (the same lock result reporting takes), so a dispute and a report cannot interleave."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from audit.services import audit_record
from core.engine_messages import refusal_text
from core.locking import locked_one
from engine.actions import action_to_dict, actions_from_json
from engine.errors import EngineError
from engine.game import Frame
from engine.game import Game as EngineGame
from engine.ids import position_id
from matches.models import Game, Match
from matches.services.reporting import match_locked, side_of_user, user_runs_match
from rulings import errors
from rulings.models import Dispute, Statement
from tournaments.models import event_id_of

#: A statement (the opening one or an answer) is a few paragraphs, not a file.
STATEMENT_MAX = 5000
#: Without game records the game a dispute names cannot be checked; a long money session or a
#: 25-point match stays well below this.
MAX_GAME_NUMBER = 200



def _text(field: str, value, error=errors.bad_dispute) -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise error(field, _("required: say what happened"))
    if len(text) > STATEMENT_MAX:
        raise error(field, _("%(length)s characters; the limit is %(limit)s") % {
            "length": len(text), "limit": STATEMENT_MAX})
    return text


def _whole(field: str, value, minimum: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise errors.bad_dispute(field, _("a whole number, %(minimum)s or more") % {"minimum": minimum})
    return value


def _game_number(match: Match, value) -> tuple[int, Game | None]:
    """The disputed game: one of the match's game records when it has them, else any number up
    to :data:`MAX_GAME_NUMBER`."""
    number = _whole("game_number", value, 1)
    numbers = list(match.games.order_by("number").values_list("number", flat=True))
    if numbers:
        if number not in numbers:
            raise errors.bad_dispute("game_number", _("this match has games 1 to %(last)s, not %(number)s") % {
                "last": max(numbers), "number": number},
                                     game=number)
        return number, match.games.get(number=number)
    if number > MAX_GAME_NUMBER:
        raise errors.bad_dispute("game_number", _("a game number is at most %(most)s") % {"most": MAX_GAME_NUMBER}, game=number)
    return number, None


def _log_as_played(value, number: int) -> list[dict]:
    """The disputed game as the opener says it was played: well-formed actions (whether they keep
    the rules is what the dispute is about), within the size limit."""
    if not isinstance(value, list):
        raise errors.bad_dispute("log", _("the disputed game's list of actions"), game=number)
    if len(value) > settings.MAX_LOG_ACTIONS:
        raise errors.bad_dispute("log", _("the log holds %(count)s actions; the limit is %(limit)s") % {
            "count": len(value), "limit": settings.MAX_LOG_ACTIONS})
    try:
        return [action_to_dict(a) for a in actions_from_json(value)]
    except EngineError as error:
        raise errors.bad_dispute("log", refusal_text(error), game=number) from None


def _moment_position(match: Match, number: int, stored: Game | None, log: list[dict] | None, move) -> str:
    """The GNU Backgammon Position ID before action ``move`` (1-based) of game ``number``,
    replayed by the engine from the log as played (when given) or the game's record.

    The record is replayed under its own rules. A log as played is replayed without the Crawford
    game's ban on doubling: a double in the Crawford game is one of the things a dispute is about,
    and the moment may come after it. Only the actions before the moment are replayed."""
    if log is None and stored is None:
        raise errors.bad_dispute("move_number", _("game %(game)s has no record to point into: attach the game as played or "
                                                  "describe the moment in the statement") % {"game": number}, game=number)
    move = _whole("move_number", move, 1)
    actions = actions_from_json(log if log is not None else stored.log)
    if move > len(actions):
        raise errors.bad_dispute("move_number", _("game %(game)s has actions 1 to %(last)s: %(move)s is past its end") % {
            "game": number, "last": len(actions), "move": move},
                                 game=number, move=move)
    try:
        frame = moment_frame(match, number, stored.crawford if log is None else False, actions, move)
    except EngineError as error:
        raise errors.bad_dispute("log", _("the log cannot be replayed up to action %(move)s: %(why)s") % {
            "move": move, "why": refusal_text(error)},
                                 game=number, move=move) from None
    return position_id(frame.position)


def moment_frame(match: Match, number: int, crawford: bool, actions: list, move: int) -> Frame:
    """The engine's frame (board, cube, dice, who acts) before action ``move`` (1-based) of game
    ``number``: its earlier actions replayed under the match's rules (``crawford``: the game is
    the Crawford game). Raises the engine's error for an earlier action it refuses."""
    game = EngineGame(match.rules().game_rules(crawford_game=crawford), number=number)
    for action in actions[:move - 1]:
        game.apply(action)
    return game.frame()


@transaction.atomic
def dispute_open(*, match_id: int, user, category: str, statement: str, game_number: int | None = None,
                 move_number: int | None = None, log: list | None = None) -> Dispute:
    """A player of the match (either side) or its director opens a dispute for the director to
    rule on: about the whole match, one game (``game_number``), or one moment of a game
    (``move_number``: the 1-based index of the disputed action in the game's log, as the engine's
    rulings count it; the moment is the board before it, the game page's moment
    ``move_number - 1``). ``log`` is the disputed
    game as played when it differs from the record (a double in the Crawford game, an illegal
    play). The moment's Position ID is stored with the dispute.

    Creates the Dispute (open) and an audit entry ``dispute.opened``. Locks the match row.
    Raises Match.DoesNotExist; NotAllowed ``not_a_party`` for anyone else; DomainError
    ``bad_dispute`` with ``field`` (category, statement, game_number, move_number, log) for bad
    input, e.g. a game the match's records do not have or a move past the game's end. Nothing is
    saved on failure.
    """
    match = match_locked(match_id)
    side = side_of_user(match, user)
    if side is None and not user_runs_match(match, user):
        raise errors.not_a_party()
    if category not in Dispute.Category.values:
        raise errors.bad_dispute("category", _("one of %(choices)s, not %(given)r") % {
            "choices": ", ".join(Dispute.Category.values), "given": category})
    statement = _text("statement", statement)
    number = stored = None
    if game_number is not None:
        number, stored = _game_number(match, game_number)
    elif move_number is not None or log is not None:
        field = "move_number" if move_number is not None else "log"
        raise errors.bad_dispute(field, _("An action belongs to a game: give the game's number.") if field == "move_number"
                                 else _("A game log belongs to a game: give the game's number."))
    played = _log_as_played(log, number) if log is not None else None
    position = ""
    if move_number is not None:
        position = _moment_position(match, number, stored, played, move_number)
    dispute = Dispute.objects.create(
        match=match, game_number=number, move_number=move_number, position_id=position, log=played,
        category=category, statement=statement, opened_by=user, side=side,
    )
    audit_record(actor=user, action="dispute.opened", object_type="rulings.Dispute", object_id=dispute.pk,
                 tournament_id=event_id_of(match), match_id=match.pk,
                 after={"category": category, "side": side, "game": number, "move": move_number,
                        "position_id": position, "statement": statement})
    return dispute


@transaction.atomic
def dispute_answer(*, dispute_id: int, user, text: str) -> Statement:
    """A player of the match or its director adds a statement to a dispute that is not decided
    yet (open, ruled or under appeal: the committee reads them too).

    Creates the Statement and an audit entry ``dispute.answered``. Locks the match row, then the
    dispute's. Raises Dispute.DoesNotExist; NotAllowed ``not_a_party``; DomainError
    ``bad_dispute`` (field ``text``: empty or too long); Conflict ``dispute_decided``.
    """
    match_id = Dispute.objects.values_list("match_id", flat=True).get(pk=dispute_id)
    match = match_locked(match_id)
    dispute = locked_one(Dispute.objects.all(), pk=dispute_id)
    side = side_of_user(match, user)
    if side is None and not user_runs_match(match, user):
        raise errors.not_a_party()
    if dispute.status in (Dispute.Status.DECIDED, Dispute.Status.SETTLED):
        raise errors.dispute_decided(dispute.get_status_display().lower())
    text = _text("text", text)
    statement = Statement.objects.create(dispute=dispute, author=user, side=side, text=text)
    audit_record(actor=user, action="dispute.answered", object_type="rulings.Statement", object_id=statement.pk,
                 tournament_id=event_id_of(match), match_id=match.pk,
                 after={"dispute": dispute.pk, "side": side, "text": text})
    return statement


def dispute_open_automatic(*, match, user, statement: str, scores: list | None = None) -> Dispute:
    """Open the match's automatic score dispute when its reports disagree or one is contested.
    ``scores`` (why: the two reported scores that disagree, or the one contested) is kept as data
    and worded where the dispute is read; ``statement`` is the user's own words (perhaps empty).

    Called through ``matches.hooks.result_disputed`` (``rulings.receivers``) inside the reporting
    service's transaction, with the match locked.
    Idempotent: while an automatic dispute of the match is open, it is returned unchanged (the
    partial unique index ``dispute_one_automatic_open_per_match`` refuses a second one).
    """
    existing = Dispute.objects.filter(match=match, automatic=True, status=Dispute.Status.OPEN).first()
    if existing is not None:
        return existing
    dispute = Dispute.objects.create(
        match=match, category=Dispute.Category.SCORE_DISAGREEMENT, statement=statement, opened_by=user,
        side=side_of_user(match, user), automatic=True, reported_scores=scores or None,
    )
    audit_record(actor=user, action="dispute.opened", object_type="rulings.Dispute", object_id=dispute.pk,
                 tournament_id=event_id_of(match), match_id=match.pk,
                 after={"category": dispute.category, "automatic": True, "statement": statement,
                        "scores": scores or None})
    return dispute


def disputes_settle_automatic(*, match, actor, ruled: int | None = None) -> int:
    """The match's open automatic dispute is settled without a ruling: its result was confirmed by
    agreement or entered by the director. Called through ``matches.hooks.result_confirmed`` inside the
    transaction that confirms the result. ``ruled``: the dispute a ruling is confirming the result
    for, left to the ruling. The disputes opened by hand (conduct, an illegal move...) stay open.
    Audited ``dispute.settled``; returns how many were settled (0 or 1).
    """
    settled = 0
    for dispute in Dispute.objects.filter(match=match, automatic=True, status=Dispute.Status.OPEN).exclude(pk=ruled):
        dispute.status = Dispute.Status.SETTLED
        dispute.save(update_fields=["status"])
        audit_record(actor=actor, action="dispute.settled", object_type="rulings.Dispute", object_id=dispute.pk,
                     tournament_id=event_id_of(match), match_id=match.pk, before={"status": Dispute.Status.OPEN},
                     after={"status": Dispute.Status.SETTLED, "score": [match.score0, match.score1]})
        settled += 1
    return settled
