"""How a director says a ruling: each outcome as a choice on the ruling form ("The result
stands", "The score is corrected") and a ruling, with its details, as a sentence ("The reported
result stands: 5-3 to Ana", "Score corrected from 99-0 to 5-0").

Pure wording: values in, translated text out. The outcomes are ``Ruling.Outcome``'s (the
engine's remedies, ``engine/rulings.py``); the details are a ruling's normalised ``params`` as
``rulings.services.rulings.ruling_apply`` stores them.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext, gettext_lazy, ngettext

from audit import describe as audit

from .models import Ruling

Outcome = Ruling.Outcome

#: Each outcome as a director names it on the form (a choice's label).
OUTCOME_CHOICES = {
    Outcome.STANDS: gettext_lazy("The result stands"),
    Outcome.SCORE_CORRECTED: gettext_lazy("The score is corrected"),
    Outcome.PLAY_CORRECTED: gettext_lazy("The illegal play is corrected"),
    Outcome.PLAY_CONDONED: gettext_lazy("The illegal play stands as played"),
    Outcome.GAME_VOIDED: gettext_lazy("The game is void"),
    Outcome.GAME_REPLAYED: gettext_lazy("The game is to be replayed"),
    Outcome.CRAWFORD_DOUBLE_VOIDED: gettext_lazy("The double in the Crawford game is void"),
    Outcome.PENALTY_POINTS: gettext_lazy("Penalty points"),
    Outcome.MATCH_AWARDED: gettext_lazy("The match is awarded"),
    Outcome.WARNING: gettext_lazy("A warning"),
    Outcome.DISQUALIFICATION: gettext_lazy("Disqualification from the event"),
    Outcome.WRONG_LENGTH: gettext_lazy("The match was played to the wrong length"),
}

DEFAULT_SIDES = (gettext_lazy("the first side"), gettext_lazy("the second side"))


def outcome_choices(stands: str | None = None) -> list[tuple[str, str]]:
    """The outcomes as the ruling form offers them; ``stands`` words the first when the result
    that would stand is known (see :func:`stands_label`)."""
    return [(value, stands if value == Outcome.STANDS and stands else str(label)) for value, label in OUTCOME_CHOICES.items()]


def score_text(score: Sequence | None, sides: Sequence[str] = DEFAULT_SIDES) -> str:
    """A final score as a director says it: the winner's points first and his name ("5-3 to
    Ana"); a level score as it is ("3-3"); no score: "no result"."""
    if not score or len(score) != 2 or None in score:
        return gettext("no result")
    first, second = score
    if first == second:
        return audit.ltr(f"{first}-{second}")
    winner = 0 if first > second else 1
    return gettext("%(score)s to %(name)s") % {"score": audit.ltr(f"{max(score)}-{min(score)}"), "name": sides[winner]}


def plain_score(score: Sequence) -> str:
    """A score in the sides' order: "5-3"."""
    return audit.ltr(f"{score[0]}-{score[1]}")


def dispute_reason(automatic: bool, scores: Sequence[Sequence] | None) -> str:
    """Why an automatic score dispute was opened, from the reported scores at odds: two that
    disagree ("The reports disagree: 5-3 and 3-5") or the one contested ("The report of 5-3 was
    contested"). Empty for a dispute a person opened (his statement says why)."""
    if not automatic:
        return ""
    scores = [score for score in scores or () if isinstance(score, (list, tuple)) and len(score) == 2]
    if len(scores) >= 2:
        return gettext("The reports disagree: %(first)s and %(second)s") % {
            "first": plain_score(scores[0]), "second": plain_score(scores[1])}
    if len(scores) == 1:
        return gettext("The report of %(score)s was contested") % {"score": plain_score(scores[0])}
    return gettext("The reported scores were disputed")


def stands_label(*, confirmed: Sequence | None, reported: Sequence[Sequence], sides: Sequence[str]) -> str | None:
    """The "result stands" choice for a match whose result is known: its confirmed result, or
    its one contested report ("The reported result stands: 5-3 to Ana"); None when several
    reports disagree (the director says which by its score)."""
    if confirmed is not None and None not in confirmed:
        return gettext("The confirmed result stands: %(score)s") % {"score": score_text(confirmed, sides)}
    if len(reported) == 1:
        return gettext("The reported result stands: %(score)s") % {"score": score_text(reported[0], sides)}
    return None


