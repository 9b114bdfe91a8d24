"""Encodings' content hashes: taken from their module's file, read again when it changes."""

from __future__ import annotations

import hashlib
import importlib
import os
import sys

from puzzlebench.encodings.base import source_hash


def test_an_edited_encoding_module_gets_a_new_hash(tmp_path, monkeypatch):
    module = tmp_path / "edited_encoding_module.py"
    module.write_text("def build(puzzle, options):\n    return 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = importlib.import_module("edited_encoding_module")
    try:
        first = source_hash(mod.build)
        assert first == hashlib.sha256(module.read_bytes()).hexdigest()[:16]
        assert source_hash(mod.build) == first
        module.write_text("def build(puzzle, options):\n    return 22\n")
        stat = module.stat()
        os.utime(module, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
        assert source_hash(mod.build) == hashlib.sha256(module.read_bytes()).hexdigest()[:16] != first
    finally:
        sys.modules.pop("edited_encoding_module", None)
