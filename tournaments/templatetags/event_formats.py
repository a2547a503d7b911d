"""The event's format in a template: the partials every page of an event includes (its links, its
printed sheets, the walk-in form) ask it what to show instead of testing the format."""

from django import template

from tournaments import formats

register = template.Library()


@register.filter
def event_format(tournament):
    """The format of ``tournament`` (``tournaments.formats.format_of``): its pages, its draw, its
    kind of entrant. No query."""
    return formats.format_of(tournament)
