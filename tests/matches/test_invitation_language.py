"""An invitation to claim a guest player is written in the invitee's language when it is known (the
preferred language of the account holding the invited address, whatever its case), else in the
site's: never in the language of the organiser who entered the guest, nor of his request. (Neither
an event nor a club has a language of its own; a guest player has none either.)

The catalogs are our own few sentences (tests/test_i18n.py's way): the test does not depend on what
the translators have merged."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import override_settings
from django.urls import reverse

from config import views as config_views
from matches.models import PlayerInvitation
from matches.services.invitations import invitation_language
from tests.clubs.factories import club_cast
from tests.factories import UserFactory
from tests.matches.factories_api import client_for
from tests.matches.factories_ratings import run_tasks_inline
from tests.test_i18n import write_catalog

pytestmark = pytest.mark.django_db

SUBJECT = "An invitation to claim your player on Crawford"
WORDS = {"ar": "دعوة إلى المطالبة بلاعبك على Crawford", "ko": "Crawford에서 선수를 가져가라는 초대"}


@pytest.fixture
def catalogs(tmp_path):
    """Arabic and Korean catalogs holding the invitation's subject, in place of the project's."""
    for language, words in WORDS.items():
        write_catalog(tmp_path, language, {SUBJECT: words})
    config_views._catalogs.clear()
    with override_settings(LOCALE_PATHS=[tmp_path]):
        yield
    config_views._catalogs.clear()


@pytest.fixture
def organiser_in_arabic():
    """The club's organiser prefers Arabic and browses in it."""
    club = club_cast(organiser=UserFactory(username="otis", preferred_language="ar"))
    return club


def invite(club, monkeypatch, capture, email: str):
    """Otis enters a walk-in with ``email`` through the API, in Arabic; the invitation's email."""
    run_tasks_inline(monkeypatch)
    with capture(execute=True):
        answer = client_for(club.organiser).post(reverse("api-club-membership-walk-in", args=[club.club.pk]),
                                                 {"name": "Walter", "email": email}, format="json",
                                                 HTTP_ACCEPT_LANGUAGE="ar")
    assert answer.status_code == 201, answer.content
    [message] = mail.outbox
    return message


def test_an_invitee_without_an_account_reads_the_sites_language_not_the_arabic_organisers(
        catalogs, organiser_in_arabic, monkeypatch, django_capture_on_commit_callbacks):
    message = invite(organiser_in_arabic, monkeypatch, django_capture_on_commit_callbacks, "walter@example.com")
    assert message.subject == "An invitation to claim your player on Crawford"
    assert not any("\u0600" <= char <= "\u06ff" for char in message.subject + message.body)


@pytest.mark.parametrize("language", ["ko", "ar"])
def test_an_invitee_with_an_account_reads_his_own_language(catalogs, organiser_in_arabic, monkeypatch, language,
                                                           django_capture_on_commit_callbacks):
    walter = UserFactory(username="walter", email="walter@example.net", preferred_language=language)
    # The invited address is one of his, written with other capitals.
    EmailAddress.objects.create(user=walter, email="Walter@Example.com", verified=True, primary=False)
    message = invite(organiser_in_arabic, monkeypatch, django_capture_on_commit_callbacks, "walter@example.com")
    assert message.subject == WORDS[language]


def test_the_verified_holder_of_the_address_is_the_invitee():
    UserFactory(username="someone", email="walter@example.com", preferred_language="ar")
    walter = UserFactory(username="walter", email="w@example.net", preferred_language="ko")
    EmailAddress.objects.create(user=walter, email="walter@example.com", verified=True)
    invitation = PlayerInvitation(email="walter@example.com")
    assert invitation_language(invitation) == "ko"
    EmailAddress.objects.filter(user=walter).delete()
    assert invitation_language(invitation) == "ar"
    UserFactory._meta.model.objects.filter(username="someone").delete()
    assert invitation_language(invitation) == "en"
