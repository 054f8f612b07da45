"""A shell command in the trail: its analyzed file effects, then what it tells the git, work-state and directory models.

The tracker applies the effects between :func:`analyze_shell` and
:func:`follow_shell`, like any tool's operations.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from artifact_index.facts.errors.failed_commands import says_nothing
from artifact_index.facts.errors.ledger import started_in_background
from artifact_index.facts.work_items import observe_tracker_command
from artifact_index.ingestion.events import FileOperation, ToolResult
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.listing import simple_commands
from artifact_index.shell.ls_output import listed_files
from artifact_index.shell.state import ShellContext
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.paths import file_key, is_absolute, join
from artifact_index.trail.session_state import PossibleChange
from artifact_index.trail.submission import GitModel
from artifact_index.trail.work_state import WorkState

__all__ = ["PERSISTENT_SHELL_FORMATS", "ShellRun", "analyze_shell", "follow_shell"]

# Formats whose shell tool keeps one shell process, so a `cd` in one command
# moves every later command (and relative paths of later tool calls).
PERSISTENT_SHELL_FORMATS = frozenset(
    {"claude-code", "entire-compact", "swe-agent", "openhands", "copilot-cli", "cline"}
)

# Claude Code's note when a `cd` left the project: the next command starts in the project again.
_CWD_RESET = lazy_pattern(r"^Shell cwd was reset to (/\S.*?)\s*$", re.M)

# Failures that mean the command was never started: the person refused it, a
# hook or a permission rule blocked it, the harness rejected its arguments, or
# it was cancelled before it ran (a sibling call failed, the person stopped it
# at its prompt).  Not even its redirections were opened.
_NEVER_STARTED = frozenset(
    {"rejected", "hook_blocked", "permission", "invalid", "not_read", "stale", "interrupted"}
)
# Failures of those kinds that come after the command started: it ran until
# its time limit, or it ran in a sandbox that refused one of its writes.
_RAN_ANYWAY = lazy_pattern(r"timed out|timeout|sandbox", re.I)

# The shell's own complaint that it could not open a redirection's target,
# in zsh's and bash's (or sh's) words: nothing was written there, and the
# command the redirection belonged to did not run.
_UNOPENED = lazy_pattern(
    r"^(?:zsh:\d+: (?:no such file or directory|permission denied|is a directory"
    r"|not a directory|read-only file system): (?P<zsh>.+?)"
    r"|(?:/bin/|/usr/bin/)?(?:ba|da)?sh: (?:line \d+: )?(?P<bash>.+?): (?:No such file or directory"
    r"|Permission denied|Is a directory|Not a directory|Read-only file system))\s*$",
    re.M,
)
# Words one of those complaints holds: most outputs hold none, and skip the pattern.
_UNOPENED_WORDS = ("no such file", "permission denied", "a directory", "read-only")
_WRITES = frozenset({"write", "create", "edit"})


def _never_ran(result: ToolResult) -> bool:
    """Whether the call's failure says it never started, so it had no effect at all."""
    if result.status != "failure" or result.failure not in _NEVER_STARTED:
        return False
    return not _RAN_ANYWAY.search(result.output[:600])


def unopened_targets(output: str) -> set[str]:
    """The paths the shell says it could not open (as the command spelled them)."""
    lowered = output.lower()
    if not any(word in lowered for word in _UNOPENED_WORDS):
        return set()
    return {
        (found.group("zsh") or found.group("bash")).strip() for found in _UNOPENED.finditer(output)
    }


@dataclass
class ShellRun:
    """One analyzed shell command."""

    cwd: str | None  # where it ran
    succeeded: bool | None
    effects: list[FileOperation]
    lone_read: bool  # the output shows one file: reading it is the whole command
    cwd_after: str | None
    opaque: tuple[str, ...] = ()  # commands that may change files they do not name
    cleared: tuple[str, ...] = ()  # directories it removed with everything in them
    # Programs that may write files they do not name: (where they ran, how many of ``cleared``
    # were emptied before), see ShellAnalysis.refills.
    refills: tuple[tuple[str | None, int], ...] = ()
    started: bool = True  # False: refused or cancelled before it ran, so it did nothing


