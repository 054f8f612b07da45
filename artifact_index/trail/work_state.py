"""The state of the work unit: the branch, the commits the session made, what it left uncommitted.

An agent that continues after a compaction must know whether the work is
committed: "commit the fix" done twice is a duplicate commit, never done is
lost work.  This is read from the session's own git commands and what they
printed, never from a repository:

* a commit is the ``[branch 4f2a9c1] message`` line ``git commit`` prints
  on success, and holds what was staged (``git add``, ``-a``, pathspecs),
  followed with the staging model of :mod:`~artifact_index.trail.submission`;
* the branch is what the last command said it is (``Switched to a new
  branch 'x'``, ``On branch x``, the branch of a commit line, ``git branch
  --show-current``);
* a push (``git push`` that succeeded) covers every commit before it;
* a changed file of the workspace is uncommitted when it changed after the
  last commit that held it (or no commit held it), unless the latest ``git
  status`` (or ``git diff --stat``) of the workspace, printed after its
  last change, says otherwise: listed there, it is uncommitted; not listed,
  it is not, whatever the trail says (a branch switched with the edit left
  behind, a stash, a reset).  What that status listed is kept
  (:attr:`~artifact_index.trail.session_state.WorkRecord.status`, see
  :mod:`~artifact_index.trail.tree_status`),
  files the session never changed included.

Git facts belong to the repository the command ran in: ``cd ../other &&
git status`` shows the branch of another repository, not the workspace's.
A directory that neither holds the workspace nor lies inside it is another
repository; its branch and commits are kept apart (``repos``), by its path
relative to the workspace when that can be written.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from artifact_index.facts.claims import Evidence
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.git_report import merge_reports
from artifact_index.shell.listing import SimpleCommand, simple_commands
from artifact_index.trail.answers import (
    CommitAttemptReport,
    CommitReport,
    ListedFileReport,
    OtherRepositoryReport,
    StatusReport,
    WorkReport,
)
from artifact_index.trail.file_state import FileState
from artifact_index.trail.index import CHANGED_STATUSES, ArtifactIndex
from artifact_index.trail.paths import file_key, is_absolute, join
from artifact_index.trail.session_state import (
    BranchSwitch,
    Commit,
    CommitAttempt,
    ComparedWithHead,
    ListedChange,
    ListedStatus,
    OtherRepository,
    Staging,
)
from artifact_index.trail.submission import DiffScope, GitModel, git_words

if TYPE_CHECKING:
    from artifact_index.trail.tree_status import TreeStatus

__all__ = ["UnlistedMemory", "WorkState", "committed_per_status", "work_state"]

_COMMIT_LINE = lazy_pattern(
    r"^\[(?P<branch>[^\s\]]+)(?: \([^)]*\))? (?P<hash>[0-9a-f]{7,40})\] (?P<message>.*\S)",
    re.MULTILINE,
)
# A commit as `git commit` reports it, its summary line after it: what a script that commits prints too.
_REPORTED_COMMIT = lazy_pattern(
    r"^\[(?P<branch>[^\s\]]+)(?: \([^)]*\))? (?P<hash>[0-9a-f]{7,40})\] (?P<message>.*\S)\n"
    r"\s*\d+ files? changed",
    re.MULTILINE,
)
_SWITCHED = lazy_pattern(r"Switched to (?P<new>a new )?branch '(?P<branch>[^']+)'")
_ON_BRANCH = lazy_pattern(r"^On branch (?P<branch>\S+)", re.MULTILINE)
_BRANCH_NAME = lazy_pattern(r"^[\w./-]+$")
# What git prints for a ref it pushed (`   1a2b3c4..5d6e7f8  main -> main`, `* [new branch]  x -> x`):
# the push happened even when a later command of the same line failed and the call reads as failed.
_PUSHED = lazy_pattern(
    r"^\s*(?:[+*]?\s*[0-9a-f]{7,40}\.\.\.?[0-9a-f]{7,40}|\* \[new (?:branch|tag)\])\s+\S+ -> \S+",
    re.MULTILINE,
)
# The new end of a pushed ref (`   1a2b3c4..5d6e7f8  main -> main`).
_PUSHED_RANGE = lazy_pattern(r"^\s*\+?\s*[0-9a-f]{7,40}\.\.\.?([0-9a-f]{7,40})\s+\S+ -> \S+", re.M)
_MAX_COMMITS = 200
_MAX_LISTED = 400  # files of one status kept; a longer listing is someone else's work in progress


@dataclass
class UnlistedMemory:
    """What one complete ``git status`` leaves the next about the files it did not list (see ``_note_unlisted``).

    A file's answer moves only with an operation on it (its status and last
    change move with nothing else; the graph notes the file nodes edges go
    into), with what commits hold of it (which only grows: ``committed`` is
    how it stood), or with the listing: so the next status looks again at
    those files, at the files of ``watch`` (listed by this status, or
    changed after it), and rides along with the rest.
    """

    watch: set[str]
    riding: set[str]  # left out by this status and noted with its turn: the next one notes its own
    committed: dict[str, int]


class WorkState:
    """Commits, branch and pushes, kept in the session state (:class:`WorkRecord`)."""

    def __init__(self, index: ArtifactIndex) -> None:
        self.index = index
        self.state = index.session.work

    def observe(
        self,
        command: str,
        cwd: str | None,
        output: str,
        turn: int,
        succeeded: bool | None,
        dialect: str | None = None,
    ) -> None:
        """Follow one shell command; staging is followed even when it failed (``git add`` then a refused commit)."""
        if self.state.compared is not None and _OTHER_CHECKOUTS.search(command):
            self.state.compared = None
        if "git" not in command:
            self._scripted_git(command, output, turn, commits=True, merges=True)
            return
        steps = simple_commands(command, cwd, dialect)
        if steps is None:
            return
        git_subs = {git_words(step)[0] for step in steps if step.program == "git"}
        self._scripted_git(
            command,
            output,
            turn,
            commits="commit" not in git_subs,
            merges=not git_subs & {"pull", "merge"},
        )
        commits = iter(_COMMIT_LINE.finditer(output))
        model = GitModel(self.index)
        if self.state.unconfirmed_commits and output:
            self._confirm_quiet_commits(output)
        staging = self.state.staging
        for step in steps:
            if step.program != "git":
                continue
            sub, args, git_cwd = git_words(step)
            repository = self._repository(git_cwd)
            if repository is not None:
                self._observe_elsewhere(
                    repository, sub, args, output, turn, succeeded, commits, command
                )
                continue
            if sub == "commit":
                made = next(commits, None)
                if succeeded is not False or made is not None:
                    self.state.compared = None
                message = _commit_message(args) or _heredoc_message(command)
                logged = _logged_hash(output, message) if made is None and message else None
                if made is None and logged is None and message is not None:
                    logged = self._head_printed_after(command, output)
                if made is not None:
                    self._commit(made, step_args=args, model=model, turn=turn, command=command)
                elif logged is not None and message is not None and succeeded is not False:
                    # Quiet, but a `git log` of the same command shows it by its message.
                    shown = {
                        "hash": logged,
                        "branch": self.state.branch or "HEAD",
                        "message": message,
                    }
                    self._commit(shown, step_args=args, model=model, turn=turn, command=command)
                elif succeeded is not False and len(self.state.unconfirmed_commits) < _MAX_COMMITS:
                    # Ran, but printed no commit (`-q`, output cut or not recorded): whether it
                    # committed is unknown, so "no commit made" can no longer be said, until a
                    # later `git log` shows a commit with its message.
                    self.state.unconfirmed_commits.append(
                        CommitAttempt(
                            turn=turn,
                            command=command,
                            message=message,
                            files=model.files_in(_commit_scope(args), staging),
                            seq=self.index.session.op_count,
                        )
                    )
                continue
            if sub in _CONTINUES and "--continue" in args and succeeded:
                self._continued(model)
            if sub == "push" and (succeeded or _PUSHED.search(output)):
                self._confirm_pushed_commit(output)
                for commit in self.state.commits:
                    commit.pushed = True
                    if commit.pushed_turn is None:
                        commit.pushed_turn = turn
            if sub == "worktree" and succeeded is not False:
                self._worktree_added(args, git_cwd or cwd)
            if sub in ("pull", "merge") and "CONFLICT" not in output:
                self._brought_in(output)
            model.stage(step, staging)
            if succeeded is not False and _moves_head(sub, args, output):
                self.state.compared = None
            # The line git prints once it has switched is the evidence, whatever ran after it
            # in the same command (`git checkout main && make` that failed at make).
            switched = _SWITCHED.search(output) if sub in ("checkout", "switch") else None
            if switched is not None:
                self.state.switches.append(
                    BranchSwitch(
                        turn=turn,
                        branch=switched["branch"],
                        from_head=switched["new"] is not None and not _start_point(args),
                    )
                )
            if succeeded:
                # The status readers are loaded by the first git command that succeeded: a hook
                # that finds nothing appended to read runs none.
                from artifact_index.trail.tree_status import compared_revision, observed_status

                self.state.branch = _branch_from(sub, args, output) or self.state.branch
                compared = compared_revision(step, sub, args, _beside(steps, step), output)
                if compared is not None and len(compared.files) <= _MAX_LISTED:
                    self.state.compared = ComparedWithHead(
                        other=compared.other, files=compared.files, complete=compared.complete
                    )
                seen = observed_status(step, sub, args, _beside(steps, step), output)
                if seen is not None and (seen.staged_shown or _nothing_staged(staging)):
                    self._saw_status(seen, git_cwd, turn, command)

    def _saw_status(self, seen: TreeStatus, git_cwd: str | None, turn: int, command: str) -> None:
        """Keep the latest listing of the workspace's changed files, its paths as the index's keys."""
        root = self.index.root
        base = root if seen.relative_to_top else (git_cwd or self.index.session.cwd or root)

        def key(path: str) -> str:
            # `--stat` cuts a long path to ".../tail": kept as written, matched by its end.
            if path.startswith(".../"):
                return path
            return file_key(path, base, root) + ("/" if path.endswith("/") else "")

        if not seen.scope and seen.untracked_shown and len(seen.files) <= _MAX_LISTED:
            # What commands said they may change is settled: listed, the status's own
            # effects credited it to them; not listed, it did not change.
            self.index.session.possible_changes.clear()
        for listed in seen.files[:_MAX_LISTED]:
            if listed.state in ("modified", "changed", "deleted") and not listed.path.endswith("/"):
                self.state.first_listed_changed.setdefault(
                    key(listed.path),
                    ListedChange(turn=turn, shown=" ".join(command.split())[:120]),
                )
        earlier = self.state.status
        if (
            earlier
            and earlier.seq == self.index.session.op_count
            and earlier.turn == turn
            and earlier.command == "git status"
        ):
            return  # `git status && git diff --stat`: the status says more (untracked and staged files too)
        self.state.status = ListedStatus(
            turn=turn,
            seq=self.index.session.op_count,
            command=seen.command,
            shown=" ".join(command.split())[:120],
            files=[(key(f.path), f.state) for f in seen.files[:_MAX_LISTED]],
            complete=len(seen.files) <= _MAX_LISTED,
            untracked_shown=seen.untracked_shown,
            commits_before=len(self.state.commits),
            scope=[key(p) for p in seen.scope],
        )
        if self.state.status.complete and self.state.status.untracked_shown and not seen.scope:
            self._note_unlisted(self.state.status)
            if seen.command == "git status":
                # A whole status shows the index as it is: what a later `git commit` takes.
                staging = self.state.staging
                staging.staged_all = staging.staged_tracked = False
                staging.staged = sorted({key(f.path) for f in seen.files if f.staged})
                staging.unsure = None

    def _note_unlisted(self, status: ListedStatus) -> None:
        """The changed files a complete status did not list though no commit seen held their change.

        Ignored by git, most likely (or put away by a command not followed): a later change of one is
        no more sure to be a change a commit would hold.

        A long session prints hundreds of complete statuses, so each looks again only at the files
        whose answer may differ from the last one's (see :class:`UnlistedMemory`); those the last
        status left out take this one's turn, as looking at them again would give them.
        """
        listed = _Listing(status)
        index, unlisted, committed_at = self.index, self.state.unlisted, self.state.committed_at
        graph = index.fed_graph
        grown = graph.take_file_growth()
        memory = index.unlisted_memory
        files: Iterable[FileState]
        riding: set[str] = set()
        if memory is None or grown is None or listed.tails:
            files = index.file_states()  # the first status (or tails, matched by their end)
            graph.follow_file_growth()
        else:
            keys = {node[5:] for node in grown}
            keys |= memory.watch
            # What commits hold only grows: a file it grew for may no longer be left out.
            keys.update(key for key, _ in committed_at.items() - memory.committed.items())
            for path in listed.paths:
                if path.endswith("/"):
                    keys.update(f.path for f in index.files_under(path.rstrip("/")))
                else:
                    keys.add(path)
            riding = memory.riding - keys
            unlisted.update(dict.fromkeys(riding, status.turn))
            files = [f for key in keys if (f := index.file_state(key)) is not None]
        watch: set[str] = set()
        added: list[str] = []
        for file in files:
            key = file.path
            if file.status not in CHANGED_STATUSES or is_absolute(key) or key.startswith(".git/"):
                continue
            if listed.shows(key):
                unlisted.pop(key, None)
                watch.add(key)  # a later status may leave it out
                continue
            last = index.last_change(key)
            if last > status.seq:
                watch.add(key)
            elif last > 0 and committed_at.get(key, -1) < last:
                if key not in unlisted:
                    added.append(key)
                unlisted[key] = status.turn
                riding.add(key)
        index.unlisted_memory = UnlistedMemory(watch, riding, dict(committed_at))
        if len(added) > 1 and not isinstance(files, Iterator):
            # In the order the files were first touched, as a look at every file adds them.
            order = index.first_touch_ranks()
            new = set(added)
            noted = sorted((order[key], key) for key in unlisted if key in new)
            moved = {key: unlisted.pop(key) for _, key in noted}
            unlisted.update(moved)

    def _repository(self, git_cwd: str | None) -> str | None:
        """None for the workspace's repository, else the other repository's directory as the reader knows it."""
        root = self.index.root
        if not git_cwd:
            return None
        if root is None:
            return git_cwd if git_cwd.startswith("..") else None
        if not (is_absolute(git_cwd) and is_absolute(root)):
            return None  # relative to a start that is unknown: taken as the workspace
        if not is_absolute(file_key(git_cwd, None, root)):
            # The workspace or a folder in it, however it is spelt: `/c/Users/x/repo` (Git Bash),
            # `C:\Users\x\repo` (PowerShell) and `c:/Users/x/repo` are one directory.
            return None
        here, base = git_cwd.rstrip("/").split("/"), root.rstrip("/").split("/")
        shared = 0
        while shared < min(len(here), len(base)) and here[shared] == base[shared]:
            shared += 1
        if shared in (len(here), len(base)):
            return None  # inside the workspace, or a directory holding it: the same repository
        # A neighbour of the workspace reads best as `../site`; a directory elsewhere by its full path.
        near = shared > 1 and root.startswith("/") and git_cwd.startswith("/")
        return posixpath.relpath(git_cwd, root) if near else git_cwd

    def _observe_elsewhere(
        self,
        repository: str,
        sub: str | None,
        args: list[str | None],
        output: str,
        turn: int,
        succeeded: bool | None,
        commits: Iterator[re.Match[str]],
        command: str,
    ) -> None:
        """A git command of another repository: its branch and commits, apart from the workspace's."""
        other = self.state.repos.setdefault(repository, OtherRepository())
        if sub == "commit":
            made = next(commits, None)
            if made is not None and len(other.commits) < _MAX_COMMITS:
                other.commits.append(
                    Commit(
                        turn=turn,
                        hash=made["hash"],
                        branch=made["branch"],
                        message=made["message"],
                        files=None,
                        command=command,
                    )
                )
                other.branch, other.branch_turn = made["branch"], turn
            elif made is None and succeeded is not False:
                message = _commit_message(args) or _heredoc_message(command)
                logged = _logged_hash(output, message) if message else None
                if logged is not None and message is not None:
                    other.commits.append(
                        Commit(
                            turn=turn,
                            hash=logged,
                            branch=other.branch or "HEAD",
                            message=message,
                            files=None,
                            command=command,
                        )
                    )
                elif len(other.unconfirmed_commits) < _MAX_COMMITS:
                    other.unconfirmed_commits.append(turn)  # quiet: whether it committed is unknown
        elif sub == "push" and (succeeded or _PUSHED.search(output)):
            for commit in other.commits:
                commit.pushed = True
        elif succeeded:
            branch = _branch_from(sub, args, output)
            if branch:
                other.branch, other.branch_turn = branch, turn

    def _scripted_git(
        self, command: str, output: str, turn: int, *, commits: bool, merges: bool
    ) -> None:
        """What git printed for a script the command ran (``bash merge-release.sh``): its commits, made with
        files no staging the session did shows, and the files a merge it reported brought in."""
        if " changed" not in output:
            return  # neither a commit's summary nor a merge's diffstat
        if commits:
            for made in _REPORTED_COMMIT.finditer(output):
                if len(self.state.commits) >= _MAX_COMMITS:
                    break
                self.state.branch = made["branch"]
                self.state.commits.append(
                    Commit(
                        turn=turn,
                        hash=made["hash"],
                        branch=made["branch"],
                        message=made["message"],
                        files=None,
                        command=command,
                    )
                )
        if merges and ("Fast-forward" in output or "Merge made by" in output):
            self._brought_in(output)

    def _continued(self, model: GitModel) -> None:
        """``git rebase --continue`` that succeeded committed what was added: git refuses it otherwise."""
        staging = self.state.staging
        seq = self.index.session.op_count
        for key in model.files_in(_commit_scope([]), staging) or ():
            self.state.committed_at[key] = seq
        staging.cleared()

    def _head_printed_after(self, command: str, output: str) -> str | None:
        """The new HEAD a quiet commit's command printed after it (``echo "committed: $(git rev-parse --short HEAD)"``).

        Only one hash printed, one no commit seen had, and no word of a refused commit: had
        the commit made nothing, HEAD would be an older commit's.
        """
        commit_at = command.find("git commit")
        if commit_at < 0 or not _REV_PARSE_HEAD.search(command, commit_at):
            return None
        if _COMMIT_REFUSED.search(output):
            return None
        printed: set[str] = {found.group(0) for found in _HASH.finditer(output)}
        if len(printed) != 1:
            return None
        head = printed.pop()
        known = [c.hash for c in self.state.commits]
        if any(k.startswith(head) or head.startswith(k) for k in known):
            return None
        return head

    def _confirm_quiet_commits(self, output: str) -> None:
        """Quiet commits a later ``git log`` shows by their message: made, with the hash it shows."""
        for attempt in list(self.state.unconfirmed_commits):
            logged = _logged_hash(output, attempt.message) if attempt.message else None
            if logged is None or attempt.message is None:
                continue
            self.state.unconfirmed_commits.remove(attempt)
            for key in attempt.files or ():
                self.state.committed_at[key] = max(
                    self.state.committed_at.get(key, -1), attempt.seq
                )
            if len(self.state.commits) < _MAX_COMMITS:
                self.state.commits.append(
                    Commit(
                        turn=attempt.turn,
                        hash=logged,
                        branch=self.state.branch or "HEAD",
                        message=attempt.message,
                        files=attempt.files,
                        command=attempt.command,
                    )
                )
                self.state.commits.sort(key=lambda c: c.turn)

    def _worktree_added(self, args: list[str | None], cwd: str | None) -> None:
        """``git worktree add PATH``: a checkout of the same repository, known by the name later commands reach it by."""
        if not args or args[0] != "add":
            return
        positionals: list[str] = []
        skip = False
        for arg in args[1:]:
            if skip or arg is None:
                skip = False
                continue
            if arg in ("-b", "-B", "--reason", "--orphan"):
                skip = True  # the option's value: a branch name, not the path
            elif not arg.startswith("-"):
                positionals.append(arg)
        if not positionals:
            return
        target = positionals[0]
        where = join(cwd or self.index.session.cwd, target) if not is_absolute(target) else target
        repository = self._repository(where)
        if repository is not None:
            self.state.repos.setdefault(repository, OtherRepository()).worktree = True

    def _brought_in(self, output: str) -> None:
        """The files a merge or pull report names came in with commits: they are committed as they are."""
        root = self.index.root
        seq = self.index.session.op_count
        for report in merge_reports(output) or ():
            paths = [*report.created, *report.deleted, *report.modified]
            paths += [path for pair in report.renamed for path in pair]
            for path in paths:
                self.state.committed_at[file_key(path, root, root)] = seq

    def _confirm_pushed_commit(self, output: str) -> None:
        """The one quiet commit since the last commit shown, when a push shows the range it sent."""
        last = max((c.turn for c in self.state.commits), default=-1)
        waiting = [a for a in self.state.unconfirmed_commits if a.turn >= last]
        pushed = _PUSHED_RANGE.findall(output)
        if len(waiting) != 1 or len(pushed) != 1 or waiting[0].message is None:
            return  # two quiet commits in one push: the range names the last one only
        attempt = waiting[0]
        self.state.unconfirmed_commits.remove(attempt)
        for key in attempt.files or ():
            self.state.committed_at[key] = max(self.state.committed_at.get(key, -1), attempt.seq)
        self.state.commits.append(
            Commit(
                turn=attempt.turn,
                hash=pushed[0],
                branch=self.state.branch or "HEAD",
                message=attempt.message,
                files=attempt.files,
                command=attempt.command,
            )
        )

    def _commit(
        self,
        made: Mapping[str, str] | re.Match[str],
        *,
        step_args: list[str | None],
        model: GitModel,
        turn: int,
        command: str,
    ) -> None:
        staging = self.state.staging
        scope = _commit_scope(step_args)
        if scope.head and not scope.pathspecs:
            staging.staged_tracked = True
        files = model.files_in(scope, staging)
        seq = self.index.session.op_count
        for key in files or ():
            self.state.committed_at[key] = seq
        status = self.state.status
        if status is not None and (staging.staged_all or staging.staged_tracked):
            # `git add -A` / `commit -a` also took the changes the latest status
            # listed that the trail does not follow (someone's edit from before).
            for key, state in status.files:
                if staging.staged_all or state != "untracked":
                    self.state.committed_at[key] = seq
        self.state.branch = made["branch"]
        if len(self.state.commits) < _MAX_COMMITS:
            self.state.commits.append(
                Commit(
                    turn=turn,
                    hash=made["hash"],
                    branch=made["branch"],
                    message=made["message"],
                    files=files,
                    command=command,
                )
            )
        # After a commit the index holds nothing beyond HEAD.
        staging.cleared()


