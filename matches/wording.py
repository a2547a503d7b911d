"""How the audit log says what matches writes: a match's life (created, imported, reported,
confirmed, set by its director, reopened, consent to the record, its clock and penalties), the
players without an account, a player's profile, claims of players and merges, an import's names.

Each action has its own sentence, read from the entry's ``before``, ``after`` and ``note`` as the
services write them (``matches.services.matches.match_summary``, ``matches.selectors.match_snapshot``).
Registered on ``audit.hooks.sentences`` by :class:`matches.apps.MatchesConfig`.
"""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_lazy, ngettext

from audit.describe import Sides, data, listing, score, side_name, who
from audit.hooks import Wording


def match_named(entry_data: dict) -> str:
    """The match of an entry as its sides name it ("Ana v Bob"), or "the match"."""
    sides = entry_data.get("sides")
    if isinstance(sides, list) and len(sides) == 2:
        return gettext("%(side0)s v %(side1)s") % {"side0": sides[0], "side1": sides[1]}
    return gettext("the match")


def length_said(entry_data: dict) -> str:
    """A match's length ("to 5 points"), or "a money session"."""
    length = entry_data.get("length")
    if not length:
        return gettext("a money session")
    return ngettext("to %(length)s point", "to %(length)s points", length) % {"length": length}


def corrected(before: dict, after: dict) -> bool:
    """Whether a confirmed result was replaced by another score."""
    return before.get("status") == "confirmed" and before.get("score") != after.get("score")


def with_note(sentence: str, entry) -> str:
    """``sentence`` followed by what its author said, if he said anything."""
    if entry.note:
        return gettext("%(sentence)s, saying: %(note)s") % {"sentence": sentence, "note": entry.note}
    return sentence


# --- a match ---------------------------------------------------------------------------------------


def created_sentence(entry, sides: Sides) -> str:
    after = data(entry.after)
    return gettext("%(who)s created the match %(match)s, %(length)s") % {
        "who": who(entry), "match": match_named(after), "length": length_said(after)}


def imported_sentence(entry, sides: Sides) -> str:
    after = data(entry.after)
    games = after.get("games") or 0
    return ngettext("%(who)s imported the match %(match)s, %(length)s, with %(games)s game",
                    "%(who)s imported the match %(match)s, %(length)s, with %(games)s games", games) % {
        "who": who(entry), "match": match_named(after), "length": length_said(after), "games": games}


def reported_sentence(entry, sides: Sides) -> str:
    before, after = data(entry.before), data(entry.after)
    values = {"who": who(entry), "side": side_name(after.get("side"), sides), "score": score(after.get("score"))}
    if before.get("score"):
        values["before"] = score(before["score"])
        return gettext("%(who)s changed the report of %(side)s from %(before)s to %(score)s") % values
    games = after.get("games") or 0
    if games:
        return ngettext("%(who)s reported %(score)s for %(side)s, with %(games)s game",
                        "%(who)s reported %(score)s for %(side)s, with %(games)s games", games) % {
            **values, "games": games}
    return gettext("%(who)s reported %(score)s for %(side)s") % values


def confirmed_sentence(entry, sides: Sides) -> str:
    before, after = data(entry.before), data(entry.after)
    values = {"who": who(entry), "score": score(after.get("score")), "before": score(before.get("score"))}
    if corrected(before, after):
        return gettext("Score corrected from %(before)s to %(score)s by %(who)s") % values
    return gettext("The result %(score)s was confirmed, by %(who)s") % values


def overridden_sentence(entry, sides: Sides) -> str:
    """The director set the result: a forfeit, a flag fall, a corrected score or a plain result."""
    before, after = data(entry.before), data(entry.after)
    values = {"who": who(entry), "score": score(after.get("score")), "before": score(before.get("score"))}
    origin = after.get("origin") if isinstance(after.get("origin"), dict) else {}
    if origin.get("code") == "forfeit":
        sentence = gettext("%(who)s set the result %(score)s: a forfeit, %(name)s withdrew") % {
            **values, "name": origin.get("name") or gettext("an entrant")}
    elif origin.get("code") == "flag_fall":  # the director recorded a flag fall
        sentence = gettext("%(who)s set the result %(score)s: a flag fall, %(name)s ran out of time") % {
            **values, "name": origin.get("name") or gettext("a player")}
    elif corrected(before, after):
        sentence = gettext("Score corrected from %(before)s to %(score)s by %(who)s") % values
    else:
        sentence = gettext("%(who)s set the result: %(score)s") % values
    return with_note(sentence, entry)


def reopened_sentence(entry, sides: Sides) -> str:
    before = data(entry.before)
    values = {"who": who(entry), "before": score(before.get("score"))}
    if before.get("status") == "confirmed":
        return gettext("%(who)s reopened the match: the result %(before)s no longer stands") % values
    return gettext("%(who)s reopened the match") % values


def _consent_values(entry, sides: Sides) -> dict:
    return {"who": who(entry), "side": side_name(data(entry.after).get("side"), sides)}


