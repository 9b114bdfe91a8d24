"""Plugins: modules that register encodings, solvers or paradigms when imported.

A plugin is an ordinary module whose import calls :func:`puzzlebench.register_encoding`,
:func:`puzzlebench.register_solver` or :func:`puzzlebench.register_paradigm`. Three ways in:

* a package's entry point in the group ``puzzlebench.plugins`` (``pyproject.toml``:
  ``[project.entry-points."puzzlebench.plugins"] mine = "my_package.puzzles"``);
* the environment variable ``PUZZLEBENCH_PLUGINS`` (module names, comma separated);
* ``--plugin MODULE`` on the command line, or :func:`load` from Python.

All are loaded on first use of the registry. Isolated benchmark workers and Dask workers get
the list of modules the parent loaded explicitly and load them before solving (entry points and
the environment variable they find themselves), so a plugin's encodings and solvers run there
exactly as in the parent.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
from importlib.metadata import entry_points

from .errors import EncodingError

ENTRY_POINT_GROUP = "puzzlebench.plugins"
ENV_VAR = "PUZZLEBENCH_PLUGINS"

_started = False
_explicit: list[str] = []  # modules loaded with load(), in order: passed on to workers


class PluginError(EncodingError):
    """A plugin could not be loaded (its module is missing or raised on import)."""


def file_module_name(path: str) -> str:
    """The private module name a plugin file is loaded under: ``puzzlebench_plugin_<stem>_<hash>``.

    Rule: a plugin file never takes the name of another module (``--plugin ./json.py`` must not
    replace the standard ``json``); the hash of its absolute path keeps two files of one name apart
    and gives the same file the same name in every worker."""
    full = os.path.abspath(path)
    stem = "".join(ch if ch.isalnum() else "_" for ch in os.path.splitext(os.path.basename(full))[0])
    return f"puzzlebench_plugin_{stem}_{hashlib.sha1(full.encode('utf-8', 'surrogatepass')).hexdigest()[:12]}"


def _import(name: str, origin: str) -> None:
    try:
        if name.endswith(".py") and os.path.exists(name):
            spec = importlib.util.spec_from_file_location(file_module_name(name), name)
            if spec is None or spec.loader is None:
                raise ImportError(f"no module spec for {name}")
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module
            spec.loader.exec_module(module)
        else:
            importlib.import_module(name)
    except PluginError:
        raise
    except Exception as exc:
        raise PluginError(f"plugin {name!r} ({origin}) failed to load: {type(exc).__name__}: {exc}") from exc


def load(name: str) -> None:
    """Import a plugin module (``pkg.module``, or the path of a ``.py`` file) and remember it
    for isolated workers. Loading a plugin twice imports it once."""
    load_all()
    if name in _explicit:
        return
    _import(name, "--plugin")
    _explicit.append(name)


def load_all() -> None:
    """Load the entry-point plugins and those named in ``PUZZLEBENCH_PLUGINS`` (once)."""
    global _started
    if _started:
        return
    _started = True
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            ep.load()
        except Exception as exc:
            raise PluginError(
                f"plugin entry point {ep.name!r} = {ep.value!r} failed to load: {type(exc).__name__}: {exc}"
            ) from exc
    for name in filter(None, (part.strip() for part in os.environ.get(ENV_VAR, "").split(","))):
        _import(name, ENV_VAR)


def explicit() -> list[str]:
    """The plugins loaded with :func:`load` (``--plugin``), for the workers of a sweep."""
    return list(_explicit)