# A command printing HEAD's hash after a commit, and what it printed.
_REV_PARSE_HEAD = lazy_pattern(r"\bgit rev-parse (?:--short(?:=\d+)? )?HEAD\b")
_HASH = lazy_pattern(r"(?<![0-9A-Za-z])[0-9a-f]{7,40}(?![0-9A-Za-z])")
_COMMIT_REFUSED = lazy_pattern(
    r"nothing to commit|nothing added to commit|no changes added to commit|^(?:error|fatal):",
    re.MULTILINE,
)


def _beside(steps: tuple[SimpleCommand, ...], step: SimpleCommand) -> list[str]:
    """The other steps of a command, by program (``git`` steps by sub-command: ``git log``)."""
    names = []
    for other in steps:
        if other is not step:
            names.append(
                f"git {git_words(other)[0]}" if other.program == "git" else str(other.program)
            )
    return names


def _nothing_staged(staging: Staging) -> bool:
    return not (staging.staged_all or staging.staged_tracked or staging.staged or staging.unsure)


# Git commands that stop on a conflict and, resumed with ``--continue``, commit the resolution.
_CONTINUES = frozenset({"rebase", "cherry-pick", "merge", "revert", "am"})
# Git commands that may move HEAD or the revisions a diff compared it with.
_MOVES_HEAD = frozenset(
    {
        "commit",
        "checkout",
        "switch",
        "reset",
        "merge",
        "pull",
        "rebase",
        "cherry-pick",
        "revert",
        "am",
        "stash",
        "worktree",
        "update-ref",
        "branch",
    }
)
# A ref a fetch moved: `   1a2b3c4..5d6e7f8  main       -> origin/main`, `+ ... (forced update)`.
_FETCHED = lazy_pattern(
    r"^\s*(?:[+*!-]\s*)?(?:[0-9a-f]{7,40}\.\.\.?[0-9a-f]{7,40}|\[new [a-z ]+\])\s+\S+\s+->\s", re.M
)