def consent_given_sentence(entry, sides: Sides) -> str:
    return gettext("%(who)s confirmed, for %(side)s, that the match counts on the record") % _consent_values(entry, sides)


def consent_declined_sentence(entry, sides: Sides) -> str:
    return gettext("%(who)s declined, for %(side)s, to have the match on the record") % _consent_values(entry, sides)


def consent_reset_sentence(entry, sides: Sides) -> str:
    return gettext("The result %(who)s set waits for %(side)s to confirm it before it counts on the record") % (
        _consent_values(entry, sides))


# --- the match's clock: a flag fall recorded, a clock introduced mid-match, penalty points ---------------


def minutes(seconds) -> str:
    """Seconds of a clock, as minutes when whole."""
    if not isinstance(seconds, int):
        return gettext("an unknown time")
    if seconds % 60 == 0:
        return ngettext("%(count)d minute", "%(count)d minutes", seconds // 60) % {"count": seconds // 60}
    return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}


def flag_fell_sentence(entry, sides: Sides) -> str:
    after = data(entry.after)
    return gettext("%(who)s recorded a flag fall: %(side)s ran out of time and loses the match") % {
        "who": who(entry), "side": after.get("name") or side_name(after.get("side"), sides)}


def clock_introduced_sentence(entry, sides: Sides) -> str:
    after = data(entry.after)
    return gettext("%(who)s introduced a clock at %(score)s: %(reserve)s for each side") % {
        "who": who(entry), "score": score(after.get("score")), "reserve": minutes(after.get("reserve_seconds"))}


def penalty_sentence(entry, sides: Sides) -> str:
    """Penalty points given mid-match (``matches.services.penalties``)."""
    after = data(entry.after)
    side = after.get("side")
    points = after.get("points") or 0
    values = {"who": who(entry), "side": side_name(side, sides),
              "opponent": side_name(1 - side if side in (0, 1) else None, sides),
              "points": points, "before": score(after.get("before")), "after": score(after.get("after"))}
    sentence = ngettext("%(who)s gave %(side)s %(points)s penalty point at %(before)s: the score is %(after)s",
                        "%(who)s gave %(side)s %(points)s penalty points at %(before)s: the score is %(after)s",
                        points) % values
    if after.get("ended_match"):
        return gettext("%(sentence)s, and %(opponent)s wins the match") % {"sentence": sentence, **values}
    if after.get("crawford_next"):
        return gettext("%(sentence)s, and the next game is the Crawford game") % {"sentence": sentence}
    return sentence


# --- a player without an account (matches.services.guests) -------------------------------------------


def _player_values(entry) -> dict:
    before, after = data(entry.before), data(entry.after)
    return {"who": who(entry), "player": (after or before).get("name") or gettext("a player")}


def guest_created_sentence(entry, sides: Sides) -> str:
    values = _player_values(entry)
    if data(entry.after).get("invited"):
        return gettext("%(who)s entered %(player)s, a player without an account, and invited him by email") % values
    return gettext("%(who)s entered %(player)s, a player without an account") % values


def guest_invited_sentence(entry, sides: Sides) -> str:
    return gettext("%(who)s invited %(player)s by email to claim his player") % _player_values(entry)


def guest_claimed_sentence(entry, sides: Sides) -> str:
    values = {**_player_values(entry), "user": data(entry.after).get("user") or gettext("a user")}
    return gettext("%(user)s claimed the player %(player)s") % values


# --- a player's profile ---------------------------------------------------------------------------


PROFILE_FIELDS = {
    "display_name": gettext_lazy("display name"),
    "country": gettext_lazy("country"),
    "preferred_language": gettext_lazy("preferred language"),
    "email_public": gettext_lazy("whether the email address is shown"),
    "real_name_public": gettext_lazy("whether the real name is shown"),
}


def profile_sentence(entry, sides: Sides) -> str:
    """A player changed his own profile (``player.profile_updated``): which parts, by name."""
    fields = [PROFILE_FIELDS[key] for key in PROFILE_FIELDS if key in data(entry.after)]
    values = {"who": who(entry), "fields": listing(fields)}
    if fields:
        return gettext("%(who)s changed his profile: %(fields)s") % values
    return gettext("%(who)s changed his profile") % values


# --- claims of players and merges (matches.services.claims) ---------------------------------------


#: The refusals the application makes itself (``matches.models.PlayerClaim.Reason``), by code; an
#: older entry kept the English text as its reason, read as the code it was.
CLAIM_REASONS = {"given_to_another": gettext_lazy("The player was given to another user's claim.")}
CLAIM_REASONS_STORED = {"The player was given to another user's claim.": "given_to_another"}


def claim_reason(after: dict) -> str:
    """A claim's refusal reason as the reader reads it: the application's in his language, a
    director's as he wrote it."""
    reason = after.get("reason") or ""
    code = after.get("reason_code") or CLAIM_REASONS_STORED.get(reason)
    if code in CLAIM_REASONS:
        return str(CLAIM_REASONS[code])
    return reason


