"""The players' names of an import job: the players each name likely is
(:func:`import_candidates`), collected once its files are checked, and the importer's mapping of
each name (:func:`import_job_map`) to a player, a new guest player or "skip"."""

from __future__ import annotations

import difflib
import unicodedata
from collections import Counter

from django.db import transaction
from django.db.models import Q
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.locking import locked
from core.outbox import outbox_enqueue

from ... import hooks
from ...models import ImportFile, ImportJob, Match, Player
from .upload import context_values

#: At most this many players are offered for one name.
MAX_CANDIDATES = 10
#: How alike two folded names must be (difflib's ratio) to be offered as similar.
SIMILAR_CUTOFF = 0.6
#: How many names sharing the most trigrams with a name difflib then compares with it.
SHORTLIST = 200
#: How many of the importer's matches (played, directed) are read for the players he knows.
KNOWN_MATCHES = 200

REASONS = {
    "exact": _("the same name"),
    "case": _("the same name in other capitals"),
    "accent": _("the same name without accents"),
    "similar": _("a similar name"),
    "you": _("you"),
    "played": _("a player you have played"),
    "directs": _("a player of a match you direct"),
}


def _fold(name: str) -> str:
    """The name without case, accents or repeated spaces."""
    decomposed = unicodedata.normalize("NFKD", name)
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).casefold().split())


def _trigrams(key: str) -> set[str]:
    padded = f"  {key} "
    return {padded[index:index + 3] for index in range(len(padded) - 2)}


def _shortlist(key: str, grams: dict[str, list[str]]) -> list[str]:
    """The folded names sharing the most trigrams with ``key`` (at most SHORTLIST): difflib over
    every player's name would cost a second a name with 20,000 players."""
    shared: Counter[str] = Counter()
    for gram in _trigrams(key):
        shared.update(grams.get(gram, ()))
    return [name for name, _ in shared.most_common(SHORTLIST)]


def _known_players(owner, members) -> list[tuple[int, str]]:
    """``(player id, reason)`` of the importer himself, the players he has played, and the players
    of matches he directs (the newest KNOWN_MATCHES of each), each once, in that order."""
    own = Player.objects.filter(user_id=owner.pk).values_list("pk", flat=True).first()
    found: dict[int, str] = {}
    if own is not None:
        found[own] = "you"
    columns = ("side0__player_a", "side0__player_b", "side1__player_a", "side1__player_b")
    queries = []
    if own is not None:
        queries.append(("played", Match.objects.filter(
            Q(side0__player_a=own) | Q(side0__player_b=own) | Q(side1__player_a=own) | Q(side1__player_b=own))))
    queries.append(("directs", Match.objects.filter(Q(organiser=owner) | hooks.directed_by(owner))))
    for reason, matches in queries:
        for row in matches.order_by("-created_at", "-id").values_list(*columns)[:KNOWN_MATCHES]:
            for pk in row:
                if pk is not None and pk not in found:
                    found[pk] = reason
    if members is not None and found:
        allowed = set(members.filter(pk__in=list(found)).values_list("pk", flat=True))
        found = {pk: reason for pk, reason in found.items() if pk in allowed}
    return list(found.items())


def import_candidates(*, owner, names: list[str], members=None) -> dict[str, list[dict]]:
    """For each name, the players it likely is, most likely first: the same name exactly, in
    other capitals, without accents; then similar names (difflib); then the importer himself,
    the players he has played and those of matches he directs. ``members`` (a Player queryset:
    an event's entrants) limits them; None: any player. At most MAX_CANDIDATES each, as
    ``{"player": id, "reason": key of REASONS}``. Reads; changes nothing."""
    pool = list((members if members is not None else Player.objects.all()).values_list("pk", "display_name"))
    exact: dict[str, list[int]] = {}
    case: dict[str, list[int]] = {}
    folded: dict[str, list[int]] = {}
    names_of: dict[int, str] = {}
    for pk, display in sorted(pool):
        names_of[pk] = display
        exact.setdefault(display, []).append(pk)
        case.setdefault(display.casefold(), []).append(pk)
        folded.setdefault(_fold(display), []).append(pk)
    grams: dict[str, list[str]] = {}
    for key in folded:
        for gram in _trigrams(key):
            grams.setdefault(gram, []).append(key)
    known = _known_players(owner, members)
    missing = [pk for pk, _ in known if pk not in names_of]
    names_of.update(Player.objects.filter(pk__in=missing).values_list("pk", "display_name") if missing else [])
    result = {}
    for name in names:
        chosen: dict[int, str] = {}

        def offer(pks, reason, chosen=chosen):
            for pk in pks:
                if pk not in chosen and len(chosen) < MAX_CANDIDATES:
                    chosen[pk] = reason

        key = _fold(name)
        offer(exact.get(name, []), "exact")
        offer(case.get(name.casefold(), []), "case")
        offer(folded.get(key, []), "accent")
        for similar in difflib.get_close_matches(key, _shortlist(key, grams), n=MAX_CANDIDATES, cutoff=SIMILAR_CUTOFF):
            offer(folded[similar], "similar")
        ranked = sorted(known, key=lambda item: -difflib.SequenceMatcher(None, key, _fold(names_of[item[0]])).ratio())
        for reason in ("you", "played", "directs"):
            offer([pk for pk, why in ranked if why == reason], reason)
        result[name] = [{"player": pk, "reason": reason} for pk, reason in chosen.items()]
    return result


def _members(job: ImportJob):
    return hooks.context_members(context_values(job.context, job.owner)) if job.context else None


