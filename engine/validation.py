"""The validation of a recorded play: :func:`validate_play` checks a written play against the
rules of RULES.md §3 and, when it is illegal, says which rule it breaks (:data:`RULES`, the stable
codes of :class:`~engine.errors.IllegalPlay`).
"""

from __future__ import annotations

from .board import BAR, CHECKERS, OFF, Position
from .errors import IllegalPlay
from .moves import Play, check_dice, max_dice_playable
from .notation import Hop, parse_play, point_name

# Stable codes of IllegalPlay, with the rule each one names.
RULES = {
    "no_checker": "there is no checker of the side on roll on that point",
    "bar_first": "a checker on the bar must be entered before any other checker moves",
    "blocked": "the landing point is held by two or more opposing checkers",
    "blocked_intermediate": "a checker moving with both dice must land on an open intermediate point",
    "bearoff_not_home": "bearing off needs all fifteen checkers in the home board, none on the bar",
    "bearoff_die_too_small": "a die may not bear off a checker from a higher point than its number",
    "bearoff_higher_point_occupied": "a higher die bears off only from the highest occupied point",
    "wrong_steps": "each step of a play must be exactly one die of the roll",
    "dice_not_all_used": "as many dice as possible must be played",
    "higher_die_not_played": "when only one die can be played, the higher one must be",
}

# The play's and the position's constructors without their checks, as engine.moves builds them:
# every position here is one the search made from a valid one.
_new_position = object.__new__
_set_boards = Position.boards.__set__  # type: ignore[attr-defined]
_set_turn = Position.turn.__set__  # type: ignore[attr-defined]
_new_play = tuple.__new__


class _Search:
    """Depth-first search for a way to realise written hops with the dice of the roll.

    A hop longer than one die is taken one die at a time, and what is left of it goes back among
    the hops still to play: ``10/off(2)`` with 5-5 needs both checkers on the 5-point before
    either may bear off, so steps of different hops must be free to interleave.
    """

    def __init__(self, me: list, opp: list, dice: list[int]):
        self.me, self.opp = me, opp
        self.total = len(dice)
        self.best: tuple | None = None  # (used, steps, me, opp) of the best complete realisation
        self.error: tuple = (-1, "wrong_steps", "")  # (steps done, code, detail) of the furthest failure

    def fail(self, done: int, code: str, detail: str | Hop) -> None:
        if done > self.error[0]:
            if isinstance(detail, Hop):
                detail = detail.written or detail
                detail = f"{point_name(detail.start)}/{point_name(detail.end)}"
            self.error = (done, code, detail)

    def step_error(self, s: int, d: int, end: int) -> str | None:
        """Why one die ``d`` cannot move a checker from ``s`` now, or None if it can."""
        me, opp = self.me, self.opp
        t = s - d
        if s != BAR and me[BAR]:
            return "bearoff_not_home" if t <= 0 else "bar_first"
        if not me[s]:
            return "no_checker"
        if t > 0:
            if opp[25 - t] > 1:
                return "blocked" if t == end else "blocked_intermediate"
            return None
        if any(me[7:26]):
            return "bearoff_not_home"
        if t < 0 and any(me[s + 1:7]):
            return "bearoff_higher_point_occupied"
        return None

    @staticmethod
    def reachable(hop: Hop, dice: list[int]) -> bool:
        """Can some of ``dice`` carry a checker the hop's distance (any higher sum bears off)?"""
        distance = hop.start - hop.end
        if dice[0] == dice[-1]:
            sums = [dice[0] * k for k in range(1, len(dice) + 1)]
        else:
            sums = [*dice, sum(dice)]
        if hop.end == OFF:
            return any(total >= distance for total in sums)
        return distance in sums

    def run(self, remaining: tuple[Hop, ...], dice: list[int], steps: list, done: int) -> bool:
        """Realise ``remaining`` hops; True stops the search (a realisation using every die)."""
        me, opp = self.me, self.opp
        if not remaining:
            used = self.total if me[OFF] == CHECKERS else self.total - len(dice)
            if self.best is None or used > self.best[0]:
                self.best = (used, tuple(steps), tuple(me), tuple(opp))
            return used == self.total
        if not dice:
            self.fail(done, "wrong_steps", "more sub-moves than the roll allows")
            return False
        tried = set()
        for index, hop in enumerate(remaining):
            if (hop.start, hop.end) in tried:
                continue
            tried.add((hop.start, hop.end))
            if not self.reachable(hop, dice):
                code = "bearoff_die_too_small" if hop.end == OFF else "wrong_steps"
                self.fail(done, code, hop)
                continue
            rest = remaining[:index] + remaining[index + 1:]
            options = []
            for d in dict.fromkeys(dice):
                t = hop.start - d
                if t == hop.end or (hop.end == OFF and t < 0):
                    options.append((0, d, None))
                elif t > hop.end and t > 0:
                    rest_of_hop = Hop(t, hop.end, hop.marked_hit, hop.written or hop)
                    left = list(dice)
                    left.remove(d)
                    if not left or not self.reachable(rest_of_hop, left):
                        continue
                    # Part of a joined move. A route that hits on its way is the reading of last
                    # resort: exporters that mark hits write it 24/18*/13.
                    options.append((1 + (opp[25 - t] == 1), d, rest_of_hop))
            if not options:
                self.fail(done, "bearoff_die_too_small" if hop.end == OFF else "wrong_steps", hop)
                continue
            options.sort(key=lambda option: option[0])
            for _, d, continuation in options:
                code = self.step_error(hop.start, d, hop.end)
                if code:
                    self.fail(done, code, hop)
                    continue
                t = max(hop.start - d, 0)
                me[hop.start] -= 1
                me[t] += 1
                hit = t > 0 and opp[25 - t] == 1
                if hit:
                    opp[25 - t] = 0
                    opp[BAR] += 1
                left = list(dice)
                left.remove(d)
                steps.append((hop.start, t))
                finished = self.run((continuation, *rest) if continuation else rest, left, steps, done + 1)
                steps.pop()
                if hit:
                    opp[25 - t] = 1
                    opp[BAR] -= 1
                me[t] -= 1
                me[hop.start] += 1
                if finished:
                    return True
        return False