# Tools that check branches out for git: Graphite (`gt down`), GitHub's `gh pr checkout`, jj.
_OTHER_CHECKOUTS = lazy_pattern(
    r"(?:^|[\s;&|(])(?:gt|jj|sl|git-town)\s|\bgh\s+(?:pr|repo)\s+(?:checkout|sync)\b"
)


def _moves_head(sub: str | None, args: list[str | None], output: str) -> bool:
    """Whether a git step may have moved HEAD or a ref a diff compared with it."""
    if sub == "fetch" or sub == "remote":
        return bool(_FETCHED.search(output))
    if sub == "branch":
        return any(a in ("-f", "--force", "-m", "-M", "-c", "-C") for a in args)
    if sub == "stash":
        return False  # the working tree, not HEAD
    return sub in _MOVES_HEAD


# The options of `git checkout -b` / `git switch -c` that name the new branch.
_NEW_BRANCH_OPTIONS = frozenset({"-b", "-B", "-c", "-C", "--create", "--force-create", "--orphan"})


def _start_point(args: list[str | None]) -> bool:
    """Whether a `git checkout -b NAME` / `git switch -c NAME` names where the new branch starts."""
    operands: list[str | None] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg in _NEW_BRANCH_OPTIONS:
            skip = True  # its value is the new branch's name
        elif arg is None or not arg.startswith("-"):
            operands.append(arg)
    return bool(operands)


