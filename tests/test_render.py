"""Text and SVG pictures show the board, the answer and the violations."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from puzzlebench.model import Kuromasu, LightBulbs, LightUp
from puzzlebench.render import render_svg, render_text, show

SVG = "{http://www.w3.org/2000/svg}"


def test_light_up_text_shows_walls_numbers_bulbs_and_lit_cells():
    puzzle = LightUp(2, 3, walls=frozenset({(1, 2)}), numbers={(0, 1): 1})
    assert render_text(puzzle) == ". 1 .\n. . #"
    assert render_text(puzzle, puzzle.solution([(0, 0)])) == "* 1 .\n+ . #"


def test_kuromasu_text_shows_black_cells_numbers_and_question_marks():
    puzzle = Kuromasu(2, 3, numbers={(0, 0): 1}, unknown=frozenset({(1, 2)}))
    assert render_text(puzzle, puzzle.solution([(0, 2)])) == "1 . #\n. . ?"


def test_lightbulbs_text_brackets_lit_cells():
    puzzle = LightBulbs.from_rows([[1, 2], [3, 4]])
    assert render_text(puzzle, puzzle.solution([(0, 0)])) == "(1)   2\n  3   4"


def test_violations_are_marked_in_text_and_red_in_svg():
    puzzle = LightUp(1, 3)
    answer = puzzle.solution([(0, 0), (0, 2)])
    violations = puzzle.verify(answer)
    assert render_text(puzzle, answer, violations) == "*!  + *!"
    svg = render_svg(puzzle, answer, violations)
    root = ET.fromstring(svg)
    assert len([e for e in root.iter(f"{SVG}rect") if e.get("stroke") == "red"]) == 2
    assert len(list(root.iter(f"{SVG}circle"))) == 2


def test_svg_shades_lit_cells_and_draws_numbers_and_black_cells():
    puzzle = LightUp(2, 2, numbers={(1, 1): 1})
    root = ET.fromstring(render_svg(puzzle, puzzle.solution([(0, 1)])))
    fills = [e.get("fill") for e in root.iter(f"{SVG}rect")][:4]
    assert fills == ["#fff3a0", "#fff3a0", "#fff", "#222"]
    assert [t.text for t in root.iter(f"{SVG}text")] == ["1"]
    kuro = Kuromasu(1, 3, numbers={(0, 0): 2})
    root = ET.fromstring(render_svg(kuro, kuro.solution([(0, 2)])))
    assert [e.get("fill") for e in root.iter(f"{SVG}rect")][:3] == ["#fff", "#fff", "#222"]


def test_show_checks_the_answer_and_displays_in_notebooks():
    puzzle = LightUp(1, 2)
    shown = show(puzzle, [(0, 0), (0, 1)])
    assert "bulbs see each other" in repr(shown)
    assert shown._repr_svg_().startswith("<svg")
    assert puzzle._repr_svg_().startswith("<svg") and str(puzzle) == ". ."
    assert repr(show(puzzle, [(0, 0)])) == "* +"
