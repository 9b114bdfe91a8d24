"""Loaded on request only (``--plugin pb_demo_plugin.extra`` or ``PUZZLEBENCH_PLUGINS``), not by
the entry point: a Kuromasu ASP encoding ``demo-asp`` written as a Python builder.

Absolute imports only, so that it also loads as a file: ``--plugin path/to/extra.py``.
"""

from __future__ import annotations

import puzzlebench as pb
from puzzlebench.encodings.asp import AspProgram
from puzzlebench.encodings.files import asp_facts

RULES = """
cell(R,C) :- size(H,W), R = 0..H-1, C = 0..W-1.
{ black(R,C) } :- cell(R,C), not clue(R,C).
white(R,C) :- cell(R,C), not black(R,C).
:- black(R,C), black(R+1,C).
:- black(R,C), black(R,C+1).
dir(-1,0; 1,0; 0,-1; 0,1).
see(R,C,DR,DC,1) :- num(R,C,_), dir(DR,DC), white(R+DR,C+DC).
see(R,C,DR,DC,K+1) :- see(R,C,DR,DC,K), num(R,C,N), K < N, white(R+DR*(K+1),C+DC*(K+1)).
:- num(R,C,N), #count{ DR,DC,K : see(R,C,DR,DC,K) } != N-1.
reach(R,C) :- (R,C) = #min{ (X,Y) : white(X,Y) }.
reach(R+DR,C+DC) :- reach(R,C), dir(DR,DC), white(R+DR,C+DC).
:- white(R,C), not reach(R,C).
#show black/2.
"""


def build_demo_asp(puzzle, options):
    return AspProgram(text=RULES, facts=asp_facts(puzzle), predicate="black")


pb.register_encoding(
    "kuromasu",
    "asp",
    "demo-asp",
    build_demo_asp,
    origin="pb-demo-plugin",
    description="demo plugin (loaded on request): rays and a flood fill from the first white cell",
)
