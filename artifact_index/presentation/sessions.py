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
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from artifact_index.presentation.arguments import add_transcript_arguments
from artifact_index.redaction import redact_json, redact_text

if TYPE_CHECKING:
    from artifact_index.live.record import StoredError, StoredFile
    from artifact_index.live.store import Compaction, SessionRow, SessionStore
    from artifact_index.live.watch import Update, Watcher

__all__ = ["add_session_commands"]

_CHANGED = frozenset({"created", "modified", "deleted"})


def _store(args: argparse.Namespace) -> SessionStore:
    from artifact_index.live.store import SessionStore

    return SessionStore(args.store)


def _say(text: str, stream: TextIO | None = None) -> None:
    """One message, secrets redacted, flushed at once (a watch prints as it goes)."""
    target = stream if stream is not None else sys.stdout
    target.write(redact_text(text) + "\n")
    target.flush()


def _when(instant: str | None) -> str:
    return instant[:16].replace("T", " ") if instant else "-"


def _table(header: Sequence[str], rows: list[Sequence[str]]) -> list[str]:
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header) - 1)]
    return [
        (
            "  ".join(f"{cell:{widths[i]}}" for i, cell in enumerate(row[:-1]))
            + "  "
            + str(row[-1])
        ).rstrip()
        for row in [header, *rows]
    ]


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


def _session_rows(rows: list[SessionRow]) -> list[str]:
    return _table(
        ("LAST ACTIVITY", "ID", "FORMAT", "TURNS", "CHANGED", "READ", "OPEN ERRORS", "ROOT"),
        [
            (
                _when(r.last_activity),
                r.id,
                r.format,
                str(r.turns),
                str(r.changed),
                str(r.read),
                str(r.open_errors),
                r.root or r.transcript,
            )
            for r in rows
        ],
    )


def cmd_sessions(args: argparse.Namespace) -> int:
    store = _store(args)
    rows = store.sessions(root=args.root, since=args.since)
    errors: dict[str, list[StoredError]] = {}
    if args.open_errors:
        for row, error in store.open_errors(root=args.root, since=args.since):
            errors.setdefault(row.id, []).append(error)
    if args.json:
        sessions: list[dict[str, Any]] = []
        for row in rows:
            item = row.model_dump()
            if args.changed:
                item["files"] = [
                    f.model_dump() for f in store.files(row.id) if f.status in _CHANGED
                ]
            if args.open_errors:
                item["errors"] = [e.model_dump() for e in errors.get(row.id, [])]
            if args.compactions:
                item["compactions"] = [c.model_dump() for c in store.compactions(row.id)]
            sessions.append(item)
        _say(
            json.dumps(
                redact_json({"store": str(store.path), "sessions": sessions}),
                indent=2,
                ensure_ascii=False,
            )
        )
        return 0
    if not rows:
        _say(
            f"No stored session{' matches' if args.root or args.since else ''} "
            f"(store: {store.path}; add some with `artifact-index store PATH` or `watch`)."
        )
        return 0
    header, *lines = _session_rows(rows)
    out = [header]
    for row, line in zip(rows, lines, strict=True):
        out.append(line)
        if row.title:
            out.append(f"    \u201c{row.title}\u201d")
        if args.changed:
            out += [_file_line(file) for file in store.files(row.id) if file.status in _CHANGED]
        out += [_error_line(error) for error in errors.get(row.id, [])]
        if args.compactions:
            out += [_compaction_line(c) for c in store.compactions(row.id)]
    out.append(
        f"\n{len(rows)} session(s), {sum(r.changed for r in rows)} file change(s), "
        f"{sum(r.open_errors for r in rows)} open error(s)"
    )
    _say("\n".join(out))
    return 0


def cmd_where(args: argparse.Namespace) -> int:
    store = _store(args)
    touches = store.where(args.path, since=args.since)
    if args.json:
        _say(
            json.dumps(
                redact_json(
                    {
                        "path": args.path,
                        "sessions": [
                            {**t.session.model_dump(), "file": t.file.model_dump()} for t in touches
                        ],
                    }
                ),
                indent=2,
                ensure_ascii=False,
            )
        )
        return 0
    if not touches:
        _say(f"No stored session touched {args.path} (store: {store.path}).")
        return 0
    _say(
        "\n".join(
            _table(
                ("LAST ACTIVITY", "ID", "STATUS", "TURNS", "FILE", "TRANSCRIPT"),
                [
                    (
                        _when(t.session.last_activity),
                        t.session.id,
                        t.file.status,
                        _span(t.file.first_turn, t.file.last_turn),
                        t.file.absolute,
                        t.session.transcript,
                    )
                    for t in touches
                ],
            )
        )
    )
    return 0


def _stored_line(update: Update, as_json: bool) -> str:
    record = update.record
    if as_json:
        data: dict[str, Any] = {"transcript": update.transcript, "kind": update.kind}
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


def _catch_up(args: argparse.Namespace, watcher: Watcher, *, force: bool = False) -> Counter[str]:
    from artifact_index.batch.progress import Progress
    from artifact_index.presentation.batch import executor_for

    candidates, unchanged = watcher.stale(force=force)
    counts: Counter[str] = Counter(unchanged=unchanged)
    executor, jobs = executor_for(args, len(candidates))
    progress = Progress(len(candidates), noun="files")
    with executor as pool:
        for update in watcher.catch_up(candidates, pool, jobs, on_done=progress.advance):
            progress.clear()
            counts[update.kind] += 1
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
    return 2 if counts["failed"] else 0


def cmd_watch(args: argparse.Namespace) -> int:
    from artifact_index.live.watch import Watcher

    store = _store(args)
    watcher = Watcher(args.transcript, store, format=args.format)
    _catch_up(args, watcher)
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


def _add_store_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store",
        metavar="FILE",
        help="the session store (default: $ARTIFACT_INDEX_STORE, else "
        "$XDG_DATA_HOME/artifact-index/sessions.db)",
    )


def add_session_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``store``, ``sessions``, ``where`` and ``watch`` to the command line."""
    store = sub.add_parser(
        "store", help="index transcripts (files or folders) into the session store"
    )
    add_transcript_arguments(store)
    _add_store_option(store)
    store.add_argument(
        "--force", action="store_true", help="index again even what has not changed since stored"
    )
    store.set_defaults(run=cmd_store, batch=False)

    sessions = sub.add_parser(
        "sessions", help="the stored sessions, across agents and repositories"
    )
    sessions.add_argument(
        "--root", metavar="DIR", help="only sessions whose workspace is DIR or inside it"
    )
    sessions.add_argument(
        "--since", metavar="WHEN", help="only sessions active since WHEN: 7d, 24h, 2w, 2026-11-01"
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
    sessions.add_argument("--json", action="store_true", help="print JSON instead of a table")
    _add_store_option(sessions)
    sessions.set_defaults(run=cmd_sessions)

    where = sub.add_parser("where", help="which stored sessions touched a file, and how")
    where.add_argument("path", help="the file (relative paths also match it in every checkout)")
    where.add_argument(
        "--since", metavar="WHEN", help="only sessions active since WHEN: 7d, 24h, 2026-11-01"
    )
    where.add_argument("--json", action="store_true", help="print JSON instead of a table")
    _add_store_option(where)
    where.set_defaults(run=cmd_where)

    watch = sub.add_parser(
        "watch", help="follow growing transcripts (files or folders) into the session store"
    )
    add_transcript_arguments(watch)
    _add_store_option(watch)
    watch.set_defaults(run=cmd_watch, batch=False)
