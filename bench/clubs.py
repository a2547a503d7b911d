"""Clubs benchmark: prints how long a chouette table takes to replay, record and serve, each against
an anchor measured in the same run.

    .venv/bin/python bench/clubs.py [--seed S] [--rounds N] [--no-server] [--no-http] [--db-name NAME]
                                    [--seconds 5] [--connections 8]

1. The pure engine: ``engine.chouette.replay_session`` on sessions of 4, 6 and 8 players with 50, 200
   and 1,000 quick games, and on one of 6 players with 200 full records. The quick records are drawn
   from a seeded ``random.Random`` (random winners and levels; the Box and the team double now and
   then, members take or drop, so the cubes and drops come with the cube log that explains them) and
   checked by the engine as they are built. The full records' boards are games of
   ``engine.randomgame.random_match_games`` (sensible-random checker play, the Captain's own doubles,
   takes and drops), played as money boards, with the crew's cube moments added at the doubler's turn
   (with the Captain's doubles or on their own); a board that ends with the Captain's drop ends with
   every crew member still in dropping too. Anchor: ``json.loads`` of the session's stored steps (one
   text per step, as the rows hold them): the unavoidable cost of reading them. Printed: ms per replay
   of the parsed steps, and ms from the stored text (``json.loads``, ``step_from_json``, replay), each
   with its ratio to the anchor.
2. The service path, in the PostgreSQL database ``crawford_bench_clubs`` (dropped, created and
   migrated as bench/draw.py does): a club (``club_create``, members invited and accepted) with a
   6-player chouette table; 200 quick games recorded one by one through
   ``chouette.services.chouette_game_record`` (each folds the new game into the state the session
   keeps: one game settled, no step row read), the time and query count of the 1st, 50th, 100th and
   200th record, what a full replay of the 200 games would cost (reading the rows, parsing the
   steps, replaying them: what a correction does, or a record whose kept state does not match), and
   ``chouette.selectors.chouette_state`` at 200 games, computed (the cache cleared) and from the
   cache (it is cached by the table's version). A throwaway table records one game first, so that
   the 1st record is not the process's first query. Then two more tables are played to 49 and 999
   games, and 15 games are recorded at each in turn (both timed under the same load): the cost of
   recording game 50 and game 1,000 (medians) and their ratio. Goal: O(1)
   replays per game, so a ratio near 1: at most 1.2x, and the same query count.
3. HTTP (skip 2 and 3 with ``--no-server``), with ``bench/api.py``'s harness: gunicorn (gthread) on
   loopback serves the product plus ``/bench/noop/``; the chouette table's state endpoint at 200 games,
   its version endpoint (what the tablet polls every 4 s) and a director's dispute queue
   (``/api/v1/disputes/``, 50 disputes, the first page) each get ``--seconds`` of bounded load; their
   rates are printed as ratios to the no-op's. The API throttles are lifted for the bench server
   (``bench/api.py``'s ``bench_env``): the load is one user's, far above a real client's rate.

A compact table of every figure ends the run. Timings of the engine take the best of ``--rounds``
runs; the records of part 2 are timed once each, as they happen. Nothing is asserted on time.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.draw import best_of  # noqa: E402
from engine.actions import Double, Drop, Roll, Take  # noqa: E402
from engine.chouette import (  # noqa: E402
    Answer,
    BoxDouble,
    ChouetteGame,
    ChouetteSettings,
    CubeEnd,
    GameStep,
    Lineup,
    MemberCube,
    Side,
    StartStep,
    TeamDouble,
    chouette_next_lineup,
    game_to_json,
    replay_session,
    step_from_json,
    step_to_json,
)
from engine.chouette.full_game import BOX_SIDE, CrewMoment, FullGame  # noqa: E402
from engine.randomgame import random_match_games  # noqa: E402

DB_NAME = "crawford_bench_clubs"
PLAYERS = (4, 6, 8)
GAMES = (50, 200, 1000)
FULL_PLAYERS, FULL_GAMES = 6, 200
TABLE_PLAYERS, TABLE_GAMES = 6, 200
#: The cost of a record at SHORT games against its cost at LONG_GAMES games, RECORD_WINDOW of each.
SHORT, LONG_GAMES, RECORD_WINDOW, RECORD_RATIO_GOAL = 50, 1000, 15, 1.2
#: The goals this run missed (the exit status is 1 when there is one).
MISSED: list[str] = []
SHOWN_RECORDS = (1, 50, 100, 200)
DISPUTES = 50
#: The service's defaults for a new table (chouette.services.chouette_start): a cube per member,
#: Jacoby, no beavers, no automatic doubles, no Box partner.
SETTINGS = ChouetteSettings(single_cube=False, jacoby=True, beavers=False, raccoons=False, automatic_doubles=0,
                            box_partner_from=None)
#: How often the Box (or the team) doubles at one of its turns in a full record, besides the Captain's
#: own doubles on the board; and how often the crew join the Captain's double.
CREW_DOUBLE_CHANCE, CREW_JOINS_CAPTAIN = 0.04, 0.5
# Who owns a member's cube: nobody, the Box, the member (as engine.chouette counts them).
CENTRED, BOX_OWNS, MEMBER_OWNS = 0, 1, 2


# --- seeded records --------------------------------------------------------------------------------


def _moment(rng: random.Random, members, cubes: dict, box_doubles: bool, *, all_drop: bool = False):
    """One cube moment of ``members`` (team order) still in, decided from the bottom of the line up;
    updates ``cubes`` (player: [value, owner, end]). None when nobody may decide."""
    barred = MEMBER_OWNS if box_doubles else BOX_OWNS  # the doubler's opponent owns the cube
    eligible = [player for player in reversed(members) if cubes[player][2] is None and cubes[player][1] != barred]
    deciders = eligible if all_drop else [player for player in eligible if rng.random() < 0.7] or eligible[:1]
    if not deciders:
        return None
    dropped = [player for player in deciders if all_drop or rng.random() < 0.25]
    for player in deciders:
        cube = cubes[player]
        if player in dropped:
            cube[2] = CubeEnd.MEMBER_DROPPED if box_doubles else CubeEnd.BOX_DROPPED
        else:
            cube[0:2] = [2 * cube[0], MEMBER_OWNS if box_doubles else BOX_OWNS]
    if box_doubles:
        return BoxDouble(tuple((player, Answer.DROP if player in dropped else Answer.TAKE) for player in deciders))
    return TeamDouble(tuple(deciders), box_drops=frozenset(dropped))


def quick_game(rng: random.Random, lineup: Lineup) -> ChouetteGame:
    """A quick result with its cube log: 0 to 2 cube moments, then a winner and a level if anyone is
    still in. Every member's cube is listed."""
    cubes = {player: [1, CENTRED, None] for player in lineup.team}
    log = []
    for _ in range(rng.choices((0, 1, 2), (0.4, 0.35, 0.25))[0]):
        moment = _moment(rng, lineup.team, cubes, rng.random() < 0.5)
        if moment is not None:
            log.append(moment)
    played = any(end is None for _, _, end in cubes.values())
    winner = rng.choice((Side.BOX, Side.TEAM)) if played else None
    level = rng.choices((1, 2, 3), (0.72, 0.25, 0.03))[0] if played else 1
    members = tuple(MemberCube(player, value, end or CubeEnd.PLAYED) for player, (value, _, end) in cubes.items())
    return ChouetteGame(winner, level, members, None, tuple(log))


