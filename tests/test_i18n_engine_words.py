"""The engine's words reach a person in his language: every action, ending, resignation level and
enum label has a translatable wording, and a match, a dispute and a chouette game read in Korean,
Arabic and Romanian show no English word in their move logs.

The engine (``engine/``) keeps its English codes; ``core.engine_words`` words them. The first
tests fail when the engine gains an action type, an ending or a level without a wording, or a model
gains a choice whose label is not marked for translation. The page tests render, in each language,
a money session whose games hold every kind of action (the opening tie, rolls, plays, a double,
a take, a drop, a beaver, a raccoon, resignations accepted and declined, a set-up) and every ending
(single, gammon, backgammon, drop, resign), every moment of it; a dispute's log over those games;
and a chouette board's log. The move logs must hold no English word but the data (the names, the
plays such as ``bar/22`` or ``6/off``, the Position IDs) and the loanwords the glossary gives as the
language's own term (Romanian "beaver"); the rest of each page no English run (tests/i18n_checks).

The catalogs are compiled for the test from locale/<lang>/LC_MESSAGES/*.po, so the test reads the
words of the catalogs in the tree, never a stale compiled one.
"""

from __future__ import annotations

import csv
import re

import polib
import pytest
from django.apps import apps
from django.conf import settings
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from django.utils.functional import Promise

from core.engine_words import (
    ACTION_WORDS,
    ENDING_LABELS,
    LEVEL_LABELS,
    action_text,
    ending_text,
    level_text,
    logged_action_text,
    side_text,
)
from engine.actions import (
    ACTION_TYPES,
    LEVEL_NAMES,
    Accept,
    Beaver,
    Decline,
    Double,
    Drop,
    Move,
    OpeningTie,
    Raccoon,
    Resign,
    Roll,
    Setup,
    Take,
    action_to_dict,
)
from engine.board import Position, side_board
from engine.game import ENDINGS, Game, GameRules
from engine.ids import position_id
from engine.moves import legal_plays
from matches.models import Game as GameRow
from matches.selectors.match import game_moments
from rulings.services.disputes import dispute_open
from tests.chouette.factories import full_record, ids, play, quick, table
from tests.clubs.factories import club_cast
from tests.factories import MatchFactory
from tests.i18n_checks import (
    GLOSSARY,
    LOCALE_DIR,
    data_pattern,
    english_on_page,
    english_runs,
    extracted_msgids,
    long_msgid_parts,
    visible_texts,
)
from tests.rulings.factories import confirm_with_games

LANGUAGES = ("ko", "ar", "ro")
#: The project's apps, whose models' choices a person reads on pages, forms and the admin.
PROJECT_APPS = ("core", "audit", "accounts", "matches", "analysis", "tournaments", "clubs", "chouette", "rulings",
                "webhooks")
#: Choices whose labels are rightly the same in every language: each language named in its own.
OWN_WORDS = {("accounts", "user", "preferred_language")}


# --- every code has a wording ------------------------------------------------------------------------------


def test_every_action_type_of_the_engine_has_a_wording():
    assert set(ACTION_WORDS) == set(ACTION_TYPES), "word the engine's new action in core.engine_words.ACTION_WORDS"


def test_every_ending_and_resignation_level_has_a_wording():
    assert set(ENDING_LABELS) == set(ENDINGS)
    assert set(LEVEL_LABELS) == set(LEVEL_NAMES)
    assert all(isinstance(label, Promise) for label in [*ENDING_LABELS.values(), *LEVEL_LABELS.values()])


def test_the_game_row_s_endings_are_the_engine_s_with_translated_labels():
    assert [code for code, _ in GameRow.ENDINGS] == list(ENDINGS)
    assert all(isinstance(label, Promise) for _, label in GameRow.ENDINGS)
    game = GameRow(ending="drop")
    with translation.override("en"):
        assert game.get_ending_display() == "double dropped" == ending_text("drop")


def test_every_choice_a_person_reads_is_marked_for_translation():
    untranslated = []
    for model in apps.get_models():
        if model._meta.app_label not in PROJECT_APPS:
            continue
        for field in model._meta.get_fields():
            if not getattr(field, "choices", None) or (model._meta.app_label, model._meta.model_name, field.name) in OWN_WORDS:
                continue
            untranslated += [f"{model._meta.label}.{field.name}: {value!r} -> {label!r}"
                             for value, label in field.flatchoices if not isinstance(label, Promise)]
    assert not untranslated, "\n".join(untranslated)


