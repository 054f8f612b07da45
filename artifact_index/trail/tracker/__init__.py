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

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from itertools import islice

from artifact_index.facts.errors.checks import checks_in
from artifact_index.facts.tasks import SHARED_LIST_TOOLS, apply_task_call, reads_task_list
from artifact_index.ingestion.events import (
    POLLED_COMMAND,
    PRINTED_BEFORE,
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
    one_after_another,
)
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.git import STARTER_FILE, credited_to_sub_agent, settled_by_status
from artifact_index.shell.state import ComparedTree, home_of
from artifact_index.trail.annotations import ErrorAttributes, add_error_node, link_error_symbol
from artifact_index.trail.contents import is_directory_listing
from artifact_index.trail.edit_shapes import edit_shape
from artifact_index.trail.file_state import FileState, is_stash
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.latest_writes import LatestWrite, shows_text, written_text
from artifact_index.trail.paths import file_key, is_absolute, join
from artifact_index.trail.scaffolds import scaffold_before, settles_scaffolds
from artifact_index.trail.session_state import PendingCall, PossibleChange, SeenChange
from artifact_index.trail.submission import GitModel
from artifact_index.trail.tracker.attribution import judge, note_call, record_seen
from artifact_index.trail.tracker.identity import event_identity
from artifact_index.trail.tracker.messages import MessageRecorder
from artifact_index.trail.tracker.shell_calls import (
    PERSISTENT_SHELL_FORMATS,
    ShellRun,
    analyze_shell,
    follow_shell,
)
from artifact_index.trail.tracker.stash import restore_all, stash_entry, unstash
from artifact_index.trail.tracker.sub_agent_reports import reported_created
from artifact_index.trail.tracker.symbol_trail import learn_from_read, record_symbols, symbol_in
from artifact_index.trail.unseen_sub_agents import (
    note_sub_agent_call,
    note_sub_agent_notices,
    sub_agent_naming,
)
from artifact_index.trail.verification import record_check_runs

__all__ = ["PERSISTENT_SHELL_FORMATS", "Tracker", "event_identity"]

# Failures that prove the file existed when the call was made.
_FAILURES_PROVING_EXISTENCE = frozenset({"not_read", "not_found", "not_unique", "stale"})
# A file tool's read refused because the file is not there (Claude Code's words, a shell's).
_READ_FOUND_NOTHING = lazy_pattern(r"^(?:File does not exist\.|.*No such file or directory)", re.M)
# A session id this long (a UUID's 36) names only this session's folders.
_DISTINCT_ID_LENGTH = 16
# Files kept for a later `git status` to settle: a session of a thousand installs keeps the first.
_MAX_POSSIBLE_CHANGES = 200


