"""How tournaments plugs into the apps below it (``matches.hooks``, ``analysis.hooks``), connected
by :class:`tournaments.apps.TournamentsConfig` when the app is ready (:func:`connect`).

- The event context: an event holds its matches (``EventMatch``); ``match_create(context={"event":
  tournament})`` links a new match to it (its organiser, unless given: the event's); the event's
  organiser directs every match of the event, whoever the match's own organiser is; the matches
  API takes, filters on and answers ``event`` as before; every audit entry about an event's match
  carries the event's id (the event's audit log shows it); a match's page (``EVENT_FACT``) and its
  .mat file name the event, and in an elimination event the round ("Losers' round 2").
- Consent for the record (``matches.services.consent``): an event vouches for its matches'
  sides (their consent is given at creation), and an event's organiser may confirm for one of
  its entrants a match outside any event (``_directs_player``).
- The result hooks: a confirmed, overridden or reopened result of an event's match syncs the
  event's draw in the same transaction (``tournament_result_confirmed``), after the match's own
  records (``ORDER_BUILT_ON``): a change the draw refuses rolls the whole change back.
- The depth of the analysis of an event's matches (``Tournament.analysis_plies``), given to
  analysis through ``analysis.hooks.plies_sources`` (analysis imports no tournaments).
- The events a player played: a section of his page (``EVENTS_SECTION``), the events he entered
  alone, in a pair or in a team (not withdrawn), the latest first.
"""

from __future__ import annotations

from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from analysis.hooks import plies_sources
from audit.hooks import sentences
from core.errors import NotAllowed
from matches import hooks
from matches.models import Player

from . import hosts, wording
from .api.serializers.events import EventBriefSerializer
from .models import EVENT_JOIN, Entry, EventMatch, TeamMember, Tournament, event_id_of, event_of
from .round_labels import round_label
from .selectors.brackets import match_round_name
from .services import tournament_result_confirmed
from .services.acceptance import Vouching, event_vouches

# --- the event context ----------------------------------------------------------------------------


def _prepare(*, created_by, event: Tournament) -> hooks.Attachment:
    def attach(match) -> None:
        EventMatch.objects.create(match=match, tournament=event)

    def attach_many(matches) -> None:
        # Building each link caches it on its match (a one-to-one), as create() does.
        EventMatch.objects.bulk_create([EventMatch(match=match, tournament=event) for match in matches])

    # The event vouches for the players who stand behind it and whom it is run for, and for its
    # players without an account (see services.acceptance); read once for all its new matches.
    return hooks.Attachment(attach=attach, organiser=event.organiser, vouches=Vouching(event).vouches,
                            attach_many=attach_many)


def _vouches_for(match, players) -> bool:
    event = event_of(match)
    return event is not None and event_vouches(event, players)


def _directs_player(user, player_id: int) -> bool:
    """``user`` organises an event the player is in and the event vouches for him: a player with
    an account who accepted it (and the event is run for him: see ``services.acceptance``), or a
    player without one entered in it (alone, in a pair or in a team)."""
    guest = Q(side__player_a_id=player_id, side__player_a__user__isnull=True) | Q(
        side__player_b_id=player_id, side__player_b__user__isnull=True)
    if Entry.objects.filter(guest, tournament__organiser_id=user.pk).exists() or TeamMember.objects.filter(
            tournament__organiser_id=user.pk, player_id=player_id, player__user__isnull=True).exists():
        return True
    accepted = Tournament.objects.filter(organiser_id=user.pk, acceptances__player_id=player_id)
    if user.is_organiser:
        return accepted.exists()
    # A club's owner without the organiser role runs his club's events for its members only.
    return any(event.club is not None and hosts.member_players(event.club.pk, [player_id])
               for event in accepted.select_related(*hosts.host_joins()))


def _players_in(entries, members, links=None) -> Q:
    """A ``Q`` on ``Player``: the players of ``entries`` (their sides), of ``members`` (team
    members) and, when given, of the matches of ``links`` (``EventMatch`` rows)."""
    q = (Q(pk__in=entries.values("side__player_a")) | Q(pk__in=entries.values("side__player_b"))
         | Q(pk__in=members.values("player")))
    if links is not None:
        for side in ("side0", "side1"):
            q |= Q(pk__in=links.values(f"match__{side}__player_a")) | Q(pk__in=links.values(f"match__{side}__player_b"))
    return q


def _claim_players(user):
    """The players of the events ``user`` organises: entrants (alone, in a pair, in a team) and
    the players of their matches. Whose claims he may decide (``hooks.ClaimDirector``)."""
    events = Tournament.objects.filter(organiser_id=user.pk).values("pk")
    return Player.objects.filter(_players_in(
        Entry.objects.filter(tournament_id__in=events, side__isnull=False),
        TeamMember.objects.filter(tournament_id__in=events), EventMatch.objects.filter(tournament_id__in=events),
    )).values("pk")


def _claim_entered(user):
    """The players ``user`` put in events himself, whose claims he may not decide: those of the
    entries he made (alone, in a pair, in a team), those of his events' entries made before who
    entered was kept (his, as their organiser's), and the players of the matches he created or
    imported in his events."""
    events = Tournament.objects.filter(organiser_id=user.pk).values("pk")
    entries = Entry.objects.filter(Q(entered_by_id=user.pk) | Q(tournament_id__in=events, entered_by__isnull=True))
    return Player.objects.filter(_players_in(
        entries, TeamMember.objects.filter(team__entry__in=entries),
        EventMatch.objects.filter(tournament_id__in=events, match__created_by_id=user.pk),
    )).values("pk")