#: One action of every type and every variant a wording tells apart.
EVERY_ACTION = [
    Setup(None, position="4HPwATDgc/ABMA"), OpeningTie(None, die=3), Roll(0, dice=(5, 2)),
    Move(1, play="13/10 13/11"), Move(1, play=""), Double(0, value=2), Double(0), Take(1), Drop(1),
    Beaver(1, value=4), Beaver(1), Raccoon(0, value=8), Raccoon(0),
    Resign(0, level=1), Resign(0, level=2), Resign(0, level=3), Accept(1), Decline(1),
]


def test_in_english_the_log_reads_as_the_engine_writes_it():
    with translation.override("en"):
        assert [action_text(action) for action in EVERY_ACTION[2:10]] == [
            "roll 52", "play 13/10 13/11", "cannot move", "double to 2", "double", "take", "drop", "beaver to 4"]
        assert action_text(Resign(0, level=2)) == "resign a gammon"
        assert action_text(Accept(1)) == "accept the resignation"
        assert logged_action_text({"type": "roll", "side": 1, "dice": [3, 1]}, ("Ana", "Bob")) == "Bob: roll 31"
        assert logged_action_text({"type": "opening_tie", "die": 4}, ("Ana", "Bob")) == "opening roll 44, a tie"
        assert (side_text(0), side_text(1, ("Ana", "Bob")), side_text(None)) == ("the first side", "Bob", "nobody")
        assert (level_text(3), ending_text("resign")) == ("a backgammon", "resignation")


@pytest.mark.parametrize("raw", [{"type": "jump", "side": 0}, "roll 52", {"type": "roll", "side": 0, "dice": [9, 9]},
                                 {"type": "move", "side": 5, "play": "13/8"}, None, [1, 2]])
def test_an_action_that_cannot_be_read_is_said_so_never_shown_as_its_record(raw):
    with translation.override("en"):
        text = logged_action_text(raw, ("Ana", "Bob"))
    assert text == "an action that cannot be read"


# --- the catalogs, compiled for the test ---------------------------------------------------------------


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """A locale folder with every language's catalogs compiled (.mo files are never committed)."""
    root = tmp_path_factory.mktemp("locale")
    for lang in LANGUAGES:
        target = root / lang / "LC_MESSAGES"
        target.mkdir(parents=True)
        for source in sorted((LOCALE_DIR / lang / "LC_MESSAGES").glob("*.po")):
            po = polib.pofile(str(source))
            po.save_as_mofile(str(target / f"{source.stem}.mo"))
    return root


@pytest.fixture
def catalogs(compiled):
    with override_settings(LOCALE_PATHS=[str(compiled)]):  # also empties Django's cache of catalogs
        yield


