"""Opening and answering disputes. Every function runs in one transaction under the match's row
lock (the same lock result reporting takes), so a dispute and a report cannot interleave."""

from __future__ import annotations

from rulings.audit import audit_record
from rulings.models import Dispute


def dispute_open_automatic(*, match, user, statement: str) -> Dispute:
    """Open the match's automatic score dispute when its reports disagree or one is contested.

    Called by ``matches.services.reporting`` inside its transaction, with the match locked.
    Idempotent: while an automatic dispute of the match is open, it is returned unchanged (the
    partial unique index ``dispute_one_automatic_open_per_match`` refuses a second one).
    """
    existing = Dispute.objects.filter(match=match, automatic=True, status=Dispute.Status.OPEN).first()
    if existing is not None:
        return existing
    from matches.services.reporting import side_of_user

    dispute = Dispute.objects.create(
        match=match, category=Dispute.Category.SCORE_DISAGREEMENT, statement=statement, opened_by=user,
        side=side_of_user(match, user), automatic=True,
    )
    audit_record(actor=user, action="dispute.opened", object_type="rulings.Dispute", object_id=dispute.pk,
                 tournament_id=match.event_id, match_id=match.pk,
                 after={"category": dispute.category, "automatic": True, "statement": statement})
    return dispute
