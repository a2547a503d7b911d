"""The table of event formats: every (kind, format) the rules allow has its class, which says its
kind and format."""

import pytest

from core.errors import DomainError
from tournaments.formats import FORMATS, EventFormat, format_for, format_of
from tournaments.models import Tournament
from tournaments.services.events import EventRules

PAIRS = [(kind, format) for kind in Tournament.Kind.values for format in Tournament.Format.values]


@pytest.mark.parametrize(("kind", "format"), PAIRS)
def test_every_kind_and_format_the_rules_allow_has_its_class(kind, format):
    rules = EventRules(name="Open", kind=kind, format=format)
    found = format_of(rules)
    assert isinstance(found, EventFormat)
    assert (found.kind, found.format) == (kind, format)
    assert format_for(kind, format) is found is FORMATS[(kind, format)]


def test_the_table_has_one_class_a_pair_and_nothing_else():
    assert set(FORMATS) == set(PAIRS)
    assert len({type(found) for found in FORMATS.values()}) == len(PAIRS)


def test_a_tournament_gets_the_shared_instance_of_its_kind_and_format():
    tournament = Tournament(name="Open", kind=Tournament.Kind.TEAMS, format=Tournament.Format.SWISS)
    assert format_of(tournament) is format_of(Tournament(name="Other", kind="teams", format="swiss"))
    assert type(format_of(tournament)).__name__ == "TeamSwiss"


def test_a_format_that_leaves_out_its_draw_or_its_results_cannot_be_made():
    class Unfinished(EventFormat):
        kind, format = "individual", "swiss"

        def draw(self, tournament, order, user, entries):
            return None

    with pytest.raises(TypeError, match="match_result_changed"):
        Unfinished()


def test_a_format_without_a_bracket_refuses_to_build_one():
    swiss = format_for(Tournament.Kind.INDIVIDUAL, Tournament.Format.SWISS)
    with pytest.raises(DomainError) as refused:
        swiss.build_bracket(Tournament(name="Open", format="swiss"), [1, 2, 3, 4])
    assert refused.value.code == "not_a_bracket"
    assert format_for(Tournament.Kind.INDIVIDUAL, Tournament.Format.SINGLE_ELIMINATION).build_bracket(
        Tournament(name="Open", format="single_elimination"), [1, 2, 3, 4]).size == 4
