"""Build the catalogs locale/<lang>/LC_MESSAGES/{django,djangojs}.po from the code and the fragments.

The merger runs it once every area's fragments are in (locale/fragments/<area>.<lang>.po):

    DATABASE_URL=... .venv/bin/python locale/build_catalogs.py            # makemessages, fill, report
    .venv/bin/python manage.py compilemessages --ignore=.venv            # the .mo files the service reads

1. ``makemessages -l ko -l ar -l ro`` for both domains (ignoring .venv, bench, tests, locale): every
   msgid the code marks, the translations already in the catalogs kept.
2. Every entry makemessages left fuzzy (its guess from a similar msgid) loses the guess: a fuzzy
   entry is untranslated, and the checks refuse it.
3. Every empty msgstr is filled from the fragments of that language (by msgctxt and msgid, a plural by
   its msgid_plural too); a fragment's fuzzy or empty entries are not used. A translation already in
   the catalog stays.
4. Each catalog's header gets its Language and Plural-Forms, and it prints, per language and domain,
   the counts translated/untranslated and the msgids still untranslated. Exit status 1 if any is.

``--no-makemessages`` skips step 1 (the catalogs must exist); ``--locale`` and ``--fragments``
name other folders (the tests run it on tests/i18n_fixtures/).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import polib

BASE_DIR = Path(__file__).resolve().parent.parent
LANGUAGES = ("ko", "ar", "ro")
DOMAINS = ("django", "djangojs")
IGNORED = (".venv", "bench", "tests", "locale")
PLURAL_FORMS = {
    "ko": "nplurals=1; plural=0;",
    "ar": "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);",
    "ro": "nplurals=3; plural=(n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2);",
}


def _key(entry: polib.POEntry) -> tuple:
    return (entry.msgctxt, entry.msgid, entry.msgid_plural or None)


def _translated(entry: polib.POEntry) -> bool:
    if "fuzzy" in entry.flags or entry.obsolete:
        return False
    if entry.msgid_plural:
        return bool(entry.msgstr_plural) and all(entry.msgstr_plural.values())
    return bool(entry.msgstr)


def _clear(entry: polib.POEntry) -> None:
    """Drop a fuzzy guess: the entry becomes untranslated."""
    entry.flags = [flag for flag in entry.flags if flag != "fuzzy"]
    entry.previous_msgid = entry.previous_msgid_plural = entry.previous_msgctxt = None
    if entry.msgid_plural:
        entry.msgstr_plural = {index: "" for index in entry.msgstr_plural}
    else:
        entry.msgstr = ""


def translations_from(fragments: list[polib.POFile]) -> dict[tuple, polib.POEntry]:
    """(msgctxt, msgid, msgid_plural) -> a translated entry of the fragments (the first found)."""
    found: dict[tuple, polib.POEntry] = {}
    for fragment in fragments:
        for entry in fragment:
            if _translated(entry):
                found.setdefault(_key(entry), entry)
    return found


def fill_catalog(po: polib.POFile, lang: str, fragments: list[polib.POFile]) -> list[polib.POEntry]:
    """Clear the fuzzy entries of ``po``, fill its empty msgstrs from ``fragments``, set its header;
    return the entries still untranslated. Changes ``po`` in memory only."""
    known = translations_from(fragments)
    nplurals = int(PLURAL_FORMS[lang].split(";")[0].split("=")[1])
    for entry in po:
        if entry.obsolete:
            continue
        if "fuzzy" in entry.flags:
            _clear(entry)
        if _translated(entry):
            continue
        source = known.get(_key(entry))
        if source is None:
            continue
        if entry.msgid_plural:
            entry.msgstr_plural = {index: source.msgstr_plural.get(index, "") for index in range(nplurals)}
        else:
            entry.msgstr = source.msgstr
    po.metadata["Language"] = lang
    po.metadata["Plural-Forms"] = PLURAL_FORMS[lang]
    po.metadata["Content-Type"] = "text/plain; charset=UTF-8"
    # The header itself is fuzzy in a fresh catalog: gettext would then ignore its Plural-Forms.
    po.metadata_is_fuzzy = False
    return [entry for entry in po if not entry.obsolete and not _translated(entry)]


def run_makemessages(root: Path = BASE_DIR) -> None:
    """makemessages for every language and domain, in the project's root."""
    for domain in DOMAINS:
        command = [sys.executable, "manage.py", "makemessages", "-d", domain, "--no-obsolete"]
        command += [arg for lang in LANGUAGES for arg in ("-l", lang)]
        command += [f"--ignore={name}" for name in IGNORED]
        subprocess.run(command, cwd=root, check=True)


def build(locale_dir: Path, fragments_dir: Path, *, makemessages: bool = True, out=sys.stdout) -> int:
    """The whole build (see the module's docstring); the number of entries left untranslated."""
    if makemessages:
        run_makemessages()
    left = 0
    for lang in LANGUAGES:
        fragments = [polib.pofile(str(path)) for path in sorted(fragments_dir.glob(f"*.{lang}.po"))]
        for domain in DOMAINS:
            path = locale_dir / lang / "LC_MESSAGES" / f"{domain}.po"
            if not path.exists():
                continue  # makemessages writes no djangojs.po while no script marks a string
            po = polib.pofile(str(path), wrapwidth=0)
            untranslated = fill_catalog(po, lang, fragments)
            po.save()
            done = len([entry for entry in po if not entry.obsolete]) - len(untranslated)
            print(f"{lang} {domain}: {done} translated, {len(untranslated)} untranslated", file=out)
            for entry in untranslated:
                context = f" [{entry.msgctxt}]" if entry.msgctxt else ""
                print(f"    untranslated{context}: {entry.msgid!r}", file=out)
            left += len(untranslated)
    return left


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locale", type=Path, default=BASE_DIR / "locale")
    parser.add_argument("--fragments", type=Path, default=BASE_DIR / "locale" / "fragments")
    parser.add_argument("--no-makemessages", action="store_true")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    left = build(args.locale, args.fragments, makemessages=not args.no_makemessages)
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
