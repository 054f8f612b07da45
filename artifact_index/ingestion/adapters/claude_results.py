"""What a Claude Code tool result says: success or which failure, and what changed.

Three formats carry Claude Code tool results: the session JSONL itself,
Entire's compact transcript (result inlined into the ``tool_use`` block) and
git-ai notes (older notes keep the result text as a ``user`` message).  They
share the wording of the results, so the classification lives here once.

Failure texts seen in real sessions (``docs/formats.md`` §1)::

    <tool_use_error>File has not been read yet. Read it first …</tool_use_error>
    <tool_use_error>String to replace not found in file. …</tool_use_error>
    <tool_use_error>Found 2 matches of the string to replace, but replace_all is false…
    <tool_use_error>File has been modified since read, either by the user or by a linter…
    <tool_use_error>Sibling tool call errored</tool_use_error>
    The user doesn't want to proceed with this tool use. …   (no wrapper)
    PreToolUse:Write hook error: [python3 …]: …
    Claude requested permissions to write to …, but you haven't granted it yet.
    Exit code 128\\nfatal: …                                   (Bash)
"""

from __future__ import annotations

import json
import re
from typing import Any

from artifact_index.ingestion.adapters.failures import classify_failure as classify_text
from artifact_index.ingestion.adapters.narrowing import as_int, as_str
from artifact_index.ingestion.events import FailureReason, JSONObject, ReportedChange
from artifact_index.ingestion.vocabulary import SHELL_TOOLS, path_argument
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "EDIT_TOOLS",
    "FILE_CHANGE_TOOLS",
    "apply_string_edits",
    "classify_failure",
    "is_failure_text",
    "is_shell_tool",
    "rejection_feedback",
    "render_structured_patch",
    "reported_from_structured",
    "reported_from_text",
    "shell_exit_code",
    "slash_command",
    "strip_error_wrapper",
]

EDIT_TOOLS = frozenset({"Edit", "MultiEdit"})
FILE_CHANGE_TOOLS = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})

_DRIVE_PATH = lazy_pattern(r"^[A-Za-z]:[\\/]")
_WRAPPER = lazy_pattern(r"^\s*<tool_use_error>(.*?)(?:</tool_use_error>\s*)?$", re.DOTALL)
_EXIT_CODE = lazy_pattern(r"^(?:Error: )?Exit code (-?\d+)\b")

# Failure texts that appear without the <tool_use_error> wrapper (and, in
# git-ai notes and Entire's transcript, without any is_error flag).
_UNWRAPPED_FAILURE = lazy_pattern(
    r"^(?:Error: )?(?:"
    r"The user doesn't want to (?:proceed|take this action)"
    r"|User rejected tool use"
    r"|Permission for this (?:tool use|action) was denied"
    r"|Permission to use \S+ (?:with command .*)?has been denied"
    r"|\S+ is temporarily unavailable, so auto mode cannot determine the safety of"
    r"|Claude requested permissions to"
    r"|\S*ToolUse:\S+ hook error"
    r"|\[Request interrupted by user"
    r"|Cancelled: parallel tool call"
    r"|Sibling tool call errored"
    r"|InputValidationError"
    r")"
)

# For shell tools only the harness's own refusals are classified by text,
# and only where the result starts with them: everything else is the
# command's own failure output, which may quote any sentence.  File tools
# use the shared phrase table of :mod:`.failures`.
_SHELL_REASONS: tuple[tuple[re.Pattern[str], FailureReason], ...] = (
    (lazy_pattern(r"^(?:The user doesn't want to|User rejected)", re.I), "rejected"),
    (
        lazy_pattern(
            # Auto mode's classifier denying the call, or unable to judge it (its model down).
            r"^(?:Permission for this (?:tool use|action) was denied|Claude requested permissions"
            r"|Permission to use \S+ (?:with command .*)?has been denied"
            r"|\S+ is temporarily unavailable, so auto mode cannot determine the safety of)",
            re.I | re.S,
        ),
        "permission",
    ),
    # The harness's own guard against a blocking command ("Blocked: sleep 30 followed by: ...").
    (lazy_pattern(r"^Blocked: sleep \d"), "hook_blocked"),
    (lazy_pattern(r"^\S*ToolUse:\S+ hook error|\bhook (?:error|blocked)", re.I), "hook_blocked"),
    (
        lazy_pattern(
            r"^(?:Sibling tool call errored|Cancelled: parallel tool call|\[Request interrupted)",
            re.I,
        ),
        "interrupted",
    ),
    (lazy_pattern(r"^InputValidationError"), "invalid"),
)