def analyze_shell(
    index: ArtifactIndex,
    context: ShellContext,
    op: FileOperation,
    cwd: str | None,
    result: ToolResult,
    turn: int,
) -> ShellRun:
    """The file effects of ``op``'s command (run at ``turn``); the directories it made or emptied are noted at once."""
    session = index.session
    succeeded = {"success": True, "failure": False}.get(result.status)
    started = not _never_ran(result)
    shell_cwd = op.cwd or cwd
    if shell_cwd and not is_absolute(shell_cwd):
        shell_cwd = join(cwd, shell_cwd)
    # Imported with the first shell call: a run that feeds none (a hook that finds nothing
    # appended since its kept state) does without the analysis and its effect handlers.
    from artifact_index.shell.analysis import analyze_command

    analysis = analyze_command(
        op.command or "",
        shell_cwd,
        # What one that never started would have done: each of it a failed attempt.
        succeeded=succeeded if started else None,
        context=context,
        workspace=session.root,
        output=result.output or None,
        dialect=op.dialect,
    )
    # With no known start, the analysis already placed a path under its
    # relative `cd`: joining that again would double it.
    placed = [
        effect.model_copy(update={"cwd": None})
        if effect.cwd and not is_absolute(effect.cwd)
        else effect
        for effect in analysis.operations
    ]
    if not started:
        return ShellRun(shell_cwd, False, placed, False, None, started=False)
    if analysis.directories:
        session.directories = sorted({*session.directories, *analysis.directories})
    if analysis.copied:
        session.copied_trees = sorted({*session.copied_trees, *analysis.copied})
        if succeeded is not False:
            placed += _copied_in(index, analysis.copied, placed, shell_cwd)
    if analysis.scaffolded and succeeded is not False:
        scaffold = PossibleChange(turn=turn, command=op.command or "", seq=session.op_count)
        session.scaffolded_trees = {
            **session.scaffolded_trees,
            **dict.fromkeys(analysis.scaffolded, scaffold),
        }
    if analysis.checked_out and succeeded is not False:
        session.checked_out_trees = sorted({*session.checked_out_trees, *analysis.checked_out})
    if analysis.cleared:
        session.cleared_directories = sorted({*session.cleared_directories, *analysis.cleared})
    if succeeded is not False and result.output and shell_cwd:
        # The files an `ls` showed: a later glob over that directory names them.
        seen = listed_files(op.command or "", shell_cwd, result.output)
        if seen is not None:
            session.listed_files = {**session.listed_files, seen[0]: seen[1]}
    if analysis.scratch_files:
        # What temporary files hold (a /tmp script the agent writes, then
        # runs): a later command may run them.
        session.scratch = {**session.scratch, **analysis.scratch_files}
    unopened = unopened_targets(result.output)
    if unopened:
        placed = [e for e in placed if not _unopened(e, unopened, shell_cwd)]
    unmade = _writes_found_missing(placed, op.command or "", result.output)
    # Only an output the transcript recorded can show a read printed nothing.
    unseen = (
        _reads_not_seen(
            placed,
            op.command or "",
            result.output,
            shell_cwd,
            # A command still running (Codex) or run in the background has printed no end yet.
            complete=not result.running and not started_in_background(result.output or ""),
        )
        if succeeded is not None
        else set()
    )
    placed = [
        e
        for n, e in enumerate(placed)
        if n not in unmade
        and n not in unseen
        and not _read_failed(e, op.command or "", result.output)
        and not _edit_found_no_file(e, result.output)
        and not _delete_found_no_file(e, op.command or "", result.output)
    ]
    # The output shows one file only when reading it is the whole command
    # (not `cat -n a b`, not `cat -n a | head`, not `cat -n a && make`).
    lone_read = (
        len(placed) == 1
        and placed[0].action == "read"
        and " ".join((placed[0].command or "").split()) == " ".join((op.command or "").split())
    )
    return ShellRun(
        shell_cwd,
        succeeded,
        placed,
        lone_read,
        analysis.cwd_after,
        analysis.opaque,
        analysis.cleared,
        analysis.refills,
    )


