"""The session store's commands: ``store``, ``sessions``, ``where`` and ``watch``.

Times are shown in UTC, as the store keeps them.  The store and the
watcher are imported by the command that needs them, so ``files`` pays
nothing for them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, TextIO

from artifact_index.presentation.arguments import add_command, add_transcript_arguments
from artifact_index.presentation.output import SCHEMA_VERSION, terminal_width
from artifact_index.presentation.tables import Column, render_table, shorten_end, shorten_middle

if TYPE_CHECKING:
    from artifact_index.live.record import StoredError, StoredFile
    from artifact_index.live.store import Compaction, SessionRow, SessionStore, Touch
    from artifact_index.live.watch import Update, Watcher
    from artifact_index.presentation.json_contracts import ModelJSON, SessionsJSON, WhereJSON

__all__ = ["add_session_commands", "sessions_json", "touches_json"]

# A transcript that could not be stored is a data error, as for any command.
EXIT_FAILED = 1

_CHANGED = frozenset({"created", "modified", "deleted"})


def _store(args: argparse.Namespace) -> SessionStore:
    from artifact_index.live.store import SessionStore

    return SessionStore(args.store)


def _say_json(data: Mapping[str, object]) -> None:
    """One JSON line, ``schema_version`` first, secrets redacted (as every command's ``--json``)."""
    from artifact_index.redaction import redact_json

    _say(json.dumps(redact_json({"schema_version": SCHEMA_VERSION, **data}), ensure_ascii=False))


def _say(text: str, stream: TextIO | None = None) -> None:
    """One message, secrets redacted, flushed at once (a watch prints as it goes)."""
    from artifact_index.redaction import redact_text

    target = stream if stream is not None else sys.stdout
    target.write(redact_text(text) + "\n")
    target.flush()


def _when(instant: str | None) -> str:
    return instant[:16].replace("T", " ") if instant else "-"


def _span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"


def _file_line(file: StoredFile) -> str:
    renamed = f" <- {file.renamed_from}" if file.renamed_from else ""
    return f"    {file.status:9} {file.path}{renamed}  (turns {_span(file.first_turn, file.last_turn)})"


def _error_line(error: StoredError) -> str:
    place = f"{error.file}:{error.line}" if error.file and error.line else (error.file or "")
    message = " ".join(error.message.split())
    return (
        f"    open  {place + '  ' if place else ''}{message[:100]}{'…' if len(message) > 100 else ''}  "
        f"(turns {_span(error.first_turn, error.last_turn)})"
    )


def _compaction_line(compaction: Compaction) -> str:
    when = f"    compaction {_when(compaction.at)}{f' ({compaction.trigger})' if compaction.trigger else ''}"
    if compaction.phase == "pre":
        return f"{when}: snapshot before it, {compaction.changed} file(s) changed"
    return f"{when}: the agent's summary scored {compaction.score_line()}"


_SESSION_COLUMNS = (
    Column("LAST ACTIVITY"),
    Column("ID"),
    Column("FORMAT", shrink="end"),
    Column("TURNS"),
    Column("CHANGED"),
    Column("READ"),
    Column("OPEN ERRORS"),
)


def _session_cells(row: SessionRow) -> tuple[str, ...]:
    return (
        _when(row.last_activity),
        row.id,
        row.format,
        str(row.turns),
        str(row.changed),
        str(row.read),
        str(row.open_errors),
    )


def _where_line(row: SessionRow, width: int | None) -> str:
    """The line under a session's row: its workspace and its first request."""
    root = row.root or "(workspace unknown)"
    if width is not None:
        root = shorten_middle(root, max(width // 2, 20))
    line = f"    {root}"
    if row.title:
        title = f"\u201c{row.title}\u201d"
        line += "  " + (title if width is None else shorten_end(title, width - len(line) - 2))
    return line


def _sub_agent_line(row: SessionRow) -> str:
    _, _, agent = (row.session_id or "").partition("/")
    return (
        f"    sub-agent {agent}: {row.changed} changed, {row.read} read, "
        f"{row.open_errors} open error(s) (id {row.id})"
    )


def _by_parent(rows: list[SessionRow]) -> tuple[list[SessionRow], dict[str, list[SessionRow]]]:
    """The sessions to list, and under each session id the sub-agents listed with it.

    A sub-agent whose parent is not in the listing is listed on its own.
    """
    # Imported by the commands that list sessions: the record's module imports the whole engine.
    from artifact_index.live.record import parent_session

    shown = {
        row.session_id for row in rows if row.session_id and parent_session(row.session_id) is None
    }
    children: dict[str, list[SessionRow]] = {}
    top = []
    for row in rows:
        parent = parent_session(row.session_id)
        if parent is not None and parent in shown:
            children.setdefault(parent, []).append(row)
        else:
            top.append(row)
    return top, children


def _session_json(row: SessionRow) -> ModelJSON:
    from artifact_index.live.record import parent_session

    return {**row.model_dump(), "parent_session": parent_session(row.session_id)}


def cmd_sessions(args: argparse.Namespace) -> int:
    store = _store(args)
    rows = store.sessions(root=args.root, since=args.since)
    errors: dict[str, list[StoredError]] = {}
    if args.open_errors:
        for row, error in store.open_errors(root=args.root, since=args.since):
            errors.setdefault(row.id, []).append(error)
    if args.json:
        sessions: list[ModelJSON] = []
        for row in rows:
            item = _session_json(row)
            if args.changed:
                item["files"] = [
                    f.model_dump() for f in store.files(row.id) if f.status in _CHANGED
                ]
            if args.open_errors:
                item["errors"] = [e.model_dump() for e in errors.get(row.id, [])]
            if args.compactions:
                item["compactions"] = [c.model_dump() for c in store.compactions(row.id)]
            sessions.append(item)
        _say_json({"store": str(store.path), "sessions": sessions})
        return 0
    if not rows:
        _say(
            f"No stored session{' matches' if args.root or args.since else ''} "
            f"(store: {store.path}; add some with `artifact-index store PATH` or `watch`)."
        )
        return 0
    width = terminal_width(args)
    top, children = _by_parent(rows)
    header, *lines = render_table(_SESSION_COLUMNS, [_session_cells(r) for r in top], width)
    out = [header]
    for row, line in zip(top, lines, strict=True):
        out += [line, _where_line(row, width)]
        subs = children.get(row.session_id or "", [])
        out += [_sub_agent_line(sub) for sub in subs]
        for session in [row, *subs]:
            if args.changed:
                out += [
                    _file_line(file) for file in store.files(session.id) if file.status in _CHANGED
                ]
            out += [_error_line(error) for error in errors.get(session.id, [])]
        if args.compactions:
            out += [_compaction_line(c) for c in store.compactions(row.id)]
    out.append(
        f"\n{len(top)} session(s), {sum(r.changed for r in rows)} file change(s), "
        f"{sum(r.open_errors for r in rows)} open error(s)"
    )
    _say("\n".join(out))
    return 0


_WHERE_COLUMNS = (
    Column("LAST ACTIVITY"),
    Column("ID"),
    Column("STATUS"),
    Column("TURNS"),
    Column("FILE", shrink="middle"),
    Column("TRANSCRIPT", shrink="middle"),
)


def touches_json(path: str, touches: list[Touch]) -> WhereJSON:
    """``where --json`` (and the servers' ``where``): the sessions that touched ``path``."""
    return {
        "path": path,
        "sessions": [{**_session_json(t.session), "file": t.file.model_dump()} for t in touches],
    }


def sessions_json(store: SessionStore, rows: list[SessionRow]) -> SessionsJSON:
    """``sessions --json`` without its options (and the servers' ``sessions``)."""
    return {"store": str(store.path), "sessions": [_session_json(row) for row in rows]}


def cmd_where(args: argparse.Namespace) -> int:
    store = _store(args)
    touches = store.where(args.path, since=args.since)
    if args.json:
        _say_json(touches_json(args.path, touches))
        return 0
    if not touches:
        _say(f"No stored session touched {args.path} (store: {store.path}).")
        return 0
    rows = [
        (
            _when(t.session.last_activity),
            t.session.id,
            t.file.status,
            _span(t.file.first_turn, t.file.last_turn),
            t.file.absolute,
            t.session.transcript,
        )
        for t in touches
    ]
    _say("\n".join(render_table(_WHERE_COLUMNS, rows, terminal_width(args))))
    return 0


def _stored_line(update: Update, as_json: bool) -> str:
    record = update.record
    if as_json:
        data: dict[str, object] = {  # one line of the watch's JSON Lines
            "schema_version": SCHEMA_VERSION,
            "transcript": update.transcript,
            "kind": update.kind,
        }
        if record is not None:
            data |= {
                "id": record.id,
                "format": record.format,
                "events": record.events,
                "new_events": update.new_events,
                "rebuilt": update.rebuilt,
                "changed": sum(1 for f in record.files if f.status in _CHANGED),
                "read": sum(1 for f in record.files if f.status == "read"),
                "open_errors": sum(1 for e in record.errors if not e.resolved),
            }
        else:
            data["error"] = update.message
        return json.dumps(data, ensure_ascii=False)
    assert record is not None
    changed = sum(1 for f in record.files if f.status in _CHANGED)
    open_errors = sum(1 for e in record.errors if not e.resolved)
    return (
        f"{record.id}  {record.format:14} {record.events} events (+{update.new_events}"
        f"{', rebuilt' if update.rebuilt else ''}), {changed} changed, {open_errors} open error(s)  "
        f"{update.transcript}"
    )


def _report(update: Update, as_json: bool) -> bool:
    """Print one update; False when it was a failure."""
    if update.kind == "failed":
        _say(f"artifact-index: error: {update.message}", sys.stderr)
        if as_json:
            _say(_stored_line(update, as_json))
        return False
    _say(_stored_line(update, as_json))
    return True


def _catch_up(
    args: argparse.Namespace, watcher: Watcher, *, force: bool = False, follow: bool = False
) -> Counter[str]:
    from artifact_index.batch.progress_bar import Progress
    from artifact_index.presentation.batch import executor_for

    candidates, unchanged = watcher.stale(force=force)
    counts: Counter[str] = Counter(unchanged=unchanged)
    executor, jobs = executor_for(args, len(candidates))
    progress = Progress(
        len(candidates), noun="transcripts" if all(c.named for c in candidates) else "files"
    )
    with executor as pool:
        for update in watcher.catch_up(
            candidates, pool, jobs, on_done=progress.advance, follow=follow
        ):
            progress.clear()
            counts[update.kind] += 1
            progress.found_transcript()  # only transcripts come back, stored or failed
            _report(update, args.json)
    progress.clear()
    return counts


def cmd_store(args: argparse.Namespace) -> int:
    from artifact_index.live.watch import Watcher

    store = _store(args)
    counts = _catch_up(args, Watcher(args.transcript, store, format=args.format), force=args.force)
    unchanged = f", {counts['unchanged']} unchanged since stored" if counts["unchanged"] else ""
    failed = f", {counts['failed']} failed" if counts["failed"] else ""
    _say(
        f"artifact-index: {counts['stored']} session(s) stored in {store.path}{unchanged}{failed}",
        sys.stderr,
    )
    return EXIT_FAILED if counts["failed"] else 0


def cmd_watch(args: argparse.Namespace) -> int:
    from artifact_index.live.watch import Watcher

    store = _store(args)
    watcher = Watcher(args.transcript, store, format=args.format)
    _catch_up(args, watcher, follow=True)
    _say(
        f"artifact-index: watching {', '.join(args.transcript)} into {store.path} (Ctrl-C stops)",
        sys.stderr,
    )
    try:
        for update in watcher.follow():
            _report(update, args.json)
    except KeyboardInterrupt:
        pass  # Ctrl-C is how a watch ends; what was stored is kept
    return 0


def _since(value: str) -> str:
    """``--since``'s value, checked when the command line is read."""
    from artifact_index.live.store import StoreError, since_cutoff

    try:
        since_cutoff(value)
    except StoreError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return value


def _add_store_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store",
        metavar="FILE",
        help="the session store (default: $ARTIFACT_INDEX_STORE, else "
        "$XDG_DATA_HOME/artifact-index/sessions.db)",
    )


def add_session_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``store``, ``sessions``, ``where`` and ``watch`` to the command line."""
    store = add_command(
        sub,
        "store",
        summary="index transcripts (files or folders) into the session store",
        description="Index transcripts into the session store, a SQLite file per user "
        "($ARTIFACT_INDEX_STORE, else ~/.local/share/artifact-index/sessions.db), so that "
        "`sessions` and `where` can answer across sessions. A transcript unchanged since it "
        "was stored is not read again.",
        examples=[
            "artifact-index store ~/.claude/projects ~/.codex/sessions",
            "artifact-index store examples/claude-code-session.jsonl --store /tmp/sessions.db",
        ],
    )
    add_transcript_arguments(store)
    _add_store_option(store)
    store.add_argument(
        "--force", action="store_true", help="index again even what has not changed since stored"
    )
    store.set_defaults(run=cmd_store, batch=False)

    sessions = add_command(
        sub,
        "sessions",
        summary="the stored sessions, across agents and repositories",
        description="The sessions in the store, most recent first, each with its workspace and "
        "first request; a sub-agent is listed under the session it belongs to.",
        examples=[
            "artifact-index sessions --root . --since 7d --changed   # this repository, this week",
            "artifact-index sessions --open-errors   # errors no session resolved",
        ],
    )
    sessions.add_argument(
        "--root", metavar="DIR", help="only sessions whose workspace is DIR or inside it"
    )
    sessions.add_argument(
        "--since",
        metavar="WHEN",
        type=_since,
        help="only sessions active since WHEN: 7d, 24h, 2w, 2026-11-01",
    )
    sessions.add_argument(
        "--changed", action="store_true", help="list each session's changed files"
    )
    sessions.add_argument(
        "--open-errors", action="store_true", help="list each session's open errors"
    )
    sessions.add_argument(
        "--compactions",
        action="store_true",
        help="list the compactions the hooks saw: snapshots, and how each summary scored",
    )
    sessions.add_argument("--json", action="store_true", help="print JSON")
    sessions.add_argument(
        "--wide", action="store_true", help="never shorten a column to fit the terminal"
    )
    _add_store_option(sessions)
    sessions.set_defaults(run=cmd_sessions)

    where = add_command(
        sub,
        "where",
        summary="which stored sessions touched a file, and how",
        description="Every stored session that touched a file, with how it left it. A relative "
        "path or a bare file name matches the file in every checkout.",
        examples=["artifact-index where src/auth.py", "artifact-index where auth.py --since 7d"],
    )
    where.add_argument("path", help="the file (a relative path or a bare name matches it anywhere)")
    where.add_argument(
        "--since",
        metavar="WHEN",
        type=_since,
        help="only sessions active since WHEN: 7d, 24h, 2026-11-01",
    )
    where.add_argument("--json", action="store_true", help="print JSON")
    where.add_argument(
        "--wide", action="store_true", help="never shorten a column to fit the terminal"
    )
    _add_store_option(where)
    where.set_defaults(run=cmd_where)

    watch = add_command(
        sub,
        "watch",
        summary="follow growing transcripts (files or folders) into the session store",
        description="Store what changed since the last run, then follow every transcript under "
        "the paths as agents write it, reading only what was appended. Ctrl-C stops.",
        examples=["artifact-index watch ~/.claude/projects ~/.codex/sessions"],
    )
    add_transcript_arguments(watch)
    _add_store_option(watch)
    watch.set_defaults(run=cmd_watch, batch=False)
