"""The incremental tracker: events in, artifact index out.

:meth:`Tracker.feed` takes one normalised event at a time and updates the
:class:`~artifact_index.trail.index.ArtifactIndex` graph.  A tool call's
operations are applied when its result arrives, because only the result
says whether they happened: a failed or rejected edit is recorded but never
changes a file.  Everything the tracker needs to continue (the graph, the
calls still waiting for a result, the current directory) lives in the index,
so :meth:`Tracker.save` / :meth:`Tracker.resume` continue a live session
without re-reading it.  Feeding is idempotent by event identity: an event
fed again (a live reader that re-sends the tail of a file, a batch replayed
after a resume) changes nothing.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import Any

from artifact_index.facts.decisions import KnownPaths, extract_decisions
from artifact_index.facts.symbols.definitions import (
    SymbolChange,
    changed_symbols,
    symbols_in_edit,
    symbols_in_range,
)
from artifact_index.facts.tasks import Task, apply_task_call
from artifact_index.facts.work_items import observe_tracker_command
from artifact_index.ingestion.events import (
    AssistantMessage,
    CompactionBoundary,
    Event,
    FileOperation,
    ReportedChange,
    SessionInfo,
    Submission,
    ToolCall,
    ToolResult,
    UserMessage,
    WorkingDirectory,
)
from artifact_index.ingestion.patches import apply_hunks, diff_sides
from artifact_index.redaction import redact_text
from artifact_index.trail.annotations import (
    add_decision,
    add_error,
    add_symbol_changes,
    add_symbols_read,
)
from artifact_index.trail.contents import is_directory_listing, parse_read_output
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.paths import file_key, is_absolute, join
from artifact_index.trail.shell import analyze_command
from artifact_index.trail.shell.git import STASHED, STASHED_WITH_UNTRACKED
from artifact_index.trail.submission import GitModel
from artifact_index.trail.verification import record_check_runs
from artifact_index.trail.work_state import WorkState

__all__ = ["PERSISTENT_SHELL_FORMATS", "Tracker", "event_identity"]

# Formats whose shell tool keeps one shell process, so a `cd` in one command
# moves every later command (and relative paths of later tool calls).
PERSISTENT_SHELL_FORMATS = frozenset(
    {"claude-code", "entire-compact", "swe-agent", "openhands", "copilot-cli", "cline"}
)

# Claude Code's note when a `cd` left the project: the next command starts in the project again.
_CWD_RESET = re.compile(r"^Shell cwd was reset to (/\S.*?)\s*$", re.M)

# Failures that prove the file existed when the call was made.
_FAILURES_PROVING_EXISTENCE = frozenset({"not_read", "not_found", "not_unique", "stale"})


class Tracker:
    """Feeds events into an :class:`ArtifactIndex`, one at a time."""

    def __init__(self, index: ArtifactIndex | None = None, *, format: str | None = None) -> None:
        self.index = index if index is not None else ArtifactIndex()
        self._originals: dict[str, str] = {}
        # The paths of the file nodes, for finding them in the assistant's words;
        # ``_paths_seen`` file nodes have been added to it so far.
        self._paths = KnownPaths()
        self._paths_seen = 0
        meta = self.index.meta
        if format is not None:
            meta["format"] = format
        meta.setdefault("cwd", None)
        meta.setdefault("pending", {})
        meta.setdefault("orphan_results", 0)
        meta.setdefault("events", 0)
        self._seen: set[str] = set(meta.setdefault("seen_events", []))

    # -- persistence ------------------------------------------------------------
    def save(self) -> str:
        """The tracker's whole state as JSON."""
        return self.index.to_json()

    @classmethod
    def resume(cls, state: str) -> Tracker:
        """A tracker that continues from :meth:`save`'s output."""
        return cls(ArtifactIndex.from_json(state))

    # -- feeding ----------------------------------------------------------------
    def feed_all(self, events: Iterable[Event]) -> ArtifactIndex:
        for event in events:
            self.feed(event)
        return self.index

    def feed(self, event: Event) -> None:
        meta = self.index.meta
        identity = event_identity(event)
        if identity in self._seen:
            return
        self._seen.add(identity)
        meta["seen_events"].append(identity)
        meta["events"] += 1
        self._touch_turn(event.turn)
        if isinstance(event, SessionInfo):
            if event.cwd and not meta.get("root"):
                meta["root"] = join(None, event.cwd)
            if event.cwd:
                meta["cwd"] = join(None, event.cwd)
            for field in ("session_id", "model", "agent", "version"):
                if getattr(event, field) and not meta.get(field):
                    meta[field] = getattr(event, field)
        elif isinstance(event, WorkingDirectory):
            meta["cwd"] = join(meta.get("cwd"), event.cwd)
            if not meta.get("root"):
                meta["root"] = meta["cwd"]
        elif isinstance(event, ToolCall):
            meta["pending"][event.call_id] = {
                "call": event.model_dump(mode="json"),
                "cwd": meta.get("cwd"),
            }
        elif isinstance(event, ToolResult):
            pending = meta["pending"].pop(event.call_id, None)
            if pending is None:
                meta["orphan_results"] += 1
                return
            self._apply_call(ToolCall.model_validate(pending["call"]), pending["cwd"], event)
        elif isinstance(event, UserMessage | AssistantMessage | CompactionBoundary):
            self._record_message(event)
        elif isinstance(event, Submission):
            cwd = join(meta.get("cwd"), event.cwd) if event.cwd else meta.get("cwd")
            GitModel(self.index).submit(event.command, cwd, event.turn, event.exit_status)

    # -- messages -----------------------------------------------------------------
    def _record_message(self, event: UserMessage | AssistantMessage | CompactionBoundary) -> None:
        meta = self.index.meta
        if isinstance(event, CompactionBoundary):
            # ``seq``: the operations before the boundary are those numbered up to it.
            meta.setdefault("compactions", []).append(
                {"turn": event.turn, "trigger": event.trigger, "pre_tokens": event.pre_tokens,
                 "seq": meta.get("op_count", 0), "sidechain": event.sidechain}
            )
        elif isinstance(event, UserMessage) and not event.synthetic:
            meta.setdefault("user_messages", []).append(
                {"turn": event.turn, "text": event.text, "channel": event.channel})
        elif isinstance(event, AssistantMessage) and event.text.strip():
            meta["last_assistant"] = {"turn": event.turn, "text": event.text}
            for decision in extract_decisions(event.text, event.turn, self._known_paths()):
                meta["decision_count"] = meta.get("decision_count", 0) + 1
                add_decision(self.index.graph, meta["decision_count"], decision)

    def _known_paths(self) -> KnownPaths:
        graph = self.index.graph
        files = graph.count_of_kind("file")
        if files > self._paths_seen:
            self._paths.update(str(d["path"]) for _, d in graph.nodes_of_kind("file", since=self._paths_seen))
            self._paths_seen = files
        return self._paths

    def _touch_turn(self, turn: int) -> None:
        node = f"turn:{turn}"
        if turn and node not in self.index.graph:
            self.index.graph.add_node(node, kind="turn", turn=turn)

    # -- tool calls -----------------------------------------------------------------
    def _apply_call(self, call: ToolCall, cwd: str | None, result: ToolResult) -> None:
        # What the harness says the files held before the call is known
        # content from the start, so the call's edits apply to it.
        self._originals = {
            self._key(change.path, cwd): change.original
            for change in (result.reported or ()) if change.original is not None and result.status != "failure"
        }
        fresh = {key for key in self._keys_of(call.operations, cwd) if self._is_fresh(key)}
        touched: set[str] = set()
        for op in call.operations:
            if op.action == "shell":
                touched |= self._apply_shell(call, op, cwd, result)
            else:
                touched |= self._apply(call, op, cwd, result)
        if result.status != "failure" and result.reported:
            self._apply_reported(call, result, cwd, fresh, touched)
        if result.status != "failure":
            self._update_tasks(call, result)
        self._observe_errors(call, cwd, result)

    def _observe_errors(self, call: ToolCall, cwd: str | None, result: ToolResult) -> None:
        """Feed the result to the error ledger; link new errors to their file in the graph."""
        commands = [op.command for op in call.operations if op.action == "shell" and op.command]
        succeeded = {"success": True, "failure": False}.get(result.status)
        touched = self.index.ledger.observe(call.turn, commands[0] if commands else None, call.tool,
                                            result.output, succeeded, call.call_id, result.failure)
        if commands:
            record_check_runs(self.index.meta, commands[0], call.turn, passed=succeeded is True and not touched)
        for entry in touched:
            node = f"error:{entry.signature}"
            if node in self.index.graph:
                continue
            key = self._key(entry.file, cwd) if entry.file else None
            symbol = entry.symbol or self._symbol_at(key, entry.line)
            if symbol and not entry.symbol:
                self.index.meta.setdefault("error_symbols", {})[entry.signature] = symbol
            add_error(self.index.graph, entry.signature, {"message": entry.message, "kind": entry.kind,
                                                          "line": entry.line, "symbol": symbol}, key)

    def _update_tasks(self, call: ToolCall, result: ToolResult) -> None:
        # Each agent keeps its own list: a sub-agent's plan never replaces the
        # main agent's (see ArtifactIndex.tasks for which one is shown).
        meta = self.index.meta
        lists: dict[str, list[dict[str, Any]]] = meta.setdefault("task_lists", {})
        agent = call.sidechain or ""
        current = [Task.model_validate(t) for t in lists.get(agent, [])]
        updated = apply_task_call(current, call.tool, call.arguments, call.turn, result.output)
        if updated is None:
            return
        lists[agent] = [t.model_dump() for t in updated]

    def _symbol_at(self, key: str | None, line: int | None) -> str | None:
        """The innermost definition around ``line`` of a file whose content is known."""
        node = self.index.graph.nodes.get(f"file:{key}") if key else None
        if node is None or line is None or node.get("content") is None:
            return None
        around = symbols_in_range(node["content"], str(key), line, line)
        if not around:
            return None
        inner = min(around, key=lambda d: d.end_line - d.start_line)
        return f"{inner.container}.{inner.name}" if inner.container else inner.name

    def _keys_of(self, ops: Iterable[FileOperation], cwd: str | None) -> list[str]:
        keys = []
        for op in ops:
            for path in (op.path, op.dest):
                if path:
                    keys.append(self._key(path, op.cwd or cwd))
        return keys

    def _apply_shell(self, call: ToolCall, op: FileOperation, cwd: str | None, result: ToolResult) -> set[str]:
        meta = self.index.meta
        succeeded = {"success": True, "failure": False}.get(result.status)
        shell_cwd = op.cwd or cwd
        if shell_cwd and not is_absolute(shell_cwd):
            shell_cwd = join(cwd, shell_cwd)
        analysis = analyze_command(op.command or "", shell_cwd, succeeded=succeeded, context=self,
                                   workspace=meta.get("root"), output=result.output or None, dialect=op.dialect)
        if analysis.directories:
            meta["directories"] = sorted({*meta.get("directories", []), *analysis.directories})
        if analysis.cleared:
            meta["cleared_directories"] = sorted({*meta.get("cleared_directories", []), *analysis.cleared})
        if analysis.scratch_files:
            # What temporary files hold (a /tmp script the agent writes, then
            # runs): a later command may run them.
            meta["scratch"] = {**meta.get("scratch", {}), **analysis.scratch_files}
        # The output shows one file only when reading it is the whole command
        # (not `cat -n a b`, not `cat -n a | head`, not `cat -n a && make`).
        effects = analysis.operations
        lone_read = len(effects) == 1 and effects[0].action == "read" \
            and " ".join((effects[0].command or "").split()) == " ".join((op.command or "").split())
        touched: set[str] = set()
        for effect in effects:
            if effect.cwd and not is_absolute(effect.cwd):
                # With no known start, the analysis already placed the path
                # under its relative `cd`: joining that again would double it.
                effect = effect.model_copy(update={"cwd": None})
            touched |= self._apply(call, effect, shell_cwd, result, forced_ok=True, single_read=lone_read)
        if op.command:
            # Staging and `git diff > patch.txt` decide what a later submission holds.  Followed
            # even when the command failed: in `git diff > p.txt && pytest` only pytest failed.
            GitModel(self.index).observe(op.command, shell_cwd)
            WorkState(self.index).observe(op.command, shell_cwd, result.output, call.turn, succeeded)
            observe_tracker_command(meta.setdefault("work_items", {}), op.command, result.output, call.turn, succeeded)
        if analysis.cwd_after and meta.get("format") in PERSISTENT_SHELL_FORMATS:
            meta["cwd"] = analysis.cwd_after
        reset = _CWD_RESET.search(result.output or "")
        if reset is not None:
            meta["cwd"] = join(None, reset.group(1))  # Claude Code took the shell back to the project
        return touched

    def _apply(
        self,
        call: ToolCall,
        op: FileOperation,
        cwd: str | None,
        result: ToolResult,
        *,
        forced_ok: bool = False,
        single_read: bool | None = None,
    ) -> set[str]:
        """Record ``op`` and, unless its call failed, change the file state.

        ``single_read``: whether the result's output shows this read alone
        (default: the call has this one operation).
        """
        # Shell effects arrive already filtered by success, so their own
        # status is "success" unless the command's status was unknown.
        status = result.status if not forced_ok or result.status == "unknown" else "success"
        op_node = self._add_operation(call, op, status, result)
        if op.action == "unknown" or (op.path is None and op.action not in ("restore", "unstash")):
            return set()
        if op.action == "restore" and op.path is None:
            if status != "failure":
                self._restore_all(op_node, call.call_id, op.detail)
            return set()
        if op.action == "unstash":
            return self._unstash(op_node, op.detail) if status != "failure" else set()
        assert op.path is not None
        key = self._key(op.path, op.cwd or cwd)
        if op.action == "read" and status != "failure" and is_directory_listing(result.output):
            # The path was a directory: the tool listed it, no file was read.
            listed = self.index.meta.setdefault("listed_directories", [])
            if key not in listed:
                listed.append(key)
            return set()
        file = self._file(key, op.path, op_node)
        self.index.graph.add_edge(op_node, f"file:{key}", kind="touched", action=op.action)
        if status == "failure":
            if op.action == "edit" and result.failure in _FAILURES_PROVING_EXISTENCE and self._is_fresh(key):
                file["existed_before"] = True
            return {key}
        touched = {key}
        action = op.action
        if action == "read":
            self._existing(file)
            file["read"] = True
            self._add_source(file, op.source)
            single = single_read if single_read is not None else len(call.operations) == 1
            self._learn_from_read(file, key, op, op_node, result, single=single)
            return touched
        self._add_source(file, op.source)
        if file["content"] is None and key in self._originals:
            file["content"] = self._originals.pop(key)
        if not file["changed"]:
            file["original"] = file["content"]
        before, was_changed, existed_then = file["content"], file["changed"], file["exists"]
        if action in ("write", "create"):
            if file["existed_before"] is None and not file["changed"] and not file["read"]:
                file["existed_before"] = False
            self._set_content(file, op.content)
            file["exists"] = True
        elif action == "edit":
            self._existing(file)
            file["exists"] = True
            self._edit_content(file, op)
        elif action == "delete":
            self._existing(file)
            file["exists"] = False
            file["content"] = None
        elif action == "undo":
            self._existing(file)
            file["depth"] = max(0, int(file["depth"]) - 1)
            if file["depth"] == 0:
                file["content"] = file["original"]
        elif action == "restore":
            # Restoring a file the session never changed, or one it created
            # (untracked by git), changes nothing.
            if file["changed"] and file["existed_before"] is not False:
                if _is_stash(op.detail):
                    self._stash_entry(call.call_id)[key] = _snapshot(file)
                self._mark_restored(file)
            return touched
        elif action in ("move", "copy") and op.dest:
            dest_key = self._key(op.dest, op.cwd or cwd)
            touched.add(dest_key)
            dest = self._file(dest_key, op.dest, op_node)
            self.index.graph.add_edge(op_node, f"file:{dest_key}", kind="touched", action=op.action, role="dest")
            self._add_source(dest, op.source)
            if dest["existed_before"] is None and not dest["changed"] and not dest["read"]:
                dest["existed_before"] = False
            dest["exists"] = True
            dest["changed"] = True
            dest["depth"] = int(dest["depth"]) + 1
            self._set_content(dest, file.get("content"))
            if action == "move":
                self._existing(file)
                file["exists"] = False
                file["content"] = None
                dest["renamed_from"] = file.get("display") or key
                self.index.graph.add_edge(f"file:{dest_key}", f"file:{key}", kind="renamed_from")
            else:
                return touched
        file["changed"] = True
        if action != "undo":
            file["depth"] = int(file["depth"]) + 1
        self._update_restored(file)
        existed = existed_then if was_changed else file["existed_before"]
        self._record_symbols(op_node, key, op, before if existed is not False else None, file["content"], existed)
        return touched

    # -- contents and symbols -----------------------------------------------------
    def _learn_from_read(
        self, file: dict[str, Any], key: str, op: FileOperation, op_node: str, result: ToolResult, *, single: bool
    ) -> None:
        """Keep what a read showed of the file, and which definitions it showed."""
        # A view from line 1 with no end (`view_range: [1, -1]`) asks for the whole file too.
        whole = (op.start_line or 1) == 1 and op.end_line is None
        window = parse_read_output(result.output, whole_file_hint=whole)
        if window is not None and single:
            if window.is_whole_file:
                file["content"] = window.text()
                file["windows"] = []
            elif file["content"] is None:
                windows = [w for w in file.get("windows", []) if w[0] != window.start]
                file["windows"] = sorted([*windows, [window.start, list(window.lines)]])
            seen = symbols_in_range(window.text(), key, window.start, window.end, first_line=window.start)
        elif file["content"] is not None:
            seen = symbols_in_range(file["content"], key, op.start_line, op.end_line)
        else:
            return
        add_symbols_read(self.index.graph, op_node, key, seen)

    def _known_definitions(self, key: str) -> list[SymbolChange]:
        """Every definition of the file that reads or changes showed and no change removed, as removed."""
        graph = self.index.graph
        out = []
        for _, node, edge in graph.out_edges(f"file:{key}", data=True):
            if edge.get("kind") != "defines":
                continue
            changes = sorted((int(graph.nodes[op]["seq"]), str(e["change"]))
                             for op, _, e in graph.in_edges(node, data=True) if e.get("kind") == "changed")
            if changes and changes[-1][1] != "removed":
                data = graph.nodes[node]
                out.append(SymbolChange(name=data["name"], kind=data["symbol_kind"], container=data["container"],
                                        change="removed"))
        return out

    def _window_holding(self, key: str, *texts: str | None) -> str | None:
        """The text of a partial window of the file that holds one of ``texts``."""
        windows = self.index.graph.nodes[f"file:{key}"].get("windows", [])
        for text in texts:
            if text and text.strip():
                for _, lines in windows:
                    window = "\n".join(lines) + "\n"
                    if text in window:
                        return window
        return None

    def _record_symbols(
        self, op_node: str, key: str, op: FileOperation, before: str | None, after: str | None, existed: bool | None
    ) -> None:
        """The definitions one change added, modified or removed, from what is known."""
        if op.action in ("move", "copy", "undo", "restore", "unknown"):
            return
        if op.action == "delete":
            changes = changed_symbols(before, None, key) if before is not None else self._known_definitions(key)
        elif (before is not None or existed is False) and after is not None:
            changes = changed_symbols(before, after, key)
        elif op.action == "edit" and (op.old is not None or op.new is not None):
            context = before or after or self._window_holding(key, op.new, op.old)
            changes = symbols_in_edit(op.old, op.new, key, context=context)
        elif op.action == "edit" and op.diff:
            old, new = diff_sides(op.diff)
            changes = symbols_in_edit(old, new, key, context=before or after)
        else:
            changes = []
        add_symbol_changes(self.index.graph, op_node, key, changes)

    def _apply_reported(
        self, call: ToolCall, result: ToolResult, cwd: str | None, fresh: set[str], touched: set[str]
    ) -> None:
        """Let the harness's own record of what changed settle creation and deletion."""
        assert result.reported is not None
        for change in result.reported:
            key = self._key(change.path, cwd)
            if key not in touched:
                if self._is_fresh(key):
                    fresh.add(key)
                self._apply(call, _operation_for(change), cwd, result)
            node = self.index.graph.nodes[f"file:{key}"]
            if key in fresh:
                node["existed_before"] = change.change != "created"
            if change.change == "deleted":
                node["exists"] = False
            if change.content is not None and change.change != "deleted":
                self._set_content(node, change.content)
                self._update_restored(node)
            if change.move_to and self._key(change.move_to, cwd) not in touched:
                self._apply(call, FileOperation(action="move", path=change.path, dest=change.move_to), cwd, result)

    # -- file-state helpers ---------------------------------------------------------
    def _key(self, path: str, cwd: str | None) -> str:
        meta = self.index.meta
        return file_key(path, cwd or meta.get("cwd"), meta.get("root"))

    def _is_fresh(self, key: str) -> bool:
        node = self.index.graph.nodes.get(f"file:{key}")
        return node is None or (not node["changed"] and not node["read"] and node["existed_before"] is None)

    def _file(self, key: str, spelled: str, op_node: str) -> dict[str, Any]:
        node = f"file:{key}"
        graph = self.index.graph
        if node not in graph:
            display = spelled if is_absolute(key) and is_absolute(spelled) else None
            graph.add_node(
                node, kind="file", path=key, display=display, first_seq=graph.nodes[op_node]["seq"],
                existed_before=False if self._in_new_directory(key) else None, exists=None, changed=False, read=False, restored=False,
                sources=[], renamed_from=None, depth=0, content=None, original=None, windows=[],
            )
        data: dict[str, Any] = graph.nodes[node]
        return data

    def _in_new_directory(self, key: str) -> bool:
        """Whether ``key`` lies in a directory this session created or emptied (so it cannot predate the session).

        Called when the file is first seen: a file first seen in a directory
        after ``rm -r`` removed it was made after that.
        """
        meta = self.index.meta
        directories = [*meta.get("directories", []), *meta.get("cleared_directories", [])]
        if not directories:
            return False
        root = self.index.meta.get("root")
        full = key if is_absolute(key) or not root else join(root, key)
        return any(full.startswith(d.rstrip("/") + "/") for d in directories)

    @staticmethod
    def _existing(file: dict[str, Any]) -> None:
        if file["existed_before"] is None and not file["changed"]:
            file["existed_before"] = True
        if file["exists"] is None:
            file["exists"] = True

    @staticmethod
    def _add_source(file: dict[str, Any], source: str) -> None:
        if source not in file["sources"]:
            file["sources"] = sorted([*file["sources"], source])

    @staticmethod
    def _set_content(file: dict[str, Any], content: str | None) -> None:
        file["content"] = content

    @staticmethod
    def _edit_content(file: dict[str, Any], op: FileOperation) -> None:
        """Apply an edit to the known content; when it cannot be applied exactly, the content is unknown.

        Without full content, a string replacement is applied to the partial
        windows that hold its old text, so they stay true for later edits.
        """
        content = file.get("content")
        file["content"] = None
        if content is None:
            if op.old and op.new is not None:
                windows = []
                for start, lines in file.get("windows", []):
                    text = "\n".join(lines) + "\n"
                    replaced = _replace(text, op.old, op.new, 1)
                    if replaced is not None:
                        lines = replaced.removesuffix("\n").split("\n")
                    windows.append([start, lines])
                file["windows"] = windows
            return
        if op.old is not None and op.new is not None:
            file["content"] = _replace(content, op.old, op.new, -1 if op.replace_all else 1)
        elif op.diff:
            file["content"] = apply_hunks(content, op.diff)
        elif op.new is not None and op.start_line is not None:
            lines = content.splitlines(keepends=True)
            new_lines = op.new.splitlines(keepends=True)
            if new_lines and not new_lines[-1].endswith("\n"):
                new_lines[-1] += "\n"
            if op.detail == "insert" and 0 <= op.start_line <= len(lines):
                lines[op.start_line:op.start_line] = new_lines
            elif op.end_line is not None and 1 <= op.start_line <= op.end_line + 1 <= len(lines) + 1:
                lines[op.start_line - 1:op.end_line] = new_lines
            else:
                return
            file["content"] = "".join(lines)

    @staticmethod
    def _mark_restored(file: dict[str, Any]) -> None:
        file["restored"] = True
        file["depth"] = 0
        file["exists"] = True
        file["content"] = file.get("original")

    @staticmethod
    def _update_restored(file: dict[str, Any]) -> None:
        original, content = file.get("original"), file.get("content")
        back_to_original = original is not None and content == original
        file["restored"] = bool(file["existed_before"] and file["exists"] and (back_to_original or file["depth"] == 0))

    def _restore_all(self, op_node: str, call_id: str, detail: str | None) -> None:
        """The whole working tree back to HEAD (``git reset --hard``, ``git stash``).

        A stash keeps what it put away, so a later ``git stash pop`` brings
        it back; ``git stash -u`` also puts away the files the session created.
        """
        stash = self._stash_entry(call_id) if _is_stash(detail) else None
        untracked = detail == STASHED_WITH_UNTRACKED
        for node, data in list(self.index.nodes_of_kind("file")):
            if data["changed"] and data["existed_before"] is not False:
                if stash is not None:
                    stash[str(data["path"])] = _snapshot(data)
                self._mark_restored(data)
            elif stash is not None and untracked and data["existed_before"] is False and data["exists"]:
                stash[str(data["path"])] = _snapshot(data)
                data["exists"] = False
                data["content"] = None
            else:
                continue
            self.index.graph.add_edge(op_node, node, kind="touched", action="restore")

    def _stash_entry(self, call_id: str) -> dict[str, Any]:
        """The files of the stash ``call_id`` makes (one command may stash path by path)."""
        stashes: list[dict[str, Any]] = self.index.meta.setdefault("stashes", [])
        if not stashes or stashes[-1]["call_id"] != call_id:
            stashes.append({"call_id": call_id, "files": {}})
        files: dict[str, Any] = stashes[-1]["files"]
        return files

    def _unstash(self, op_node: str, detail: str | None) -> set[str]:
        """``git stash pop`` / ``apply`` bring the latest stash back; ``drop`` / ``clear`` forget it."""
        stashes: list[dict[str, Any]] = self.index.meta.setdefault("stashes", [])
        if detail == "clear":
            stashes.clear()
            return set()
        if not stashes:
            # A stash made before the session: what it holds is not known.
            self.index.graph.nodes[op_node].update(
                action="unknown", detail=f"git stash {detail} brings back a stash from before the session")
            return set()
        entry = stashes[-1] if detail == "apply" else stashes.pop()
        if detail == "drop":
            return set()
        touched = set()
        for key, saved in entry["files"].items():
            node = f"file:{key}"
            if node in self.index.graph:
                self.index.graph.nodes[node].update(saved)
                self.index.graph.add_edge(op_node, node, kind="touched", action="unstash")
                touched.add(key)
        return touched

    def _add_operation(self, call: ToolCall, op: FileOperation, status: str, result: ToolResult) -> str:
        meta = self.index.meta
        meta["op_count"] += 1
        seq = meta["op_count"]
        node = f"op:{seq}"
        self.index.graph.add_node(
            node, kind="operation", seq=seq, turn=call.turn, call_id=call.call_id, tool=call.tool,
            action=op.action, source=op.source, result=status,
            failure=result.failure if status == "failure" else None,
            command=op.command if op.source != "tool" else None,
            detail=op.detail, dest=op.dest, sidechain=call.sidechain,
        )
        if call.turn:
            self.index.graph.add_edge(f"turn:{call.turn}", node, kind="performed")
        return node

    # -- ShellContext -------------------------------------------------------------
    def content_of(self, path: str) -> str | None:
        scratch = self.index.meta.get("scratch", {})
        if path in scratch:
            return str(scratch[path])
        node = self.index.graph.nodes.get(f"file:{self._key(path, None)}")
        return node.get("content") if node else None

    def is_directory(self, path: str) -> bool | None:
        """True for a directory the session made or holds tracked files, False for an existing file."""
        key = self._key(path, None).rstrip("/")
        node = self.index.graph.nodes.get(f"file:{key}")
        if node is not None and node.get("exists") is not False:
            return False
        if path.rstrip("/") in self.index.meta.get("directories", []) or key in self.index.meta.get(
                "listed_directories", []):
            return True
        if self.index.graph.has_files_under(key):
            return True
        return None

    def existed_before(self, path: str) -> bool | None:
        """Whether the file predates the session, as far as the trail says."""
        node = self.index.graph.nodes.get(f"file:{self._key(path, None)}")
        value = node.get("existed_before") if node else None
        return value if isinstance(value, bool) else None

    def files_under(self, directory: str) -> list[str]:
        prefix = self._key(directory, None).rstrip("/") + "/"
        root = self.index.meta.get("root")
        graph = self.index.graph
        files = graph.nodes_of_kind("file") if prefix == "./" else graph.files_under(prefix[:-1])
        out = []
        for _, data in files:
            key = str(data["path"])
            if data.get("exists") is not False:
                out.append(key if is_absolute(key) or not root else join(root, key))
        return out

    def pending_calls(self) -> list[dict[str, Any]]:
        """Calls still waiting for a result (their operations are not applied)."""
        return [dict(p["call"]) for p in self.index.meta["pending"].values()]