def _claim_tied(user):
    """The users tied to ``user`` through events: the account holders entered in his events."""
    events = Tournament.objects.filter(organiser_id=user.pk).values("pk")
    return Player.objects.filter(_players_in(
        Entry.objects.filter(tournament_id__in=events, side__isnull=False),
        TeamMember.objects.filter(tournament_id__in=events),
    ), user__isnull=False).values("user_id")


def _entrants(event: Tournament):
    """The players who entered ``event``: alone, in a pair or in a team."""
    return Player.objects.filter(
        Q(pk__in=Entry.objects.filter(tournament=event, side__isnull=False).values("side__player_a"))
        | Q(pk__in=Entry.objects.filter(tournament=event, side__player_b__isnull=False).values("side__player_b"))
        | Q(pk__in=TeamMember.objects.filter(tournament=event).values("player"))
    )


def _may_create(user, values: dict) -> None:
    event = values.get("event")
    if event is not None and not (user.is_staff or event.organiser_id == user.pk):
        raise NotAllowed("only the event's organiser may add a match to it", code="not_event_organiser")


def _directs(match, user) -> bool:
    event = event_of(match)
    return event is not None and event.organiser_id == user.pk


def _describe(match) -> str | None:
    """The event's name, and in an elimination event the round ("Spring Open, Losers' round 2")."""
    event = event_of(match)
    if event is None:
        return None
    name = match_round_name(tournament=event, match_id=match.pk)
    if name is None:
        return event.name
    return _("%(event)s, %(round)s") % {"event": event.name, "round": round_label(name)}


EVENT_CONTEXT = hooks.MatchContext(
    name="event",
    order=10,
    link="event_link",
    joins=(EVENT_JOIN,),
    inputs=("event",),
    prepare=_prepare,
    audit_ids=lambda match: {"tournament_id": event_id_of(match)},
    summary=lambda match: {"event": event_id_of(match)},
    directs=_directs,
    directed_by=lambda user: Q(event_link__tournament__organiser=user),
    director_fields=(f"{EVENT_JOIN}__organiser",),
    input_fields=lambda: {
        "event": serializers.PrimaryKeyRelatedField(queryset=Tournament.objects.all(), required=False, allow_null=True),
    },
    may_create=_may_create,
    filter_fields=lambda: {
        "event": serializers.IntegerField(required=False, min_value=1, help_text="a tournament id"),
    },
    apply_filter=lambda matches, values: matches.filter(event_link__tournament_id=values["event"]),
    response_fields=lambda: {"event": EventBriefSerializer(source="event_link.tournament", allow_null=True)},
    label=_("Event"),
    describe=_describe,
    mat_tag="Event",
    members=_entrants,
    vouches_for=_vouches_for,
)

#: The event (and round) a match's page names among its facts.
EVENT_FACT = hooks.PageSection(name="event", order=10, title=_("Event"), fact=_describe)


# --- the result hooks -----------------------------------------------------------------------------


def _result_changed(*, match, **_payload) -> None:
    tournament_result_confirmed(match=match)


# --- the events a player played (his page) ---------------------------------------------------------


_EVENT_NOTES = {
    Tournament.Status.FINISHED: _("finished"),
    Tournament.Status.RUNNING: _("under way"),
}


def _events_played(player, limit: int) -> list[hooks.PlayerItem]:
    """The events ``player`` entered (alone, in a pair or in a team; not withdrawn), the latest
    first, in one query."""
    entered = (Q(entries__side__player_a=player) | Q(entries__side__player_b=player)) & ~Q(
        entries__status=Entry.Status.WITHDRAWN)
    events = (Tournament.objects.filter(entered | Q(teams__members__player=player)).distinct()
              .exclude(status=Tournament.Status.DRAFT)  # a draft is its organiser's alone
              .order_by(F("starts_on").desc(nulls_last=True), "-created_at", "-id")
              .only("id", "name", "starts_on", "created_at", "status")[:limit])
    return [hooks.PlayerItem(text=event.name, url=reverse("tournaments:detail", args=[event.pk]),
                             on=event.starts_on, note=str(_EVENT_NOTES.get(event.status, _("entered"))))
            for event in events]


EVENTS_SECTION = hooks.PageSection(
    name="events", order=10, title=_("Events played"), empty=_("No events yet."), items=_events_played,
)


def _analysis_plies(match) -> int | None:
    """The depth an event's match is analysed at (``Tournament.analysis_plies``); None outside an
    event. Read through the match's joins (``EVENT_JOIN``): no query."""
    event = event_of(match)
    return None if event is None else event.analysis_plies


def connect() -> None:
    sentences.register(wording.WORDING)
    plies_sources.connect(_analysis_plies, name="tournaments.event")
    hooks.match_contexts.register(EVENT_CONTEXT)
    hooks.match_page.register(EVENT_FACT)
    hooks.player_page.register(EVENTS_SECTION)
    hooks.player_directors.register(hooks.PlayerDirector(name="tournaments.event", directs=_directs_player))
    hooks.claim_directors.register(hooks.ClaimDirector(name="tournaments.event", players=_claim_players,
                                                       entered=_claim_entered, tied=_claim_tied))
    hooks.result_confirmed.connect(_result_changed, name="tournaments.tournament_result_confirmed",
                                   order=hooks.ORDER_BUILT_ON)
    hooks.result_reopened.connect(_result_changed, name="tournaments.tournament_result_confirmed",
                                  order=hooks.ORDER_BUILT_ON)