def strip_error_wrapper(text: str) -> str:
    """The text inside ``<tool_use_error>…</tool_use_error>`` (or the text itself)."""
    match = _WRAPPER.match(text)
    return match.group(1).strip() if match else text


def is_shell_tool(tool: str) -> bool:
    return tool.lower() in SHELL_TOOLS


def is_failure_text(text: str) -> bool:
    """True when a result text alone shows the call failed (no is_error flag needed)."""
    stripped = text.lstrip()
    return stripped.startswith("<tool_use_error>") or bool(_UNWRAPPED_FAILURE.match(stripped))


def classify_failure(tool: str, text: str) -> tuple[FailureReason, int | None]:
    """The failure reason of a failed call of ``tool`` whose result read ``text``, and its exit code."""
    body = strip_error_wrapper(text.strip())
    if body.startswith("Error: "):
        body = body[len("Error: ") :]
    if is_shell_tool(tool):
        code = _EXIT_CODE.match(body)
        if code:
            return "exit_status", int(code.group(1))
        for pattern, reason in _SHELL_REASONS:
            if pattern.search(body):
                return reason, None
        # Claude Code 1.0.x reported a failing command with its stderr and no
        # "Exit code N" line: the command ran and failed, the code is unknown.
        return "exit_status", None
    return classify_text(body), None


_REJECTED = lazy_pattern(r"^(?:Error: )?The user doesn't want to (?:proceed|take)", re.I)
_FEEDBACK = lazy_pattern(r"the user said:[ \t]*\n(?P<text>.*\S)\s*\Z", re.I | re.S)


def rejection_feedback(text: str) -> str | None:
    """What the person typed when refusing a tool call ("…To tell you how to proceed, the user said:\\nno")."""
    if not _REJECTED.match(text.lstrip()):
        return None
    found = _FEEDBACK.search(text)
    return found.group("text").strip() if found else None


_COMMAND_NAME = lazy_pattern(r"<command-name>\s*(?P<name>[^<]*?)\s*</command-name>")
_COMMAND_ARGS = lazy_pattern(r"<command-args>(?P<args>.*?)</command-args>", re.S)


def slash_command(text: str) -> str | None:
    """A slash command the person typed, as typed (``/review 158``), from Claude Code's echo of it."""
    stripped = text.lstrip()
    if not stripped.startswith(("<command-name>", "<command-message>")):
        return None
    name = _COMMAND_NAME.search(stripped)
    if name is None or not name.group("name"):
        return None
    args = _COMMAND_ARGS.search(stripped)
    typed = name.group("name") if name.group("name").startswith("/") else "/" + name.group("name")
    return f"{typed} {args.group('args').strip()}".strip() if args else typed


def render_structured_patch(hunks: Any) -> str | None:
    """Claude Code's ``structuredPatch`` (a list of hunks) as unified-diff hunk text."""
    if not isinstance(hunks, list) or not hunks:
        return None
    out: list[str] = []
    for hunk in hunks:
        if not isinstance(hunk, dict):
            return None
        lines = hunk.get("lines")
        if not isinstance(lines, list):
            return None
        out.append(
            f"@@ -{hunk.get('oldStart', 0)},{hunk.get('oldLines', 0)} "
            f"+{hunk.get('newStart', 0)},{hunk.get('newLines', 0)} @@"
        )
        out.extend(str(line) for line in lines)
    return "\n".join(out) + "\n"


def apply_string_edits(original: str, edits: list[tuple[str, str, bool]]) -> str | None:
    """``original`` after the ``(old, new, replace_all)`` edits, or None if one does not apply exactly."""
    text = original
    for old, new, replace_all in edits:
        if not old or old not in text:
            return None
        text = text.replace(old, new) if replace_all else text.replace(old, new, 1)
    return text


