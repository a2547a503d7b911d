"""Every choice of the accounts models a person reads is translated: a user's role reads
in the reader's language; the languages keep their own names (each named in itself)."""

from __future__ import annotations

from django.utils import translation

from accounts.models import User
from accounts.models_requests import OrganiserRequest


def test_the_roles_read_in_the_reader_s_language():
    with translation.override("ko"):
        assert [str(label) for _, label in User.Role.choices] == ["플레이어", "주최자"]
        assert User(role=User.Role.ORGANISER).get_role_display() == "주최자"
    with translation.override("ro"):
        assert str(User.Role.PLAYER.label) == "Jucător"
    with translation.override("en"):
        assert [str(label) for _, label in User.Role.choices] == ["Player", "Organiser"]


def test_an_organiser_request_s_status_reads_in_the_reader_s_language():
    with translation.override("ko"):
        assert all(str(label) != english for (_, label), english in zip(
            OrganiserRequest.Status.choices, ("waiting for staff", "approved", "refused"), strict=True))


def test_each_language_keeps_its_own_name():
    with translation.override("ko"):
        languages = dict(User.Language.choices)
        # "As my browser says" is a sentence, in the reader's language; the languages are names.
        assert list(languages) == ["browser", "en", "ko", "ar", "ro"]
        del languages["browser"]
        assert languages == {"en": "English", "ko": "한국어", "ar": "العربية", "ro": "Română"}
