"""One pass over a history file: what Aider reported doing with each requested edit, its commits and undos, as events."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from artifact_index.ingestion.adapters.aider.history import (
    COMMIT,
    FAILED_REPORT,
    Edit,
    Item,
    items,
    path_key,
    reply_edits,
    workspace_of,
)
from artifact_index.ingestion.adapters.base import TurnCounter
from artifact_index.ingestion.adapters.search_replace import parse_blocks
from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    FailureReason,
    FileOperation,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
    WorkingDirectory,
)
from artifact_index.ingestion.source import Source
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["Parser"]

_VERSION = lazy_pattern(r"^> Aider v(\S+)", re.MULTILINE)
_GIT_DIR = lazy_pattern(r"^Git working dir: (.+?)\s*$")
_ADDED = lazy_pattern(r"^Added (.+?) to (?:the chat|read-only files)\.?$")
_ADD_OLD = lazy_pattern(r"^Add (.+?) to the chat\? ?(\w*)$")
_CREATE_OLD = lazy_pattern(r"^Allow creation of new file (.+?)\? ?(\w*)$")
_ALLOW_OLD = lazy_pattern(r"^Allow edits to (.+?) which was not previously added to chat\? ?(\w*)$")
_APPLIED = lazy_pattern(r"^Applied edit to (.+?)\s*$")
_DRY_RUN = lazy_pattern(r"^Did not apply edit to (.+?) \(--dry-run\)\s*$")
_SKIPPING = lazy_pattern(r"^Skipping edits to (.+?)\s*$")
_RUNNING = lazy_pattern(r"^Running (.+)$", re.DOTALL)
_REMOVED_COMMIT = lazy_pattern(r"^Removed: ([0-9a-f]{7,40})\b ?(.*)$")
# /undo before v0.40 ("The above commit X ...") and until v0.60 ("Commit `X` ...").
_RESET_COMMIT = lazy_pattern(
    r"(?:^|\n)(?:The above commit|Commit) `?([0-9a-f]{7,40})`? was reset and removed from git"
)
_RESET_WORDS = " was reset and removed from git"
_CREATING_EMPTY = lazy_pattern(r"^Creating empty file (.+?)\s*$")
# Aider's own write at start-up: it appends its ignore pattern to the repository's
# .gitignore (creating it when the repository has none).
# Newer versions add more than one pattern at once: "Added .aider*, .env to .gitignore".
_IGNORED_ITSELF = lazy_pattern(r"^Added (\.aider\S*(?:, \S+)*) to (\.gitignore)\s*$")
_REPO_CREATED = lazy_pattern(
    r"^(?:Git repository created in |No git repo found, create one\b.*\b(?:y|yes)$)", re.IGNORECASE
)
_FAILED_BLOCK = lazy_pattern(r"^## SearchReplaceNoExactMatch: .*? lines in (.+?)\s*$")
_YES = {"y", "yes", "a", "all"}
# Aider's reminder between a question's subject and the question, after an answer it did not take.
_ANSWER_AGAIN = "Please answer with one of:"
_NOT_CONFORM = "The LLM did not conform to the edit format."


@dataclass
class _Applied:
    """One applied edit of a file, waiting for the commit that will hold it."""

    path: str
    operations: int
    created: bool


@dataclass
class _Exchange:
    """One model reply (possibly empty) and the Aider output that followed it."""

    text: list[str] = field(default_factory=list)
    text_line: int = 0
    tools: list[tuple[int, str]] = field(default_factory=list)


class Parser:
    """State of one pass over a history file."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.turns = TurnCounter()
        self.turn = 0
        self.calls = 0
        self.known: set[str] = set()  # paths seen in the session (read or edited)
        self.uncommitted: list[_Applied] = []  # edits applied since the last commit
        self.commits: dict[str, list[_Applied]] = {}
        self.cwd: str | None = None
        self.root = workspace_of(source.text)
        self.root_key = path_key(self.root).lower() if self.root else None
        # How Aider itself spelled each path (it may differ from the model's spelling,
        # e.g. backslashes on Windows); keyed by the comparison key.
        self.spelling: dict[str, str] = {}

    def norm(self, path: str) -> str:
        """Comparison key of a path: relative to the workspace when it lies under it."""
        key = path_key(path)
        if self.root_key and key.lower().startswith(self.root_key + "/"):
            return key[len(self.root_key) + 1 :]
        return key

    def call_id(self, line: int) -> str:
        self.calls += 1
        return f"aider-{line}-{self.calls}"

    def run(self) -> Iterator[Event]:
        text = self.source.text
        lines = text.splitlines()
        version = _VERSION.search(text)
        yield SessionInfo(
            turn=0,
            line=1,
            agent="aider",
            version=version.group(1) if version else None,
            cwd=self.root,
        )
        exchange = _Exchange()
        marked = False
        for item in items(lines):
            marked = marked or item.kind != "text"
            if item.kind == "text":
                if exchange.tools:
                    yield from self.flush(exchange)
                    exchange = _Exchange()
                if not exchange.text:
                    exchange.text_line = item.line
                exchange.text.append(item.text)
            elif item.kind == "tool":
                exchange.tools.append((item.line, item.text))
            else:
                yield from self.flush(exchange)
                exchange = _Exchange()
                if item.kind == "user":
                    yield from self.user(item)
        if not marked:
            # Plain text with no session, user or Aider lines: nothing here is a chat log.
            self.source.skip(None, "no Aider chat history lines (# aider chat, ####, >) found")
            return
        yield from self.flush(exchange)

    def user(self, item: Item) -> Iterator[Event]:
        self.turn = self.turns.user()
        yield UserMessage(turn=self.turn, line=item.line, text=item.text)
        command = _user_command(item.text.split("\n", 1)[0])
        if command is not None:
            yield from self.shell(item.line, command, tool="user_command")
            yield from self.reset_commits(item.line, command)

    def reset_commits(self, line: int, command: str) -> Iterator[Event]:
        """``/git reset --hard HEAD^`` (``HEAD~N``) takes back Aider's last commits, as ``/undo`` does.

        Aider suggests it when ``/undo`` refuses a commit of an earlier chat: the files those
        commits created are gone, their edits undone. Only the commits this history shows are
        known; when it shows fewer than the reset takes back, nothing is assumed.
        """
        back = _commits_reset(command)
        if not back or back > len(self.commits):
            return
        for sha in list(self.commits)[-back:][::-1]:
            yield from self.undo(line, sha, "")
            del self.commits[sha]

    def shell(self, line: int, command: str, tool: str = "shell") -> Iterator[Event]:
        call = self.call_id(line)
        yield ToolCall(
            turn=self.turn,
            line=line,
            call_id=call,
            tool=tool,
            arguments={"command": command},
            operations=(
                FileOperation(action="shell", command=command, cwd=self.cwd, source="shell"),
            ),
        )
        # Aider does not record the exit status of the commands it runs.
        yield ToolResult(turn=self.turn, line=line, call_id=call, status="unknown")

    def simple(
        self, line: int, tool: str, path: str, op: FileOperation, output: str
    ) -> Iterator[Event]:
        call = self.call_id(line)
        yield ToolCall(
            turn=self.turn,
            line=line,
            call_id=call,
            tool=tool,
            arguments={"path": path},
            operations=(op,),
        )
        yield ToolResult(turn=self.turn, line=line, call_id=call, status="success", output=output)
        self.known.add(self.norm(path))
        self.spelling.setdefault(self.norm(path), path)

    def flush(self, exchange: _Exchange) -> Iterator[Event]:
        reply = "\n".join(exchange.text).strip()
        edits: list[Edit] = []
        if reply:
            self.turn = self.turns.assistant()
            yield AssistantMessage(turn=self.turn, line=exchange.text_line, text=reply)
            edits = reply_edits(exchange.text, exchange.text_line)
        if not exchange.tools and not any(e.old is not None for e in edits):
            return
        yield from self.outcomes(exchange.tools, edits)

    def outcomes(self, tools: list[tuple[int, str]], edits: list[Edit]) -> Iterator[Event]:
        created: dict[str, int] = {}
        declined: dict[str, int] = {}
        declined_all = False
        format_error: tuple[int, str] | None = None
        dry_run: set[str] = set()
        subject: str | None = None
        for line, message in tools:
            first = message.split("\n", 1)[0].strip()
            question, answer = _question(first)
            if question is not None:
                yes = answer in _YES
                if question.startswith("Add file to the chat") and yes and subject:
                    if not subject.startswith(("http://", "https://")):
                        yield from self.read(line, subject)
                elif question.startswith("Create new file"):
                    if subject and yes:
                        created[self.norm(subject)] = line
                    elif subject:
                        declined[self.norm(subject)] = line
                elif question.startswith("Allow edits to file") and subject and not yes:
                    declined[self.norm(subject)] = line
                elif question.startswith("Edit the files") and not yes:
                    declined_all = True
                continue
            add = _ADD_OLD.match(first)
            create = None if add else _CREATE_OLD.match(first)
            old_style = add or create or _ALLOW_OLD.match(first)
            if old_style:
                path, yes = old_style.group(1), old_style.group(2).lower() in _YES
                if add:
                    if yes and not path.startswith(("http://", "https://")):
                        yield from self.read(line, path)
                elif create and yes:
                    created[self.norm(path)] = line
                elif not yes:
                    declined[self.norm(path)] = line
                continue
            # The pattern, anchored at any line start, is tried at every position: its words are looked for first.
            if _RESET_WORDS in message and (match := _RESET_COMMIT.search(message)) is not None:
                yield from self.undo(line, match.group(1), first)
            elif (match := _APPLIED.match(first)) is not None:
                yield from self.applied(line, match.group(1), edits, created)
            elif (match := _IGNORED_ITSELF.match(first)) is not None:
                yield from self.ignore_itself(line, match.group(2), match.group(1), tools)
            elif (match := _ADDED.match(first)) is not None:
                if " lines of output" not in first and not first.startswith("Added .aider"):
                    yield from self.read(line, match.group(1))
            elif first.startswith(_NOT_CONFORM):
                format_error = (line, _NOT_CONFORM)
            elif FAILED_REPORT.match(first):
                format_error = (line, message)
                yield from self.failed_report(line, message, edits, created)
            elif (match := _DRY_RUN.match(first)) is not None:
                dry_run.add(self.norm(match.group(1)))
            elif (match := _SKIPPING.match(first)) is not None:
                declined[self.norm(match.group(1))] = line
            elif (match := COMMIT.match(message.strip())) is not None:
                yield from self.commit(line, match.group(1), match.group(2), first)
            elif (match := _RUNNING.match(message.strip())) is not None:
                yield from self.shell(line, match.group(1).strip())
            elif (match := _REMOVED_COMMIT.match(first)) is not None:
                yield from self.undo(line, match.group(1), first)
            elif (match := _CREATING_EMPTY.match(first)) is not None:
                path = match.group(1)
                yield from self.simple(
                    line,
                    "create_empty",
                    path,
                    FileOperation(action="create", path=path, content=""),
                    first,
                )
            elif (match := _GIT_DIR.match(first)) is not None:
                yield from self.working_dir(line, match.group(1))
            elif first.startswith(_ANSWER_AGAIN):
                continue  # asked again after an answer it did not take: the question's subject stands
            else:
                if (
                    format_error is not None
                    and format_error[1] == _NOT_CONFORM
                    and not (first.startswith("http"))
                ):
                    # The line after the warning says what was wrong with the reply.
                    format_error = (line, message)
                subject = first
                continue
            subject = None
        yield from self.leftovers(
            tools, edits, created, declined, declined_all, format_error, dry_run
        )

    def ignore_itself(
        self, line: int, path: str, pattern: str, tools: list[tuple[int, str]]
    ) -> Iterator[Event]:
        """``Added .aider* to .gitignore``: Aider appended its pattern to the ignore file.

        When the same start-up made the repository (``Git repository created``),
        the file did not exist before; otherwise the history cannot tell whether
        it did, and an append says no more than that it changed.
        """
        lines = "".join(f"{name}\n" for name in pattern.split(", "))
        new_repo = any(_REPO_CREATED.match(text.split("\n", 1)[0].strip()) for _, text in tools)
        op = (
            FileOperation(action="create", path=path, content=lines)
            if new_repo and self.norm(path) not in self.known
            else FileOperation(action="edit", path=path, new=lines, detail="append")
        )
        yield from self.simple(line, "aider_gitignore", path, op, f"Added {pattern} to {path}")

    def read(self, line: int, path: str) -> Iterator[Event]:
        yield from self.simple(
            line,
            "add_to_chat",
            path,
            FileOperation(action="read", path=path),
            f"Added {path} to the chat",
        )

    def working_dir(self, line: int, path: str) -> Iterator[Event]:
        if path != self.cwd:
            self.cwd = path
            yield WorkingDirectory(turn=self.turn, line=line, cwd=path)

    def edit_operations(
        self, path: str, edits: list[Edit], created: dict[str, int]
    ) -> list[FileOperation]:
        key = self.norm(path)
        new_file = key in created or key not in self.known
        ops: list[FileOperation] = []
        for edit in edits:
            if edit.old is None:
                action = "create" if key in created else "write"
                ops.append(FileOperation(action=action, path=path, content=edit.new))
            elif not edit.old.strip():
                # An empty SEARCH starts a new file, or appends to an existing one.
                if new_file and not ops:
                    ops.append(FileOperation(action="create", path=path, content=edit.new))
                else:
                    ops.append(
                        FileOperation(
                            action="edit", path=path, old="", new=edit.new, detail="append"
                        )
                    )
            else:
                ops.append(FileOperation(action="edit", path=path, old=edit.old, new=edit.new))
        return ops

    def take(self, path: str, edits: list[Edit]) -> list[Edit]:
        """The unused edits of the reply that target ``path`` (marked used)."""
        key = self.norm(path)
        chosen = [e for e in edits if not e.used and self.norm(e.path) == key]
        if not chosen:
            # Aider may fix a bogus directory prefix the model put on a chat file.
            base = key.rsplit("/", 1)[-1]
            chosen = [
                e for e in edits if not e.used and self.norm(e.path).rsplit("/", 1)[-1] == base
            ]
        # A whole-file listing and SEARCH/REPLACE blocks do not mix in one format.
        if any(e.old is not None for e in chosen):
            chosen = [e for e in chosen if e.old is not None]
        elif len(chosen) > 1:
            chosen = chosen[-1:]
        for edit in chosen:
            edit.used = True
        return chosen

    def applied(
        self, line: int, path: str, edits: list[Edit], created: dict[str, int]
    ) -> Iterator[Event]:
        chosen = self.take(path, edits)
        ops = self.edit_operations(path, chosen, created)
        if not ops:
            # Architect mode: the editor's blocks are not in the history.
            action = "create" if self.norm(path) in created else "edit"
            ops = [FileOperation(action=action, path=path)]
        call = self.call_id(line)
        yield ToolCall(
            turn=self.turn,
            line=chosen[0].line if chosen else line,
            call_id=call,
            tool="apply_edit",
            arguments={"path": path},
            operations=tuple(ops),
        )
        yield ToolResult(
            turn=self.turn,
            line=line,
            call_id=call,
            status="success",
            output=f"Applied edit to {path}",
        )
        self.known.add(self.norm(path))
        self.spelling.setdefault(self.norm(path), path)
        self.uncommitted.append(_Applied(path, len(ops), ops[0].action == "create"))
        created.pop(self.norm(path), None)

    def failed_report(
        self, line: int, message: str, edits: list[Edit], created: dict[str, int]
    ) -> Iterator[Event]:
        report = message.split("\n")
        for index, text in enumerate(report):
            match = _FAILED_BLOCK.match(text)
            if not match:
                continue
            path = match.group(1)
            self.spelling.setdefault(self.norm(path), path)
            if self.norm(path) in created:
                # "Create new file? y" made the (empty) file before the edit failed on it.
                yield from self.create_confirmed(path, created.pop(self.norm(path)))
            quoted = parse_blocks(report[index + 1 : index + 40])
            old = quoted[0].old if quoted else None
            new = quoted[0].new if quoted else None
            candidates = [
                e
                for e in edits
                if not e.used and self.norm(e.path) == self.norm(path) and e.old is not None
            ]
            same = [
                e for e in candidates if old is not None and (e.old or "").strip() == old.strip()
            ]
            picked = (same or candidates)[:1]
            for edit in picked:
                edit.used = True
                old, new = (
                    old if old is not None else edit.old,
                    new if new is not None else edit.new,
                )
            call = self.call_id(line)
            yield ToolCall(
                turn=self.turn,
                line=picked[0].line if picked else line,
                call_id=call,
                tool="apply_edit",
                arguments={"path": path},
                operations=(FileOperation(action="edit", path=path, old=old, new=new),),
            )
            yield ToolResult(
                turn=self.turn,
                line=line,
                call_id=call,
                status="failure",
                failure="not_found",
                output=message,
            )
        if "were applied successfully" in message:
            for edit in edits:
                if not edit.used and edit.old is not None:
                    path = self.spelling.get(self.norm(edit.path), edit.path)
                    yield from self.applied(line, path, edits, created)

    def commit(self, line: int, sha: str, subject: str, first: str) -> Iterator[Event]:
        self.commits[sha] = self.uncommitted
        self.uncommitted = []
        call = self.call_id(line)
        yield ToolCall(
            turn=self.turn,
            line=line,
            call_id=call,
            tool="git_commit",
            arguments={"hash": sha, "message": subject.strip()},
        )
        yield ToolResult(turn=self.turn, line=line, call_id=call, status="success", output=first)

    def undo(self, line: int, sha: str, first: str) -> Iterator[Event]:
        """``/undo``: every file of the commit goes back to its state before it.

        One ``undo`` per edit the commit held; a file the commit created is
        deleted (``git reset --hard``; newer Aider refuses such an undo).
        """
        applied = self.commits.get(sha)
        if applied:
            # Aider refuses to undo a commit whose files have uncommitted changes: an edit
            # applied to one of them since (and never committed) changed nothing, so the
            # undo takes the file back past it too.
            paths = {self.norm(entry.path) for entry in applied}
            unchanged = [e for e in self.uncommitted if self.norm(e.path) in paths]
            self.uncommitted = [e for e in self.uncommitted if self.norm(e.path) not in paths]
            applied = [*applied, *unchanged]
            per_path: dict[str, tuple[str, int, bool]] = {}
            for entry in applied:
                spelled, count, created = per_path.get(
                    self.norm(entry.path), (entry.path, 0, False)
                )
                per_path[self.norm(entry.path)] = (
                    spelled,
                    count + entry.operations,
                    created or entry.created,
                )
            ops = tuple(
                op
                for spelled, count, created in per_path.values()
                for op in (
                    [FileOperation(action="delete", path=spelled, detail=f"/undo of commit {sha}")]
                    if created
                    else [
                        FileOperation(action="undo", path=spelled, detail=f"/undo of commit {sha}")
                    ]
                    * count
                )
            )
        else:
            ops = (
                FileOperation(
                    action="unknown", detail=f"/undo of commit {sha} not seen in this history"
                ),
            )
        call = self.call_id(line)
        yield ToolCall(
            turn=self.turn,
            line=line,
            call_id=call,
            tool="undo",
            arguments={"hash": sha},
            operations=ops,
        )
        yield ToolResult(turn=self.turn, line=line, call_id=call, status="success", output=first)

    def create_confirmed(self, path: str, line: int) -> Iterator[Event]:
        """ "Create new file? y": Aider creates the (empty) file before it tries the edit."""
        yield from self.simple(
            line,
            "create_empty",
            path,
            FileOperation(action="create", path=path, content=""),
            f"Aider created {path} before applying edits",
        )

    def leftovers(
        self,
        tools: list[tuple[int, str]],
        edits: list[Edit],
        created: dict[str, int],
        declined: dict[str, int],
        declined_all: bool,
        format_error: tuple[int, str] | None,
        dry_run: set[str],
    ) -> Iterator[Event]:
        """Edits the reply asked for that were never applied, and files Aider touched."""
        for key, line in created.items():
            path = next((e.path for e in edits if self.norm(e.path) == key), key)
            yield from self.create_confirmed(path, line)
        pending = [e for e in edits if not e.used and e.old is not None]
        interrupted = any("^C" in message or "KeyboardInterrupt" in message for _, message in tools)
        if format_error is not None and not pending and not any(e.used for e in edits):
            call = self.call_id(format_error[0])
            yield ToolCall(turn=self.turn, line=format_error[0], call_id=call, tool="apply_edit")
            yield ToolResult(
                turn=self.turn,
                line=format_error[0],
                call_id=call,
                status="failure",
                failure="invalid",
                output=format_error[1],
            )
            return
        for edit in pending:
            edit.used = True
            reason: FailureReason
            if self.norm(edit.path) in declined or declined_all:
                reason, output = "rejected", f"Skipping edits to {edit.path}"
            elif format_error is not None:
                reason, output = "invalid", format_error[1]
            elif interrupted:
                reason, output = "interrupted", "the reply was interrupted before Aider applied it"
            elif self.norm(edit.path) in dry_run:
                reason, output = "other", f"Did not apply edit to {edit.path} (--dry-run)"
            else:
                reason, output = "other", "no 'Applied edit to' line followed this block"
            call = self.call_id(edit.line)
            path = self.spelling.get(self.norm(edit.path), edit.path)
            op = FileOperation(action="edit", path=path, old=edit.old, new=edit.new)
            yield ToolCall(
                turn=self.turn,
                line=edit.line,
                call_id=call,
                tool="apply_edit",
                arguments={"path": path},
                operations=(op,),
            )
            yield ToolResult(
                turn=self.turn,
                line=edit.line,
                call_id=call,
                status="failure",
                failure=reason,
                output=output,
            )


