"""OpenCode session exports (``opencode export SESSION`` JSON).

The document is ``{"info": {id, directory, version, parentID, ...},
"messages": [{"info": {role, modelID, path: {cwd, root}, summary, ...},
"parts": [...]}]}``.  Parts of an assistant message:

* ``step-start`` / ``step-finish``: one model call each; a step is a turn.
* ``text`` / ``reasoning``: what the model said or thought.
* ``tool``: one call with its input *and* its outcome in ``state``
  (``completed`` with ``output`` and ``metadata``, ``error`` with ``error``,
  or ``pending``/``running`` when the export caught it unfinished).
  ``apply_patch`` lists the files it touched in ``metadata.files``.
* ``patch``: OpenCode's snapshot of the files that changed during the step,
  whatever changed them (a tool, a shell command, a sub-agent).

A ``patch`` part has no call of its own, so it becomes a synthetic call of
the tool ``snapshot`` with no operations, whose result *reports* the files
as modified: the harness saw them change but not how.  Files the same step's
tools already reported with a precise change (created, deleted, moved) are
left out so the snapshot never overrides them; a snapshot with nothing left
makes no call.

User messages hold ``text`` parts (``synthetic`` when OpenCode wrote them),
``file`` parts (attached files, read by the model), ``subtask`` parts and
``compaction`` parts; the assistant message answering a compaction is marked
``summary`` and holds the summary text.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal
from urllib.parse import unquote, urlparse

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.base import Adapter, TurnCounter, under_directory
from artifact_index.ingestion.adapters.failures import classify_failure
from artifact_index.ingestion.adapters.narrowing import as_dict, as_list, as_str
from artifact_index.ingestion.events import (
    AssistantMessage,
    CompactionBoundary,
    Event,
    FailureReason,
    FileOperation,
    JSONObject,
    ReportedChange,
    ResultStatus,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
    WorkingDirectory,
)
from artifact_index.ingestion.source import Source
from artifact_index.ingestion.vocabulary import operations_for

__all__ = ["OpenCodeAdapter"]

_SHELL_TOOLS = {"bash", "shell"}


def _reported_files(tool: str, state: JSONObject) -> tuple[ReportedChange, ...] | None:
    """What OpenCode recorded about the files a completed tool changed."""
    metadata = as_dict(state.get("metadata"))
    inputs = as_dict(state.get("input"))
    if tool in ("apply_patch", "patch") and isinstance(files := metadata.get("files"), list):
        out: list[ReportedChange] = []
        for entry in files:
            if not isinstance(entry, dict) or not as_str(entry.get("filePath")):
                continue
            entry_path = str(entry["filePath"])
            kind = str(entry.get("type", "update"))
            diff = as_str(entry.get("diff")) or as_str(entry.get("patch"))
            if kind == "add":
                out.append(
                    ReportedChange(
                        path=entry_path,
                        change="created",
                        content=as_str(entry.get("after")),
                        diff=diff,
                    )
                )
            elif kind == "delete":
                out.append(ReportedChange(path=entry_path, change="deleted"))
            elif kind == "move":
                move = as_str(entry.get("movePath"))
                out.append(
                    ReportedChange(path=entry_path, change="modified", move_to=move, diff=diff)
                )
            else:
                out.append(ReportedChange(path=entry_path, change="modified", diff=diff))
        return tuple(out)
    path = as_str(inputs.get("filePath")) or as_str(metadata.get("filepath"))
    if path is None:
        return None
    if tool == "write" and isinstance(metadata.get("exists"), bool):
        content = as_str(inputs.get("content"))
        if metadata["exists"]:
            return (ReportedChange(path=path, change="modified", content=content),)
        return (ReportedChange(path=path, change="created", content=content),)
    if tool == "edit" and inputs.get("oldString") == "":
        return None  # a whole-file write that does not record whether the file existed
    if tool in ("edit", "multiedit") and ("filediff" in metadata or "diff" in metadata):
        return (ReportedChange(path=path, change="modified", diff=as_str(metadata.get("diff"))),)
    return None


@dataclass
class _Step:
    """The step's tool calls, and the files they reported precisely (for the snapshot)."""

    reported: set[str] = field(default_factory=set)
    calls: list[str] = field(default_factory=list)


_NET_CHANGE = {"added": "created", "deleted": "deleted", "modified": "modified"}


