"""A ruling's or a dispute's refused detail is named as the ruling form names it ("Illegal play
noticed before the opponent rolled or doubled"), never by the API's name
(``noticed_before_next_roll is true or false``): beside its field and in the form's summary on the
page, led by its label in the API's ``detail``; the API's ``field`` and ``errors`` keep the name."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse
from django.utils import translation

from core.errors import Conflict, DomainError
from rulings.forms import AppealForm, DisputeOpenForm, RulingForm, StatementForm
from rulings.labels import DISPUTE_LABELS, RULING_LABELS
from rulings.models import Dispute, Ruling
from rulings.services.disputes import dispute_open
from rulings.services.rulings import ruling_make, ruling_revert
from tests.factories import UserFactory
from tests.matches.factories_api import client_for, make_cast
from tests.rulings.factories import confirm_with_games, snapshot
from tests.rulings.test_api import opened
from tests.rulings.test_services_rulings import RECORD, as_played_game_1, dispute_on, rule_on
from tests.rulings.test_views import send
from tests.tournaments.factories import drawn, override, pairing

pytestmark = pytest.mark.django_db

#: A detail's name in the code, as a person must never read it.
CODE_NAMES = re.compile(r"\b(noticed_before_next_roll|opponent_demands_replay|minutes_late|played_length|game_number|"
                        r"move_number)\b|\bside is 0 or 1\b|\bis true or false\b")


@pytest.fixture
def cast():
    return make_cast()


def summary(response) -> str:
    """The ruling form's error summary, as read (tags out)."""
    block = response.content.decode().split("data-error-summary>", 1)[1].split("</div>", 1)[0]
    return html.unescape(re.sub(r"<[^>]+>", " ", block))


def test_the_labels_are_the_forms_own():
    form = RulingForm()
    for name, label in RULING_LABELS.items():
        if name in form.fields and name not in ("score", "game", "move"):  # the form says these per side / moment
            assert str(form.fields[name].label) == str(label), name
    assert str(DISPUTE_LABELS["statement"]) == str(DisputeOpenForm.base_fields["statement"].label)
    assert str(DISPUTE_LABELS["category"]) == str(DisputeOpenForm.base_fields["category"].label)
    assert str(DISPUTE_LABELS["text"]) == str(StatementForm.base_fields["text"].label)
    assert str(DISPUTE_LABELS["grounds"]) == str(AppealForm.base_fields["grounds"].label)


@pytest.mark.parametrize(("params", "field", "message"), [
    ({"game": 1, "move": 2, "play": "8/5 6/5"}, "noticed_before_next_roll",
     "Illegal play noticed before the opponent rolled or doubled: required: answer yes or no (true or false)"),
    ({"game": 1, "move": 2, "play": "8/5 6/5", "noticed_before_next_roll": "yes"}, "noticed_before_next_roll",
     "Illegal play noticed before the opponent rolled or doubled: answer yes or no (true or false)"),
    ({"game": 1, "move": 2, "noticed_before_next_roll": True}, "play",
     "Corrected play: the legal play that replaces the illegal one, e.g. 13/7 8/7"),
    ({"game": 1, "move": 2, "play": "8/5 6/5", "noticed_before_next_roll": True, "side": 1}, "side",
     "Side: not a detail of this outcome (it takes: Game, Action of the game, Game log, Illegal play noticed before "
     "the opponent rolled or doubled, The opponent demands the roll be replayed (responsible moves), Corrected play)"),
])
def test_a_refused_detail_is_named_by_its_label_and_its_field_kept(cast, params, field, message):
    dispute = opened(cast)
    before = snapshot()
    with translation.override("en"):
        response = client_for(cast.organiser).post(
            reverse("api-dispute-rulings", args=[dispute.pk]),
            {"outcome": "play_corrected", "params": params, "rule": "RULES 3", "reasoning": "Illegal."}, format="json")
    assert response.status_code == 400 and response.data["code"] == "bad_ruling"
    assert (response.data["field"], response.data["detail"]) == (field, message)
    assert not CODE_NAMES.search(response.data["detail"])
    assert snapshot() == before


