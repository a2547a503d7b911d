"""The bracket drawn as SVG: pure drawing, no database (tournaments/drawings/bracket_svg.py)."""

from __future__ import annotations

import ast
import itertools
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import tournaments.drawings.bracket_svg
from tournaments.draw import Bracket, Seeded, WinnerOf, add_consolation, single_elimination
from tournaments.drawings.bracket_svg import NAME_MAX, BracketCell, BracketRound, bracket_svg, shorten

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(tournaments.drawings.bracket_svg.__file__).parent.parent.parent


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def find(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(SVG + tag) if cls in (e.get("class") or "").split()]


def cells(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-key"): g for g in find(root, "g", "cell")}


def side(cell: ET.Element, number: int) -> ET.Element:
    (found,) = [g for g in find(cell, "g", "side") if g.get("data-side") == str(number)]
    return found


def flight_rounds(bracket: Bracket, flight: str) -> list[BracketRound]:
    """The view-model of one flight of a real draw, as a page fills it: seeded names, the rest to
    be decided, matches in bracket order."""
    rounds = []
    for number in range(1, bracket.flight(flight).rounds + 1):
        matches = bracket.round_matches(flight, number)
        row = tuple(
            BracketCell(
                m.id,
                tuple(s.entrant if isinstance(s, Seeded) else None for s in (m.top, m.bottom)),
                seeds=tuple(s.seed if isinstance(s, Seeded) else None for s in (m.top, m.bottom)),
            )
            for m in matches
        )
        rounds.append(BracketRound(f"Round {number}", matches[0].length, row))
    return rounds


def winner_links(bracket: Bracket, flight: str) -> set[tuple[str, str]]:
    return {
        (slot.match, m.id)
        for m in bracket.matches
        if m.flight == flight
        for slot in (m.top, m.bottom)
        if isinstance(slot, WinnerOf)
    }


def main_flight(entrants: int) -> Bracket:
    return single_elimination([f"Player {i}" for i in range(1, entrants + 1)], lengths=5)


def cell(key: str = "m", names=("Ann", "Bob"), **fields) -> BracketCell:
    return BracketCell(key, names, **fields)


def one(*cells_: BracketCell, name: str = "Final", length: int = 5) -> str:
    return bracket_svg([BracketRound(name, length, tuple(cells_))])


# --- shapes ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("entrants, columns", [(2, 1), (4, 2), (8, 3), (16, 4), (64, 6)])
def test_it_draws_a_main_flight_with_a_box_per_match_and_a_connector_per_winner_who_goes_on(entrants, columns):
    bracket = main_flight(entrants)
    root = parse(bracket_svg(flight_rounds(bracket, "main"), title="Main flight"))
    assert root.tag == SVG + "svg"
    assert len(cells(root)) == entrants - 1
    assert len(find(root, "path", "connector")) == entrants - 2
    assert len(find(root, "text", "round-name")) == columns
    links = {(p.get("data-from"), p.get("data-to")) for p in find(root, "path", "connector")}
    assert links == winner_links(bracket, "main")  # the i -> i // 2 assumption holds for the draw


@pytest.mark.parametrize("entrants, rounds, shape", [
    (16, 3, [4, 4, 2, 2, 1]),
    (64, 4, [16, 16, 8, 8, 4, 4, 2, 1]),
    (8, 1, [2, 1]),
])
def test_it_draws_a_progressive_consolation_whose_rounds_do_not_all_halve(entrants, rounds, shape):
    bracket = add_consolation(main_flight(entrants), rounds=rounds, lengths=3)
    view = flight_rounds(bracket, "consolation")
    assert [len(r.cells) for r in view] == shape
    root = parse(bracket_svg(view))
    assert len(cells(root)) == sum(shape)
    links = {(p.get("data-from"), p.get("data-to")) for p in find(root, "path", "connector")}
    assert links == winner_links(bracket, "consolation")  # entry rounds connect i -> i


def box(root: ET.Element, key: str) -> tuple[float, float, float, float]:
    frame = find(cells(root)[key], "rect", "frame")[0]
    x, y, w, h = (float(frame.get(a)) for a in ("x", "y", "width", "height"))
    return x, y, x + w, y + h


@pytest.mark.parametrize("bracket", [main_flight(16), add_consolation(main_flight(32), rounds=3, lengths=3)],
                         ids=["main", "consolation"])
def test_boxes_never_overlap_stay_in_the_view_box_and_sit_level_with_or_between_their_feeders(bracket):
    flight = bracket.flights[-1].name
    root = parse(bracket_svg(flight_rounds(bracket, flight)))
    _, _, width, height = (float(v) for v in root.get("viewBox").split())
    boxes = {key: box(root, key) for key in cells(root)}
    assert all(x0 >= 0 and x1 <= width and y0 >= 0 and y1 <= height for x0, y0, x1, y1 in boxes.values())
    by_column: dict[float, list] = {}
    for x0, y0, _, y1 in boxes.values():
        by_column.setdefault(x0, []).append((y0, y1))
    for column in by_column.values():
        column.sort()
        assert all(below[0] > above[1] for above, below in itertools.pairwise(column))
    links = winner_links(bracket, flight)
    for target in {t for _, t in links}:
        feeders = [boxes[s] for s, t in links if t == target]
        middle = (boxes[target][1] + boxes[target][3]) / 2
        assert min(f[1] for f in feeders) <= middle <= max(f[3] for f in feeders), target


def test_it_scales_with_a_view_box_but_keeps_a_readable_width_per_column():
    root = parse(bracket_svg(flight_rounds(main_flight(16), "main")))
    _, _, width, height = (float(v) for v in root.get("viewBox").split())
    assert (root.get("width"), root.get("height")) == (f"{width:g}", f"{height:g}")
    min_width = int(re.search(r"min-width:(\d+)px", root.get("style")).group(1))
    assert min_width / 4 >= 200  # four columns, none squeezed below 200 px
    assert "max-width:100%" in root.get("style")


def test_it_heads_each_column_with_the_round_name_and_match_length():
    rounds = [BracketRound("Semi-finals", 7, (cell("a"), cell("b"))), BracketRound("Final", 11, (cell("c"),)),
              BracketRound("Play-off", 0, (cell("d"),))]
    root = parse(bracket_svg(rounds))
    assert [t.text for t in find(root, "text", "round-name")] == ["Semi-finals", "Final", "Play-off"]
    assert [t.text for t in find(root, "text", "round-length")] == ["7 pt", "11 pt"]  # no length: none shown


def test_no_rounds_give_an_empty_but_valid_drawing():
    root = parse(bracket_svg([], title="Nothing yet"))
    assert root.find(SVG + "title").text == "Nothing yet"
    assert not cells(root) and not find(root, "path", "connector")


# --- what a box shows ----------------------------------------------------------------------------


@pytest.mark.parametrize("winner, bold", [(0, ["Ann", "5"]), (1, ["Bob", "3"]), (None, [])])
def test_the_winner_is_in_bold(winner, bold):
    root = parse(one(cell(scores=(5, 3) if winner == 0 else (1, 3) if winner == 1 else (None, None), winner=winner,
                          status="confirmed")))
    heavy = [t.text for t in root.iter(SVG + "text") if t.get("font-weight") == "bold" and t.get("class") != "round-name"]
    assert heavy == bold
    assert len(find(root, "rect", "winner-row")) == (winner is not None)


@pytest.mark.parametrize("scores, shown", [((5, 3), ["5", "3"]), ((None, None), []), ((2, None), ["2"])])
def test_scores_are_shown_when_given(scores, shown):
    root = parse(one(cell(scores=scores)))
    assert [t.text for t in find(root, "text", "score")] == shown


def test_seeds_are_shown_next_to_the_names_when_given():
    root = parse(one(cell(seeds=(1, 16)), cell("n", seeds=(None, None))))
    assert [t.text for t in find(root, "text", "seed")] == ["1", "16"]


@pytest.mark.parametrize("names, byes, undecided", [
    (("Ann", "bye"), 1, 0),
    (("bye", "bye"), 2, 0),
    (("Ann", None), 0, 1),
    ((None, None), 0, 2),
    (("bye", None), 1, 1),
])
def test_byes_and_sides_to_be_decided_are_shown_as_such(names, byes, undecided):
    root = parse(one(cell(names=names, status="bye" if "bye" in names else "scheduled")))
    assert [t.text for t in find(root, "text", "bye")] == ["bye"] * byes
    tbd = find(root, "g", "tbd")
    assert len(tbd) == undecided
    assert all(g.find(SVG + "title").text == "to be decided" for g in tbd)


@pytest.mark.parametrize("status, dashed", [("scheduled", False), ("reported", True), ("confirmed", False),
                                            ("bye", True), ("something new", False)])
def test_the_status_is_kept_on_the_box_and_an_unconfirmed_result_has_a_dashed_frame(status, dashed):
    (box_,) = cells(parse(one(cell(status=status)))).values()
    assert box_.get("data-status") == status and status.split()[0] in box_.get("class").split()
    assert (find(box_, "rect", "frame")[0].get("stroke-dasharray") is not None) == dashed


@pytest.mark.parametrize("status, decided", [("confirmed", True), ("reported", False)])
def test_only_a_confirmed_winner_lights_up_his_way_to_the_next_round(status, decided):
    rounds = [BracketRound("Semi-finals", 5, (cell("a", winner=0, status=status), cell("b"))),
              BracketRound("Final", 7, (cell("c"),))]
    root = parse(bracket_svg(rounds))
    lit = {p.get("data-from") for p in find(root, "path", "decided")}
    assert lit == ({"a"} if decided else set())


@pytest.mark.parametrize("href, linked", [("/matches/main-1-1/", True), (None, False)])
def test_a_box_with_an_href_is_a_link_to_the_match(href, linked):
    root = parse(one(cell("main-1-1", href=href)))
    links = list(root.iter(SVG + "a"))
    assert len(links) == int(linked)
    if linked:
        (a,) = links
        assert a.get("href") == href
        assert [g.get("data-key") for g in find(a, "g", "cell")] == ["main-1-1"]
        assert a.find(SVG + "title").text == "Ann v Bob"


# --- text ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", [
    "<script>alert(1)</script>",
    "Tom & Jerry",
    'Dmitri "Dima" Ivanov',
    "Bob O'Brien",
    "Chloé Dubois",
    "G\u00fcl Y\u0131lmaz",
    "]]> & <!-- -->",
])
def test_names_and_links_are_escaped(name):
    svg = bracket_svg(
        [BracketRound(name, 5, (cell("k&<'\"", names=(name, "Ann"), href='/m?a=1&b="2"', status='x" onload="y'),))],
        title=name,
    )
    root = parse(svg)
    assert find(root, "text", "name")[0].text == shorten(name)
    assert root.find(SVG + "title").text == name
    assert find(root, "text", "round-name")[0].text == shorten(name, 26)
    (a,) = root.iter(SVG + "a")
    assert a.get("href") == '/m?a=1&b="2"'
    assert list(cells(root)) == ["k&<'\""]
    assert not list(root.iter(SVG + "script")) and not [e for e in root.iter() if "onload" in e.attrib]
    assert "<script" not in svg