def full_game(rng: random.Random, lineup: Lineup, board: list) -> FullGame | None:
    """A full record on ``board`` (a money board whose side 0 is the Box) with the crew's cube moments,
    or None when the board ends with the Captain's drop while a crew member who may not be doubled
    is still in (his game would go on without a board)."""
    crew = lineup.crew
    cubes = {player: [1, CENTRED, None] for player in crew}
    moments = []
    drop_end = isinstance(board[-1], Drop)
    for index in range(1, len(board)):
        action = board[index]
        if isinstance(action, Double):
            box_doubles = action.side == BOX_SIDE
            if drop_end and index == len(board) - 2:
                # The Captain leaves the game and the board ends: so must everyone still in.
                still_in = [player for player in crew if cubes[player][2] is None]
                moment = _moment(rng, crew, cubes, box_doubles, all_drop=True)
                if any(cubes[player][2] is None for player in still_in):
                    return None
            elif rng.random() < CREW_JOINS_CAPTAIN:
                moment = _moment(rng, crew, cubes, box_doubles)
            else:
                moment = None
        elif isinstance(action, Roll) and not isinstance(board[index - 1], Take) and rng.random() < CREW_DOUBLE_CHANCE:
            # A turn without the Captain's double (a Take before a roll means the Captain's cube turned).
            moment = _moment(rng, crew, cubes, action.side == BOX_SIDE)
        else:
            moment = None
        if moment is not None:
            moments.append(CrewMoment(index, moment))
    return FullGame(tuple(board), tuple(moments))


