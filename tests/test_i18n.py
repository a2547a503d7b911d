"""The players' languages (core/i18n.py, config/views.py): which language a page speaks (the
profile's when he chose one, then the switcher's, then Accept-Language), the switcher itself, the API's
refusals in the client's language with the same code, the scripts' catalog, emails in their
recipient's language and the catalogs' build step (manage.py compilemessages, with or without
GNU gettext)."""

from __future__ import annotations

import datetime as dt
import gettext
import json
import re

import polib
import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.core import mail
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format

from accounts.models import User
from accounts.organiser.notifications import organiser_notify
from accounts.organiser.services import organiser_refuse, organiser_request
from audit.models import AuditEntry
from config import views as config_views
from core.i18n import language_of, languages_of
from core.management.commands import compilemessages
from matches.services.claims import claim_approve, claim_request
from matches.services.notifications import claim_notify
from tests.factories import PlayerFactory, UserFactory
from tests.matches.claims_world import imported, own_player, user
from tests.matches.factories_api import client_for
from tests.matches.factories_ratings import run_tasks_inline

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


def write_catalog(root, language: str, entries: dict, domain: str = "django") -> None:
    """A compiled catalog of ``entries`` (msgid -> msgstr) for ``language`` under ``root``."""
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": language,
                   "Plural-Forms": "nplurals=1; plural=0;"}
    for msgid, msgstr in entries.items():
        po.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
    folder = root / language / "LC_MESSAGES"
    folder.mkdir(parents=True, exist_ok=True)
    po.save_as_mofile(str(folder / f"{domain}.mo"))


@pytest.fixture
def korean(tmp_path):
    """The project's catalogs replaced by a few Korean sentences of our own (Django's and the
    packages' catalogs stay): the tests do not depend on what the translators have merged."""
    def use(entries: dict, domain: str = "django"):
        write_catalog(tmp_path, "ko", entries, domain)
        return override_settings(LOCALE_PATHS=[tmp_path])
    config_views._catalogs.clear()
    yield use
    config_views._catalogs.clear()


def html_tag(response) -> str:
    return re.search(r"<html[^>]*>", response.content.decode()).group(0)


# --- which language a page speaks ----------------------------------------------------------------


def test_a_page_speaks_the_browsers_language_and_arabic_right_to_left():
    assert html_tag(Client().get("/players/")) == '<html lang="en" dir="ltr">'
    assert html_tag(Client().get("/players/", HTTP_ACCEPT_LANGUAGE="ko,en;q=0.5")) == '<html lang="ko" dir="ltr">'
    arabic = Client().get("/players/", HTTP_ACCEPT_LANGUAGE="ar")
    assert html_tag(arabic) == '<html lang="ar" dir="rtl">'
    assert arabic["Content-Language"] == "ar" and "Accept-Language" in arabic["Vary"]
    # A language Crawford does not speak: English.
    assert html_tag(Client().get("/players/", HTTP_ACCEPT_LANGUAGE="de")) == '<html lang="en" dir="ltr">'


def test_every_page_has_the_switcher_each_language_named_in_itself():
    page = Client().get("/players/", HTTP_ACCEPT_LANGUAGE="ro").content.decode()
    form = re.search(r'<form class="language" method="post" action="/i18n/setlang/">.*?</form>', page, re.S).group(0)
    assert 'name="csrfmiddlewaretoken"' in form and '<input type="hidden" name="next" value="/players/">' in form
    assert '<label for="language-switcher">' in form and '<select id="language-switcher" name="language">' in form
    options = re.findall(r'<option value="(\w+)" lang="\w+"( selected)?>([^<]+)</option>', form)
    assert [(code, name) for code, _selected, name in options] == [
        ("en", "English"), ("ko", "한국어"), ("ar", "العربية"), ("ro", "Română")]
    assert [code for code, selected, _name in options if selected] == ["ro"]
    assert '<button type="submit">' in form  # chosen with the keyboard, sent with Enter or the button


def test_a_signed_in_user_reads_the_language_he_chose_whatever_this_browsers_cookie_says():
    user = UserFactory(username="hana", preferred_language="ko")
    client = Client()
    client.force_login(user)
    assert html_tag(client.get("/players/", HTTP_ACCEPT_LANGUAGE="ro")) == '<html lang="ko" dir="ltr">'
    client.cookies[COOKIE] = "ar"  # an old choice on this browser, before he signed in
    assert html_tag(client.get("/players/", HTTP_ACCEPT_LANGUAGE="ro")) == '<html lang="ko" dir="ltr">'
    # Not signed in, the same browser: its choice; without one, Accept-Language.
    anonymous = Client()
    anonymous.cookies[COOKIE] = "ar"
    assert html_tag(anonymous.get("/players/", HTTP_ACCEPT_LANGUAGE="ro")) == '<html lang="ar" dir="rtl">'
    assert html_tag(Client().get("/players/", HTTP_ACCEPT_LANGUAGE="ro")) == '<html lang="ro" dir="ltr">'


