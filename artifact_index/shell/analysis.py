"""Walking a parsed command: lists, pipelines, ``cd``, redirections, success.

Success rule.  A command's recorded outcome is the status of the last
pipeline that ran.  It is pushed down the list structure (bash lists are
left-associative: ``a && b || c`` is ``(a && b) || c``):

* ``X ; Y`` and ``X & Y``: ``Y`` has the list's outcome; ``X`` ran, its
  status is unknown.
* ``X && Y`` that failed: ``X`` succeeded and ``Y`` failed.  (``X`` may
  have failed instead and ``Y`` never run; either way ``Y`` changed
  nothing, and the commands agents chain before the last one -- ``cd``,
  writing the script they then run -- rarely fail.)  One that succeeded:
  both succeeded.
* ``X || Y`` that failed: both failed.  One that succeeded: either may have
  run; both are unknown (``rm f || true`` still removed ``f``).
* A pipeline has the outcome of its last command; the others are unknown.
* ``if``/``while``/``case`` bodies and ``for`` loops are unknown.

A command whose outcome is *failed* changes nothing, except the files its
redirections named: the shell opens (and truncates) those before the
command runs.  *Unknown* (and ``succeeded=None``) means the effects happened.

``cd`` changes the directory for the rest of the list; inside ``( ... )``,
a pipeline element, ``$( ... )`` or ``bash -c`` it does not leak.
``cwd_after`` is the directory at the end of the top-level list.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Literal

from artifact_index.ingestion.events import FileOperation, ShellDialect
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.effects import UNNAMED_READ, command_effects
from artifact_index.shell.expand import Arg, Scope, expand_word, word_text
from artifact_index.shell.failed_step import (
    echoed_status,
    failed_pipeline_head,
    failed_step,
    shell_refused_to_parse,
)
from artifact_index.shell.invocation import Invocation, program_name
from artifact_index.shell.parser import (
    Command,
    Conditional,
    ForLoop,
    Group,
    Node,
    Pipeline,
    Redirect,
    Script,
    Sequence,
    Sub,
    Subshell,
    parse_command,
)
from artifact_index.shell.state import Files, ShellContext, home_for, join
from artifact_index.shell.windows import parse_windows, shell_dialect

__all__ = ["ShellAnalysis", "analyze_command"]

Outcome = Literal["ok", "failed", "unknown"]

_MAX_NESTING = 5  # bash -c inside python inside bash -c ...
_MAX_LOOP = 64
# `test` operators that ask whether a file exists (readable, non-empty, regular).
_EXISTENCE_TESTS = frozenset({"-e", "-f", "-r", "-s"})


@dataclass(frozen=True)
class ShellAnalysis:
    """What one shell command did to files.

    ``operations``: the effects, in order, each with ``source="shell"`` (or
    ``"patch"``) and ``command`` = the simple command that caused it; paths
    are absolute when the working directory is known.  Conventions: an
    ``edit`` with ``detail="append"`` adds ``new`` at the end of the file
    (``>>``, ``tee -a``); ``restore`` with ``path=None`` restores the whole
    working tree (``git stash``, ``git reset --hard``, ``git checkout .``);
    ``unknown`` says in ``detail`` what could not be named and why; effects
    inferred from a script's code carry ``detail="by script NAME"``.
    ``cwd_after``: the working directory after the command (None when
    unknown), for harnesses whose shell persists between commands.
    ``directories``: directories the command created; a later ``mv f DIR``
    moves into them, so a context may report them through ``is_directory``.
    ``copied``: the trees a recursive copy made (``cp -r``): files a later
    listing shows there are the copy's.
    ``scaffolded``: the folders a starter was scaffolded into (``create-next-app .``,
    ``npm create vite app``): a file first seen later that a listing shows new to
    git is the starter's.
    ``checked_out``: the folders ``git worktree add`` checked a revision out into:
    the files there were in the repository before the session, though the folder
    is new.
    ``cleared``: directories it removed with everything in them (``rm -r``):
    like the ones it created, nothing found in them later predates the
    session.
    ``scratch_files``: content the command wrote to files in temporary
    directories outside the workspace (they are operations too, but a later
    ``python /tmp/fix.py`` needs the script's text even when the caller
    keeps no content): hand it back through ``ShellContext.content_of``.
    ``opaque``: the simple commands that ran a program whose file effects are
    not modelled and may reach files they do not name (an unknown CLI, a
    project script); they claim nothing, but a change the harness saw in the
    working tree while the command ran may be theirs.  Programs known to
    change no followed file (:mod:`.neutral`) are not listed.
    ``refills``: for each such program, the directory it ran in (None when
    unknown) and how many of ``cleared`` were emptied before it ran: a build
    or a generator run in a project may make again what ``rm -rf build``
    removed (``rm -rf build && gleam build``).
    """

    operations: list[FileOperation]
    cwd_after: str | None
    directories: tuple[str, ...] = ()
    scratch_files: dict[str, str] = field(default_factory=dict)
    copied: tuple[str, ...] = ()
    scaffolded: tuple[str, ...] = ()
    checked_out: tuple[str, ...] = ()
    cleared: tuple[str, ...] = ()
    opaque: tuple[str, ...] = ()
    refills: tuple[tuple[str | None, int], ...] = ()


def analyze_command(
    command: str,
    cwd: str | None,
    *,
    succeeded: bool | None,
    context: ShellContext | None = None,
    workspace: str | None = None,
    output: str | None = None,
    dialect: ShellDialect | None = None,
) -> ShellAnalysis:
    """Infer the file effects of a shell command.

    ``cwd`` is the directory the command starts in (None when unknown:
    relative paths are then reported as written, joined with any ``cd``).
    ``succeeded`` is the recorded status (None when the format records
    none).  ``workspace`` is the root whose files count as workspace files
    even when it lies in a temporary directory; it defaults to ``cwd``.
    ``output`` is what the command printed, when it is known.  ``dialect``
    is the shell the harness runs it in; None recognizes cmd.exe and
    PowerShell from the command and the directory (:mod:`.windows`).
    """
    if succeeded is False and shell_refused_to_parse(output):
        # The shell stopped at a syntax error before running anything: no effects at all.
        return ShellAnalysis(operations=[], cwd_after=cwd)
    start = cwd if cwd is not None else ""
    root = workspace if workspace is not None else (cwd if cwd and cwd.startswith("/") else None)
    run = _Run(Files(context, root.rstrip("/") or "/" if root else None), output)
    scope = Scope(start, home=home_for(root, context))
    outcome: Outcome = "unknown" if succeeded is None else ("ok" if succeeded else "failed")
    chosen = shell_dialect(command, cwd, dialect)
    parse = parse_command if chosen == "bash" else partial(parse_windows, dialect=chosen)
    try:
        run.script(command, scope, outcome, parse)
    except RecursionError:
        # Only pathological nesting (hundreds of subshells) gets here; what was found stands.
        run.ops.append(
            FileOperation(
                action="unknown",
                command=command[:200],
                cwd=cwd,
                source="shell",
                detail="command nested too deeply to analyze",
            )
        )
    if succeeded and output and _BUILD_STEP.search(command):
        run.ops.extend(_emitted_files(command, cwd, output, run))
    cwd_after = scope.cwd if scope.cwd else None
    return ShellAnalysis(
        operations=run.ops,
        cwd_after=cwd_after,
        directories=tuple(run.files.directories),
        copied=tuple(run.files.copied),
        scaffolded=tuple(run.files.scaffolded),
        checked_out=tuple(run.files.checked_out),
        scratch_files=dict(run.files.scratch),
        cleared=tuple(run.files.cleared),
        opaque=tuple(run.opaque),
        refills=tuple(run.refills),
    )


# A build step (`vite build`, `pnpm build:staging`, `npm run build`, `make build`).
_BUILD_STEP = lazy_pattern(r"(?:^|[\s;&|(])(?:\S+:)?build(?::\S+)?(?=$|[\s;&|)])")
# A line of a bundler's table of the files it emitted: the path, then its size
# (`dist/server/wrangler.json   1.83 kB │ gzip: 0.89 kB`).
_EMITTED = lazy_pattern(
    r"^[ \t]*(?P<path>(?:[\w@.+-]+/)*[\w@+-][\w@.+-]*\.\w+)[ \t]+[\d.,]+[ \t]*[kKMG]?i?B\b", re.M
)


def _emitted_files(command: str, cwd: str | None, output: str, run: _Run) -> list[FileOperation]:
    """The files the session knows that a build's output lists among those it wrote, as rewritten.

    A file the session read there before (a generated `dist/server/wrangler.json`) is no longer
    what it read: the build made it again. Files the session never saw are left out, as the
    build's other outputs are.
    """
    touched = {op.path for op in run.ops}
    found: list[FileOperation] = []
    for match in _EMITTED.finditer(output):
        path = join(cwd, match["path"])
        if path is None or path in touched or not run.files.known_file(path):
            continue
        touched.add(path)
        found.append(
            FileOperation(
                action="write",
                path=path,
                command=command[:200],
                cwd=cwd or None,
                source="shell",
                detail="the build's output lists it among the files it wrote",
            )
        )
    return found


def _unsubstituted(_: Sub) -> str | None:
    """No value for a command substitution inside a test: running it again would repeat its effects."""
    return None


def _split(operator: str, outcome: Outcome) -> tuple[Outcome, Outcome]:
    """(left, right) outcomes of ``left OP right`` given the outcome of the whole."""
    if operator == "&&":
        return (outcome, outcome) if outcome != "failed" else ("ok", "failed")
    if operator == "||":
        return ("failed", "failed") if outcome == "failed" else ("unknown", "unknown")
    return "unknown", outcome


def _invert(outcome: Outcome) -> Outcome:
    return {"ok": "failed", "failed": "ok", "unknown": "unknown"}[outcome]  # type: ignore[return-value]


class _Run:
    """One analysis: the operations found so far and the file overlay (the Runtime of effects)."""

    def __init__(self, files: Files, output: str | None = None):
        self._files = files
        self._output = output
        self.ops: list[FileOperation] = []
        self.opaque: list[str] = []
        self.refills: list[tuple[str | None, int]] = []
        self.nesting = 0
        self.temp_count = 0
        # Above 0 while walking code whose standard output goes elsewhere than the call's output
        # (a pipe, a redirection, a substitution): what it echoes cannot be looked for there.
        self.hidden = 0

    # -- Runtime ----------------------------------------------------------------

    @property
    def files(self) -> Files:
        return self._files

    @property
    def output(self) -> str | None:
        return self._output

    def run_shell(self, text: str, cwd: str | None, *, failed: bool, dialect: str = "bash") -> None:
        parse: Callable[[str], Script] = (
            partial(parse_windows, dialect="powershell")
            if dialect == "powershell"
            else parse_command
        )
        self.script(
            text,
            Scope(cwd, home=home_for(self.files.workspace, self.files.context)),
            "failed" if failed else "unknown",
            parse,
        )

    def temp_path(self) -> str:
        self.temp_count += 1
        path = f"/tmp/tmp.artifact-index-{self.temp_count}"
        self.files.anonymous.add(path)
        return path

    # -- walking ------------------------------------------------------------------

    def script(
        self,
        text: str,
        scope: Scope,
        outcome: Outcome,
        parse: Callable[[str], Script] = parse_command,
    ) -> str | None:
        if self.nesting >= _MAX_NESTING:
            self.ops.append(
                FileOperation(
                    action="unknown",
                    command=text[:200],
                    source="shell",
                    detail="shell scripts nested too deeply to follow",
                )
            )
            return None
        self.nesting += 1
        try:
            return self.node(parse(text).body, scope, outcome, None)
        finally:
            self.nesting -= 1

    def node(self, node: Node, scope: Scope, outcome: Outcome, stdin: str | None) -> str | None:
        """Run ``node``; return its standard output when it is known."""
        if isinstance(node, Command):
            return self.command(node, scope, outcome, stdin)
        if isinstance(node, Sequence):
            return self.sequence(node, scope, outcome, stdin)
        if isinstance(node, Pipeline):
            return self.pipeline(node, scope, outcome, stdin)
        hides = _sends_stdout_away(getattr(node, "redirects", ()))
        self.hidden += hides
        try:
            if isinstance(node, Subshell):
                out = self.node(node.body, scope.child(), outcome, stdin)
            elif isinstance(node, Group):
                out = self.node(node.body, scope, outcome, stdin)
            elif isinstance(node, Conditional):
                self.node(node.body, scope, "unknown", stdin)
                out = None
            elif isinstance(node, ForLoop):
                self.for_loop(node, scope)
                out = None
            else:
                return None
        finally:
            self.hidden -= hides
        return self.compound_redirects(node.redirects, scope, out, node)

    def sequence(
        self, node: Sequence, scope: Scope, outcome: Outcome, stdin: str | None
    ) -> str | None:
        count = len(node.items)
        # The output may name the step that stopped a failed `&&` chain: the rest never ran.
        stopped = (
            failed_step(node.items, node.operators, self._output) if outcome == "failed" else None
        )
        if stopped is not None:
            count = stopped + 1
        outcomes: list[Outcome] = ["unknown"] * count
        current = outcome
        for k in range(count - 1, 0, -1):
            operator = node.operators[k - 1] if k - 1 < len(node.operators) else ";"
            left, right = _split(operator, current)
            outcomes[k] = right
            current = left
        if count:
            outcomes[0] = current
        for k in range(count - 1):
            if outcomes[k] == "unknown" and k < len(node.operators) and node.operators[k] == ";":
                status = echoed_status(node.items[k + 1], self._output)
                if status is not None:
                    outcomes[k] = "ok" if status == 0 else "failed"
        pieces: list[str | None] = []
        for k, item in enumerate(node.items[:count]):
            if k and node.operators[k - 1] == ";" and self.unreached(item, scope):
                # The output lacks what this step echoes, which no `&&` or `||` could skip: no run
                # got here (a `break`, an `exit` before it), nor past it.
                pieces.append(None)
                break
            background = k < len(node.operators) and node.operators[k] == "&"
            # `[ -f x ] && wc -c < x`: unless the chain is known to have run through,
            # the test may have found no x, and nothing was read.
            guarded = (
                self.tested_path(node.items[k - 1], scope)
                if k and node.operators[k - 1] == "&&" and outcomes[k] != "ok"
                else None
            )
            before = len(self.ops)
            pieces.append(
                self.node(
                    item,
                    scope.child() if background else scope,
                    outcomes[k],
                    stdin if k == 0 else None,
                )
            )
            if guarded is not None:
                self.ops[before:] = [
                    op
                    for op in self.ops[before:]
                    if not (op.action == "read" and op.path == guarded)
                ]
        if stopped is None and all(p is not None for p in pieces):
            return "".join(p for p in pieces if p is not None)
        return None

    def unreached(self, node: Node, scope: Scope) -> bool:
        """Whether ``node`` is an ``echo`` of plain text the call's whole output does not hold.

        Only where its standard output reaches the call's output, and never in an output
        the harness cut short, or for text a shell may rewrite (escapes, options).
        """
        output = self._output
        if (
            self.hidden
            or output is None
            or not isinstance(node, Command)
            or node.redirects
            or len(node.argv) < 2
            or "truncated" in output
            or _NOT_FINISHED.search(output[:400]) is not None
            # Only literal text: a variable's value here is the analysis's guess, not what ran.
            or any(character in node.text for character in "$`*?[{~\\")
        ):
            return False
        words = [word_text(word, scope, _unsubstituted) for word in node.argv]
        if words[0] != "echo" or any(w is None or w.startswith("-") for w in words[1:]):
            return False
        text = " ".join(w for w in words[1:] if w is not None).strip()
        return bool(text) and "\\" not in text and text not in output

    def tested_path(self, node: Node, scope: Scope) -> str | None:
        """The file an existence test (``[ -f x ]``, ``test -e x``) asks about, or None."""
        if not isinstance(node, Command):
            return None
        text = node.text.strip()
        # The parser keeps a bracket test as one word ("test_command"): read its words again.
        for opening, closing in (("[[", "]]"), ("[", "]")):
            if text.startswith(opening + " ") and text.endswith(" " + closing):
                text = "test " + text[len(opening) : -len(closing)]
                break
        parsed = parse_command(text).body.items
        if len(parsed) != 1 or not isinstance(parsed[0], Command):
            return None
        words = parsed[0].argv
        if len(words) != 3 or word_text(words[0], scope, _unsubstituted) != "test":
            return None
        if word_text(words[1], scope, _unsubstituted) not in _EXISTENCE_TESTS:
            return None
        path = word_text(words[2], scope, _unsubstituted)
        return join(scope.cwd, path) if path else None

    def pipeline(
        self, node: Pipeline, scope: Scope, outcome: Outcome, stdin: str | None
    ) -> str | None:
        last = _invert(outcome) if node.negated else outcome
        data = stdin
        count = len(node.commands)
        # The pipeline's status is its last command's; the output may show that its head failed.
        head: Outcome = "failed" if failed_pipeline_head(node.commands, self._output) else "unknown"
        for k, item in enumerate(node.commands):
            # Elements of a multi-command pipeline run in subshells.
            inner = scope.child() if count > 1 else scope
            piped = k < count - 1
            self.hidden += piped
            try:
                data = self.node(
                    item, inner, last if k == count - 1 else head if k == 0 else "unknown", data
                )
            finally:
                self.hidden -= piped
        return data

    def for_loop(self, node: ForLoop, scope: Scope) -> None:
        values: list[str | None]
        if node.values is None:
            values = [None]
        else:
            args: list[Arg] = []
            for word in node.values:
                args.extend(expand_word(word, scope, self.files, self.substituter(scope)))
            values = [None if a.value is None or a.glob else a.value for a in args]
            if any(v is None for v in values):
                values = [None]
        start = len(self.ops)
        for value in values[:_MAX_LOOP]:
            scope.variables[node.variable] = value
            self.node(node.body, scope, "unknown", None)
        if values == [None] and node.values is not None:
            # A read of the loop's variable reads what the loop's words name when it runs: say them.
            over = f"for {node.variable} in {' '.join(a.raw for a in args)}"
            for k in range(start, len(self.ops)):
                op = self.ops[k]
                if (
                    op.action == "read"
                    and op.path is None
                    and _names_variable(op.detail, node.variable)
                ):
                    self.ops[k] = op.model_copy(update={"detail": f"{UNNAMED_READ} ({over})"})

    # -- simple commands ------------------------------------------------------

    def substituter(self, scope: Scope) -> _Substituter:
        return _Substituter(self, scope)

    def command(
        self, cmd: Command, scope: Scope, outcome: Outcome, stdin: str | None
    ) -> str | None:
        substitute = self.substituter(scope)
        if not cmd.argv:
            for name, word in cmd.assignments:
                scope.variables[name] = word_text(word, scope, substitute)
            self.redirects(cmd, scope, None, substitute)
            return ""
        args: list[Arg] = []
        for word in cmd.argv:
            args.extend(expand_word(word, scope, self.files, substitute))
        program = program_name(args[0].value) if args else None
        failed = outcome == "failed"
        builtin = _BUILTINS.get(program or "")
        if builtin is not None:
            out = builtin(self, cmd, args, scope, failed)
            self.redirects(cmd, scope, out, substitute)
            return out
        stdin_text, stdin_path = self.stdin(cmd, scope, substitute, stdin)
        inv = Invocation(tuple(args), cmd.text, scope.cwd, stdin_text, stdin_path, failed)
        effect = command_effects(inv, self)
        if effect.opaque:
            self.opaque.append(cmd.text)
            self.refills.append((scope.cwd or None, len(self.files.cleared)))
        for op in effect.operations:
            self.emit(op)
        return self.redirects(cmd, scope, effect.stdout, substitute)

    def stdin(
        self, cmd: Command, scope: Scope, substitute: _Substituter, piped: str | None
    ) -> tuple[str | None, str | None]:
        text, path = piped, None
        for r in cmd.redirects:
            if r.fd not in (None, 0):
                continue
            if r.op == "<<":
                text = word_text(r.body, scope, substitute) if r.body is not None else None
            elif r.op == "<<<":
                value = word_text(r.body, scope, substitute) if r.body is not None else None
                text = value + "\n" if value is not None else None
            elif r.op == "<" and r.target is not None:
                value = word_text(r.target, scope, substitute)
                path = join(scope.cwd, value) if value else None
                text = self.files.content_of(path) if path else None
                if path is not None:
                    self.emit(
                        FileOperation(
                            action="read",
                            path=path,
                            command=cmd.text,
                            cwd=scope.cwd or None,
                            source="shell",
                        )
                    )
        return text, path

    def redirects(
        self, cmd: Command, scope: Scope, stdout: str | None, substitute: _Substituter
    ) -> str | None:
        """Files the command's output redirections write; returns what still goes to the pipe."""
        piped = stdout
        outputs = [
            r
            for r in cmd.redirects
            if r.op in (">", ">|", ">>", "&>", "&>>", ">&") and r.target is not None
        ]
        for n, r in enumerate(outputs):
            assert r.target is not None
            value = word_text(r.target, scope, substitute)
            if r.op == ">&" and (value is None or value.isdigit() or value == "-"):
                continue  # 2>&1: a descriptor, not a file
            to_stdout = r.fd in (None, 1) or r.op.startswith("&") or (r.op == ">&" and r.fd is None)
            if to_stdout:
                piped = None
            later_stdout = any(
                o.fd in (None, 1) or o.op.startswith("&") for o in outputs[n + 1 :] if o.op != ">&"
            )
            content = stdout if to_stdout and not later_stdout else ("" if to_stdout else None)
            path = join(scope.cwd, value) if value is not None else None
            if path is None:
                shown = value if value is not None else r.target.raw
                self.emit(
                    FileOperation(
                        action="unknown",
                        command=cmd.text,
                        cwd=scope.cwd or None,
                        source="shell",
                        detail=f"output redirected to {shown}, which cannot be placed",
                    )
                )
                continue
            if r.op in (">>", "&>>"):
                op = FileOperation(
                    action="edit",
                    path=path,
                    new=content,
                    detail="append",
                    command=cmd.text,
                    cwd=scope.cwd or None,
                    source="shell",
                )
            else:
                op = FileOperation(
                    action="write",
                    path=path,
                    content=content,
                    command=cmd.text,
                    cwd=scope.cwd or None,
                    source="shell",
                )
            self.emit(op)
        return piped

    def compound_redirects(
        self, redirects: tuple[Redirect, ...], scope: Scope, stdout: str | None, node: Node
    ) -> str | None:
        if not redirects:
            return stdout
        return self.redirects(
            Command((), (), redirects, _describe(node)), scope, stdout, self.substituter(scope)
        )

    # -- emitting -------------------------------------------------------------

    def emit(self, op: FileOperation) -> None:
        """Record ``op`` unless it only touches devices, git's bookkeeping or anonymous temporary files.

        Named files in temporary directories (``/tmp/cleanup.sh``) are kept:
        they may be the deliverable, and the trail marks them as outside the
        workspace.  A ``mktemp`` file has no name worth keeping: a move out
        of it writes its destination, a move into it deletes its source.
        """
        files = self.files
        src = files.kind(op.path) if op.path else "workspace"
        if op.action in ("move", "copy") and op.dest:
            dst = files.kind(op.dest)
            if "device" in (src, dst) or "git" in (src, dst):
                return
            if src == "anonymous" and dst == "anonymous":
                files.record(op)
                return
            if dst == "anonymous":
                if op.action == "move":
                    self._keep(
                        op.model_copy(
                            update={
                                "action": "delete",
                                "dest": None,
                                "detail": "moved to a temporary file",
                            }
                        )
                    )
                files.record(op)
                return
            if src == "anonymous":
                content = files.content_of(op.path) if op.path else None
                files.record(op)
                self._keep(
                    op.model_copy(
                        update={
                            "action": "write",
                            "path": op.dest,
                            "dest": None,
                            "content": content,
                            "detail": f"{op.action} of a temporary file",
                        }
                    )
                )
                return
        if src in ("device", "git"):
            return
        if src == "anonymous":
            files.record(op)
            return
        self._keep(op)

    def _keep(self, op: FileOperation) -> None:
        self.ops.append(op)
        self.files.record(op)