def _branch_from(sub: str | None, args: list[str | None], output: str) -> str | None:
    """The branch a git command's output names as the current one, if it names one."""
    switched = _SWITCHED.search(output) if sub in ("checkout", "switch") else None
    on_branch = _ON_BRANCH.search(output) if sub == "status" else None
    shown = output.strip() if sub == "branch" and "--show-current" in args else None
    if sub == "rev-parse" and "--abbrev-ref" in args:
        shown = output.strip()
    found = switched or on_branch
    if found is not None:
        return found["branch"]
    if shown and _BRANCH_NAME.match(shown) and shown != "HEAD":
        return shown
    return None


_VALUE_OPTIONS = frozenset(
    {
        "--message",
        "--file",
        "--author",
        "--date",
        "--fixup",
        "--squash",
        "--reuse-message",
        "--reedit-message",
        "--template",
        "-t",
    }
)


def _commit_scope(step_args: list[str | None]) -> DiffScope:
    """What ``git commit`` with ``step_args`` takes: the paths given, every tracked change (-a), or the index."""
    options = {a for a in step_args if a and a.startswith("-")}
    paths = _pathspecs(step_args)
    if paths:
        return DiffScope(cached=False, head=True, pathspecs=tuple(paths))
    if options & {"-a", "--all"} or any(_short_flags(o) and "a" in o for o in options):
        return DiffScope(cached=False, head=True, pathspecs=())  # -a / -am: every tracked change
    return DiffScope(cached=True, head=False, pathspecs=())


