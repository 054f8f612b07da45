"""What the harness took away at the end of a run: the submission.

SWE-bench harnesses end a run by submitting a diff; the sandbox, with
everything else the agent left in it, is then thrown away.  mini-swe-agent
submits whatever the agent's last command prints after
``COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT``: ``git add -A && git diff
--cached`` (every change, scratch scripts included) in some configurations,
``cat patch.txt`` after ``git diff -- src/fix.py > patch.txt`` (only the
files the agent chose) in others.  So "which files did this run change"
has two honest answers: the files that changed in the sandbox, and the
files the run delivered.  The tracker keeps both: a file's status is its
state in the sandbox, and :class:`GitModel` works out which of the changed
files the submission holds.

The submitted files are inferred from the agent's own commands, the way
git would compute them: ``git diff`` shows tracked files (ones that
existed before the session), ``git diff --cached`` what ``git add``
staged, pathspecs narrow both, and ``cat F`` prints the diff an earlier
``git diff ... > F`` wrote (or the patch text F is known to hold).  The
diff the harness recorded is never read.  Whatever cannot be worked out
(a commit, a pipe, a revision other than ``HEAD``, a program that is not
``git``/``cat``/``echo``) leaves the submission unresolved, and then no
file is said to be outside it.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable
from dataclasses import dataclass

from artifact_index.ingestion.patches import parse_patch
from artifact_index.shell.git import skip_global_options
from artifact_index.shell.listing import SimpleCommand, simple_commands
from artifact_index.trail.index import CHANGED_STATUSES, ArtifactIndex
from artifact_index.trail.paths import file_key, join
from artifact_index.trail.session_state import Staging, SubmissionRecord, WrittenDiff

__all__ = ["DiffScope", "GitModel", "diff_scope", "git_words"]

_QUIET_PROGRAMS = frozenset({"echo", "printf", "cd", "true", ":", "pwd"})
_INFORMATIONAL = frozenset(
    {"status", "log", "branch", "rev-parse", "ls-files", "remote", "config", "--version"}
)
_HEAD = frozenset({"HEAD", "@"})


@dataclass(frozen=True)
class DiffScope:
    """Which changed files one ``git diff`` prints.

    ``cached``: index against ``HEAD`` (``--cached``/``--staged``);
    ``head``: working tree against ``HEAD``; neither: working tree against
    the index.  ``pathspecs``: placed paths (absolute when the directory
    was known); empty means the whole tree.  ``excludes``: placed paths of
    ``:!path`` / ``:(exclude)path`` pathspecs, taken out of the rest.
    """

    cached: bool
    head: bool
    pathspecs: tuple[str, ...]
    excludes: tuple[str, ...] = ()


def git_words(step: SimpleCommand) -> tuple[str | None, list[str | None], str | None]:
    """(subcommand, its arguments, the directory git works in) of a ``git`` step."""
    start, cwd = skip_global_options(step.argv[1:], step.cwd)
    args = list(step.argv[1 + start :])
    if not args:
        return None, [], cwd
    return args[0], args[1:], cwd


def diff_scope(step: SimpleCommand) -> DiffScope | None:
    """The scope of a ``git diff`` step; None when it is not one this model covers."""
    sub, args, cwd = git_words(step)
    if step.program != "git" or sub != "diff":
        return None
    cached = head = False
    paths: list[str] = []
    after_dashes = False
    for arg in args:
        if arg is None:
            return None
        if after_dashes:
            paths.append(arg)
        elif arg == "--":
            after_dashes = True
        elif arg in ("--cached", "--staged"):
            cached = True
        elif arg == "--no-index" or arg.startswith(("--output", "--diff-filter", "-R")):
            return None  # not the session's changes, or not all of them, or not where they show
        elif arg.startswith("-"):
            continue  # output shape (--stat, --name-only, -U5, --no-color): same files
        elif arg in _HEAD:
            head = True
        elif ".." in arg or "~" in arg or "^" in arg or "@{" in arg:
            return None  # another revision: its changes are not the session's
        else:
            paths.append(arg)  # git takes an operand that is not a revision as a path
    included: list[str] = []
    excluded: list[str] = []
    for path in paths:
        magic, plain = _magic(path)
        if magic is None:
            return None  # pathspec magic other than exclude / top is not modelled
        placed = join(None, plain) if "top" in magic else (join(cwd, plain) if cwd else plain)
        (excluded if "exclude" in magic else included).append(placed)
    return DiffScope(
        cached=cached, head=head and not cached, pathspecs=tuple(included), excludes=tuple(excluded)
    )


def _magic(pathspec: str) -> tuple[set[str] | None, str]:
    """(the pathspec's magic words, the path); None when the magic is not one this model knows."""
    if not pathspec.startswith(":"):
        return set(), pathspec
    if pathspec.startswith(":("):
        words, _, rest = pathspec[2:].partition(")")
        magic = {w.strip() for w in words.split(",") if w.strip()}
        return (magic if magic <= {"exclude", "top"} else None), rest
    magic = set()
    rest = pathspec[1:]
    while rest[:1] in ("!", "^", "/"):
        magic.add("top" if rest[0] == "/" else "exclude")
        rest = rest[1:]
    rest = rest.removeprefix(":")
    return magic, rest


class GitModel:
    """Staging, diffs written to files, and the submission, kept in the session state."""

    def __init__(self, index: ArtifactIndex) -> None:
        self.index = index
        self.state = index.session.git

    # -- observing commands ------------------------------------------------------
    def observe(self, command: str, cwd: str | None, dialect: str | None = None) -> None:
        """Follow the staging and the ``git diff > FILE`` of a command that ran (in the shell ``dialect`` names)."""
        if "git" not in command:
            return
        steps = simple_commands(command, cwd, dialect)
        if steps is None:
            if any(
                word in command
                for word in ("git add", "git commit", "git reset", "git rm", "git stash")
            ):
                self.state.unsure = (
                    "a git command inside a construct that is not followed changed the index"
                )
            return
        for step in steps:
            if step.program != "git":
                continue
            self.stage(step, self.state)
            if step.stdout is not None and git_words(step)[0] == "diff":
                scope = diff_scope(step)
                keys = self.files_in(scope, self.state) if scope is not None else None
                self.state.diffs[self._key(step.stdout)] = WrittenDiff(
                    seq=self.index.session.op_count, files=keys
                )

    def stage(self, step: SimpleCommand, state: Staging) -> None:
        """Apply one ``git`` step to a staging ``state`` (this model's, or a caller's own copy)."""
        sub, args, cwd = git_words(step)
        operands = [a for a in args if a is None or not a.startswith("-")]
        options = {a for a in args if a is not None and a.startswith("-")}
        if sub == "add" or sub == "mv" or (sub == "rm" and "--cached" not in options):
            if sub == "add" and not operands:
                # `git add -A` / `-u` with no path: the whole tree (tracked files only for -u).
                if options & {"-A", "--all"}:
                    state.staged_all = True
                elif options & {"-u", "--update"}:
                    state.staged_tracked = True
                return
            for operand in operands:
                if operand is None:
                    state.unsure = f"git {sub} of a path known only at run time"
                    continue
                spec = self._key(join(cwd, operand) if cwd else operand)
                if spec == "." or operand in ("*", ":/"):
                    state.staged_all = True
                else:
                    state.staged = sorted({*state.staged, spec})
        elif (
            (sub in ("reset", "stash") and not operands)
            or (sub == "reset" and operands == ["HEAD"])
            # `git reset --hard REF` takes no paths: the index is REF's, nothing staged.
            or (sub == "reset" and "--hard" in options and "--" not in args)
        ):
            state.staged_all = state.staged_tracked = False
            state.staged = []
        elif sub == "commit":
            state.unsure = "the session committed, so diffs no longer show its changes"
        elif (
            sub == "reset" or sub == "rm" or (sub == "restore" and options & {"--staged", "-S"})
        ) and operands:
            if sub != "rm" and all(self._whole_tree(operand, cwd) for operand in operands):
                # `git restore --staged :/`, `git reset -- .` at the top: nothing staged any more.
                state.staged_all = state.staged_tracked = False
                state.staged = []
            else:
                state.unsure = f"git {sub} unstaged some paths"

    def _whole_tree(self, operand: str | None, cwd: str | None) -> bool:
        """Whether a path operand of git names the whole working tree (``:/``, ``.`` at its top)."""
        if operand is None:
            return False
        return operand == ":/" or (
            operand in (".", "./") and self._key(join(cwd, operand) if cwd else operand) == "."
        )

    # -- which files a diff shows ---------------------------------------------
    def _key(self, path: str) -> str:
        return file_key(path, None, self.index.root)

    def _matches(self, key: str, specs: Iterable[str]) -> bool:
        for spec in specs:
            if spec in (".", "") or key == spec or key.startswith(spec.rstrip("/") + "/"):
                return True
            if any(c in spec for c in "*?[") and fnmatch.fnmatchcase(key, spec):
                return True
        return False

    def files_in(self, scope: DiffScope, state: Staging) -> list[str] | None:
        """Keys of the changed files ``scope`` shows now; None when the model cannot tell."""
        if state.unsure:
            return None
        specs = [self._key(p) for p in scope.pathspecs]
        excludes = [self._key(p) for p in scope.excludes]
        out = []
        for file in self.index.file_states():
            key = file.path
            if file.status not in CHANGED_STATUSES or self.index.is_outside(key):
                continue  # unchanged, or outside the repository the diff is taken in
            if (specs and not self._matches(key, specs)) or (
                excludes and self._matches(key, excludes)
            ):
                continue
            tracked = file.existed_before is not False
            staged = (
                state.staged_all
                or (state.staged_tracked and tracked)
                or self._matches(key, state.staged)
            )
            if scope.cached:
                shown = staged
            elif scope.head:
                shown = tracked or staged
            else:
                shown = tracked and not staged
            if shown:
                out.append(key)
        return sorted(out)

    # -- the submission ----------------------------------------------------------
    def submit(
        self, command: str | None, cwd: str | None, turn: int, exit_status: str | None
    ) -> None:
        """Record the submission: ``command`` printed it (None: the run ended without one)."""
        files: list[str] | None = []
        unresolved = None
        if command is not None:
            files, unresolved = self._printed_diff(command, cwd)
        self.index.session.submission = SubmissionRecord(
            turn=turn, command=command, exit_status=exit_status, files=files, unresolved=unresolved
        )

    def _printed_diff(self, command: str, cwd: str | None) -> tuple[list[str] | None, str | None]:
        """Keys of the files in the diff ``command`` prints, or (None, why not)."""
        steps = simple_commands(command, cwd)
        if steps is None:
            return None, "the submit command is not a plain list of commands"
        # Staging the submit command does is its own: the model's state stays as it was.
        state = self.state.model_copy(update={"staged": list(self.state.staged)})
        found: set[str] = set()
        for step in steps:
            if step.piped:
                return None, "the submitted output goes through a pipe"
            if step.stdout is not None or step.program in _QUIET_PROGRAMS:
                continue
            if step.program == "git":
                self.stage(step, state)
                sub, _, _ = git_words(step)
                if sub in _INFORMATIONAL or sub in ("add", "reset", "rm", "mv"):
                    continue
                scope = diff_scope(step)
                keys = self.files_in(scope, state) if scope is not None else None
                if keys is None:
                    shown = " ".join(a or "?" for a in step.argv)
                    return None, state.unsure or f"cannot tell which files `{shown}` prints"
                found.update(keys)
            elif step.program == "cat":
                for operand in step.argv[1:]:
                    if operand is not None and operand.startswith("-"):
                        continue
                    keys = self._diff_held_by(
                        join(step.cwd, operand) if operand and step.cwd else operand
                    )
                    if keys is None:
                        return None, f"cannot tell which diff {operand} holds"
                    found.update(keys)
            else:
                return None, f"`{step.program}` prints something the tracker cannot see"
        return sorted(found), None

    def _diff_held_by(self, path: str | None) -> list[str] | None:
        """The files of the diff ``path`` holds: written by ``git diff``, or known patch text."""
        if path is None:
            return None
        key = self._key(path)
        file = self.index.file_state(key)
        written = self.state.diffs.get(key)
        if written is not None and self.index.last_change(key) <= written.seq:
            return list(written.files) if written.files is not None else None
        content = file.content if file is not None else None
        if content is None:
            return None
        operations = parse_patch(content)
        if not operations:
            return None
        root = self.index.root
        return sorted(
            {self._key(join(root, op.path) if root else op.path) for op in operations if op.path}
        )
