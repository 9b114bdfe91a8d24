"""The bundled seed puzzles: exact round trips in every format, and the published answers judged."""

from __future__ import annotations

import json

import pytest

from puzzlebench.formats import FORMATS, dump, load, load_solution, load_with_solution, loads
from puzzlebench.model import Rule
from puzzlebench.suites import list_suites, load_suite

SEEDS = load_suite("seeds")


def _entries():
    return [pytest.param(e, id=e.id) for e in SEEDS]


def test_seeds_suite_is_listed_and_matches_its_manifest(puzzles_dir):
    assert "seeds" in list_suites()
    manifest = json.loads((puzzles_dir / "seeds" / "manifest.json").read_text())
    assert [p["id"] for p in manifest["puzzles"]] == [e.id for e in SEEDS]
    for item, entry in zip(manifest["puzzles"], SEEDS):
        assert (entry.puzzle.rows, entry.puzzle.cols, entry.puzzle.family.value) == (
            item["rows"],
            item["cols"],
            item["family"],
        )


@pytest.mark.parametrize("entry", _entries())
def test_bundled_file_is_stored_exactly_as_its_format_writes_it(entry, puzzles_dir):
    manifest = json.loads((puzzles_dir / "seeds" / "manifest.json").read_text())
    item = next(p for p in manifest["puzzles"] if p["id"] == entry.id)
    text = (puzzles_dir / "seeds" / item["file"]).read_text()
    assert dump(entry.puzzle, item["meta"]["format"]).rstrip("\n") == text.rstrip("\n")


@pytest.mark.parametrize("entry", _entries())
def test_bundled_puzzle_converts_to_every_format_and_back_unchanged(entry):
    puzzle = entry.puzzle
    for fmt in FORMATS.values():
        if not fmt.can_write(puzzle):
            continue
        text = dump(puzzle, fmt.name)
        back = loads(text, fmt.name, family=puzzle.family)
        assert back == puzzle and dump(back, fmt.name) == text, fmt.name


@pytest.mark.parametrize("entry", [e for e in _entries() if e.values[0].solution is not None])
def test_published_answers_bundled_as_expected_solutions_are_valid(entry):
    assert entry.puzzle.verify(entry.solution) == []


def test_seed000_kuromasu_answer_is_the_printed_output(seeds_dir):
    entry = SEEDS["seed000_kuromasu"]
    text = next(seeds_dir.glob("000_*.txt")).read_text()
    printed = text[text.index("Output:") + 7 : text.index("Duration")]
    assert load_solution(printed, entry.puzzle, "asp") == entry.solution
    assert len(entry.solution) == 25


def test_seed000_lightup_printed_output_misses_the_bulb_at_row_8_column_3(puzzles_dir, seeds_dir):
    entry = SEEDS["seed000_lightup"]
    puzzle, printed = load_with_solution(puzzles_dir / "seeds" / entry.meta["published_answer_file"])
    assert puzzle == entry.puzzle and len(printed) == 18
    text = next(seeds_dir.glob("000_*.txt")).read_text()
    start = text.index("lightbulb(3,1)")
    assert load_solution(text[start : text.index("Duration", start)], puzzle, "asp") == printed
    found = {(v.rule, v.cells) for v in puzzle.verify(printed)}
    # 0-based: the bulb at (7, 2) is missing, so (7, 2) and (7, 5) stay dark and the 2 at (6, 2)
    # and the 3 at (7, 1) each have one bulb too few.
    assert found == {
        (Rule.UNLIT_CELL, ((7, 2),)),
        (Rule.UNLIT_CELL, ((7, 5),)),
        (Rule.CLUE_COUNT_WRONG, ((6, 2), (6, 1))),
        (Rule.CLUE_COUNT_WRONG, ((7, 1), (6, 1), (7, 0))),
    }
    # Adding that one bulb repairs it.
    assert puzzle.verify(printed.cells | {(7, 2)}) == []


def test_seed002_answer_is_the_printed_grid(seeds_dir):
    entry = SEEDS["seed002_lightup25"]
    lines = next(seeds_dir.glob("002_*.txt")).read_text().splitlines()
    start = lines.index("$ ./light_up 1.txt") + 1
    grid = [line.strip() for line in lines[start : start + 25]]
    assert {
        (r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch == "*"
    } == entry.solution.cells
    # The printed board also shows the puzzle itself: walls '#', numbers, '.' and '*' elsewhere.
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            want = (
                str(entry.puzzle.numbers[(r, c)])
                if (r, c) in entry.puzzle.numbers
                else "#"
                if (r, c) in entry.puzzle.walls
                else ".*"
            )
            assert ch in want


def test_seed001_lightup1_matches_the_dzn_in_the_seed(seeds_dir):
    text = next(seeds_dir.glob("001_*.txt")).read_text()
    start = text.index("h = 7;")
    puzzle = loads(text[start : text.index("|];", start) + 3], "mzn")
    assert puzzle == SEEDS["seed001_lightup1"].puzzle
    assert puzzle.numbers[(0, 4)] == 0 and (4, 3) in puzzle.walls and (4, 3) not in puzzle.numbers


def test_seed000_asp_facts_in_the_appendix_read_as_the_bundled_puzzles(seeds_dir):
    text = next(seeds_dir.glob("000_*.txt")).read_text()
    for marker, end, pid in (
        ("row(1..11)", "%generate", "seed000_kuromasu"),
        ("row(1..10)", "%designate", "seed000_lightup"),
    ):
        start = text.index(marker)
        assert loads(text[start : text.index(end, start)], "asp") == SEEDS[pid].puzzle


def test_seed000_whole_program_text_loads_as_its_instance():
    program = dump(SEEDS["seed000_lightup"].puzzle, "asp") + (
        "cell(b,X,Y) :- black(X,Y,N).\ncell(b,X,Y) :- black(X,Y).\n"
        "{ lightbulb(X,Y) } :- cell(w,X,Y).\ncolor(b;w).\n#show lightbulb/2.\n"
    )
    assert loads(program) == SEEDS["seed000_lightup"].puzzle


def test_suite_from_a_folder_and_a_single_file(puzzles_dir):
    folder = load_suite(puzzles_dir / "seeds" / "manifest.json")
    assert len(folder) == len(SEEDS)
    single = load_suite(puzzles_dir / "seeds" / "seed001_lightup1.dzn")
    assert len(single) == 1 and single[0].puzzle == SEEDS["seed001_lightup1"].puzzle
    assert load(puzzles_dir / "seeds" / "seed002_lightup25.pt").name == "seed002_lightup25"