@pytest.mark.parametrize("name, shown", [
    ("A" * NAME_MAX, "A" * NAME_MAX),
    ("Frank Zappa-Ferreira de la Costa", "Frank Zappa-Ferreira\u2026"),
    ("Bartholomew Featherstonehaugh", "Bartholomew Featherst\u2026"),
])
def test_long_names_are_shortened_with_an_ellipsis_and_the_full_name_in_a_tooltip(name, shown):
    root = parse(one(cell(names=(name, "Ann"), winner=0)))
    (top,) = find(side(next(iter(cells(root).values())), 0), "text", "name")
    assert top.text == shown and len(shown) <= NAME_MAX
    tooltips = [g.find(SVG + "title").text for g in find(root, "g", "long-name")]
    assert tooltips == ([name] if shown != name else [])
    assert top.get("font-weight") == "bold"  # a shortened winner is still bold


# --- round names ---------------------------------------------------------------------------------


# --- purity --------------------------------------------------------------------------------------


def test_it_never_loads_django_when_imported():
    code = "import sys, tournaments.drawings.bracket_svg; print('django' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"


def test_it_imports_only_the_standard_library():
    tree = ast.parse(Path(tournaments.drawings.bracket_svg.__file__).read_text())
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    imported += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert [n for n in imported if n.split(".")[0] not in sys.stdlib_module_names] == []