class Tracker:
    """Feeds events into an :class:`ArtifactIndex`, one at a time."""

    def __init__(self, index: ArtifactIndex | None = None, *, format: str | None = None) -> None:
        self.index = index if index is not None else ArtifactIndex()
        self._originals: dict[str, str] = {}
        self._messages = MessageRecorder(self.index)
        # Path lists of the session state as sets: the list each was made from, its length then, the set.
        self._directory_sets: dict[str, tuple[list[str], int, frozenset[str]]] = {}
        self._seen_created_set: tuple[list[SeenChange], int, frozenset[str]] | None = None
        self._turn_touched: int | None = None  # the turn whose node the last event made sure of
        # The homes the session's file paths lie in, from its files counted so far (see `home`).
        self._homes: tuple[int, set[str]] = (0, set())
        if format is not None:
            self.index.session.format = format
        self._seen: set[str] = set(self.index.session.seen_events)

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
        session = self.index.session
        identity = identity or event_identity(event)
        if identity in self._seen:
            return
        self._seen.add(identity)
        session.seen_events.append(identity)
        session.events += 1
        self._touch_turn(event.turn)
        if isinstance(event, SessionInfo):
            if event.cwd and not session.root:
                session.root = join(None, event.cwd)
            if event.cwd:
                session.cwd = join(None, event.cwd)
            if event.session_id and not session.session_id:
                session.session_id = event.session_id
            if event.model and not session.model:
                session.model = event.model
            if event.agent and not session.agent:
                session.agent = event.agent
            if event.version and not session.version:
                session.version = event.version
        elif isinstance(event, WorkingDirectory):
            session.cwd = join(session.cwd, event.cwd)
            if not session.root:
                session.root = session.cwd
        elif isinstance(event, ToolCall):
            session.pending[event.call_id] = PendingCall(call=event, cwd=session.cwd)
        elif isinstance(event, ToolResult):
            pending = session.pending.pop(event.call_id, None)
            if pending is None:
                session.orphan_results += 1
                return
            self._apply_call(pending.call, pending.cwd, event)
        elif isinstance(event, UserMessage | AssistantMessage | CompactionBoundary):
            self._messages.record(event)
            if isinstance(event, UserMessage):
                note_sub_agent_notices(session, event)
            if isinstance(event, AssistantMessage) and event.text.strip():
                self.index.ledger.agent_said(
                    event.text, event.turn, lambda path: self._changed(path, None)
                )
        elif isinstance(event, Submission):
            cwd = join(session.cwd, event.cwd) if event.cwd else session.cwd
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
                self._note_latest_write(call, op, cwd, result)
                named |= self._named([op], cwd)
                open_effects = open_effects or _opens([op])
        if result.status != "failure":
            note_call(self.index.session, call.call_id, call.turn, named, open_effects)
        elif result.failure == "exit_status":
            # A command that ran and then exited non-zero may have written before
            # it failed (a fixer's format pass, then its lint errors): what it
            # named or could have changed stays a possible cause of a change the
            # harness saw during the step, though the call itself records none.
            maybe = dict.fromkeys(named, "unknown")
            note_call(self.index.session, call.call_id, call.turn, maybe, open_effects)
        if result.status != "failure" and result.reported:
            self._apply_reported(call, result, cwd, fresh, touched)
        if result.status != "failure" and result.unnamed_changes:
            self._note_unnamed_changes(call, result, cwd)
        if result.status == "success" and call.sidechain is None:
            self._apply_sub_agent_report(call, cwd, result)
        note_sub_agent_call(self.index.session, call, result)
        if result.status != "failure":
            self._update_tasks(call, result)
        self._observe_errors(call, cwd, result)

    def _apply_sub_agent_report(self, call: ToolCall, cwd: str | None, result: ToolResult) -> None:
        """The files a sub-agent reports it created at the prompt's request, when the trail knows nothing of them yet.

        Told as its report says, not as seen: the operation's result is ``unknown``.
        """
        for path in reported_created(call, result.output or ""):
            if not self._is_fresh(self._key(path, cwd)):
                continue
            op = FileOperation(
                action="create", path=path, detail="the sub-agent's report says it created it"
            )
            self._apply(call, op, cwd, result.model_copy(update={"status": "unknown"}))

    def _note_latest_write(
        self, call: ToolCall, op: FileOperation, cwd: str | None, result: ToolResult
    ) -> None:
        """Keep the text a main-agent change by a file tool wrote as its file's latest (see trail.latest_writes)."""
        if call.sidechain is not None or result.status == "failure" or not shows_text(op):
            return
        assert op.path is not None  # shows_text: a change names its file
        file = self.index.file_state(self._key(op.path, op.cwd or cwd))
        if file is not None:
            file.wrote(LatestWrite(turn=call.turn, text=written_text(op)))

    def _observe_errors(self, call: ToolCall, cwd: str | None, result: ToolResult) -> None:
        """Feed the result to the error ledger; link new errors to their file in the graph."""
        commands = [op.command for op in call.operations if op.action == "shell" and op.command]
        polled = call.arguments.get(POLLED_COMMAND)
        if not commands and isinstance(polled, str):
            commands = [polled]  # a poll of a running command: its output is that command's
        # A call that runs several commands (a Codex code cell's `Promise.all`) prints all their
        # output as one: it is their run, one after the other, not its first command's alone, or
        # the linter passing later on its own would pass the tests that failed beside it.
        command = one_after_another(commands) if commands else None
        succeeded = {"success": True, "failure": False}.get(result.status)
        if result.running and command is not None and checks_in(command):
            # A check still running has not passed yet (a server still running has started).
            succeeded = None
        before = call.arguments.get(PRINTED_BEFORE) if isinstance(polled, str) else None
        touched = self.index.ledger.observe(
            call.turn,
            command,
            call.tool,
            result.output,
            succeeded,
            call.call_id,
            result.failure,
            printed_before=before if isinstance(before, str) else "",
        )
        self.index.ledger.class_new_findings(
            touched, call.call_id, lambda path: self._changed(path, cwd)
        )
        runs = self.index.ledger.failed_runs
        # A failure the ledger took for no error (a filter's "no match" ending the pipe, a refusal):
        # how the check itself ended is not seen.
        not_an_error = (
            bool(runs) and runs[-1].call_id == call.call_id and runs[-1].outcome == "noise"
        )
        if command is not None:
            record_check_runs(
                self.index.session,
                command,
                call.turn,
                # A result with no status and no errors seen: how the run ended is not recorded.
                passed=None
                if (succeeded is None or not_an_error) and not touched
                else succeeded is True and not touched,
                errors=[entry.signature for entry in touched],
                output=result.output,
            )
        graph = self.index.fed_graph
        for entry in touched:
            node = f"error:{entry.signature}"
            if node in graph:
                continue
            key = self._key(entry.file, cwd) if entry.file else None
            attributes: ErrorAttributes = {
                "message": entry.message,
                "kind": entry.kind,
                "line": entry.line,
                "symbol": entry.symbol,
            }
            add_error_node(graph, entry.signature, attributes, key)
            file = self.index.file_state(key) if key is not None else None
            if key is not None and file is not None:
                # Which definition holds the error (from the file as it is now) and the symbol
                # node it names (among those known now) are found when symbols are asked for.
                content = file.content
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
                self.index.session.error_symbols[signature] = symbol
                attributes["symbol"] = symbol
        link_error_symbol(graph, node, attributes, key)

    def _update_tasks(self, call: ToolCall, result: ToolResult) -> None:
        # Each agent keeps its own list: a sub-agent's plan never replaces the
        # main agent's (see ArtifactIndex.tasks for which one is shown).
        lists = self.index.session.task_lists
        # ...except the list the task tools keep, which sub-agents update for the main agent.
        agent = "" if call.tool.lower() in SHARED_LIST_TOOLS else call.sidechain or ""
        # Most calls are no task call: only those that edit the list are given it.
        current = list(lists.get(agent, [])) if reads_task_list(call.tool, call.arguments) else []
        updated = apply_task_call(current, call.tool, call.arguments, call.turn, result.output)
        if updated is None:
            return
        lists[agent] = updated

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
        session = self.index.session
        emptied_before = self._listed(
            session.cleared_directories, "cleared_directories", strip=True
        )
        run = analyze_shell(self.index, self, op, cwd, result, call.turn)
        touched: set[str] = set()
        for effect in run.effects:
            # A command that never started is a failed attempt at each of its effects.
            touched |= self._apply(
                call, effect, run.cwd, result, forced_ok=run.started, single_read=run.lone_read
            )
        if run.started:
            self._refill(run, emptied_before)
        if session.scaffolded_trees and settles_scaffolds(op.command or "", run.cwd):
            session.scaffolded_trees = {}
        if run.started:
            # One refused or cancelled before it started staged nothing and moved no shell.
            follow_shell(self.index, op, run, result.output, call.turn)
        return touched, run

    def _refill(self, run: ShellRun, emptied_before: frozenset[str]) -> None:
        """Files ``rm -r`` took with their directory, which a program run after it may have made again.

        ``rm -rf build && gleam build``, ``rm -rf _sources && nvfetcher``, or a
        build in a later call: a program that may write files it does not name,
        run in the emptied directory or above it, may refill it, so what was
        there is not said to be gone.
        """
        for command, (where, emptied_so_far) in zip(run.opaque, run.refills, strict=True):
            if not where or not is_absolute(where):
                continue
            inside = where.rstrip("/") + "/"
            # A folder this command empties again only counts once it has (`gleam clean && rm -rf
            # build && gleam build`: the clean ran before the second removal).
            again = {directory.rstrip("/") for directory in run.cleared}
            emptied = {d for d in emptied_before if d not in again} | {
                directory.rstrip("/") for directory in run.cleared[:emptied_so_far]
            }
            refilled = tuple(
                directory + "/"
                for directory in emptied
                if is_absolute(directory) and (directory + "/").startswith(inside)
            )
            if refilled:
                self._made_again_under(refilled, command)

    def _made_again_under(self, directories: tuple[str, ...], command: str) -> None:
        root = self.index.session.root
        for file in self.index.file_states():
            if file.exists is not False:
                continue
            full = file.path if is_absolute(file.path) or not root else join(root, file.path)
            if full.startswith(directories):
                file.made_again(command)

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
        """Record ``op`` and, unless its call failed, change the file state; the keys of the files it touched.

        ``single_read``: whether the result's output shows this read alone
        (default: the call has this one operation).
        """
        # Shell effects arrive already filtered by success, so their own
        # status is "success" unless the command's status was unknown.
        status = result.status if not forced_ok or result.status == "unknown" else "success"
        op_node = self._add_operation(call, op, status, result)
        if op.action == "unknown" and op.path is not None and status != "failure":
            self._note_possible_change(op, op.cwd or cwd, call.turn)
        if op.action == "unknown" or (op.path is None and op.action not in ("restore", "unstash")):
            return set()
        if op.action == "restore" and op.path is None:
            if status != "failure":
                where = op.cwd or cwd
                where = join(cwd, where) if where and cwd and not is_absolute(where) else where
                restore_all(self.index, op_node, call.call_id, op.detail, where)
            return set()
        if op.action == "unstash":
            return unstash(self.index, op_node, op.detail) if status != "failure" else set()
        assert op.path is not None
        key = self._key(op.path, op.cwd or cwd)
        if status != "failure" and settled_by_status(op.detail):
            self._credit_possible_change(op_node, key)
        if status != "failure" and op.detail == STARTER_FILE:
            self._credit_scaffold(op_node, key)
        if status != "failure" and credited_to_sub_agent(op.detail):
            self._credit_sub_agent(op_node, key)
        if op.action == "read" and status != "failure" and is_directory_listing(result.output):
            # The path was a directory: the tool listed it, no file was read.
            listed = self.index.session.listed_directories
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
                file.existed_before = True
            elif (
                op.action == "read"
                and _READ_FOUND_NOTHING.search(result.output or "")
                and self._is_fresh(key)
            ):
                # The harness said there is no such file: nothing is there yet (a later `cp -r`
                # into its folder makes the folder).
                file.exists = False
            return {key}
        if op.action == "read":
            # A read that showed it after its deletion: something unseen made it again.
            shown_again = (
                file.exists is False and status == "success" and bool((result.output or "").strip())
            )
            if shown_again:
                if file.existed_before is None and not file.changed:
                    # Missing when first looked for, and the session made nothing of it: it
                    # did not predate the session (`cat f; echo $?` prints either way).
                    file.existed_before = False
                file.made_again()
            file.was_read(op.source)
            single = single_read if single_read is not None else len(call.operations) == 1
            learn_from_read(
                self.index,
                file,
                key,
                op,
                op_node,
                result.output,
                single=single,
                sub_agent=call.sidechain is not None,
            )
            if shown_again:
                # What the read showed says whether it came back as it was.
                file.back_as_shown()
            return {key}
        if op.action == "edit" and op.old and status == "success":
            self._settle_waiting_edits(call, op.old, key)
        file.add_source(op.source)
        known = (
            self._originals.pop(key) if file.content is None and key in self._originals else None
        )
        file.begin_change(known)
        before, was_changed, existed_then = file.content, file.changed, file.exists
        change = _Change(call, op, op_node, key, file, cwd, {key})
        if not _TRANSITIONS.get(op.action, Tracker._no_transition)(self, change):
            return change.touched
        file.end_change(deeper=op.action != "undo" and not change.undid, traced=change.traced)
        existed = existed_then if was_changed else file.existed_before
        record_symbols(
            self.index,
            op_node,
            key,
            op,
            before if existed is not False else None,
            file.content,
            existed,
        )
        return change.touched

    # -- the transitions of one file, by action ------------------------------------------
    # Each moves the file (and a move's or copy's destination) and says whether the
    # operation counts as a change of the file: restoring it and copying it do not.

    def _no_transition(self, change: _Change) -> bool:
        return True

    def _write(self, change: _Change) -> bool:
        if change.op.detail == STARTER_FILE:
            # A scaffolded starter wrote it before the session first touched it: what the
            # session saw of it stands, and it is the session's.
            change.file.made_by_session()
            return True
        change.file.written(change.op.content)
        return True

    def _edit(self, change: _Change) -> bool:
        shape = edit_shape(change.op, change.call.tool)
        change.undid = change.file.edited(change.op, shape)
        change.traced = shape is not None and not change.undid
        return True

    def _delete(self, change: _Change) -> bool:
        change.file.deleted()
        return True

    def _undo(self, change: _Change) -> bool:
        change.file.undone()
        return True

    def _restore(self, change: _Change) -> bool:
        # Restoring a file the session never changed, or one it created
        # (untracked by git), changes nothing.
        file = change.file
        committed = self.index.session.work.committed_at.get(change.key)
        if (
            file.changed
            and change.op.detail is None
            and committed is not None
            and committed > file.first_seq
        ):
            # Restored from the index or HEAD after a commit of the session held the file: the
            # committed version, the session's change in it, is what it holds, not its original.
            file.content = None
            file.depth = max(file.depth, 1)
            file.edit_trail = None
            file.update_restored()
            return False
        if file.changed and file.existed_before is not False:
            if is_stash(change.op.detail):
                stash = stash_entry(self.index.session, change.call.call_id)
                stash.files[change.key] = file.snapshot()
            file.mark_restored()
        elif (
            not file.changed
            and file.existed_before is not False
            and not is_stash(change.op.detail)
            and change.op.path is not None
        ):
            # Put back as git holds it: whatever it held that git does not (changes from before
            # the session, a merge's conflict) is gone, and the trail cannot say whether it had any.
            self._note_possible_change(change.op, change.cwd, change.call.turn)
        return False

    def _move_or_copy(self, change: _Change) -> bool:
        op, file, key = change.op, change.file, change.key
        if not op.dest:
            return True
        dest_key = self._key(op.dest, op.cwd or change.cwd)
        change.touched.add(dest_key)
        dest = self._file(dest_key, op.dest, change.op_node)
        self.index.fed_graph.add_edge(
            change.op_node, f"file:{dest_key}", kind="touched", action=op.action, role="dest"
        )
        dest.add_source(op.source)
        # Moved back where it came from, unchanged since it left (`mv .env /tmp/keep/` ...
        # `mv /tmp/keep/.env .`): a round trip, the file as it was before it left.
        round_trip = (
            op.action == "move"
            and file.renamed_from == dest.shown
            and file.depth == 1
            and dest.exists is False
        )
        if round_trip:
            dest.came_back(file.content)
        else:
            dest.arrived(file.content)
        if op.action != "move":
            return False  # the source of a copy is unchanged
        file.deleted()
        if not round_trip:
            dest.renamed_from = file.shown
            self.index.fed_graph.add_edge(f"file:{dest_key}", f"file:{key}", kind="renamed_from")
        return True

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
            file = self.index.file_state(key)
            assert file is not None  # applied above, or touched by the call's own operations
            if key in fresh:
                file.existed_before = change.change != "created"
            if change.change == "deleted":
                file.exists = False
            if change.content is not None and change.change != "deleted":
                file.content = change.content
                file.update_restored()
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
        session = self.index.session
        verdict = judge(session, change.seen_during, key, self.is_directory(change.path) is True)
        if verdict in ("made", "directory"):
            return  # the call that made it recorded it; a directory's files are judged apart
        if verdict == "seen":
            if not self._changed(change.path, cwd):
                record_seen(
                    session,
                    key,
                    call.turn,
                    call.call_id,
                    change.change,
                    "changed in the working tree during this step; no call of the session could"
                    " have made it",
                )
            return
        made = change.model_copy(
            update={
                "seen_during": None,
                "change": "deleted" if verdict == "deleted" else change.change,
            }
        )
        if self._is_fresh(key):
            fresh.add(key)
        self._apply(call, _operation_for(made), cwd, result)
        file = self.index.file_state(key)
        assert file is not None  # applied just above
        if key in fresh:
            file.existed_before = made.change != "created"
        if made.change == "deleted":
            file.exists = False

    # -- file-state helpers ---------------------------------------------------------
    def _key(self, path: str, cwd: str | None) -> str:
        session = self.index.session
        return self.index.same_file_key(file_key(path, cwd or session.cwd, session.root))

    def _changed(self, path: str, cwd: str | None) -> bool:
        """Whether the session has changed the file ``path`` names (as a tool's output spells it) so far."""
        file = self.index.file_state(self._key(path, cwd))
        return file is not None and file.changed

    def _is_fresh(self, key: str) -> bool:
        file = self.index.file_state(key)
        return file is None or file.is_fresh()

    def _file(self, key: str, spelled: str, op_node: str) -> FileState:
        file = self.index.file_state(key)
        if file is None:
            display = spelled if is_absolute(key) and is_absolute(spelled) else None
            file = self.index.add_file(
                FileState(
                    path=key,
                    display=display,
                    first_seq=self.index.fed_graph.nodes[op_node]["seq"],
                    existed_before=False
                    if (
                        (self._in_new_directory(key) or self._in_session_folder(key))
                        and not self._in_checked_out_tree(key)
                    )
                    or key in self._seen_created()
                    else None,
                )
            )
            if self._homes[0] == self.index.file_count() - 1:
                self._count_home(key)  # the count was up to date: it stays so at no cost
        return file

    def _in_new_directory(self, key: str) -> bool:
        """Whether ``key`` lies in a directory this session created or emptied (so it cannot predate the session).

        Called when the file is first seen: a file first seen in a directory
        after ``rm -r`` removed it was made after that.
        """
        session = self.index.session
        made = self._listed(session.directories, "directories", strip=True)
        cleared = self._listed(session.cleared_directories, "cleared_directories", strip=True)
        if not made and not cleared:
            return False
        root = session.root
        full = key if is_absolute(key) or not root else join(root, key)
        # Each directory above ``full`` is the text before one of its slashes ("" for "/").
        for slash in _slashes(full):
            above = full[:slash]
            if above in made or above in cleared:
                return True
        return False

    def _in_checked_out_tree(self, key: str) -> bool:
        """Whether ``key`` lies in a folder ``git worktree add`` checked a revision out into, and in nothing the session made there since.

        The folder is new (made in the session's scratchpad, or in a directory it
        made), but what the checkout put there was in the repository before: such a
        file, first seen now, may predate the session like any file of the workspace.
        A folder the session made, emptied or copied into place inside the checkout
        holds only what the session put there.
        """
        session = self.index.session
        trees = session.checked_out_trees
        if not trees:
            return False
        root = session.root
        full = key if is_absolute(key) or not root else join(root, key)

        def holds(folder: str) -> bool:
            folder = folder.rstrip("/")
            return full == folder or full.startswith(folder + "/")

        checkout = max((len(tree) for tree in trees if holds(tree) and full != tree), default=0)
        if not checkout:
            return False
        made = (*session.directories, *session.cleared_directories, *session.copied_trees)
        return not any(len(folder.rstrip("/")) > checkout for folder in made if holds(folder))

    def _in_session_folder(self, key: str) -> bool:
        """Whether ``key`` lies in a folder named by this session's id, which the harness made for it.

        Claude Code gives each session a scratchpad, ``/tmp/claude-UID/PROJECT/SESSION_ID/scratchpad``:
        nothing there predates the session, so a log a loop appends to there is one it created.
        A short id (a test's, a format's counter) could name any folder: only a long one counts.
        """
        session_id = self.index.session.session_id
        return (
            session_id is not None
            and len(session_id) >= _DISTINCT_ID_LENGTH
            and is_absolute(key)
            and f"/{session_id}/" in key
        )

    def _seen_created(self) -> frozenset[str]:
        """Files the working tree showed appear while no call of the session could make them.

        Whoever made such a file, it was not there when the session started: a
        later move or removal of it by the session takes away nothing that
        predates the session.
        """
        seen = self.index.session.seen_not_made
        kept = self._seen_created_set
        if kept is None or kept[0] is not seen or kept[1] != len(seen):
            created = frozenset(entry.path for entry in seen if entry.change == "created")
            kept = (seen, len(seen), created)
            self._seen_created_set = kept
        return kept[2]

    def _listed(self, listed: list[str], name: str, *, strip: bool = False) -> frozenset[str]:
        """``listed``, a list of paths of the session state named ``name``, as a set; rebuilt only when the list changed.

        The lists only grow, replaced whole or appended to, and the one a set
        was made from is held, so its identity cannot pass to another list.
        """
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
        session = self.index.session
        session.op_count += 1
        seq = session.op_count
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
    def home(self) -> str | None:
        """The one home directory the session's files lie in (``/Users/ana``), or None when none or several.

        A transcript that records no working directory (Cursor's) gives no home
        either; its files' own paths show it, so that ``$HOME/x`` and ``~/x`` in
        its commands name the files its tools named.
        """
        counted, homes = self._homes
        if counted < self.index.file_count():
            # Files the count has not taken in: those of a resumed session (new files are taken in
            # as they come, see `_file`).
            for file in islice(self.index.file_states(), counted, None):
                self._count_home(file.path)
        return next(iter(homes)) if len(homes) == 1 else None

    def _count_home(self, key: str) -> None:
        """Take the home the file ``key`` lies in, if any, into the homes counted (see :meth:`home`)."""
        counted, homes = self._homes
        found = home_of(key)
        if found is not None:
            homes.add(found)
        self._homes = (counted + 1, homes)

    def content_of(self, path: str) -> str | None:
        scratch = self.index.session.scratch
        if path in scratch:
            return scratch[path]
        file = self.index.file_state(self._key(path, None))
        return file.content if file is not None else None

    def is_directory(self, path: str) -> bool | None:
        """True for a directory the session made or holds tracked files, False for an existing file."""
        key = self._key(path, None).rstrip("/")
        file = self.index.file_state(key)
        if file is not None and file.exists is not False:
            return False
        session = self.index.session
        if path.rstrip("/") in self._listed(
            session.directories, "directories"
        ) or key in self._listed(session.listed_directories, "listed_directories"):
            return True
        # A file under it that a read found missing says nothing: `cp -r src dest` into a dest whose
        # SKILL.md a Read found "does not exist" makes dest itself, not dest/src.
        if self.index.fed_graph.has_files_under(key) and any(
            file.exists is not False for file in self.index.files_under(key)
        ):
            return True
        return None

    def listed_in(self, directory: str) -> list[str]:
        """The files the latest ``ls`` of ``directory`` showed, less those the trail knows are gone."""
        directory = directory.rstrip("/") or "/"
        names = self.index.session.listed_files.get(directory, [])
        # In the form asked (a drive letter as written): a glob matches them by prefix.
        paths = [f"{directory.rstrip('/')}/{name}" for name in names]
        gone = (self.index.file_state(self._key(p, None)) for p in paths)
        return [
            p
            for p, file in zip(paths, gone, strict=True)
            if file is None or file.exists is not False
        ]

    def in_copied_tree(self, path: str) -> bool:
        """Whether ``path`` lies in a tree the session copied into place (``cp -r``)."""
        return any(path.startswith(tree + "/") for tree in self.index.session.copied_trees)

    def in_scaffolded_tree(self, path: str) -> bool:
        """Whether ``path`` lies in a folder the session scaffolded a starter into, and was unknown before it ran.

        A file the session touched before the scaffolder ran was there already;
        one known to be the session's needs no starter to be.
        """
        key = self._key(path, None)
        file = self.index.file_state(key)
        if file is not None and file.existed_before is False:
            return False
        return scaffold_before(key, file.first_seq if file else None, self.index) is not None

    def in_new_directory(self, path: str) -> bool:
        """Whether ``path`` lies in a directory this session made or emptied (see :meth:`_in_new_directory`)."""
        return self._in_new_directory(self._key(path, None))

    def _note_unnamed_changes(self, call: ToolCall, result: ToolResult, cwd: str | None) -> None:
        """The harness says the call changed more files the session had read than it named.

        Which ones is not known: every file read before it and not named may be one, said as
        what was seen ("may have rewritten them after their last read").
        """
        named = {self._key(change.path, cwd) for change in result.reported or ()}
        command = next((op.command for op in call.operations if op.command), call.tool)
        possible = self.index.session.possible_changes
        for file in self.index.file_states():
            if (
                file.read
                and not file.changed
                and file.path not in named
                and file.path not in possible
                and len(possible) < _MAX_POSSIBLE_CHANGES
            ):
                possible[file.path] = PossibleChange(
                    turn=call.turn, command=command, seq=self.index.session.op_count
                )

    def _note_possible_change(self, op: FileOperation, cwd: str | None, turn: int) -> None:
        """Keep a file a command said it may change, for a later ``git status`` to settle.

        Not when the latest status, printed before the command, already listed
        the file: then a later listing cannot tell whose change it is.
        """
        assert op.path is not None
        key = self._key(op.path, cwd)
        status = self.index.session.work.status
        if status is not None and any(listed == key for listed, _ in status.files):
            return
        possible = self.index.session.possible_changes
        # The first such command since the last status is the one that changed it, if any did.
        if key not in possible and len(possible) < _MAX_POSSIBLE_CHANGES:
            possible[key] = PossibleChange(
                turn=turn, command=op.command or "", seq=self.index.session.op_count
            )

    def _settle_waiting_edits(self, call: ToolCall, replaced: str, key: str) -> None:
        """An edit that found ``replaced`` in the file shows a waiting edit of that text never applied.

        A call issued earlier whose result is missing (``old_string`` A, then a retry of A that
        succeeded): had it applied, A would be gone, unless its new text holds A again.
        """
        for pending in self.index.session.pending.values():
            if pending.call.call_id == call.call_id or key in pending.not_applied_to:
                continue
            if any(
                other.action == "edit"
                and other.path
                and other.old
                and other.old in replaced
                and other.old not in (other.new or "")
                and self._key(other.path, other.cwd or pending.cwd) == key
                for other in pending.call.operations
            ):
                pending.not_applied_to.append(key)

    def _credit_possible_change(self, op_node: str, key: str) -> None:
        """A change a ``git status`` settled was made by the command that said it may make it.

        The operation is told at that command's turn and with its words (``uv sync`` rewrote
        ``uv.lock``, not the ``git status`` that showed it), and a check run between the two
        ran after the change.
        """
        possible = self.index.session.possible_changes.get(key)
        if possible is None:
            return
        node = self.index.fed_graph.nodes[op_node]
        node["turn"] = possible.turn
        node["command"] = possible.command
        if possible.seq is not None:
            node["cause_seq"] = possible.seq

    def _credit_sub_agent(self, op_node: str, key: str) -> None:
        """A change git showed of a file a sub-agent was to change is told at that run's turn.

        The run made it (the change is not the status's), and the file was not first seen
        after the run: it was there, or the run made it, when the run ended.
        """
        run = sub_agent_naming(self.index.session, key)
        if run is None:
            return
        node = self.index.fed_graph.nodes[op_node]
        node["turn"] = run.turn
        if run.seq is not None:
            # A check run between the sub-agent's end and the git command ran after the change.
            node["cause_seq"] = run.seq

    def _credit_scaffold(self, op_node: str, key: str) -> None:
        """A starter's file a ``git status`` showed is told at the scaffolder's turn and with its words."""
        file = self.index.file_state(key)
        scaffold = scaffold_before(key, file.first_seq if file else None, self.index)
        if scaffold is None:
            return
        node = self.index.fed_graph.nodes[op_node]
        node["turn"] = scaffold.turn
        node["command"] = scaffold.command

    def put_back(self, path: str) -> bool:
        """Whether the session changed the file and then put it back as it was, and it is there."""
        file = self.index.file_state(self._key(path, None))
        return file is not None and file.restored and file.exists is not False

    def changed(self, path: str) -> bool:
        """Whether the session changed the file (and did not put it back)."""
        file = self.index.file_state(self._key(path, None))
        return file is not None and file.changed

    def listed_uncommitted(self) -> list[str]:
        """The files the latest ``git status`` listed as changed, still uncommitted, that the session never changed.

        Not while a stash of the session is kept (it may hold them), nor files
        a commit after that status may hold, nor a listing cut to a pathspec.
        """
        session = self.index.session
        status = session.work.status
        if status is None or status.scope or not status.complete or session.stashes:
            return []
        since = session.work.commits[status.commits_before or 0 :]
        if status.commits_before is None or any(commit.files is None for commit in since):
            return []  # a commit since may hold them
        root = session.root
        found: list[str] = []
        for key, state in status.files:
            if state not in ("modified", "changed") or key.startswith(".../") or key.endswith("/"):
                continue
            if session.work.committed_at.get(key, -1) >= status.seq:
                continue
            file = self.index.file_state(key)
            if file is not None and (file.changed or file.restored):
                continue
            found.append(key if is_absolute(key) or not root else join(root, key))
        return found

    def possibly_changed(self, path: str) -> str | None:
        """The command that said it may change ``path``, while no ``git status`` settled it.

        Or a folder holding it (``cargo fmt`` rewrites the project): then only for a file the
        session did not change itself, and when a complete ``git status`` before that command
        did not list the file changed, so a change that was there before it is not credited to it.
        """
        key = self._key(path, None)
        session = self.index.session
        possible = session.possible_changes.get(key)
        if possible is not None:
            return possible.command
        status = session.work.status
        if status is None or status.scope or not status.complete or is_absolute(key):
            return None
        file = self.index.file_state(key)
        if file is not None and (file.changed or file.restored):
            return None  # the session's own change is what the listing shows
        for folder, maybe in session.possible_changes.items():
            within = folder in ("", ".") or key.startswith(folder.rstrip("/") + "/")
            if not within or maybe.seq is None or status.seq > maybe.seq:
                continue  # not its folder, or no listing seen before the command
            first = session.work.first_listed_changed.get(key)
            if first is not None and first.turn < maybe.turn:
                continue  # listed changed before the command ran
            return maybe.command
        return None

    def changed_by_sub_agent(self, path: str) -> str | None:
        """The unseen sub-agent run that may have changed ``path`` (``"its description" (turn 7)``).

        A run whose prompt asked for changes to the file, or whose report said it changed it,
        and no call the trail followed changed it: a later ``git status`` or ``git commit``
        that shows the file changed or new shows that run's work.  Not a file a status had
        already listed as changed before the run ended: that change may predate it.
        """
        key = self._key(path, None)
        run = sub_agent_naming(self.index.session, key)
        if run is None:
            return None
        listed = self.index.session.work.first_listed_changed.get(key)
        if listed is not None and listed.turn < run.turn:
            return None
        return f'"{run.description}" (turn {run.turn})'

    def existed_before(self, path: str) -> bool | None:
        """Whether the file predates the session, as far as the trail says."""
        file = self.index.file_state(self._key(path, None))
        return file.existed_before if file is not None else None

    def compared_with(self, revision: str) -> ComparedTree | None:
        """The files the latest diff of HEAD against ``revision`` listed, while HEAD has not moved since."""
        compared = self.index.session.work.compared
        if compared is None or compared.other != revision:
            return None
        return ComparedTree(tuple(compared.files), compared.complete)

    def files_under(self, directory: str) -> list[str]:
        prefix = self._key(directory, None).rstrip("/") + "/"
        root = self.index.session.root
        files = self.index.file_states() if prefix == "./" else self.index.files_under(prefix[:-1])
        return [
            file.path if is_absolute(file.path) or not root else join(root, file.path)
            for file in files
            if file.exists is not False
        ]

    def pending_calls(self) -> list[ToolCall]:
        """Calls still waiting for a result (their operations are not applied)."""
        return [pending.call for pending in self.index.session.pending.values()]


@dataclass
class _Change:
    """One operation being applied to one file, for the transition its action makes."""

    call: ToolCall
    op: FileOperation
    op_node: str
    key: str
    file: FileState
    cwd: str | None
    touched: set[str]  # the keys of the files it touched so far
    undid: bool = False  # an edit that put back exactly what the edit before it changed
    traced: bool = False  # an exactly placed edit, kept to see whether a later one undoes it


_TRANSITIONS: dict[str, Callable[[Tracker, _Change], bool]] = {
    "write": Tracker._write,
    "create": Tracker._write,
    "edit": Tracker._edit,
    "delete": Tracker._delete,
    "undo": Tracker._undo,
    "restore": Tracker._restore,
    "move": Tracker._move_or_copy,
    "copy": Tracker._move_or_copy,
}


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