def collect_names(job_id: int) -> None:
    """Once every file is checked: the players' names of the checked files with their likely
    players (the job waits for its mapping), or the job is done when no file is left to write."""
    with transaction.atomic():
        job = locked(ImportJob.objects.select_related("owner").filter(pk=job_id)).first()
        if job is None or job.status not in (ImportJob.Status.QUEUED, ImportJob.Status.RUNNING) or job.mapped_at:
            return
        if job.files.filter(status=ImportFile.Status.PENDING).exists():
            return
        counts: dict[str, int] = {}
        for parsed in job.files.filter(status=ImportFile.Status.CHECKED).order_by("pk").values_list("parsed", flat=True):
            for name in dict.fromkeys(parsed["players"]):
                counts[name] = counts.get(name, 0) + 1
        if not counts:
            job.status, job.finished_at = ImportJob.Status.DONE, timezone.now()
            job.save(update_fields=["status", "finished_at"])
            return
        try:
            members = _members(job)
        except DomainError:
            members = Player.objects.none()  # the event is gone: no player of it may be chosen
        candidates = import_candidates(owner=job.owner, names=list(counts), members=members)
        job.names = [{"name": name, "matches": counts[name], "candidates": candidates[name]} for name in counts]
        job.status, job.progressed_at = ImportJob.Status.MAPPING, timezone.now()
        job.save(update_fields=["names", "status", "progressed_at"])


def _refuse(message: str, name: str) -> DomainError:
    # The mapping's keys are the names: the name is the field refused (the API's "errors" key).
    return DomainError(message, code="bad_mapping", field=name, name=name)


def import_job_map(*, job_id: int, user, mapping: dict, dispatch: bool = True) -> ImportJob:
    """Map each name of a job waiting for its players to a player id, "guest" (a new guest player
    of that name) or "skip" (the files it plays in are not imported), then send the job on to
    write its matches (the outbox row of ``import_job_run_task``, unless ``dispatch`` is False).

    Raises Http404 for a job ``user`` may not see; Conflict when the job is not waiting for its
    players; DomainError naming the name (``name``) for a name missing or unknown, a choice that
    is none of these, an unknown player, a player outside the job's context (not an entrant of
    its event), or two names of one file mapped to the same player. Nothing is saved then.
    """
    with transaction.atomic():
        job = locked(ImportJob.objects.select_related("owner").filter(pk=job_id)).first()
        if job is None or not getattr(user, "is_authenticated", False) or not (user.is_staff or job.owner_id == user.pk):
            raise Http404("no such import")
        if job.status != ImportJob.Status.MAPPING:
            raise Conflict(gettext("this import is not waiting for its players"), code="not_mapping")
        if not isinstance(mapping, dict):
            raise DomainError(gettext("give each name a player, \"guest\" or \"skip\""), code="bad_mapping",
                              field="mapping")
        names = [entry["name"] for entry in job.names]
        for name in mapping:
            if name not in names:
                raise _refuse(gettext("%(name)s is not a name of this import") % {"name": name}, str(name))
        clean: dict[str, int | str] = {}
        for name in names:
            if name not in mapping:
                raise _refuse(gettext("choose a player for %(name)s, a guest player, or to skip it")
                              % {"name": name}, name)
            choice = mapping[name]
            if isinstance(choice, str) and choice.strip().isdigit():
                choice = int(choice)
            if choice in ("guest", "skip") or (isinstance(choice, int) and not isinstance(choice, bool) and choice > 0):
                clean[name] = choice
            else:
                raise _refuse(gettext("%(name)s: choose a player, \"guest\" or \"skip\"") % {"name": name}, name)
        ids = {choice for choice in clean.values() if isinstance(choice, int)}
        existing = set(Player.objects.filter(pk__in=ids).values_list("pk", flat=True)) if ids else set()
        members = _members(job)
        allowed = (set(members.filter(pk__in=ids).values_list("pk", flat=True))
                   if members is not None and ids else existing)
        for name, choice in clean.items():
            if isinstance(choice, int) and choice not in existing:
                raise _refuse(gettext("%(name)s: there is no such player") % {"name": name}, name)
            if isinstance(choice, int) and choice not in allowed:
                raise _refuse(gettext("%(name)s: the player chosen has not entered this event") % {"name": name},
                              name)
        for parsed in job.files.filter(status=ImportFile.Status.CHECKED).values_list("parsed", flat=True):
            first, second = (clean[name] for name in parsed["players"])
            if isinstance(first, int) and first == second:
                raise _refuse(gettext("%(first)s and %(second)s play each other: they cannot be the same player")
                              % {"first": parsed["players"][0], "second": parsed["players"][1]},
                              parsed["players"][1])
        job.mapping, job.mapped_at = clean, timezone.now()
        job.status, job.progressed_at = ImportJob.Status.QUEUED, timezone.now()
        job.save(update_fields=["mapping", "mapped_at", "status", "progressed_at"])
        audit_record(actor=user, action="import.mapped", object_type="matches.ImportJob", object_id=job.pk,
                     tournament_id=job.context.get("event"), after={"mapping": clean})
        if dispatch:
            outbox_enqueue(tasks_imports.import_job_run_task, job.pk)
    return job


def import_job_suggested_mapping(job: ImportJob) -> dict:
    """The mapping the page offers first: each name to its player of exactly that name when
    there is one, else a new guest player."""
    return {entry["name"]: next((c["player"] for c in entry["candidates"] if c["reason"] == "exact"), "guest")
            for entry in job.names}


# The task module imports this one (the task wraps ``import_job_run``): bound last, once this
# module's functions exist, whichever of the two is imported first.
from ... import tasks_imports  # noqa: E402
