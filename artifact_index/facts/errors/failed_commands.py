"""Failed shell commands no checker explained: noise apart, every other one an error.

A command can fail without printing anything a checker's parser knows: a
pre-commit hook's own report, ``git add`` refusing an ignored path, a script
that logs one line and exits 1.  To the agent that continues the session
each is still an error, so :func:`unexplained_failure` turns the output
itself into a diagnostic.

Some failures are not errors at all, and :func:`noise_reason` says why: the
user refused the call, a look-up (``ls``, ``grep``, ``test``) answered its
question with a non-zero exit, a comparison (``diff``, ``cmp``, ``git diff
--exit-code``) said that its inputs differ (the lines it printed are theirs,
never an error's), a set-up step found its work already done
(``git clone`` into a folder that exists, ``mkdir`` of one), there was
nothing to commit, a one-line probe (``python -c "import x"``) found a
module missing.  The ledger records those as noise with that reason, so no
failed command is dropped without one.
"""

from __future__ import annotations

import re

from artifact_index.facts.errors.checks import segments, subcommands
from artifact_index.facts.errors.checks.command_line import executable, unwrap
from artifact_index.facts.errors.diagnostics import Diagnostic
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.simple_commands import process_substitutions

__all__ = [
    "LOOKUPS",
    "REFUSALS",
    "SHELL_CHORES",
    "errorish_lines",
    "noise_reason",
    "opening_errorish_lines",
    "programs",
    "reads_as_failure",
    "says_nothing",
    "unexplained_failure",
]


def _words(text: str) -> frozenset[str]:
    """A set of names written as one space-separated string, for long tables."""
    return frozenset(text.split())


# Programs that answer a question: their non-zero exit is the answer ("no match", "no such file").
LOOKUPS = _words(
    "ls cat head tail grep egrep fgrep rg find fd which whereis test [ stat wc file du df ps "
    "readlink realpath basename dirname type command lsof less more sort uniq cut nl tr tree "
    "diff cmp pgrep pidof"
)
# Look-ups that compare: exit 1 says the inputs differ, and what they print is the inputs' lines.
_COMPARISONS = _words("diff cmp")
# `git diff` asked for its answer in the exit status (or comparing two paths outside the index,
# which implies it): exit 1 means there are differences.
_DIFF_STATUS = lazy_pattern(r"\s--(?:exit-code|no-index|quiet)(?=\s|$)")
# Programs that only print what they read or what the machine is, unless told to edit a file in place.
_READERS = _words("sed awk jq yq uname sw_vers lsb_release printenv whoami hostname id")
_IN_PLACE = lazy_pattern(r"(?:^|\s)(?:-i\S*|--in-place)(?=\s|$)")
# Shell chores around the real work; when they fail there was nothing to do.
SHELL_CHORES = _words(
    "cd pushd popd echo printf true false export source . set clear history sleep mkdir rmdir "
    "rm touch kill pkill xargs"
)

