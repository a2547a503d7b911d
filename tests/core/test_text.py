"""core.text.db_safe: what PostgreSQL refuses is written out, everything else kept; and the result
really saves in text and JSON columns."""

import pytest

from audit.models import AuditEntry
from core.text import db_safe


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
