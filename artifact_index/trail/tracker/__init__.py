"""The incremental tracker: events in, artifact index out.

:meth:`Tracker.feed` takes one normalized event at a time and updates the
:class:`~artifact_index.trail.index.ArtifactIndex` graph.  A tool call's
operations are applied when its result arrives, because only the result
says whether they happened: a failed or rejected edit is recorded but never
changes a file.  Everything the tracker needs to continue (the graph, the
calls still waiting for a result, the current directory) lives in the index,
so :meth:`Tracker.save` / :meth:`Tracker.resume` continue a live session
without re-reading it.  Feeding is idempotent by event identity: an event
fed again (a live reader that re-sends the tail of a file, a batch replayed
after a resume) changes nothing.

The tracker's parts: :mod:`.file_state` (what is known of one file and how
each change moves it), :mod:`.symbol_trail` (the definitions reads showed and
changes touched), :mod:`.shell_calls` (a shell command's effects and what it
tells the git and work-state models), :mod:`.stash` (``git reset --hard`` and
``git stash``), :mod:`.messages` (requests, compactions, decisions) and
:mod:`.identity` (when two events are the same).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import Any

from artifact_index.facts.tasks import Task, apply_task_call, reads_task_list
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
from artifact_index.trail.annotations import add_error_node, link_error_symbol
from artifact_index.trail.contents import is_directory_listing
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.paths import file_key, is_absolute, join
from artifact_index.trail.submission import GitModel
from artifact_index.trail.tracker.attribution import judge, note_call, record_seen
from artifact_index.trail.tracker.file_state import (
    add_source,
    edit_content,
    is_stash,
    mark_existing,
    mark_restored,
    new_file,
    set_content,
    snapshot,
    update_restored,
)
from artifact_index.trail.tracker.identity import event_identity
from artifact_index.trail.tracker.messages import MessageRecorder
from artifact_index.trail.tracker.shell_calls import (
    PERSISTENT_SHELL_FORMATS,
    ShellRun,
    analyze_shell,
    follow_shell,
)
from artifact_index.trail.tracker.stash import restore_all, stash_entry, unstash
from artifact_index.trail.tracker.symbol_trail import learn_from_read, record_symbols, symbol_in
from artifact_index.trail.verification import record_check_runs

__all__ = ["PERSISTENT_SHELL_FORMATS", "Tracker", "event_identity"]

# Failures that prove the file existed when the call was made.
_FAILURES_PROVING_EXISTENCE = frozenset({"not_read", "not_found", "not_unique", "stale"})


class Tracker:
    """Feeds events into an :class:`ArtifactIndex`, one at a time."""

    def __init__(self, index: ArtifactIndex | None = None, *, format: str | None = None) -> None:
        self.index = index if index is not None else ArtifactIndex()
        self._originals: dict[str, str] = {}
        self._messages = MessageRecorder(self.index)
        # The calls waiting for their result, as fed (``meta["pending"]`` holds them as JSON, for saving).
        self._calls: dict[str, ToolCall] = {}
        # Path lists of ``meta`` as sets: the list each was made from, its length then, the set.
        self._directory_sets: dict[str, tuple[list[str], int, frozenset[str]]] = {}
        self._turn_touched: int | None = None  # the turn whose node the last event made sure of
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

    def feed(self, event: Event, *, identity: str | None = None) -> None:
        """Apply one event, unless an event with the same identity was fed before.

        ``identity``: the identity the event had when first fed, for an event
        replayed from a redacted record (see :mod:`artifact_index.trail.saved_state`).
        """
        meta = self.index.meta
        identity = identity or event_identity(event)
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
            self._calls[event.call_id] = event
        elif isinstance(event, ToolResult):
            pending = meta["pending"].pop(event.call_id, None)
            if pending is None:
                meta["orphan_results"] += 1
                return
            # A call fed before a resume is known only from the saved state.
            call = self._calls.pop(event.call_id, None) or ToolCall.model_validate(pending["call"])
            self._apply_call(call, pending["cwd"], event)
        elif isinstance(event, UserMessage | AssistantMessage | CompactionBoundary):
            self._messages.record(event)
            if isinstance(event, AssistantMessage) and event.text.strip():
                self.index.ledger.agent_said(
                    event.text, event.turn, lambda path: self._changed(path, None)
                )
        elif isinstance(event, Submission):
            cwd = join(meta.get("cwd"), event.cwd) if event.cwd else meta.get("cwd")
            GitModel(self.index).submit(event.command, cwd, event.turn, event.exit_status)

    def _touch_turn(self, turn: int) -> None:
        # Events come a turn at a time, and no turn node is ever taken out of the graph.
        if turn == self._turn_touched:
            return
        node = f"turn:{turn}"
        if turn and node not in self.index.fed_graph:
            self.index.fed_graph.add_node(node, kind="turn", turn=turn)
        self._turn_touched = turn

    # -- tool calls -----------------------------------------------------------------
    def _apply_call(self, call: ToolCall, cwd: str | None, result: ToolResult) -> None:
        # What the harness says the files held before the call is known
        # content from the start, so the call's edits apply to it.
        self._originals = {
            self._key(change.path, cwd): change.original
            for change in (result.reported or ())
            if change.original is not None and result.status != "failure"
        }
        fresh = {key for key in self._keys_of(call.operations, cwd) if self._is_fresh(key)}
        touched: set[str] = set()
        named: dict[str, str] = {}
        open_effects = False
        for op in call.operations:
            if op.action == "shell":
                shell_touched, run = self._apply_shell(call, op, cwd, result)
                touched |= shell_touched
                named |= self._named(run.effects, run.cwd)
                named |= {self._key(directory, run.cwd): "delete" for directory in run.cleared}
                open_effects = open_effects or bool(run.opaque) or _opens(run.effects)
            else:
                touched |= self._apply(call, op, cwd, result)
                named |= self._named([op], cwd)
                open_effects = open_effects or _opens([op])
        if result.status != "failure":
            note_call(self.index.meta, call.call_id, call.turn, named, open_effects)
        if result.status != "failure" and result.reported:
            self._apply_reported(call, result, cwd, fresh, touched)
        if result.status != "failure":
            self._update_tasks(call, result)
        self._observe_errors(call, cwd, result)

    def _observe_errors(self, call: ToolCall, cwd: str | None, result: ToolResult) -> None:
        """Feed the result to the error ledger; link new errors to their file in the graph."""
        commands = [op.command for op in call.operations if op.action == "shell" and op.command]
        succeeded = {"success": True, "failure": False}.get(result.status)
        touched = self.index.ledger.observe(
            call.turn,
            commands[0] if commands else None,
            call.tool,
            result.output,
            succeeded,
            call.call_id,
            result.failure,
        )
        self.index.ledger.class_new_findings(
            touched, call.call_id, lambda path: self._changed(path, cwd)
        )
        if commands:
            record_check_runs(
                self.index.meta,
                commands[0],
                call.turn,
                passed=succeeded is True and not touched,
                errors=[entry.signature for entry in touched],
            )
        graph = self.index.fed_graph
        for entry in touched:
            node = f"error:{entry.signature}"
            if node in graph:
                continue
            key = self._key(entry.file, cwd) if entry.file else None
            attributes = {
                "message": entry.message,
                "kind": entry.kind,
                "line": entry.line,
                "symbol": entry.symbol,
            }
            add_error_node(graph, entry.signature, attributes, key)
            if key is not None and f"file:{key}" in graph:
                # Which definition holds the error (from the file as it is now) and the symbol
                # node it names (among those known now) are found when symbols are asked for.
                content = graph.nodes[f"file:{key}"].get("content")
                self.index.defer(
                    partial(self._place_error, node, entry.signature, key, content, entry.line)
                )

    def _place_error(
        self, node: str, signature: str, key: str, content: str | None, line: int | None
    ) -> None:
        graph = self.index.fed_graph
        attributes = graph.nodes[node]
        if not attributes["symbol"]:
            symbol = symbol_in(content, key, line)
            if symbol:
                self.index.meta.setdefault("error_symbols", {})[signature] = symbol
                attributes["symbol"] = symbol
        link_error_symbol(graph, node, attributes, key)

    def _update_tasks(self, call: ToolCall, result: ToolResult) -> None:
        # Each agent keeps its own list: a sub-agent's plan never replaces the
        # main agent's (see ArtifactIndex.tasks for which one is shown).
        meta = self.index.meta
        lists: dict[str, list[dict[str, Any]]] = meta.setdefault("task_lists", {})
        agent = call.sidechain or ""
        # Most calls are no task call: the saved list is read back only for the calls that edit it.
        current = (
            [Task.model_validate(t) for t in lists.get(agent, [])]
            if reads_task_list(call.tool)
            else []
        )
        updated = apply_task_call(current, call.tool, call.arguments, call.turn, result.output)
        if updated is None:
            return
        lists[agent] = [t.model_dump() for t in updated]

    def _keys_of(self, ops: Iterable[FileOperation], cwd: str | None) -> list[str]:
        keys = []
        for op in ops:
            for path in (op.path, op.dest):
                if path:
                    keys.append(self._key(path, op.cwd or cwd))
        return keys

    def _named(self, ops: Iterable[FileOperation], cwd: str | None) -> dict[str, str]:
        """The files ``ops`` name (key -> action), reads left out."""
        named: dict[str, str] = {}
        for op in ops:
            if op.action == "read":
                continue
            for path in (op.path, op.dest):
                if path:
                    named[self._key(path, op.cwd or cwd)] = op.action
        return named

    def _apply_shell(
        self, call: ToolCall, op: FileOperation, cwd: str | None, result: ToolResult
    ) -> tuple[set[str], ShellRun]:
        run = analyze_shell(self.index, self, op, cwd, result)
        touched: set[str] = set()
        for effect in run.effects:
            touched |= self._apply(
                call, effect, run.cwd, result, forced_ok=True, single_read=run.lone_read
            )
        follow_shell(self.index, op, run, result.output, call.turn)
        return touched, run

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
                restore_all(self.index, op_node, call.call_id, op.detail)
            return set()
        if op.action == "unstash":
            return unstash(self.index, op_node, op.detail) if status != "failure" else set()
        assert op.path is not None
        key = self._key(op.path, op.cwd or cwd)
        if op.action == "read" and status != "failure" and is_directory_listing(result.output):
            # The path was a directory: the tool listed it, no file was read.
            listed = self.index.meta.setdefault("listed_directories", [])
            if key not in listed:
                listed.append(key)
            return set()
        file = self._file(key, op.path, op_node)
        self.index.fed_graph.add_edge(op_node, f"file:{key}", kind="touched", action=op.action)
        if status == "failure":
            if (
                op.action == "edit"
                and result.failure in _FAILURES_PROVING_EXISTENCE
                and self._is_fresh(key)
            ):
                file["existed_before"] = True
            return {key}
        touched = {key}
        action = op.action
        if action == "read":
            mark_existing(file)
            file["read"] = True
            add_source(file, op.source)
            single = single_read if single_read is not None else len(call.operations) == 1
            learn_from_read(self.index, file, key, op, op_node, result.output, single=single)
            return touched
        add_source(file, op.source)
        if file["content"] is None and key in self._originals:
            file["content"] = self._originals.pop(key)
        if not file["changed"]:
            file["original"] = file["content"]
        before, was_changed, existed_then = file["content"], file["changed"], file["exists"]
        if action in ("write", "create"):
            if file["existed_before"] is None and not file["changed"] and not file["read"]:
                file["existed_before"] = False
            set_content(file, op.content)
            file["exists"] = True
        elif action == "edit":
            mark_existing(file)
            file["exists"] = True
            edit_content(file, op)
        elif action == "delete":
            mark_existing(file)
            file["exists"] = False
            file["content"] = None
        elif action == "undo":
            mark_existing(file)
            file["depth"] = max(0, int(file["depth"]) - 1)
            if file["depth"] == 0:
                file["content"] = file["original"]
        elif action == "restore":
            # Restoring a file the session never changed, or one it created
            # (untracked by git), changes nothing.
            if file["changed"] and file["existed_before"] is not False:
                if is_stash(op.detail):
                    stash_entry(self.index.meta, call.call_id)[key] = snapshot(file)
                mark_restored(file)
            return touched
        elif action in ("move", "copy") and op.dest:
            dest_key = self._key(op.dest, op.cwd or cwd)
            touched.add(dest_key)
            dest = self._file(dest_key, op.dest, op_node)
            self.index.fed_graph.add_edge(
                op_node, f"file:{dest_key}", kind="touched", action=op.action, role="dest"
            )
            add_source(dest, op.source)
            if dest["existed_before"] is None and not dest["changed"] and not dest["read"]:
                dest["existed_before"] = False
            dest["exists"] = True
            dest["changed"] = True
            dest["depth"] = int(dest["depth"]) + 1
            set_content(dest, file.get("content"))
            if action == "move":
                mark_existing(file)
                file["exists"] = False
                file["content"] = None
                dest["renamed_from"] = file.get("display") or key
                self.index.fed_graph.add_edge(
                    f"file:{dest_key}", f"file:{key}", kind="renamed_from"
                )
            else:
                return touched
        file["changed"] = True
        if action != "undo":
            file["depth"] = int(file["depth"]) + 1
        update_restored(file)
        existed = existed_then if was_changed else file["existed_before"]
        record_symbols(
            self.index,
            op_node,
            key,
            op,
            before if existed is not False else None,
            file["content"],
            existed,
        )
        return touched

    def _apply_reported(
        self,
        call: ToolCall,
        result: ToolResult,
        cwd: str | None,
        fresh: set[str],
        touched: set[str],
    ) -> None:
        """Let the harness's own record of what changed settle creation and deletion."""
        assert result.reported is not None
        for change in result.reported:
            key = self._key(change.path, cwd)
            if change.seen_during is not None:
                self._apply_seen(call, change, key, cwd, result, fresh)
                continue
            if key not in touched:
                if self._is_fresh(key):
                    fresh.add(key)
                self._apply(call, _operation_for(change), cwd, result)
            node = self.index.fed_graph.nodes[f"file:{key}"]
            if key in fresh:
                node["existed_before"] = change.change != "created"
            if change.change == "deleted":
                node["exists"] = False
            if change.content is not None and change.change != "deleted":
                set_content(node, change.content)
                update_restored(node)
            if change.move_to and self._key(change.move_to, cwd) not in touched:
                self._apply(
                    call,
                    FileOperation(action="move", path=change.path, dest=change.move_to),
                    cwd,
                    result,
                )

    def _apply_seen(
        self,
        call: ToolCall,
        change: ReportedChange,
        key: str,
        cwd: str | None,
        result: ToolResult,
        fresh: set[str],
    ) -> None:
        """A change seen in the working tree while other calls ran: the session's only if one could make it."""
        assert change.seen_during is not None
        verdict = judge(
            self.index.meta, change.seen_during, key, self.is_directory(change.path) is True
        )
        if verdict in ("made", "directory"):
            return  # the call that made it recorded it; a directory's files are judged apart
        if verdict == "seen":
            node = self.index.fed_graph.nodes.get(f"file:{key}")
            if not (node and node.get("changed")):
                record_seen(
                    self.index.meta,
                    key,
                    call.turn,
                    call.call_id,
                    change.change,
                    "changed in the working tree during this step; no call of the session could"
                    " have made it",
                )
            return
        seen = change.model_copy(update={"seen_during": None})
        if verdict == "deleted":
            seen = seen.model_copy(update={"change": "deleted"})
        if self._is_fresh(key):
            fresh.add(key)
        self._apply(call, _operation_for(seen), cwd, result)
        node = self.index.fed_graph.nodes[f"file:{key}"]
        if key in fresh:
            node["existed_before"] = seen.change != "created"
        if seen.change == "deleted":
            node["exists"] = False

    # -- file-state helpers ---------------------------------------------------------
    def _key(self, path: str, cwd: str | None) -> str:
        meta = self.index.meta
        return file_key(path, cwd or meta.get("cwd"), meta.get("root"))

    def _changed(self, path: str, cwd: str | None) -> bool:
        """Whether the session has changed the file ``path`` names (as a tool's output spells it) so far."""
        node = self.index.fed_graph.nodes.get(f"file:{self._key(path, cwd)}")
        return bool(node and node.get("changed"))

    def _is_fresh(self, key: str) -> bool:
        node = self.index.fed_graph.nodes.get(f"file:{key}")
        return node is None or (
            not node["changed"] and not node["read"] and node["existed_before"] is None
        )

    def _file(self, key: str, spelled: str, op_node: str) -> dict[str, Any]:
        node = f"file:{key}"
        graph = self.index.fed_graph
        if node not in graph:
            display = spelled if is_absolute(key) and is_absolute(spelled) else None
            existed_before = False if self._in_new_directory(key) else None
            graph.add_node(
                node, **new_file(key, display, graph.nodes[op_node]["seq"], existed_before)
            )
        data: dict[str, Any] = graph.nodes[node]
        return data

    def _in_new_directory(self, key: str) -> bool:
        """Whether ``key`` lies in a directory this session created or emptied (so it cannot predate the session).

        Called when the file is first seen: a file first seen in a directory
        after ``rm -r`` removed it was made after that.
        """
        made, cleared = self._directories("directories"), self._directories("cleared_directories")
        if not made and not cleared:
            return False
        root = self.index.meta.get("root")
        full = key if is_absolute(key) or not root else join(root, key)
        # Each directory above ``full`` is the text before one of its slashes ("" for "/").
        for slash in _slashes(full):
            above = full[:slash]
            if above in made or above in cleared:
                return True
        return False

    def _directories(self, name: str) -> frozenset[str]:
        """The directories listed in ``meta[name]``, trailing slashes dropped."""
        return self._listed(name, strip=True)

    def _listed(self, name: str, *, strip: bool = False) -> frozenset[str]:
        """``meta[name]``, a list of paths, as a set; rebuilt only when the list changed.

        The lists only grow, replaced whole or appended to, and the one a set
        was made from is held, so its identity cannot pass to another list.
        """
        listed = self.index.meta.get(name, [])
        kept = self._directory_sets.get(f"{name}:{strip}")
        if kept is None or kept[0] is not listed or kept[1] != len(listed):
            entries = (
                frozenset(entry.rstrip("/") for entry in listed) if strip else frozenset(listed)
            )
            kept = (listed, len(listed), entries)
            self._directory_sets[f"{name}:{strip}"] = kept
        return kept[2]

    def _add_operation(
        self, call: ToolCall, op: FileOperation, status: str, result: ToolResult
    ) -> str:
        meta = self.index.meta
        meta["op_count"] += 1
        seq = meta["op_count"]
        node = f"op:{seq}"
        self.index.fed_graph.add_node(
            node,
            kind="operation",
            seq=seq,
            turn=call.turn,
            call_id=call.call_id,
            tool=call.tool,
            action=op.action,
            source=op.source,
            result=status,
            failure=result.failure if status == "failure" else None,
            command=op.command if op.source != "tool" else None,
            detail=op.detail,
            dest=op.dest,
            sidechain=call.sidechain,
        )
        if call.turn:
            self.index.fed_graph.add_edge(f"turn:{call.turn}", node, kind="performed")
        return node

    # -- ShellContext -------------------------------------------------------------
    def content_of(self, path: str) -> str | None:
        scratch = self.index.meta.get("scratch", {})
        if path in scratch:
            return str(scratch[path])
        node = self.index.fed_graph.nodes.get(f"file:{self._key(path, None)}")
        return node.get("content") if node else None

    def is_directory(self, path: str) -> bool | None:
        """True for a directory the session made or holds tracked files, False for an existing file."""
        key = self._key(path, None).rstrip("/")
        node = self.index.fed_graph.nodes.get(f"file:{key}")
        if node is not None and node.get("exists") is not False:
            return False
        if path.rstrip("/") in self._listed("directories") or key in self._listed(
            "listed_directories"
        ):
            return True
        if self.index.fed_graph.has_files_under(key):
            return True
        return None

    def existed_before(self, path: str) -> bool | None:
        """Whether the file predates the session, as far as the trail says."""
        node = self.index.fed_graph.nodes.get(f"file:{self._key(path, None)}")
        value = node.get("existed_before") if node else None
        return value if isinstance(value, bool) else None

    def files_under(self, directory: str) -> list[str]:
        prefix = self._key(directory, None).rstrip("/") + "/"
        root = self.index.meta.get("root")
        graph = self.index.fed_graph
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


def _opens(ops: Iterable[FileOperation]) -> bool:
    """Whether ``ops`` hold a shell effect on files they cannot name.

    A tool's own unknown effect (a sub-agent whose calls are in another
    session) does not count: what it changed is that session's to say.
    """
    return any(op.action == "unknown" and op.path is None and op.source == "shell" for op in ops)


def _operation_for(change: ReportedChange) -> FileOperation:
    action = {"created": "create", "modified": "edit", "deleted": "delete"}[change.change]
    return FileOperation(action=action, path=change.path, content=change.content)


def _slashes(path: str) -> list[int]:
    """The offsets of the slashes in ``path``."""
    return [offset for offset, char in enumerate(path) if char == "/"]