def test_the_switcher_sets_the_browsers_language_and_the_signed_in_users_profile():
    anonymous = Client()
    chosen = anonymous.post("/i18n/setlang/", {"language": "ar", "next": "/players/"})
    assert chosen.status_code == 302 and chosen["Location"] == "/players/"
    assert anonymous.cookies[COOKIE].value == "ar" and anonymous.cookies[COOKIE]["httponly"]
    assert html_tag(anonymous.get("/players/")) == '<html lang="ar" dir="rtl">'

    player = PlayerFactory(user__username="mihai")
    client = Client()
    client.force_login(player.user)
    assert client.post("/i18n/setlang/", {"language": "ro", "next": "/players/"}).status_code == 302
    player.user.refresh_from_db()
    assert player.user.preferred_language == "ro" and client.cookies[COOKIE].value == "ro"
    assert AuditEntry.objects.filter(action="player.profile_updated", actor_id=player.user.pk).count() == 1
    # A language Crawford does not speak changes nothing; a page elsewhere is not where it goes back to.
    refused = client.post("/i18n/setlang/", {"language": "xx", "next": "https://elsewhere.example/"})
    assert refused.status_code == 302 and refused["Location"] == "/"
    player.user.refresh_from_db()
    assert player.user.preferred_language == "ro"
    assert Client().get("/i18n/setlang/").status_code == 405


def test_a_language_chosen_on_the_profile_page_is_this_browsers_choice_at_once():
    player = PlayerFactory(user__username="ioana")
    client = Client()
    client.force_login(player.user)
    client.cookies[COOKIE] = "ar"
    saved = client.post(reverse("matches:profile"), {"display_name": "Ioana", "country": "RO",
                                                     "preferred_language": "ro"})
    assert saved.status_code == 302 and client.cookies[COOKIE].value == "ro"
    assert html_tag(client.get("/players/")) == '<html lang="ro" dir="ltr">'


def test_dates_are_written_each_languages_way_and_english_as_before():
    moment = dt.datetime(2026, 12, 2, 14, 30, tzinfo=dt.UTC)
    written = {}
    for code in ("en", "ko", "ar", "ro"):
        with translation.override(code):
            written[code] = (date_format(moment, "DATE_FORMAT"), date_format(moment, "DATETIME_FORMAT"))
    assert written["en"] == ("2 Dec 2026", "2 Dec 2026 14:30")
    assert written["ko"][0] == "2026년 12월 2일"
    assert written["ar"] == ("2 ديسمبر 2026", "2 ديسمبر 2026، 14:30")
    # Django's Romanian catalog writes "Decembrie"; the project's writes the month inside a date (E).
    assert written["ro"] == ("2 decembrie 2026", "2 decembrie 2026, 14:30")


def test_the_language_of_a_user_is_his_preference_or_the_sites():
    assert language_of(UserFactory(username="ana", preferred_language="ro")) == "ro"
    assert language_of(None) == language_of(UserFactory(username="old", preferred_language="fr")) == "en"
    UserFactory(username="jin", email="jin@example.com", preferred_language="ko")
    assert languages_of(["jin@example.com", "nobody@example.com"], default="ar") == {
        "jin@example.com": "ko", "nobody@example.com": "ar"}


# --- the API's refusals ----------------------------------------------------------------------------


def test_the_api_refuses_in_the_clients_language_with_the_same_code():
    english = Client().get("/api/v1/no-such-thing/", HTTP_ACCEPT_LANGUAGE="en")
    korean = Client().get("/api/v1/no-such-thing/", HTTP_ACCEPT_LANGUAGE="ko")
    assert english.status_code == korean.status_code == 404
    assert english.json()["code"] == korean.json()["code"] == "not_found"
    assert english.json()["detail"] == "Not found."
    assert korean.json()["detail"] == "찾을 수 없습니다."  # DRF's and Django's own Korean catalogs
    assert korean["Content-Language"] == "ko"


def test_a_refused_body_is_explained_in_the_clients_language_whatever_his_profile_says():
    radu = UserFactory(username="radu", preferred_language="ro")
    client = client_for(radu, auth="session")
    english = client.post("/api/v1/matches/", {}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    korean = client.post("/api/v1/matches/", {}, format="json", HTTP_ACCEPT_LANGUAGE="ko")
    assert english.status_code == korean.status_code == 400
    assert english.json()["code"] == korean.json()["code"]
    assert english.json()["errors"].keys() == korean.json()["errors"].keys()
    assert "This field is required." in str(english.json())
    assert "이 필드는 필수 항목입니다." in str(korean.json())


# --- the scripts' catalog ------------------------------------------------------------------------------


def test_the_scripts_catalog_is_in_the_pages_language_and_kept(korean, django_assert_num_queries):
    with korean({"%(name)s (%(where)s)": "%(name)s (%(where)s) — 한국어"}, domain="djangojs"):
        page = Client().get("/players/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()
        assert '<script src="/jsi18n/?lang=ko" defer></script>' in page
        with django_assert_num_queries(0):
            first = Client().get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="ko")
            again = Client().get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="ko")
        english = Client().get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="en")
    assert first.status_code == again.status_code == 200 and first.content == again.content
    korean_text = json.dumps("한국어")[1:-1]  # the catalog is JSON inside the script: its non-ASCII letters are \\u escapes
    assert korean_text in first.content.decode() and "django.gettext = function" in first.content.decode()
    assert korean_text not in english.content.decode()
    assert "max-age=3600" in first["Cache-Control"] and "Accept-Language" in first["Vary"]
    assert set(config_views._catalogs) == {"ko", "en"}