def _copied_in(
    index: ArtifactIndex, trees: tuple[str, ...], effects: list[FileOperation], cwd: str | None
) -> list[FileOperation]:
    """The files a ``cp -r`` into a new folder made that an earlier read had found missing.

    The copy's files are otherwise unknown; one the session looked for there and did not find
    (a Read said "File does not exist") is there now because the copy brought it, so a later
    read of it is no read of a file that predates the session.
    """
    made: list[FileOperation] = []
    for tree in trees:
        copy = next(
            (
                e
                for e in effects
                if e.action == "unknown"
                and (e.detail or "").endswith(f" to {tree}; the files under it are not known")
            ),
            None,
        )
        key = index.same_file_key(file_key(tree, cwd, index.session.root))
        for file in index.files_under(key):
            if file.exists is False and not file.changed:
                made.append(
                    FileOperation(
                        action="create",
                        path=file.display or join(index.session.root, file.path),
                        command=copy.command if copy is not None else None,
                        source="shell",
                        detail=f"copied in with its folder `{tree}`",
                    )
                )
    return made


def _unopened(effect: FileOperation, unopened: set[str], cwd: str | None) -> bool:
    """Whether ``effect`` writes a file the shell said it could not open."""
    if effect.action not in _WRITES or effect.path is None:
        return False
    where = effect.cwd or cwd
    target = join(where, effect.path)
    return any(join(where, path) == target or path == effect.path for path in unopened)


# A program's own complaint that the file it was given is not there: `cat: a: No such file or
# directory`, `head: cannot open 'a' for reading: ...`, `sed: can't read a: ...`,
# `python3: can't open file '/w/a.py': [Errno 2] ...`, gofmt's `lstat a: no such file or directory`.
_MISSING = lazy_pattern(
    r"^(?:[\w.+-]+: )?(?:cannot open |can't open (?:file )?|can't read |cannot access |l?stat )?"
    r"['\"‘`]?(?P<path>[^'\"’`\n]+?)['\"’`]?(?: for reading)?: (?:\[Errno 2\] )?"
    r"No such file or directory(?: \(os error \d+\))?\s*$",
    re.M | re.I,
)


# The header `head` and `tail` print before each file when given several: "==> a.py <==".
_FILE_HEADER = lazy_pattern(r"^==> (?P<path>.+?) <==\s*$", re.M)


def _header_missing(effect: FileOperation, words: list[str], output: str) -> bool:
    """Whether ``head``/``tail`` given several files printed no header for this one.

    Each file it could open is shown under its own "==> path <==": one with no header was
    not there, could not be read, or was cut off by a filter after it (`| head -150`), so the
    session never saw it.
    """
    if words[0].rsplit("/", 1)[-1] not in ("head", "tail") or effect.path is None:
        return False
    if any(w in ("-q", "--quiet", "--silent") for w in words):
        return False
    operands = [
        w
        for w in words[1:]
        if not w.startswith("-") and not w.isdigit() and not any(c in w for c in "<>|&;")
    ]
    if len(operands) < 2:
        return False
    return not any(_names_path(effect, m.group("path")) for m in _FILE_HEADER.finditer(output))


def _read_failed(effect: FileOperation, command: str, output: str) -> bool:
    """Whether the output shows that ``effect``, a read, found no file, so nothing was read.

    Either the reader said the file is not there, or the fallback after ``||`` that only runs
    when the read failed printed its words (``cat a 2>/dev/null || echo "(no a)"``).
    """
    if effect.action != "read" or effect.path is None or not output:
        return False
    return _said_missing(effect, output) or _fallback_printed(effect.command, command, output)


# Readers whose complaint about a missing file goes to stderr, and what silences it.
_READERS = frozenset({"cat", "head", "tail", "less", "more", "bat", "nl"})
_SILENCED = lazy_pattern(r"2>\s*/dev/null|2>&-|&>\s*/dev/null")