@dataclass
class _Substituter:
    """Runs ``$( ... )`` for its effects and gives its output when that is known."""

    run: _Run
    scope: Scope

    def __call__(self, sub: Sub) -> str | None:
        self.run.hidden += 1
        try:
            if sub.process:
                self.run.node(sub.script, self.scope.child(), "unknown", None)
                return "/dev/fd/63"
            out = self.run.node(sub.script, self.scope.child(), "unknown", None)
        finally:
            self.run.hidden -= 1
        return out.rstrip("\n") if out is not None else None


# A harness's word that the command was still running: what it printed is not all there.
_NOT_FINISHED = lazy_pattern(
    r"^(?:Command running in background with ID: |Script running with cell ID "
    r"|Process running with session ID )",
    re.M,
)


def _sends_stdout_away(redirects: tuple[Redirect, ...]) -> bool:
    """Whether a compound command's redirections send its standard output to a file."""
    return any(r.fd in (None, 1) and not r.op.startswith("<") for r in redirects)


def _describe(node: Node) -> str:
    if isinstance(node, Subshell):
        return "( ... )"
    if isinstance(node, Group):
        return "{ ... }"
    if isinstance(node, ForLoop):
        return f"for {node.variable} in ...; done"
    if isinstance(node, Conditional):
        return f"{node.kind} ... "
    return ""


