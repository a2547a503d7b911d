"""What the analysis finds (:mod:`analysis.compute`, its module docstring (b) to (e)): each
decision judged (:class:`Decision`), each side's figures over a game or the match
(:class:`SideStats`), a game's and a whole match's analysis with its JSON form
(:class:`MatchAnalysis`), and gnubg's words for them: its marks of a loss, its rating of an
error per decision and its luck words.

PURE: no Django."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

VERSION = 2

# gnubg's default analysis thresholds (gnubg.c arSkillLevel: 0.12 very bad, 0.06 bad, 0.03
# doubtful), strictly above each.
DOUBTFUL, ERROR, BLUNDER = 0.03, 0.06, 0.12
# The shipped gnubg's rating (``gnubg.error_rating``) of the equity lost per decision: rating i
# while the error is below RATING_THRESHOLDS[i], the highest such i winning.
RATING_THRESHOLDS = (1e38, 0.032, 0.020, 0.013, 0.008, 0.005)
RATING_WORDS = ("Beginner", "Intermediate", "Advanced", "Master", "Grandmaster", "Super Grandmaster")
# gnubg's getLuckRating: Luck(10 x luck per turn) against arLuckLevel (0.6 very, 0.3 plain); a
# roll's own luck word is Luck(luck) against the same levels.
LUCK_WORDS = ("Go to bed", "Bad dice, man!", "None", "Good dice, man!", "Go to Las Vegas")
_LUCK_VERY, _LUCK_PLAIN = 0.6, 0.3


# --- the result --------------------------------------------------------------------------------


@dataclass
class Decision:
    """One judged decision (each field: analysis.compute's docstring, (a) to (e))."""

    index: int
    move: int
    side: int
    kind: str
    dice: list[int] | None
    played: str
    best: str
    equity_played: float
    equity_best: float
    loss: float
    mark: str
    forced: bool
    luck: float | None
    position_id: str
    match_id: str


@dataclass
class SideStats:
    """One side's figures over a game or the whole match, as gnubg's statistics count them.

    ``plays`` counts the side's turns (dances included: gnubg's total moves, over which the
    luck word is taken); ``unforced_plays`` the plays with a choice; ``cube_decisions`` the
    close or actual cube decisions; ``unforced`` both (the decisions PR divides by);
    ``doubtful``, ``errors`` and ``blunders`` the checker plays gnubg marks doubtful, bad and very
    bad; ``checker_lost``, ``cube_lost`` and ``equity_lost`` the errors (EMG); ``luck`` and
    ``rolls`` the luck summed over the rolls gnubg rated. With no unforced decision the rates are
    0.0 and ``rating`` is that of no error (Super Grandmaster): a page should show no rating then.
    """

    decisions: int = 0
    unforced: int = 0
    equity_lost: float = 0.0
    error_rate: float = 0.0
    pr: float = 0.0
    doubtful: int = 0
    errors: int = 0
    blunders: int = 0
    luck: float = 0.0
    rating: int = 0
    luck_rating: int = 2
    rolls: int = 0
    plays: int = 0
    unforced_plays: int = 0
    cube_decisions: int = 0
    checker_lost: float = 0.0
    cube_lost: float = 0.0

    _SUMMED = ("decisions", "unforced", "equity_lost", "doubtful", "errors", "blunders", "luck", "rolls", "plays",
               "unforced_plays", "cube_decisions", "checker_lost", "cube_lost")

    def add(self, other: SideStats) -> None:
        for name in self._SUMMED:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def finish(self) -> SideStats:
        """Fill the derived figures (rates, ratings) from the sums; returns self."""
        self.unforced = self.unforced_plays + self.cube_decisions
        self.equity_lost = self.checker_lost + self.cube_lost
        per = self.equity_lost / self.unforced if self.unforced else 0.0
        self.error_rate = 1000.0 * per
        self.pr = 500.0 * per
        self.rating = rating(per)
        self.luck_rating = luck_rating(self.luck / self.plays if self.plays else 0.0)
        return self


@dataclass
class GameAnalysis:
    number: int
    score: list[int]
    crawford: bool
    sides: list[SideStats]
    decisions: list[Decision]


@dataclass
class MatchAnalysis:
    """The analysis of a whole match (or money session); JSON: analysis.compute's docstring, (e)."""

    plies: int
    engine: str
    sides: list[SideStats]
    games: list[GameAnalysis]
    version: int = VERSION
    settings: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        """The JSON-ready dict (plain lists, ints, floats, strings); changes nothing."""
        return {
            "version": self.version, "plies": self.plies, "engine": self.engine, "settings": dict(self.settings),
            "sides": [_side_json(side) for side in self.sides],
            "games": [
                {"number": game.number, "score": list(game.score), "crawford": game.crawford,
                 "sides": [_side_json(side) for side in game.sides],
                 "decisions": [asdict(decision) for decision in game.decisions]}
                for game in self.games
            ],
        }

    @classmethod
    def from_json(cls, data: dict) -> MatchAnalysis:
        """Rebuild from :meth:`to_json`'s dict; raises KeyError/TypeError on a malformed one.

        An analysis stored before gnubg's own figures were read (version 1) keeps its figures;
        its rating is given again on the shipped gnubg's scale, from its own error rate."""
        version = data.get("version", VERSION)

        def side(item: dict) -> SideStats:
            known = {name: item[name] for name in SideStats.__dataclass_fields__ if name in item}
            stats = SideStats(**known)
            if version < 2:
                stats.rating = rating(stats.error_rate / 1000.0)
            return stats

        return cls(
            plies=data["plies"], engine=data["engine"], version=version, settings=dict(data.get("settings") or {}),
            sides=[side(item) for item in data["sides"]],
            games=[
                GameAnalysis(number=game["number"], score=list(game["score"]), crawford=game["crawford"],
                             sides=[side(item) for item in game["sides"]],
                             decisions=[Decision(**item) for item in game["decisions"]])
                for game in data["games"]
            ],
        )


def _side_json(side: SideStats) -> dict:
    return asdict(side)


def rating(error_per_decision: float) -> int:
    """The shipped gnubg's rating (index into :data:`RATING_WORDS`) of an error per decision
    (``gnubg.error_rating``; a test holds the two equal)."""
    for level in range(len(RATING_THRESHOLDS) - 1, -1, -1):
        if error_per_decision < RATING_THRESHOLDS[level]:
            return level
    return 0


def luck_word(luck: float) -> int:
    """gnubg's ``Luck`` (index into :data:`LUCK_WORDS`) of a luck figure (EMG)."""
    if luck > _LUCK_VERY:
        return 4
    if luck > _LUCK_PLAIN:
        return 3
    if luck < -_LUCK_VERY:
        return 0
    if luck < -_LUCK_PLAIN:
        return 1
    return 2


def luck_rating(luck_per_turn: float) -> int:
    """gnubg's ``getLuckRating`` (index into :data:`LUCK_WORDS`) of a luck per turn (EMG)."""
    return luck_word(10.0 * luck_per_turn)


def mark(loss: float) -> str:
    """gnubg's skill mark for an equity loss (strictly above each threshold)."""
    if loss > BLUNDER:
        return "blunder"
    if loss > ERROR:
        return "error"
    if loss > DOUBTFUL:
        return "doubtful"
    return ""
