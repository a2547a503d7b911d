"""Claims of players known from imported match files, and merging two players.

An import names players by the names in the files ("charlot1"); a name no one is known by becomes
a player without a user (``Player.user`` empty). A signed-in user who is that player asks for it
(:func:`claim_request`: "this is me"); a director of an event or club the player played in
who did not enter the player and has no tie to the claimant (``hooks.claim_decidable``:
tournaments and clubs answer), or staff, approves it
(:func:`claim_approve`: the user is then the player's, his matches and his rating with him) or
refuses it with a reason the user is shown (:func:`claim_refuse`); the user may withdraw it while
it waits (:func:`claim_withdraw`). Each decision is emailed to the claimant through the outbox.

One user holds one player and one player one user (``Player.user`` is one-to-one). A user who
signed up has a player of his own already: when it has no matches, approving his claim moves him
onto the claimed player and removes the empty one; when it has matches, a claim cannot simply be
approved (the matches would be left behind): staff merge the two players (:func:`player_merge`),
which keeps every match and rates the merged ledger again.

Locks, in this order everywhere (as the ratings ledger takes them: matches, then players in id
order, ``matches.services.ratings``): the players a decision changes, then the claim rows. Two
approvals of two users' claims on one player are decided one after the other on the player's
row: the second finds the player held and is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import ProtectedError, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from audit.services import audit_record
from core.errors import DomainError
from core.labels import field_label, field_refusal
from core.locking import locked, locked_one, locked_rows
from core.outbox import outbox_enqueue

from .. import errors, hooks
from ..models import Match, Player, PlayerClaim, Side
from ..tasks import claim_notify_task
from .ratings import player_ratings_merge

#: The longest reason or statement a claim keeps (a paragraph; the API and the forms say so).
TEXT_LIMIT = 2000

#: Why a claim is refused when its player was given to another claim: a code, worded where it is
#: read in the reader's language (``PlayerClaim.reason_text``).
GIVEN_TO_ANOTHER = PlayerClaim.Reason.GIVEN_TO_ANOTHER


def _claim_summary(claim: PlayerClaim) -> dict:
    """What the audit log keeps of a claim: the player and the claimant by name, its status and
    reason (names, not ids: the audit sentences say them as they were)."""
    return {"player": claim.player.display_name, "player_id": claim.player_id,
            "claimant": claim.user.get_username(), "status": claim.status, "reason": claim.reason,
            "reason_code": claim.reason_code}


def _audit(actor, action: str, claim: PlayerClaim, before: dict | None, note: str = "") -> None:
    audit_record(actor=actor, action=action, object_type="matches.PlayerClaim", object_id=claim.pk,
                 before=before, after=_claim_summary(claim), note=note)


def may_decide(user, claim: PlayerClaim) -> bool:
    """Whether ``user`` may approve or refuse ``claim``: staff; or a director of an event or club
    where its player played, who did not enter the player himself and has no tie to the claimant
    (``hooks.claim_decidable``: one query)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff:
        return True
    return PlayerClaim.objects.filter(hooks.claim_decidable(user), pk=claim.pk).exists()


def _check_decider(claim: PlayerClaim, user) -> None:
    if claim.user_id == user.pk:
        raise errors.claim_own_decision()
    if not may_decide(user, claim):
        raise errors.claim_may_not_decide()


#: A claim's texts (the API's names) as the claim pages label them.
TEXT_LABELS = {"statement": gettext_lazy("Why you are this player"), "reason": gettext_lazy("Reason")}


def _text(value: str, field: str) -> str:
    value = (value or "").strip()
    if len(value) > TEXT_LIMIT:
        sentence = _("at most %(limit)s characters") % {"limit": TEXT_LIMIT}
        raise DomainError(field_refusal(field_label(TEXT_LABELS, field), sentence), sentence=sentence, code="too_long",
                          field=field)
    return value