# ---------------------------------------------------------------------------
# Builtins that act on the shell itself


def _cd(run: _Run, cmd: Command, args: list[Arg], scope: Scope, failed: bool) -> str | None:
    if failed:
        return ""
    operands = [a for a in args[1:] if a.value not in ("-L", "-P", "-e", "-@", "--")]
    target = operands[0] if operands else None
    previous = scope.cwd
    if target is None:
        scope.cwd = None  # $HOME, which is not known
    elif target.value == "-":
        old = scope.variables.get("OLDPWD")
        scope.cwd = old if old is not None else None
    elif target.value is None or target.glob:
        scope.cwd = None
    elif _zoxide_stayed(run.output, scope.cwd, target.value):
        pass
    else:
        scope.cwd = join(scope.cwd, target.value)
    if previous is not None:
        scope.variables["OLDPWD"] = previous
    return ""


def _zoxide_stayed(output: str | None, cwd: str | None, target: str) -> bool:
    """Whether ``cd target`` was zoxide's jump, which left the shell where it was.

    With zoxide set up as ``cd``, a target is a query matched against the
    directories visited, not a path: ``cd apps/api`` run inside ``apps/api``
    stays there ("zoxide: you are already in the only match"), where a plain
    ``cd`` would have gone to ``apps/api/apps/api``.
    """
    if not output or "zoxide:" not in output:
        return False
    if "you are already in the only match" in output:
        return True
    return cwd is not None and (cwd.rstrip("/") + "/").endswith("/" + target.strip("/") + "/")