def _reads_not_seen(
    effects: list[FileOperation],
    command: str,
    output: str,
    cwd: str | None = None,
    *,
    complete: bool = True,
) -> set[int]:
    """The reads the output cannot show happened: the file may not exist, or the read never ran.

    ``cat a 2>/dev/null | head`` printing nothing read an empty file or none (its complaint was
    silenced); in ``cat a 2>/dev/null || cat b``, ``b`` is read only when ``a`` could not be, which
    the silenced output does not tell, so only ``a`` counts as read.  ``ls docs; cat docs/a
    2>/dev/null`` whose listing does not show ``a``: there was no file to read.
    """
    unseen: set[int] = set()
    reads = [(n, e) for n, e in enumerate(effects) if e.action == "read" and e.command and e.path]
    for n, effect in reads:
        segment = effect.command or ""
        words = segment.split()
        if not words or words[0].rsplit("/", 1)[-1] not in _READERS:
            continue
        if _header_missing(effect, words, output):
            unseen.add(n)
            continue
        if _SILENCED.search(segment) and (
            says_nothing(output)
            or _listing_lacks(effect, command, output, cwd)
            or _nothing_after_marker(segment, command, output)
            or _only_markers(command, output)
        ):
            unseen.add(n)
            continue
        if complete and _marker_before_missing(segment, command, output):
            unseen.add(n)  # the command never got as far as the read (killed, or stopped before)
            continue
        at = command.find(segment)
        before = command[:at].rstrip() if at > 0 else ""
        if before.endswith("||") and any(
            m != n and m not in unseen and (other.command or "") in before for m, other in reads
        ):
            unseen.add(n)  # a fallback read: it ran only if the read before it failed
    return unseen


# A line a command echoes to mark where the next part of its output starts (`echo "---"`).
_ECHOED_MARKER = lazy_pattern(r"""\becho\s+(?:-[en]\s+)*(["'])(?P<text>[^"'\n]{3,80})\1""")


def _nothing_after_marker(segment: str, command: str, output: str) -> bool:
    """Whether the output ends with the marker echoed just before the read: the read printed nothing.

    ``cat a; echo "---"; cat package.json 2>/dev/null | head`` whose output ends with ``---``.
    """
    at = command.find(segment)
    markers = list(_ECHOED_MARKER.finditer(command[:at])) if at > 0 else []
    if not markers:
        return False
    marker = markers[-1]["text"].strip()
    return bool(marker) and command.count(marker) == 1 and output.rstrip().endswith(marker)


def _marker_before_missing(segment: str, command: str, output: str) -> bool:
    """Whether the marker the command echoes just before the read is not in its output: it never ran.

    ``find / …; echo "---version---"; cat .python-version`` killed by its timeout during the
    ``find`` printed no marker, so the ``cat`` after it never ran. Only for an output that is all
    there (the caller says); not when a filter took the output (``| head`` may have cut the marker
    off), nor when nothing was printed at all.
    """
    at = command.find(segment)
    markers = list(_ECHOED_MARKER.finditer(command[:at])) if at > 0 else []
    if not markers or not output.strip():
        return False
    last = markers[-1]
    if _FILTERED_OUTPUT.search(command[last.start() :]) or _GROUP_PIPED.search(command):
        return False
    marker = last["text"].strip()
    if "$" in marker or "`" in marker:
        return False  # printed expanded (`echo "=== $f ==="`): its text is not known
    return bool(marker) and command.count(marker) == 1 and marker not in output


# A filter that takes the output from the marker on (and may cut it off): `| head`, `| grep`; or a
# group whose whole output a filter takes (`{ …; } | tail`).
_FILTERED_OUTPUT = lazy_pattern(r"\|\s*(?:head|tail|grep|rg|sed|awk|cut|sort|uniq|less|more)\b")
_GROUP_PIPED = lazy_pattern(r"[)}]\s*\|")


def _only_markers(command: str, output: str) -> bool:
    """Whether all the output says is the markers the command echoes: its silenced reads printed nothing.

    ``cat a 2>/dev/null; echo "---"; cat b 2>/dev/null`` printing only ``---``.
    """
    markers = {m["text"].strip() for m in _ECHOED_MARKER.finditer(command)} - {""}
    if not markers:
        return False
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    said = [line for line in lines if not says_nothing(line)]
    return bool(said) and all(line in markers for line in said)


