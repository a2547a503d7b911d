"""The accounts emails and allauth's page messages speak the project's words, not allauth's: every
email template allauth can send and every message template it shows is overridden in
templates/account/, marked for the project's catalogs, and the emails the flows really send
(sign-up, an address already taken, a password reset, an unknown address, an email change) read in
Korean, Arabic and Romanian from our catalogs (locale/<lang>/LC_MESSAGES/django.po), greet the
reader by his display name and never by his username.

The catalogs are compiled here into a temporary LOCALE_PATHS, so the tests read the catalogs as they
are in the tree, and they fail as soon as a sentence falls back to allauth's own catalog."""

from __future__ import annotations

import re
from pathlib import Path

import allauth
import polib
import pytest
from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from django.conf import settings
from django.core import mail
from django.core.cache import cache
from django.template.loader import get_template, render_to_string
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation

from accounts.adapter import AccountAdapter
from accounts.models import User
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

LANGUAGES = ("ko", "ar", "ro")
BASE_DIR = Path(settings.BASE_DIR)
ALLAUTH_TEMPLATES = Path(allauth.__file__).parent / "templates" / "account"
OUR_TEMPLATES = BASE_DIR / "templates" / "account"
PASSWORD = "a-long-pass-phrase"
#: What allauth's own catalogs say, and we never do: "please" misspelt, "tu" without diacritics.
ALLAUTH_ONLY = ("주십시요", "Te rugam", "parola ta", "Vă rugăm confirma", "Salut de la")


#: Where the words of the accounts' emails and messages are marked: the email and message templates
#: we override, and the adapter's refusals and greetings.
ACCOUNT_SOURCES = ("templates/account/email/", "templates/account/messages/", "accounts/adapter.py")


def catalog(lang: str) -> polib.POFile:
    return polib.pofile(str(BASE_DIR / "locale" / lang / "LC_MESSAGES" / "django.po"))


def account_entries(lang: str) -> list[polib.POEntry]:
    """Our catalog's entries for the accounts' emails, messages and refusals."""
    return [entry for entry in catalog(lang) if not entry.obsolete and any(
        path.startswith(ACCOUNT_SOURCES) for path, _line in entry.occurrences)]


def ours(lang: str, msgid: str, **values) -> str:
    """Our translation of ``msgid`` (from the catalog), its placeholders filled."""
    entry = catalog(lang).find(msgid)
    assert entry is not None and entry.msgstr, f"{msgid!r} has no {lang} translation in our catalog"
    return entry.msgstr % values if values else entry.msgstr


@pytest.fixture
def catalogs(tmp_path):
    """LOCALE_PATHS holding, per language, our catalog compiled now (the .mo files are never
    committed, and a stale one must not pass for the catalog)."""
    for lang in LANGUAGES:
        po = catalog(lang)
        target = tmp_path / lang / "LC_MESSAGES"
        target.mkdir(parents=True)
        po.save_as_mofile(str(target / "django.mo"))
    with override_settings(LOCALE_PATHS=[str(tmp_path)]):  # also empties Django's cache of catalogs
        yield


def allauth_sentences(lang: str) -> list[str]:
    """allauth's own translations into ``lang`` of the sentences its emails and messages use, line by
    line (the long ones without placeholders: a short one may well be ours too)."""
    po = polib.pofile(str(Path(allauth.__file__).parent / "locale" / lang / "LC_MESSAGES" / "django.po"))
    lines = {line.strip() for entry in po if entry.msgstr
             and any("templates/account/email" in path or "templates/account/messages" in path
                     for path, _line in entry.occurrences)
             for line in entry.msgstr.splitlines()}
    return sorted(line for line in lines if len(line) >= 16 and "%(" not in line)


