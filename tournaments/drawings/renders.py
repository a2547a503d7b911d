"""An event's files drawn for anyone who asks: the bracket as SVG and PNG and the paper sheets (the
draw sheet, a round's scoresheets and results sheet, PDF). Each is drawn once per state of the
event and kept; the drawing is throttled, and a big one is drawn by a task, not in the request.

**Kept.** A file drawn is kept in the cache as the bytes sent, with their ETag (``(etag,
content_type, body)``, as core/cache.py keeps answers), for ``RENDER_CACHE_SECONDS``. Its key names
the event (its id, creation time and ``version``: standings.standings_cache_key), the file (kind,
round, paper, flight) and the reader's language. The version moves with every change made under
the event's lock: entries, the draw, rounds, results confirmed or reopened, the event's own
settings. Two things a drawing shows move without it, and the keys take them in as follows:

- the status of a match still to be decided (in play, reported, disputed: the bracket's boxes are
  styled and classed by it), read afresh on every read of the bracket
  (brackets.tournament_bracket_part). The bracket's files are keyed by a stamp of the event's
  matches as well (their number and latest ``updated_at``, which every status change saves: one
  aggregate query), so a file kept is served without reading the bracket; the sheets print no
  such status;
- a player's new name (a rename moves no event's version): the pages' cached reads show the old
  one for up to standings.STANDINGS_CACHE_SECONDS, a kept sheet for up to
  ``RENDER_CACHE_SECONDS`` more.

A request for a file kept draws nothing (and answers an ``If-None-Match`` naming its ETag with a
304).

**Drawn once at a time.** Whoever draws a file (a request, or a task) first claims it with the
cache's ``add``; a request that finds the file claimed draws nothing and answers 202 with a page
that asks again by itself (``Retry-After``, a refresh). Sixteen requests at the same moment for a
file not kept draw it once.

**Throttled.** Drawing a file costs up to seconds of a worker's processor and tens of megabytes
(Pillow holds a PNG's pixels while it draws), so each request that would draw one, or ask a task
for one, counts against the ``"renders"`` rate of its user or, lower, the ``"renders_anon"`` rate of
its address (core/throttles.py): past it, 429 with ``Retry-After`` and a sentence. A request
answered from the cache, or told that the file is being drawn, is not counted: it costs one cache
read and the bytes (less than the event's page, which no throttle counts), and a reader waiting for
a big sheet asks again every few seconds.

**Big files by a task.** A round's scoresheets of more than ``RENDER_TASK_SCORESHEETS`` matches (a
page a match, about 5 ms each), and a draw sheet, results sheet or bracket SVG or PNG of more than
``RENDER_TASK_MATCHES`` (a box or a line a match: under 1 ms each, 4 ms for a box of the PNG), are
drawn by ``render_keep_task`` on the quick queue, written in the outbox (core/outbox.py), not in the
request: it answers 202, and once the task has kept the file the same address serves it. The
task's claim lasts the quick tasks' time limit (after which a task is done or dead), a request's
:data:`DRAWING_SECONDS`. A task needs a cache every process shares (Redis): with the laptop's memory
cache, or Redis unreachable (the cache failing open: a task's file could not be kept, nor a claim
held), a big file is drawn in the request as before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.dummy import DummyCache
from django.core.cache.backends.locmem import LocMemCache
from django.db import transaction
from django.db.models import Count, Max
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _

from core import throttles
from core.cache import FailOpenRedisCache, answer_etag, conditional_answer
from core.outbox import outbox_enqueue
from matches.models import Match
from tournaments.labels import flight_title
from tournaments.models import Tournament
from tournaments.selectors import brackets, standings
from tournaments.views.draws import bracket_cell
from tournaments.views.event import svg_words

from . import paper
from .bracket_export import Flight, bracket_png, bracket_svg_file
from .bracket_svg import BracketRound

#: The task a request writes in the outbox (tournaments/tasks.py), named: tasks import this module.
TASK = "tournaments.tasks.render_keep_task"

SVG, PNG = "bracket.svg", "bracket.png"
DRAW, SCORESHEETS, RESULTS = "draw", "scoresheets", "results"
KINDS = (SVG, PNG, DRAW, SCORESHEETS, RESULTS)
CONTENT_TYPES = {SVG: "image/svg+xml; charset=utf-8", PNG: "image/png", DRAW: "application/pdf",
                 SCORESHEETS: "application/pdf", RESULTS: "application/pdf"}
#: Every file is of every flight: the key's place for a flight holds this.
EVERY_FLIGHT = "*"
#: How often the 202 page asks again (its refresh and ``Retry-After``), in seconds: for a file a task
#: draws, and for one another request is drawing now (a second or so).
PENDING_SECONDS = 5
DRAWING_PENDING_SECONDS = 1
#: How long a request's claim on the file it draws lasts at most (a process killed while it draws
#: gives none back): longer than any drawing small enough for a request takes.
DRAWING_SECONDS = 60


@dataclass(frozen=True)
class Wanted:
    """A file as asked: of which event, which kind (:data:`KINDS`), of which round (0: the whole
    event), on which paper (``a4``, ``letter``; empty for the bracket's images), in which
    language."""

    tournament_id: int
    kind: str
    number: int
    paper: str
    language: str


@dataclass(frozen=True)
class Source:
    """What a file is drawn from, read: its key, how many matches it draws (``size()``: None when
    the event has no such file; read on a miss only) and how to draw it (``draw()``: its bytes, or
    None when the event has no such file)."""

    key: str
    size: Callable[[], int | None]
    draw: Callable[[], bytes | None]


# --- what a file is drawn from -------------------------------------------------------------------


def bracket_flights(tournament: Tournament) -> list[Flight] | None:
    """Every flight of the bracket as the downloads draw it: (its title, its rounds), boxes
    without links (a file links nowhere); None before the draw or for a Swiss or round robin. At
    most three queries (brackets.tournament_bracket_part)."""
    part = brackets.tournament_bracket_part(tournament=tournament, every_flight=True)
    if part is None:
        return None
    summaries = {f.name: f for f in part.flights}
    return [(flight_title(window.name),
             [BracketRound(summaries[window.name].rounds[rnd.number - 1].label, rnd.length,
                           tuple(replace(bracket_cell(tournament, m), href=None) for m in rnd.matches))
              for rnd in window.rounds])
            for window in part.windows] or None


def _key(tournament: Tournament, wanted: Wanted, stamp: str = "") -> str:
    return (f"{standings.standings_cache_key(tournament)}:render:{wanted.kind}:{wanted.number}:{wanted.paper}:"
            f"{EVERY_FLIGHT}:{wanted.language}:{stamp}")


def _bracket_stamp(tournament: Tournament) -> str:
    """What the bracket's boxes show that moves no event version, as a stamp: its matches' number
    and latest change (a report, a dispute, a start: every such change saves the match's
    ``updated_at``). One aggregate query, so that a file kept is served without reading the
    bracket."""
    stamp = Match.objects.filter(event_link__tournament=tournament).aggregate(count=Count("pk"), last=Max("updated_at"))
    last = stamp["last"].timestamp() if stamp["last"] is not None else 0
    return f"{stamp['count']}-{last:.6f}"


def _bracket_source(tournament: Tournament, wanted: Wanted) -> Source | None:
    if tournament.drawn_at is None:
        return None
    read: list[list[Flight] | None] = []

    def flights() -> list[Flight] | None:
        # Read once, and only when the file is not kept (its size, then its drawing).
        if not read:
            read.append(bracket_flights(tournament))
        return read[0]

    def size() -> int | None:
        drawn = flights()
        return None if drawn is None else sum(len(rnd.cells) for _title, rounds in drawn for rnd in rounds)

    def draw() -> bytes | None:
        drawn = flights()
        if drawn is None:
            return None
        if wanted.kind == PNG:
            return bracket_png(drawn, words=svg_words())
        return bracket_svg_file(drawn, title=_("%(event)s: bracket") % {"event": tournament.name},
                                words=svg_words()).encode()

    return Source(_key(tournament, wanted, _bracket_stamp(tournament)), size, draw)


def _sheet_size(tournament: Tournament, wanted: Wanted) -> int | None:
    """The matches the sheet draws (a scoresheet's: those whose players are known), read as the
    sheet reads them; None when the event has no such sheet."""
    if wanted.kind == DRAW:
        # The bracket's summary alone (no round's matches): every round's number of matches.
        part = brackets.tournament_bracket_part(tournament=tournament, every_flight=True, rounds=range(0))
        return None if part is None else sum(rnd.match_count for flight in part.flights for rnd in flight.rounds)
    groups = paper.round_groups(tournament, wanted.number)
    if groups is None:
        return None
    if wanted.kind == SCORESHEETS:
        return len(paper.scoresheets(tournament, groups))
    return sum(len(group.matches) for group in groups)


def _sheet_source(tournament: Tournament, wanted: Wanted) -> Source:
    def draw() -> bytes | None:
        if wanted.kind == DRAW:
            return paper.draw_sheet_pdf(tournament, paper=wanted.paper)
        if wanted.kind == SCORESHEETS:
            return paper.scoresheets_pdf(tournament, wanted.number, paper=wanted.paper)
        return paper.results_pdf(tournament, wanted.number, paper=wanted.paper)

    return Source(_key(tournament, wanted), lambda: _sheet_size(tournament, wanted), draw)


def render_source(tournament: Tournament, wanted: Wanted) -> Source | None:
    """What ``wanted`` is drawn from, in the current language (it must be ``wanted.language``): a
    sheet's key needs no read, the bracket's files read the bracket (at most three queries). None
    when the event has no bracket to draw. Raises ValueError for a kind not in :data:`KINDS`."""
    if wanted.kind in (SVG, PNG):
        return _bracket_source(tournament, wanted)
    if wanted.kind in (DRAW, SCORESHEETS, RESULTS):
        return _sheet_source(tournament, wanted)
    raise ValueError(f"no file of kind {wanted.kind!r}")


# --- kept, drawn, asked for ---------------------------------------------------------------------


def render_kept(key: str) -> tuple[str, str, bytes] | None:
    """The file kept under ``key`` as ``(etag, content_type, body)``, or None. One cache read."""
    kept = cache.get(key)
    return kept if isinstance(kept, tuple) and len(kept) == 3 else None


def render_made(source: Source, kind: str) -> tuple[str, str, bytes] | None:
    """Draw the file of ``source`` here and keep it under its key for ``RENDER_CACHE_SECONDS``;
    return it as :func:`render_kept` does, or None when the event has no such file (nothing is
    kept). What the drawing raises goes through."""
    body = source.draw()
    if body is None:
        return None
    kept = (answer_etag(body), CONTENT_TYPES[kind], body)
    cache.set(source.key, kept, settings.RENDER_CACHE_SECONDS)
    return kept


def render_big(kind: str, size: int) -> bool:
    """Whether a file of ``kind`` drawing ``size`` matches is drawn by a task (see the module)."""
    return size > (settings.RENDER_TASK_SCORESHEETS if kind == SCORESHEETS else settings.RENDER_TASK_MATCHES)


def render_deferrable() -> bool:
    """Whether a file drawn by a task would reach this process: the cache is one every process
    shares (not the laptop's memory cache, which each process has to itself) and answers now (the
    breaker of core/cache.py closed)."""
    backend = caches["default"]
    if isinstance(backend, LocMemCache | DummyCache):
        return False
    return not (isinstance(backend, FailOpenRedisCache) and backend.circuit.is_open())


def _claim_key(key: str) -> str:
    return f"{key}:making"


def render_claimed(key: str) -> int | None:
    """The seconds to wait before asking again when the file ``key`` is being drawn (its claim is
    held: by a task, or by a request), else None. One cache read."""
    claim = cache.get(_claim_key(key))
    return claim if isinstance(claim, int) else None


def render_claim(key: str, *, seconds: int, wait: int) -> bool:
    """Claim the file ``key`` for ``seconds`` (the others are told to ask again in ``wait``); False
    when someone holds the claim. Under the cache failing open every claim succeeds (core/cache.py)."""
    return cache.add(_claim_key(key), wait, seconds)


def render_release(key: str) -> None:
    """Give back the claim on the file ``key``."""
    cache.delete(_claim_key(key))


def render_ask(wanted: Wanted, key: str) -> bool:
    """Claim the file ``key`` and write the task that draws ``wanted`` in the outbox (its own
    transaction: the row is published once it commits); False, writing nothing, when someone holds
    the claim. The claim lasts the quick tasks' time limit (the task gives it back when done), so a
    task that died is asked again by the next request after that. What writing the row raises goes
    through, and the claim is given back."""
    if not render_claim(key, seconds=settings.CELERY_TASK_TIME_LIMIT, wait=PENDING_SECONDS):
        return False
    try:
        with transaction.atomic():
            outbox_enqueue(TASK, wanted.tournament_id, wanted.kind, wanted.number, wanted.paper, wanted.language)
    except BaseException:
        render_release(key)
        raise
    return True


def render_keep(*, tournament_id: int, kind: str, number: int, paper: str, language: str) -> str | None:
    """Draw the file asked (:class:`Wanted`'s fields) from the event as it is now, in ``language``,
    keep it (:func:`render_made`) and give back its claim; return its key. A file already kept is
    not drawn again. None when the event or the file is gone (nothing kept). Raises ValueError for
    a kind not in :data:`KINDS`; what the drawing raises goes through, the claim given back."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    wanted = Wanted(tournament_id, kind, number, paper, language)
    with translation.override(language):
        source = render_source(tournament, wanted)
        if source is None:
            return None
        try:
            if render_kept(source.key) is None and render_made(source, kind) is None:
                return None
        finally:
            # The event may have moved on since the request: the claim given back is the key
            # drawn now. A claim on an older key lapses by itself, and nobody asks for that key.
            render_release(source.key)
    return source.key


# --- the answers ------------------------------------------------------------------------------------


def _pending(request: HttpRequest, filename: str, seconds: int) -> HttpResponse:
    response = render(request, "tournaments/render_pending.html",
                      {"seconds": seconds, "filename": filename}, status=202)
    response["Retry-After"] = str(seconds)
    response["Cache-Control"] = "no-store"
    return response


def _throttled(request: HttpRequest, seconds: int) -> HttpResponse:
    response = render(request, "tournaments/render_throttled.html", {"seconds": seconds}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def file_answer(request: HttpRequest, tournament: Tournament, wanted: Wanted, *, filename: str,
                disposition: str, missing: str) -> HttpResponse:
    """The answer to a request for ``wanted`` (in the request's language), sent as ``filename``
    (``disposition``: ``inline`` or ``attachment``): the file kept, with its ETag (304 for an
    ``If-None-Match`` naming it); a file being drawn (202 with a page asking again); else, past the
    renders' throttle (429 with ``Retry-After``), a big file asked of a task (202) or a small one
    drawn here and kept. A file the event lacks raises Http404 with ``missing``. The file kept and
    the 202 of a file being drawn are not counted by the throttle (see the module)."""
    source = render_source(tournament, wanted)
    if source is None:
        raise Http404(missing)
    kept = render_kept(source.key)
    if kept is None:
        size = source.size()
        if size is None:
            raise Http404(missing)
        claimed = render_claimed(source.key)
        if claimed is not None:
            return _pending(request, filename, claimed)
        wait = throttles.page_wait(request, throttles.RENDERS)
        if wait is not None:
            return _throttled(request, wait)
        if render_big(wanted.kind, size) and render_deferrable():
            render_ask(wanted, source.key)
            return _pending(request, filename, PENDING_SECONDS)
        if not render_claim(source.key, seconds=DRAWING_SECONDS, wait=DRAWING_PENDING_SECONDS):
            return _pending(request, filename, DRAWING_PENDING_SECONDS)
        try:
            # Read again under the claim: a request that drew it may have given the claim back
            # between this one's first read and its claim.
            kept = render_kept(source.key) or render_made(source, wanted.kind)
        finally:
            render_release(source.key)
        if kept is None:
            raise Http404(missing)
    etag, content_type, body = kept
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    return conditional_answer(request, body=body, content_type=content_type, etag=etag, response=response)
