"""core.text.db_safe: what PostgreSQL refuses is written out, everything else kept; and the result
really saves in text and JSON columns; core.text.isolate: a name placed in a sentence of either direction."""

import pytest
from django.utils import translation
from django.utils.translation import gettext

from audit.models import AuditEntry
from core.text import db_safe, isolate


@pytest.mark.parametrize("text, safe", [
    ("plain ascii", "plain ascii"),
    ("tab\tnew\nline é ü € 🎲", "tab\tnew\nline é ü € 🎲"),
    ("a\x00b", "a\\x00b"),
    ("\x00\x00", "\\x00\\x00"),
    ("lone \ud800 and \udfff", "lone \\ud800 and \\udfff"),
    ("", ""),
])
def test_it_writes_out_only_what_postgresql_refuses(text, safe):
    assert db_safe(text) == safe


@pytest.mark.django_db
def test_what_it_returns_saves_in_text_and_json_columns():
    raw = "bad \x00 and \ud800"
    entry = AuditEntry.objects.create(action="test", object_type="x", note=db_safe(raw), after={"m": db_safe(raw)})
    entry.refresh_from_db()
    assert entry.note == entry.after["m"] == "bad \\x00 and \\ud800"


# --- a name inside a sentence -------------------------------------------------------------------------

ALI = "\u0639\u0644\u064a"  # Ali, in Arabic letters


@pytest.mark.parametrize(("language", "name", "placed"), [
    ("ar", "Olga Lee", "\u2068Olga Lee\u2069"),  # a Latin name in an Arabic sentence
    ("ar", ALI, f"\u2068{ALI}\u2069"),
    ("en", "Olga Lee", "Olga Lee"),  # a Latin name in a left-to-right sentence stays bare
    ("en", ALI, f"\u2068{ALI}\u2069"),  # an Arabic name before a number would take the number with it
    ("ko", "Olga Lee", "Olga Lee"),
    ("ar", "", ""),
    ("ar", None, ""),
    ("ar", "\u2068Olga\u2069", "\u2068Olga\u2069"),  # isolated once, however often it is placed
])
def test_a_name_is_isolated_where_its_direction_can_run_into_the_sentence(language, name, placed):
    with translation.override(language):
        assert isolate(name) == placed


def test_two_latin_names_side_by_side_in_arabic_stay_two_runs():
    with translation.override("ar"):
        sentence = gettext("%(who)s entered %(entrant)s") % {"who": isolate("Olga Lee"), "entrant": isolate("Ana Pop")}
    assert sentence == "سجّل \u2068Olga Lee\u2069 \u2068Ana Pop\u2069"
