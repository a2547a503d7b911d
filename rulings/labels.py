"""The names people read for a dispute's and a ruling's details (core.labels): the rulings forms'
labels, which the services' refusals name a detail by ("Illegal play noticed before the opponent
rolled or doubled: answer yes or no"); the refusal's ``field`` keeps the API's name
(``noticed_before_next_roll``). A test keeps them the forms' own words."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

#: A ruling's fields and the details of its outcome (``params``), by the API's names.
RULING_LABELS = {
    "outcome": _("Outcome"),
    "rule": _("Rule applied"),
    "reasoning": _("Reasoning"),
    "score": _("Score"),
    "game": _("Game"),
    "move": _("Action of the game"),
    "play": _("Corrected play"),
    "noticed_before_next_roll": _("Illegal play noticed before the opponent rolled or doubled"),
    "opponent_demands_replay": _("The opponent demands the roll be replayed (responsible moves)"),
    "side": _("Side"),
    "points": _("Penalty points"),
    "minutes_late": _("Minutes late"),
    "played_length": _("Length the match was played to"),
    "choice": _("What becomes of the match"),
    # Read from the API only (the page gives them from the match): whether the match was over, and
    # whether its Crawford game was played.
    "finished": _("The match was over"),
    "crawford_played": _("The Crawford game was played"),
    "winner": _("Side"),  # an awarded match's winner, as the engine names it
    "log": _("Game log"),
    "params": _("The outcome's details"),
}

#: A dispute's fields and a statement's, by the API's names.
DISPUTE_LABELS = {
    "category": _("Category"),
    "statement": _("What happened"),
    "text": _("Your statement"),
    "game_number": _("Game"),
    "move_number": _("Action of the game"),
    "log": _("Game log"),
    "grounds": _("Why the ruling is wrong"),
}
