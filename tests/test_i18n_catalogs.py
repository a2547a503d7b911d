"""The catalogs of ko, ar and ro: complete, faithful to the glossary, and current with the code.

The checks themselves (tests/i18n_checks.py) are first shown to pass on the good catalogs and to
find every hole of the bad ones under tests/i18n_fixtures/; then they run on the real catalogs,
locale/<lang>/LC_MESSAGES/{django,djangojs}.po, which the merger builds with
locale/build_catalogs.py from the areas' fragments. Every miss is listed with language and msgid.
"""

from __future__ import annotations

import importlib.util
import io
import shutil
from pathlib import Path

import polib
import pytest

from tests.i18n_checks import (
    DOMAINS,
    LANGUAGES,
    LOCALE_DIR,
    catalog,
    check_complete,
    check_current,
    check_glossary,
    check_header,
    extracted_msgids,
    load_glossary,
    placeholders,
    terms_in,
)

FIXTURES = Path(__file__).parent / "i18n_fixtures"


def _fixture(name: str) -> polib.POFile:
    return polib.pofile(str(FIXTURES / name))


def _build_catalogs():
    spec = importlib.util.spec_from_file_location("build_catalogs", LOCALE_DIR / "build_catalogs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- the checkers, on small catalogs --------------------------------------------------------------------


def test_placeholders_are_the_named_the_positional_and_the_braced_ones():
    assert placeholders("%(name)s won %(points)d points, {who} and %s; 50% sure, 100%% done") == [
        "%(name)s", "%(points)d", "%s", "{who}"]


def test_the_glossary_has_every_language_s_term_and_stem():
    glossary = load_glossary()
    assert len(glossary) > 40
    for term in glossary:
        for lang in LANGUAGES:
            assert all(term.stems[lang]), f"{term.english}: no {lang} stem"


def test_terms_are_found_as_words_the_longer_first_and_by_context():
    glossary = load_glossary()

    def found(msgid, msgctxt=None):
        entry = polib.POEntry(msgid=msgid, msgctxt=msgctxt)
        return sorted((term.english, term.context) for term in terms_in(entry, glossary))

    assert found("Turn the doubling cube") == [("doubling cube", "")]
    assert found("Matches of the Clubs") == [("club", ""), ("match", "")]
    assert found("Rematch at the clubhouse") == []  # words, not parts of words
    assert found("%(round)s: %(winner)s wins") == []  # placeholders are names
    assert found("Move to point %(n)s", "board point") == [("point", "board point")]
    assert found("%(n)s points to win") == [("point", "")]
    assert found("Welcome to Crawford") == []  # the service's name
    assert found("the Crawford game") == [("Crawford game", "")]
    assert found("no record to point into") == []  # the verb
    assert found("Export for GNU Backgammon") == []  # a program's name


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_good_fixture_catalogs_pass_every_check(lang):
    po = _fixture(f"good.{lang}.po")
    assert check_header(po, lang) == []
    assert check_complete(po, lang) == []
    assert check_glossary(po, lang, load_glossary()) == []


def test_the_checks_find_every_hole_of_the_korean_fixture():
    po = _fixture("holes.ko.po")
    complete = check_complete(po, "ko")
    assert complete == [
        "ko: 'Sign in' is untranslated",
        "ko: 'Clubs' is fuzzy",
        "ko: '%(name)s won': the translation has placeholders [], the msgid ['%(name)s']",
        "ko: '%(a)s v %(b)s': the translation has placeholders ['%(a)s', '%(c)s'], the msgid ['%(a)s', '%(b)s']",
        "ko: '%s rounds left': the translation has placeholders ['%d'], the msgid ['%s']",
    ]
    misses = check_glossary(po, "ko", load_glossary())
    assert len(misses) == 2, misses
    assert "ko: 'Your match with {name}' says 'match'" in misses[0]
    assert misses[1].startswith("ko: board point|'Your checker on point %(n)s' says 'point'")
    assert "포인트" in misses[1]


def test_the_checks_find_every_hole_of_the_arabic_fixture():
    po = _fixture("holes.ar.po")
    complete = check_complete(po, "ar")
    assert complete == [
        "ar: '%(count)s game' is untranslated (a plural form is empty)",
        "ar: '%(count)s player': plural form 1 has placeholders the msgid lacks: ['%(name)s']",
        "ar: '%(count)s player': the last plural form has [], the msgid_plural ['%(count)s']",
    ]
    misses = check_glossary(po, "ar", load_glossary())
    assert len(misses) == 1 and "'Your opponent' says 'opponent'" in misses[0], misses


def test_the_checks_find_every_hole_of_the_romanian_fixture():
    po = _fixture("holes.ro.po")
    assert check_complete(po, "ro") == []
    misses = check_glossary(po, "ro", load_glossary())
    assert [miss.split(" says ")[1].split(":")[0] for miss in misses] == ["'cube'", "'checker'"], misses


def test_the_currency_check_lists_the_msgids_of_the_code_missing_from_a_catalog():
    code = polib.POFile()
    for msgid, context in (("Sign in", None), ("Point", "board point"), ("Clubs", None)):
        code.append(polib.POEntry(msgid=msgid, msgctxt=context, occurrences=[("templates/base.html", "1")]))
    po = polib.POFile()
    po.append(polib.POEntry(msgid="Clubs", msgstr="클럽"))
    po.append(polib.POEntry(msgid="Point", msgstr="점"))  # the score's point: not the board's
    assert check_current(po, code, "ko", "django") == [
        "ko django.po: 'Sign in' is in the code (templates/base.html) but not in the catalog: run locale/build_catalogs.py",
        "ko django.po: board point|'Point' is in the code (templates/base.html) but not in the catalog: "
        "run locale/build_catalogs.py",
    ]
    assert len(check_current(None, code, "ko", "django")) == 3


def test_the_header_check_finds_a_wrong_language_a_wrong_plural_count_and_a_fuzzy_header():
    po = _fixture("good.ro.po")
    po.metadata["Plural-Forms"] = "nplurals=2; plural=(n != 1);"
    po.metadata_is_fuzzy = True
    assert check_header(po, "ro") == [
        "ro: the header's Plural-Forms is 'nplurals=2; plural=(n != 1);', ro has 3 forms",
        "ro: the header is fuzzy",
    ]
    assert check_header(_fixture("good.ko.po"), "ar") == [
        "ar: the header's Language is 'ko'",
        "ar: the header's Plural-Forms is 'nplurals=1; plural=0;', ar has 6 forms",
        "ar: '%(count)s match' has 1 plural forms, ar has 6",
    ]


def test_the_code_s_msgids_are_extracted_without_touching_the_catalogs():
    before = sorted(path for path in LOCALE_DIR.rglob("*") if "fragments" not in path.parts)
    msgids = {entry.msgid for entry in extracted_msgids("django")}
    assert {"Sign out", "Tournaments"} <= msgids
    assert not any(entry.occurrences[0][0].startswith(("tests/", "bench/", ".venv/"))
                   for entry in extracted_msgids("django"))
    assert sorted(path for path in LOCALE_DIR.rglob("*") if "fragments" not in path.parts) == before


# --- the merge tool, on fixtures ---------------------------------------------------------------------


def test_build_catalogs_fills_the_empty_msgstrs_from_the_fragments_and_leaves_nothing_fuzzy(tmp_path):
    shutil.copytree(FIXTURES / "build", tmp_path / "build")
    out = io.StringIO()
    left = _build_catalogs().build(tmp_path / "build" / "locale", tmp_path / "build" / "fragments",
                                   makemessages=False, out=out)
    po = polib.pofile(str(tmp_path / "build" / "locale" / "ko" / "LC_MESSAGES" / "django.po"))
    got = {(entry.msgctxt, entry.msgid): entry.msgstr_plural[0] if entry.msgid_plural else entry.msgstr for entry in po}
    assert got == {
        (None, "Clubs"): "클럽",
        (None, "%(name)s won"): "%(name)s 님이 이겼습니다",  # the fuzzy guess dropped, then filled
        (None, "%(count)s match"): "매치 %(count)s개",
        ("board point", "Point"): "포인트",  # by context: not the score's 점
        (None, "Players"): "플레이어",  # the catalog's translation stays
        (None, "Appeal"): "",  # the fragment's was fuzzy: not taken
    }
    assert not [entry for entry in po if "fuzzy" in entry.flags] and not po.metadata_is_fuzzy
    assert po.metadata["Language"] == "ko" and po.metadata["Plural-Forms"] == "nplurals=1; plural=0;"
    assert left == 1
    assert out.getvalue() == "ko django: 5 translated, 1 untranslated\n    untranslated: 'Appeal'\n"
    assert check_complete(po, "ko") == ["ko: 'Appeal' is untranslated"]


# --- the real catalogs ---------------------------------------------------------------------------------


def _real(lang: str, domain: str) -> polib.POFile | None:
    po = catalog(lang, domain)
    if po is None and len(extracted_msgids(domain)) == 0:
        return polib.POFile()  # no script marks a string yet: no djangojs catalog to keep
    return po


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalog_is_complete_with_the_msgids_placeholders(lang, domain):
    po = _real(lang, domain)
    assert po is not None, f"no {lang} {domain}.po: run locale/build_catalogs.py"
    problems = (check_header(po, lang) if len(po) else []) + check_complete(po, lang)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalog_uses_the_glossary_s_words(lang, domain):
    po = _real(lang, domain)
    assert po is not None, f"no {lang} {domain}.po: run locale/build_catalogs.py"
    problems = check_glossary(po, lang, load_glossary())
    assert not problems, f"{len(problems)} entries without the glossary's word:\n" + "\n".join(problems)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalog_has_every_msgid_of_the_code(lang, domain):
    problems = check_current(catalog(lang, domain), extracted_msgids(domain), lang, domain)
    assert not problems, f"{len(problems)} msgids missing:\n" + "\n".join(problems)