_CREATED_TEXT = lazy_pattern(
    r"^File created successfully at: ?(.+?)(?: \(file state is current.*)?$", re.S
)
_UPDATED_TEXT = lazy_pattern(
    r"^(?:The file (.+?) has been (?:updated|overwritten|edited)|Applied \d+ edits? to (.+?):"
    r"|Updated cell)"
)


def reported_from_text(
    tool: str, path: str | None, text: str, arguments: JSONObject | None = None
) -> ReportedChange | None:
    """The change a successful file tool's result text announces, when it announces one.

    Used where the structured ``toolUseResult`` is missing (sub-agent records
    nested in ``progress``, Entire's compact transcript, git-ai notes).  A
    Write's ``content`` argument is the file's new content.
    """
    if tool not in FILE_CHANGE_TOOLS:
        return None
    written = (arguments or {}).get("content") if tool == "Write" else None
    content = written if isinstance(written, str) else None
    first = text.strip().split("\n", 1)[0]
    created = _CREATED_TEXT.match(first)
    if created:
        return ReportedChange(
            path=path or created.group(1).strip(), change="created", content=content
        )
    updated = _UPDATED_TEXT.match(first)
    if updated:
        named = updated.group(1) or updated.group(2)
        target = path or (named.strip() if named else None)
        if target:
            return ReportedChange(path=target, change="modified", content=content)
    return None


def shell_output(text: str, structured: Any) -> str:
    """What a Bash call printed: the record's ``stdout``/``stderr`` when the result text says less.

    A PostToolUse hook may replace the text the model sees with a stub ("ok",
    a digest of a listing or a diff) and Claude Code cuts long output down to a
    preview; the record's ``toolUseResult`` keeps what the command really printed,
    and that is what tells which files it touched or whether it failed.
    """
    if not isinstance(structured, dict):
        return text
    streams = [structured.get("stdout"), structured.get("stderr")]
    printed = "\n".join(s.rstrip("\n") for s in streams if isinstance(s, str) and s.strip())
    return printed if len(printed.strip()) > len(text.strip()) else text


def shell_exit_code(structured: Any) -> int | None:
    """0 for a Bash call that ran to completion; None when that is not known."""
    if not isinstance(structured, dict):
        return 0
    explicit = as_int(structured.get("exitCode"))
    if explicit is not None:
        return explicit
    # Backgrounded or interrupted commands have not finished; an interpreted
    # return code ("No matches found" for grep) was non-zero but not an error.
    if (
        structured.get("backgroundTaskId")
        or structured.get("interrupted")
        or structured.get("returnCodeInterpretation")
    ):
        return None
    return 0


def reported_from_structured(
    tool: str, arguments: JSONObject, output: str, structured: Any
) -> tuple[ReportedChange, ...] | None:
    """What a session's tool result says changed: its ``toolUseResult`` record, else its text."""
    path = as_str(arguments.get("file_path")) or as_str(arguments.get("notebook_path"))
    if isinstance(structured, dict):
        path = as_str(structured.get("filePath")) or path
        kind = structured.get("type")
        if kind in ("create", "update") and path:
            content = structured.get("content")
            return (
                ReportedChange(
                    path=path,
                    change="created" if kind == "create" else "modified",
                    content=content if isinstance(content, str) else None,
                ),
            )
        if tool in EDIT_TOOLS and path and isinstance(structured.get("structuredPatch"), list):
            original = structured.get("originalFile", structured.get("originalFileContents"))
            return (
                ReportedChange(
                    path=path,
                    change="modified",
                    diff=render_structured_patch(structured["structuredPatch"]),
                    content=_edited_content(tool, arguments, structured),
                    original=original if isinstance(original, str) else None,
                ),
            )
    written = _tool_server_write(tool, arguments, output)
    if written is not None:
        return (written,)
    change = reported_from_text(tool, path, output, arguments)
    return (change,) if change else None