def _pushd(run: _Run, cmd: Command, args: list[Arg], scope: Scope, failed: bool) -> str | None:
    if failed:
        return None
    previous = scope.cwd
    operands = [a for a in args[1:] if not (a.value or "").startswith(("-", "+"))]
    if not operands:
        return None
    _cd(run, cmd, [args[0], operands[0]], scope, False)
    scope.directory_stack.append(previous)
    return None


def _popd(run: _Run, cmd: Command, args: list[Arg], scope: Scope, failed: bool) -> str | None:
    if not failed:
        scope.cwd = scope.directory_stack.pop() if scope.directory_stack else None
    return None


def _source(run: _Run, cmd: Command, args: list[Arg], scope: Scope, failed: bool) -> str | None:
    if failed or len(args) < 2:
        return None
    path = join(scope.cwd, args[1].value) if args[1].value else None
    text = run.files.content_of(path) if path else None
    if text is None:
        shown = args[1].value or args[1].raw
        run.emit(
            FileOperation(
                action="unknown",
                command=cmd.text,
                cwd=scope.cwd or None,
                source="shell",
                detail=f"sources {shown}, whose text is not known",
            )
        )
        return None
    if run.nesting < _MAX_NESTING:
        run.nesting += 1
        try:
            run.node(parse_command(text).body, scope, "unknown", None)
        finally:
            run.nesting -= 1
    return None