def assert_our_words(lang: str, text: str, *, data: tuple[str, ...] = (), english: str = "") -> None:
    """``text`` (an email's subject and body, or a page message) is in ``lang`` from our catalog:
    none of allauth's translations nor its known slips, its own script or diacritics, and in Korean
    and Arabic no English word but the data (addresses, links, names) and the service's name."""
    for slip in ALLAUTH_ONLY:
        assert slip not in text, f"allauth's wording {slip!r} in {lang}: {text!r}"
    lines = {line.strip() for line in text.splitlines()}
    for sentence in allauth_sentences(lang):
        assert sentence not in lines, f"allauth's own {lang} sentence {sentence!r} in {text!r}"
    assert text != english, f"English in {lang}: {text!r}"
    script = {"ko": r"[\uac00-\ud7a3]", "ar": r"[\u0600-\u06ff]", "ro": r"[șțăîâȘȚĂÎÂ]"}[lang]
    # A short Romanian sentence may need no diacritic: it differs from the English one all the same.
    assert re.search(script, text) or (lang == "ro" and english and len(text) < 80), f"no {lang} in {text!r}"
    if lang in ("ko", "ar"):
        rest = re.sub(r"https?://\S+|\S+@\S+", " ", text)
        for value in (*data, "Crawford", "IP"):
            rest = rest.replace(value, " ")
        assert not re.findall(r"[A-Za-z]{3,}", rest), f"English left in {lang}: {rest!r}"


def sent(to: str):
    messages = [message for message in mail.outbox if message.to == [to]]
    assert messages, f"no email to {to}: {[m.to for m in mail.outbox]}"
    return messages[-1]


def shown(lang: str, name: str) -> str:
    """A name as an email shows it: isolated (U+2068 … U+2069) in a right-to-left language."""
    return f"\u2068{name}\u2069" if lang == "ar" else name


def member(lang: str, *, username: str = "newton", name: str = "Isaac Newton", email: str = "isaac@example.org"):
    player = PlayerFactory(user__username=username, user__email=email, user__preferred_language=lang,
                           user__password=PASSWORD, display_name=name)
    EmailAddress.objects.create(user=player.user, email=email, verified=True, primary=True)
    return player.user


# --- our translations keep the site's register ---------------------------------------------------


def test_the_korean_words_say_password_one_way_and_address_the_reader_in_the_formal_style():
    entries = [entry for entry in account_entries("ko") if entry.msgstr]
    assert entries
    for entry in entries:
        assert not re.search("패스워드|암호|주십시요", entry.msgstr), entry.msgstr
        if "password" in entry.msgid.lower():
            assert "비밀번호" in entry.msgstr, entry.msgstr
        # 합니다체: "…하십시오", never "…하세요" (the greeting 안녕하세요 is the one everyone writes).
        assert "세요" not in entry.msgstr.replace("안녕하세요", ""), entry.msgstr


def test_the_romanian_words_speak_with_dvs_and_diacritics():
    entries = [entry for entry in account_entries("ro") if entry.msgstr]
    assert entries
    for entry in entries:
        # "tu" and its forms, and the words written without their diacritics (și, în, să).
        assert not re.search(r"\b(tu|ta|tău|te|ai|poți|si|in|sa|parola ta)\b", entry.msgstr, re.I), entry.msgstr
    assert sum(bool(re.search("[șțăîâ]", entry.msgstr)) for entry in entries) > len(entries) * 2 // 3


# --- every template allauth can send or show is ours ----------------------------------------------


@pytest.mark.parametrize("folder", ["email", "messages"])
def test_every_allauth_email_and_message_template_is_overridden_by_ours(folder):
    theirs = sorted(path.name for path in (ALLAUTH_TEMPLATES / folder).glob("*.txt"))
    assert len(theirs) > 10
    missing = [name for name in theirs if not (OUR_TEMPLATES / folder / name).exists()]
    assert not missing, f"allauth templates without our own wording: {missing}"
    for name in theirs:
        # Django finds ours first (templates/ comes before the apps' folders).
        assert Path(get_template(f"account/{folder}/{name}").origin.name) == OUR_TEMPLATES / folder / name
        source = (OUR_TEMPLATES / folder / name).read_text()
        assert "{% blocktrans " not in source and "{% trans " not in source and "user_display" not in source, name
        if not source.lstrip().startswith(("{% extends", "{% include")):
            assert re.search(r"{% (translate|blocktranslate)\b", source), f"{name} has no marked text"


