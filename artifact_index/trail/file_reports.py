"""Each file the session touched, with what its changes wrote: the files as a summary states them.

:func:`file_reports` joins what the index knows of each file: its net
status and operations (:meth:`~artifact_index.trail.index.ArtifactIndex.files`),
the definitions its changes touched and its reads showed
(:meth:`~artifact_index.trail.index.ArtifactIndex.symbols`), the size of its
net change, and what the change wrote where the index knows the text
(:mod:`artifact_index.facts.changes`: the signatures and docs of added
definitions, the tests a test file gained, the lines a file without
definitions gained, the telling lines inside modified definitions).
"""

from __future__ import annotations

from artifact_index.facts.changes import (
    added_tests,
    changed_code,
    changed_outline,
    definition_notes,
)
from artifact_index.facts.symbols.entries import SymbolEntry
from artifact_index.trail.answers import FileReport
from artifact_index.trail.index import ArtifactIndex

__all__ = ["file_reports", "line_counts"]


def line_counts(diff: str | None) -> tuple[int | None, int | None]:
    """Lines added and removed by a file's net change, when the index knows both sides of it."""
    if diff is None:
        return None, None
    body = (
        diff.split("\n@@", 1)[1].splitlines()[1:] if "\n@@" in diff else []
    )  # past the ---/+++ headers
    added = sum(1 for line in body if line.startswith("+"))
    removed = sum(1 for line in body if line.startswith("-"))
    return added, removed


def file_reports(
    index: ArtifactIndex, symbols: dict[str, list[SymbolEntry]] | None = None
) -> list[FileReport]:
    """Every file with a status (not those only failed calls touched), in order of first touch.

    ``symbols``: ``index.symbols()``, when the caller already has it (it visits every symbol).
    """
    if symbols is None:
        symbols = index.symbols()
    reports = []
    for entry in index.files():
        if entry.status is None:
            continue
        changes = [op for op in entry.ops if op.action != "read" and op.result != "failure"]
        shell = [op.command for op in changes if op.command]
        diff = index.net_diff(entry.path) if entry.status in ("created", "modified") else None
        added, removed = line_counts(diff if entry.status == "modified" else None)
        file_symbols = symbols.get(entry.path, [])
        changed_symbols = [s for s in file_symbols if s.change != "read"]
        notes = definition_notes(
            index.content(entry.path) if diff else None,
            entry.path,
            [s for s in changed_symbols if s.change == "added"],
        )
        state = index.find_file(entry.path)
        first_lines, outline = (
            changed_outline(diff, entry.path) if not changed_symbols else ([], False)
        )
        reports.append(
            FileReport(
                path=entry.path,
                status=entry.status,
                renamed_from=entry.renamed_from,
                sources=entry.sources,
                turns=sorted({op.turn for op in entry.ops if op.result != "failure"}),
                changed_turns=sorted({op.turn for op in changes if op.action != "unknown"}),
                symbols=changed_symbols,
                read_symbols=[s for s in file_symbols if s.change == "read"],
                shell_command=shell[-1] if shell else None,
                lines_added=added,
                lines_removed=removed,
                signatures={key: signature for key, (signature, _) in notes.items()},
                docs={key: doc for key, (_, doc) in notes.items() if doc},
                tests_added=added_tests(diff, entry.path, changed_symbols),
                first_lines=first_lines,
                headings=outline,
                changed_code=changed_code(
                    diff,
                    index.content(entry.path),
                    entry.path,
                    [s for s in changed_symbols if s.change == "modified"],
                )
                if entry.status == "modified"
                else {},
                existed_before=state.existed_before if state is not None else None,
                last_change=(changes[-1].action, changes[-1].turn) if changes else None,
                certainty=entry.certainty,
                evidence=entry.evidence,
            )
        )
    return reports
