"""How ratings are computed: a public page that states the FIBS formula the
service rates with (``engine.ratings``, RULES.md §10), the experience factor, when a rating
changes and how a correction replays the ledger, with a worked example the engine computes while
the page is rendered. It reads nothing from the database."""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils import formats
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from engine.ratings import START_RATING, RatingChange, fibs_change, k_factor


@dataclass(frozen=True)
class RatingExample:
    """The two players of the worked example: the favourite (the higher rating) and the underdog,
    with their experience (points of rated matches finished), and the match length."""

    favourite: float
    favourite_experience: int
    underdog: float
    underdog_experience: int
    length: int


#: The worked example's players: a newcomer (150 points played, so his K is above 1) favoured by
#: 100 points over an established player (K 1) in a 7-point match: both the formula and the
#: experience factor show in it.
EXAMPLE = RatingExample(favourite=1600.0, favourite_experience=150, underdog=1500.0, underdog_experience=1200,
                        length=7)


@dataclass(frozen=True)
class WorkedExample:
    """The example's figures, each from the engine: each player's K (``k_factor``), the changes
    when the favourite wins and when the underdog wins (``fibs_change``), and the underdog's
    chance, read back from those changes (see :func:`worked_example`)."""

    example: RatingExample
    favourite_k: float
    underdog_k: float
    favourite_wins: RatingChange
    underdog_wins: RatingChange
    upset: float

    @property
    def difference(self) -> float:
        return abs(self.example.favourite - self.example.underdog)

    @property
    def root(self) -> float:
        return math.sqrt(self.example.length)


def worked_example(example: RatingExample | None = None) -> WorkedExample:
    """The worked example (``EXAMPLE`` unless another is given) as the engine computes it. The
    underdog's chance is not recomputed here: each winner's gain divided by his K is
    4 * sqrt(n) * P, with P the underdog's chance when the favourite wins and the favourite's when
    the underdog wins; the two add up to 4 * sqrt(n), so the chance is the first's share of their
    sum, whatever the engine's constants."""
    example = example or EXAMPLE
    favourite_k, underdog_k = k_factor(example.favourite_experience), k_factor(example.underdog_experience)
    favourite_wins = fibs_change(example.favourite, example.underdog, example.length,
                                 winner_experience=example.favourite_experience,
                                 loser_experience=example.underdog_experience)
    underdog_wins = fibs_change(example.underdog, example.favourite, example.length,
                                winner_experience=example.underdog_experience,
                                loser_experience=example.favourite_experience)
    expected = favourite_wins.winner_delta / favourite_k
    surprise = underdog_wins.winner_delta / underdog_k
    return WorkedExample(example, favourite_k, underdog_k, favourite_wins, underdog_wins,
                         upset=expected / (expected + surprise))


def _number(value: float, decimals: int, name: str) -> SafeString:
    """``value`` written the reader's way, in a ``<data>`` element carrying it exactly (a test, or
    a reader's tool, compares it) and kept left to right in a right-to-left page."""
    return format_html('<data class="{}" value="{}" dir="ltr">{}</data>', name, repr(float(value)),
                       formats.number_format(round(value, decimals), decimals))


def _signed(value: float, name: str) -> SafeString:
    sign = "+" if value >= 0 else "\u2212"
    return format_html('<data class="{}" value="{}" dir="ltr">{}{}</data>', name, repr(float(value)), sign,
                       formats.number_format(round(abs(value), 2), 2))


def _k_text(experience: int, k: float, name: str) -> SafeString:
    """How the K came about: "5 - 150 / 100 = 3.5", or "1 (400 points of experience or more)"."""
    if k > 1:
        return format_html('<bdi dir="ltr">5 \u2212 {} / 100 = {}</bdi>', experience, _number(k, 2, name))
    return format_html(gettext("{k} (400 points of experience or more)"), k=_number(k, 0, name))


def _example_context(worked: WorkedExample) -> dict:
    example = worked.example
    return {
        "length": example.length,
        "favourite": _number(example.favourite, 0, "favourite-rating"),
        "favourite_experience": example.favourite_experience,
        "underdog": _number(example.underdog, 0, "underdog-rating"),
        "underdog_experience": example.underdog_experience,
        "difference": _number(worked.difference, 0, "difference"),
        "root": _number(worked.root, 3, "root"),
        "upset": _number(worked.upset, 3, "upset"),
        "expected": _number(1 - worked.upset, 3, "expected"),
        "favourite_k": _k_text(example.favourite_experience, worked.favourite_k, "favourite-k"),
        "underdog_k": _k_text(example.underdog_experience, worked.underdog_k, "underdog-k"),
        "favourite_gains": _signed(worked.favourite_wins.winner_delta, "favourite-gains"),
        "underdog_loses": _signed(worked.favourite_wins.loser_delta, "underdog-loses"),
        "underdog_gains": _signed(worked.underdog_wins.winner_delta, "underdog-gains"),
        "favourite_loses": _signed(worked.underdog_wins.loser_delta, "favourite-loses"),
    }


@require_safe
def ratings_explained(request: HttpRequest) -> HttpResponse:
    """How ratings are computed, in the reader's language: the FIBS formula, the experience
    factor, when a rating changes and how a correction replays the ledger, and the worked example
    computed by the engine now. Public; no query."""
    return render(request, "matches/ratings.html", {
        "start": _number(START_RATING, 0, "start-rating"),
        "example": _example_context(worked_example()),
    })


urlpatterns = [
    path("ratings/", ratings_explained, name="ratings"),
]
