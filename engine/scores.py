"""Which final scores can end a match: decided from the values alone, for a claim to be checked.

A match to N points ends in the game that first takes a side to N or more (RULES.md §5). That
last game starts from a score where both sides are below N, and it adds to its winner the cube
(1, 2, 4, ... up to the match's cube cap) times 1, 2 or 3 (single, gammon, backgammon; a drop
counts the cube). The Crawford game, the game after a side first reaches N-1 when the Crawford
rule is on, is played without the cube: it adds 1, 2 or 3. The loser ends below N, and no side
ever has fewer points than it started with (penalty points a ruling credited: ``Match.start``).

So 11-0 cannot end a 3-point match (no last game takes 0, 1 or 2 to 11: 11, 10 and 9 are not a
power of two times 1, 2 or 3), while 4-0 can (a gammon at cube 1 from 2-0, or cube 2 from 2-0...).

Most clubs and exporters record the winner with exactly N (the points he needed): the **capped**
score. Every reachable full score caps to ``(N, loser's points)``, and every such capped score is
itself reachable (a single game from N-1). A claim may give either: :func:`final_score` says which
it is and returns both. A money session (length 0) has no end: any two whole numbers are totals,
never capped; its bounds are the caller's.

Reasons are sentences for people: :class:`ScoreProblem` carries the message template (marked with
:func:`gettext_noop` so the translation tools find it, never translated here: the engine knows no
language) and its values, so that a caller can translate the template and fill it in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import MatchError
from .match import MatchRules, checked_start


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation (the translation tools look for this name) and return it
    unchanged: the engine is pure and speaks English; its callers translate."""
    return message


# The templates of the reasons, by code. Values: score ("11-0"), length, points (the winner's
# claimed points), low/high (the scores the winner's last game could start from), cap (the cube
# cap), side (0 or 1), start (that side's penalty points), before (the score(s) before a Crawford
# game).
REASONS = {
    "bad_score": gettext_noop("a final score is two whole numbers of 0 or more"),
    "no_winner": gettext_noop("neither side has reached %(length)s points: %(score)s does not end a "
                              "%(length)s-point match"),
    "two_winners": gettext_noop("both sides have %(length)s points or more: a %(length)s-point match ends as soon "
                                "as one side reaches %(length)s, so %(score)s cannot be its final score"),
    "below_start": gettext_noop("side %(side)s starts this match with %(start)s penalty points: %(score)s cannot "
                                "be its final score"),
    "unreachable": gettext_noop("no last game can take a score below %(length)s to %(points)s: a game adds 1, 2 "
                                "or 3 times the cube (1, 2, 4, 8 and so on)"),
    "unreachable_capped": gettext_noop("no last game can take a score below %(length)s to %(points)s: a game adds "
                                       "1, 2 or 3 times the cube, and the cube may not pass %(cap)s"),
    "unreachable_from": gettext_noop("no last game can take a score from %(low)s to %(high)s (the winner's "
                                     "penalty points to one short of the length) to %(points)s: a game adds 1, 2 "
                                     "or 3 times the cube (1, 2, 4, 8 and so on)"),
    "unreachable_from_capped": gettext_noop("no last game can take a score from %(low)s to %(high)s (the winner's "
                                            "penalty points to one short of the length) to %(points)s: a game "
                                            "adds 1, 2 or 3 times the cube, and the cube may not pass %(cap)s"),
    "crawford_game": gettext_noop("%(score)s cannot end this match: only a last game from %(before)s could reach "
                                  "it, and that is the Crawford game, played without the cube (it adds 1, 2 or 3 "
                                  "points)"),
}

# Which codes a caller may meet (the two "from" variants and "capped" variants share the code
# ``unreachable``: they differ only in wording).
_CODE = {"unreachable_capped": "unreachable", "unreachable_from": "unreachable",
         "unreachable_from_capped": "unreachable"}


@dataclass(frozen=True, slots=True)
class ScoreProblem:
    """Why a score cannot end a match: a stable ``code`` (``bad_score``, ``no_winner``,
    ``two_winners``, ``below_start``, ``unreachable``, ``crawford_game``), the message's
    ``template`` (English, marked for translation) and the ``values`` that fill it; ``side`` among
    them is the side whose score is wrong (the winner's that no last game reaches, the loser's below
    his penalty points, the higher of two that do not end the match)."""

    code: str
    template: str
    values: dict = field(default_factory=dict)

    @property
    def message(self) -> str:
        return self.template % self.values

    @property
    def side(self) -> int | None:
        return self.values.get("side")

    def error(self) -> MatchError:
        """The problem as the engine's error (``field`` "score", ``side``, ``reason`` the code),
        carrying the problem itself as ``problem`` (for a caller that words it in another language)."""
        error = MatchError(self.message, code=f"score_{self.code}", field="score", side=self.side, reason=self.code)
        error.problem = self
        return error


@dataclass(frozen=True, slots=True)
class FinalScore:
    """A final score that can end its match.

    ``score`` is what is shown and stored as the result: capped at the length (the winner with
    exactly N). ``full`` is the full score when the claim gave one past the length, else None (a
    claim with exactly N may be a capped one: the full score is then unknown). ``winner`` is 0 or
    1 (None in a money session, where ``score`` is the claim itself)."""

    score: tuple[int, int]
    full: tuple[int, int] | None
    winner: int | None

    @property
    def capped(self) -> bool:
        """True when the claim was already capped (the winner with exactly the length)."""
        return self.full is None