def loanwords(lang: str) -> list[str]:
    """The glossary's terms of ``lang`` written in Latin letters (Romanian "beaver", "backgammon"):
    the language's own words, never English left over."""
    with open(GLOSSARY, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    words = [word for row in rows for word in [*row[lang].split(), *row[f"{lang}_stem"].split("|")]]
    return [word for word in words if re.fullmatch(r"[A-Za-z-]+", word)]


def english_words(texts, english, data: list[str], lang: str) -> list[str]:
    """The English words of ``texts``, which say in ``lang`` what ``english`` says in English, once
    the data and the glossary's loanwords are taken out. Korean and Arabic have no Latin word of
    their own, so any is English; Romanian is written in Latin letters, so a word is English when
    the English of the same texts uses it ("take" for "acceptare") and it has two letters or more
    (Romanian "a" is no English article)."""
    pattern = data_pattern([*data, *loanwords(lang), "ID"])  # "Position ID" is GNU Backgammon's own term
    vocabulary = {word.lower() for text in english for run in english_runs(text, pattern, words=1) for word in run.split()}
    found = []
    for text in texts:
        for run in english_runs(text, pattern, words=1):
            words = [word for word in run.split()
                     if lang != "ro" or (len(word) > 1 and word.lower() in vocabulary)]
            found += [f"{word!r} in {text!r}" for word in words]
    return found


def _inner_texts(html: str, opening: str) -> list[str]:
    """The visible texts inside the first element that ``opening`` (a regex of its opening tag) starts."""
    found = re.search(opening + r"(.*?)</(?:p|ol)>", html, re.DOTALL)
    assert found, f"no {opening} on the page"
    return visible_texts(found.group(1))


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_action_reads_without_english(lang, catalogs):
    def texts() -> list[str]:
        return [*(action_text(action) for action in EVERY_ACTION), *(str(label) for label in ENDING_LABELS.values()),
                *(level_text(level) for level in LEVEL_LABELS), logged_action_text({"type": "jump"}),
                side_text(0), side_text(1), side_text(None)]

    with translation.override("en"):
        english = texts()
    with translation.override(lang):
        translated = texts()
    found = english_words(translated, english, ["13/10 13/11", "4HPwATDgc/ABMA"], lang)
    assert not found, "\n".join(found)
    if lang == "ar":  # a play and the dice read left to right inside the Arabic phrase
        with translation.override(lang):
            assert "\u206613/10 13/11\u2069" in action_text(Move(1, play="13/10 13/11"))
            assert "\u206652\u2069" in action_text(Roll(0, dice=(5, 2)))


# --- the pages ---------------------------------------------------------------------------------------------


def _logged(rules: GameRules, items) -> list[dict]:
    """A game log of ``items`` (actions; "play": the first legal play of the roll), checked by the engine."""
    game = Game(rules)
    for item in items:
        game.apply(Move(game.position.turn, play=legal_plays(game.position, game.dice)[0].notation)
                   if item == "play" else item)
    return [action_to_dict(action) for action in game.actions]


def _ending(loser: dict) -> list[dict]:
    """A game set up wrongly (which stands) where side 0, one checker left on his 1-point, bears it
    off at once; ``loser``: side 1's checkers by point, which make it a single, a gammon or a backgammon."""
    start = Position.from_sides(side_board({1: 1}), side_board(loser), 0)
    return [action_to_dict(Setup(None, position=position_id(start))), action_to_dict(Roll(0, dice=(2, 1))),
            action_to_dict(Move(0, play="1/off"))]


def every_kind_of_game(rules: GameRules) -> list[list[dict]]:
    """Games holding every kind of action and ending."""
    return [
        _logged(rules, [OpeningTie(None, die=3), Roll(0, dice=(3, 1)), "play", Double(1, value=4), Beaver(0, value=8),
                        Raccoon(1, value=16), Roll(1, dice=(6, 4)), "play", Resign(0, level=2), Decline(1),
                        Roll(0, dice=(5, 2)), "play", Resign(1, level=3), Accept(0)]),
        _logged(rules, [Roll(0, dice=(3, 1)), "play", Double(1, value=2), Take(0), Roll(1, dice=(6, 4)), "play",
                        Resign(1, level=1), Accept(0)]),
        _logged(rules, [Roll(0, dice=(3, 1)), "play", Double(1, value=2), Drop(0)]),
        _ending({6: 14}),  # single: side 1 has borne off one
        _ending({6: 15}),  # gammon
        _ending({6: 14, 20: 1}),  # backgammon: one left in the winner's home board
    ]


@pytest.fixture
def played():
    """A money session (beavers, raccoons, an automatic double) with every kind of game, confirmed."""
    match = MatchFactory(money=True, beavers=True, raccoons=True, automatic_doubles=1,
                         side0__player_a__display_name="Ana", side1__player_a__display_name="Bob")
    games = every_kind_of_game(match.rules().game_rules(crawford_game=False))
    match = confirm_with_games(match, games)
    assert sorted({game.ending for game in match.games.all()}) == sorted(ENDINGS)
    assert {action["type"] for game in match.games.all() for action in game.log} == set(ACTION_TYPES)
    return match


def _reader(user, lang: str) -> Client:
    # The account follows its browser, so the cookie the switcher sets picks the page's language
    # (an account's own choice would outrank it, and the English reading below needs the switch).
    user.preferred_language = "browser"
    user.save(update_fields=["preferred_language"])
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client


def _get(client: Client, url: str, lang: str) -> str:
    with translation.override(lang):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200, url
    return response.content.decode()


def _match_data(match) -> list[str]:
    """What a match page shows as it was typed or recorded: names, plays, Position IDs."""
    data = [match.side0.name, match.side1.name, match.organiser.get_username()]
    for game in match.games.all():
        data += [action.get("play", "") for action in game.log] + [action.get("position", "") for action in game.log]
    return [text for text in data if text]


def _page_english(html: str, data: list[str], lang: str) -> list[str]:
    """What is English on a whole page (tests/i18n_checks.english_on_page): the code's msgids and,
    in Korean and Arabic, any run of three English words (Romanian's own words are Latin)."""
    found = english_on_page(html, long_msgid_parts(extracted_msgids("django")), data_pattern(data))
    return found if lang != "ro" else [text for text in found if text.startswith("the msgid")]


def _read(client: Client, url: str, lang: str, opening: str) -> tuple[str, list[str], list[str]]:
    """The page at ``url`` in ``lang`` and the texts of its log (the element ``opening`` starts),
    in ``lang`` and in English."""
    html = _get(client, url, lang)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the switcher's choice comes first
    try:
        english = _inner_texts(_get(client, url, "en"), opening)
    finally:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return html, _inner_texts(html, opening), english


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_match_with_every_action_and_ending_reads_without_english(lang, catalogs, played):
    client = _reader(played.organiser, lang)
    base = reverse("matches:detail", args=[played.pk])
    data = [*_match_data(played), *(moment.position_id for game in played.games.all()
                                    for moment in game_moments(played, game))]
    found, logs, english = [], [], []
    for game in played.games.all():
        for index in range(len(game.log) + 1):
            html, texts, in_english = _read(client, f"{base}?game={game.number}&moment={index}", lang,
                                            r'<p class="next-action">')
            logs += texts
            english += in_english
            if index in (0, len(game.log)):
                found += _page_english(html, data, lang)
    found += english_words(logs, english, data, lang)
    assert not found, "\n".join(dict.fromkeys(found))
    assert len(logs) == sum(len(game.log) + 1 for game in played.games.all())


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_dispute_s_log_reads_without_english(lang, catalogs, played):
    client = _reader(played.organiser, lang)
    data = _match_data(played)
    found, logs, english = [], [], []
    # The log around each disputed action (four lines either side): together every line of the games.
    for number, move in ((1, 5), (1, 12), (2, 5), (3, 2), (4, 1), (5, 3), (6, 3)):
        dispute = dispute_open(match_id=played.pk, user=played.organiser, category="illegal_move",
                               statement="Ana moved too soon.", game_number=number, move_number=move)
        html, texts, in_english = _read(client, reverse("rulings:dispute", args=[dispute.pk]), lang,
                                        r'<ol class="log"[^>]*>')
        logs += texts
        english += in_english
        found += _page_english(html, [*data, dispute.position_id, "Ana moved too soon."], lang)
    found += english_words(logs, english, data, lang)
    assert not found, "\n".join(dict.fromkeys(found))
    assert len(logs) >= sum(len(game.log) for game in played.games.all())


@pytest.fixture
def chouette_cast():
    return club_cast()


@pytest.fixture
def full_game(chouette_cast):
    """A chouette table whose first game was recorded in full (the board's log: rolls, plays, a
    double dropped by the Captain, a resignation accepted) and whose second by a quick result."""
    session = table(chouette_cast)
    play(chouette_cast, session, full_record(ids(chouette_cast)), kind="full")
    return session


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_chouette_board_s_log_reads_without_english(lang, catalogs, chouette_cast, full_game):
    client = _reader(chouette_cast.owner, lang)
    html, logs, english = _read(client, reverse("chouette:game", args=[chouette_cast.club.slug, full_game.pk, 1]), lang,
                                r'<ol class="board-log">')
    record = full_record(ids(chouette_cast))
    assert len(logs) == len(record["board_log"])
    names = [player.display_name for player in (chouette_cast.player(user) for user in (
        chouette_cast.owner, chouette_cast.organiser, *chouette_cast.members))]
    data = [*names, *(action.get("play", "") for action in record["board_log"]), full_game.name,
            chouette_cast.club.name, chouette_cast.club.city, full_game.currency, chouette_cast.owner.get_username(),
            chouette_cast.organiser.get_username()]
    found = english_words(logs, english, data, lang) + _page_english(html, data, lang)
    assert not found, "\n".join(dict.fromkeys(found))


@pytest.mark.django_db
def test_the_board_s_log_costs_the_chouette_game_page_no_query(chouette_cast, full_game):
    """The board's log is read from the game's kept record: a game recorded in full is shown in as
    many queries as a quick one."""
    play(chouette_cast, full_game, quick("box", cubes={ids(chouette_cast)["otis"]: 2}))
    client = Client()
    client.force_login(chouette_cast.owner)

    def queries(number: int) -> tuple[int, str]:
        url = reverse("chouette:game", args=[chouette_cast.club.slug, full_game.pk, number])
        client.get(url)  # the table's state cached, as on every read after the first
        with CaptureQueriesContext(connection) as captured:
            html = client.get(url).content.decode()
        return len(captured.captured_queries), html

    full, full_html = queries(1)
    quick_count, quick_html = queries(2)
    assert 'class="board-log"' in full_html and 'class="board-log"' not in quick_html
    assert full == quick_count
