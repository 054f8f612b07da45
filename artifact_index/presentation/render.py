"""Rendering index queries for people (tables) and programs (the JSON contracts)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pydantic import BaseModel

from artifact_index.facts.decisions import Decision
from artifact_index.facts.symbols.languages import language_for_path
from artifact_index.facts.tasks import Task
from artifact_index.grammars import grammar_source
from artifact_index.presentation.json_contracts import (
    DecisionsJSON,
    ErrorsJSON,
    FileJSON,
    FilesJSON,
    FileWhereJSON,
    HistoryJSON,
    ModelJSON,
    OperationJSON,
    ShowJSON,
    SymbolsJSON,
    SymbolsOfFileJSON,
    TasksJSON,
)
from artifact_index.presentation.tables import Column, render_table
from artifact_index.trail.answers import SubmissionReport, WorkReport
from artifact_index.trail.index import ArtifactIndex, FileEntry, OperationEntry
from artifact_index.trail.session_state import UserSaid
from artifact_index.trail.work_state import work_state

__all__ = [
    "decisions_json",
    "decisions_table",
    "errors_json",
    "errors_table",
    "files_json",
    "files_table",
    "history_json",
    "history_table",
    "op_json",
    "show_json",
    "show_text",
    "symbols_json",
    "symbols_table",
    "tasks_json",
    "tasks_table",
]


def op_json(op: OperationEntry) -> OperationJSON:
    """One operation in the ``ops`` list of the JSON contract (empty fields omitted)."""
    out: OperationJSON = {
        "turn": op.turn,
        "action": op.action,
        "tool": op.tool,
        "source": op.source,
    }
    if op.result != "success":
        out["result"] = op.result
    if op.failure is not None:
        out["failure"] = op.failure
    if op.command is not None:
        out["command"] = op.command
    if op.detail is not None:
        out["detail"] = op.detail
    if op.dest is not None:
        out["dest"] = op.dest
    if op.sidechain is not None:
        out["sidechain"] = op.sidechain
    return out


def _file_json(entry: FileEntry) -> FileJSON:
    where: FileWhereJSON = {}
    if entry.renamed_from:
        where["renamed_from"] = entry.renamed_from
    if entry.outside_workspace:
        where["outside_workspace"] = True
    return {
        "path": entry.path,
        "status": entry.status,
        "sources": entry.sources,
        **where,
        "ops": [op_json(op) for op in entry.ops],
    }


def files_json(
    index: ArtifactIndex,
    skipped: int = 0,
    *,
    changed_only: bool = False,
    workspace_only: bool = False,
) -> FilesJSON:
    """The ``artifact-index files --json`` contract of design.md.

    ``changed_only`` leaves out the files that were only read;
    ``workspace_only`` the files outside the workspace root, which are
    otherwise listed with ``"outside_workspace": true``.

    Files touched only by failed operations are not in ``files`` (they did
    not change and were not read); they are listed under ``failed`` so no
    attempt is hidden.  Shell effects the tracker could not pin to a file are
    under ``unknown_effects``.  Changes the working tree showed but no call of
    the session could have made (the user's, another agent's) are under
    ``seen_not_made``, never in ``files``.

    When the run ended with a harness submission (``submission``), ``files``
    holds what the run delivered; changes the agent left in the sandbox but
    did not submit (scratch scripts, backups, ``patch.txt``) are listed under
    ``unsubmitted`` with their status there.
    """
    entries = [
        e
        for e in index.files()
        if not (changed_only and e.status == "read")
        and not (workspace_only and e.outside_workspace)
    ]
    return {
        "format": index.format,
        "root": index.root,
        "files": [
            _file_json(e) for e in entries if e.status is not None and e.submitted is not False
        ],
        "unsubmitted": [_file_json(e) for e in entries if e.submitted is False],
        "submission": submission.model_dump() if (submission := index.submission()) else None,
        "failed": [_file_json(e) for e in entries if _only_failed(e)],
        "unknown_effects": [effect.model_dump() for effect in index.unknown_effects()],
        "seen_not_made": [seen.model_dump() for seen in index.seen_not_made()],
        "skipped_lines": skipped,
    }


def _only_failed(entry: FileEntry) -> bool:
    """Touched only by calls that failed (not the source of a copy, which is neither changed nor read)."""
    return entry.status is None and any(op.result == "failure" for op in entry.ops)


_ORDER = {"created": 0, "modified": 1, "deleted": 2, "reverted": 3, "read": 4}


_CREATING = frozenset({"create", "write", "move", "copy"})


def _why(entry: FileEntry) -> str:
    """The evidence for a change in a few words, with its command when shell-made.

    A created file shows the operation that created it (a later edit is not
    why it is new); any other status shows the last change.
    """
    changes = [op for op in entry.ops if op.action != "read" and op.result != "failure"]
    if entry.status == "created":
        changes = [op for op in changes if op.action in _CREATING] or changes
    if not changes:
        return ""
    last = changes[-1]
    if last.command:
        command = " ".join(last.command.split())
        return f"$ {command[:70]}{'…' if len(command) > 70 else ''}"
    return f"{last.tool} ({last.action})"


_FILE_COLUMNS = (
    Column("STATUS", min_width=9),
    Column("PATH", shrink="middle"),
    Column("TURNS", min_width=11),
    Column("SOURCES", min_width=11),
    Column("EVIDENCE", shrink="end"),
)


def _rows(entries: list[FileEntry], width: int | None = None) -> list[str]:
    rows = []
    for e in entries:
        turns = sorted({op.turn for op in e.ops if op.result != "failure"})
        span = f"{turns[0]}" if len(turns) == 1 else (f"{turns[0]}-{turns[-1]}" if turns else "-")
        failed = sum(1 for op in e.ops if op.result == "failure")
        path = e.path + (f" <- {e.renamed_from}" if e.renamed_from else "")
        evidence = _why(e) + (f" [{failed} failed]" if failed else "")
        rows.append((str(e.status), path, span, ",".join(e.sources), evidence))
    return render_table(_FILE_COLUMNS, rows, width, separator=" ")


def _counts(entries: list[FileEntry]) -> str:
    counts: dict[str, int] = {}
    for e in entries:
        counts[str(e.status)] = counts.get(str(e.status), 0) + 1
    return ", ".join(
        f"{n} {status}" for status, n in sorted(counts.items(), key=lambda i: _ORDER[i[0]])
    )


def _submission_line(submission: SubmissionReport) -> str:
    if submission.command is None:
        return f"The run ended ({submission.exit_status or 'no exit status'}) without submitting anything."
    command = " ".join(submission.command.split())
    line = (
        f"Submitted at turn {submission.turn}: $ {command[:80]}{'…' if len(command) > 80 else ''}"
    )
    if submission.files is None:
        line += (
            f" (which files it holds is unknown: {submission.unresolved}; all changes are listed)"
        )
    return line


def files_table(
    index: ArtifactIndex,
    *,
    all_files: bool = True,
    workspace_only: bool = False,
    width: int | None = None,
) -> str:
    """A readable table: status, path, turns, sources and why; then what a submission left behind,
    and the files outside the workspace (``workspace_only`` hides them).

    With ``width`` (a terminal's), long paths lose their middle and the
    evidence its end, so that each row fits.
    """
    every = [
        e
        for e in index.files()
        if e.status is not None
        and (all_files or e.status != "read")
        and not (workspace_only and e.outside_workspace)
    ]
    every.sort(key=lambda e: (_ORDER.get(str(e.status), 9), e.path))
    outside = [e for e in every if e.outside_workspace and e.submitted is not False]
    entries = [e for e in every if e.submitted is not False and not e.outside_workspace]
    left = [e for e in every if e.submitted is False]
    submission = index.submission()
    lines: list[str] = []
    if entries:
        lines += _rows(entries, width) + ["", _counts(entries)]
    else:
        lines.append(
            "No files were touched."
            if not left and not outside
            else (
                "No file change was submitted." if left else "No file in the workspace was touched."
            )
        )
    if submission is not None:
        lines.append(_submission_line(submission))
    if left:
        lines += [
            "",
            f"Left in the sandbox, not in the submission ({_counts(left)}):",
            *_rows(left, width),
        ]
    if outside:
        lines += [
            "",
            f"Outside the workspace ({_counts(outside)}; --workspace-only hides them):",
            *_rows(outside, width),
        ]
    failed_only = [e for e in index.files() if _only_failed(e)]
    if failed_only:
        lines.append(
            f"{len(failed_only)} file(s) touched only by failed calls: "
            + ", ".join(e.path for e in failed_only[:10])
            + ("…" if len(failed_only) > 10 else "")
        )
    seen = index.seen_not_made()
    if seen:
        lines.append(
            f"{len(seen)} file(s) seen changed, not by this session: "
            + ", ".join(entry.path for entry in seen[:10])
            + ("…" if len(seen) > 10 else "")
        )
    unknown = index.unknown_effects()
    if unknown:
        lines.append(
            f"{len(unknown)} shell effect(s) on files the tracker cannot name (see --json unknown_effects)"
        )
    return "\n".join(lines) + "\n"


def history_table(path: str, ops: list[OperationEntry], *, net_diff: str | None = None) -> str:
    """One file's timeline, then its net diff when the session revealed both sides of it."""
    if not ops:
        return f"No operation touched {path}.\n"
    lines = [f"History of {path}", f"{'TURN':>5} {'ACTION':8} {'RESULT':8} {'TOOL':16} DETAIL"]
    for op in ops:
        detail = op.command or op.detail or (f"-> {op.dest}" if op.dest else "")
        if op.failure:
            detail = f"({op.failure}) {detail}".strip()
        lines.append(
            f"{op.turn:>5} {op.action:8} {op.result:8} {op.tool[:16]:16} {' '.join(detail.split())[:90]}"
        )
    if net_diff:
        lines += ["", "Net diff:", net_diff.rstrip("\n")]
    elif net_diff == "":
        lines += ["", "Net diff: none (the file ended as it began)"]
    elif any(op.action not in ("read", "unknown") and op.result != "failure" for op in ops):
        lines += [
            "",
            "Net diff: unknown (the transcript did not show the whole file before and after)",
        ]
    return "\n".join(lines) + "\n"


def symbols_json(index: ArtifactIndex, *, changed_only: bool = False) -> SymbolsJSON:
    """``artifact-index symbols --json``: per file, the symbols changed or read (``changed_only``: changed)."""
    files: list[SymbolsOfFileJSON] = []
    grammars: dict[str, str] = {}
    for path, symbols in index.symbols().items():
        shown = [s.model_dump() for s in symbols if not changed_only or s.change != "read"]
        if shown:
            files.append({"path": path, "symbols": shown})
            language = language_for_path(path)
            source = grammar_source(language) if language else None
            if language and source:
                grammars[language] = source
    # Which grammar found them: another package's grammar (another Python) may find others.
    return {"files": files, "grammars": dict(sorted(grammars.items()))}


def symbols_table(index: ArtifactIndex, *, changed_only: bool = False) -> str:
    by_file = index.symbols()
    lines = []
    for path, symbols in by_file.items():
        shown = [s for s in symbols if not changed_only or s.change != "read"]
        if not shown:
            continue
        lines.append(path)
        for s in shown:
            name = f"{s.container}.{s.name}" if s.container else s.name
            turns = ",".join(str(t) for t in s.turns[:6]) + ("…" if len(s.turns) > 6 else "")
            lines.append(f"  {s.change:9} {s.kind:10} {name}  (turns {turns})")
    return (
        "\n".join(lines) + "\n"
        if lines
        else "No symbols found (no change or read of a file in a known language).\n"
    )


def decisions_table(decisions: list[Decision]) -> str:
    if not decisions:
        return "No decisions found in the assistant's messages.\n"
    lines = []
    for d in decisions:
        names = ", ".join([*d.files, *d.symbols])
        lines.append(f"turn {d.turn:>4}  {d.kind:20} {d.text}" + (f"  [{names}]" if names else ""))
    return "\n".join(lines) + "\n"


_CHANNELS = {
    "prompt": "prompt",
    "feedback": "feedback when refusing or answering a call",
    "interjection": "typed while a tool ran",
    "queued": "queued while the agent worked",
    "command": "slash command",
}


def tasks_table(tasks: list[Task], user_messages: Sequence[UserSaid] = ()) -> str:
    """The latest task list, then every user message with its turn and how it was given."""
    if tasks:
        marks = {"completed": "[x]", "in_progress": "[~]", "pending": "[ ]", "cancelled": "[-]"}
        lines = [f"{marks.get(t.status, '[?]')} {t.content}  (turn {t.turn})" for t in tasks]
        open_count = sum(1 for t in tasks if t.status in ("pending", "in_progress"))
        lines.append(f"\n{open_count} open of {len(tasks)}")
    else:
        lines = ["No task list: the agent used no todo or plan tool."]
    if user_messages:
        lines += ["", f"User messages ({len(user_messages)}):"]
        for message in user_messages:
            channel = message.channel or "prompt"
            text = " ".join(message.text.split())
            lines.append(
                f"  turn {message.turn} ({_CHANNELS.get(channel, channel)}): {_short(text, 300)}"
            )
    return "\n".join(lines) + "\n"


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def show_text(index: ArtifactIndex) -> str:
    """One screen: what the session did to files, symbols, errors, tests, tasks and decisions."""
    files = [f for f in index.files() if f.status is not None]
    counts: dict[str, int] = {}
    for f in files:
        counts[str(f.status)] = counts.get(str(f.status), 0) + 1
    turns = [int(d["turn"]) for _, d in index.nodes_of_kind("turn")]
    lines = [
        f"{index.format or 'transcript'} session"
        + (f" {index.session.session_id}" if index.session.session_id else "")
        + f", {max(turns, default=0)} turns, root {index.root or '(unknown)'}",
        "Files: "
        + (
            ", ".join(f"{n} {s}" for s, n in sorted(counts.items(), key=lambda i: _ORDER[i[0]]))
            or "none"
        ),
    ]
    changed = [f for f in files if f.status in ("created", "modified", "deleted")]
    symbols = index.symbols()
    for f in changed[:12]:
        changed_symbols = [s for s in symbols.get(f.path, []) if s.change != "read"]
        names = ", ".join(s.name for s in changed_symbols[:5]) + (
            "…" if len(changed_symbols) > 5 else ""
        )
        lines.append(
            f"  {f.status:9} {f.path}"
            + (f"  [{names}]" if names else "")
            + ("  (not submitted)" if f.submitted is False else "")
        )
    if len(changed) > 12:
        lines.append(f"  … and {len(changed) - 12} more changed files (artifact-index files)")
    submission = index.submission()
    if submission is not None:
        lines.append(_submission_line(submission))
    errors = index.errors()
    open_errors = [e for e in errors if not e.resolved and not e.pre_existing]
    original = index.original_error()
    lines.append(f"Errors: {len(errors)} seen, {len(open_errors)} open")
    if original:
        lines.append(
            f"  original (turn {original.first_turn}): {original.message.splitlines()[0][:100]}"
        )
    for e in open_errors[-3:]:
        lines.append(f"  open: {e.message.splitlines()[0][:100]}")
    for t in sorted(index.tests(), key=lambda t: t.turn)[-3:]:  # the three latest
        lines.append(
            f"Tests: {' '.join(t.command.split())[:60]} -> {t.passed}"
            f"{' packages' if t.unit == 'packages' else ''} passed, "
            f"{t.failed} failed (turn {t.turn})"
            + (
                f"; covered by a later passing run (turn {t.superseded_turn})"
                if t.superseded_by
                else ""
            )
        )
    tasks = index.tasks()
    if tasks:
        open_tasks = [t for t in tasks if t.status in ("pending", "in_progress")]
        lines.append(f"Tasks: {len(open_tasks)} open of {len(tasks)}")
        lines += [
            f"  [{'~' if t.status == 'in_progress' else ' '}] {t.content[:90]}"
            for t in open_tasks[:5]
        ]
    work = work_state(index)
    if work.commits or work.branch:
        lines.append(_work_line(work))
    decisions = index.decisions()
    lines.append(
        f"Decisions: {len(decisions)} candidate(s); user messages: {len(index.user_messages())}; "
        f"compactions: {len(index.session.compactions)}"
    )
    lines += [f"  turn {d.turn} {d.kind}: {_short(d.text, 90)}" for d in decisions[-3:]]
    return "\n".join(lines) + "\n"


def _work_line(work: WorkReport) -> str:
    """``Git: branch fix/x; 2 commits (last 4f2a9c1 "Round totals", pushed); 1 changed file uncommitted``."""
    parts = [f"branch {work.branch}"] if work.branch else []
    commits = work.commits
    if commits:
        last = commits[-1]
        pushed = ", pushed" if last.pushed else ""
        parts.append(
            f'{len(commits)} commit(s) (last {last.hash} "{_short(last.message, 60)}"{pushed})'
        )
    parts.append(f"{len(work.uncommitted)} changed file(s) uncommitted")
    return "Git: " + "; ".join(parts)


def errors_table(index: ArtifactIndex) -> str:
    errors = index.errors()
    lines = []
    original = index.original_error()
    if original:
        lines.append(
            f"Original error (turn {original.first_turn}): {original.message.splitlines()[0]}"
        )
    for e in errors:
        where = f" {e.file}:{e.line}" if e.file and e.line else (f" {e.file}" if e.file else "")
        span = f"{e.first_turn}" if e.first_turn == e.last_turn else f"{e.first_turn}-{e.last_turn}"
        state = "resolved" if e.resolved else "pre-existing" if e.pre_existing else "OPEN"
        how = f"  ({e.resolution} at turn {e.resolved_turn})" if e.resolution else ""
        lines.append(
            f"{state:<8} turns {span:9} {e.kind:17}{where}  {e.message.splitlines()[0][:120]}{how}"
        )
    noise = [run for run in index.failed_runs() if run.outcome == "noise"]
    if noise:
        reasons = Counter(str(run.reason) for run in noise)
        lines.append(
            f"{len(noise)} failed command(s) were not errors: "
            + "; ".join(f"{reason} ({n})" for reason, n in reasons.most_common())
        )
    for t in index.tests():
        lines.append(
            f"tests    turn {t.turn:<5} {' '.join(t.command.split())[:60]}: {t.passed}"
            f"{' packages' if t.unit == 'packages' else ''} passed, "
            f"{t.failed} failed, {t.skipped} skipped"
            + (
                f"; covered by a later passing run (turn {t.superseded_turn})"
                if t.superseded_by
                else ""
            )
            + (f"; failing: {', '.join(t.failing[:5])}" if t.failing else "")
        )
    return "\n".join(lines) + "\n" if lines else "No errors and no test runs recorded.\n"


def history_json(index: ArtifactIndex, path: str) -> HistoryJSON:
    """``history --json``: one file's operations and its net diff (None where the session did not show both sides)."""
    return {
        "path": path,
        "ops": [op_json(op) for op in index.history(path)],
        "net_diff": index.net_diff(path),
    }


def errors_json(index: ArtifactIndex) -> ErrorsJSON:
    """``errors --json``: the original error, the ledger, the last result of each test command, failed runs."""
    return {
        "original": _dumped(index.original_error()),
        "errors": _all_dumped(index.errors()),
        "tests": _all_dumped(index.tests()),
        "failed_runs": _all_dumped(index.failed_runs()),
    }


def _dumped(model: BaseModel | None) -> ModelJSON | None:
    """A query's answer as its JSON contract shows it."""
    return model.model_dump() if model is not None else None


def _all_dumped(models: Sequence[BaseModel]) -> list[ModelJSON]:
    return [model.model_dump() for model in models]


def decisions_json(index: ArtifactIndex) -> DecisionsJSON:
    return {"decisions": _all_dumped(index.decisions())}


def tasks_json(index: ArtifactIndex) -> TasksJSON:
    return {
        "tasks": _all_dumped(index.tasks()),
        "user_messages": _all_dumped(index.user_messages()),
    }


def show_json(index: ArtifactIndex, skipped: int = 0) -> ShowJSON:
    """``show --json``: everything at once."""
    # Per file symbols go under "symbols": spread in, their "files" key would hide the file list.
    return {
        **files_json(index, skipped=skipped),
        "symbols": symbols_json(index)["files"],
        "errors": _all_dumped(index.errors()),
        "original": _dumped(index.original_error()),
        "tests": _all_dumped(index.tests()),
        "decisions": _all_dumped(index.decisions()),
        "tasks": _all_dumped(index.tasks()),
        "user_messages": _all_dumped(index.user_messages()),
        "work": work_state(index).model_dump(),
    }