def quick_session(players: int, games: int, rng: random.Random) -> list:
    """A start and ``games`` quick games, each pinned to the line-up it was played with (as the
    service stores them)."""
    lineup = Lineup(1, 2, tuple(range(3, players + 1)))
    steps: list = [StartStep(lineup=lineup)]
    for _ in range(games):
        game = quick_game(rng, lineup)
        steps.append(GameStep(game, lineup))
        lineup = chouette_next_lineup(lineup, game, SETTINGS)
    return steps


def full_session(players: int, games: int, rng: random.Random) -> tuple[list, list]:
    """A start and ``games`` full records; also the same session as the service stores it (each full
    record replaced by the game it gives)."""
    lineup = Lineup(1, 2, tuple(range(3, players + 1)))
    full: list = [StartStep(lineup=lineup)]
    derived: list = [StartStep(lineup=lineup)]
    boards: list = []
    while len(full) <= games:
        if not boards:
            boards = random_match_games(rng, 11)
        record = full_game(rng, lineup, list(boards.pop(0)))
        if record is None:
            continue
        game = record.chouette_game(lineup, SETTINGS)
        full.append(GameStep(record, lineup))
        derived.append(GameStep(game, lineup))
        lineup = chouette_next_lineup(lineup, game, SETTINGS)
    return full, derived


# --- 1. the engine ---------------------------------------------------------------------------------


def engine_figures(label: str, steps: list, rounds: int) -> dict:
    """Anchor, replay and replay-from-text times of one session, in ms."""
    texts = [json.dumps(step_to_json(step)) for step in steps]
    anchor, _ = best_of(rounds, lambda: [json.loads(text) for text in texts])
    replay, session = best_of(rounds, lambda: replay_session(steps, SETTINGS))
    stored, again = best_of(rounds, lambda: replay_session([step_from_json(json.loads(text)) for text in texts],
                                                           SETTINGS))
    assert again.ledger == session.ledger and len(session.games) == len(steps) - 1
    return {"label": label, "games": len(steps) - 1, "kib": sum(map(len, texts)) / 1024,
            "anchor": anchor * 1000, "replay": replay * 1000, "stored": stored * 1000}


def print_engine(row: dict) -> None:
    print(f"  {row['label']:32} {row['kib']:7.0f} KiB  anchor {row['anchor']:7.2f} ms   "
          f"replay {row['replay']:8.2f} ms ({row['replay'] / row['anchor']:5.1f}x, "
          f"{row['replay'] * 1000 / row['games']:5.0f} us/game)   "
          f"from text {row['stored']:8.2f} ms ({row['stored'] / row['anchor']:5.1f}x)")