# `git commit -m "$(cat <<'EOF'` then the message's lines: the words hold a substitution, the
# command's text holds the subject.
_HEREDOC_MESSAGE = lazy_pattern(
    r"""\bgit\b[^\n]*?\scommit\b[^\n]*?\s(?:-m|--message)[ =]"\$\(cat <<-?\s*(?P<q>['"]?)"""
    r"""(?P<tag>\w+)(?P=q)[ \t]*\n[ \t]*(?P<subject>[^\n]*\S)"""
)


def _heredoc_message(command: str) -> str | None:
    """The subject of the one ``git commit -m "$(cat <<'EOF' …)"`` of ``command``, if it has exactly one."""
    found = list(_HEREDOC_MESSAGE.finditer(command))
    if len(found) != 1 or command.count(" commit ") != 1:
        return None
    subject = found[0]["subject"].strip()
    return None if subject == found[0]["tag"] else subject


def _commit_message(args: list[str | None]) -> str | None:
    """The first line of ``git commit``'s first ``-m`` message, or None (an editor, ``-F``)."""
    for at, arg in enumerate(args):
        if arg is None:
            continue
        if arg in ("-m", "--message") or (_short_flags(arg) and arg.endswith("m")):
            value = args[at + 1] if at + 1 < len(args) else None
        elif arg.startswith("--message="):
            value = arg.split("=", 1)[1]
        elif arg.startswith("-m") and len(arg) > 2:
            value = arg[2:]
        else:
            continue
        first = (value or "").strip().split("\n", 1)[0].strip()
        return first or None
    return None