def test_every_refusal_allauth_can_say_is_worded_by_us():
    """Each of allauth's error codes has our sentence, but the taken username: Django's own."""
    theirs = DefaultAccountAdapter.error_messages
    same = sorted(code for code, text in AccountAdapter.error_messages.items() if text is theirs.get(code))
    assert same == ["username_taken"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_email_template_renders_in_our_words(lang, catalogs):
    user = member(lang)
    values = {"user": user, "email": "isaac@example.org", "addressee": "Isaac Newton", "site_url": "https://crawford.test",
              "account_url": "https://crawford.test/accounts/email/", "activate_url": "https://crawford.test/c/1/",
              "password_reset_url": "https://crawford.test/r/", "signup_url": "https://crawford.test/s/",
              "code": "XK4-99Q", "from_email": "old@example.org", "to_email": "new@example.org",
              "deleted_email": "old@example.org", "ip": "192.0.2.7", "user_agent": "Firefox/140.0",
              "timestamp": "2026-12-07", "old_email": "isaac@example.org", "new_email": "new@example.org"}
    prefixes = sorted({path.name.rsplit("_", 1)[0] for path in (ALLAUTH_TEMPLATES / "email").glob("*_subject.txt")})
    assert "email_confirmation_signup" in prefixes and "unknown_account" in prefixes
    with translation.override(lang):
        for prefix in [*prefixes, "email_change_asked"]:
            subject = render_to_string(f"account/email/{prefix}_subject.txt", values).strip()
            body = render_to_string(f"account/email/{prefix}_message.txt", values)
            assert_our_words(lang, f"{subject}\n{body}", data=("Isaac Newton", "Firefox", "XK4-99Q"))
            assert "newton" not in body.replace("Isaac Newton", ""), prefix


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_message_template_renders_in_our_words(lang, catalogs):
    user = member(lang)
    values = {"user": user, "email": "isaac@example.org", "recipient": "isaac@example.org", "phone": "+40 700 000 000"}
    for path in sorted((ALLAUTH_TEMPLATES / "messages").glob("*.txt")):
        english = render_to_string(f"account/messages/{path.name}", values).strip()
        with translation.override(lang):
            text = render_to_string(f"account/messages/{path.name}", values).strip()
        assert_our_words(lang, text, data=("Isaac Newton",), english=english)
        assert "newton" not in text.replace("Isaac Newton", ""), path.name


# --- the emails the flows send ------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_sign_up_email_is_ours_and_greets_the_new_member_by_his_display_name(lang, catalogs, outbox_inline):
    with outbox_inline():
        response = Client().post(reverse("account_signup"), {
            "username": "newton", "display_name": "Isaac Newton", "email": "isaac@example.org",
            "password1": PASSWORD, "password2": PASSWORD}, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 302
    message = sent("isaac@example.org")
    assert message.subject == "[Crawford] " + ours(lang, "Confirm your email address to finish signing up")
    assert message.body.startswith(ours(lang, "Hello %(name)s,", name=shown(lang, "Isaac Newton")))
    assert ours(lang, "To finish signing up, open this link; it confirms that %(email)s is your address:",
                email="isaac@example.org") in message.body
    assert "newton" not in message.body.replace("Isaac Newton", "")  # his username is nowhere
    assert_our_words(lang, f"{message.subject}\n{message.body}", data=("Isaac Newton",))
    if lang == "ko":
        assert "회원님" in message.body


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_sign_up_with_a_taken_address_tells_its_owner_in_his_language_by_his_name(lang, catalogs, outbox_inline):
    member(lang, username="owner", name="Ada Lovelace", email="ada@example.org")
    with outbox_inline():
        Client().post(reverse("account_signup"), {
            "username": "intruder", "display_name": "Someone", "email": "ada@example.org",
            "password1": PASSWORD, "password2": PASSWORD}, HTTP_ACCEPT_LANGUAGE="en")
    message = sent("ada@example.org")
    assert message.subject == "[Crawford] " + ours(lang, "You already have a Crawford account")
    assert "Ada Lovelace" in message.body.splitlines()[0]
    assert "owner" not in message.body and "intruder" not in message.body
    assert_our_words(lang, f"{message.subject}\n{message.body}", data=("Ada Lovelace",))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_password_reset_email_is_ours_and_names_the_username_only_as_a_reminder(lang, catalogs, outbox_inline):
    member(lang)
    with outbox_inline():
        assert Client().post(reverse("account_reset_password"), {"email": "isaac@example.org"},
                             HTTP_ACCEPT_LANGUAGE="en").status_code == 302
    message = sent("isaac@example.org")
    assert message.subject == "[Crawford] " + ours(lang, "Choose a new password for your Crawford account")
    lines = message.body.splitlines()
    assert "Isaac Newton" in lines[0] and "newton" not in lines[0].replace("Isaac Newton", "")
    reminder = ours(lang, "You sign in with your email address or your username, which is %(username)s.",
                    username="newton")
    assert [line for line in lines if "newton" in line.replace("Isaac Newton", "")] == [reminder]
    assert ours(lang, "If it was not you, ignore this email: your password stays as it is.") in message.body
    assert_our_words(lang, f"{message.subject}\n{message.body}", data=("Isaac Newton", "newton"))
    if lang == "ko":
        assert "회원님" in message.body and "비밀번호" in message.body and "패스워드" not in message.body


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_reset_for_an_unknown_address_is_ours_in_the_pages_language(lang, catalogs, outbox_inline):
    with outbox_inline():
        Client().post(reverse("account_reset_password"), {"email": "nobody@example.org"}, HTTP_ACCEPT_LANGUAGE=lang)
    message = sent("nobody@example.org")
    assert message.subject == "[Crawford] " + ours(lang, "No Crawford account has this email address")
    assert message.body.startswith(ours(lang, "Hello,"))
    assert_our_words(lang, f"{message.subject}\n{message.body}")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_email_change_tells_both_addresses_in_our_words(lang, catalogs, outbox_inline):
    user = member(lang)
    client = Client()
    client.force_login(user)
    with outbox_inline():
        assert client.post(reverse("account_email"), {"action_add": "", "email": "newton@example.net"},
                           HTTP_ACCEPT_LANGUAGE="en").status_code == 302
    notice, link = sent("isaac@example.org"), sent("newton@example.net")
    assert notice.subject != "[Crawford] A change of your email address was asked"  # the catalog's own
    assert link.subject == "[Crawford] " + ours(lang, "Confirm your email address")
    for message in (notice, link):
        assert "Isaac Newton" in message.body.splitlines()[0]
        assert "newton" not in message.body.replace("Isaac Newton", "").replace("newton@example.net", "")
    assert_our_words(lang, f"{link.subject}\n{link.body}", data=("Isaac Newton",))
    assert_our_words(lang, f"{notice.subject}\n{notice.body}", data=("Isaac Newton",))
    assert ours(lang, "If it was you, there is nothing to do. If it was not you, open your account, cancel the change, "
                      "sign out everywhere else and change your password:") in notice.body
    if lang == "ko":
        assert "회원님" in notice.body and "바꾸세요" not in notice.body  # 합니다체 throughout
    cache.clear()  # allauth sends one verification email a few minutes per address
    with outbox_inline():
        client.post(reverse("account_email"), {"action_send": "", "email": "newton@example.net"})
    assert sent("newton@example.net").subject == "[Crawford] " + ours(lang, "Confirm your email address")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_signing_in_and_out_say_so_in_our_words_with_his_display_name(lang, catalogs):
    member(lang)
    client = Client()
    signed_in = client.post(reverse("login"), {"username": "newton", "password": PASSWORD}, follow=True,
                            HTTP_ACCEPT_LANGUAGE=lang)
    said = [str(message) for message in signed_in.context["messages"]]
    assert said == [ours(lang, "You are signed in as %(name)s.", name="Isaac Newton")]
    signed_out = client.post(reverse("logout"), follow=True, HTTP_ACCEPT_LANGUAGE=lang)
    assert ours(lang, "You are signed out.") in [str(message) for message in signed_out.context["messages"]]


def test_an_english_reader_gets_the_english_words(outbox_inline):
    member("en")
    with outbox_inline():
        Client().post(reverse("account_reset_password"), {"email": "isaac@example.org"})
    message = sent("isaac@example.org")
    assert message.subject == "[Crawford] Choose a new password for your Crawford account"
    assert message.body.startswith("Hello Isaac Newton,\n")
    assert User.objects.get(username="newton").display_name == "Isaac Newton"


# --- allauth's words on the account pages ---------------------------------------------------------


def allauth_page_words(lang: str) -> set[str]:
    """allauth's own translations into ``lang`` of its forms', refusals' and pages' words, less the
    ones our catalogs say the same way."""
    theirs = polib.pofile(str(Path(allauth.__file__).parent / "locale" / lang / "LC_MESSAGES" / "django.po"))
    mine = {entry.msgstr for entry in catalog(lang) if entry.msgstr}
    return {entry.msgstr.strip() for entry in theirs if entry.msgstr and "%" not in entry.msgstr
            and any(path.startswith("account/") or "templates/account" in path for path, _line in entry.occurrences)
            } - mine


def page_words(response) -> set[str]:
    """The words a reader sees on a page: its text between tags and its fields' placeholders."""
    page = response.content.decode()
    texts = re.findall(r">([^<>]+)<", page) + re.findall(r'placeholder="([^"]+)"', page)
    return {" ".join(text.split()) for text in texts} - {""}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_account_pages_say_none_of_allauth_s_own_words(lang, catalogs, outbox_inline):
    user = member(lang)
    with outbox_inline():
        Client().post(reverse("account_reset_password"), {"email": "isaac@example.org"})
    reset_link = re.search(r"https?://testserver(/\S+)", sent("isaac@example.org").body).group(1)
    # Followed before he signs in anywhere: a sign-in ends the link (it is made from his last sign-in).
    new_password = Client(HTTP_ACCEPT_LANGUAGE=lang).get(reset_link, follow=True)
    anonymous, signed_in = Client(HTTP_ACCEPT_LANGUAGE=lang), Client(HTTP_ACCEPT_LANGUAGE=lang)
    signed_in.force_login(user)
    no_password = member(lang, username="walkin", name="Walk In", email="walkin@example.org")
    no_password.set_unusable_password()
    no_password.save()
    unset = Client(HTTP_ACCEPT_LANGUAGE=lang)
    unset.force_login(no_password)
    pages = {
        "sign-up refused": anonymous.post(reverse("account_signup"), {
            "username": "bob", "display_name": "Bob", "email": "bob@example.org", "password1": PASSWORD,
            "password2": PASSWORD + "x"}),
        "sign-in refused": anonymous.post(reverse("login"), {"username": "newton", "password": "wrong"}),
        "password change refused": signed_in.post(reverse("account_change_password"), {
            "oldpassword": "wrong", "password1": PASSWORD + "2", "password2": PASSWORD + "3"}),
        "password set": unset.get(reverse("account_set_password")),
        "own address again": signed_in.post(reverse("account_email"), {"action_add": "", "email": "isaac@example.org"}),
        "reauthenticate refused": signed_in.post(reverse("account_reauthenticate"), {"password": "wrong"}),
        "password reset done": anonymous.get(reverse("account_reset_password_from_key_done")),
        "inactive": anonymous.get(reverse("account_inactive")),
        "new password from the link": new_password,
    }
    theirs = allauth_page_words(lang)
    assert len(theirs) > 30
    found = {name: sorted(page_words(response) & theirs) for name, response in pages.items()}
    assert all(response.status_code == 200 for response in pages.values()), {
        name: response.status_code for name, response in pages.items()}
    assert not any(found.values()), f"allauth's own {lang} words on our pages: {found}"
    words = {name: page_words(response) for name, response in pages.items()}
    assert ours(lang, "You must type the same password each time.") in words["sign-up refused"]
    assert ours(lang, "Password (again)") in words["sign-up refused"]
    assert {ours(lang, "This is not your current password."), ours(lang, "Your current password"),
            ours(lang, "New password"), ours(lang, "New password (again)")} <= words["password change refused"]
    assert ours(lang, "This is your account's address already.") in words["own address again"]
    assert ours(lang, "This is not your current password.") not in words["reauthenticate refused"]
    assert ours(lang, "Confirm it is you") in words["reauthenticate refused"]
    assert {ours(lang, "New password"), ours(lang, "New password (again)")} <= words["new password from the link"]
