"""Every link in every email the service sends is absolute (an email is read in a mail client, where
"/matches/3/" leads nowhere): on ``CRAWFORD_SITE_URL`` when it is set, else on the address of the
request that caused the email, kept on its outbox row, since the email is sent by a task after the
request has ended (core/links.py).

Each kind of email is caused here as people cause it (the services, allauth's pages), the outbox
rows' tasks run afterwards, away from any request, and every message is searched for links: each
must start with the site's address, and none may be a bare path."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from allauth.account.models import EmailAddress
from celery import current_app
from django.conf import settings
from django.core import mail
from django.core.cache import cache
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse

from accounts.organiser.services import organiser_approve, organiser_refuse, organiser_request, organiser_revoke
from core.links import absolute_url, current_origin, origin_kept, serving, site_url
from core.models import OutboxTask
from matches.services.claims import claim_approve, claim_refuse, claim_request
from matches.services.guests import player_create_guest
from matches.services.reporting import Claim, match_confirm, match_contest, match_report
from rulings.services.appeals import appeal_lodge, committee_name, vote_cast
from rulings.services.disputes import dispute_open
from rulings.services.rulings import ruling_make
from tests.clubs.factories import club_cast
from tests.factories import MatchFactory, PlayerFactory, UserFactory
from tests.matches.factories_api import client_for, make_cast
from tests.matches.factories_ratings import run_tasks_inline
from tests.tournaments.factories import closed, enter
from tournaments.services.life import tournament_cancel

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
SITE = "https://crawford.example.org"
LAPTOP_HOST = "laptop.example.test:8000"
LAPTOP = f"http://{LAPTOP_HOST}"

#: The tasks that send email, each with the kinds it sends (its first string argument, or the task alone).
EMAIL_TASKS = {
    "matches.tasks.invitation_email_task", "matches.tasks.match_notify_task", "matches.tasks.claim_notify_task",
    "accounts.tasks.organiser_notify_task", "accounts.tasks.account_email_send_task",
    "tournaments.tasks.tournament_cancelled_notify_task", "rulings.tasks.rulings_notify_task",
}
#: The modules that build an email: a new one must be added to this test (see the last test).
BUILDERS = {
    "accounts/adapter.py", "accounts/services.py", "accounts/organiser/notifications.py", "accounts/notices.py",
    "matches/services/invitations.py", "matches/services/notifications.py",
    "tournaments/services/notifications.py", "rulings/services/notifications.py",
    "core/mail.py",  # sends, once, the messages the notifications above build (send_once)
}

URL = re.compile(r"https?://[^\s<>\"'()]+")
# A slash that begins a path without a scheme and host before it: "/claims/", "See /matches/3/".
BARE_PATH = re.compile(r"(?<![\w.:/%-])/[\w%~.-]")
HREF = re.compile(r"""href\s*=\s*["']([^"']*)["']""")


def links_of(message) -> tuple[list[str], list[str]]:
    """The absolute URLs in ``message`` (subject, body, HTML alternative), and whatever looks like
    a link that is not absolute (a bare path, an href not starting with http(s)://)."""
    texts = [message.subject, message.body] + [content for content, _type in getattr(message, "alternatives", [])]
    urls, bare = [], []
    for text in texts:
        urls += URL.findall(text)
        bare += [href for href in HREF.findall(text) if not href.startswith(("http://", "https://"))]
        bare += [text[max(0, m.start() - 20):m.end() + 20] for m in BARE_PATH.finditer(URL.sub("", text))]
    return urls, bare


def deliver() -> list[tuple[str, str]]:
    """Run the email tasks of the outbox rows not done, as a worker would (away from any request);
    returns (task, kind) of each."""
    assert current_origin() == "", "delivered inside a request: the test would prove nothing"
    ran = []
    for row in OutboxTask.objects.filter(done_at=None, task__in=EMAIL_TASKS).order_by("pk"):
        current_app.tasks[row.task](*row.args, outbox_id=row.pk)
        kind = row.args[0] if row.task.endswith(("organiser_notify_task", "rulings_notify_task")) else (
            row.args[1] if row.task.endswith("match_notify_task") else "")
        ran.append((row.task.rsplit(".", 1)[1], kind))
    return ran


@pytest.fixture
def fresh_limits():
    """allauth's per-address email limits (one verification email per address every 3 minutes)
    and the throttles count in the cache: none left from another test, none left for one."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def laptop_request():
    with override_settings(ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "laptop.example.test"]):
        yield RequestFactory().post("/", HTTP_HOST=LAPTOP_HOST)


def cause_every_email(request) -> list[tuple[str, str]]:
    """Cause each kind of email the service sends, as its people cause it, each change in
    ``request`` (its origin known, as the middleware makes it known), the emails delivered after
    it; returns the (task, kind) delivered, in order."""
    cast = make_cast()
    staff, ran = cast.staff, []

    def step(change):
        with serving(request):
            change()
        ran.extend(deliver())

    # A walk-in invited to claim his player.
    step(lambda: player_create_guest(actor=cast.organiser, name="Walter", email="walter@example.com"))
    # A result reported (the other side asked to confirm), contested; another reported and confirmed.
    match = cast.match
    step(lambda: match_report(match_id=match.pk, user=cast.alice, claim=Claim((5, 2))))
    step(lambda: match_contest(match_id=match.pk, user=cast.bob, statement="It was 5-3."))
    second = MatchFactory(side0=match.side0, side1=match.side1, organiser=cast.organiser, length=5)
    step(lambda: match_report(match_id=second.pk, user=cast.alice, claim=Claim((5, 1))))
    step(lambda: match_confirm(match_id=second.pk, user=cast.bob))
    # Claims of imported players decided, both ways.
    for name, decide in (("lasse", lambda claim: claim_approve(claim_id=claim.pk, user=staff)),
                         ("mads", lambda claim: claim_refuse(claim_id=claim.pk, user=staff, reason="Not him."))):
        imported = PlayerFactory(user=None, display_name=name)
        claim = claim_request(player_id=imported.pk, user=UserFactory(username=f"{name}-claimant"))
        step(lambda claim=claim, decide=decide: decide(claim))
    # Organiser requests approved and refused; a role withdrawn.
    asked = organiser_request(user=cast.carol, statement="I run Tuesday nights.")
    step(lambda: organiser_approve(request_id=asked.pk, user=staff))
    dora = UserFactory(username="dora")
    refused = organiser_request(user=dora, statement="Me too.")
    step(lambda: organiser_refuse(request_id=refused.pk, user=staff, reason="Not yet."))
    step(lambda: organiser_revoke(user_id=cast.carol.pk, user=staff, reason="No events for a year."))
    # An event cancelled, its entrants told.
    event = closed(organiser=cast.organiser)
    enter(event, [cast.match.side0.player_a, cast.match.side1.player_a])
    step(lambda: tournament_cancel(tournament_id=event.pk, user=cast.organiser, reason="The hall is flooded."))
    # A ruling, its appeal, the committee named, the appeal decided.
    third = MatchFactory(side0=match.side0, side1=match.side1, organiser=cast.organiser, length=5)
    dispute = dispute_open(match_id=third.pk, user=cast.alice, category="conduct", statement="He rolled early.")
    ruling = []
    step(lambda: ruling.append(ruling_make(dispute_id=dispute.pk, user=cast.organiser, outcome="warning",
                                           params={"side": 1}, rule="RULES 9", reasoning="A first early roll.")))
    appeal = []
    step(lambda: appeal.append(appeal_lodge(ruling_id=ruling[0].pk, user=cast.bob, grounds="I had not.")))
    judges = [UserFactory(username=name) for name in ("jon", "kim", "lee")]
    step(lambda: committee_name(appeal_id=appeal[0].pk, user=cast.organiser, member_ids=[j.pk for j in judges]))
    step(lambda: [vote_cast(appeal_id=appeal[0].pk, user=judge, decision="uphold") for judge in judges[:2]])
    return ran


def cause_every_account_email(host: str) -> list[tuple[str, str]]:
    """allauth's emails, caused through its pages on ``host``: the sign-up's verification, an
    address already taken, a password reset for a known and an unknown address, an email change
    (the current address told, then the new one's link)."""
    form = {"display_name": "Layla", "password1": "a-long-pass-phrase", "password2": "a-long-pass-phrase"}
    noor = UserFactory(username="noor", email="noor@example.org")
    EmailAddress.objects.create(user=noor, email=noor.email, verified=True, primary=True)
    ran = []
    for username, email in (("layla", "layla@example.org"), ("noor2", noor.email)):
        signed_up = Client(HTTP_HOST=host).post(reverse("account_signup"), {**form, "username": username, "email": email})
        assert signed_up.status_code == 302
        ran.extend(deliver())
    for email in (noor.email, "nobody@example.org"):
        assert Client(HTTP_HOST=host).post(reverse("account_reset_password"), {"email": email}).status_code == 302
        ran.extend(deliver())
    browser = Client(HTTP_HOST=host)
    browser.force_login(noor)
    assert browser.post(reverse("account_email"), {"email": "noor@example.net", "action_add": ""}).status_code == 302
    ran.extend(deliver())
    return ran


KINDS = [
    ("invitation_email_task", ""), ("match_notify_task", "reported"), ("match_notify_task", "disputed"),
    ("match_notify_task", "reported"), ("match_notify_task", "confirmed"), ("claim_notify_task", ""),
    ("claim_notify_task", ""), ("organiser_notify_task", "decided"), ("organiser_notify_task", "decided"),
    ("organiser_notify_task", "revoked"), ("tournament_cancelled_notify_task", ""), ("rulings_notify_task", "ruling"),
    ("rulings_notify_task", "appeal_lodged"), ("rulings_notify_task", "committee_named"),
    ("rulings_notify_task", "appeal_decided"),
]
ACCOUNT_SUBJECTS = ["Confirm your email address to finish signing up", "You already have a Crawford account",
                    "Choose a new password for your Crawford account", "No Crawford account has this email address",
                    "A change of your email address was asked", "Confirm your email address"]


def assert_all_links_on(base: str) -> None:
    assert mail.outbox
    for message in mail.outbox:
        urls, bare = links_of(message)
        assert bare == [], f"{message.subject!r} has links that are not absolute: {bare}"
        assert urls, f"{message.subject!r} carries no link"
        assert all(url == base or url.startswith(base + "/") for url in urls), (message.subject, urls)


@pytest.mark.parametrize("configured", [SITE, ""], ids=["site URL set", "laptop: no site URL"])
def test_every_link_in_every_email_is_absolute_on_the_sites_address(laptop_request, configured, monkeypatch,
                                                                    fresh_limits):
    run_tasks_inline(monkeypatch, run=False)
    with override_settings(CRAWFORD_SITE_URL=configured):
        ran = cause_every_email(laptop_request) + cause_every_account_email(LAPTOP_HOST)
    assert ran[:len(KINDS)] == KINDS
    assert [task for task, _kind in ran[len(KINDS):]] == ["account_email_send_task"] * len(ACCOUNT_SUBJECTS)
    subjects = [m.subject.removeprefix("[Crawford] ") for m in mail.outbox[-len(ACCOUNT_SUBJECTS):]]
    assert subjects == ACCOUNT_SUBJECTS
    assert_all_links_on(configured or LAPTOP)


def test_a_walk_ins_invitation_links_to_the_host_its_request_came_to_when_sent_after_it(laptop_request, monkeypatch,
                                                                                       django_capture_on_commit_callbacks):
    """Through a real request (the middleware), its task run by the outbox once the request ended."""
    dispatched = run_tasks_inline(monkeypatch)
    club = club_cast()
    with override_settings(CRAWFORD_SITE_URL=""), django_capture_on_commit_callbacks(execute=True):
        answer = client_for(club.organiser).post(reverse("api-club-membership-walk-in", args=[club.club.pk]),
                                                 {"name": "Walter", "email": "walter@example.com"}, format="json",
                                                 HTTP_HOST=LAPTOP_HOST)
    assert answer.status_code == 201, answer.content
    assert [task for task, _args in dispatched] == ["matches.tasks.invitation_email_task"]
    assert OutboxTask.objects.get(task="matches.tasks.invitation_email_task").origin == LAPTOP
    assert re.search(rf"{re.escape(LAPTOP)}/invitations/[0-9a-f]{{64}}/", mail.outbox[0].body)


def test_the_helper_prefers_the_site_url_then_the_request_then_the_kept_origin(laptop_request):
    with override_settings(CRAWFORD_SITE_URL=SITE + "/"), serving(laptop_request):
        assert absolute_url("/claims/") == f"{SITE}/claims/" and site_url() == SITE
    with override_settings(CRAWFORD_SITE_URL=""):
        with serving(laptop_request):
            assert absolute_url("claims/?a=1#b") == f"{LAPTOP}/claims/?a=1#b"
        with origin_kept("http://kept.example.test"):
            assert absolute_url("/claims/") == "http://kept.example.test/claims/"
        assert absolute_url("https://elsewhere.example.org/x") == "https://elsewhere.example.org/x"
        assert absolute_url("/claims/").startswith(("http://", "https://"))


def test_every_module_that_builds_an_email_is_covered_here():
    found = set()
    for path in ROOT.glob("*/**/*.py"):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith((".venv/", "tests/", "bench/")):
            continue
        text = path.read_text(encoding="utf-8")
        if re.search(r"\b(EmailMessage|EmailMultiAlternatives|send_mail|send_mass_mail|mail_admins)\b", text):
            found.add(relative)
    assert found == BUILDERS