def _tool_server_write(tool: str, arguments: JSONObject, output: str) -> ReportedChange | None:
    """The file an MCP tool's JSON result says it wrote, when it says where and whether it existed.

    A tool server may take a path in its own terms (Xcode's project navigator:
    ``App/Sources/x.swift`` for ``<checkout>/Sources/x.swift``), so only the
    absolute path its result states names the file; without that, or without
    saying whether the file was there before, the call stays unnamed.
    """
    if not tool.startswith("mcp__"):
        return None
    if not output.lstrip().startswith("{"):
        return _announced_write(arguments, output)
    try:
        result = json.loads(output)
    except ValueError:
        return None
    if not isinstance(result, dict) or result.get("success") is False:
        return None
    path = as_str(result.get("absolutePath"))
    existed = result.get("wasExistingFile")
    if not path or not (path.startswith("/") or _DRIVE_PATH.match(path)):
        return None
    if not isinstance(existed, bool):
        return None
    content = arguments.get("content")
    return ReportedChange(
        path=path,
        change="modified" if existed else "created",
        content=content if isinstance(content, str) else None,
    )


# "Updated 2 key(s) in .env", "Wrote 3 lines to notes.md": a tool server's own word on a file it changed.
_ANNOUNCED = lazy_pattern(
    r"^(?P<verb>Updated|Wrote|Saved|Created|Added|Appended|Set)\b[^\n]*?\b(?:in|to|into|at)\s+"
    r"[`'\"]?(?P<path>[^\s`'\"]+?)[`'\"]?[.:]?\s*$"
)


def _announced_write(arguments: JSONObject, output: str) -> ReportedChange | None:
    """The file an MCP tool was given, when its one-line result says it changed that very file."""
    given = path_argument(arguments)
    found = _ANNOUNCED.match(output.strip())
    if given is None or found is None or found["path"] != given:
        return None
    return ReportedChange(
        path=given, change="created" if found["verb"] == "Created" else "modified"
    )


def _edited_content(tool: str, arguments: JSONObject, structured: JSONObject) -> str | None:
    """The file after an Edit/MultiEdit, rebuilt from the original Claude Code recorded."""
    original = structured.get("originalFile", structured.get("originalFileContents"))
    if not isinstance(original, str):
        return None
    # The recorded strings win over the requested ones: the person may have
    # changed the proposal before accepting it (``userModified``).
    if tool == "MultiEdit":
        raw_edits = structured.get("edits", arguments.get("edits"))
    elif isinstance(structured.get("oldString"), str) and isinstance(
        structured.get("newString"), str
    ):
        raw_edits = [
            {
                "old_string": structured["oldString"],
                "new_string": structured["newString"],
                "replace_all": structured.get("replaceAll"),
            }
        ]
    else:
        raw_edits = [arguments]
    if not isinstance(raw_edits, list):
        return None
    edits: list[tuple[str, str, bool]] = []
    for edit in raw_edits:
        if not isinstance(edit, dict):
            return None
        old, new = edit.get("old_string"), edit.get("new_string")
        if not isinstance(old, str) or not isinstance(new, str):
            return None
        edits.append((old, new, bool(edit.get("replace_all"))))
    return apply_string_edits(original, edits)


# Claude Code's note on a Bash result when files the session had read changed under it:
# "[This command modified 13 files you've previously read: a.py, b.py, c.py, d.py, e.py and 8
# more. Call Read before editing.]" (`staleReadFileStateHint`; also appended to the output).
_STALE_READS = lazy_pattern(
    r"\[This command modified (?P<count>\d+) files? you've previously read: (?P<names>.+?)"
    r"(?: and (?P<more>\d+) more)?\. Call Read before editing\.\]"
)


def stale_reads(structured: Any) -> tuple[tuple[str, ...], int] | None:
    """The files a Bash call changed that the session had read, as Claude Code noted: (named, unnamed count)."""
    if not isinstance(structured, dict):
        return None
    hint = structured.get("staleReadFileStateHint")
    found = _STALE_READS.search(hint) if isinstance(hint, str) else None
    if found is None:
        return None
    names = tuple(name.strip() for name in found["names"].split(", ") if name.strip())
    return names, int(found["more"] or 0)