def _as_written(me: list, opp: list, hops: tuple[Hop, ...], dice: list[int]) -> tuple | None:
    """The common case, cheaply: every hop is exactly one die, in the order written, using every
    die. Returns the realisation like :class:`_Search`, or None to let the full search decide
    (it also finds the error to report). Changes ``me`` and ``opp``."""
    if len(hops) != len(dice):
        return None
    left = list(dice)
    steps = []
    for hop in hops:
        s, t = hop.start, hop.end
        d = s - t
        if d not in left or (s != BAR and me[BAR]) or not me[s]:
            return None
        if t:
            if opp[25 - t] > 1:
                return None
        elif any(me[7:26]):
            return None
        left.remove(d)
        me[s] -= 1
        me[t] += 1
        if t and opp[25 - t] == 1:
            opp[25 - t] = 0
            opp[BAR] += 1
        steps.append((s, t))
    return (len(dice), tuple(steps), tuple(me), tuple(opp))


def _first_route(me: list, opp: list, hops: tuple[Hop, ...], dice: list[int]) -> tuple | None:
    """A checker moving with several dice (``13/10`` with 2-1, ``13/5 6/2(2)`` with 4-4),
    cheaply: the route :class:`_Search` tries first, taken step by step, when it uses every die
    and no hop bears off. Returns the realisation like :class:`_Search`, or None to let the
    full search decide (a route that fails, a bear-off, a die left over). Changes ``me`` and
    ``opp``.

    The search takes the written hops in turn, finishing each before the next; of the dice that
    can start a hop it prefers the one whose intermediate point does not hit, the higher die
    first otherwise. Any step that fails here would send the search down other routes, so this
    gives up instead.
    """
    left = list(dice)
    steps = []
    queue = [(hop.start, hop.end) for hop in hops]
    if any(end == OFF for _, end in queue):
        return None
    at = 0
    while at < len(queue):
        if not left:
            return None
        s, e = queue[at]
        distance = s - e
        high, low = left[0], left[-1]
        if high == low:
            if distance % high or distance > high * len(left):
                return None
            d = high
        elif distance in (high, low):
            d = distance
        elif distance == high + low:
            # Both dice on one checker: through the intermediate point that does not hit.
            d = low if opp[25 - s + high] == 1 and opp[25 - s + low] != 1 else high
        else:
            return None
        t = s - d
        if (s != BAR and me[BAR]) or not me[s] or opp[25 - t] > 1:
            if distance != high + low or high == low:
                return None
            # The other intermediate point, as the search tries next.
            d = high + low - d
            t = s - d
            if (s != BAR and me[BAR]) or not me[s] or opp[25 - t] > 1:
                return None
        me[s] -= 1
        me[t] += 1
        if opp[25 - t] == 1:
            opp[25 - t] = 0
            opp[BAR] += 1
        left.remove(d)
        steps.append((s, t))
        if t == e:
            at += 1
        else:
            queue[at] = (t, e)
    if left:
        return None
    return (len(dice), tuple(steps), tuple(me), tuple(opp))