def engine_bench(args) -> list[dict]:
    rng = random.Random(args.seed)
    rows = []
    print("Engine: replay_session against json.loads of the stored steps (best of "
          f"{args.rounds}; quick games with their cube logs)")
    for players in PLAYERS:
        for games in GAMES:
            rows.append(engine_figures(f"{players} players, {games:,} quick games",
                                       quick_session(players, games, rng), args.rounds))
            print_engine(rows[-1])
    started = time.perf_counter()
    full, derived = full_session(FULL_PLAYERS, FULL_GAMES, rng)
    built = time.perf_counter() - started
    actions = sum(len(step.record.board_log) for step in full[1:])
    moments = sum(len(step.record.crew_moments) for step in full[1:])
    print(f"  {FULL_GAMES} full records built in {built:.1f} s: boards of random_match_games, "
          f"{actions / FULL_GAMES:.0f} actions and {moments / FULL_GAMES:.1f} crew moments per board on average")
    rows.append(engine_figures(f"{FULL_PLAYERS} players, {FULL_GAMES} full records", full, args.rounds))
    print_engine(rows[-1])
    rows.append(engine_figures("  the same, as the service stores", derived, args.rounds))
    print_engine(rows[-1])
    return rows


# --- 2. the service path (run by manage.py shell in the bench database) ------------------------------


def _timed(work, repeat: int = 1):
    """(best ms, query count of the last run, answer) of ``work()``. Queries are counted by a
    connection wrapper: Django's query log (CaptureQueriesContext) stops at 9,000 entries."""
    from django.db import connection

    best, answer, queries = float("inf"), None, None
    count = [0]

    def counted(execute, sql, params, many, context):
        count[0] += 1
        return execute(sql, params, many, context)

    for _ in range(repeat):
        count[0] = 0
        with connection.execute_wrapper(counted):
            started = time.perf_counter()
            answer = work()
            best = min(best, time.perf_counter() - started)
        queries = count[0]
    return best * 1000, queries, answer