def capped_score(length: int, score: tuple[int, int]) -> tuple[int, int]:
    """``score`` with each side's points capped at ``length`` (a money session, length 0: as it
    is). The capping rule every claim is compared by: a full score caps to ``(N, loser)``."""
    if not length:
        return (score[0], score[1])
    return (min(score[0], length), min(score[1], length))


def claim_agrees_with_full(length: int, claim: tuple[int, int], full: tuple[int, int]) -> bool:
    """Does ``claim`` say the same result as the full score ``full`` (a game log's, say)? Either
    the full score itself, or its capped form (:func:`capped_score`)."""
    claim = (claim[0], claim[1])
    return claim == (full[0], full[1]) or claim == capped_score(length, full)


def cube_points(points: int, cube_cap: int | None = None) -> bool:
    """Can one game with the cube in play end with ``points``: a power of two at most
    ``cube_cap`` (None: no cap) times 1, 2 or 3?"""
    for level in (1, 2, 3):
        if points > 0 and points % level == 0:
            cube = points // level
            if cube & (cube - 1) == 0 and (cube_cap is None or cube <= cube_cap):
                return True
    return False


def _game_kinds(rules: MatchRules, mine: int, theirs: int, my_start: int, their_start: int) -> tuple[bool, bool]:
    """For a game starting at ``mine``-``theirs`` (both below the length, each at or above its
    start), can it be (the Crawford game, another game)?

    Only a score with exactly one side at N-1 (the leader) can be the Crawford game. It is when
    the Crawford game has not been played: the leader reached N-1 in a game (he started below it),
    or no game has been played yet (the trailer is still at his start). It can be another
    (post-Crawford) game once the trailer has won the Crawford game: he is above his start.
    """
    length = rules.length
    if not rules.crawford or length < 2:
        return False, True
    short = length - 1
    if (mine == short) == (theirs == short):
        return False, True
    leader_start, trailer, trailer_start = (my_start, theirs, their_start) if mine == short else (their_start, mine,
                                                                                                 my_start)
    return leader_start < short or trailer == trailer_start, trailer > trailer_start


def _show(score: tuple[int, int]) -> str:
    return f"{score[0]}-{score[1]}"


def final_score_problem(rules: MatchRules, score: tuple[int, int], *,
                        start: tuple[int, int] = (0, 0)) -> ScoreProblem | None:
    """Why ``score`` cannot end a match with ``rules`` started at ``start`` (penalty points), as a
    :class:`ScoreProblem`; None when it can (as a full score or as a capped one). A money session
    takes any two whole numbers of 0 or more.

    Raises :class:`MatchError` (``bad_start``) for a starting score that is no start of this match.
    """
    if (not isinstance(score, (tuple, list)) or len(score) != 2
            or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in score)):
        return ScoreProblem("bad_score", REASONS["bad_score"])
    start = checked_start(rules, start)
    score = (score[0], score[1])
    if rules.is_money:
        return None
    length, shown = rules.length, _show(score)
    higher = 1 if score[1] > score[0] else 0
    winners = [side for side in (0, 1) if score[side] >= length]
    if not winners:
        return ScoreProblem("no_winner", REASONS["no_winner"], {"length": length, "score": shown, "side": higher})
    if len(winners) == 2:
        return ScoreProblem("two_winners", REASONS["two_winners"], {"length": length, "score": shown, "side": higher})
    winner = winners[0]
    loser = 1 - winner
    if score[loser] < start[loser]:
        return ScoreProblem("below_start", REASONS["below_start"],
                            {"side": loser, "start": start[loser], "score": shown})
    points, theirs = score[winner], score[loser]
    crawford_only = []
    for mine in range(start[winner], length):
        # The last game starts at mine-theirs (side order aside) and adds points - mine.
        gained = points - mine
        crawford, other = _game_kinds(rules, mine, theirs, start[winner], start[loser])
        if (other and cube_points(gained, rules.cube_cap)) or (crawford and gained <= 3):
            return None
        if crawford and cube_points(gained, rules.cube_cap):
            before = [0, 0]
            before[winner], before[loser] = mine, theirs
            crawford_only.append(_show((before[0], before[1])))
    if crawford_only:
        return ScoreProblem("crawford_game", REASONS["crawford_game"],
                            {"score": shown, "before": " or ".join(crawford_only), "side": winner})
    key = ("unreachable_from" if start[winner] else "unreachable") + ("_capped" if rules.cube_cap is not None else "")
    values = {"length": length, "points": points, "low": start[winner], "high": length - 1, "side": winner}
    if rules.cube_cap is not None:
        values["cap"] = rules.cube_cap
    return ScoreProblem(_CODE.get(key, key), REASONS[key], values)


def final_score(rules: MatchRules, score: tuple[int, int], *, start: tuple[int, int] = (0, 0)) -> FinalScore:
    """``score`` as the final score of a match with ``rules`` started at ``start``: the capped
    score, the full score when the claim gave it (the winner past the length) and the winner.

    Raises :class:`MatchError` (code ``score_<reason>``, details ``field`` "score" and ``reason``:
    see :func:`final_score_problem`) when no sequence of games can end the match at ``score``, and
    (``bad_start``) for a starting score that is no start of this match.
    """
    problem = final_score_problem(rules, score, start=start)
    if problem is not None:
        raise problem.error()
    score = (score[0], score[1])
    if rules.is_money:
        return FinalScore(score, None, None)
    winner = 0 if score[0] >= rules.length else 1
    full = score if score[winner] > rules.length else None
    return FinalScore(capped_score(rules.length, score), full, winner)
