"""A rating history as a chart, drawn on the server as SVG: a time axis with dated ticks, a rating
axis, the points joined in the order of the ratings ledger.

Pure Python (no Django), like :mod:`matches.board`: values in, SVG text out, so the page needs no
script and no CDN, prints as it shows (black text and axes, a dark line, no colour needed to read
it), and a test reads the drawing as XML. Words come from the caller (``title``, ``desc`` and
``date_label``), already translated.

Ticks. The time axis takes the first step of :data:`TIME_STEPS` (a day... ten years) that gives at
most ``max_ticks`` ticks, each tick on a calendar boundary of its unit (midnight, the 1st of a
month, the 1st of January); the axis runs from the boundary at or before the first change to the
boundary at or after the last, so the ticks always span the whole history. The rating axis steps
by 1, 2 or 5 times a power of ten, the same way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from xml.sax.saxutils import escape, quoteattr

WIDTH = 640
HEIGHT = 280
LEFT = 60  # room for the rating labels
RIGHT = 44  # room for half the last date label
TOP = 16
BOTTOM = 44  # room for the date labels
MAX_DOTS = 60  # past this many points the dots would hide the line: the line alone


@dataclass(frozen=True)
class TimeStep:
    """A tick step: ``count`` of ``unit`` (``day``, ``month`` or ``year``)."""

    unit: str
    count: int


#: The time axis's steps, shortest first.
TIME_STEPS = (
    TimeStep("day", 1), TimeStep("day", 2), TimeStep("day", 7), TimeStep("day", 14),
    TimeStep("month", 1), TimeStep("month", 2), TimeStep("month", 3), TimeStep("month", 6),
    TimeStep("year", 1), TimeStep("year", 2), TimeStep("year", 5), TimeStep("year", 10), TimeStep("year", 25),
)


def _floor(moment: datetime, step: TimeStep) -> datetime:
    """The boundary of ``step`` at or before ``moment`` (same time zone)."""
    day = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    if step.unit == "day":
        # Counted from a fixed day, so a two-week step falls on the same days whatever the data.
        offset = (day.date() - date(2000, 1, 3)).days % step.count
        return day - timedelta(days=offset)
    if step.unit == "month":
        month0 = (day.year * 12 + day.month - 1) // step.count * step.count
        return day.replace(year=month0 // 12, month=month0 % 12 + 1, day=1)
    return day.replace(year=day.year // step.count * step.count, month=1, day=1)


def _next(moment: datetime, step: TimeStep) -> datetime:
    """The boundary one ``step`` after the boundary ``moment``."""
    if step.unit == "day":
        return moment + timedelta(days=step.count)
    if step.unit == "month":
        month0 = moment.year * 12 + moment.month - 1 + step.count
        return moment.replace(year=month0 // 12, month=month0 % 12 + 1)
    return moment.replace(year=moment.year + step.count)


def time_ticks(first: datetime, last: datetime, *, max_ticks: int = 7) -> tuple[TimeStep, list[datetime]]:
    """The step and the ticks of a time axis from ``first`` to ``last``: the first tick at or
    before ``first``, the last at or after ``last``, at most ``max_ticks`` of them (the longest
    step's, whatever the span). Changes nothing, raises nothing."""
    for step in TIME_STEPS:
        ticks = [_floor(first, step)]
        while ticks[-1] < last and len(ticks) <= max_ticks:
            ticks.append(_next(ticks[-1], step))
        if len(ticks) == 1:  # all on one boundary: show the day (or unit) after it too
            ticks.append(_next(ticks[0], step))
        if len(ticks) <= max_ticks:
            return step, ticks
    return step, ticks


def value_ticks(low: float, high: float, *, max_ticks: int = 6) -> list[float]:
    """Ticks of a value axis by 1, 2 or 5 times a power of ten, the first at or below ``low``, the
    last at or above ``high`` (at least two). Changes nothing, raises nothing."""
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    raw = (high - low) / max(max_ticks - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        step = factor * power
        start, end = math.floor(low / step) * step, math.ceil(high / step) * step
        if (end - start) / step + 1 <= max_ticks:
            break
    count = round((end - start) / step)
    return [round(start + i * step, 10) for i in range(count + 1)]


def _el(tag: str, content: str = "", **attrs) -> str:
    text = "".join(f" {key.rstrip('_').replace('_', '-')}={quoteattr(str(value))}" for key, value in attrs.items())
    return f"<{tag}{text}>{content}</{tag}>" if content else f"<{tag}{text}/>"


def _default_label(moment: datetime, unit: str) -> str:
    return {"day": moment.strftime("%Y-%m-%d"), "month": moment.strftime("%Y-%m")}.get(unit, str(moment.year))


def rating_chart_svg(points: Sequence[tuple[datetime, float]], *, title: str, desc: str,
                     date_label: Callable[[datetime, str], str] = _default_label,
                     value_label: Callable[[float], str] = lambda value: f"{value:g}",
                     chart_id: str = "rating-chart") -> str:
    """The rating chart of ``points`` ((when, rating), in ledger order: the rating before the
    first match, then after each) as an SVG string, with ``title`` and ``desc`` for screen
    readers (``role="img"``). ``date_label(tick, unit)`` writes a tick's date for its step's unit
    (``day``, ``month``, ``year``). Fewer than two points: an empty string (nothing to draw).
    Changes nothing, raises nothing."""
    if len(points) < 2:
        return ""
    moments = [moment for moment, _ in points]
    values = [value for _, value in points]
    step, ticks = time_ticks(min(moments), max(moments))
    ratings = value_ticks(min(values), max(values))
    t0, t1 = ticks[0].timestamp(), ticks[-1].timestamp()
    v0, v1 = ratings[0], ratings[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(moment: datetime) -> float:
        return LEFT + (moment.timestamp() - t0) / (t1 - t0) * plot_w

    def y(value: float) -> float:
        return TOP + (v1 - value) / (v1 - v0) * plot_h

    title_id, desc_id = f"{chart_id}-title", f"{chart_id}-desc"
    parts = [_el("title", escape(title), id=title_id), _el("desc", escape(desc), id=desc_id)]
    grid, labels = [], []
    for value in ratings:
        grid.append(_el("line", x1=LEFT, x2=WIDTH - RIGHT, y1=f"{y(value):.1f}", y2=f"{y(value):.1f}"))
        labels.append(_el("text", escape(value_label(value)), x=LEFT - 6, y=f"{y(value) + 4:.1f}",
                          text_anchor="end", class_="tick-y", data_value=f"{value:g}"))
    for tick in ticks:
        grid.append(_el("line", x1=f"{x(tick):.1f}", x2=f"{x(tick):.1f}", y1=TOP, y2=HEIGHT - BOTTOM))
        labels.append(_el("text", escape(date_label(tick, step.unit)), x=f"{x(tick):.1f}", y=HEIGHT - BOTTOM + 18,
                          text_anchor="middle", class_="tick-x", data_date=tick.date().isoformat()))
    parts.append(_el("g", "".join(grid), class_="grid", stroke="#c8c8c8", stroke_width=1, aria_hidden="true"))
    axes = (_el("line", x1=LEFT, x2=LEFT, y1=TOP, y2=HEIGHT - BOTTOM)
            + _el("line", x1=LEFT, x2=WIDTH - RIGHT, y1=HEIGHT - BOTTOM, y2=HEIGHT - BOTTOM))
    parts.append(_el("g", axes, class_="axes", stroke="#000", stroke_width=1, aria_hidden="true"))
    parts.append(_el("g", "".join(labels), class_="labels", fill="#000", font_size=12, font_family="sans-serif",
                     aria_hidden="true"))
    coords = [(x(moment), y(value)) for moment, value in points]
    parts.append(_el("polyline", points=" ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in coords), fill="none",
                     stroke="#1d3f8f", stroke_width=2, stroke_linejoin="round", class_="line", aria_hidden="true"))
    if len(coords) <= MAX_DOTS:
        dots = "".join(_el("circle", cx=f"{cx:.1f}", cy=f"{cy:.1f}", r=3) for cx, cy in coords)
        parts.append(_el("g", dots, class_="points", fill="#1d3f8f", aria_hidden="true"))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" class="rating-chart" '
            f'role="img" aria-labelledby="{title_id} {desc_id}" preserveAspectRatio="xMidYMid meet">'
            + "".join(parts) + "</svg>")