def service_build(seed: int, host: str) -> dict:
    """Build the club, its table and 200 recorded games, and the director's disputes; time the
    records, the selector and the endpoints in-process. Runs inside Django (``manage.py shell``)."""
    from django.test import Client

    from accounts.models import User
    from accounts.services import api_token_create
    from chouette.models import ChouetteSession
    from chouette.selectors import chouette_state, engine_steps, session_settings
    from chouette.services import chouette_game_record, chouette_start
    from clubs.services.clubs import club_create
    from clubs.services.members import membership_accept, membership_invite
    from engine.match import MatchRules
    from matches.models import Player
    from matches.services.matches import match_create, player_create
    from rulings.models import Dispute
    from rulings.services.disputes import dispute_open

    rng = random.Random(seed)
    owner = User.objects.create_user("bench-owner", role=User.Role.ORGANISER)
    club = club_create(user=owner, name="Bench Club", city="Lyon")
    users = [owner]
    for number in range(1, TABLE_PLAYERS):
        user = User.objects.create_user(f"bench-member-{number}")
        membership_invite(club_id=club.pk, user=owner, username=user.get_username())
        membership_accept(club_id=club.pk, user=user)
        users.append(user)
    ids = [Player.objects.get(user=user).pk for user in users]
    rolloff = [[[player, 6 - place] for place, player in enumerate(ids)]]

    def record(table, game):
        return chouette_game_record(club_id=club.pk, chouette_id=table.pk, user=owner, kind="quick",
                                    record=game_to_json(game))

    warm = chouette_start(club_id=club.pk, user=owner, name="Warm-up", rolloff=rolloff)
    lineup = Lineup(ids[0], ids[1], tuple(ids[2:]))
    record(warm, quick_game(rng, lineup))
    table = chouette_start(club_id=club.pk, user=owner, name="Bench table", rolloff=rolloff)
    records = []
    for _ in range(TABLE_GAMES):
        game = quick_game(rng, lineup)
        ms, queries, _ = _timed(lambda game=game: record(table, game))
        records.append((ms, queries))
        lineup = chouette_next_lineup(lineup, game, SETTINGS)

    # What a full replay at 200 games costs (a correction's path, or a record whose kept state does
    # not match): reading every row, parsing every step, replaying them. A record does none of it.
    session = ChouetteSession.objects.get(pk=table.pk)
    fetch, _, rows = _timed(lambda: list(session.steps.order_by("number")), 5)
    parse, _, steps = _timed(lambda: engine_steps(rows), 5)
    replay, _, replayed = _timed(lambda: replay_session(steps, session_settings(session)), 5)
    assert replayed.lineup == lineup, "the service's line-up is not the generator's"
    from django.core.cache import cache

    def state_cold():
        cache.clear()  # the state is cached by the table's version: measure the computation itself
        return chouette_state(session=ChouetteSession.objects.get(pk=table.pk))

    state_ms, state_queries, state = _timed(state_cold, 5)
    warm_ms, warm_queries, _ = _timed(lambda: chouette_state(session=ChouetteSession.objects.get(pk=table.pk)), 5)

    # Two more tables, played to SHORT - 1 and LONG_GAMES - 1 games; then a game is recorded at one and
    # the other in turn, RECORD_WINDOW times, so that both are timed under the same load.
    long_rng = random.Random(seed + 1)
    tables = []
    for games in (SHORT - 1, LONG_GAMES - 1):
        other = chouette_start(club_id=club.pk, user=owner, name=f"{games + 1} games", rolloff=rolloff)
        tables.append([other, Lineup(ids[0], ids[1], tuple(ids[2:])), []])
        started = time.perf_counter()
        for _ in range(games):
            game = quick_game(long_rng, tables[-1][1])
            record(other, game)
            tables[-1][1] = chouette_next_lineup(tables[-1][1], game, SETTINGS)
        tables[-1].append((time.perf_counter() - started) / max(games, 1) * 1000)
    for _ in range(RECORD_WINDOW):
        for entry in tables:
            game = quick_game(long_rng, entry[1])
            entry[2].append(_timed(lambda game=game, other=entry[0]: record(other, game))[:2])
            entry[1] = chouette_next_lineup(entry[1], game, SETTINGS)

    director = User.objects.create_user("bench-director", role=User.Role.ORGANISER)
    players = [player_create(display_name=f"Disputer {number:02}", user=User.objects.create_user(f"bench-p{number:02}"))
               for number in range(20)]
    categories = list(Dispute.Category.values)
    for number in range(DISPUTES):
        first, second = rng.sample(players, 2)
        match = match_create(created_by=director, sides=([first], [second]), rules=MatchRules(rng.choice((5, 7, 9))))
        dispute_open(match_id=match.pk, user=first.user, category=categories[number % len(categories)],
                     statement=f"Bench dispute {number}: what happened at the board.",
                     game_number=rng.randint(1, 9) if number % 2 else None)

    owner_token = api_token_create(user=owner, name="bench")[1]
    director_token = api_token_create(user=director, name="bench")[1]
    paths = {"state": f"/api/v1/clubs/{club.pk}/chouettes/{table.pk}/",
             "version": f"/api/v1/clubs/{club.pk}/chouettes/{table.pk}/version/",
             "disputes": "/api/v1/disputes/"}
    tokens = {"state": owner_token, "version": owner_token, "disputes": director_token}
    api = {}
    for name, path in paths.items():
        client = Client(HTTP_HOST=host, HTTP_AUTHORIZATION=f"Token {tokens[name]}")
        client.get(path)
        ms, queries, response = _timed(lambda client=client, path=path: client.get(path), 5)
        assert response.status_code == 200, (path, response.status_code, response.content[:300])
        body = response.json()
        api[name] = {"path": path, "token": tokens[name], "ms": ms, "queries": queries, "bytes": len(response.content),
                     "count": body.get("count"), "shown": len(body.get("results", ()))}
    return {"records": records, "short_records": tables[0][2], "long_records": tables[1][2],
            "long_build_ms": tables[1][3], "fetch": fetch, "parse": parse, "replay": replay, "rows": len(rows),
            "row_kib": sum(len(json.dumps(row.record)) for row in rows) / 1024, "state_ms": state_ms,
            "state_queries": state_queries, "state_warm_ms": warm_ms, "state_warm_queries": warm_queries,
            "state_games": state.game_count, "api": api}


def record_ratio(built: dict) -> tuple[float, float, float, int, int]:
    """A record at SHORT and at LONG_GAMES games (medians of the RECORD_WINDOW records made in turn at
    the two tables), their ratio, and the most queries a record took at each."""
    short_records, long_records = built["short_records"], built["long_records"]
    short = window_median(short_records, len(short_records), len(short_records))
    long = window_median(long_records, len(long_records), len(long_records))
    return (short, long, long / short, max(q for _, q in short_records), max(q for _, q in long_records))


