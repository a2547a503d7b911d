"""The draw's own exception, with stable codes.

Every error the draw raises is a :class:`DrawError`: ``code`` is a short snake_case string that
callers may match on and that never changes meaning; ``message`` is for people; ``details``
carries the values that explain it (the unknown entrant, the match id...). The codes are listed in
:data:`CODES` with the HTTP-ish ``status`` the service layer should answer (400: the input is
wrong; 409: the input is fine but the event's state forbids it now).

A draw that cannot be made for reasons of the event itself (no valid Swiss pairing exists) is not
an error: :func:`tournaments.draw.swiss.pair_round` returns a
:class:`tournaments.draw.swiss_history.NoPairing` saying why.
"""

from __future__ import annotations

#: code -> (status, what it means)
CODES: dict[str, tuple[int, str]] = {
    "bad_entrant": (400, "an entrant must be a hashable id (int, str...), not None or a marker"),
    "duplicate_entrant": (400, "an entrant appears twice"),
    "unknown_entrant": (400, "an id that is not an entrant of this draw"),
    "too_few_entrants": (400, "the format needs more entrants"),
    "bad_size": (400, "a bracket size that is not a power of two"),
    "bad_round": (400, "a round number or flight the bracket's round names do not have"),
    "bad_seed": (400, "a random seed must be an int or a str"),
    "bad_rating": (400, "a rating must be a number"),
    "bad_length": (400, "a match length must be a positive int; a schedule a non-empty list of them"),
    "bad_groups": (400, "a group count that leaves a group with fewer than two entrants"),
    "bad_drop_map": (400, "a drop map that names rounds the source flight does not have"),
    "unknown_flight": (400, "a flight name the bracket does not have"),
    "flight_exists": (409, "a flight of that name is already in the bracket"),
    "unknown_match": (400, "a match id the bracket does not have"),
    "not_in_match": (400, "a winner who is not one of the match's two players"),
    "match_not_ready": (409, "a result for a match whose players are not both known, a bye, or a decider not needed"),
    "round_not_complete": (409, "a round with a result still missing"),
    "bad_max_losses": (400, "an elimination Swiss is out at a positive number of losses"),
    "bad_method": (400, "a Swiss is paired fair or top down"),
    "bad_order": (400, "a round robin's order is the circle method or FIDE's Berger tables"),
    "bad_contention": (400, "remaining rounds must be 0 or more, paid places 1 or more"),
    "not_time_for_playoffs": (409, "more players can still cash than there are paid places"),
    "bad_history": (400, "a round that pairs someone twice or pairs a player with himself"),
    "bad_tiebreak": (400, "a tie-break name the standings do not know"),
    "bad_result": (400, "a result whose players or points do not make sense"),
    # divisions and handicaps (tournaments.draw.divisions)
    "bad_division": (400, "a division list that is not a list of named divisions with sane rating ranges"),
    "bad_handicap": (400, "a handicap row naming unknown divisions, a bad length or too many points"),
    # --- paid places and re-entry (tournaments.draw.payouts, tournaments.draw.flights) ---
    "bad_payouts": (400, "paid places that are not positive percentages summing to 100, never increasing"),
    "reentry_refused": (409, "a re-entry the bracket does not allow now (its reason says why)"),
}


class DrawError(Exception):
    """Base of every draw error: ``code`` is stable (see :data:`CODES`), ``message`` is for people."""

    code = "draw_error"

    def __init__(self, message: str, *, code: str | None = None, **details):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details = details

    @property
    def status(self) -> int:
        """400 for wrong input, 409 for a state conflict (what ``core.api`` answers)."""
        return CODES.get(self.code, (400, ""))[0]

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, **self.details}
