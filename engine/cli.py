"""Command line: ``python -m engine validate FILE...`` and ``python -m engine plays``.

``validate`` prints one JSON object per file (see :func:`validate_file`) and exits 1 if any file
failed. ``plays`` reads JSON lines ``{"position": "<Position ID>", "dice": [d1, d2]}`` and writes
``{"results": [...]}``: the sorted distinct Position IDs the legal plays lead to, as the opponent,
now on roll, sees them (when nothing can be played, the one result is the same checkers with the
turn passed). A bad line gets ``{"error": "..."}`` and the stream goes on. Neither command ever
prints a traceback: every failure is reported as data.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from .errors import EngineError
from .formats.mat import read_mat
from .formats.mat_check import check_mat
from .ids import position_from_id, position_id
from .moves import legal_plays

MAX_FILE_BYTES = 2 * 1024 * 1024


def plays_line(line: str) -> dict:
    """Answer one ``plays`` request line (a dict ready for JSON)."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as error:
        return {"error": f"not JSON: {error.msg} at column {error.colno}"}
    if not isinstance(request, dict):
        return {"error": "expected an object with 'position' and 'dice'"}
    unknown = sorted(set(request) - {"position", "dice"})
    if unknown:
        return {"error": f"unknown field(s): {', '.join(unknown)}"}
    text, dice = request.get("position"), request.get("dice")
    if not isinstance(text, str):
        return {"error": "'position' must be a Position ID string"}
    if (
        not isinstance(dice, list) or len(dice) != 2
        or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)
    ):
        return {"error": "'dice' must be two integers 1..6"}
    try:
        position = position_from_id(text, turn=0)
        plays = legal_plays(position, (dice[0], dice[1]))
    except EngineError as error:
        return {"error": str(error)}
    results = {position_id(play.position) for play in plays} or {position_id(position.passed())}
    return {"results": sorted(results)}


def run_plays(stdin: TextIO, stdout: TextIO) -> int:
    for line in stdin:
        if not line.strip():
            continue
        stdout.write(json.dumps(plays_line(line)) + "\n")
        stdout.flush()
    return 0


def validate_file(path: str) -> dict:
    """Read, replay and check one .mat file; the JSON-ready report of ``validate``."""
    try:
        size = Path(path).stat().st_size
        if size > MAX_FILE_BYTES:
            return _failure(path, None, None, f"file is {size} bytes; the limit is {MAX_FILE_BYTES}")
        data = Path(path).read_bytes()
    except OSError as error:
        return _failure(path, None, None, f"cannot read file: {error.strerror or error}")
    try:
        check = check_mat(read_mat(data))
    except EngineError as error:
        return _failure(path, error.details.get("line"), error.details.get("game"), str(error))
    return {
        "file": path,
        "ok": True,
        "players": list(check.players),
        "match_length": check.length,
        "games": [
            {
                "number": game.number,
                "score": list(game.score),
                "crawford": game.crawford,
                "winner": game.winner,
                "points": game.points,
                "cube": game.cube,
                "result": game.ending,
            }
            for game in check.games
        ],
        "final_score": list(check.final_score),
        "match_winner": check.winner,
    }


def _failure(path: str, line, game, message: str) -> dict:
    return {"file": path, "ok": False, "error": {"line": line, "game": game, "message": message}}


def run_validate(paths: list[str], stdout: TextIO) -> int:
    failed = False
    for path in paths:
        try:
            report = validate_file(path)
        except Exception as error:  # the command promises data, never a traceback
            report = _failure(path, None, None, f"internal error: {type(error).__name__}: {error}")
        failed = failed or not report["ok"]
        stdout.write(json.dumps(report, ensure_ascii=False) + "\n")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Crawford's backgammon rules engine.")
    commands = parser.add_subparsers(dest="command", required=True)
    validate = commands.add_parser("validate", help="check .mat match files; one JSON line per file")
    validate.add_argument("files", nargs="+", metavar="FILE")
    commands.add_parser("plays", help="legal plays for JSON lines of position and dice on standard input")
    args = parser.parse_args(argv)
    if args.command == "validate":
        return run_validate(args.files, sys.stdout)
    try:
        return run_plays(sys.stdin, sys.stdout)
    except KeyboardInterrupt:
        return 130