@transaction.atomic
def claim_request(*, player_id: int, user, statement: str = "") -> PlayerClaim:
    """``user`` claims to be the player ``player_id`` (one without a user: known from imported
    files), saying why in ``statement`` (optional). Returns the open claim: a new one (audited
    ``claim.requested``), or his claim already waiting for this player (a repeat changes nothing).

    Raises Player.DoesNotExist; NotAllowed for an anonymous user; Conflict ``claim_own_player``
    (the player is his already) or ``claim_player_held`` (another user holds the player);
    DomainError ``too_long`` for a statement over :data:`TEXT_LIMIT`.
    """
    if not getattr(user, "is_authenticated", False):
        raise errors.claim_sign_in()
    statement = _text(statement, "statement")
    # Locked: an approval of another claim on him, deciding at this moment, is before or after.
    player = locked_one(Player.objects.all(), pk=player_id)
    if player.user_id == user.pk:
        raise errors.claim_own_player()
    if player.user_id is not None:
        raise errors.claim_player_held()
    existing = PlayerClaim.objects.filter(user=user, player=player, status=PlayerClaim.Status.REQUESTED).first()
    if existing is not None:
        return existing
    claim = PlayerClaim.objects.create(user=user, player=player, statement=statement)
    _audit(user, "claim.requested", claim, None, note=statement)
    return claim


def _matches_of(player_id: int):
    return Match.objects.filter(Q(side0__player_a=player_id) | Q(side0__player_b=player_id)
                                | Q(side1__player_a=player_id) | Q(side1__player_b=player_id))


def _remove_empty_player(player: Player) -> None:
    """Delete the claimant's own player, which has no match (his sides have none): his sides,
    then him. Raises Conflict ``claim_needs_merge`` when an app above keeps records of him (an
    entry, a team, a check-in: PROTECTed); the caller's transaction then rolls back whole."""
    try:
        Side.objects.filter(Q(player_a=player) | Q(player_b=player)).delete()
        player.delete()
    except ProtectedError:
        raise errors.claim_needs_merge(player.display_name, _("records in events or clubs")) from None


@transaction.atomic
def claim_approve(*, claim_id: int, user) -> PlayerClaim:
    """A director of an event or club the player played in, or staff, approves the claim: the
    claimant becomes the player's user (his matches, his rating). His own player, if he has one
    (made at sign-up), is removed when it has no match; the other users' claims still waiting
    for this player are refused (the player is taken). Audited (``claim.approved``, and
    ``claim.refused`` for each of the others); the claimant, and each refused claimant, is
    emailed after commit.

    Raises PlayerClaim.DoesNotExist; NotAllowed ``not_a_director`` for anyone else,
    ``own_claim`` for the claimant himself; Conflict ``claim_decided`` (no longer waiting),
    ``claim_player_held`` (another user holds the player now), ``claim_needs_merge`` (the
    claimant's own player has matches, a rating or records above: staff must merge the two),
    ``locked`` (the claimant's player changed meanwhile; try again); Locked.
    """
    seen = PlayerClaim.objects.get(pk=claim_id)
    _check_decider(seen, user)
    own = Player.objects.filter(user_id=seen.user_id).values_list("pk", flat=True).first()
    players = {p.pk: p for p in locked_rows(Player.objects.all(), [seen.player_id, *([own] if own else [])])}
    claim = locked_one(PlayerClaim.objects.select_related("user", "player"), pk=claim_id)
    if claim.status != PlayerClaim.Status.REQUESTED:
        raise errors.claim_not_open(claim.get_status_display())
    player = players[claim.player_id]
    if player.user_id is not None:
        raise errors.claim_player_held()
    if Player.objects.filter(user_id=claim.user_id).values_list("pk", flat=True).first() != own:
        raise errors.claim_changed()
    before = _claim_summary(claim)
    removed = None
    if own is not None:
        mine = players[own]
        if _matches_of(own).exists():
            raise errors.claim_needs_merge(mine.display_name, _("matches"))
        if mine.rating_changes.exists():
            raise errors.claim_needs_merge(mine.display_name, _("a rating history"))
        removed = mine.display_name
        _remove_empty_player(mine)
    player.user = claim.user
    player.save(update_fields=["user"])
    now = timezone.now()
    claim.status, claim.decided_by, claim.decided_at = PlayerClaim.Status.APPROVED, user, now
    claim.save(update_fields=["status", "decided_by", "decided_at"])
    _audit(user, "claim.approved", claim, before, note=f"removed:{removed}" if removed else "")
    outbox_enqueue(claim_notify_task, claim.pk)
    for other in locked(PlayerClaim.objects.select_related("user", "player").filter(
            player=player, status=PlayerClaim.Status.REQUESTED)):
        _decide(other, user, PlayerClaim.Status.REFUSED, "", code=GIVEN_TO_ANOTHER)
    return claim