def _question(first: str) -> tuple[str | None, str]:
    """``(question, answer)`` of a ``… (Y)es/(N)o … [Yes]: y`` prompt line."""
    if "(Y)es/(N)o" not in first:
        return None, ""
    question = first.split("(Y)es/(N)o", 1)[0].strip()
    answer = first.rsplit("]:", 1)[-1].strip().lower() if "]:" in first else ""
    return question, answer


_RESET_BACK = re.compile(r"^git reset --hard HEAD(?:(?P<carets>\^+)|~(?P<count>\d*))\s*$")


def _commits_reset(command: str) -> int | None:
    """How many commits ``git reset --hard HEAD^`` / ``HEAD~N`` takes back; None for another command."""
    found = _RESET_BACK.match(" ".join(command.split()))
    if found is None:
        return None
    if found["carets"]:
        return len(found["carets"])
    return int(found["count"] or 1)


def _user_command(text: str) -> str | None:
    """The shell command of a ``/run``, ``!``, ``/git`` or ``/test`` user command."""
    stripped = text.strip()
    if stripped.startswith("!") and len(stripped) > 1:
        return stripped[1:].strip()
    for prefix, keep in (("/run ", ""), ("/test ", ""), ("/git ", "git ")):
        if stripped.startswith(prefix) and stripped[len(prefix) :].strip():
            return keep + stripped[len(prefix) :].strip()
    return None
