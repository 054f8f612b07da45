"""Symbols of real edits: Claude Code records each edit with the file content before it."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from artifact_index.facts.symbols.definitions import (
    changed_symbols,
    language_for_path,
    symbols_in_edit,
)

# Enough edits to cover Go, Elixir, TypeScript, Rust and shell, few enough to stay fast.
LIMIT = 250


class Edit(NamedTuple):
    path: str
    before: str
    old: str
    new: str
    replace_all: bool


def _edits(corpus: Path) -> Iterator[Edit]:
    for transcript in sorted((corpus / "claude_code").glob("*.jsonl.gz")):
        with gzip.open(transcript, "rt", encoding="utf-8") as lines:
            for line in lines:
                if '"originalFile"' not in line:
                    continue
                result = json.loads(line).get("toolUseResult")
                if not isinstance(result, dict) or not isinstance(result.get("originalFile"), str):
                    continue
                if not isinstance(result.get("oldString"), str):
                    continue
                if language_for_path(result["filePath"]) is None:
                    continue
                yield Edit(
                    result["filePath"],
                    result["originalFile"],
                    result["oldString"],
                    result["newString"],
                    bool(result.get("replaceAll")),
                )


def test_real_edits_name_their_symbols(corpus_dir: Path) -> None:
    edits = 0
    with_symbols = 0
    for edit in _edits(corpus_dir):
        after = edit.before.replace(edit.old, edit.new, -1 if edit.replace_all else 1)
        full = changed_symbols(edit.before, after, edit.path)
        # The edit placed in the content known before it finds what comparing
        # the whole file before and after finds.
        assert symbols_in_edit(edit.old, edit.new, edit.path, context=edit.before) == full
        edits += 1
        with_symbols += bool(full)
        if edits == LIMIT:
            break
    assert edits == LIMIT
    # Edits to imports, top-level constants or comments name no definition;
    # nearly all others do.
    assert with_symbols / edits > 0.8
