"""Researchers' encodings as files, and the instance interface every encoding is written against.

An ASP program (``.lp``) runs on clingo with the puzzle written as the facts below; a MiniZinc
model (``.mzn``) runs on MiniZinc's solvers with the data below. The file is read on every
solve (an edited file takes effect at once, in the same Jupyter kernel) and its content hash
goes into every record, so a resumed sweep never reuses a result of an older version.

``puzzlebench encodings --schema FAMILY PARADIGM`` prints :func:`schema`; Python builders
registered with :func:`puzzlebench.register_encoding` get the same text for their paradigm.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Callable, Mapping

from ..errors import EncodingError
from ..model import Cell, Family, Kuromasu, LightBulbs, LightUp, Puzzle
from .base import EncodingSpec

#: file suffix -> the paradigm that runs it
SUFFIXES: dict[str, str] = {".lp": "asp", ".mzn": "minizinc"}


# -- the ASP fact schema (0-based rows and columns) ---------------------------------------------
def asp_facts(puzzle: Puzzle) -> str:
    """The puzzle as the ground facts documented in :data:`ASP_SCHEMA`."""
    parts = [f"size({puzzle.rows},{puzzle.cols})."]
    if isinstance(puzzle, LightUp):
        parts += [f"wall({r},{c})." for r, c in sorted(puzzle.walls)]
        parts += [f"num({r},{c},{n})." for (r, c), n in sorted(puzzle.numbers.items())]
        parts += [f"open({r},{c})." for r, c in sorted(puzzle.open_cells)]
    elif isinstance(puzzle, Kuromasu):
        parts += [f"num({r},{c},{n})." for (r, c), n in sorted(puzzle.numbers.items())]
        parts += [f"clue({r},{c})." for r, c in sorted(puzzle.clue_cells)]
    elif isinstance(puzzle, LightBulbs):
        parts += [f"n({r},{c},{n})." for r, row in enumerate(puzzle.numbers) for c, n in enumerate(row)]
    else:
        raise EncodingError(f"no ASP fact schema for {puzzle.family}")
    return "\n".join(parts) + "\n"


ASP_SCHEMA: dict[Family, tuple[str, str]] = {
    Family.LIGHTUP: (
        "bulb",
        "size(R,C).      the board has R rows and C columns (cells 0..R-1 x 0..C-1)\n"
        "wall(X,Y).      (X,Y) is a wall\n"
        "num(X,Y,N).     the wall at (X,Y) carries the number N (0..4)\n"
        "open(X,Y).      (X,Y) is an open cell (a bulb may go there)",
    ),
    Family.KUROMASU: (
        "black",
        "size(R,C).      the board has R rows and C columns (cells 0..R-1 x 0..C-1)\n"
        "num(X,Y,N).     (X,Y) holds the number N\n"
        "clue(X,Y).      (X,Y) is a clue: numbered or '?' (always white)",
    ),
    Family.LIGHTBULBS: (
        "lit",
        "size(R,C).      the board has R rows and C columns (cells 0..R-1 x 0..C-1)\n"
        "n(X,Y,N).       cell (X,Y) holds the number N (1..9)",
    ),
}


# -- the MiniZinc data schema (1-based arrays) --------------------------------------------------
def mzn_data(puzzle: Puzzle) -> str:
    """The puzzle as the MiniZinc data documented in :data:`MZN_SCHEMA`."""
    from .minizinc import lightup_dzn

    if isinstance(puzzle, LightUp):
        return lightup_dzn(puzzle)
    if isinstance(puzzle, Kuromasu):
        board = [[puzzle.numbers.get((r, c), -1 if (r, c) in puzzle.unknown else 0) for c in range(puzzle.cols)]
                 for r in range(puzzle.rows)]
    elif isinstance(puzzle, LightBulbs):
        board = [list(row) for row in puzzle.numbers]
    else:
        raise EncodingError(f"no MiniZinc data schema for {puzzle.family}")
    rows = ",\n     | ".join(", ".join(f"{v:2d}" for v in row) for row in board)
    return f"h = {puzzle.rows};\nw = {puzzle.cols};\nn = [| {rows} |];\n"


MZN_SCHEMA: dict[Family, tuple[str, str]] = {
    Family.LIGHTUP: (
        "x",
        "int: h; int: w;                     rows, columns\n"
        "array[1..h,1..w] of int: b;         -1 open cell, 5 plain wall, 0..4 numbered wall (seed 001's data)\n"
        "output: array[1..h,1..w] of var bool: x   (x[i,j] = a bulb on open cell (i,j))",
    ),
    Family.KUROMASU: (
        "black",
        "int: h; int: w;                     rows, columns\n"
        "array[1..h,1..w] of int: n;         0 no clue, -1 a '?' clue, else the number\n"
        "output: array[1..h,1..w] of var bool: black",
    ),
    Family.LIGHTBULBS: (
        "lit",
        "int: h; int: w;                     rows, columns\n"
        "array[1..h,1..w] of 1..9: n;        the numbers\n"
        "output: array[1..h,1..w] of var bool: lit",
    ),
}

#: What a Python builder of each paradigm returns, and on what the harness blocks and reads.
PYTHON_SCHEMA: dict[str, str] = {
    "asp": "puzzlebench.encodings.asp.AspProgram(files=(), text=<rules>, facts=asp_facts(puzzle), predicate=P):\n"
           "  clingo grounds text + facts; answers are the P/2 atoms (0-based), the only #show-n atoms",
    "sat": "puzzlebench.encodings.sat.CnfModel(pool=IDPool(), clauses=[...], decision={cell: var}):\n"
           "  decision maps every markable cell to its DIMACS variable (true = marked); the harness blocks\n"
           "  and reads answers on these only; optional lazy=rule(marked) -> [[(cell, bool), ...], ...]",
    "smt": "puzzlebench.encodings.smt.common.SmtModel(): model.bool(...), model.add(...), decision={cell: BoolRef}\n"
           "  z3 terms in model.ctx; every SMT solver (z3, cvc5) runs them; optional lazy rule as for sat",
    "cp": "puzzlebench.encodings.cp.common.CpModelArtifact(model=CpModel(), decision={cell: BoolVar}):\n"
          "  CP-SAT model; functional=True when every variable is determined by the decision cells",
    "mip": "puzzlebench.encodings.mip.common.MipModel: binary columns, decision={cell: column}; rows as documented\n"
           "  there; HiGHS solves it; optional lazy rule as for sat",
    "minizinc": "puzzlebench.encodings.minizinc.MiniZincArtifact(model=<mzn text>, data=mzn_data(puzzle), array=A,\n"
                "  decision={cell: (row+1, col+1)})",
}

_MARKED = {Family.LIGHTUP: "bulb cells", Family.KUROMASU: "black cells", Family.LIGHTBULBS: "lit cells"}


def schema(family: Family | str, paradigm: str) -> str:
    """The instance interface of ``family`` for encodings of ``paradigm``, as text."""
    fam = Family(family)
    out = [f"{fam} in {paradigm}: the answer is the set of {_MARKED[fam]}"]
    if paradigm == "asp":
        predicate, text = ASP_SCHEMA[fam]
        out += ["", "facts (0-based):", text, "",
                f"answer: #show {predicate}/2.  (show nothing else: the harness projects on the shown atoms)"]
    elif paradigm == "minizinc":
        array, text = MZN_SCHEMA[fam]
        out += ["", "data:", text, "", f"answer: the 2-D Boolean array {array!r} (output it, e.g. with --json-stream)"]
    out += ["", "Python builder (register_encoding):", PYTHON_SCHEMA.get(paradigm, "see puzzlebench.solvers.base")]
    return "\n".join(out)


# -- file encodings ------------------------------------------------------------------------------
def is_encoding_file(name: str) -> bool:
    """Whether an encoding name is a file path (by its suffix)."""
    return Path(name).suffix in SUFFIXES


def file_encoding(family: Family, paradigm: str, path: str) -> EncodingSpec:
    """An :class:`EncodingSpec` for the encoding file at ``path`` (read now, hashed now)."""
    suffix = Path(path).suffix
    wanted = SUFFIXES[suffix]
    if paradigm != wanted:
        raise EncodingError(f"{path}: a {suffix} file is run by the {wanted!r} paradigm, not {paradigm!r}")
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise EncodingError(f"encoding file {path}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EncodingError(f"encoding file {path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    build = _asp_builder(text) if paradigm == "asp" else _mzn_builder(text)
    return EncodingSpec(
        family=family, paradigm=paradigm, name=path, build=build, origin="file",
        description=f"the encoding file {Path(path).name}", reference=path,
        source_hash=hashlib.sha256(data).hexdigest()[:16],
    )


def _asp_builder(text: str) -> Callable[[Puzzle, Mapping[str, Any]], Any]:
    from .asp.program import AspProgram

    def build(puzzle: Puzzle, options: Mapping[str, Any]) -> Any:
        predicate, _ = ASP_SCHEMA[puzzle.family]
        return AspProgram(text=text, facts=asp_facts(puzzle), predicate=predicate)

    return build


def _mzn_builder(text: str) -> Callable[[Puzzle, Mapping[str, Any]], Any]:
    from .minizinc import MiniZincArtifact

    def build(puzzle: Puzzle, options: Mapping[str, Any]) -> Any:
        array, _ = MZN_SCHEMA[puzzle.family]
        # every cell: a model that marks a wall or a clue is caught by the verifier, not hidden
        cells: list[Cell] = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)]
        decision = {cell: (cell[0] + 1, cell[1] + 1) for cell in cells}
        return MiniZincArtifact(decision=decision, model=text, data=mzn_data(puzzle), array=array)

    return build