def _decide(claim: PlayerClaim, user, status: str, reason: str, *, code: str = "") -> None:
    """``reason``: a director's words; ``code``: a refusal the application makes (PlayerClaim.Reason)."""
    before = _claim_summary(claim)
    claim.status, claim.reason, claim.reason_code = status, reason, code
    claim.decided_by, claim.decided_at = user, timezone.now()
    claim.save(update_fields=["status", "reason", "reason_code", "decided_by", "decided_at"])
    action = {"approved": "claim.approved", "refused": "claim.refused", "withdrawn": "claim.withdrawn"}[status]
    _audit(user, action, claim, before)
    if status == PlayerClaim.Status.REFUSED:
        outbox_enqueue(claim_notify_task, claim.pk)


def claims_close_for_taken(player: Player, user) -> None:
    """``user`` has just taken ``player`` by accepting an invitation to him (the caller holds the
    player's lock, in its transaction): the claims still waiting for the player are closed, as an
    approval closes them: the others' refused by the application (``GIVEN_TO_ANOTHER``, each
    claimant emailed after commit), his own withdrawn (he has the player). Audited per claim, by
    the system. Raises nothing of its own."""
    for claim in locked(PlayerClaim.objects.select_related("user", "player").filter(
            player=player, status=PlayerClaim.Status.REQUESTED)):
        if claim.user_id == user.pk:
            _decide(claim, None, PlayerClaim.Status.WITHDRAWN, "")
        else:
            _decide(claim, None, PlayerClaim.Status.REFUSED, "", code=GIVEN_TO_ANOTHER)


@transaction.atomic
def claim_refuse(*, claim_id: int, user, reason: str) -> PlayerClaim:
    """A director of an event or club the player played in, or staff, refuses the claim, saying
    why (``reason``, shown to the claimant and emailed to him after commit). Nothing else
    changes. Audited (``claim.refused``).

    Raises PlayerClaim.DoesNotExist; NotAllowed as :func:`claim_approve`; DomainError
    ``reason_required`` (field ``reason``) or ``too_long``; Conflict ``claim_decided``.
    """
    seen = PlayerClaim.objects.get(pk=claim_id)
    _check_decider(seen, user)
    reason = _text(reason, "reason")
    if not reason:
        raise errors.claim_reason_required()
    claim = locked_one(PlayerClaim.objects.select_related("user", "player"), pk=claim_id)
    if claim.status != PlayerClaim.Status.REQUESTED:
        raise errors.claim_not_open(claim.get_status_display())
    _decide(claim, user, PlayerClaim.Status.REFUSED, reason)
    return claim


@transaction.atomic
def claim_withdraw(*, claim_id: int, user) -> PlayerClaim:
    """The claimant takes back his claim while it waits. Audited (``claim.withdrawn``).

    Raises PlayerClaim.DoesNotExist; NotAllowed ``not_your_claim`` for anyone but the claimant;
    Conflict ``claim_decided``.
    """
    claim = locked_one(PlayerClaim.objects.select_related("user", "player"), pk=claim_id)
    if not getattr(user, "is_authenticated", False) or claim.user_id != user.pk:
        raise errors.claim_not_yours()
    if claim.status != PlayerClaim.Status.REQUESTED:
        raise errors.claim_not_open(claim.get_status_display())
    _decide(claim, user, PlayerClaim.Status.WITHDRAWN, "")
    return claim


# --- merging two players ------------------------------------------------------------------------