def window_median(records: list, number: int, width: int = 5) -> float:
    """The median time of records ``number - width + 1`` to ``number`` (1-based): less noisy than one."""
    times = sorted(ms for ms, _ in records[max(0, number - width):number])
    return times[len(times) // 2]


def service_bench(args, harness, env) -> dict:
    harness.database_ready(env, args.db_name, fresh=True)
    manage = [sys.executable, "manage.py"]
    script = (f"import json\nfrom bench.clubs import service_build\n"
              f"print(json.dumps(service_build({args.seed!r}, {harness.HOST!r})))")
    started = time.perf_counter()
    built = json.loads(harness.run([*manage, "shell", "-v", "0", "-c", script], env).strip().splitlines()[-1])
    harness.analyze(env, args.db_name)
    print(f"\nService path (database {args.db_name}, built in {time.perf_counter() - started:.1f} s): a {TABLE_PLAYERS}-player "
          f"table, {TABLE_GAMES} quick games recorded one by one through chouette_game_record")
    records = built["records"]
    for number in SHOWN_RECORDS:
        ms, queries = records[number - 1]
        print(f"  record #{number:<3}: {ms:6.1f} ms, {queries} queries   (median of #{max(1, number - 4)}-#{number}: "
              f"{window_median(records, number):.1f} ms)")
    total = sum(ms for ms, _ in records) / 1000
    print(f"  all {TABLE_GAMES} records: {total:.1f} s; query counts from {min(q for _, q in records)} to "
          f"{max(q for _, q in records)}")
    print(f"  a full replay at {TABLE_GAMES} games ({built['rows']} rows, {built['row_kib']:.0f} KiB of step JSON): "
          f"reading the rows {built['fetch']:.1f} ms, step_from_json of every row {built['parse']:.1f} ms, "
          f"replay_session {built['replay']:.1f} ms; a record does none of it (it folds one game into the kept state)")
    short, long, ratio, short_queries, long_queries = record_ratio(built)
    met = ratio <= RECORD_RATIO_GOAL and short_queries == long_queries
    if not met:
        MISSED.append("a chouette game recorded at 1,000 games as at 50")
    print(f"  two more tables played to {SHORT - 1} and {LONG_GAMES - 1:,} games ({built['long_build_ms']:.1f} ms a "
          f"record on average to build the long one), then {RECORD_WINDOW} games recorded at each in turn:")
    print(f"  recording game {SHORT} (to {SHORT + RECORD_WINDOW - 1}) {short:.1f} ms ({short_queries} queries), game "
          f"{LONG_GAMES:,} (to {LONG_GAMES + RECORD_WINDOW - 1:,}) {long:.1f} ms ({long_queries} queries), medians: "
          f"{ratio:.2f}x  (goal: at most {RECORD_RATIO_GOAL}x and the same queries: O(1) replays) "
          f"{'ok' if met else 'MISSED'}")
    print(f"  chouette_state at {built['state_games']} games: {built['state_ms']:.1f} ms, {built['state_queries']} queries "
          f"computed; {built['state_warm_ms']:.1f} ms, {built['state_warm_queries']} queries from the cache")
    for figures in built["api"].values():
        extra = f", {figures['shown']} of {figures['count']} disputes" if figures["count"] is not None else ""
        print(f"  GET {figures['path']} in-process: {figures['ms']:.1f} ms, {figures['queries']} queries, "
              f"{figures['bytes'] / 1024:.1f} KiB{extra}")
    return built


# --- 3. HTTP -----------------------------------------------------------------------------------------


def http_bench(args, harness, env, built: dict) -> list:
    api = built["api"]

    def endpoint(name: str, key: str):
        return harness.Endpoint(name, "GET", api[key]["path"], frozenset({200}),
                                headers={"Authorization": f"Token {api[key]['token']}"})

    endpoints = [
        harness.Endpoint("no-op", "GET", "/bench/noop/", frozenset({204})),
        endpoint(f"chouette state, {TABLE_GAMES} games", "state"),
        endpoint("chouette version (tablet's poll)", "version"),
        endpoint(f"disputes, queue of {api['disputes']['count']}", "disputes"),
    ]
    results = harness.serve_and_load(env, endpoints, args, args.db_name)
    harness.report(results, args)
    return results


# --- the summary -------------------------------------------------------------------------------------


def summary(engine: list[dict], built: dict | None, results: list | None) -> None:
    print("\nSummary")
    print(f"  {'engine session':34} {'anchor ms':>9} {'replay ms':>10} {'x anchor':>9} {'from text ms':>13} {'x anchor':>9}")
    for row in engine:
        print(f"  {row['label'].strip():34} {row['anchor']:9.2f} {row['replay']:10.2f} {row['replay'] / row['anchor']:8.1f}x "
              f"{row['stored']:13.2f} {row['stored'] / row['anchor']:8.1f}x")
    if built is not None:
        print(f"  {'service (6-player table)':34} {'ms':>9} {'queries':>10}")
        for number in SHOWN_RECORDS:
            ms, queries = built["records"][number - 1]
            print(f"  {'chouette_game_record #' + str(number):34} {ms:9.1f} {queries:10}")
        print(f"  {'chouette_state at ' + str(built['state_games']) + ' games':34} {built['state_ms']:9.1f} "
              f"{built['state_queries']:10}")
        print(f"  {'  the same, from the cache':34} {built['state_warm_ms']:9.1f} {built['state_warm_queries']:10}")
        short, long, ratio, short_queries, long_queries = record_ratio(built)
        print(f"  {'chouette_game_record, game ' + str(SHORT):34} {short:9.1f} {short_queries:10}")
        print(f"  {'chouette_game_record, game ' + format(LONG_GAMES, ','):34} {long:9.1f} {long_queries:10}   "
              f"{ratio:.2f}x (goal: at most {RECORD_RATIO_GOAL}x)")
    if results:
        noop = results[0].rate
        api = {figures["path"]: figures for figures in built["api"].values()} if built else {}
        print(f"  {'HTTP endpoint':34} {'req/s':>9} {'x no-op':>10} {'p50 ms':>9} {'in-process ms':>14} {'queries':>8}")
        for result in results:
            ratio = result.rate / noop if noop else float("nan")
            alone = api.get(result.endpoint.path)
            extra = f" {alone['ms']:14.1f} {alone['queries']:8}" if alone else ""
            print(f"  {result.endpoint.name:34} {result.rate:9.0f} {ratio:9.3f}x {result.latency_ms(0.5):9.1f}{extra}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--rounds", type=int, default=5, help="runs per engine timing (the best is kept)")
    parser.add_argument("--no-server", action="store_true", help="only the engine's figures (no database, no HTTP)")
    parser.add_argument("--seconds", type=float, default=5.0, help="measured seconds per endpoint (at most 60)")
    parser.add_argument("--connections", type=int, default=16, help="concurrent keep-alive connections (at most 64)")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--db-name", default=DB_NAME,
                        help=f"the bench's PostgreSQL database, dropped and made anew (default {DB_NAME})")
    parser.add_argument("--no-http", action="store_true", help="the engine and the service path, not the HTTP load")
    args = parser.parse_args()
    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", args.db_name):
        parser.error("--db-name: lower-case letters, digits and underscores")
    if not (0 < args.seconds <= 60 and 0 < args.connections <= 64 and 0 < args.workers <= 16 and 0 < args.threads <= 64
            and 0 < args.rounds <= 50):
        parser.error("keep --seconds in (0, 60], --connections in 1..64, --workers in 1..16, --threads in 1..64, "
                     "--rounds in 1..50")
    engine = engine_bench(args)
    built = results = None
    if not args.no_server:
        import bench.api as harness

        env = harness.bench_env(args.db_name)
        built = service_bench(args, harness, env)
        results = None if args.no_http else http_bench(args, harness, env, built)
    summary(engine, built, results)


if __name__ == "__main__":
    main()
    if MISSED:
        print("goals missed: " + "; ".join(MISSED))
        sys.exit(1)