def _side(params: dict, sides: Sequence[str]) -> str:
    side = params.get("side")
    return str(sides[side]) if side in (0, 1) else gettext("a side")


def ruling_sentence(outcome: str, params: dict | None, sides: Sequence[str] = DEFAULT_SIDES, *,
                    before_score: Sequence | None = None) -> str:
    """A ruling as its director says it, e.g. "The reported result stands: 5-3 to Ana", "Score
    corrected from 99-0 to 5-0", "Bob is given 2 penalty points, to Ana's score".
    ``before_score``: the result the ruling replaced, when known. An outcome this code does not
    know is named as it is stored, without its details."""
    params = params or {}
    values = {"game": params.get("game"), "move": params.get("move"),
              "play": audit.ltr(params["play"]) if params.get("play") else params.get("play"),
              "side": _side(params, sides)}
    if params.get("side") in (0, 1):
        values["opponent"] = str(sides[1 - params["side"]])
    if outcome == Outcome.STANDS:
        if params.get("score"):
            return gettext("The reported result stands: %(score)s") % {"score": score_text(params["score"], sides)}
        return gettext("The result stands")
    if outcome == Outcome.SCORE_CORRECTED:
        if before_score and None not in before_score and params.get("score"):
            return gettext("Score corrected from %(before)s to %(after)s") % {
                "before": plain_score(before_score), "after": plain_score(params["score"])}
        return gettext("Score corrected to %(after)s") % {"after": score_text(params.get("score"), sides)}
    if outcome == Outcome.PLAY_CORRECTED:
        return gettext("The illegal play in game %(game)s, action %(move)s, is corrected to %(play)s") % values
    if outcome == Outcome.PLAY_CONDONED:
        return gettext("The illegal play in game %(game)s, action %(move)s, stands as played") % values
    if outcome == Outcome.GAME_VOIDED:
        return gettext("Game %(game)s is void") % values
    if outcome == Outcome.GAME_REPLAYED:
        return gettext("Game %(game)s is to be replayed") % values
    if outcome == Outcome.CRAWFORD_DOUBLE_VOIDED:
        return gettext("The double in game %(game)s, the Crawford game, is void: the game is scored at cube 1") % values
    if outcome == Outcome.PENALTY_POINTS:
        if "minutes_late" in params and "points" not in params:
            minutes = params["minutes_late"]
            return ngettext("%(side)s is penalised for arriving %(minutes)s minute late",
                            "%(side)s is penalised for arriving %(minutes)s minutes late", minutes) % {
                **values, "minutes": minutes}
        points = params.get("points") or 0
        return ngettext("%(side)s is given %(points)s penalty point: it goes to %(opponent)s's score",
                        "%(side)s is given %(points)s penalty points: they go to %(opponent)s's score", points) % {
            "opponent": gettext("the opponent"), **values, "points": points}
    if outcome == Outcome.MATCH_AWARDED:
        return gettext("The match is awarded to %(side)s") % values
    if outcome == Outcome.WARNING:
        return gettext("%(side)s is warned") % values
    if outcome == Outcome.DISQUALIFICATION:
        return gettext("%(side)s is disqualified from the event") % values
    if outcome == Outcome.WRONG_LENGTH:
        return wrong_length_sentence(params, sides)
    return str(OUTCOME_CHOICES.get(outcome, gettext("A ruling")))


#: The director's choices for a match played to the wrong length (engine.rulings.wrong_length_choices).
WRONG_LENGTH_CHOICES = {
    "result_stands": gettext_lazy("The result stands as played"),
    "won_at_length": gettext_lazy("The side that reached the right length wins"),
    "continue_to_length": gettext_lazy("The match goes on to its right length"),
}


def wrong_length_sentence(params: dict, sides: Sequence[str]) -> str:
    """A wrong-length ruling as a sentence: "The match to 5 was played to 3 points: the result
    stands as played, 3-1 to Ana"."""
    choice = params.get("choice")
    score = params.get("score")
    plain = choice != "result_stands" and score and len(score) == 2 and None not in score
    values = {"length": params.get("length"), "played": params.get("played_length"),
              "score": plain_score(score) if plain else score_text(score, sides)}
    if choice == "result_stands":
        text = gettext("The match to %(length)s was played to %(played)s points: the result stands as played, "
                       "%(score)s")
    elif choice == "won_at_length":
        text = gettext("The match to %(length)s was played to %(played)s points: at %(score)s the side that "
                       "reached %(length)s wins")
    elif params.get("crawford_next"):
        text = gettext("The match to %(length)s was played to %(played)s points: it goes on to %(length)s from "
                       "%(score)s, and the next game is the Crawford game")
    else:
        text = gettext("The match to %(length)s was played to %(played)s points: it goes on to %(length)s from "
                       "%(score)s")
    return text % values


