"""One term per concept: the glossary (locale/glossary.csv) names, per term and language, the word
to write and the variants it rejects (a loanword, another concept's word, a machine translation's);
no catalog translates an entry whose English names the term with a rejected variant, and Romanian
speaks to the reader in the "dvs." register only.

The checks are first shown to find every variant put in the small catalogs of
tests/i18n_fixtures/variants.<lang>.po, and to leave the glossary's words alone; then they run on
the real catalogs.
"""

from __future__ import annotations

from pathlib import Path

import polib
import pytest

from tests.i18n_checks import DOMAINS, LANGUAGES, catalog, check_glossary, check_register, check_variants, load_glossary

FIXTURES = Path(__file__).parent / "i18n_fixtures"


def _fixture(lang: str) -> polib.POFile:
    return polib.pofile(str(FIXTURES / f"variants.{lang}.po"))


def _term(english: str, context: str = ""):
    return next(term for term in load_glossary() if term.english == english and term.context == context)


def test_the_glossary_names_the_concepts_that_drifted_and_their_rejected_variants():
    assert _term("drop").rejected["ko"] == ("드롭", "폴드") and _term("drop").words["ko"] == "패스"
    assert "오거나이저" in _term("organiser").rejected["ko"]
    assert "컨솔레이션" in _term("consolation").rejected["ko"]
    assert "تصنيف" in _term("seed").rejected["ar"] and "تصنيف" not in _term("rating").rejected["ar"]
    assert "الحدث" in _term("event").rejected["ar"]
    assert "refuz" in _term("drop").rejected["ro"] and "disputat" in _term("disputed").rejected["ro"]
    # one English word, two meanings: the context decides the word
    assert _term("withdrawn", "entrant status").words["ko"] == "기권"
    assert _term("withdrawn", "claim status").words["ko"] == "철회됨"
    for term in load_glossary():
        for lang in LANGUAGES:
            for variant in term.rejected[lang]:
                assert not any(variant.lower() in stem.lower() for stem in term.stems[lang]), (
                    f"{term.english}: {lang} rejects {variant!r}, which its own stem contains")


def test_the_variant_check_finds_the_korean_fixture_s_loanwords():
    misses = check_variants(_fixture("ko"), "ko", load_glossary())
    assert [miss.split(" which ")[0] for miss in misses] == [
        "ko: 'A drop ends the game' says 'drop': its translation '드롭하면 게임이 끝납니다' uses '드롭',",
        "ko: 'Ask the organiser' says 'organiser': its translation '주최자(오거나이저)에게 문의하세요' uses '오거나이저',",
    ], misses
    # the stem check alone lets the second through: the glossary's word is there as well
    assert len(check_glossary(_fixture("ko"), "ko", load_glossary())) == 1


def test_the_variant_check_finds_the_arabic_rating_for_a_seed_and_the_event_as_al_hadath():
    misses = check_variants(_fixture("ar"), "ar", load_glossary())
    assert len(misses) == 2, misses
    assert "'He is entered as the last seed' says 'seed'" in misses[0] and "uses 'تصنيف'" in misses[0]
    assert "'This event pays no prizes.' says 'event'" in misses[1] and "uses 'الحدث'" in misses[1]


def test_the_variant_check_finds_disputat_and_the_loanword_bye_in_any_plural_form():
    misses = check_variants(_fixture("ro"), "ro", load_glossary())
    assert [miss.split(" says ")[0] for miss in misses] == ["ro: 'Disputed'", "ro: '%(count)s bye'"], misses
    assert "uses 'bye'" in misses[1] and "bye-uri" in misses[1]


def test_the_register_check_finds_tu_in_romanian_and_leaves_dvs_alone():
    assert check_register(_fixture("ro"), "ro") == [
        "ro: 'Your entry': 'Înscrierea ta' says 'ta', not the catalog's register"]
    po = polib.POFile()
    for msgid, msgstr in (("Your next match", "Următorul dvs. meci"), ("Choose your partner", "Alegeți-vă partenerul"),
                          ("You entered %(now)s", "Ați introdus %(now)s"), ("The file gives a game", "Fișierul dă un joc")):
        po.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
    assert check_register(po, "ro") == []
    for msgstr in ("Poți reveni", "Înscrie-te", "ți-ai confirmat prezența", "ai introdus 3", "nu ești înscris",
                   "Vezi evenimentele"):
        po = polib.POFile()
        po.append(polib.POEntry(msgid="x", msgstr=msgstr))
        assert len(check_register(po, "ro")) == 1, msgstr
    assert check_register(_fixture("ko"), "ko") == []  # no register rule for Korean: 합니다체 is checked by reading


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalog_uses_no_variant_the_glossary_rejects(lang, domain):
    po = catalog(lang, domain) or polib.POFile()
    problems = check_variants(po, lang, load_glossary())
    assert not problems, f"{len(problems)} entries with a rejected variant:\n" + "\n".join(problems)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalog_speaks_in_one_register(lang, domain):
    po = catalog(lang, domain) or polib.POFile()
    problems = check_register(po, lang)
    assert not problems, f"{len(problems)} entries off the register:\n" + "\n".join(problems)
