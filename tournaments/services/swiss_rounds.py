"""A Swiss round: paired from the event's rows (the pure draw's ``pair_round``), written with its
matches, and re-paired the same way when a correction changes a round already paired on. Runs
under the tournament's row lock, inside the caller's transaction."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from tournaments import errors, formats
from tournaments.draw import DrawError, NoPairing, SwissOptions, SwissPairing, pair_round, round_length, swiss_records
from tournaments.draw.names import ROUND, RoundName
from tournaments.hooks import round_paired
from tournaments.models import Pairing, Round, Tournament
from tournaments.round_labels import round_phrase

from . import state
from .audit import entrant_names, event_audit_record, pairing_summary
from .draw_sync import drop_matches, refuse_for
from .naming import match_namer

# --- Swiss ---------------------------------------------------------------------------------------


def swiss_pair(tournament: Tournament, loaded: state.Loaded, *, history=None, withdrawn=None) -> SwissPairing | NoPairing:
    """The draw's pairing of the next Swiss round from the stored rounds. Raises DomainError for
    what the draw calls wrong input."""
    order = loaded.order
    members = set(order)
    clubs = None
    if tournament.forbid_same_club:
        clubs = {e: c for e, c in state.entry_clubs(loaded).items() if e in members}
    out = loaded.withdrawn if withdrawn is None else withdrawn
    try:
        return pair_round(
            order, state.swiss_history(loaded) if history is None else history,
            options=SwissOptions(lengths=state.schedule(tournament, "rounds"), clubs=clubs,
                                 max_losses=tournament.max_losses, method=tournament.swiss_pairing),
            withdrawn=[e for e in out if e in members],
        )
    except DrawError as error:
        raise errors.from_draw(error) from None


def swiss_round_write(tournament: Tournament, loaded: state.Loaded, answer: SwissPairing, created_by) -> Round:
    """Store round ``answer.round``: its Round row, a pairing per board (and one for the bye) and
    the boards' matches (:func:`pairing_matches_create`); the new pairings are added to
    ``loaded``, which so stays what :func:`state.load` would read. Raises Conflict
    ``round_paired`` if the round exists (the unique constraint answers two concurrent pairings
    that slipped past the lock)."""
    number = answer.round
    try:
        with transaction.atomic():
            round_row = Round.objects.create(tournament=tournament, number=number)
    except IntegrityError:
        raise errors.round_paired(number) from None
    rows = [
        Pairing(tournament=tournament, key=p.id, flight=p.flight, round_number=number, entry0_id=p.top,
                entry1_id=p.bottom, length=p.length)
        for p in answer.pairings
    ]
    if answer.bye is not None:
        length = round_length(state.schedule(tournament, "rounds"), number)
        rows.append(Pairing(tournament=tournament, key=state.bye_key(number), flight="swiss", round_number=number,
                            entry0_id=answer.bye, length=length))
    boards = [row for row in rows if row.entry1_id is not None]
    event_format = formats.format_of(tournament)
    event_format.pairings_write(tournament, rows, boards, loaded, created_by)
    event_format.pairings_fresh(rows)
    loaded.pairings.extend(rows)
    loaded.by_key.update((row.key, row) for row in rows)
    names = entrant_names(loaded)
    event_audit_record("round.paired", actor=created_by, tournament=tournament, obj=round_row,
                       after={"round": number, "pairings": [pairing_summary(row, names) for row in rows],
                  "bye": names.get(answer.bye) if answer.bye is not None else None})
    round_paired.send(tournament=tournament, round_number=number, actor=created_by,
                               pairings=[pairing_summary(row, names) for row in rows])
    return round_row


def _same_round(answer, stored: list[Pairing]) -> bool:
    if not isinstance(answer, SwissPairing):
        return False
    boards = {(p.entry0_id, p.entry1_id) for p in stored if p.entry1_id is not None}
    byes = {p.entry0_id for p in stored if p.entry1_id is None}
    return boards == {(p.top, p.bottom) for p in answer.pairings} and byes == ({answer.bye} - {None})


def swiss_corrected(tournament: Tournament, loaded: state.Loaded, pairing: Pairing) -> None:
    """A result of round r changed while later rounds are paired. Each later round k is paired
    again from the corrected results of rounds before it, with the players it had: while every
    one comes out the same, nothing depends on the change. From the first round that would be
    paired differently on, every round is reset and that round is paired again from the current
    results, unless one of their matches has started (Conflict ``result_built_on``).

    A result taken back (a ruling reopened the match) while a later round is paired is refused
    (Conflict ``result_built_on``): a round is paired only from complete rounds before it."""
    number = pairing.round_number
    later_rounds = sorted({p.round_number for p in loaded.pairings if p.round_number > number})
    if later_rounds and state.has_matches(pairing) and not state.is_confirmed(pairing):
        later_round = round_phrase(RoundName(ROUND, later_rounds[0]))
        raise errors.result_built_on(match_namer(tournament, loaded)(pairing.key), later_round,
                                     gettext("was paired on its result"), key=f"round-{later_rounds[0]}")
    changed_from = next((k for k in later_rounds if not pairs_the_same(tournament, loaded, k)), None)
    if changed_from is None:
        return
    later = [p for p in loaded.pairings if p.round_number >= changed_from]
    refuse = refuse_for(tournament, pairing)
    for other in later:
        if state.has_matches(other) and state.pairing_started(other):  # team events: any board
            status = other.match.get_status_display().lower() if other.match is not None else gettext("a board has")
            raise refuse(other.key, gettext("has started (%(status)s)") % {"status": status})
    drop_matches([p for p in later if state.has_matches(p)], refuse, tournament.organiser)
    Pairing.objects.filter(pk__in=[p.pk for p in later]).delete()
    for round_row in Round.objects.filter(tournament=tournament, number__gte=changed_from).order_by("number"):
        dropped = [p.key for p in later if p.round_number == round_row.number]
        event_audit_record("round.reset", actor=tournament.organiser, tournament=tournament, obj=round_row,
                           before={"round": round_row.number, "pairings": dropped},
                           note=f"the corrected result of {pairing.key} pairs it differently")
    Round.objects.filter(tournament=tournament, number__gte=changed_from).delete()
    loaded.pairings = [p for p in loaded.pairings if p.round_number < changed_from]
    loaded.by_key = {p.key: p for p in loaded.pairings}
    again = swiss_pair(tournament, loaded)
    if isinstance(again, SwissPairing):
        swiss_round_write(tournament, loaded, again, tournament.organiser)
    # else: the round stays unpaired; pairing it again tells the organiser why it cannot be.


def pairs_the_same(tournament: Tournament, loaded: state.Loaded, number: int) -> bool:
    """Whether round ``number`` would be paired as stored from the results before it (as they
    stand now), with the same players (those not in it stay out, as they were then)."""
    stored = [p for p in loaded.pairings if p.round_number == number]
    present = {e for p in stored for e in (p.entry0_id, p.entry1_id) if e is not None}
    history = state.swiss_history(loaded, up_to=number - 1)
    answer = swiss_pair(tournament, loaded, history=history, withdrawn=[e for e in loaded.order if e not in present])
    if not _same_round(answer, stored):
        return False
    if tournament.max_losses:
        # Elimination Swiss: a correction may also bring back a player it had put out.
        records = swiss_records(loaded.order, history)
        back = [e for e in loaded.order if e not in present and e not in loaded.withdrawn
                and not loaded.by_id[e].late and records[e].losses < tournament.max_losses]
        return not back
    return True