def _claim_values(entry) -> dict:
    after = data(entry.after)
    return {"who": who(entry), "player": after.get("player") or gettext("a player"),
            "claimant": after.get("claimant") or gettext("a user")}


def claim_requested_sentence(entry, sides: Sides) -> str:
    return gettext("%(who)s claimed to be %(player)s") % _claim_values(entry)


def claim_approved_sentence(entry, sides: Sides) -> str:
    sentence = gettext("%(who)s approved the claim of %(claimant)s to be %(player)s") % _claim_values(entry)
    removed = entry.note.partition("removed:")[2] if entry.note.startswith("removed:") else ""
    if removed:
        sentence = gettext("%(sentence)s; his own empty player %(removed)s was removed") % {
            "sentence": sentence, "removed": removed}
    return sentence


def claim_refused_sentence(entry, sides: Sides) -> str:
    values = {**_claim_values(entry), "reason": claim_reason(data(entry.after)) or gettext("no reason given")}
    return gettext("%(who)s refused the claim of %(claimant)s to be %(player)s: %(reason)s") % values


def claim_withdrawn_sentence(entry, sides: Sides) -> str:
    return gettext("%(who)s withdrew the claim to be %(player)s") % _claim_values(entry)


def merge_sentence(entry, sides: Sides) -> str:
    """Two players merged into one by staff: the matches kept and the rating rated again."""
    before, after = data(entry.before), data(entry.after)
    matches = after.get("matches") or 0
    values = {"who": who(entry), "source": before.get("source") or gettext("a player"),
              "target": before.get("target") or gettext("another player"), "matches": matches}
    sentence = ngettext("%(who)s merged %(source)s into %(target)s: %(matches)s match moved",
                        "%(who)s merged %(source)s into %(target)s: %(matches)s matches moved", matches) % values
    rating = after.get("rating")
    if isinstance(rating, (int, float)):
        sentence = gettext("%(sentence)s, rating now %(rating)s") % {"sentence": sentence,
                                                                      "rating": number_format(rating, 2)}
    return sentence


def import_sentence(entry, sides: Sides) -> str:
    """An import's names said to be players: how many mapped to players, made guests, skipped."""
    mapping = data(entry.after).get("mapping") or {}
    values = {"who": who(entry),
              "players": sum(isinstance(choice, int) for choice in mapping.values()),
              "guests": sum(choice == "guest" for choice in mapping.values()),
              "skipped": sum(choice == "skip" for choice in mapping.values())}
    return gettext("%(who)s said who the players of an import are: %(players)s known players, "
                   "%(guests)s new guests, %(skipped)s names skipped") % values


WORDING = Wording("matches", {
    "match.created": (gettext_lazy("Match created"), created_sentence),
    "match.imported": (gettext_lazy("Match imported"), imported_sentence),
    "match.reported": (gettext_lazy("Result reported"), reported_sentence),
    "match.result_confirmed": (gettext_lazy("Result confirmed"), confirmed_sentence),
    "match.result_overridden": (gettext_lazy("Result set by the director"), overridden_sentence),
    "match.reopened": (gettext_lazy("Match reopened"), reopened_sentence),
    "match.consent_given": (gettext_lazy("Consent to the record given"), consent_given_sentence),
    "match.consent_declined": (gettext_lazy("Consent to the record declined"), consent_declined_sentence),
    "match.consent_reset": (gettext_lazy("Consent to the record asked again"), consent_reset_sentence),
    "match.flag_fell": (gettext_lazy("Flag fall recorded"), flag_fell_sentence),
    "match.clock_introduced": (gettext_lazy("Clock introduced"), clock_introduced_sentence),
    "match.penalty_given": (gettext_lazy("Penalty points given"), penalty_sentence),
    "player.guest_created": (gettext_lazy("Walk-in player entered"), guest_created_sentence),
    "player.invited": (gettext_lazy("Player invited to claim"), guest_invited_sentence),
    "player.claimed": (gettext_lazy("Player claimed"), guest_claimed_sentence),
    "player.profile_updated": (gettext_lazy("Profile changed"), profile_sentence),
    "claim.requested": (gettext_lazy("Player claimed"), claim_requested_sentence),
    "claim.approved": (gettext_lazy("Claim approved"), claim_approved_sentence),
    "claim.refused": (gettext_lazy("Claim refused"), claim_refused_sentence),
    "claim.withdrawn": (gettext_lazy("Claim withdrawn"), claim_withdrawn_sentence),
    "player.merged": (gettext_lazy("Players merged"), merge_sentence),
    "import.mapped": (gettext_lazy("Import's players named"), import_sentence),
}, values={
    "scheduled": gettext_lazy("scheduled"), "in_play": gettext_lazy("in play"), "reported": gettext_lazy("reported"),
    "confirmed": gettext_lazy("confirmed"), "disputed": gettext_lazy("disputed"),
    "pending": gettext_lazy("pending"), "given": gettext_lazy("given"), "declined": gettext_lazy("declined"),
    "agreed": gettext_lazy("agreed"), "contested": gettext_lazy("contested"), "superseded": gettext_lazy("superseded"),
})
