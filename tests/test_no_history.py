"""The code says what it does and why, in the domain's words, never which issue, ticket or session
asked for it: no "issue N" and no session tag ("<word><two digits>", as the tags sessions used
to mark their work) in any tracked file's text or in a test file's name. Applied migrations keep
their names (databases know them by it); their text is held to the same rule."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Built from pieces so that this file does not match itself.
ISSUE = re.compile(r"\bissues?[ _]+#?\d+\b|\bbefore_" + "issue", re.IGNORECASE)
# A lower-case word of three letters or more ending in 10..29, inside an identifier or a file name
# too (test_flights + 17), not the middle of a longer word (jsi18n) nor an escape (\uff11).
TAG = re.compile(r"(?<![A-Za-z\\])[a-z]{3,}(?:1[0-9]|2[0-9])(?![0-9A-Za-z])")
# Words of the trade that look like tags but are not.
NOT_TAGS = {"log10"}
SKIPPED_SUFFIXES = (".po", ".mo", ".png", ".jpg", ".ico", ".pdf", ".woff", ".woff2", ".ttf", ".gz", ".zip")


def tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [name for name in out.splitlines() if name and not name.endswith(SKIPPED_SUFFIXES)]


# An applied migration's name ("0014_abt" + "17"), as later migrations depend on it.
MIGRATION_NAME = re.compile(r"\b\d{4}_\w+")


def mentions(text: str) -> list[str]:
    text = MIGRATION_NAME.sub("", text)
    found = [match.group(0) for match in ISSUE.finditer(text)]
    found += [match.group(0) for match in TAG.finditer(text) if match.group(0).lower() not in NOT_TAGS]
    return found


def test_no_file_speaks_of_the_issue_or_session_that_asked_for_it():
    this = Path(__file__).resolve().relative_to(ROOT).as_posix()
    offenders = []
    for name in tracked():
        if name == this:
            continue
        path = ROOT / name
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            for found in mentions(line):
                offenders.append(f"{name}:{number}: {found}")
    assert not offenders, "\n".join(offenders[:50]) + (f"\n... {len(offenders)} in all" if len(offenders) > 50 else "")


def test_no_test_file_is_named_after_a_session():
    named = [name for name in tracked() if name.startswith("tests/") and mentions(Path(name).name.replace(".py", " "))]
    assert not named, named


def test_the_check_finds_what_it_is_for():
    # The patterns catch what they must (so the two tests above can fail) and spare the trade's words.
    assert mentions("a buy-back (" + "issue 17 point 4)") and mentions("see " + "Issue #12")
    assert mentions("(abt" + "17)") and mentions("test_flights" + "17") and mentions("def before_" + "issue_12(")
    assert not mentions('dependencies = [("tournaments", "0014_abt' + '17")]')
    assert not mentions("math.log10(x); 17 issues of the newsletter; the 17-point match; sha256; jsi18n; \\uff11")
