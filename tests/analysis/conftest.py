"""Fixtures of the analysis tests: the named cast around a match (tests.matches.factories_api),
confirmed with the games of a real match file from ../shared/data/mat."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from engine.scores import capped_score
from matches.models import Match
from matches.services.logs import log_from_mat
from matches.services.reporting import claim_make, match_confirm, match_report
from tests.matches.factories_api import make_cast

MAT_DIR = Path(settings.BASE_DIR).parent.parent / "shared" / "data" / "mat"
if not MAT_DIR.is_dir():
    MAT_DIR = Path("/work/shared/data/mat")
#: A short real match (3 points, 4 games): its analysis at 0-ply takes a second or two.
SHORT = "galaxy_3pt_match1161689.mat"


def confirm_with_file(match: Match, alice, bob, name: str = SHORT) -> Match:
    """Report ``match`` as alice with the games of the file ``name`` (its left player side 0) and
    confirm it as bob, through the services; the match read again."""
    data = (MAT_DIR / name).read_bytes()
    log = log_from_mat(name, data, match.rules())
    score = capped_score(match.length, log.final_score)
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, score, log))
    match_confirm(match_id=match.pk, user=bob)
    return Match.objects.get(pk=match.pk)


def same_verdict(first, second) -> bool:
    """Whether two analyses of the same games give each side the same figures: the counts exactly,
    the equities to a millionth (gnubg's float arithmetic may differ in the last bits from run to
    run, its evaluation cache warm or cold)."""
    for side in (0, 1):
        a, b = first.side(side), second.side(side)
        for name, value in a.items():
            if isinstance(value, float) and value != pytest.approx(b[name], rel=1e-6, abs=1e-6):
                return False
            if not isinstance(value, float) and value != b[name]:
                return False
    return True


@pytest.fixture
def cast():
    """The cast around a 3-point match, not played yet (otto directs it)."""
    return make_cast(length=3)


@pytest.fixture
def played(cast):
    """The cast, its match confirmed with a real file's games (and so queued for analysis)."""
    confirm_with_file(cast.match, cast.alice, cast.bob)
    return cast
