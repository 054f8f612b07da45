"""The normalized event model every adapter produces and the tracker consumes.

An adapter turns one transcript format into a stream of :data:`Event` values.
The stream is format-agnostic: a Claude Code ``Edit`` and an OpenHands
``str_replace`` both become a :class:`ToolCall` whose ``operations`` hold one
``edit`` :class:`FileOperation`, followed by a :class:`ToolResult` that says
whether it succeeded.  The tracker never looks at raw records.

Turns: every user message and every model response is one turn, numbered from
1 in transcript order; a tool result belongs to the turn of its call.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "MAY_BE_UNCHANGED",
    "POLLED_COMMAND",
    "PRINTED_BEFORE",
    "UNNAMED_READ",
    "AssistantMessage",
    "CompactionBoundary",
    "Event",
    "EventBase",
    "FailureReason",
    "FileAction",
    "FileOperation",
    "JSONObject",
    "OperationSource",
    "ReportedChange",
    "ResultStatus",
    "SessionInfo",
    "ShellDialect",
    "Submission",
    "ToolCall",
    "ToolResult",
    "UserChannel",
    "UserMessage",
    "WorkingDirectory",
    "one_after_another",
]

# A JSON object as an external format holds it (a transcript record, a tool
# call's arguments; above the engine, an agent's hook input or settings file, a
# JSON-RPC message): its shape is another program's, not ours, and untrusted,
# so each field is narrowed where it is read (``ingestion.adapters.narrowing``).
JSONObject: TypeAlias = dict[str, object]

# The arguments key under which an adapter names the command whose running session a call
# only polls (Codex's empty ``write_stdin``): its output is that command's.
POLLED_COMMAND = "polled_command"
# Beside it: what the polled command printed before this poll (its first output, earlier polls').
PRINTED_BEFORE = "printed_before"


def one_after_another(commands: list[str]) -> str:
    """Several commands one call ran (a Codex code cell's ``Promise.all``) as one shell line.

    ``a; b`` reads as what it is wherever it is shown on one line; a command that a ``;``
    after it would change (a comment, a here-document, one sent to the background) is kept
    on a line of its own.
    """
    unique = list(dict.fromkeys(commands))
    fragile = any(
        "\n" in command or "#" in command or "<<" in command or command.rstrip().endswith("&")
        for command in unique
    )
    return ("\n" if fragile else "; ").join(unique)


FileAction = Literal[
    "read",  # the agent saw (part of) the file
    "write",  # whole-file write; creates the file when it did not exist
    "create",  # a write known to create a new file
    "edit",  # an in-place change: old -> new text, inserted lines, a diff hunk
    "delete",
    "move",  # path -> dest
    "copy",  # path -> dest
    "undo",  # undo the last edit (str_replace_editor undo_edit)
    "restore",  # back to the committed state (git checkout -- PATH, git restore, git stash)
    "unstash",  # git stash pop / apply / drop: the latest stash comes back (or is dropped: detail "drop")
    "shell",  # a shell command whose file effects the shell module infers
    "unknown",  # the call changed files the tracker cannot name
]

OperationSource = Literal["tool", "shell", "patch"]

# The end of an operation's detail when it may have left the file as it was: a formatter's run on
# a file it names and its report does not (see shell.formatters), or a hook that may format it.
MAY_BE_UNCHANGED = "(may be unchanged)"

ShellDialect = Literal["bash", "cmd", "powershell"]

ResultStatus = Literal["success", "failure", "unknown"]

UserChannel = Literal["prompt", "feedback", "interjection", "queued", "command"]

FailureReason = Literal[
    "not_found",  # string to replace / file / expected lines not found
    "not_unique",  # several matches where one was required
    "not_read",  # the harness requires a read before a write
    "stale",  # file changed since it was read
    "rejected",  # the user refused the call
    "hook_blocked",  # a hook blocked the call
    "permission",  # permission was not granted
    "verification",  # patch verification / syntax check failed
    "invalid",  # bad arguments
    "interrupted",  # aborted or cancelled before it completed
    "exit_status",  # a command exited non-zero
    "other",
]


# The detail of a read whose files are known only at run time (it has no path): the files read are
# more than the trail can list.
UNNAMED_READ = "reads files known only at run time"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class FileOperation(_Model):
    """One thing a tool call intends to do to one file (or, for ``shell``, a command).

    Which fields matter depends on ``action``: ``content`` for write/create,
    ``old``/``new`` for a string replacement, ``diff`` for a hunk-level edit,
    ``dest`` for move/copy, ``command`` for shell, ``start_line``/``end_line``
    for a read window or a line-range edit.
    """

    action: FileAction
    path: str | None = None
    dest: str | None = None
    content: str | None = None
    old: str | None = None
    new: str | None = None
    replace_all: bool = False
    diff: str | None = None
    start_line: int | None = None
    end_line: int | None = None
    command: str | None = None
    cwd: str | None = None
    source: OperationSource = "tool"
    detail: str | None = None  # free text shown to users, e.g. why the effect is unknown
    # The shell a ``shell`` command is written for, when the harness says
    # (Copilot CLI's ``powershell`` tool); None: recognized from the command.
    dialect: ShellDialect | None = None


class ReportedChange(_Model):
    """A change the harness itself reported after the call (not the agent's request)."""

    path: str
    change: Literal["created", "modified", "deleted"]
    move_to: str | None = None
    content: str | None = None  # full new content when the harness recorded it
    original: str | None = None  # full content before the call, when the harness recorded it
    diff: str | None = None
    # A change the harness saw in the working tree while these calls ran (a
    # snapshot of the checkout), not one a call reported for itself: it is the
    # session's only when one of them could have made it; the user or another
    # agent working in the same checkout may have.  None: the call made it.
    seen_during: tuple[str, ...] | None = None


class EventBase(_Model):
    turn: int = Field(ge=0)
    timestamp: str | None = None
    line: int | None = None  # 1-based line (or record number) in the source file
    sidechain: str | None = None  # sub-agent id when the event comes from a side-chain


class SessionInfo(EventBase):
    kind: Literal["session"] = "session"
    session_id: str | None = None
    agent: str | None = None
    cwd: str | None = None
    model: str | None = None
    version: str | None = None


class WorkingDirectory(EventBase):
    kind: Literal["cwd"] = "cwd"
    cwd: str


class UserMessage(EventBase):
    """Text on the user's side of the conversation: typed by the person, or injected by the harness.

    ``channel`` says how typed text reached the agent: ``prompt`` (a turn of
    its own), ``feedback`` (given when refusing a tool call or answering its
    result), ``interjection`` (typed while a tool ran, delivered with its
    result), ``queued`` (typed while the agent worked, delivered when it
    could read it), ``command`` (a slash command with its arguments,
    ``/review 158``).
    """

    kind: Literal["user"] = "user"
    text: str
    synthetic: bool = False  # injected by the harness (reminders, command output), not typed
    channel: UserChannel = "prompt"


class AssistantMessage(EventBase):
    kind: Literal["assistant"] = "assistant"
    text: str
    model: str | None = None


class ToolCall(EventBase):
    kind: Literal["tool_call"] = "tool_call"
    call_id: str
    tool: str
    arguments: JSONObject = Field(default_factory=dict)
    operations: tuple[FileOperation, ...] = ()


class ToolResult(EventBase):
    kind: Literal["tool_result"] = "tool_result"
    call_id: str
    status: ResultStatus
    output: str = ""
    exit_code: int | None = None
    failure: FailureReason | None = None
    reported: tuple[ReportedChange, ...] | None = None  # harness-reported effects, if any
    # Files the harness says the call changed without naming them ("… and 8 more"): some of
    # those the session had read.
    unnamed_changes: int = 0
    # Still running when the call returned (Codex's unified exec): its output is the start of it,
    # and how it ends is a later poll's to show.
    running: bool = False


class CompactionBoundary(EventBase):
    kind: Literal["compaction"] = "compaction"
    trigger: str | None = None  # "auto" | "manual" | ...
    pre_tokens: int | None = None
    summary: str | None = None


class Submission(EventBase):
    """The harness ended the run and took away what ``command`` printed (a diff).

    ``command``: the agent's submit command, e.g. ``echo
    COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && cat patch.txt``; None when the
    run ended without submitting (``exit_status`` says how it ended).
    ``cwd``: where the command ran.
    """

    kind: Literal["submission"] = "submission"
    command: str | None = None
    cwd: str | None = None
    exit_status: str | None = None


Event = Annotated[
    SessionInfo
    | WorkingDirectory
    | UserMessage
    | AssistantMessage
    | ToolCall
    | ToolResult
    | CompactionBoundary
    | Submission,
    Field(discriminator="kind"),
]
