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
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..errors import EncodingError
from ..model import Cell, Family, Puzzle, family_spec
from ..model.family import InstanceSchema
from .base import EncodingSpec

#: file suffix -> the paradigm that runs it
SUFFIXES: dict[str, str] = {".lp": "asp", ".mzn": "minizinc"}


# -- the instance interface: each family declares it (FamilySpec.asp_facts / mzn_data) ----------
def _schema(family: Family | str, paradigm: str) -> InstanceSchema:
    spec = family_spec(family)
    found = spec.asp_facts if paradigm == "asp" else spec.mzn_data if paradigm == "minizinc" else None
    if found is None:
        raise EncodingError(f"no {paradigm} instance schema for {spec.family}")
    return found


def asp_facts(puzzle: Puzzle) -> str:
    """The puzzle as the ground facts its family documents (``schema(family, "asp")``), 0-based."""
    return _schema(puzzle.family, "asp").write(puzzle)


def mzn_data(puzzle: Puzzle) -> str:
    """The puzzle as the MiniZinc data its family documents (``schema(family, "minizinc")``), 1-based."""
    return _schema(puzzle.family, "minizinc").write(puzzle)


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


def schema(family: Family | str, paradigm: str) -> str:
    """The instance interface of ``family`` for encodings of ``paradigm``, as text."""
    spec = family_spec(family)
    out = [f"{spec.family} in {paradigm}: the answer is the set of {spec.answer}"]
    if paradigm == "asp":
        found = _schema(spec.family, paradigm)
        out += [
            "",
            "facts (0-based):",
            found.text,
            "",
            f"answer: #show {found.answer}/2.  (show nothing else: the harness projects on the shown atoms)",
        ]
    elif paradigm == "minizinc":
        found = _schema(spec.family, paradigm)
        out += [
            "",
            "data:",
            found.text,
            "",
            f"answer: the 2-D Boolean array {found.answer!r} (output it, e.g. with --json-stream)",
        ]
    out += [
        "",
        "Python builder (register_encoding):",
        PYTHON_SCHEMA.get(paradigm, "see puzzlebench.solvers.base"),
    ]
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
        raise EncodingError(
            f"encoding file {path}: not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from None
    if paradigm == "asp":
        check_asp_program(text, path, family)
    build = _asp_builder(text) if paradigm == "asp" else _mzn_builder(text)
    return EncodingSpec(
        family=family,
        paradigm=paradigm,
        name=path,
        build=build,
        origin="file",
        description=f"the encoding file {Path(path).name}",
        reference=path,
        source_hash=hashlib.sha256(data).hexdigest()[:16],
    )


class ProgramWarning(UserWarning):
    """An encoding file that may not read the puzzle: atoms no rule defines, schema facts unused."""


def _predicates(node: Any, out: set[tuple[str, int]]) -> None:
    """The (name, arity) of every atom in a clingo AST node, walked through all its children."""
    import clingo.ast as ast

    if node.ast_type == ast.ASTType.SymbolicAtom and node.symbol.ast_type == ast.ASTType.Function:
        out.add((node.symbol.name, len(node.symbol.arguments)))
    for key in node.child_keys:
        child = getattr(node, key)
        for item in child if isinstance(child, ast.ASTSequence) or isinstance(child, list) else [child]:
            if item is not None and hasattr(item, "ast_type"):
                _predicates(item, out)


def check_asp_program(text: str, path: str, family: Family | str) -> None:
    """Parse an ``.lp`` file with clingo and check that it can read the family's facts.

    Rule: a syntax error is an :class:`EncodingError` carrying clingo's own message and location
    (in the file's name); a program whose atoms match no fact of the schema, or that uses atoms
    no rule head nor schema fact defines (clingo grounds them false, so a program that reads
    nothing answers at once), gets a :class:`ProgramWarning` naming them.
    """
    import random
    import warnings

    import clingo
    import clingo.ast as ast

    messages: list[str] = []
    used: set[tuple[str, int]] = set()

    def keep(_code: Any, message: str) -> None:
        messages.append(message.strip().replace("<string>", path))

    try:
        ast.parse_string(text, lambda statement: _predicates(statement, used), logger=keep)
    except RuntimeError:
        found = "; ".join(m for m in messages if "error" in m) or "parsing failed"
        raise EncodingError(f"{path}: clingo cannot parse the program: {found}") from None
    spec = family_spec(family)
    # the schema's facts: each "name(args)." line of its text (a sample board need not hold them all)
    facts = {
        (m.group(1), m.group(2).count(",") + 1)
        for m in re.finditer(r"^([a-z]\w*)\(([^()]*)\)\.", _schema(family, "asp").text, re.M)
    }
    if not used & facts:
        schema_names = ", ".join(f"{n}/{a}" for n, a in sorted(facts))
        warnings.warn(
            f"{path}: the program uses none of the {spec.family} facts ({schema_names}); it reads "
            "nothing of the puzzle",
            ProgramWarning,
            stacklevel=3,
        )
    # clingo names the atoms that occur in no rule head: ground the program with the sample's facts
    infos: list[str] = []
    ctl = clingo.Control(
        ["--warn=atom-undefined"],
        logger=lambda code, message: (
            infos.append(message.strip().replace("<block>", path))
            if code == clingo.MessageCode.AtomUndefined
            else None
        ),
    )
    sample = spec.random_board(random.Random(0), 3, 3)
    defined = "".join(f"#defined {name}/{arity}.\n" for name, arity in sorted(facts))
    try:
        ctl.add("base", [], text + "\n" + defined + asp_facts(sample))
        ctl.ground([("base", [])])
    except RuntimeError:  # a grounding error shows when the encoding runs, with the solver's message
        return
    undefined = [m.split("\n")[0].split(": info:")[0] + ": " + m.split("\n")[-1].strip() for m in infos]
    if undefined:
        warnings.warn(
            f"{path}: atoms that occur in no rule head and in no {spec.family} fact (clingo): "
            + "; ".join(undefined[:5])
            + ("; ..." if len(undefined) > 5 else ""),
            ProgramWarning,
            stacklevel=3,
        )


def _asp_builder(text: str) -> Callable[[Puzzle, Mapping[str, Any]], Any]:
    from .asp.program import AspProgram

    def build(puzzle: Puzzle, options: Mapping[str, Any]) -> Any:
        return AspProgram(text=text, facts=asp_facts(puzzle), predicate=_schema(puzzle.family, "asp").answer)

    return build


def _mzn_builder(text: str) -> Callable[[Puzzle, Mapping[str, Any]], Any]:
    from .minizinc import MiniZincArtifact

    def build(puzzle: Puzzle, options: Mapping[str, Any]) -> Any:
        array = _schema(puzzle.family, "minizinc").answer
        # every cell: a model that marks a wall or a clue is caught by the verifier, not hidden
        cells: list[Cell] = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)]
        decision = {cell: (cell[0] + 1, cell[1] + 1) for cell in cells}
        return MiniZincArtifact(decision=decision, model=text, data=mzn_data(puzzle), array=array)

    return build