def _net_changes(message: JSONObject) -> dict[str, str] | None:
    """What a user message's ``summary.diffs`` say its reply changed, net: relative path -> change.

    OpenCode compares the working tree before and after the reply (so the
    list holds other writers' changes too); a file changed during the reply
    and back again is not in it.  None when the message has no such list.
    """
    diffs = as_dict(as_dict(message.get("info")).get("summary")).get("diffs")
    if not isinstance(diffs, list):
        return None
    net: dict[str, str] = {}
    for entry in diffs:
        if isinstance(entry, dict) and as_str(entry.get("file")):
            status = str(entry.get("status") or "")
            if status not in _NET_CHANGE:
                # Older exports have no status: an empty side says which.
                before, after = entry.get("before"), entry.get("after")
                status = "added" if before == "" else ("deleted" if after == "" else "modified")
            net[str(entry["file"])] = _NET_CHANGE[status]
    return net


class _Reader:
    def __init__(self, source: Source, document: JSONObject) -> None:
        self.source = source
        self.info = as_dict(document.get("info"))
        if not isinstance(document.get("info"), dict):
            source.skip(
                None, "the session's info is not an object (its directory and title are unknown)"
            )
        self.messages: list[Any] = as_list(document["messages"])  # a list: checked on loading
        self.turns = TurnCounter()
        self.cwd = as_str(self.info.get("directory"))
        self.out: list[Event] = []
        self.call_ids: set[str] = set()
        self.step = _Step()
        self.summaries = self._summaries()
        # The net changes of the reply being read (from its user message), and its root.
        self.net: dict[str, str] | None = None
        self.net_root: str | None = None

    def _summaries(self) -> dict[int, str]:
        """Compaction summary text by the index of the user message that asked for it."""
        found: dict[int, str] = {}
        pending: int | None = None
        for number, message in enumerate(self.messages):
            if not isinstance(message, dict):
                continue
            info = as_dict(message.get("info"))
            parts = [p for p in as_list(message.get("parts")) if isinstance(p, dict)]
            if info.get("role") == "user" and any(p.get("type") == "compaction" for p in parts):
                pending = number
            elif (
                info.get("role") == "assistant"
                and info.get("summary") is True
                and pending is not None
            ):
                found[pending] = "\n".join(
                    str(p.get("text", "")) for p in parts if p.get("type") == "text"
                )
                pending = None
        return found

    def read(self) -> list[Event]:
        self.out.append(
            SessionInfo(
                turn=0,
                line=None,
                session_id=as_str(self.info.get("id")),
                agent="opencode",
                cwd=self.cwd,
                version=as_str(self.info.get("version")),
            )
        )
        for number, message in enumerate(self.messages):
            line = number + 1
            if not isinstance(message, dict) or not isinstance(message.get("parts"), list):
                self.source.skip(line, "OpenCode message without parts")
                continue
            info = as_dict(message.get("info"))
            role = info.get("role")
            if role == "user":
                self.net = _net_changes(message)
                self.user(line, number, info, message["parts"])
            elif role == "assistant":
                self.assistant(line, info, message["parts"])
            else:
                self.source.skip(line, f"OpenCode message with unknown role {role!r}")
        return self.out

    @staticmethod
    def timestamp(info: JSONObject) -> str | None:
        created = as_dict(info.get("time")).get("created")
        if isinstance(created, bool) or not isinstance(created, int | float):
            return None
        try:
            return datetime.fromtimestamp(created / 1000, tz=UTC).isoformat().replace("+00:00", "Z")
        except (OverflowError, OSError, ValueError):
            return None

    def user(self, line: int, number: int, info: JSONObject, parts: list[Any]) -> None:
        timestamp = self.timestamp(info)
        texts = [
            p
            for p in parts
            if isinstance(p, dict) and p.get("type") == "text" and not p.get("ignored")
        ]
        # OpenCode adds synthetic text (the output of tools run for an @file,
        # a subtask's prompt) next to what the user typed.
        typed = [p for p in texts if not p.get("synthetic")]
        text = "\n".join(str(p.get("text", "")) for p in typed or texts).strip()
        turn = self.turns.user()
        if text:
            self.out.append(
                UserMessage(
                    turn=turn, line=line, timestamp=timestamp, text=text, synthetic=not typed
                )
            )
        for part in parts:
            # A slash command run as a subtask (`/review …`): the part keeps the command's
            # name; its arguments are only inside the expanded prompt, so the name is all.
            if (
                isinstance(part, dict)
                and part.get("type") == "subtask"
                and isinstance(part.get("command"), str)
            ):
                self.out.append(
                    UserMessage(
                        turn=turn,
                        line=line,
                        timestamp=timestamp,
                        text=f"/{part['command']}",
                        channel="command",
                    )
                )
        for part in parts:
            if not isinstance(part, dict):
                continue
            kind = part.get("type")
            if kind == "compaction":
                self.out.append(
                    CompactionBoundary(
                        turn=turn,
                        line=line,
                        timestamp=timestamp,
                        trigger="auto" if part.get("auto") else "manual",
                        summary=self.summaries.get(number),
                    )
                )
            elif kind == "file":
                self.attachment(turn, line, timestamp, part)

    def attachment(self, turn: int, line: int, timestamp: str | None, part: JSONObject) -> None:
        """A file the user attached with ``@path``: OpenCode reads it into the prompt."""
        source = as_dict(part.get("source"))
        path = as_str(source.get("path"))
        url = as_str(part.get("url"))
        if path is None and url and url.startswith("file://"):
            path = unquote(urlparse(url).path)
        if path is None or str(part.get("mime", "")).endswith("directory"):
            return
        if url and url.startswith("data:"):
            return  # pasted content (an image from the clipboard): no file was read
        call_id = self.unique_id(as_str(part.get("id")), f"attachment-{line}")
        self.out.append(
            ToolCall(
                turn=turn,
                line=line,
                timestamp=timestamp,
                call_id=call_id,
                tool="attachment",
                arguments={"path": path},
                operations=(FileOperation(action="read", path=path),),
            )
        )
        self.out.append(
            ToolResult(turn=turn, line=line, timestamp=timestamp, call_id=call_id, status="success")
        )

    def assistant(self, line: int, info: JSONObject, parts: list[Any]) -> None:
        timestamp = self.timestamp(info)
        message_id = as_str(info.get("id")) or f"message-{line}"
        cwd = as_str(as_dict(info.get("path")).get("cwd"))
        self.net_root = as_str(as_dict(info.get("path")).get("root")) or self.cwd
        if cwd and cwd != self.cwd:
            self.cwd = cwd
            self.out.append(
                WorkingDirectory(turn=self.turns.current, line=line, timestamp=timestamp, cwd=cwd)
            )
        model = as_str(info.get("modelID"))
        step, started = 0, False
        turn = self.turns.assistant(f"{message_id}:{step}")
        self.step = _Step()
        for part in parts:
            if not isinstance(part, dict):
                self.source.skip(line, "OpenCode part that is not an object")
                continue
            kind = part.get("type")
            if kind == "step-start":
                # Each step is one model call; the first opens the message's turn.
                if started:
                    step += 1
                    turn = self.turns.assistant(f"{message_id}:{step}")
                    self.step = _Step()
                started = True
            elif kind == "text" and as_str(part.get("text")) and not part.get("synthetic"):
                self.out.append(
                    AssistantMessage(
                        turn=turn,
                        line=line,
                        timestamp=timestamp,
                        text=str(part["text"]),
                        model=model,
                    )
                )
            elif kind == "tool":
                self.tool(turn, line, timestamp, part)
            elif kind == "patch":
                self.snapshot(turn, line, timestamp, part)

    def unique_id(self, preferred: str | None, fallback: str) -> str:
        # Exports redact some ids to "REDACTED"; a call id must stay unique.
        candidate = preferred if preferred and preferred != "REDACTED" else fallback
        base, n = candidate, 1
        while candidate in self.call_ids:
            n += 1
            candidate = f"{base}#{n}"
        self.call_ids.add(candidate)
        return candidate

    def tool(self, turn: int, line: int, timestamp: str | None, part: JSONObject) -> None:
        tool = str(part.get("tool") or "unknown")
        state = as_dict(part.get("state"))
        arguments = as_dict(state.get("input"))
        call_id = self.unique_id(
            as_str(part.get("callID")), f"{as_str(part.get('id')) or 'tool'}-{line}"
        )
        self.out.append(
            ToolCall(
                turn=turn,
                line=line,
                timestamp=timestamp,
                call_id=call_id,
                tool=tool,
                arguments=arguments,
                operations=tuple(self.operations(tool, arguments)),
            )
        )
        self.step.calls.append(call_id)
        status, failure, exit_code, output = self.outcome(tool, state)
        reported = _reported_files(tool, state) if status == "success" else None
        for change in reported or ():
            self.step.reported.add(change.path)
            if change.move_to:
                self.step.reported.add(change.move_to)
        self.out.append(
            ToolResult(
                turn=turn,
                line=line,
                timestamp=timestamp,
                call_id=call_id,
                status=status,
                output=output,
                exit_code=exit_code,
                failure=failure,
                reported=reported,
            )
        )

    def operations(self, tool: str, arguments: JSONObject) -> list[FileOperation]:
        name = tool.lower()
        if name in _SHELL_TOOLS:
            command = as_str(arguments.get("command"))
            if command is None:
                return []
            workdir = as_str(arguments.get("workdir"))
            cwd = self.cwd
            if workdir:
                cwd = under_directory(cwd, workdir)
            return [FileOperation(action="shell", command=command, cwd=cwd, source="shell")]
        if (
            name == "edit"
            and arguments.get("oldString") == ""
            and isinstance(arguments.get("newString"), str)
        ):
            # OpenCode's edit with an empty oldString writes newString as the whole file.
            path = as_str(arguments.get("filePath"))
            return (
                [FileOperation(action="write", path=path, content=arguments["newString"])]
                if path
                else []
            )
        if name == "task":
            # A sub-agent ran in the same checkout; its own calls are in another session.
            return [
                FileOperation(
                    action="unknown",
                    detail="a sub-agent ran; the files it changed are recorded in its own session",
                )
            ]
        return operations_for(tool, arguments, self.cwd)

    @staticmethod
    def outcome(
        tool: str, state: JSONObject
    ) -> tuple[ResultStatus, FailureReason | None, int | None, str]:
        status = state.get("status")
        metadata = as_dict(state.get("metadata"))
        exit_code = metadata.get("exit")
        code = exit_code if isinstance(exit_code, int) and not isinstance(exit_code, bool) else None
        if status == "completed":
            output = str(state.get("output") or "")
            if code not in (None, 0) and tool.lower() in _SHELL_TOOLS:
                return "failure", "exit_status", code, output
            return "success", None, code, output
        if status == "error":
            error = str(state.get("error") or "")
            return "failure", classify_failure(error), code, error
        # pending / running: the export was taken before the call finished.
        return "unknown", None, code, ""

    def snapshot(self, turn: int, line: int, timestamp: str | None, part: JSONObject) -> None:
        files = [f for f in as_list(part.get("files")) if isinstance(f, str) and f]
        # Whether the net diffs spell the snapshot's files alike: asked once per snapshot,
        # not once per file (a snapshot of an install lists tens of thousands).
        net = self.net
        spelled_alike = net is not None and any(self.relative(other) in net for other in files)
        changes = tuple(
            ReportedChange(path=path, change=change, seen_during=tuple(self.step.calls))
            for path in files
            if path not in self.step.reported
            and (change := self.net_change(path, spelled_alike)) is not None
        )
        if not changes:
            return  # every file is already accounted for by the step's own tools
        call_id = self.unique_id(as_str(part.get("id")), f"snapshot-{line}")
        self.out.append(
            ToolCall(
                turn=turn,
                line=line,
                timestamp=timestamp,
                call_id=call_id,
                tool="snapshot",
                arguments={"hash": part.get("hash"), "files": files},
            )
        )
        self.out.append(
            ToolResult(
                turn=turn,
                line=line,
                timestamp=timestamp,
                call_id=call_id,
                status="success",
                output="\n".join(files),
                reported=changes,
            )
        )

    def net_change(
        self, path: str, spelled_alike: bool
    ) -> Literal["created", "modified", "deleted"] | None:
        """How ``path`` changed over the whole reply, by its net diffs; None: it came back as it was.

        Without net diffs, or when none of the snapshot's files can be found in
        them (``spelled_alike`` False: they are spelled from another root), the
        change is ``modified``.
        """
        net = self.net
        if not net:
            return "modified"
        found = net.get(self.relative(path))
        if found is not None:
            return found  # type: ignore[return-value]
        if spelled_alike:
            return None
        return "modified"

    def relative(self, path: str) -> str:
        root = self.net_root
        if root and path.startswith(root.rstrip("/") + "/"):
            return path[len(root.rstrip("/")) + 1 :]
        return path


@register
class OpenCodeAdapter(Adapter):
    """OpenCode ``export`` JSON."""

    name = "opencode"
    description = "OpenCode session export JSON (info + messages with text/tool/patch parts)"
    priority = 15

    def sniff(self, source: Source) -> bool:
        document = source.document
        if not isinstance(document, dict):
            return False
        messages, info = document.get("messages"), document.get("info")
        if not isinstance(messages, list):
            return False
        # Messages of OpenCode's own shape are enough: a damaged session ``info``
        # must cost only itself, not the whole export.
        return any(
            isinstance(m, dict)
            and isinstance(m.get("info"), dict)
            and isinstance(m.get("parts"), list)
            for m in messages[:5]
        ) or (isinstance(info, dict) and "directory" in info and not messages)

    def events(self, source: Source) -> Iterator[Event]:
        document = source.document
        if not isinstance(document, dict) or not isinstance(document.get("messages"), list):
            source.skip(None, "not an OpenCode export (no messages list)")
            return iter(())
        return iter(_Reader(source, document).read())