def _listing_lacks(effect: FileOperation, command: str, output: str, cwd: str | None) -> bool:
    """Whether an ``ls`` of the read file's folder, or of the file itself, earlier in the command, printed no such name.

    ``ls`` lists every file of the folder it is given, so a name missing from the output was not
    there when it ran; ``ls FILE`` prints FILE as given when it exists (``ls a/.gitignore`` whose
    output shows only ``b/.gitignore``); only a plain listing to the terminal counts (not
    ``ls -d``, ``ls | head``).
    """
    steps = simple_commands(command, cwd) if cwd else None
    target = join(cwd, effect.path or "") if cwd else None
    if not steps or target is None:
        return False
    folder, name = posixpath.split(target)
    for step in steps:
        if step.program != "ls" or step.piped or step.stdout is not None or step.cwd is None:
            continue
        options = [a for a in step.argv[1:] if a is not None and a.startswith("-")]
        operands = [a for a in step.argv[1:] if a is None or not a.startswith("-")]
        if any("d" in o or "R" in o for o in options if not o.startswith("--")) or None in operands:
            continue
        for operand in operands:
            # `ls FILE` prints the path as it was given: a line without it, no such file.
            if (
                operand is not None
                and join(step.cwd, operand) == target
                and not re.search(rf"(?:^|\s){re.escape(operand)}$", output, re.MULTILINE)
            ):
                return True
        listed = [join(step.cwd, a) for a in operands if a is not None] or [step.cwd]
        if folder in {p.rstrip("/") for p in listed if p is not None} and not re.search(
            rf"(?<![\w.-]){re.escape(name)}(?![\w.-])", output
        ):
            return True
    return False


def _edit_found_no_file(effect: FileOperation, output: str) -> bool:
    """Whether an in-place change (`sed -i`, `gofmt -w`) was refused because its file is not there.

    The program names the file it could not find; that file was not changed (the tracker would
    otherwise list a path that does not exist, such as a relative path joined twice after `cd`).
    """
    return effect.action == "edit" and bool(output) and _said_missing(effect, output)


def _writes_found_missing(effects: list[FileOperation], command: str, output: str) -> set[int]:
    """The writes that a program run after them found not there: they wrote nothing.

    ``curl -sL URL -o page.html; grep title page.html`` printing grep's
    ``grep: page.html: No such file or directory``: the download failed
    before writing (a timeout, a refused connection), so no file was made.
    The complaint counts only from a program the command runs after it
    first names the file (not ``grep x page.html; curl -o page.html URL``).
    """
    if not output or "no such file" not in output.lower():
        return set()
    unmade: set[int] = set()
    for n, effect in enumerate(effects):
        if effect.action not in ("write", "create") or effect.path is None:
            continue
        for found in _MISSING.finditer(output):
            program = re.match(r"([\w.+-]+): ", found.group(0))
            spelled = found.group("path").strip()
            if program is None or not spelled or not _names(effect, spelled):
                continue
            first = command.find(spelled)
            later = re.search(rf"(?:^|[\s;&|(]){re.escape(program.group(1))}\s", command[first:])
            # A hook may have rewritten the reader (`tail f` run as another program): the path named
            # again after the write is the read that complained.
            made_at = command.find(effect.command) if effect.command else -1
            again = made_at >= 0 and (
                command.find(spelled, made_at + len(effect.command or "")) >= 0
            )
            if first >= 0 and (later is not None or again):
                unmade.add(n)
                break
    return unmade


def _delete_found_no_file(effect: FileOperation, command: str, output: str) -> bool:
    """Whether a removal's file was found missing by a program the command ran before it.

    ``python3 /tmp/check.py; rm -f /tmp/check.py`` printing ``python3: can't
    open file '/tmp/check.py'``: the file was never there, and ``rm -f``
    removed nothing (it would otherwise read as a file the session deleted).
    """
    if effect.action != "delete" or effect.path is None or not effect.command or not output:
        return False
    if "no such file" not in output.lower():
        return False
    at = command.find(effect.command)
    if at <= 0:
        return False
    for found in _MISSING.finditer(output):
        program = re.match(r"([\w.+-]+): ", found.group(0))
        spelled = found.group("path").strip()
        if program is None or not spelled or not _names(effect, spelled):
            continue
        if re.search(rf"(?:^|[\s;&|(]){re.escape(program.group(1))}\s", command[:at]):
            return True
    return False


def _names(effect: FileOperation, spelled: str) -> bool:
    """Whether ``spelled``, as a program printed it, is the file of ``effect``."""
    assert effect.path is not None
    return join(effect.cwd, spelled) == effect.path or effect.path.endswith("/" + spelled)


def _names_path(effect: FileOperation, spelled: str) -> bool:
    """Whether ``spelled``, a path as an output line wrote it, is the file ``effect`` reads."""
    assert effect.path is not None
    spelled = spelled.strip()
    return bool(spelled) and (
        join(effect.cwd, spelled) == effect.path or effect.path.endswith("/" + spelled)
    )