def event_identity(event: Event) -> str:
    """What makes two events the same event, as a short digest.

    A tool call or result is its call id where it stands (turn, line,
    sub-agent, time): some models reuse ids like ``call_0`` in later
    responses, and those are different calls.  Any other event is its whole
    content.
    """
    if isinstance(event, ToolCall | ToolResult):
        key = f"{event.kind}\0{event.call_id}\0{event.turn}\0{event.line}\0{event.sidechain}\0{event.timestamp}"
    else:
        key = event.model_dump_json()
    return hashlib.blake2b(key.encode(), digest_size=12).hexdigest()


def _replace(content: str, old: str, new: str, count: int) -> str | None:
    """``content`` with ``old`` replaced by ``new``, or None when ``old`` is not in it.

    A resumed state holds contents redacted (see :mod:`artifact_index.redaction`);
    an edit of a line that held a secret then matches once redacted the same way.
    """
    if old in content:
        return content.replace(old, new, count)
    redacted_old = redact_text(old)
    if redacted_old != old and redacted_old in content:
        return content.replace(redacted_old, redact_text(new), count)
    return None


_STASHED_FIELDS = ("exists", "changed", "restored", "depth", "content", "windows")


def _is_stash(detail: str | None) -> bool:
    """Whether a restore is a ``git stash``."""
    return detail in (STASHED, STASHED_WITH_UNTRACKED)


def _snapshot(file: dict[str, Any]) -> dict[str, Any]:
    """What ``git stash`` puts away of a file: enough to bring its state back."""
    return {name: file.get(name) for name in _STASHED_FIELDS}


def _operation_for(change: ReportedChange) -> FileOperation:
    action = {"created": "create", "modified": "edit", "deleted": "delete"}[change.change]
    return FileOperation(action=action, path=change.path, content=change.content)
