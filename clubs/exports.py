"""A club's data as files: the ladder as CSV, the nights and events as an iCalendar feed.

The feed is written by the ``icalendar`` package (RFC 5545: CRLF line ends, lines folded at 75
octets, text escaped); nothing here formats iCalendar by hand.
"""

from __future__ import annotations

import csv
import datetime as dt
import io

from django.utils import timezone
from icalendar import Calendar, Event, vText

from .models import Club, ClubNight
from .selectors import LadderRow

CSV_HEADER = ("place", "player", "played", "won", "lost", "points", "rating_change")
# A spreadsheet runs a cell starting with one of these as a formula: a display name is user input.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str) -> str:
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def ladder_csv(rows: list[LadderRow]) -> str:
    """The ladder as CSV text (RFC 4180 quoting, CRLF row ends): one header row, then one row per
    player; a shared place is written ``3=``. Names that a spreadsheet would run as a formula are
    prefixed with an apostrophe."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    for row in rows:
        writer.writerow([f"{row.place}=" if row.shared else row.place, _cell(row.display_name), row.played, row.won,
                         row.lost, row.points, f"{row.rating_change:.2f}"])
    return out.getvalue()


def _event(uid: str, summary: str, starts: dt.date, ends: dt.date, stamp: dt.datetime, *, url: str = "",
           description: str = "", location: str = "") -> Event:
    event = Event()
    event.add("uid", uid)
    event.add("dtstamp", stamp)
    # Dates without a time are all-day items (VALUE=DATE); DTEND is exclusive, so the day after.
    event.add("dtstart", starts)
    event.add("dtend", ends + dt.timedelta(days=1))
    event.add("summary", summary)
    if description:
        event.add("description", description)
    if location:
        event.add("location", location)
    if url:
        event.add("url", url)
    return event


def club_calendar(club: Club, nights: list[ClubNight], events, *, base_url: str = "") -> bytes:
    """The club's nights and dated events (tournaments) as an iCalendar (``text/calendar``)
    document. UIDs are stable (``night-<id>@<club slug>.crawford``), so a subscribed calendar
    updates its items instead of duplicating them; ``base_url`` (scheme and host) makes the links
    absolute."""
    stamp = timezone.now().astimezone(dt.UTC).replace(microsecond=0)
    calendar = Calendar()
    calendar.add("prodid", "-//Crawford//Club calendar//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    # An X- property is not known to be text: written as given, a line break in the club's name
    # (a name from before names were checked) broke the file's line. As vText it is escaped.
    calendar.add("x-wr-calname", vText(club.name))
    for night in nights:
        calendar.add_component(_event(
            f"night-{night.pk}@{club.slug}.crawford", f"{club.name}: {night.title or 'Club night'}", night.date,
            night.date, stamp, location=club.city, url=f"{base_url}/clubs/{club.slug}/nights/{night.pk}/",
        ))
    for tournament in events:
        calendar.add_component(_event(
            f"event-{tournament.pk}@{club.slug}.crawford", tournament.name, tournament.starts_on,
            tournament.ends_on or tournament.starts_on, stamp, location=club.city,
            description=f"{tournament.get_format_display()} ({tournament.get_status_display()})",
            url=f"{base_url}/events/{tournament.pk}/",
        ))
    return calendar.to_ical()
