"""Which definitions each read showed and each change added, modified or removed, from what is known.

What a read showed of the file is kept at once (later edits apply to it);
finding the definitions, which parses the text with tree-sitter, is
deferred to when symbols are asked for (:meth:`ArtifactIndex.defer`), with
everything it needs taken now: the texts as they are at this point, and
the window an edit applies to.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from artifact_index.facts.symbols.definitions import (
    SymbolChange,
    changed_symbols,
    symbols_in_edit,
    symbols_in_hunks,
    symbols_in_range,
)
from artifact_index.ingestion.events import FileOperation
from artifact_index.ingestion.patches import diff_hunk_sides
from artifact_index.trail.annotations import add_symbol_changes, add_symbols_read
from artifact_index.trail.contents import parse_read_output
from artifact_index.trail.file_state import FileState
from artifact_index.trail.graph import ArtifactGraph
from artifact_index.trail.index import ArtifactIndex

__all__ = ["learn_from_read", "record_symbols", "symbol_in"]


def learn_from_read(
    index: ArtifactIndex,
    file: FileState,
    key: str,
    op: FileOperation,
    op_node: str,
    output: str,
    *,
    single: bool,
    sub_agent: bool = False,
) -> None:
    """Keep what a read showed of the file, and (deferred) which definitions it showed.

    ``single``: the output shows this read alone, so it is the file's text.  ``sub_agent``: a
    sub-agent read it; where its records stand among the main agent's changes is not known (a
    sub-agent started before an edit may be written after it), so a text of a file the main
    agent changed is never taken as its current one, and one that differs from the one the trail
    knows makes the content unknown (taken as current, it undid the edit: "+0/-0 lines").
    """
    # A view from line 1 with no end (`view_range: [1, -1]`) asks for the whole file too.
    whole = (op.start_line or 1) == 1 and op.end_line is None
    window = parse_read_output(output, whole_file_hint=whole)
    start: int | None
    end: int | None
    if window is not None and single:
        if window.is_whole_file:
            shown = window.text()
            differs = file.content is not None and shown.rstrip("\n") != file.content.rstrip("\n")
            if sub_agent and file.changed:
                if differs:
                    file.content = None
            else:
                if differs:
                    # Not what the trail knew it held: something it does not follow changed it
                    # (for a file the session changed: since its last change).
                    file.changed_unseen_turn = int(index.fed_graph.nodes[op_node]["turn"])
                file.showed_whole(shown)
                if differs and file.changed:
                    file.update_restored()
        elif file.content is None:
            file.showed(window.start, list(window.lines))
        elif not sub_agent and _window_differs(file.content, window.start, window.lines):
            # Part of the file, other than the trail knew it: what it holds now is not known.
            file.changed_unseen_turn = int(index.fed_graph.nodes[op_node]["turn"])
            file.content = None
            file.showed(window.start, list(window.lines))
        text, start, end, first_line = window.text(), window.start, window.end, window.start
    elif file.content is not None:
        text, start, end, first_line = file.content, op.start_line, op.end_line, 1
    else:
        return
    index.defer(partial(_record_read, index.fed_graph, op_node, key, text, start, end, first_line))


# Lines longer than this may be cut short by the reading tool (Claude Code cuts at 2,000
# characters): such a line is not compared.
_COMPARED_LINE = 1500


def _window_differs(content: str, start: int, lines: tuple[str, ...]) -> bool:
    """Whether a read's window of lines ``start``.. shows other text than ``content`` holds there."""
    if not lines or start < 1:
        return False
    known = content.split("\n")[start - 1 : start - 1 + len(lines)]
    if len(known) < len(lines):
        return bool(known) or start > 1  # the file is shorter than the trail knew
    return any(
        len(shown) < _COMPARED_LINE and shown.rstrip() != held.rstrip("\r").rstrip()
        for shown, held in zip(lines, known, strict=True)
    )


def _record_read(
    graph: ArtifactGraph,
    op_node: str,
    key: str,
    text: str,
    start: int | None,
    end: int | None,
    first_line: int,
) -> None:
    add_symbols_read(
        graph, op_node, key, symbols_in_range(text, key, start, end, first_line=first_line)
    )


def record_symbols(
    index: ArtifactIndex,
    op_node: str,
    key: str,
    op: FileOperation,
    before: str | None,
    after: str | None,
    existed: bool | None,
) -> None:
    """(Deferred) the definitions one change added, modified or removed, from what is known."""
    if op.action in ("move", "copy", "undo", "restore", "unknown"):
        return
    graph = index.fed_graph
    changes: Callable[[], list[SymbolChange]]
    if op.action == "delete":
        if before is not None:
            changes = partial(changed_symbols, before, None, key)
        else:
            changes = partial(_known_definitions, graph, key)
    elif (before is not None or existed is False) and after is not None:
        changes = partial(changed_symbols, before, after, key)
    elif op.action == "edit" and (op.old is not None or op.new is not None):
        # The window the edit landed in is the one holding its text now: windows change with later edits.
        file = index.file_state(key)
        context = before or after or (file.window_holding(op.new, op.old) if file else None)
        changes = partial(symbols_in_edit, op.old, op.new, key, context=context)
    elif op.action == "edit" and op.diff:
        changes = partial(_symbols_in_diff, op.diff, key, before or after)
    else:
        changes = list
    index.defer(partial(_record_changes, graph, op_node, key, changes))


def _record_changes(
    graph: ArtifactGraph, op_node: str, key: str, changes: Callable[[], list[SymbolChange]]
) -> None:
    add_symbol_changes(graph, op_node, key, changes())


def _symbols_in_diff(diff: str, key: str, context: str | None) -> list[SymbolChange]:
    return symbols_in_hunks(diff_hunk_sides(diff), key, context=context)


def symbol_in(content: str | None, key: str, line: int | None) -> str | None:
    """The innermost definition around ``line`` of ``content``, the file ``key``, when it is known."""
    if content is None or line is None:
        return None
    around = symbols_in_range(content, key, line, line)
    if not around:
        return None
    inner = min(around, key=lambda d: d.end_line - d.start_line)
    return f"{inner.container}.{inner.name}" if inner.container else inner.name


def _known_definitions(graph: ArtifactGraph, key: str) -> list[SymbolChange]:
    """Every definition of the file that reads or changes showed and no change removed, as removed."""
    out = []
    for _, node, edge in graph.out_edges(f"file:{key}", data=True):
        if edge.get("kind") != "defines":
            continue
        changes = sorted(
            (int(graph.nodes[op]["seq"]), str(e["change"]))
            for op, _, e in graph.in_edges(node, data=True)
            if e.get("kind") == "changed"
        )
        if changes and changes[-1][1] != "removed":
            data = graph.nodes[node]
            out.append(
                SymbolChange(
                    name=data["name"],
                    kind=data["symbol_kind"],
                    container=data["container"],
                    change="removed",
                )
            )
    return out