@dataclass(frozen=True)
class MergeOutcome:
    """What a merge did, or would do (``applied`` False: a dry run, nothing kept): the two
    players' names; the matches the source played (all kept, now the target's); his pair sides
    folded into the target's; both ratings before, the merged player's after; how many rated
    matches were rated again; whether the source's user moves to the target."""

    source: str
    target: str
    matches: int
    sides_folded: int
    source_rating: float
    target_rating: float
    rating: float
    experience: int
    recomputed: int
    user_moves: bool
    applied: bool


class _DryRun(Exception):
    def __init__(self, outcome: MergeOutcome):
        super().__init__("dry run")
        self.outcome = outcome


def _fold_side(old: Side, into: Side) -> None:
    """The matches of side ``old`` become ``into``'s (the same player or pair now); ``old`` goes."""
    Match.objects.filter(side0=old).update(side0=into)
    Match.objects.filter(side1=old).update(side1=into)
    old.delete()


_SWAPPED_ROLLER = {Side.Roller.A: Side.Roller.B, Side.Roller.B: Side.Roller.A}


def _fold_either(side: Side, existing: Side, **becomes) -> None:
    """``side`` (the source's) and ``existing`` (the target's) are now one player or pair: fold the
    source's into the target's; when an app above keeps the source's (an entry: PROTECTed), fold
    the target's into it instead and give it ``becomes`` (its new players). Raises ProtectedError
    when both are kept above."""
    try:
        with transaction.atomic():
            _fold_side(side, existing)
    except ProtectedError:
        _fold_side(existing, side)
        Side.objects.filter(pk=side.pk).update(**becomes)


def _repoint_sides(source: Player, target: Player) -> int:
    """The source's sides become the target's: his solo side folds into the target's (or becomes
    it, when the target has none), each pair of his becomes the pair of the target and the
    partner (folded into it when it exists; its roller follows its players when their order
    changes). Returns how many sides were folded into another. Raises ProtectedError when an app
    above keeps both sides of a fold (an entry each)."""
    folded = 0
    for side in Side.objects.filter(Q(player_a=source) | Q(player_b=source)).order_by("pk"):
        if side.player_b_id is None:
            existing = Side.objects.filter(player_a=target, player_b__isnull=True).first()
            if existing is None:
                Side.objects.filter(pk=side.pk).update(player_a=target)
            else:
                _fold_either(side, existing, player_a=target)
                folded += 1
            continue
        partner = side.player_b_id if side.player_a_id == source.pk else side.player_a_id
        a, b = sorted((target.pk, partner))
        roller = side.roller
        if (side.player_a_id == source.pk) != (a == target.pk):
            roller = _SWAPPED_ROLLER.get(roller, roller)
        existing = Side.objects.filter(player_a=a, player_b=b).first()
        if existing is not None:
            _fold_either(side, existing, player_a=a, player_b=b, roller=existing.roller)
            folded += 1
            continue
        Side.objects.filter(pk=side.pk).update(player_a=a, player_b=b, roller=roller)
    return folded


def _settle_claims(source: Player, target: Player, user) -> None:
    """The source's claims become the target's; a user's open claim on both is kept once; when
    the target now has a user, his own open claims are approved and the others refused."""
    for claim in PlayerClaim.objects.filter(player=source).select_related("user", "player").order_by("pk"):
        duplicate = claim.status == PlayerClaim.Status.REQUESTED and PlayerClaim.objects.filter(
            player=target, user=claim.user_id, status=PlayerClaim.Status.REQUESTED).exists()
        if duplicate:
            _decide(claim, user, PlayerClaim.Status.WITHDRAWN, "")
        PlayerClaim.objects.filter(pk=claim.pk).update(player=target)
    if target.user_id is None:
        return
    for claim in PlayerClaim.objects.filter(player=target, status=PlayerClaim.Status.REQUESTED).select_related(
            "user", "player").order_by("pk"):
        if claim.user_id == target.user_id:
            if not PlayerClaim.objects.filter(user=claim.user_id, status=PlayerClaim.Status.APPROVED).exists():
                _decide(claim, user, PlayerClaim.Status.APPROVED, "")
                outbox_enqueue(claim_notify_task, claim.pk)
            else:
                _decide(claim, user, PlayerClaim.Status.WITHDRAWN, "")
        else:
            _decide(claim, user, PlayerClaim.Status.REFUSED, "", code=GIVEN_TO_ANOTHER)