# Colour codes some readers put in their complaints (`bat`): "\x1b[31m[bat error]\x1b[0m: ...".
_ANSI = lazy_pattern(r"\x1b\[[0-9;]*m")
# Words a line may hold besides the path: quotes, brackets, separators.
_PATH_TOKEN = lazy_pattern(r"[^\s'\"‘’`:,()\[\]]+")
# A script's own report that a file is not there, the path beside it: "a.csv: MISSING",
# "MISSING: a.csv", "a.csv does not exist".
_REPORTED_ABSENT = lazy_pattern(
    r"^\W*(?P<before>[^\s:]+)\W*(?::\s*|\s+(?:is\s+)?)(?:MISSING|ABSENT|NOT FOUND|not found|missing|"
    r"does not exist|doesn't exist)\W*(?:\(.*\))?\s*$"
    r"|^\W*(?:MISSING|ABSENT|NOT FOUND)\W+(?P<after>[^\s:]+)\W*$",
    re.M,
)


def _said_missing(effect: FileOperation, output: str) -> bool:
    """Whether a line of the output says the file ``effect`` reads is not there.

    A reader's own complaint in any of its spellings (`cat: a: No such file or directory`,
    zsh's `no such file or directory: a`, `[bat error]: 'a': No such file or directory (os
    error 2)`), or a script's report beside the path (`a.csv: MISSING`).
    """
    if effect.path is None:
        return False
    lowered = output.lower()
    if "no such file" in lowered:
        for found in _MISSING.finditer(output):
            if _names_path(effect, found.group("path")):
                return True
        for line in output.splitlines():
            if "no such file or directory" in line.lower():
                tokens = _PATH_TOKEN.findall(_ANSI.sub("", line))
                if any(_names_path(effect, token) for token in tokens):
                    return True
    if any(word in lowered for word in ("missing", "absent", "not found", "not exist")):
        for found in _REPORTED_ABSENT.finditer(output):
            if _names_path(effect, found.group("before") or found.group("after") or ""):
                return True
    return False


# `|| echo WORDS` right after a command: WORDS are printed only when that command failed.
# The `|| echo WORDS` that runs when the read failed, after any other reads tried in turn
# (`cat a 2>/dev/null || cat b 2>/dev/null || echo "none found"`: the words mean every one failed).
_FALLBACK = lazy_pattern(
    r"(?:\s*\|\|\s*(?!echo\b)(?:[^;&|\n]|\|(?!\|))+)*"
    r"\s*\|\|\s*echo\s+(?:-e\s+)?(?:\"([^\"\n]*)\"|'([^'\n]*)'|([^;&|\n]+))"
)


def _fallback_printed(read: str | None, command: str, output: str) -> bool:
    if not read or "||" not in command:
        return False
    start = command.find(read)
    while start >= 0:
        fallback = _FALLBACK.match(command, start + len(read))
        if fallback is not None:
            words = next(g for g in fallback.groups() if g is not None).strip()
            # Short words ("-", "none") could be printed by anything: only a telling line counts.
            if len(words) >= 4 and any(line.strip() == words for line in output.splitlines()):
                return True
        start = command.find(read, start + 1)
    return False


def follow_shell(
    index: ArtifactIndex, op: FileOperation, run: ShellRun, output: str, turn: int
) -> None:
    """What the command means beyond its file effects: staging, work state, tracker items, the shell's directory."""
    session = index.session
    if op.command:
        # Staging and `git diff > patch.txt` decide what a later submission holds.  Followed
        # even when the command failed: in `git diff > p.txt && pytest` only pytest failed.
        GitModel(index).observe(op.command, run.cwd, op.dialect)
        WorkState(index).observe(op.command, run.cwd, output, turn, run.succeeded, op.dialect)
        observe_tracker_command(session.work_items, op.command, output, turn, run.succeeded)
    if run.cwd_after and session.format in PERSISTENT_SHELL_FORMATS:
        session.cwd = run.cwd_after
    # The pattern is tried at every character; most outputs do not hold its words at all.
    reset = _CWD_RESET.search(output) if output and "Shell cwd was reset to" in output else None
    if reset is not None:
        session.cwd = join(None, reset.group(1))  # Claude Code took the shell back to the project
