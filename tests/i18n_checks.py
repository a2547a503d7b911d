"""The checks of the translation catalogs, as plain functions the tests run on the real catalogs
and on the small catalogs of tests/i18n_fixtures/ (where they must find the holes put there).

Each check returns a list of sentences, one per problem, naming the language and the msgid: an
empty list is a clean catalog.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import os
import re
import tempfile
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import polib

BASE_DIR = Path(__file__).resolve().parent.parent
LOCALE_DIR = BASE_DIR / "locale"
GLOSSARY = LOCALE_DIR / "glossary.csv"
#: The languages whose catalogs must be complete, and the two domains (pages and scripts).
LANGUAGES = ("ko", "ar", "ro")
DOMAINS = ("django", "djangojs")
#: What makemessages leaves out: the virtualenv, the benchmarks, the tests and the catalogs.
IGNORED = (".venv", "bench", "tests", "locale")


# --- placeholders -----------------------------------------------------------------------------------

_PLACEHOLDER = re.compile(
    r"%\([^)]+\)[#0+-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]"  # %(name)s, %(count)d
    r"|%[#0+-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]"  # %s, %d (no ' ' flag: "50% sure" is no placeholder)
    r"|\{[A-Za-z_][A-Za-z0-9_]*\}"  # {name}
)


def placeholders(text: str) -> list[str]:
    """The placeholders of ``text``, sorted (order may change in a translation, the set may not)."""
    return sorted(_PLACEHOLDER.findall(text.replace("%%", "")))


def _label(entry: polib.POEntry) -> str:
    return f"{entry.msgctxt}|{entry.msgid!r}" if entry.msgctxt else repr(entry.msgid)


#: How many plural forms each language has (the Plural-Forms of its header).
NPLURALS = {"ko": 1, "ar": 6, "ro": 3}


def check_header(po: polib.POFile, lang: str) -> list[str]:
    """The header names the language and its number of plural forms, and is not fuzzy (gettext
    ignores a fuzzy header's Plural-Forms); every plural entry has that many forms."""
    problems = []
    if po.metadata.get("Language") != lang:
        problems.append(f"{lang}: the header's Language is {po.metadata.get('Language')!r}")
    match = re.search(r"nplurals\s*=\s*(\d+)", po.metadata.get("Plural-Forms", ""))
    if not match or int(match.group(1)) != NPLURALS[lang]:
        problems.append(f"{lang}: the header's Plural-Forms is {po.metadata.get('Plural-Forms')!r}, "
                        f"{lang} has {NPLURALS[lang]} forms")
    if po.metadata_is_fuzzy:
        problems.append(f"{lang}: the header is fuzzy")
    problems += [f"{lang}: {_label(entry)} has {len(entry.msgstr_plural)} plural forms, {lang} has {NPLURALS[lang]}"
                 for entry in po if entry.msgid_plural and not entry.obsolete and len(entry.msgstr_plural) != NPLURALS[lang]]
    return problems


def check_complete(po: polib.POFile, lang: str) -> list[str]:
    """Every entry translated (each plural form too), none fuzzy, every translation with the
    placeholders of its msgid. A plural form may leave out a placeholder (Arabic's "one" form says
    "مباراة واحدة" without the number) but never brings one the msgid lacks; its last form, the
    general one, has exactly the placeholders of msgid_plural."""
    problems = []
    for entry in po:
        if entry.obsolete:
            continue
        where = f"{lang}: {_label(entry)}"
        if "fuzzy" in entry.flags:
            problems.append(f"{where} is fuzzy")
        if entry.msgid_plural:
            forms = [entry.msgstr_plural[k] for k in sorted(entry.msgstr_plural)]
            if not forms or any(not form for form in forms):
                problems.append(f"{where} is untranslated (a plural form is empty)")
                continue
            allowed = set(placeholders(entry.msgid)) | set(placeholders(entry.msgid_plural))
            for index, form in enumerate(forms):
                extra = set(placeholders(form)) - allowed
                if extra:
                    problems.append(f"{where}: plural form {index} has placeholders the msgid lacks: {sorted(extra)}")
            if placeholders(forms[-1]) != placeholders(entry.msgid_plural):
                problems.append(f"{where}: the last plural form has {placeholders(forms[-1])}, "
                                f"the msgid_plural {placeholders(entry.msgid_plural)}")
        elif not entry.msgstr:
            problems.append(f"{where} is untranslated")
        elif placeholders(entry.msgstr) != placeholders(entry.msgid):
            problems.append(f"{where}: the translation has placeholders {placeholders(entry.msgstr)}, "
                            f"the msgid {placeholders(entry.msgid)}")
    return problems


# --- the glossary -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Term:
    english: str
    context: str  # "" for every entry, else only entries with this msgctxt
    stems: dict[str, tuple[str, ...]]  # language -> the stems, any of which must appear
    #: language -> the glossary's word for the term (what a translator writes)
    words: dict[str, str] = field(default_factory=dict)
    #: language -> the variants the glossary rejects for this term (a loanword, another concept's word)
    rejected: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @functools.cached_property
    def pattern(self) -> re.Pattern:
        words = r"[\s-]+".join(re.escape(word) for word in self.english.split())
        return re.compile(rf"(?<![\w-]){words}(?:s|es)?(?![\w-])", re.IGNORECASE)


def load_glossary(path: Path = GLOSSARY) -> list[Term]:
    """The glossary's terms, the longest first (so "doubling cube" is found before "cube")."""
    with open(path, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    terms = [Term(row["english"], row["context"], {lang: tuple(row[f"{lang}_stem"].split("|")) for lang in LANGUAGES},
                  {lang: row[lang] for lang in LANGUAGES},
                  {lang: tuple(filter(None, (row.get(f"{lang}_reject") or "").split("|"))) for lang in LANGUAGES})
             for row in rows]
    return sorted(terms, key=lambda term: -len(term.english))


#: (msgid, English term) -> why the term there is not the game's word, so the stem need not appear.
GLOSSARY_EXCEPTIONS: dict[tuple[str, str], str] = {
    ("%(name)s is the last player left: finish the event", "player"): "KO says 'only %(name)s is left'",
    ("A round pairs someone twice or pairs a player with himself.", "player"): "KO says 'the same person'",
    ("this event is for single players: enter without a partner", "player"): "KO 개인전: an individual event",
    ("Only tied players roll again in the roll-off.", "player"): "AR المتعادلون: the tied ones",
    ("a single game", "game"): "the glossary's 'single game' is a win: فوز عادي",
    ("single game", "game"): "the glossary's 'single game' is a win: فوز عادي",
    ("give either points or minutes_late", "point"): "points and minutes_late are the API's field names",
    ("Round of %(count)d", "round"): "KO %(count)d강 and AR دور الـ%(count)d: the names of a knockout round",
    ("%(role)r is not a role: owner, organiser or member", "organiser"): "owner, organiser, member: the API's role codes",
    ("%(name)s: the entry %(entry)r has an unsafe path", "entry"): "an entry of a .zip archive, not an event's",
}

#: Code inside a message: a JSON example in braces, a quoted example, a field name with an underscore, a path.
_CODE = re.compile(r'\{[^{}]*\}|"[^"]*"|“[^”]*”|\b\w+_\w+\b|/\S*/')

#: Words that never mean the game's term whatever the entry: "box" in "check box", "round" as a verb,
#: "match" as a verb, "point" as a verb ("point into the log"), "double elimination" (no cube), and
#: the names of programs ("GNU Backgammon", "eXtreme Gammon"), which stay as they are.
_NOT_TERMS = re.compile(r"\b(?:check ?box(?:es)?|round(?:ed)? (?:up|down|off)|match(?:es|ing)? (?:the|your|this|that)"
                        r"|point(?:s|ed|ing)? (?:into|at|out)|point(?:ed|ing) to|double elimination"
                        r"|(?:does not|doesn't|not) match|Match ID|pass(?:es)? the limit|(?:not|never) pass"
                        r"|GNU Backgammon|eXtreme Gammon|Backgammon Galaxy|Backgammon Studio)\b",
                        re.IGNORECASE)


def terms_in(entry: polib.POEntry, glossary: list[Term]) -> list[Term]:
    """The glossary terms the entry's English uses, each once; a longer term hides the words it
    covers ("doubling cube" is not also "cube"); a term with a context row (``point`` / "board
    point") takes that row for entries of that msgctxt and the general row for the others."""
    # The placeholders are names, not words: "%(round)s" is no round.
    text = _PLACEHOLDER.sub(" ", " ".join(filter(None, (entry.msgid, entry.msgid_plural))))
    text = _NOT_TERMS.sub(" ", text)
    # Code in a message is not the game's words: {player, points}, "consolation": 3, minutes_late.
    text = _CODE.sub(" ", text)
    found: dict[str, Term] = {}
    contexts = {term.english.lower(): set() for term in glossary}
    for term in glossary:
        if term.context:
            contexts[term.english.lower()].add(term.context)
    for term in glossary:
        key = term.english.lower()
        if term.context and term.context != entry.msgctxt:
            continue
        if not term.context and entry.msgctxt in contexts[key]:
            continue
        if (entry.msgid, term.english) in GLOSSARY_EXCEPTIONS:
            continue
        if term.pattern.search(text):
            found.setdefault(key, term)
            text = term.pattern.sub(" ", text)
    return list(found.values())


def check_glossary(po: polib.POFile, lang: str, glossary: list[Term]) -> list[str]:
    """Every translated entry whose English names a glossary term has that language's stem in
    every form of its translation (untranslated entries are check_complete's)."""
    problems = []
    for entry in po:
        if entry.obsolete or "fuzzy" in entry.flags:
            continue
        forms = [entry.msgstr_plural[k] for k in sorted(entry.msgstr_plural)] if entry.msgid_plural else [entry.msgstr]
        forms = [form for form in forms if form]
        if not forms:
            continue
        for term in terms_in(entry, glossary):
            stems = term.stems[lang]
            for form in forms:
                if not any(stem.lower() in form.lower() for stem in stems):
                    problems.append(f"{lang}: {_label(entry)} says {term.english!r}: its translation {form!r} "
                                    f"has none of {' / '.join(stems)}")
                    break
    return problems


def _forms(entry: polib.POEntry) -> list[str]:
    forms = [entry.msgstr_plural[k] for k in sorted(entry.msgstr_plural)] if entry.msgid_plural else [entry.msgstr]
    return [form for form in forms if form]


def check_variants(po: polib.POFile, lang: str, glossary: list[Term]) -> list[str]:
    """No translated entry whose English names a glossary term uses a variant the glossary rejects
    for that term in that language (KO 드롭 for a drop, AR تصنيف for a seed, RO "disputat").

    A rejected variant is another concept's word: it may appear when the English names that other
    concept too ("seeded by rating" has the rating's تصنيف; "the tournament's event" has turneu), so
    a variant inside the word or a stem of another term the entry names is no miss."""
    problems = []
    for entry in po:
        if entry.obsolete or "fuzzy" in entry.flags:
            continue
        forms = _forms(entry)
        if not forms:
            continue
        terms = terms_in(entry, glossary)
        for term in terms:
            others = [other for other in terms if other is not term]
            allowed = [text.lower() for other in others for text in (other.words.get(lang, ""), *other.stems[lang]) if text]
            for variant in term.rejected.get(lang, ()):
                if any(variant.lower() in text for text in allowed):
                    continue
                # A placeholder is a name, not a word: "%(bye)s" is no loanword.
                form = next((form for form in forms if variant.lower() in _PLACEHOLDER.sub(" ", form).lower()), None)
                if form is not None:
                    problems.append(f"{lang}: {_label(entry)} says {term.english!r}: its translation {form!r} "
                                    f"uses {variant!r}, which the glossary rejects (write {term.words.get(lang)!r})")
                    break
    return problems


#: Words of a register the catalog does not use, per language: Romanian speaks to the reader as
#: "dvs." (puteți, dvs., vă, -vă), never as "tu" (poți, te, ți, tău, ta).
REGISTER = {
    "ro": re.compile(r"(?<![\w-])(?:tu|te|ți|ție|tine|tău|ta|tale|tăi|poți|vrei|știi|ești|joci|ai fost|te-|ți-"
                     r"|ai \w+(?:at|it|ut|ât|us)|introdu|vezi)(?![\w])"
                     r"|(?<=\w)-(?:te|ți|l-ai)(?![\w])", re.IGNORECASE),
}


def check_register(po: polib.POFile, lang: str) -> list[str]:
    """No translation speaks to the reader in the register the language's catalog does not use."""
    pattern = REGISTER.get(lang)
    if pattern is None:
        return []
    problems = []
    for entry in po:
        if entry.obsolete or "fuzzy" in entry.flags:
            continue
        for form in _forms(entry):
            found = pattern.search(form)
            if found:
                problems.append(f"{lang}: {_label(entry)}: {form!r} says {found.group(0)!r}, not the catalog's register")
                break
    return problems


# --- current catalogs: what the code asks for -----------------------------------------------------------

def _key(entry: polib.POEntry) -> tuple[str | None, str]:
    return (entry.msgctxt, entry.msgid)


def check_current(po: polib.POFile | None, extracted: polib.POFile, lang: str, domain: str) -> list[str]:
    """Every msgid the code marks (``extracted``, from makemessages) is in the catalog."""
    have = set() if po is None else {_key(entry) for entry in po if not entry.obsolete}
    missing = [entry for entry in extracted if _key(entry) not in have]
    return [f"{lang} {domain}.po: {_label(entry)} is in the code ({entry.occurrences[0][0] if entry.occurrences else '?'}) "
            f"but not in the catalog: run locale/build_catalogs.py" for entry in missing]


@contextlib.contextmanager
def _cwd(path: Path):
    before = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


@functools.cache
def extracted_msgids(domain: str, root: Path = BASE_DIR) -> polib.POFile:
    """What makemessages finds in the code for ``domain``, without touching the project: the source
    folders are laid out again in a temporary folder, each file a link to its source, and that
    folder's own locale/ receives the catalog.

    Folders are made, not linked: makemessages writes each template it reads as a ``.py`` file
    beside it (``login.html.py``) and removes it after, so in a linked folder it would write into
    the project, where another test process reading the templates, or making the same file, at
    the same moment would trip over it (the suite runs in parallel).

    Cached for the test session: xgettext over the whole project takes seconds."""
    import shutil

    from django.core.management import call_command
    from django.test import override_settings

    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        for child in root.iterdir():
            if child.name.startswith(".") or child.name in IGNORED or child.name == "__pycache__":
                continue
            if child.is_dir():
                shutil.copytree(child, tmp_path / child.name, copy_function=os.symlink,
                                ignore=shutil.ignore_patterns("__pycache__"))
            else:
                (tmp_path / child.name).symlink_to(child)
        locale = tmp_path / "locale"
        locale.mkdir()
        with _cwd(tmp_path), override_settings(LOCALE_PATHS=[str(locale)]):
            call_command("makemessages", locale=["ko"], domain=domain, symlinks=True, verbosity=0,
                         ignore_patterns=[*IGNORED, "__pycache__", "node_modules", "staticfiles"])
        path = locale / "ko" / "LC_MESSAGES" / f"{domain}.po"
        return polib.pofile(str(path)) if path.exists() else polib.POFile()


def catalog(lang: str, domain: str, locale_dir: Path = LOCALE_DIR) -> polib.POFile | None:
    path = locale_dir / lang / "LC_MESSAGES" / f"{domain}.po"
    return polib.pofile(str(path)) if path.exists() else None


# --- rendered pages: English left in a translated page ---------------------------------------------------

#: Short msgids a translated page must never show as a whole text (nav labels and buttons of every
#: page); longer msgids (``LONG_WORDS`` words or more) are looked for anywhere in the text.
SHORT_MSGIDS = ("Tournaments", "Clubs", "Players", "My matches", "Disputes", "Claims", "Organiser requests",
                "Profile", "Your account", "Sign out", "Sign up", "Sign in")
LONG_WORDS = 4
#: Names of programs and formats that stay as they are in every language.
NAMES = ("GNU Backgammon", "eXtreme Gammon", "Backgammon Studio", "Galaxy", "Crawford", "OpenAPI", "JSON")

_SKIPPED_TAGS = {"script", "style", "template", "noscript"}
_SHOWN_ATTRIBUTES = {"title", "placeholder", "aria-label", "alt"}
_WORD = re.compile(r"^[A-Za-z][A-Za-z'\u2019-]*$")
_QUOTES = "'\"\u2018\u2019\u201c\u201d\u00ab\u00bb"
_BREAK = re.compile(r"[,;:.!?()\[\]|/\u00b7\u2013\u2014\u201c\u201d\u00ab\u00bb\u060c\u061b\u061f]")


class _VisibleText(HTMLParser):
    """The texts a reader sees: each text node, and the attributes a browser shows (a title, a
    placeholder, a button's value); never a script's or a style's content."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in _SKIPPED_TAGS:
            self._skipping += 1
        attributes = dict(attrs)
        for name, value in attributes.items():
            if value and (name in _SHOWN_ATTRIBUTES
                          or (name == "value" and tag == "input" and attributes.get("type") in ("submit", "button"))):
                self.texts.append(value)

    def handle_endtag(self, tag):
        if tag in _SKIPPED_TAGS and self._skipping:
            self._skipping -= 1

    def handle_data(self, data):
        if not self._skipping and data.strip():
            self.texts.append(data)


def visible_texts(html: str) -> list[str]:
    """The page's visible text runs, whitespace collapsed."""
    parser = _VisibleText()
    parser.feed(html)
    parser.close()
    return [" ".join(text.split()) for text in parser.texts]


def _literal_parts(msgid: str) -> list[str]:
    """The pieces of a msgid between its placeholders and tags, whitespace collapsed."""
    return [" ".join(part.split()).strip(" ,;:") for part in re.split(r"<[^>]+>|" + _PLACEHOLDER.pattern, msgid)]


def long_msgid_parts(extracted: polib.POFile) -> list[str]:
    """The literal pieces of LONG_WORDS words or more of the code's msgids (and plurals)."""
    parts = set()
    for entry in extracted:
        for text in filter(None, (entry.msgid, entry.msgid_plural)):
            parts.update(part for part in _literal_parts(text) if len(part.split()) >= LONG_WORDS)
    return sorted(parts, key=len, reverse=True)


def data_pattern(strings) -> re.Pattern | None:
    """One pattern for every data string (a name, an event, a statement) and the NAMES, as whole words."""
    wanted = sorted({" ".join(s.split()) for s in [*strings, *NAMES] if s and len(s.strip()) > 1}, key=len, reverse=True)
    if not wanted:
        return None
    return re.compile(r"(?<![\w])(?:" + "|".join(re.escape(s) for s in wanted) + r")(?![\w])")


def english_runs(text: str, data: re.Pattern | None, words: int = 3) -> list[str]:
    """The runs of ``words`` or more English words in one text, once the data is taken out; a
    sentence mark or a bracket ends a run ("GNU Backgammon, Galaxy or Studio" is a list, not a run)."""
    if data is not None:
        text = data.sub(" | ", text)
    runs = []
    for segment in _BREAK.split(text):
        current: list[str] = []
        for token in [*segment.split(), ""]:
            token = token.strip(_QUOTES)
            if token and _WORD.match(token):
                current.append(token)
                continue
            if len(current) >= words:
                runs.append(" ".join(current))
            current = []
    return runs


def english_on_page(html: str, long_parts: list[str], data: re.Pattern | None) -> list[str]:
    """What is English on a page meant to be translated: the short msgids shown as a whole text,
    the long msgids' pieces anywhere (a piece inside a longer one found is not named again), and any
    run of three English words that is not data."""
    texts = visible_texts(html)
    found = [f"the msgid {text!r}" for text in texts if text in SHORT_MSGIDS]
    joined = " \n ".join(texts)
    shown: list[str] = []
    for part in long_parts:  # the longest first
        if part in joined and not any(part in longer for longer in shown):
            shown.append(part)
    found += [f"the msgid {part!r}" for part in shown]
    found += [f"English words {run!r} (in {text[:80]!r})" for text in texts for run in english_runs(text, data)]
    return list(dict.fromkeys(found))
