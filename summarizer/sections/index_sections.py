"""Sections filled from the index: exact, complete, deterministic.

Each renderer takes the facts and a *detail level* (0 = everything, higher =
more compact) and returns Markdown.  Compaction only ever shortens detail:
read-only files collapse by directory, symbol lists shorten, messages keep
their first lines.  A created, modified, deleted or reverted file's path is
never dropped and an open error's exact message is never reworded or cut.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from artifact_index.trail.index import SymbolEntry
from summarizer.sections.facts import ErrorFact, FileFact, SessionFacts

__all__ = ["MAX_DETAIL", "render_index_section"]

MAX_DETAIL = 3
_SYMBOLS_AT = {0: 40, 1: 12, 2: 5, 3: 0}


def _symbol_name(s: SymbolEntry) -> str:
    return f"{s.container}.{s.name}" if s.container else s.name


def _symbols(symbols: list[SymbolEntry], detail: int) -> str:
    limit = _SYMBOLS_AT[detail]
    if not symbols or limit == 0:
        return f"{len(symbols)} symbols" if symbols and limit == 0 else ""
    groups: dict[str, list[str]] = defaultdict(list)
    for s in symbols[:limit]:
        groups[s.change].append(f"`{_symbol_name(s)}`")
    text = "; ".join(f"{change}: {', '.join(names)}" for change, names in groups.items())
    if len(symbols) > limit:
        text += f"; and {len(symbols) - limit} more"
    return text


def _file_line(f: FileFact, detail: int) -> str:
    parts = []
    if f.renamed_from:
        parts.append(f"renamed from `{f.renamed_from}`")
    symbols = _symbols(f.symbols, detail)
    if symbols:
        parts.append(symbols)
    if f.lines_added is not None and detail <= 2:
        parts.append(f"+{f.lines_added}/-{f.lines_removed} lines")
    if f.evidence and detail <= 1:
        command = " ".join(f.evidence.split())
        parts.append(f"via `{command[:80]}{'…' if len(command) > 80 else ''}`")
    if f.turns and detail <= 1:
        parts.append(_turns(f.turns))
    return f"- `{f.path}`" + (f": {'; '.join(parts)}" if parts else "")


def _turns(turns: list[int]) -> str:
    if len(turns) == 1:
        return f"turn {turns[0]}"
    if len(turns) <= 4:
        return "turns " + ", ".join(map(str, turns))
    return f"turns {turns[0]}–{turns[-1]} ({len(turns)} turns)"


def _files(files: list[FileFact], detail: int, empty: str) -> str:
    if not files:
        return empty
    return "\n".join(_file_line(f, detail) for f in files)


def _files_read(facts: SessionFacts, detail: int) -> str:
    files = facts.read
    if not files:
        return "None."
    if detail == 0:
        return "\n".join(
            f"- `{f.path}`" + (f": saw {_symbols(f.read_symbols, 2)}" if f.read_symbols else "") for f in files
        )
    by_dir: dict[str, list[str]] = defaultdict(list)
    for f in files:
        folder, _, name = f.path.rpartition("/")
        by_dir[folder or "."].append(name)
    lines = []
    for folder, names in sorted(by_dir.items()):
        if len(names) == 1:
            lines.append(f"- `{folder}/{names[0]}`" if folder != "." else f"- `{names[0]}`")
        elif detail >= 2 and len(names) > 3:
            lines.append(f"- `{folder}/`: {len(names)} files")
        else:
            lines.append(f"- `{folder}/`: " + ", ".join(f"`{n}`" for n in sorted(names)))
    return "\n".join(lines)


def _error_line(e: ErrorFact, detail: int) -> str:
    where = ""
    if e.file:
        where = f" in `{e.file}" + (f":{e.line}" if e.line else "") + "`"
        if e.symbol:
            where += f" (`{e.symbol}`)"
    turns = f"turn {e.first_turn}" if e.first_turn == e.last_turn else f"turns {e.first_turn}–{e.last_turn}"
    state = "resolved" if e.resolved else "OPEN"
    message = e.message if not e.resolved or detail == 0 else e.message.splitlines()[0][:200]
    block = f"\n  ```\n  {message.replace(chr(10), chr(10) + '  ')}\n  ```" if "\n" in message else f" `{message}`"
    command = f" from `{' '.join(e.command.split())[:80]}`" if e.command and detail <= 1 else ""
    return f"- [{state}] {e.kind}{where}, {turns}{command}:{block}"


def _errors(facts: SessionFacts, detail: int, *, resolved: bool = True) -> str:
    lines = []
    if facts.original_error is not None:
        first = facts.original_error
        state = "resolved" if first.resolved else "still open"
        lines.append(f"Original error (turn {first.first_turn}, {state}): `{first.message.splitlines()[0]}`")
    shown = [e for e in facts.errors if resolved or not e.resolved]
    open_errors = [e for e in shown if not e.resolved]
    closed = [e for e in shown if e.resolved]
    lines += [_error_line(e, detail) for e in open_errors]
    if closed:
        if detail >= 3:
            lines.append(f"- {len(closed)} resolved error(s)")
        else:
            lines += [_error_line(e, detail) for e in closed]
    return "\n".join(lines) if lines else "None recorded."


def _test_status(facts: SessionFacts, detail: int) -> str:
    if not facts.tests:
        return "No test run recorded."
    lines = []
    for t in facts.tests:
        counts = f"{t.passed} passed, {t.failed} failed" + (f", {t.skipped} skipped" if t.skipped else "")
        lines.append(f"- `{' '.join(t.command.split())[:100]}` (turn {t.turn}): {counts}")
        limit = {0: 20, 1: 10, 2: 5, 3: 3}[detail]
        lines += [f"  - failing: `{name}`" for name in t.failing[:limit]]
        if len(t.failing) > limit:
            lines.append(f"  - and {len(t.failing) - limit} more failing")
    return "\n".join(lines)


def _pending(facts: SessionFacts, detail: int) -> str:
    tasks = facts.open_tasks
    if not tasks:
        done = len(facts.tasks)
        return f"None open ({done} task(s) completed)." if done else "No task list was kept."
    marks = {"in_progress": "[in progress]", "pending": "[pending]"}
    return "\n".join(f"- {marks[t.status]} {t.content}" for t in tasks)


def _user_messages(facts: SessionFacts, detail: int) -> str:
    if not facts.user_messages:
        return "None."
    limit = {0: 2000, 1: 600, 2: 200, 3: 120}[detail]
    lines = []
    for m in facts.user_messages:
        text = " ".join(m.text.split())
        lines.append(f"- (turn {m.turn}) {text[:limit]}{'…' if len(text) > limit else ''}")
    return "\n".join(lines)


def _files_and_code(facts: SessionFacts, detail: int) -> str:
    parts = [
        ("Created", facts.created), ("Modified", facts.modified), ("Deleted", facts.deleted),
        ("Reverted (changed, then back to the original state)", facts.reverted),
    ]
    lines = []
    for label, files in parts:
        if files:
            lines.append(f"{label}:")
            lines += [_file_line(f, detail) for f in files]
    lines.append("Read only:")
    lines.append(_files_read(facts, max(detail, 1)))
    return "\n".join(lines)


_RENDERERS: dict[str, Callable[[SessionFacts, int], str]] = {
    "files_created": lambda f, d: _files(f.created, d, "None."),
    "files_modified": lambda f, d: _files(f.modified, d, "None."),
    "files_deleted": lambda f, d: _files(f.deleted, d, "None."),
    "files_reverted": lambda f, d: _files(f.reverted, d, "None."),
    "files_read": _files_read,
    "files_and_code": _files_and_code,
    "errors": _errors,
    "errors_and_fixes": _errors,
    "error_messages": lambda f, d: _errors(f, d, resolved=False),
    "test_status": _test_status,
    "pending_tasks": _pending,
    "user_messages": _user_messages,
}


def render_index_section(key: str, facts: SessionFacts, detail: int = 0) -> str:
    """Markdown body of the index section ``key`` at ``detail`` (0..MAX_DETAIL)."""
    return _RENDERERS[key](facts, max(0, min(detail, MAX_DETAIL)))