# Calls the harness stopped: what they printed is its words, not the program's.
REFUSALS = {
    "rejected": "the user rejected the call",
    "interrupted": "interrupted before it finished",
    "permission": "permission to run it was not granted",
    "hook_blocked": "a hook blocked the call",
}
_ALREADY_DONE = lazy_pattern(
    r"already exists|File exists|is already checked out|already up[ -]to[ -]date|Already on '"
    r"|is already a working tree|remote \S+ already exists",
    re.IGNORECASE,
)
# Sub-commands that set something up once: run again, they find it done.
_SET_UP = frozenset(
    {
        "git clone",
        "git checkout",
        "git switch",
        "git branch",
        "git worktree",
        "git remote",
        "git init",
        "git tag",
        "git stash",
        "mkdir",
        "ln",
        "createdb",
        "createuser",
    }
)
_NOTHING_TO_COMMIT = lazy_pattern(
    r"nothing to commit|nothing added to commit|no changes added to commit"
)
# What a one-liner probing the environment meets: a module that is not installed, or its
# own typo ("cannot import name" is left alone: it may be the bug being reproduced).
_PROBE_FAILURE = lazy_pattern(
    r"\b(?:ModuleNotFoundError|SyntaxError|Cannot find module|ERR_MODULE_NOT_FOUND|cannot load such file)\b"
)
# A git config query: it exits 1, printing nothing, when no setting matches.
_CONFIG_QUERY = lazy_pattern(r"\s--get(?:-all|-regexp|-urlmatch)?(?=\s|$)")
_INLINE = lazy_pattern(r" (?:-c|-e|--eval)$")
# An output redirection into a file ("cat > notes.md <<EOF"): the command writes, it looks nothing up.
_WRITES = lazy_pattern(r"(?:^|[^\d&<>])>>?[ \t]*(?!&|/dev/null)[^\s&|;]")
# A quoted word, whose `>`, `;` or `&&` is text (`rg -- '--checkpoint <id>'`), not the shell's.
_QUOTED = lazy_pattern(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")
# Between the steps of a list: only `&&` lets a later step say the earlier ones succeeded.
_OTHER_SEPARATOR = lazy_pattern(r";|\|\||\n|(?<![&>])&(?![&>])")
# A header a command line echoes (`echo "=== go test (error tests) ==="`): its own words, not a failure.
_ECHOED = lazy_pattern(r"\becho\s+(?:-e\s+)?(?:\"([^\"$`\\]*)\"|'([^']*)')")
# Where one list of a command line ends and the next begins (`;` or a new line, not `;;`).
_LIST_BREAK = lazy_pattern(r"(?<!;);(?!;)|\n")


# Filters whose exit 1 says no line matched, and the setting that makes a pipe fail with any command.
_FILTERS = frozenset({"grep", "egrep", "fgrep", "rg"})
_PIPEFAIL = lazy_pattern(r"\bpipefail\b")


def _unquoted(line: str) -> str:
    """``line`` with each quoted word emptied: what the shell itself reads as operators."""
    return _QUOTED.sub("''", line)


def _last_look_up_found_nothing(command: str, output: str) -> str | None:
    """The look-up whose exit status the command's is, when that status is its answer (else None).

    * `go build ./... && go test ./... && ls Makefile` printing `ls: Makefile: No such file or
      directory` last: `&&` ran the look-up, so the steps before it succeeded.
    * `go test ./...; ls Makefile 2>/dev/null && grep lint Makefile | head`: a command line
      exits with its last list's status, and that list only looks things up (the steps before the
      `;` answer for nothing: their own failures show in what they print).
    """
    unquoted = _unquoted(command.strip())
    last_list = _LIST_BREAK.split(unquoted)[-1]
    if last_list != unquoted:
        ran = programs(last_list)
        if not ran or not ran <= LOOKUPS or _WRITES.search(last_list):
            return None
        # What ran before the `;` printed no failure of its own (the headers it echoed aside).
        echoed = {m.group(1) or m.group(2) for m in _ECHOED.finditer(command)}
        own = tuple(f"{program}: " for program in ran)  # the look-up's own complaint
        printed = [
            line
            for line in _lines(output)
            if line.strip() not in echoed and not line.lstrip().startswith(own)
        ]
        if _failure_line(printed) is not None:
            return None
        return ", ".join(sorted(ran))
    steps = segments(command)
    if (
        len(steps) >= 2
        and steps[-1][0]
        and (filter_words := unwrap(steps[-1][1]))
        and filter_words[0].rsplit("/", 1)[-1] in _FILTERS
        and says_nothing(output)
        and not _PIPEFAIL.search(command)
    ):
        # `tsc --noEmit | grep -E "a.ts|b.ts"` printing nothing: a pipe exits with its last
        # command's status, and grep's 1 says no line matched.
        return filter_words[0].rsplit("/", 1)[-1]
    if _OTHER_SEPARATOR.search(unquoted):
        return None
    if len(steps) < 2 or steps[-1][0]:
        return None  # one step (judged as such), or a last step that reads a pipe
    words = unwrap(steps[-1][1])
    program = words[0].rsplit("/", 1)[-1] if words else ""
    lines = _lines(output)
    if program in LOOKUPS and lines and lines[-1].lstrip().startswith(f"{program}: "):
        return program
    return None


def _stopped_at_a_look_up(command: str, output: str) -> str | None:
    """The look-up a ``&&`` chain stopped at, told by the markers it echoed (else None).

    ``git checkout -b x && echo "--- branch ---" && ls testdata && echo "(listed)"`` printing
    ``--- branch ---`` and not ``(listed)``: the chain got past its first echo and stopped at the
    ``ls`` before the second, whose exit status answers whether ``testdata`` is there.
    """
    if _OTHER_SEPARATOR.search(_unquoted(command.strip())):
        return None
    steps = [unwrap(words) for _, words in segments(command)]
    if any(piped for piped, _ in segments(command)) or not all(steps):
        return None
    printed = {line.strip() for line in _lines(output)}

    def echoed(words: list[str]) -> str | None:
        if words[0] != "echo":
            return None
        return " ".join(w for w in words[1:] if w not in ("-n", "-e")).strip() or None

    markers = [(i, text) for i, words in enumerate(steps) if (text := echoed(words)) is not None]
    shown = [i for i, text in markers if text in printed]
    if not shown or any(text in printed for i, text in markers if i > shown[-1]):
        return None
    at = shown[-1] + 1
    # Only one step between the last marker printed and the next one (or the end) can have failed.
    if at >= len(steps) or (at + 1 < len(steps) and echoed(steps[at + 1]) is None):
        return None
    program = steps[at][0].rsplit("/", 1)[-1]
    return program if program in LOOKUPS else None


def programs(command: str | None) -> set[str]:
    """The programs a command line runs (``cd x && rm y`` runs ``cd`` and ``rm``).

    A wrapper's program is the one it runs: ``rtk grep x`` and ``timeout 5 ls`` look things up.
    """
    found = set()
    for _, words in segments(command or ""):
        # `command -v x` runs nothing but the look-up itself.
        ran = unwrap(words) or [w for w in words if "=" not in w or w.startswith("-")][:1]
        if ran:
            found.add(ran[0].rsplit("/", 1)[-1])
    return found


_DIFFERS = "a comparison (diff, cmp, git diff --exit-code): its exit 1 says the inputs differ"
# What git or diff prints when it could not compare at all (a missing path, a bad option).
# ("cmp: EOF on a.txt" is its answer: one file is a prefix of the other).
_ERROR_LINE = lazy_pattern(r"^(?:(?:error|fatal|usage): |(?:diff|cmp): (?!EOF\b))", re.MULTILINE)


def _answering_programs(command: str) -> set[str]:
    """The programs whose exit status the command's is: those of a process substitution only feed another.

    ``diff <(gh api … | base64 -d) local.yaml`` exits with diff's status: ``gh`` and ``base64``
    produce one of the files it compares, whatever diff then answers.
    """
    stripped = command
    for raw in process_substitutions(command):
        stripped = stripped.replace(raw, "INPUT", 1)
    return programs(stripped)


# The harness's answer to a call of a tool it does not have (Gemini CLI: 'Tool "run_shell_command" not
# found. Did you mean one of: …'): nothing ran, so nothing of the project failed.
_NO_SUCH_TOOL = lazy_pattern(r"^(?:Error: )?Tool \"[\w.-]+\" not found\b")


def noise_reason(command: str, output: str, failure: str | None, explained: bool) -> str | None:
    """Why this failed shell command is not an error to fix, or None when it is one.

    ``explained``: a checker reported errors in its own format (a compiler
    line, a failing test): those are errors whatever the command.
    """
    if failure in REFUSALS:
        return REFUSALS[failure]
    if _NO_SUCH_TOOL.match(output.strip()):
        return "the agent asked for a tool the harness does not have: the command never ran"
    actions = subcommands(command)
    if actions and all(_INLINE.search(a) for a in actions) and _PROBE_FAILURE.search(output):
        return "a one-line probe that could not import or parse"
    if explained:
        return None
    ran = _answering_programs(command)
    if not _IN_PLACE.search(command):
        ran = {program if program not in _READERS else "cat" for program in ran}
    if (
        ran
        and ran <= LOOKUPS | SHELL_CHORES
        and not _WRITES.search(_unquoted(command.split("\n", 1)[0]))
    ):
        if ran & _COMPARISONS and not _ERROR_LINE.search(output):
            return _DIFFERS
        if ran & LOOKUPS:
            return "a look-up (ls, grep, test, …): its non-zero exit answers its question"
        return "a shell chore (cd, rm, mkdir, kill, …) with nothing to do"
    last = _last_look_up_found_nothing(command, output)
    if last is not None:
        return f"it ended with a look-up ({last}): its exit status is that look-up's answer"
    stopped = _stopped_at_a_look_up(command, output)
    if stopped is not None:
        return f"it stopped at a look-up ({stopped}): its exit status is that look-up's answer"
    if actions == {"git diff"} and _DIFF_STATUS.search(command) and not _ERROR_LINE.search(output):
        return _DIFFERS
    if actions == {"git config"} and _CONFIG_QUERY.search(command) and not _lines(output):
        return "a look-up (git config --get…): exit 1 with no output means no such setting"
    if _NOTHING_TO_COMMIT.search(output) and "git commit" in actions:
        return "nothing to commit"
    if actions and _ALREADY_DONE.search(output) and actions <= _SET_UP:
        return "set-up already in place"
    return None


_EXIT_LINE = lazy_pattern(r"^(?:Error: )?Exit code -?\d+$")
# The header a harness writes above a command's output (Codex: chunk, wall time, exit, token count).
# Newer Codex builds also echo the command line itself first ("Command: /bin/zsh -lc …"); OpenCode
# and others stand "(no output)" in for an empty output, Claude Code "(Bash completed with no output)"
# where it keeps no record of the streams (a sub-agent's calls).
_HARNESS_LINE = lazy_pattern(
    r"^(?:Command: .*|Chunk ID: \w+|Wall time: [\d.]+ seconds|Process exited with code -?\d+"
    r"|Process running with session ID \d+|Original token count: \d+|Output:|\(no output\)"
    r"|\(Bash completed with no output\))$"
)
_STILL_RUNNING = lazy_pattern(r"^Process running with session ID \d+$", re.MULTILINE)
# Error words, not parts of a path or a file name (`rm 'src/error.rs'`, `tests/missing_test.go`).
_ERRORISH = lazy_pattern(
    r"(?<![/\\.\w-])(?:errors?|failed|failure|fatal|denied|not found|cannot|can't|unable|invalid"
    r"|refused|missing|exception|aborted?|no such|not allowed|rejected|conflict|violations?)"
    r"(?![\w/\\-]|\.\w)",
    re.IGNORECASE,
)
# A line that reports a passing (or skipped) test, behind any task prefix a monorepo runner adds
# ("@app/core:test: (pass) validates missing keys"): its words may sound like an error, it is none.
_PASS_REPORT = lazy_pattern(
    r"(?:^|:\s)\s*(?:\((?:pass|skip|todo)\)|[✓✔]\s|PASS\s|--- (?:PASS|SKIP):|ok\s+\d+\s)"
)
# A count of none sounds like an error and is not one: "Failed: 0", "Summary: 0 error(s)", "errors=0".
_NONE_COUNTED = lazy_pattern(
    r"\b0\s+(?:errors?|failed|failures?|violations?)\b|\b(?:errors?|failed|failures?)(?:\(s\))?\s*[:=]\s*0\b",
    re.IGNORECASE,
)
# A warning is printed on the way; it is not why the command failed ("DEPRECATION WARNING: … removed").
_WARNING = lazy_pattern(
    r"^\s*(?:\[?warn(?:ing)?\]?\b|DEPRECATION WARNING\b|npm WARN\b|\w+Warning:)", re.I
)
# The shell's own complaint: "zsh:1: no matches found", "cache.sh:152: BASH_SOURCE[0]: parameter not set",
# "state_set_stage:1: read-only variable: status" (a script or function, the line, the message).
# zsh names a command line it was given "(eval)": "(eval):12: bad math expression: operator expected".
_SHELL_COMPLAINT = lazy_pattern(
    r"^(?:\(eval\)|[\w./~-]+):\d+: (?!\s*(?:warning|note)\b)\S", re.IGNORECASE
)
_COLOUR = lazy_pattern(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
# Windows PowerShell's error record: the message, then where it was thrown ("At C:\x\a.psm1:58 char:5").
_POWERSHELL_AT = lazy_pattern(r"^At (?:line:\d+|.+:\d+) char:\d+$")
_MAX_LINES = 10
_MAX_LINE = 300


def says_nothing(output: str) -> bool:
    """Whether the output holds only the harness's own lines (``Exit code 1``): the command printed nothing."""
    return not _lines(output)


def _lines(output: str) -> list[str]:
    """The output's lines that say something, with newlines a hook printed escaped (``\\n``) restored."""
    lines: list[str] = []
    for line in output.replace("\r\n", "\n").split("\n"):
        parts = line.split("\\n") if line.count("\\n") >= 2 else [line]
        for part in parts:
            text = _COLOUR.sub("", part).rstrip() if "\x1b" in part else part.rstrip()
            if (
                text.strip()
                and not _EXIT_LINE.match(text.strip())
                and not _HARNESS_LINE.match(text.strip())
            ):
                lines.append(text[:_MAX_LINE])
    return lines


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _heads_passing_checks(lines: list[str], at: int) -> bool:
    """Whether line ``at`` only introduces checks that passed, indented under it ("❌ MENU (invalid)"
    over "  ✓ missing-menu: got expected error"): a test of error cases names errors and is no failure.
    A failing check among them (an indented line that is not a pass) keeps it a failure."""
    after = at + 1
    while after < len(lines) and (
        _PASS_REPORT.search(lines[after]) or _NONE_COUNTED.search(lines[after])
    ):
        after += 1
    return after > at + 1 and (after == len(lines) or _indent(lines[after]) <= _indent(lines[at]))


def reads_as_failure(output: str) -> bool:
    """Whether a line of ``output`` reads as a failure (error words, not a pass, a warning or a count of none)."""
    return _failure_line(_lines(output)) is not None


# A table's state cell: `gh pr checks` prints "lint<TAB>fail<TAB>7m20s<TAB>URL" for a failed check.
_FAILED_CELL = lazy_pattern(r"\tfail(?:ed|ure)?\t", re.IGNORECASE)


def _reads_as_failure_at(lines: list[str], i: int) -> bool:
    line = lines[i]
    return (
        bool(_ERRORISH.search(line) or _SHELL_COMPLAINT.search(line) or _FAILED_CELL.search(line))
        and not _PASS_REPORT.search(line)
        and not _WARNING.search(line)
        and not _NONE_COUNTED.search(line)
        and not _heads_passing_checks(lines, i)
    )


def _failure_line(lines: list[str], searched: bool = False) -> int | None:
    """The first line that reads as the failure: error words, not a pass, a warning, a count of none or
    the heading of passing checks; for a search, not a line it found (``ci.yml:309: echo "failed"``)."""
    return next(
        (
            i
            for i in range(len(lines))
            if _reads_as_failure_at(lines, i) and not (searched and _SEARCH_MATCH.match(lines[i]))
        ),
        None,
    )


# What grep and rg print for a match: the file, its line number, then the line.
_SEARCH_MATCH = lazy_pattern(r"^(?!\()[^\s:]*[./][^\s:]*:\d+[:-]")
_SEARCHERS = frozenset({"rg", "grep", "egrep", "fgrep", "ag", "ack"})


def _searches(command: str) -> bool:
    """Whether ``command`` runs a search of files whose matches it prints (rg, grep, git grep).

    Not one that filters another command's output (``cargo build | grep error``): there the
    lines that pass are the other command's own.
    """
    for piped, words in segments(command):
        words = unwrap(words)
        if (
            words
            and not piped
            and (
                executable(words[0]) in _SEARCHERS
                or (executable(words[0]) == "git" and "grep" in words[1:3])
            )
        ):
            return True
    return False


def errorish_lines(output: str) -> list[str]:
    """The lines of ``output`` that read as a failure, stripped: what a passing run may print all the same."""
    lines = _lines(output)
    return [line.strip() for i, line in enumerate(lines) if _reads_as_failure_at(lines, i)]


def opening_errorish_lines(output: str, limit: int = 20) -> list[str]:
    """The error-like lines that open ``output``, up to its first other line, stripped and distinct.

    What a shell's start-up prints (a broken profile's ``command not found``, once per hook it
    runs) comes first, before any command's own words: only there is it looked for, so every
    successful command can be read.
    """
    # Most outputs open with a line of their own: that one line, read from a short head, settles it
    # (this runs for every successful command).
    head = output[:300].lstrip()
    raw = head[: head.find("\n")] if "\n" in head else head
    if not (_ERRORISH.search(raw) or _SHELL_COMPLAINT.search(raw)):
        return []
    first = _lines(head)[:1]
    if not first or not _reads_as_failure_at(first, 0):
        return []
    lines = _lines(output[:4000])[:limit]
    opening: list[str] = []
    for i in range(len(lines)):
        if not _reads_as_failure_at(lines, i):
            break
        opening.append(lines[i].strip())
    return list(dict.fromkeys(opening))


def unexplained_failure(
    command: str,
    output: str,
    exit_code: int | None = None,
    printed_when_passing: frozenset[str] = frozenset(),
) -> Diagnostic:
    """A failed command's own words as a diagnostic: its first error-like line and what follows.

    Without such a line, what it printed last, said as such. ``printed_when_passing``: lines the
    same command printed in a run that passed (a test host's certificate complaint): never the failure.
    """
    lines = _lines(output)
    seen = len(lines)
    if printed_when_passing:
        lines = [line for line in lines if line.strip() not in printed_when_passing]
        if not lines:
            shown = " ".join(command.split())[:120]
            return Diagnostic(
                message=f"`{shown}` failed; every line it printed, its passing runs print too",
                kind="generic",
            )
    if not lines:
        status = f"exited with status {exit_code}" if exit_code else "failed"
        shown = " ".join(command.split())[:120]
        if _STILL_RUNNING.search(output):
            # Codex gave back the header while it ran; what it printed came through later polls.
            return Diagnostic(
                message=f"`{shown}` {status}; its output was read later, from the session it kept running",
                kind="generic",
            )
        return Diagnostic(message=f"`{shown}` {status} without output", kind="generic")
    # The error record's message is the failure, whatever the steps before it printed ("#2 added").
    thrown = next((i - 1 for i, line in enumerate(lines) if i and _POWERSHELL_AT.match(line)), None)
    searched = _searches(command)
    first = thrown if thrown is not None else _failure_line(lines, searched)
    found = searched and all(_SEARCH_MATCH.match(line) for line in lines)
    if (
        first is None
        and not found
        and (
            # (Not when lines its passing runs print were left out: what is left is no complaint.)
            (seen <= 2 and len(lines) == seen)
            or (lines[0].rstrip().endswith(":") and not _WARNING.search(lines[0]))
        )
    ):
        # A line or two is the command's complaint; an opening that ends in a colon introduces it
        # ("The following paths are ignored by one of your .gitignore files:").
        first = 0
    if first is None:
        # No line says what failed: a failing command stops where it failed, so its last line is the
        # nearest to the failure; said as what was seen, never quoted as the error (the first line of
        # a run that went well up to its end would be a passing header).
        return Diagnostic(
            message=f"no line of its output reads as an error; it ended: {lines[-1].strip()}"[
                :_MAX_LINE
            ],
            kind="generic",
        )
    message = lines[first].strip()
    rest = lines[first + 1 : first + 1 + _MAX_LINES]
    more = len(lines) - first - 1 - _MAX_LINES
    if message.endswith(":") and rest:  # "Pre-commit validation failed:" introduces the failure
        message = f"{message} {rest.pop(0).strip()}"
    detail = "\n".join(rest + ([f"[… {more} more lines]"] if more > 0 else []))
    return Diagnostic(message=message[:_MAX_LINE], kind="generic", detail=detail or None)