def validate_play(position: Position, dice, play: str | tuple[Hop, ...]) -> Play:
    """Check a recorded play of ``dice`` by the side on roll and return it as a :class:`Play`.

    ``play`` is the written play or its parsed hops. Sub-moves may be written in any order;
    hits are recomputed. Raises :class:`NotationError` when the text cannot be read and
    :class:`IllegalPlay` whose ``code`` (one of :data:`RULES`) names the rule broken.
    """
    d1, d2 = check_dice(dice)
    hops = parse_play(play) if isinstance(play, str) else play
    dice_list = [d1] * 4 if d1 == d2 else [max(d1, d2), min(d1, d2)]
    turn = position.turn
    mover, opponent = position.boards[turn], position.boards[1 - turn]
    if len(hops) > len(dice_list):
        raise _illegal("wrong_steps", _written(play), dice, "more sub-moves than the roll allows")
    best = _as_written(list(mover), list(opponent), hops, dice_list)
    if best is None and len(hops) < len(dice_list):
        best = _first_route(list(mover), list(opponent), hops, dice_list)
    if best is None:
        search = _Search(list(mover), list(opponent), dice_list)
        search.run(hops, dice_list, [], 0)
        if search.best is None:
            _, code, detail = search.error
            raise _illegal(code, _written(play), dice, detail)
        best = search.best
    used, steps, mine, theirs = best
    after = _new_position(Position)
    _set_boards(after, (mine, theirs) if turn == 0 else (theirs, mine))
    _set_turn(after, 1 - turn)
    result = _new_play(Play, (position, steps, after, used))
    if used == len(dice_list):
        return result
    most, plays = max_dice_playable(position, dice)
    if not plays or any(p.position == result.position for p in plays):
        return result
    text = _written(play)
    if most > used:
        example = plays[0].notation
        raise _illegal("dice_not_all_used", text, dice, f"a play using {most} dice exists, e.g. {example}")
    raise _illegal("higher_die_not_played", text, dice, f"play the {max(d1, d2)}, e.g. {plays[0].notation}")


def _written(play: str | tuple[Hop, ...]) -> str:
    """The play as the messages of :class:`IllegalPlay` quote it."""
    if isinstance(play, str):
        return play
    return " ".join(f"{point_name(h.start)}/{point_name(h.end)}" for h in play)


def _illegal(code: str, text: str, dice, detail: str) -> IllegalPlay:
    roll = f"{dice[0]}{dice[1]}"
    where = f" ({detail})" if detail else ""
    return IllegalPlay(f"{text.strip() or 'no move'} with {roll}: {RULES[code]}{where}", code=code)