# A commit as `git log` shows it: `1a2b3c4 (HEAD -> main) subject` (--oneline, maybe with a
# graph), or `commit <hash>` with the subject indented below.
_LOG_ONELINE = lazy_pattern(
    r"^[*|/\\ ]*(?P<hash>[0-9a-f]{7,40}) (?:\([^)\n]*\) )?(?P<subject>.+?)\s*$", re.M
)
_LOG_FULL = lazy_pattern(
    r"^commit (?P<hash>[0-9a-f]{40})\b[^\n]*\n(?:[^\n]+\n)*?\n {4}(?P<subject>.+?)\s*$", re.M
)


def _logged_hash(output: str, message: str | None) -> str | None:
    """The hash of the commit ``output`` shows with the subject ``message``, if one does."""
    if not message or message not in output:
        return None
    for pattern in (_LOG_ONELINE, _LOG_FULL):
        for found in pattern.finditer(output):
            if found["subject"] == message:
                return found["hash"]
    return None


def _short_flags(arg: str) -> bool:
    """``-am``: single-letter options written together."""
    return len(arg) > 1 and arg[0] == "-" and arg[1] != "-"


def _pathspecs(args: list[str | None]) -> list[str]:
    """The paths ``git commit`` was given (``git commit -m msg -- a.py b.py``), its option values left out."""
    paths: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg is None:
            continue
        if arg in _VALUE_OPTIONS or (_short_flags(arg) and arg[-1] in "mFcC"):
            skip = True  # "-m msg", and "-am msg" whose last flag takes the value
        elif arg.startswith("-"):
            continue
        else:
            paths.append(arg)
    return paths