# --- emails in their recipient's language -------------------------------------------------------------


def test_an_email_to_a_user_who_prefers_korean_is_in_korean(korean):
    charlot = imported("charlot1")
    minho = user("minho")
    minho.preferred_language = "ko"
    minho.save(update_fields=["preferred_language"])
    own_player(minho, "Minho")
    staff = UserFactory(username="staff-i18n", staff=True)
    claim = claim_approve(claim_id=claim_request(player_id=charlot.pk, user=minho, statement="It is me.").pk,
                          user=staff)
    with korean({"Your claim was approved: you are %(player)s": "선수 확인이 승인되었습니다: %(player)s 님"}):
        assert claim_notify(claim_id=claim.pk) == 1
    assert mail.outbox[-1].subject == "선수 확인이 승인되었습니다: charlot1 님"
    assert mail.outbox[-1].to == [minho.email]


def test_each_recipient_reads_his_own_language_whatever_the_worker_speaks(korean):
    hana = UserFactory(username="hana-o", email="hana@example.com", preferred_language="ko")
    dan = UserFactory(username="dan-o", email="dan@example.com")
    staff = UserFactory(username="stan-o", staff=True)
    entries = {"Your request to become an organiser was refused": "주최자 신청이 거절되었습니다"}
    for person in (hana, dan):
        request = organiser_request(user=person, statement="I run the Tuesday club.")
        organiser_refuse(request_id=request.pk, user=staff, reason="Not yet.")
        with korean(entries):
            assert organiser_notify(kind="decided", object_id=request.pk) == 1
    subjects = {message.to[0]: message.subject for message in mail.outbox}
    assert subjects == {"hana@example.com": "주최자 신청이 거절되었습니다",
                        "dan@example.com": "Your request to become an organiser was refused"}


def test_an_account_email_is_in_its_recipients_language_not_the_pages(monkeypatch, django_capture_on_commit_callbacks,
                                                                      korean):
    run_tasks_inline(monkeypatch)
    player = PlayerFactory(user__username="yuna", user__email="yuna@example.org", user__preferred_language="ko")
    EmailAddress.objects.create(user=player.user, email="yuna@example.org", verified=True, primary=True)
    words = {"Choose a new password for your Crawford account": "Crawford 계정의 새 비밀번호를 정하십시오"}
    with korean(words), django_capture_on_commit_callbacks(execute=True):
        asked = Client().post(reverse("account_reset_password"), {"email": "yuna@example.org"},
                              HTTP_ACCEPT_LANGUAGE="en")
    assert asked.status_code == 302
    assert mail.outbox[-1].subject == "[Crawford] Crawford 계정의 새 비밀번호를 정하십시오"  # our catalog, not allauth's


def test_a_new_account_keeps_the_language_it_signed_up_in(monkeypatch, django_capture_on_commit_callbacks):
    run_tasks_inline(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        Client().post(reverse("account_signup"), {
            "username": "layla", "email": "layla@example.org", "display_name": "Layla",
            "password1": "a-long-pass-phrase", "password2": "a-long-pass-phrase"}, HTTP_ACCEPT_LANGUAGE="ar")
    assert User.objects.get(username="layla").preferred_language == "ar"
    assert mail.outbox and mail.outbox[-1].to == ["layla@example.org"]


# --- the build step ----------------------------------------------------------------------------------


def test_compilemessages_needs_nothing_but_python(tmp_path, monkeypatch):
    folder = tmp_path / "locale" / "ko" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "django.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: ko\\n"\n\n'
        'msgid "Clubs"\nmsgstr "클럽"\n\n#, fuzzy\nmsgid "Players"\nmsgstr "선수"\n', encoding="utf-8")
    fragments = tmp_path / "locale" / "fragments"
    fragments.mkdir()
    (fragments / "infra.ko.po").write_text('msgid "Clubs"\nmsgstr "클럽"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(compilemessages, "find_command", lambda name: None)  # no GNU gettext here
    with override_settings(LOCALE_PATHS=[tmp_path / "locale"]):
        call_command("compilemessages", verbosity=0)
    with open(folder / "django.mo", "rb") as compiled:
        catalog = gettext.GNUTranslations(compiled)
    assert catalog.gettext("Clubs") == "클럽"
    assert catalog.gettext("Players") == "Players"  # fuzzy: left out, as msgfmt does
    assert not list(fragments.glob("*.mo"))  # the translators' fragments are not catalogs