def _eval(run: _Run, cmd: Command, args: list[Arg], scope: Scope, failed: bool) -> str | None:
    if any(a.value is None for a in args[1:]):
        if not failed:
            run.emit(
                FileOperation(
                    action="unknown",
                    command=cmd.text,
                    cwd=scope.cwd or None,
                    source="shell",
                    detail="eval runs a command known only at run time",
                )
            )
        return None
    text = " ".join(a.value or "" for a in args[1:])
    if run.nesting < _MAX_NESTING:
        run.nesting += 1
        try:
            return run.node(
                parse_command(text).body, scope, "failed" if failed else "unknown", None
            )
        finally:
            run.nesting -= 1
    return None


def _declare(run: _Run, cmd: Command, args: list[Arg], scope: Scope, failed: bool) -> str | None:
    substitute = run.substituter(scope)
    for name, word in cmd.assignments:
        scope.variables[name] = word_text(word, scope, substitute)
    return ""


def _unset(run: _Run, cmd: Command, args: list[Arg], scope: Scope, failed: bool) -> str | None:
    for arg in args[1:]:
        if arg.value:
            scope.variables.pop(arg.value, None)
    return ""


def _pwd(run: _Run, cmd: Command, args: list[Arg], scope: Scope, failed: bool) -> str | None:
    return scope.cwd + "\n" if scope.cwd else None