class _Listing:
    """:func:`_listed` for many keys against one status: its exact paths looked up, not scanned."""

    def __init__(self, status: ListedStatus) -> None:
        self.paths = {path for path, _ in status.files}
        self.folders = [path for path in self.paths if path.endswith("/")]
        self.tails = [path[3:] for path in self.paths if path.startswith(".../")]

    def shows(self, key: str) -> bool:
        if key in self.paths or any(key.startswith(folder) for folder in self.folders):
            return True
        return any(("/" + key).endswith(tail) for tail in self.tails)


def _listed(key: str, status: ListedStatus) -> bool:
    """Whether a status listing shows the file ``key``: by its path, a folder it lies in, or the tail of its path."""
    for path, _ in status.files:
        if path == key or (path.endswith("/") and key.startswith(path)):
            return True
        if path.startswith(".../") and ("/" + key).endswith(path[3:]):
            return True
    return False


def _in_scope(key: str, status: ListedStatus) -> bool:
    scope = status.scope
    return not scope or any(
        key == p or key.startswith(p.rstrip("/") + "/") or p in (".", "./") for p in scope
    )


def _status_says(
    key: str,
    created: bool,
    last_change: int,
    status: ListedStatus | None,
    commits: list[Commit],
) -> bool | None:
    """Whether the latest status says the file is uncommitted; None when it does not speak of it.

    It speaks of a file whose last change came before it, in its scope.  Of a file it lists, unless a commit
    that held the file (or whose files are unknown) came after it: then the commit says.  Of a file it does
    not list, whatever commits came after (none makes a clean file dirty), unless it is new and the
    status hid untracked files.
    """
    if status is None or status.seq < last_change or not _in_scope(key, status):
        return None
    if _listed(key, status):
        after = commits[status.commits_before :] if status.commits_before is not None else []
        # A commit since may have taken it; one since cannot make a file the status showed clean dirty.
        return None if any(c.files is None or key in c.files for c in after) else True
    if (created and not status.untracked_shown) or not status.complete:
        return None
    return False


