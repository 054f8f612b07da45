"""What the current thread's searches found: the places a search matched, by file and line.

"Check the whole code base for this" is answered by a search and by reading
its hits; until the agent states a conclusion, what it has established is
the list of places.  Lost in a compaction, the search is run and every hit
read again.  Here each search since the thread started (a search tool:
``Grep``, ``Glob``, ``grep``, ``search_files`` ...; or a shell ``grep``,
``rg``, ``ag``, ``git grep``) keeps what it looked for and where it matched:
``path:line`` from the lines of its output that say so, or the paths it
printed when asked for files only.  A search that matched one place is a
lookup (its file is among those read), and output in any other shape gives
no places: both are left out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from artifact_index.ingestion.events import Event, ToolCall, ToolResult
from artifact_index.ingestion.vocabulary import tool_family
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.searches import runs_search
from artifact_index.trail.conversation.told import Search

__all__ = ["place_path", "searches_since"]

_HIT = lazy_pattern(
    r"^(?P<path>[^\s:=][^:\n]*?\.[\w]+|[^\s:=][^:\n]*/[^:\n]+):(?P<line>\d+)(?:[:-]|$)"
)
_PATH = lazy_pattern(r"^(?P<path>(?:\.{0,2}/)?[\w.@+-]+(?:/[\w.@+-]+)*\.\w+)$")
_QUERY_CHARS = 100
_MIN_PLACES = 2  # one match is a lookup, and its file is among those read


def _query(call: ToolCall) -> str | None:
    """What the call searched for, when it is a search: the shell command, else the pattern and where."""
    # Searches of file contents: a search for file names (Glob, find_file) finds files to read, not places.
    if tool_family(call.tool) == "search_code":
        pattern = next(
            (
                value
                for k in ("pattern", "query", "regex", "search_term", "file_name")
                if isinstance(value := call.arguments.get(k), str)
            ),
            None,
        )
        where = next(
            (
                value
                for k in ("path", "glob", "include", "dir")
                if isinstance(value := call.arguments.get(k), str)
            ),
            None,
        )
        return f"{pattern} in {where}" if pattern and where else pattern
    command = next(
        (op.command for op in call.operations if op.action == "shell" and op.command), None
    )
    if command is None:
        command = given if isinstance(given := call.arguments.get("command"), str) else None
    if command is not None and runs_search(command):
        return " ".join(command.split())
    return None


def _places(output: str, root: str | None) -> list[str]:
    """``path:line`` of every line of ``output`` that names one (lines of one file joined), else the paths."""
    hits: dict[str, list[str]] = {}
    paths: list[str] = []
    for line in output.splitlines():
        line = line.strip()
        found = _HIT.match(line)
        if found:
            hits.setdefault(_relative(found["path"], root), []).append(found["line"])
        elif (plain := _PATH.match(line)) is not None:
            paths.append(_relative(plain["path"], root))
    if hits:
        return [f"{path}:{', '.join(dict.fromkeys(lines))}" for path, lines in hits.items()]
    return list(dict.fromkeys(paths))


def _relative(path: str, root: str | None) -> str:
    if root and path.startswith(root.rstrip("/") + "/"):
        return path[len(root.rstrip("/")) + 1 :]
    return path.removeprefix("./")


def searches_since(events: Sequence[Event], turn: int, root: str | None) -> list[Search]:
    """The main agent's searches from ``turn`` on that found places, oldest first."""
    queries: dict[str, tuple[int, str]] = {}
    found: list[Search] = []
    calls: list[tuple[int, str]] = []  # every later call of the agent: its turn and what it named
    for event in events:
        if event.sidechain is not None or event.turn < turn:
            continue
        if isinstance(event, ToolCall):
            calls.append((event.turn, _named(event)))
            if (query := _query(event)) is not None:
                queries[event.call_id] = (event.turn, query)
        elif (
            isinstance(event, ToolResult) and event.call_id in queries and event.status == "success"
        ):
            at, query = queries.pop(event.call_id)
            places = _places(event.output, root)
            if len(places) >= _MIN_PLACES:
                if root:
                    query = query.replace(root.rstrip("/") + "/", "").replace(root.rstrip("/"), ".")
                shown = query if len(query) <= _QUERY_CHARS else query[: _QUERY_CHARS - 1] + "…"
                found.append(Search(turn=at, query=shown, places=places))
    return [search.model_copy(update={"looked_at": _looked_at(search, calls)}) for search in found]


# What a call writes, not what it looks at: a file named in new text was not looked at.
_WRITTEN_ARGUMENTS = frozenset(
    {
        "content",
        "file_text",
        "new_string",
        "old_string",
        "new_str",
        "old_str",
        "text",
        "description",
    }
)


def _named(call: ToolCall) -> str:
    """What a call names: its arguments and the paths of its operations, as one text to look file names up in."""
    parts = [
        value
        for key, value in call.arguments.items()
        if isinstance(value, str) and key not in _WRITTEN_ARGUMENTS
    ]
    parts += [op.path for op in call.operations if op.path]
    return "\n".join(parts)


def _looked_at(search: Search, calls: Sequence[tuple[int, str]]) -> list[str]:
    """The files of ``search``'s places that a later call named: by path, or by name when no other place has it."""
    paths = list(dict.fromkeys(place_path(place) for place in search.places))
    names = [path.rsplit("/", 1)[-1] for path in paths]
    later = "\n".join(text for at, text in calls if at > search.turn)
    seen = []
    for path, name in zip(paths, names, strict=True):
        spelled = [path] if names.count(name) > 1 else [path, name]
        if any(re.search(rf"(?<![\w.-]){re.escape(form)}(?![\w-])", later) for form in spelled):
            seen.append(path)
    return seen


def place_path(place: str) -> str:
    """The file of a place (``path:line, line`` or a bare path)."""
    path, _, lines = place.rpartition(":")
    return path if path and lines.replace(", ", "").isdigit() else place
