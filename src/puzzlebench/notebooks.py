"""Execute the project's notebooks (papermill-style parameters) and export them as HTML.

The notebooks under ``notebooks/`` are thin: a parameters cell (tagged ``parameters``, small
values by default) followed by calls into this package. :func:`execute` injects overrides right
after that cell, runs every cell with nbclient in the ``python3`` kernel of this environment, and
fails loudly on the first cell that raises.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

NOTEBOOK_DIR = Path(__file__).resolve().parents[2] / "notebooks"


def notebooks(directory: str | Path = NOTEBOOK_DIR) -> list[Path]:
    """The numbered notebooks, in order."""
    return sorted(p for p in Path(directory).glob("[0-9][0-9]_*.ipynb"))


def execute(
    path: str | Path,
    parameters: Mapping[str, Any] | None = None,
    timeout: int = 600,
    html: str | Path | None = None,
    cwd: str | Path | None = None,
):
    """Run a notebook top to bottom; return the executed notebook (and write HTML if asked)."""
    import nbformat
    from nbclient import NotebookClient

    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    if parameters:
        _inject(nb, parameters)
    client = NotebookClient(
        nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(cwd or path.parent)}}
    )
    try:
        client.execute()
    finally:  # a failed run still leaves its HTML, error cell included
        if html is not None:
            from nbconvert import HTMLExporter

            body, _ = HTMLExporter().from_notebook_node(nb)
            Path(html).parent.mkdir(parents=True, exist_ok=True)
            Path(html).write_text(body, encoding="utf-8")
    return nb


def execute_all(
    out_dir: str | Path,
    parameters: Mapping[str, Any] | None = None,
    directory: str | Path = NOTEBOOK_DIR,
    timeout: int = 3600,
    figures: bool = True,
) -> dict[str, dict[str, Any]]:
    """Execute every numbered notebook, writing ``out_dir/<notebook>.html`` for each.

    ``parameters`` apply to every notebook, except entries keyed by a notebook's name (e.g.
    ``{"FULL": True, "03_connectivity_ablation": {"SIZES": [5, 7]}}``), which apply to that one
    only. With ``figures``, each notebook also saves its figures as PNG under
    ``out_dir/figures`` (its ``FIGURES`` parameter). A notebook that fails does not stop the
    others: its entry in the returned mapping (name -> html, seconds, error) holds the error.
    """
    import time

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    books = notebooks(directory)
    names = {p.stem for p in books}
    shared = {k: v for k, v in (parameters or {}).items() if k not in names}
    report: dict[str, dict[str, Any]] = {}
    for book in books:
        params = dict(shared)
        if figures:
            # relative to the notebook's folder (its working directory), so no machine path
            # is printed into the executed copy
            params.setdefault("FIGURES", os.path.relpath((out / "figures").resolve(), book.parent.resolve()))
        params.update((parameters or {}).get(book.stem, {}))
        html = out / f"{book.stem}.html"
        start = time.perf_counter()
        error = None
        try:
            execute(book, params, timeout=timeout, html=html)
        except Exception as exc:  # reported per notebook; the others still run
            error = f"{type(exc).__name__}: {str(exc).strip().splitlines()[-1] if str(exc).strip() else ''}"
        report[book.stem] = {"html": str(html), "seconds": time.perf_counter() - start, "error": error}
    return report


def _inject(nb, parameters: Mapping[str, Any]) -> None:
    import nbformat

    source = "# injected parameters\n" + "\n".join(f"{k} = {v!r}" for k, v in parameters.items())
    cell = nbformat.v4.new_code_cell(source, metadata={"tags": ["injected-parameters"]})
    at = next(
        (i + 1 for i, c in enumerate(nb.cells) if "parameters" in c.get("metadata", {}).get("tags", [])), 0
    )
    nb.cells.insert(at, cell)
