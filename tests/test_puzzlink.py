"""puzz.link URLs as people paste them, read as pzprjs reads them and written as pzprjs writes them.

Expected strings come from pzprjs's own tests (github.com/robx/pzprjs):

* test/script/lightup.js: ``url: "6/6/nekcakbl"``, and its failcheck boards
  (``pzprv3/lightup/6/6/. . . . . . /. . 4 . . . /. # . . 2 . /# 0 # . . . /. # . 1 . . /...``)
  for what that body holds;
* test/script/kurodoko.js: ``url: "5/5/i7g5l2l2g4i"`` and its board
  (``. . . 7 . /5 . . . . /. . 2 . . /. . . . 2 /. 4 . . . /``);
* test/puzzle/encode_test.js: each genre opens ``pid + "/" + url`` (the bare form), ``getURL()``
  must equal ``"http://pzv.jp/p.html?" + pzpr.variety(pid).urlid + "/" + url`` (urlid is ``akari``
  for lightup, src/pzpr/variety.js ``pzprurl: "akari"``), and opening ``urlstr + urlstr`` (a body
  far longer than the board) must give the same board;
* test/pzpr/parser_test.js ``avoidEraseLastChar``: ``shakashaka/5/5/zj./`` reads a body ``zj.``
  and is written back with the trailing ``/``; the same board without the last wall is written
  ``zk``. Shakashaka's URL body is the same ``encode4Cell`` as Light Up's
  (src/variety/shakashaka.js and src/variety/lightup.js both call ``this.encode4Cell()``).

pzprjs under node writes ``http://pzv.jp/p.html?``; the puzz.link build writes ``https://puzz.link/p?``
(src/pzpr/parser.js ``outputURLType``), which is what this writer produces.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlebench.errors import ParseError, PuzzleError
from puzzlebench.formats import detect_format, dump, loads, puzzlink
from puzzlebench.model import Family, Kuromasu, LightUp

NODE = "http://pzv.jp/p.html?"
PUZZLINK = "https://puzz.link/p?"


def as_puzzlink(pzprjs_url: str) -> str:
    """pzprjs's URL as its node build writes it (its tests), with puzz.link's address instead."""
    assert pzprjs_url.startswith(NODE)
    return PUZZLINK + pzprjs_url[len(NODE) :]


# test/script/lightup.js: url "6/6/nekcakbl", the board of its failchecks.
LIGHTUP = LightUp(6, 6, numbers={(1, 2): 4, (2, 4): 2, (3, 1): 0, (4, 3): 1})
# test/script/kurodoko.js: url "5/5/i7g5l2l2g4i", the board of its failchecks.
KURODOKO = Kuromasu(5, 5, numbers={(0, 3): 7, (1, 0): 5, (2, 2): 2, (3, 4): 2, (4, 1): 4})


# -- every form pzprjs accepts reads the same board ------------------------------------------------
LIGHTUP_FORMS = [
    "https://puzz.link/p?akari/6/6/nekcakbl",
    "https://puzz.link/p?lightup/6/6/nekcakbl",  # the pid itself
    "http://pzv.jp/p.html?bijutsukan/6/6/nekcakbl",  # the Kanpen alias, on a mirror
    "https://pzprxs.vercel.app/p?akari/6/6/nekcakbl",
    "puzz.link/p?akari/6/6/nekcakbl",
    "lightup/6/6/nekcakbl",  # bare, as encode_test.js opens it
    "akari/6/6/nekcakbl",
    "https://puzz.link/p?akari_edit/6/6/nekcakbl",  # editor / player links
    "https://puzz.link/p?akari_play/6/6/nekcakbl",
    "https://puzz.link/p?type=player&akari/6/6/nekcakbl",  # NAME=VALUE& options before the pid
    "https://puzz.link/p?type=editor&net=abc&akari_edit/6/6/nekcakbl",
    "https://puzz.link/p?akari/6/6/nekcakbl/",  # the '/' pzprjs may append
    "https://puzz.link/p?akari/v:x/6/6/nekcakbl",  # a variant segment
    "https://puzz.link/p?v:x/akari/6/6/nekcakbl",
    "https://puzz.link/p?akari/c/6/6/nekcakbl",  # a flag segment (pflag)
    "http://pzv.jp/p.html?akari/6/6/nekcakbl" * 2,  # encode_test.js: urlstr + urlstr
    "https://puzz.link/p?akari/6/6/nekcakbl!!! and anything else past the last cell",
    "  https://puzz.link/p?akari/6/6/nekc\r\nakbl\n",  # a URL wrapped in a text area
]


@pytest.mark.parametrize("url", LIGHTUP_FORMS)
def test_every_lightup_form_pzprjs_accepts_reads_the_same_board(url):
    assert puzzlink.read(url) == LIGHTUP
    assert loads(url, "puzzlink") == LIGHTUP
    assert loads(url, "puzzlink", family=Family.LIGHTUP) == LIGHTUP


KURODOKO_FORMS = [
    "https://puzz.link/p?kurodoko/5/5/i7g5l2l2g4i",
    "http://pzv.jp/p.html?kurodoko/5/5/i7g5l2l2g4i",
    "kurodoko/5/5/i7g5l2l2g4i",
    "https://puzz.link/p?kurodoko_edit/5/5/i7g5l2l2g4i",
    "https://puzz.link/p?kurodoko_play/5/5/i7g5l2l2g4i/",
    "https://puzz.link/p?type=player&kurodoko/5/5/i7g5l2l2g4i",
    "http://pzv.jp/p.html?kurodoko/5/5/i7g5l2l2g4i" * 2,
    "https://puzz.link/p?kurodoko/5/5/i7g5l2l2g4i-zz%!",
]


@pytest.mark.parametrize("url", KURODOKO_FORMS)
def test_every_kurodoko_form_pzprjs_accepts_reads_the_same_board(url):
    assert puzzlink.read(url) == KURODOKO
    assert loads(url, "puzzlink", family=Family.KUROMASU) == KURODOKO


@pytest.mark.parametrize(
    "text",
    [
        "lightup/6/6/nekcakbl",
        "https://puzz.link/p?type=player&akari/6/6/nekcakbl",
        "https://puzz.link/p?akari/6/6/nekcakbl/",
        "kurodoko_edit/5/5/i7g5l2l2g4i",
    ],
)
def test_auto_detection_takes_the_bare_and_decorated_forms(text):
    assert detect_format(text).name == "puzzlink"
    assert loads(text).family in (Family.LIGHTUP, Family.KUROMASU)


@pytest.mark.parametrize("text", ["lightup/notes.txt", "akari/x/y", "kurodoko", "puzzles/akari/6/6.pzl", ""])
def test_paths_and_words_naming_a_genre_are_not_urls(text):
    assert not puzzlink.detect(text)


def test_a_board_short_of_its_body_keeps_the_rest_empty():
    assert puzzlink.read("akari/6/6/nek") == LightUp(6, 6, numbers={(1, 2): 4})
    assert puzzlink.read("akari/6/6") == LightUp(6, 6)


# -- errors stay errors --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "url, words",
    [
        ("https://puzz.link/p?akari/3/3/k!", "'!'"),  # inside the board: refused (pzprjs skips a cell)
        ("https://puzz.link/p?kurodoko/3/3/g-1", "2 hex digits"),
        ("https://puzz.link/p?akari/0/3/", "PID/COLS/ROWS"),
        ("https://puzz.link/p?akari", "PID/COLS/ROWS"),
        ("https://puzz.link/p?akari/x/y/z", "PID/COLS/ROWS"),
        ("https://puzz.link/p?heyawake/3/3/g", "'heyawake'"),
        ("https://puzz.link/p?akari_test/3/3/g", "'akari_test'"),  # pzprjs strips only _edit and _play
        ("https://puzz.link/p?pzprv3/akari/3/3/", "pzprv3"),
        ("http://www.kanpen.net/bijutsukan.html?problem=3/3/", "Kanpen"),
    ],
)
def test_what_pzprjs_cannot_read_as_these_genres_is_a_parse_error(url, words):
    with pytest.raises(ParseError) as info:
        loads(url, "puzzlink")
    assert info.value.format == "puzzlink" and words in info.value.reason, str(info.value)


def test_errors_point_at_the_body_column_even_behind_options():
    url = "https://puzz.link/p?type=player&akari_edit/3/3/k!"
    with pytest.raises(ParseError) as info:
        loads(url, "puzzlink")
    assert info.value.column == url.index("!") + 1


def test_the_family_hint_must_match_the_url():
    with pytest.raises(ParseError, match="URL holds kurodoko"):
        loads("kurodoko/5/5/i7g5l2l2g4i", "puzzlink", family=Family.LIGHTUP)


# -- the writer writes pzprjs's URL ------------------------------------------------------------------
@pytest.mark.parametrize(
    "puzzle, pzprjs_url",
    [
        # test/script/lightup.js + test/puzzle/encode_test.js ("pzpr URL": urlid akari)
        (LIGHTUP, "http://pzv.jp/p.html?akari/6/6/nekcakbl"),
        # test/script/kurodoko.js + test/puzzle/encode_test.js
        (KURODOKO, "http://pzv.jp/p.html?kurodoko/5/5/i7g5l2l2g4i"),
        # test/pzpr/parser_test.js avoidEraseLastChar: a last '.' is followed by '/', ...
        (LightUp(5, 5, walls=frozenset({(4, 4)})), "http://pzv.jp/p.html?akari/5/5/zj./"),
        # ... and without it there is none
        (LightUp(5, 5), "http://pzv.jp/p.html?akari/5/5/zk"),
    ],
)
def test_writer_output_equals_pzprjs_url(puzzle, pzprjs_url):
    assert dump(puzzle, "puzzlink") == as_puzzlink(pzprjs_url)
    assert loads(pzprjs_url, "puzzlink") == puzzle


@pytest.mark.parametrize(
    "puzzle, url",
    [
        # encode4Cell: 2 absorbs two empty cells (c), 1 absorbs one (6), then a bare wall: ends in '.'
        (
            LightUp(1, 6, numbers={(0, 0): 2, (0, 3): 1}, walls=frozenset({(0, 5)})),
            "https://puzz.link/p?akari/6/1/c6./",
        ),
        # encodeNumber16: a '?' cell is '.', so a '?' in the last cell gets the '/' too
        (
            Kuromasu(2, 3, numbers={(0, 0): 3}, unknown=frozenset({(1, 2)})),
            "https://puzz.link/p?kurodoko/3/2/3j./",
        ),
        (
            Kuromasu(2, 20, numbers={(0, 0): 3, (0, 1): 11, (1, 19): 17}, unknown=frozenset({(0, 2)})),
            "https://puzz.link/p?kurodoko/20/2/3b.zv-11",
        ),
        # a number in the last cell is written as n+10, as encode4Cell does when no cell follows
        (LightUp(1, 1, numbers={(0, 0): 0}), "https://puzz.link/p?akari/1/1/a"),
    ],
)
def test_writer_follows_the_trailing_slash_rule(puzzle, url):
    assert dump(puzzle, "puzzlink") == url
    assert loads(url) == puzzle


@pytest.mark.parametrize("url", LIGHTUP_FORMS[:15] + KURODOKO_FORMS[:6])
def test_any_accepted_form_is_written_back_as_pzprjs_writes_it(url):
    written = dump(loads(url, "puzzlink"), "puzzlink")
    assert written in (PUZZLINK + "akari/6/6/nekcakbl", PUZZLINK + "kurodoko/5/5/i7g5l2l2g4i")


# -- round trips ---------------------------------------------------------------------------------
@st.composite
def lightups(draw):
    rows, cols = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    kinds = draw(
        st.lists(
            st.sampled_from(["open"] * 4 + ["wall", "0", "1", "2", "3", "4"]),
            min_size=rows * cols,
            max_size=rows * cols,
        )
    )
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    return LightUp(
        rows,
        cols,
        walls=frozenset(x for x, k in zip(cells, kinds) if k == "wall"),
        numbers={x: int(k) for x, k in zip(cells, kinds) if k.isdigit()},
    )


@st.composite
def kuromasus(draw):
    rows, cols = draw(st.integers(1, 12)), draw(st.integers(1, 12))
    numbers, unknown = {}, set()
    for cell in [(r, c) for r in range(rows) for c in range(cols)]:
        kind = draw(st.sampled_from(["."] * 4 + ["n", "?"]))
        if kind == "n":
            numbers[cell] = draw(st.integers(1, rows + cols - 1))
        elif kind == "?":
            unknown.add(cell)
    return Kuromasu(rows, cols, numbers=numbers, unknown=frozenset(unknown))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(lightups(), kuromasus()), st.sampled_from(["", "/", "_edit", "_play", "type=player&"]))
def test_random_boards_round_trip_in_every_form(puzzle, decoration):
    url = dump(puzzle, "puzzlink")
    assert url.startswith(PUZZLINK)
    data = url.split("/", 4)[-1]
    # pzprjs's rule: a '/' follows exactly when the data would end in something other than 0-9a-zA-Z
    assert url.endswith("/") == (not data.rstrip("/")[-1:].isalnum())
    assert loads(url) == puzzle and dump(loads(url), "puzzlink") == url
    query = url[len(PUZZLINK) :]
    pid, rest = query.split("/", 1)
    if decoration == "/":
        variant = url if url.endswith("/") else url + "/"
    elif decoration == "type=player&":
        variant = PUZZLINK + decoration + query
    elif decoration:
        variant = f"{PUZZLINK}{pid}{decoration}/{rest}"
    else:
        variant = query  # the bare form
    assert loads(variant, "puzzlink") == puzzle
    assert loads(url + url, "puzzlink") == puzzle  # a body past the board is ignored


def test_writer_refuses_other_families():
    from puzzlebench.model import LightBulbs

    with pytest.raises(PuzzleError, match="holds lightup, kuromasu"):
        dump(LightBulbs.from_rows([[1]]), "puzzlink")
