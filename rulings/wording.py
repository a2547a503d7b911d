"""How a director says a ruling: each outcome as a choice on the ruling form ("The result
stands", "The score is corrected") and a ruling, with its details, as a sentence ("The reported
result stands: 5-3 to Ana", "Score corrected from 99-0 to 5-0").

Pure wording: values in, translated text out. The outcomes are ``Ruling.Outcome``'s (the
engine's remedies, ``engine/rulings.py``); the details are a ruling's normalised ``params`` as
``rulings.services.rulings.ruling_apply`` stores them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.utils.translation import gettext, gettext_lazy, ngettext

from audit import describe as audit
from audit.hooks import Wording

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


def _stands(params: dict, sides: Sequence[str], values: dict, before_score) -> str:
    if params.get("score"):
        return gettext("The reported result stands: %(score)s") % {"score": score_text(params["score"], sides)}
    return gettext("The result stands")


def _score_corrected(params: dict, sides: Sequence[str], values: dict, before_score) -> str:
    if before_score and None not in before_score and params.get("score"):
        return gettext("Score corrected from %(before)s to %(after)s") % {
            "before": plain_score(before_score), "after": plain_score(params["score"])}
    return gettext("Score corrected to %(after)s") % {"after": score_text(params.get("score"), sides)}


def _penalty_points(params: dict, sides: Sequence[str], values: dict, before_score) -> str:
    if "minutes_late" in params and "points" not in params:
        minutes = params["minutes_late"]
        return ngettext("%(side)s is penalised for arriving %(minutes)s minute late",
                        "%(side)s is penalised for arriving %(minutes)s minutes late", minutes) % {
            **values, "minutes": minutes}
    points = params.get("points") or 0
    return ngettext("%(side)s is given %(points)s penalty point: it goes to %(opponent)s's score",
                    "%(side)s is given %(points)s penalty points: they go to %(opponent)s's score", points) % {
        "opponent": gettext("the opponent"), **values, "points": points}


def _said(text: Callable[[], str]) -> Callable[[dict, Sequence[str], dict, object], str]:
    # An outcome said by its details alone (the game, the action, the side).
    return lambda params, sides, values, before_score: text() % values


#: Each outcome's sentence, from the ruling's details, the sides' names, the details as the
#: sentences name them and the result the ruling replaced.
RULING_SENTENCES = {
    Outcome.STANDS: _stands,
    Outcome.SCORE_CORRECTED: _score_corrected,
    Outcome.PLAY_CORRECTED: _said(
        lambda: gettext("The illegal play in game %(game)s, action %(move)s, is corrected to %(play)s")),
    Outcome.PLAY_CONDONED: _said(lambda: gettext("The illegal play in game %(game)s, action %(move)s, stands as played")),
    Outcome.GAME_VOIDED: _said(lambda: gettext("Game %(game)s is void")),
    Outcome.GAME_REPLAYED: _said(lambda: gettext("Game %(game)s is to be replayed")),
    Outcome.CRAWFORD_DOUBLE_VOIDED: _said(
        lambda: gettext("The double in game %(game)s, the Crawford game, is void: the game is scored at cube 1")),
    Outcome.PENALTY_POINTS: _penalty_points,
    Outcome.MATCH_AWARDED: _said(lambda: gettext("The match is awarded to %(side)s")),
    Outcome.WARNING: _said(lambda: gettext("%(side)s is warned")),
    Outcome.DISQUALIFICATION: _said(lambda: gettext("%(side)s is disqualified from the event")),
    Outcome.WRONG_LENGTH: lambda params, sides, values, before_score: wrong_length_sentence(params, sides),
}


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
    said = RULING_SENTENCES.get(outcome)
    if said is None:
        return str(OUTCOME_CHOICES.get(outcome, gettext("A ruling")))
    return said(params, sides, values, before_score)


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


# --- the audit log's sentences (registered by rulings.apps) ----------------------------------------


def _where(game, move) -> str:
    if game and move:
        return gettext("game %(game)s, action %(move)s") % {"game": game, "move": move}
    if game:
        return gettext("game %(game)s") % {"game": game}
    return gettext("the whole match")


def dispute_opened_sentence(entry, sides: Sequence[str]) -> str:
    after = audit.data(entry.after)
    values = {"who": audit.who(entry), "category": audit.value(after.get("category"))}
    if after.get("automatic"):
        return gettext("A dispute was opened over the score: the reports disagree (%(who)s contested)") % values
    values["where"] = _where(after.get("game"), after.get("move"))
    return gettext("%(who)s opened a dispute about %(category)s, %(where)s") % values


def dispute_settled_sentence(entry, sides: Sequence[str]) -> str:
    return gettext("The dispute was settled without a ruling: the result %(score)s was confirmed") % {
        "score": audit.score(audit.data(entry.after).get("score"))}


def ruling_made_sentence(entry, sides: Sequence[str]) -> str:
    """A ruling, by its director or the appeals committee, with its rule when he named one, e.g.
    "Score corrected from 99-0 to 5-0 by Olga, rule 9.3"."""
    before, after = audit.data(entry.before), audit.data(entry.after)
    values = {"who": audit.who(entry)}
    sentence = ruling_sentence(after.get("outcome"), after.get("params"), sides,
                               before_score=before.get("score") if before.get("status") == "confirmed" else None)
    if after.get("appeal"):
        sentence = gettext("%(ruling)s, by the appeals committee (%(who)s)") % {**values, "ruling": sentence}
    else:
        sentence = gettext("%(ruling)s, by %(who)s") % {**values, "ruling": sentence}
    if entry.note:
        sentence = gettext("%(sentence)s, rule %(rule)s") % {"sentence": sentence, "rule": entry.note}
    return sentence


def ruling_reverted_sentence(entry, sides: Sequence[str]) -> str:
    before, after = audit.data(entry.before), audit.data(entry.after)
    if before.get("score") != after.get("score") and "score" in before:
        return gettext("The ruling was undone on appeal: the result went back from %(before)s to %(after)s") % {
            "before": audit.score(before.get("score")), "after": audit.score(after.get("score"))}
    return gettext("The ruling was undone on appeal") % {"who": audit.who(entry)}


def appeal_lodged_sentence(entry, sides: Sequence[str]) -> str:
    return gettext("%(who)s appealed the ruling for %(side)s") % {
        "who": audit.who(entry), "side": audit.side_name(audit.data(entry.after).get("side"), sides)}


def committee_named_sentence(entry, sides: Sequence[str]) -> str:
    return gettext("%(who)s named the appeals committee: %(members)s") % {
        "who": audit.who(entry), "members": audit.listing(audit.data(entry.after).get("members") or [])}


def appeal_decided_sentence(entry, sides: Sequence[str]) -> str:
    after = audit.data(entry.after)
    decision = after.get("decision")
    if decision == "replace":
        return gettext("The appeals committee replaced the ruling: %(ruling)s") % {
            "ruling": ruling_sentence(after.get("outcome"), after.get("params"), sides)}
    if decision == "overturn":
        return gettext("The appeals committee overturned the ruling")
    return gettext("The appeals committee upheld the ruling")


# --- the Django admin's changes of rulings' rows (rulings.admin) ---------------------------------------


def admin_sentence(entry, sides: Sequence[str]) -> str:
    """A row staff added or changed in the Django admin (``<model>.added_in_admin``,
    ``<model>.changed_in_admin``): the fields changed, by their own words."""
    model, _, verb = entry.action.partition(".")
    fields = [audit.value(key) for key in audit.data(entry.after) if key not in ("id", "parent")]
    values = {"who": audit.who(entry), "what": audit.value(model), "fields": audit.listing(fields)}
    if verb.startswith("added"):
        return gettext("%(who)s added a %(what)s in the admin") % values
    if fields:
        return gettext("%(who)s changed the %(what)s's %(fields)s in the admin") % values
    return gettext("%(who)s changed a %(what)s in the admin") % values


WORDING = Wording("rulings", {
    "dispute.opened": (gettext_lazy("Dispute opened"), dispute_opened_sentence),
    "dispute.answered": (gettext_lazy("Statement added"),
                         audit.by_who(lambda: gettext("%(who)s added a statement to the dispute"))),
    "dispute.settled": (gettext_lazy("Dispute settled"), dispute_settled_sentence),
    "ruling.made": (gettext_lazy("Ruling made"), ruling_made_sentence),
    "ruling.reverted": (gettext_lazy("Ruling undone"), ruling_reverted_sentence),
    "appeal.lodged": (gettext_lazy("Appeal lodged"), appeal_lodged_sentence),
    "appeal.committee_named": (gettext_lazy("Appeals committee named"), committee_named_sentence),
    "appeal.vote_cast": (gettext_lazy("Appeal vote cast"), audit.by_who(lambda: gettext("%(who)s voted on the appeal"))),
    "appeal.decided": (gettext_lazy("Appeal decided"), appeal_decided_sentence),
    "*.added_in_admin": (gettext_lazy("Added in the admin"), admin_sentence),
    "*.changed_in_admin": (gettext_lazy("Changed in the admin"), admin_sentence),
}, values={
    "ruled": gettext_lazy("ruled"), "appealed": gettext_lazy("under appeal"), "decided": gettext_lazy("decided"),
    "settled": gettext_lazy("settled"), "in_force": gettext_lazy("in force"), "overturned": gettext_lazy("overturned"),
    "replaced": gettext_lazy("replaced"), "uphold": gettext_lazy("upheld"), "overturn": gettext_lazy("overturned"),
    "replace": gettext_lazy("replaced"),
    "illegal_move": gettext_lazy("an illegal move"), "cocked_dice": gettext_lazy("cocked dice"),
    "premature_roll": gettext_lazy("a premature roll"), "crawford_double": gettext_lazy("a double in the Crawford game"),
    "cube_or_setup": gettext_lazy("a misplaced cube or a wrong setup"), "late_arrival": gettext_lazy("a late arrival"),
    "slow_play": gettext_lazy("slow play"), "score_disagreement": gettext_lazy("a score disagreement"),
    "flag_fall": gettext_lazy("a flag fall"),
    "no_show": gettext_lazy("a no-show"), "conduct": gettext_lazy("conduct"), "other": gettext_lazy("another matter"),
})