def _mktemp(run: _Run, cmd: Command, args: list[Arg], scope: Scope, failed: bool) -> str | None:
    path = run.temp_path()
    operands = [a for a in args[1:] if a.value and not a.value.startswith("-")]
    if operands and operands[0].value and "/" in operands[0].value:
        path = join(scope.cwd, operands[0].value.replace("X", "0")) or path
        run.files.anonymous.add(path)  # the X's are random: the name means nothing
    if not any(a.value in ("-d", "--directory") for a in args[1:]):
        run.files.record(FileOperation(action="write", path=path, content=""))
    return path + "\n"


def _path_tool(run: _Run, cmd: Command, args: list[Arg], scope: Scope, failed: bool) -> str | None:
    name = program_name(args[0].value)
    # An operand whose value is not known (a loop's variable over a glob) is an operand still:
    # `basename "$f" .agent` is not `basename .agent`.
    operands = [a for a in args[1:] if a.value is None or (a.value and not a.value.startswith("-"))]
    if len(operands) != 1 or operands[0].value is None:
        return None
    value = operands[0].value
    if name == "dirname":
        return (posixpath.dirname(value.rstrip("/")) or ".") + "\n"
    if name == "basename":
        return posixpath.basename(value.rstrip("/")) + "\n"
    placed = join(scope.cwd, value)
    return placed + "\n" if placed and placed.startswith("/") else None


def _silent(run: _Run, cmd: Command, args: list[Arg], scope: Scope, failed: bool) -> str | None:
    return ""


_BUILTINS = {
    "cd": _cd,
    "pushd": _pushd,
    "popd": _popd,
    "source": _source,
    ".": _source,
    "eval": _eval,
    "export": _declare,
    "declare": _declare,
    "local": _declare,
    "readonly": _declare,
    "typeset": _declare,
    "unset": _unset,
    "pwd": _pwd,
    "mktemp": _mktemp,
    "dirname": _path_tool,
    "basename": _path_tool,
    "realpath": _path_tool,
    "true": _silent,
    ":": _silent,
    "set": _silent,
    "shopt": _silent,
    "test": _silent,
    "[": _silent,
    "[[": _silent,
    "exit": _silent,
    "return": _silent,
}


def _names_variable(detail: str | None, variable: str) -> bool:
    """Whether an operation's detail names the shell variable (``$f`` or ``${f}``)."""
    return detail is not None and (f"${variable}" in detail or f"${{{variable}}}" in detail)