def player_merge(*, source_id: int, target_id: int, user, dry_run: bool = False) -> MergeOutcome:
    """Staff merge player ``source_id`` into ``target_id``: one person known as two players (an
    import's name and his own player). Every match of the source is kept, now the target's (his
    solo side and pairs repointed or folded into the target's: see :func:`_repoint_sides`); the
    ratings ledger is rated again as one player's (``ratings.player_ratings_merge``: the same
    recomputation as a correction); his claims follow; his user, if he has one and the target has
    none, moves to the target; then the source is deleted. One transaction, audited
    (``player.merged``). With ``dry_run`` everything is done and then rolled back: the outcome
    says what the merge would do (the page's and the API's preview).

    Raises Player.DoesNotExist; NotAllowed ``not_staff``; DomainError ``same_player``; Conflict
    ``merge_both_held`` (both have users: two people), ``merge_played_each_other`` (one player
    cannot play himself), ``merge_blocked`` (the source has records above that cannot move);
    Locked (ratings being applied to the players at this moment; nothing changed).
    """
    if not (getattr(user, "is_authenticated", False) and user.is_staff):
        raise errors.merge_not_staff()
    if source_id == target_id:
        raise errors.merge_same_player()
    try:
        with transaction.atomic():
            outcome = _merge(source_id, target_id, user, applied=not dry_run)
            if dry_run:
                raise _DryRun(outcome)
    except _DryRun as done:
        return done.outcome
    return outcome


def _merge(source_id: int, target_id: int, user, *, applied: bool) -> MergeOutcome:
    names = dict(Player.objects.filter(pk__in=[source_id, target_id]).values_list("pk", "display_name"))
    for pk in (source_id, target_id):
        if pk not in names:
            raise Player.DoesNotExist(f"there is no player {pk}")
    # Matches first, then players (the ratings ledger's order): a result confirmed on one of them
    # at this moment is wholly before the merge or waits for it.
    matches = list(_matches_of(source_id).values_list("pk", flat=True)) + list(
        _matches_of(target_id).values_list("pk", flat=True))
    locked_rows(Match.objects.all(), matches)
    both = _matches_of(source_id).filter(pk__in=_matches_of(target_id).values("pk")).count()
    if both:
        raise errors.merge_played_each_other(both)
    source_rating = Player.objects.values_list("rating", flat=True).get(pk=source_id)
    target_rating = Player.objects.values_list("rating", flat=True).get(pk=target_id)
    ledger = player_ratings_merge(source_id=source_id, target_id=target_id, held=set(matches))
    source, target = ledger.players[source_id], ledger.players[target_id]
    if source.user_id is not None and target.user_id is not None:
        raise errors.merge_both_held()
    moved = _matches_of(source_id).count()
    try:
        folded = _repoint_sides(source, target)
    except ProtectedError:
        raise errors.merge_blocked(source.display_name) from None
    user_moves = source.user_id is not None
    if user_moves:
        target.user_id, source.user_id = source.user_id, None
        Player.objects.filter(pk=source.pk).update(user=None)
        Player.objects.filter(pk=target.pk).update(user_id=target.user_id)
    _settle_claims(source, target, user)
    try:
        source.delete()
    except ProtectedError:
        raise errors.merge_blocked(source.display_name) from None
    outcome = MergeOutcome(
        source=names[source_id], target=names[target_id], matches=moved, sides_folded=folded,
        source_rating=source_rating, target_rating=target_rating, rating=ledger.rating,
        experience=ledger.experience, recomputed=ledger.recomputed, user_moves=user_moves, applied=applied,
    )
    audit_record(actor=user, action="player.merged", object_type="matches.Player", object_id=target_id,
                 before={"source": names[source_id], "source_id": source_id, "target": names[target_id],
                         "source_rating": source_rating, "target_rating": target_rating},
                 after={"player": names[target_id], "matches": moved, "rating": ledger.rating,
                        "experience": ledger.experience, "recomputed": ledger.recomputed, "user_moved": user_moves})
    return outcome
