"""Every page, read in Korean, shows no English but the data.

The world and the routes are the permission matrix's (tests/test_permission_matrix.py): each page
route a signed-in player (alice) or the organiser (otto) may GET (200 in the matrix) is asked once,
with the language set to Korean (his preference, the ``django_language`` cookie, and the language
active while the request runs, so the check holds with LocaleMiddleware or without it), and its
visible text (no tags, scripts or styles) must show none of the code's English msgids (the pieces of
four words or more of any msgid, and the nav labels and buttons of tests/i18n_checks.SHORT_MSGIDS as
a whole text) and no three English words in a row that are not data: the names, events, clubs and
statements of the world are taken out first (every text column of the project's rows).

The Korean catalogs are compiled for the test from locale/ko/LC_MESSAGES/*.po (into a temporary
LOCALE_PATHS), so it reads what the catalogs say, whether or not compilemessages ran. It fails until
the merger has built the catalogs (locale/build_catalogs.py); the checker itself is tried below on
small pages, in and out of the data. About half a minute: marked slow, which CI runs.
"""

from __future__ import annotations

import polib
import pytest
from django.apps import apps
from django.conf import settings
from django.db import models, transaction
from django.test import Client, override_settings
from django.utils import translation

from tests.i18n_checks import (
    LOCALE_DIR,
    SHORT_MSGIDS,
    data_pattern,
    english_on_page,
    english_runs,
    extracted_msgids,
    long_msgid_parts,
    visible_texts,
)
from tests.test_permission_matrix import MATRIX, _expected, _url, matrix_routes, world  # noqa: F401

pytestmark = pytest.mark.django_db

#: The project's apps: their rows' text columns are data (names, events, statements), never msgids.
PROJECT_APPS = ("accounts", "audit", "matches", "tournaments", "clubs", "chouette", "rulings")


# --- the checker, on small pages ------------------------------------------------------------------------


def test_visible_text_leaves_out_scripts_and_styles_and_keeps_titles_and_buttons():
    html = """<html><head><title>대회</title><style>.a { color: red }</style></head><body>
      <script>const text = "this is not shown";</script>
      <p title="Open the bracket">  매치   <b>alice</b> </p><input type="submit" value="Send it now">
      <input type="text" value="typed by someone"></body></html>"""
    assert visible_texts(html) == ["대회", "Open the bracket", "매치", "alice", "Send it now"]


def test_english_runs_leave_the_data_and_short_names_alone():
    data = data_pattern(["Bob rolled before I had picked up my dice.", "Team cup", "alice", "bob"])
    assert english_runs("alice 님과 bob 님의 매치", data) == []
    assert english_runs("Team cup 대회: Bob rolled before I had picked up my dice.", data) == []
    assert english_runs("GNU Backgammon, eXtreme Gammon, Galaxy 또는 Studio 파일", data) == []
    assert english_runs("alice 님: the next round starts", data) == ["the next round starts"]
    assert english_runs("매치 (Result set by) 감독", data) == ["Result set by"]
    assert english_runs("Team cup the draw", data) == []  # two words left once the data is out


def test_english_on_page_names_the_msgids_and_the_runs():
    long_parts = ["Every change of this match from its audit log", "You may appeal until"]
    data = data_pattern(["alice", "Matrix Club"])
    korean = "<nav><a>토너먼트</a><a>클럽</a></nav><main><h1>Matrix Club</h1><p>alice 님의 매치</p></main>"
    assert english_on_page(korean, long_parts, data) == []
    english = ("<nav><a>Tournaments</a><a>클럽</a></nav><main><p>You may appeal until 3월 4일.</p>"
               "<p>Matrix Club: our nights are on Tuesday</p><p>Players of Matrix Club</p></main>")
    assert english_on_page(english, long_parts, data) == [
        "the msgid 'Tournaments'",
        "the msgid 'You may appeal until'",
        "English words 'You may appeal until' (in 'You may appeal until 3월 4일.')",
        "English words 'our nights are on Tuesday' (in 'Matrix Club: our nights are on Tuesday')",
    ]


def test_the_short_msgids_are_msgids_of_the_code():
    msgids = {entry.msgid for entry in extracted_msgids("django")}
    assert not set(SHORT_MSGIDS) - msgids, "a short msgid no longer in the code: update SHORT_MSGIDS"


# --- every page, in Korean -----------------------------------------------------------------------------


def _data_strings() -> list[str]:
    """Every text value of the project's rows: what a page may show in the language it was typed in."""
    strings = []
    for model in apps.get_models():
        if model._meta.app_label not in PROJECT_APPS and model is not apps.get_model(settings.AUTH_USER_MODEL):
            continue
        fields = [field.name for field in model._meta.concrete_fields
                  if isinstance(field, models.CharField | models.TextField) and not field.choices
                  and "password" not in field.name]
        if fields:
            for row in model.objects.values_list(*fields):
                strings.extend(value for value in row if isinstance(value, str) and 1 < len(value) <= 500)
    return strings


def _page_routes(role: str) -> list[tuple[str, str]]:
    return [(name, pattern) for name, pattern in matrix_routes().items()
            if not pattern.startswith("api/") and (name, "get") in MATRIX
            and _expected(MATRIX[(name, "get")], role) == 200]


@pytest.fixture
def korean_compiled(tmp_path):
    """LOCALE_PATHS pointing at the Korean catalogs compiled now (the .mo files are never committed)."""
    sources = sorted((LOCALE_DIR / "ko" / "LC_MESSAGES").glob("*.po"))
    assert sources, "no Korean catalog (locale/ko/LC_MESSAGES/django.po): run locale/build_catalogs.py"
    target = tmp_path / "ko" / "LC_MESSAGES"
    target.mkdir(parents=True)
    for source in sources:
        polib.pofile(str(source)).save_as_mofile(str(target / f"{source.stem}.mo"))
    with override_settings(LOCALE_PATHS=[str(tmp_path)]):  # also empties Django's cache of catalogs
        yield


@pytest.mark.slow
@pytest.mark.parametrize("role", ["alice", "organiser"])
def test_every_page_in_korean_shows_no_english_but_the_data(role, world, korean_compiled):  # noqa: F811
    user = world["users"][role]
    user.preferred_language = "ko"
    user.save(update_fields=["preferred_language"])
    data = data_pattern(_data_strings())
    long_parts = long_msgid_parts(extracted_msgids("django"))
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ko"
    found, asked = [], 0
    for name, pattern in _page_routes(role):
        with transaction.atomic(), translation.override("ko"):
            response = client.get(_url(name, pattern, world), HTTP_ACCEPT_LANGUAGE="ko")
            transaction.set_rollback(True)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        asked += 1
        problems = english_on_page(response.content.decode(), long_parts, data)
        if problems:
            found.append(f"{name} as {role}:\n    " + "\n    ".join(problems))
    assert asked > 20, f"only {asked} pages answered in HTML: is the world broken?"
    assert not found, f"{len(found)} pages with English in Korean:\n" + "\n".join(found)