@pytest.mark.parametrize(("data", "field", "said"), [
    ({"outcome": "play_corrected", "game": "1", "move": "2", "play": "8/5 6/5"}, "noticed_before_next_roll",
     "Illegal play noticed before the opponent rolled or doubled: required: answer yes or no (true or false)"),
    ({"outcome": "warning"}, "side", "Side: required: choose one of the match's two sides"),
    ({"outcome": "penalty_points", "side": "1", "points": "1", "minutes_late": "12"}, "points",
     "Penalty points: give the penalty either as “Penalty points” or as “Minutes late”, one of the two"),
])
def test_the_ruling_page_names_a_refused_detail_by_its_label(cast, data, field, said):
    dispute = opened(cast)
    before = snapshot()
    response = send(cast.organiser, reverse("rulings:rule", args=[dispute.pk]),
                    {"rule": "RULES 3", "reasoning": "As seen.", **data})
    assert response.status_code == 400
    assert f'href="#id_{field}"' in response.content.decode()
    assert " ".join(said.split()) in " ".join(summary(response).split())
    assert not CODE_NAMES.search(summary(response)), summary(response)
    assert snapshot() == before


def test_the_refusal_says_the_label_in_the_readers_language(cast):
    dispute = opened(cast)
    with translation.override("ko"):
        label = str(RULING_LABELS["noticed_before_next_roll"])
        with pytest.raises(DomainError) as raised:
            ruling_make(dispute_id=dispute.pk, user=cast.organiser, outcome=Ruling.Outcome.PLAY_CORRECTED,
                        params={"game": 1, "move": 2, "play": "8/5 6/5"}, rule="RULES 3", reasoning="Illegal.")
    assert label != str(RULING_LABELS["noticed_before_next_roll"])  # the Korean label, not the English one
    assert raised.value.message.startswith(f"{label}: ") and not CODE_NAMES.search(raised.value.message)


def test_a_dispute_names_its_fields_by_their_labels(cast):
    with translation.override("en"), pytest.raises(DomainError) as raised:
        dispute_open(match_id=cast.match.pk, user=cast.alice, category="conduct", statement="Late.", move_number=3)
    assert raised.value.details["field"] == "move_number"
    assert raised.value.message == "Action of the game: An action belongs to a game: give the game's number."
    with translation.override("en"), pytest.raises(DomainError) as raised:
        dispute_open(match_id=cast.match.pk, user=cast.alice, category="conduct", statement="  ")
    assert raised.value.message == "What happened: required: say what happened"


def test_undoing_a_disqualification_names_the_forfeited_match_that_changed_by_its_players():
    tournament, (alice, _bob, _carol, dave) = drawn(4)
    semi = pairing(tournament, "main-1-1").match
    dispute = dispute_on(semi, dave.user, category=Dispute.Category.CONDUCT)
    side = 0 if semi.side0.player_a_id == alice.pk else 1
    ruling = rule_on(dispute, tournament.organiser, Ruling.Outcome.DISQUALIFICATION, {"side": side})
    override(tournament, "main-1-1", dave, loser_points=2)  # the forfeit's score changed by hand since
    ruling.refresh_from_db()
    with translation.override("en"), pytest.raises(Conflict) as refused:
        ruling_revert(ruling=ruling, actor=UserFactory(username="chair", staff=True))
    names = {semi.side0.name, semi.side1.name}
    assert names == {"Alice", "Dave"} and refused.value.code == "revert_refused"
    assert refused.value.message == (f"the ruling cannot be undone: the match {semi.side0.name} v {semi.side1.name}, "
                                     "forfeited by the disqualification, has changed since")


def test_the_engines_refusal_of_a_ruling_names_the_mover_by_his_player(cast):
    confirm_with_games(cast.match, RECORD)
    dispute = dispute_on(cast.match, cast.bob, game_number=1, move_number=2, log=as_played_game_1())
    with translation.override("en"), pytest.raises(DomainError) as refused:
        rule_on(dispute, cast.organiser, Ruling.Outcome.PLAY_CORRECTED,
                {"play": "13/9 6/5", "noticed_before_next_roll": True, "move": 2})
    assert (refused.value.details["field"], refused.value.details["reason"]) == ("play", "correction_illegal")
    assert f"game 1, move 1, {cast.match.side0.name}: play 8/5" in refused.value.message
    assert not re.search(r"\bside [01]\b", refused.value.message), refused.value.message
