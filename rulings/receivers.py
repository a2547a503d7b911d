"""How rulings plugs into the apps below it, connected by :class:`rulings.apps.RulingsConfig` when
the app is ready (:func:`connect`). What it does when a match's result changes (``matches.hooks``).

Both run first (``ORDER_MATCH_RECORDS``), before an event's draw builds on the result.

And what it says to tournaments (``tournaments.hooks``, which imports nothing of rulings): an
event cannot be finished while a dispute on one of its matches is still open (awaiting a ruling
or under appeal); each is named in a sentence, and put first on the event's round desk. A dispute
keeps its match for good (``matches.hooks.match_records``).
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_lazy

from audit import hooks as audit_hooks
from core.text import isolate
from matches import hooks
from tournaments import hooks as event_hooks
from tournaments.hooks import DeskAlert, DeskItem

from . import wording
from .models import Dispute
from .selectors import dispute_round, disputes_unresolved_in_event
from .services.disputes import dispute_open_automatic, disputes_settle_automatic


def _result_confirmed(*, match, actor, ruled_dispute) -> None:
    # A score dispute the reports opened ends with a confirmed result (agreed, or entered by the director).
    disputes_settle_automatic(match=match, actor=actor, ruled=ruled_dispute)


def _result_disputed(*, match, user, statement, scores) -> None:
    dispute_open_automatic(match=match, user=user, statement=statement, scores=scores)


#: A dispute keeps its match for good (``Dispute.match`` is PROTECT): a match with one has started.
DISPUTE_RECORD = hooks.MatchRecord(
    name="dispute", why=gettext_lazy("a dispute was opened on it"),
    exists=lambda: Exists(Dispute.objects.filter(match_id=OuterRef("pk"))),
)


def dispute_sentence(dispute: Dispute) -> str:
    """The dispute as a director names it: "the dispute on Ana v Bob, round 2, opened on 1 Dec"
    (without the round for a match outside the event's draw)."""
    match = dispute.match
    values = {"match": gettext("%(side0)s v %(side1)s") % {
                  "side0": isolate(match.side0.name), "side1": isolate(match.side1.name)},
              "date": date_format(timezone.localtime(dispute.created_at), "MONTH_DAY_FORMAT"), "round": dispute_round(dispute)}
    if values["round"] is None:
        return gettext("the dispute on %(match)s, opened on %(date)s") % values
    return gettext("the dispute on %(match)s, round %(round)s, opened on %(date)s") % values


def _finish_blockers(tournament) -> list[str]:
    sentences = []
    for dispute in disputes_unresolved_in_event(tournament):
        if dispute.status == Dispute.Status.APPEALED:
            sentences.append(gettext("%(dispute)s is under appeal") % {"dispute": dispute_sentence(dispute)})
        else:
            sentences.append(gettext("%(dispute)s is still open") % {"dispute": dispute_sentence(dispute)})
    return sentences


OPEN_DISPUTES_CHECK = event_hooks.FinishCheck(name="rulings.open_disputes", blocking=_finish_blockers)


def _desk_items(tournament) -> list[DeskItem]:
    """The event's unresolved disputes for its round desk, oldest first, each linking to its page."""
    items = []
    for dispute in disputes_unresolved_in_event(tournament):
        if dispute.status == Dispute.Status.APPEALED:
            text = gettext("%(dispute)s is under appeal") % {"dispute": dispute_sentence(dispute)}
        else:
            text = gettext("%(dispute)s is still open") % {"dispute": dispute_sentence(dispute)}
        items.append(DeskItem(text[0].upper() + text[1:], reverse("rulings:dispute", args=[dispute.pk])))
    return items


OPEN_DISPUTES_DESK = DeskAlert(name="rulings.open_disputes", title=gettext_lazy("Open disputes"), items=_desk_items)


def connect() -> None:
    audit_hooks.sentences.register(wording.WORDING)
    event_hooks.finish_checks.register(OPEN_DISPUTES_CHECK)
    event_hooks.desk_alerts.register(OPEN_DISPUTES_DESK)
    hooks.match_records.register(DISPUTE_RECORD)
    hooks.result_confirmed.connect(_result_confirmed, name="rulings.disputes_settle_automatic",
                                   order=hooks.ORDER_MATCH_RECORDS)
    hooks.result_disputed.connect(_result_disputed, name="rulings.dispute_open_automatic",
                                  order=hooks.ORDER_MATCH_RECORDS)