def committed_per_status(index: ArtifactIndex, key: str, created: bool, last_change: int) -> bool:
    """Whether the latest ``git status`` (or diff), printed after the file's last change, shows it committed."""
    state = index.session.work
    return _status_says(key, created, last_change, state.status, state.commits) is False


def _commit_report(commit: Commit) -> CommitReport:
    """A commit as reports show it: what it holds is ``inferred`` from the staging model."""
    return CommitReport(
        turn=commit.turn,
        hash=commit.hash,
        branch=commit.branch,
        message=commit.message,
        files=commit.files,
        pushed=commit.pushed,
        pushed_turn=commit.pushed_turn,
        certainty="inferred",
        evidence=(
            Evidence(
                turn=commit.turn,
                command=commit.command,
                shows=f"git printed [{commit.branch} {commit.hash}]",
            ),
        ),
    )


def work_state(index: ArtifactIndex) -> WorkReport:
    """The branch, the commits made (hash, message, files, pushed) and the changed files not committed since.

    ``elsewhere``: the other repositories the session's git commands ran in,
    each with its ``path``, ``branch`` (and the turn it was seen) and commits.
    ``status``: the latest ``git status`` of the workspace (``turn``, ``command``,
    ``files`` as ``[path, state]``, ``not_shown``: the files the trail calls uncommitted that
    it did not list, ``current``: no file changed after it), or None.
    """
    state = index.session.work
    committed_at = state.committed_at
    status = state.status
    uncommitted = []
    unlisted: dict[str, int] = {}
    not_shown = []
    changed_keys = set()
    changed_after = False
    # What the latest status lists untracked: a file the session removed there is another's again.
    untracked = {key for key, listed in status.files if listed == "untracked"} if status else set()
    for file in index.file_states():
        if file.status not in CHANGED_STATUSES:
            continue
        key = file.path
        if is_absolute(key) or key.startswith(".git/"):
            continue  # outside the workspace, or git's own files: nothing a commit holds
        changed_keys.add(key)
        last_change = index.last_change(key)
        shown = file.shown
        if (
            key in untracked
            and status is not None
            and status.seq >= last_change
            and index.last_change_action(key) == "delete"
        ):
            continue  # removed by the session, made again by something else: not its change
        by_trail = last_change > committed_at.get(key, -1)
        says = _status_says(key, file.existed_before is False, last_change, status, state.commits)
        if says is False and by_trail:
            not_shown.append(
                shown
            )  # the trail would call it uncommitted: the status says otherwise
        elif says or (says is None and by_trail):
            uncommitted.append(shown)
            if key in state.unlisted:
                unlisted[shown] = state.unlisted[key]
        if status is not None and last_change > status.seq:
            changed_after = True
    return WorkReport(
        branch=state.branch,
        commits=[_commit_report(c) for c in state.commits],
        unconfirmed_commits=[
            CommitAttemptReport(turn=a.turn, command=a.command) for a in state.unconfirmed_commits
        ],
        uncommitted=sorted(uncommitted),
        unlisted=unlisted,
        elsewhere=[
            OtherRepositoryReport(
                path=path,
                branch=other.branch,
                branch_turn=other.branch_turn,
                commits=[_commit_report(c) for c in other.commits],
                unconfirmed_commits=other.unconfirmed_commits,
                worktree=other.worktree,
            )
            for path, other in sorted(state.repos.items())
        ],
        status=StatusReport(
            turn=status.turn,
            command=status.command,
            not_shown=sorted(not_shown),
            current=not changed_after,
            files=[
                ListedFileReport(
                    path=path, state=listed_state, changed_in_session=path in changed_keys
                )
                for path, listed_state in status.files
            ],
        )
        if status is not None
        else None,
    )
