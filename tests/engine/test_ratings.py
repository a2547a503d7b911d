import pytest

from engine.errors import EngineError
from engine.ratings import fibs_change, k_factor


@pytest.mark.parametrize(
    ("winner", "loser", "gain"),
    [(1600, 1500, 4.49), (1500, 1600, 6.09), (1500, 1500, 5.29)],
)
def test_it_gives_the_rules_check_figures_for_a_7_point_match(winner, loser, gain):
    # RULES.md §10: D = 100, n = 7, both K = 1: favourite wins +/-4.49, underdog wins +/-6.09.
    change = fibs_change(winner, loser, 7, winner_experience=400, loser_experience=400)
    assert round(change.winner_delta, 2) == gain
    assert round(change.loser_delta, 2) == -gain


@pytest.mark.parametrize(("experience", "k"), [(0, 5.0), (100, 4.0), (399, 1.01), (400, 1.0), (10_000, 1.0)])
def test_it_lowers_k_with_experience_down_to_one(experience, k):
    assert k_factor(experience) == pytest.approx(k)


def test_it_scales_each_side_by_its_own_k():
    change = fibs_change(1500, 1500, 5, winner_experience=0, loser_experience=500)
    assert change.winner_delta == pytest.approx(-5 * change.loser_delta)


def test_it_refuses_to_rate_a_money_session():
    with pytest.raises(EngineError) as caught:
        fibs_change(1500, 1500, 0)
    assert caught.value.code == "bad_length"