# --- the audit log's sentences (registered by rulings.hooks) ----------------------------------------


def _where(game, move) -> str:
    if game and move:
        return gettext("game %(game)s, action %(move)s") % {"game": game, "move": move}
    if game:
        return gettext("game %(game)s") % {"game": game}
    return gettext("the whole match")


def audit_sentence(entry, sides: Sequence[str]) -> str:
    """A dispute's, a ruling's or an appeal's audit entry as a sentence, e.g. "Score corrected
    from 99-0 to 5-0 by Olga, rule 9.3"."""
    before = entry.before if isinstance(entry.before, dict) else {}
    after = entry.after if isinstance(entry.after, dict) else {}
    values = {"who": audit.who(entry)}
    action = entry.action
    if action == "dispute.opened":
        values["category"] = audit.value(after.get("category"))
        if after.get("automatic"):
            return gettext("A dispute was opened over the score: the reports disagree (%(who)s contested)") % values
        values["where"] = _where(after.get("game"), after.get("move"))
        return gettext("%(who)s opened a dispute about %(category)s, %(where)s") % values
    if action == "dispute.answered":
        return gettext("%(who)s added a statement to the dispute") % values
    if action == "dispute.settled":
        return gettext("The dispute was settled without a ruling: the result %(score)s was confirmed") % {
            "score": audit.score(after.get("score"))}
    if action == "ruling.made":
        sentence = ruling_sentence(after.get("outcome"), after.get("params"), sides,
                                   before_score=before.get("score") if before.get("status") == "confirmed" else None)
        if after.get("appeal"):
            sentence = gettext("%(ruling)s, by the appeals committee (%(who)s)") % {**values, "ruling": sentence}
        else:
            sentence = gettext("%(ruling)s, by %(who)s") % {**values, "ruling": sentence}
        if entry.note:
            sentence = gettext("%(sentence)s, rule %(rule)s") % {"sentence": sentence, "rule": entry.note}
        return sentence
    if action == "ruling.reverted":
        if before.get("score") != after.get("score") and "score" in before:
            return gettext("The ruling was undone on appeal: the result went back from %(before)s to %(after)s") % {
                "before": audit.score(before.get("score")), "after": audit.score(after.get("score"))}
        return gettext("The ruling was undone on appeal") % values
    if action == "appeal.lodged":
        return gettext("%(who)s appealed the ruling for %(side)s") % {
            **values, "side": audit.side_name(after.get("side"), sides)}
    if action == "appeal.committee_named":
        return gettext("%(who)s named the appeals committee: %(members)s") % {
            **values, "members": audit.listing(after.get("members") or [])}
    if action == "appeal.vote_cast":
        return gettext("%(who)s voted on the appeal") % values
    if action == "appeal.decided":
        decision = after.get("decision")
        if decision == "replace":
            return gettext("The appeals committee replaced the ruling: %(ruling)s") % {
                "ruling": ruling_sentence(after.get("outcome"), after.get("params"), sides)}
        if decision == "overturn":
            return gettext("The appeals committee overturned the ruling")
        return gettext("The appeals committee upheld the ruling")
    return gettext("%(who)s changed the dispute") % values


AUDIT_ACTIONS = {
    "dispute.opened": gettext_lazy("Dispute opened"),
    "dispute.answered": gettext_lazy("Statement added"),
    "dispute.settled": gettext_lazy("Dispute settled"),
    "ruling.made": gettext_lazy("Ruling made"),
    "ruling.reverted": gettext_lazy("Ruling undone"),
    "appeal.lodged": gettext_lazy("Appeal lodged"),
    "appeal.committee_named": gettext_lazy("Appeals committee named"),
    "appeal.vote_cast": gettext_lazy("Appeal vote cast"),
    "appeal.decided": gettext_lazy("Appeal decided"),
}


def audit_register() -> None:
    audit.describers_register({action: (label, audit_sentence) for action, label in AUDIT_ACTIONS.items()})
