"""When a later run shows an open error gone: the rules of resolution and the keys that find the candidates.

A successful run resolves an open entry when it is the same check, a broader
run of the same checker, a whole-project run or project task vouching for
its category, a narrower run passing its failing tests by name, the same
checker passing on its file, or a corrected retry (see
:mod:`~artifact_index.facts.errors.ledger`).  Open entries are indexed by
:func:`lookups` (the command, checker, reporting tool and action that raised
them), and a run looks only at the entries under its :func:`probes`.
"""

from __future__ import annotations

import difflib
import functools
import re

from artifact_index.facts.errors.checks import (
    Check,
    checks_in,
    covers,
    inline_program,
    interpreters,
    reaches,
    segments,
    subcommands,
)
from artifact_index.facts.errors.checks.command_line import executable, unwrap, word_set
from artifact_index.facts.errors.diagnostics import Diagnostic
from artifact_index.facts.errors.ledger_entries import LedgerEntry
from artifact_index.facts.errors.stopped_git import ended_by
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.git import skip_global_options
from artifact_index.shell.parser import Command, Node, Pipeline, parse_command
from artifact_index.shell.simple_commands import word_text

__all__ = ["CATEGORY", "got_past", "lookups", "probes", "resolution", "tools_in_order"]

CATEGORY: dict[str, str] = {
    "pytest": "test",
    "unittest": "test",
    "test-runner": "test",
    "linter": "lint",
    "type-checker": "typecheck",
    "compiler": "build",
}
# Open failures of commands that are no checks (a script, `git add`): a later successful
# commit shows the session moved past them.
_PASSED_BY_COMMIT = "after:commit"
# What a passing run of a whole project's task of each category vouches for: a test
# suite builds the code it tests.
_TASK_VOUCHES = {
    "test": ("test", "build"),
    "lint": ("lint",),
    "typecheck": ("typecheck",),
    "build": ("build",),
}

# The checkers that compile a whole project on their way, by the compiler whose errors a passing
# run of them over the whole project settles: `go vet ./...` builds every package it vets.
_COMPILES_ALL = {
    "go": frozenset({"go vet", "go test"}),
    "rustc": frozenset({"cargo clippy", "cargo test", "cargo check"}),
}
_COMPILERS_OF = {runner: tool for tool, runners in _COMPILES_ALL.items() for runner in runners}


# Words a failed run may carry before the command it meant to run (an unknown wrapper),
# and the spelling distance of a mistyped word: a retry without them runs the same thing.
_MAX_WRAPPER_WORDS = 2
_MAX_TYPO = 2


# The shell's own complaint about the command's words, not a program's failure: zsh's `=word`
# expansion (`echo ===` -> "(eval):1: == not found"), a glob with no match, a syntax error.
# The programs after the misread word never ran; a later run of them in another form is the retry.
_SHELL_MISREAD = lazy_pattern(
    r"^(?:\(eval\)|zsh|(?:/bin/)?(?:ba|da)?sh)(?::\d+| line \d+)?: "
    r"(?:=\S* not found|no matches found|bad pattern|parse error|syntax error|bad substitution"
    r"|unmatched |unexpected EOF)",
    re.M,
)


def _same_step(earlier: str, later: str) -> bool:
    """Whether ``later`` runs one of ``earlier``'s programs with the very same words (quoting aside).

    A backslash the shell kept in a word counts as quoting too: zsh refused the glob
    `src/\\[id\\]/page.tsx` ("no matches found"), and the retry `"src/[id]/page.tsx"` names the same file.
    """
    steps = {
        _unescaped(words)
        for _, words in segments(earlier)
        if words and executable(words[0]) not in ("cd", "echo", "printf", "true", "export")
    }
    return any(_unescaped(words) in steps for _, words in segments(later))


def _unescaped(words: list[str]) -> tuple[str, ...]:
    return tuple(word.replace("\\", "") for word in words)


# A program's complaint starts with its own name ("./sync.sh: line 82: declare: -A: invalid option",
# "mv: cannot stat 'x'"): the step of the command that failed.
_COMPLAINT = lazy_pattern(r"^(?P<program>[^\s:]+)(?::\d+| line \d+)?: \S")


def _complaining_steps(message: str, command: str) -> set[tuple[str, ...]]:
    """The steps of ``command`` that run the program ``message`` is the complaint of."""
    named = _COMPLAINT.match(message)
    if named is None:
        return set()
    program = executable(named["program"])
    return {
        tuple(words) for _, words in segments(command) if words and executable(words[0]) == program
    }


# Steps that print nothing when they succeed and name themselves when they fail ("mv: cannot stat
# 'x'"): a complaint that does not name one came from a step after it.
_SELF_NAMING = word_set("cd pushd popd mv cp ln mkdir rm rmdir touch chmod chown export")


def _step_words(node: Node) -> tuple[str, ...] | None:
    """The words of a chain's step, behind its wrappers; a pipeline's head (the rest filter its output)."""
    if isinstance(node, Pipeline) and node.commands:
        node = node.commands[0]
    if not isinstance(node, Command) or not node.argv:
        return None
    return tuple(unwrap([word_text(word) for word in node.argv]))


def _action(words: tuple[str, ...]) -> str:
    """What a step does, as its complaint would name it: git's sub-command, else the program."""
    if executable(words[0]) != "git":
        return executable(words[0])
    rest = list(words[1:])
    rest = rest[skip_global_options(rest, None)[0] :]
    return rest[0] if rest else "git"


_WORD = lazy_pattern(r"[\w.-]+")


@functools.lru_cache(maxsize=4096)
def _failed_last_step(command: str, message: str) -> tuple[str, ...] | None:
    """The last step of a failed ``a && b`` chain, when the complaint shows that it is the one that failed.

    A chain stops at its first failure; the last step failed when the steps before it
    name themselves when they fail and the complaint names none of them (``mv a src/a &&
    gleam run -m a``: "error: Unknown module value"), or when the complaint names the
    last step's action and no earlier one's (``git checkout main && git pull``: "error:
    cannot pull with rebase: You have unstaged changes").
    """
    body = parse_command(command).body
    if len(body.items) < 2 or any(op != "&&" for op in body.operators):
        return None
    steps = [_step_words(item) for item in body.items]
    if any(not step for step in steps):
        return None
    *earlier, last = [step for step in steps if step]
    named = _COMPLAINT.match(message)
    if named is not None and executable(named["program"]) in {executable(s[0]) for s in earlier}:
        return None
    said = set(_WORD.findall(message))
    if all(executable(step[0]) in _SELF_NAMING for step in earlier) or (
        _action(last) in said and not any(_action(step) in said for step in earlier)
    ):
        return last
    return None


def _failed_steps(entry: LedgerEntry) -> set[tuple[str, ...]]:
    """The steps of the runs that showed ``entry`` that failed with it, as far as its complaint tells."""
    steps = set().union(*(_complaining_steps(entry.message, c) for c in entry.commands))
    if entry.kind == "generic":
        steps |= {
            last
            for command in entry.commands
            if (last := _failed_last_step(command, entry.message)) is not None
        }
    return steps


def _failed_step_ran_again(entry: LedgerEntry, later: str) -> bool:
    """Whether ``later`` runs, word for word, a step that raised ``entry``."""
    steps = _failed_steps(entry)
    return bool(steps) and any(
        tuple(words) in steps or tuple(unwrap(words)) in steps for _, words in segments(later)
    )


# A script of several steps run again almost as it was (a variable renamed, a message reworded, a
# clean-up step changed): the retry of the same work. Longer scripts are not compared (the cost).
_MIN_SCRIPT_STEPS = 3
_MAX_SCRIPT_CHARS = 6000
_SAME_SCRIPT = 0.8


@functools.lru_cache(maxsize=1024)
def _script_ran_again(earlier: str, later: str) -> bool:
    """Whether ``later`` is ``earlier``, a script of several steps, run again with small changes."""
    if earlier == later or max(len(earlier), len(later)) > _MAX_SCRIPT_CHARS:
        return False
    if min(len(segments(earlier)), len(segments(later))) < _MIN_SCRIPT_STEPS:
        return False
    matcher = difflib.SequenceMatcher(
        None, " ".join(earlier.split()), " ".join(later.split()), autojunk=False
    )
    return matcher.quick_ratio() >= _SAME_SCRIPT and matcher.ratio() >= _SAME_SCRIPT


# A command substitution only computes a word of the command (`git push origin $(git branch
# --show-current)`): a retry that writes the word out (`git push origin main`) runs the same action.
_SUBSTITUTION = lazy_pattern(r"\$\((?:[^()]|\([^()]*\))*\)|`[^`]*`")


def _values_spelled_out(command: str) -> str:
    """``command`` with each command substitution replaced by one placeholder word."""
    return _SUBSTITUTION.sub("VALUE", command)


def _main_words(command: str) -> list[str]:
    """The words of the command's first simple command that is not ``cd`` or an output filter."""
    return list(_main_words_of(command))


# Every successful run probes the open entries with these, and each entry's lookups ask again.
@functools.lru_cache(maxsize=4096)
def _main_words_of(command: str) -> tuple[str, ...]:
    for piped, words in segments(command):
        words = unwrap(words)
        if words and not piped and executable(words[0]) not in ("cd", "pushd", "export", "source"):
            return tuple(words)
    return ()


def _close(a: str, b: str) -> bool:
    """Whether two words are one mistyped as the other (at most two edits apart, same length class)."""
    if a == b or min(len(a), len(b)) < 3 or abs(len(a) - len(b)) > _MAX_TYPO:
        return False
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1] <= _MAX_TYPO


# A complaint about a word it did not know: it names the word, quoted, or says it was not found.
_UNKNOWN_WORD = lazy_pattern(
    r"not found|unknown|unrecognized|invalid|no such|not a \S+ command|did you mean", re.IGNORECASE
)


def _complains_of(message: str, word: str) -> bool:
    """Whether ``message`` is a complaint about ``word`` (``Script not found "tset"``), not about what it did."""
    return any(f"{q}{word}{e}" in message for q, e in ("''", '""', "``", "`'")) or bool(
        _UNKNOWN_WORD.search(message)
    )


def retried_as(earlier: str, later: str, message: str) -> str | None:
    """How ``later`` retries ``earlier`` when ``earlier`` failed before running what it meant to, or None.

    ``rtk bun run test`` refused by its wrapper ("unrecognized subcommand")
    then ``bun run test``; ``bun run tset`` then ``bun run test``.  A word
    one or two letters from another is a typo only when the complaint
    is about it: ``git pull`` refused ("cannot pull with rebase") is not
    a mistyped ``git push``.
    """
    before, after = _main_words(earlier), _main_words(later)
    if not before or not after:
        return None
    extra = len(before) - len(after)
    if 0 < extra <= _MAX_WRAPPER_WORDS and before[extra:] == after:
        return "the same command without its leading word(s) succeeded"
    if extra == 0 and before[0] == after[0]:
        differing = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
        if (
            len(differing) == 1
            and _close(*differing[0])
            and _complains_of(message, differing[0][0])
        ):
            return "the same command with its typo corrected succeeded"
    return None


# A formatter's or fixer's check mode: it only says what it would change.
_CHECK_ONLY = frozenset(
    {
        "--check",
        "-l",
        "--list-different",
        "--diff",
        "--dry-run",
        "--verify-no-changes",
        "--check-only",
    }
)


def _tool_and_paths(words: list[str]) -> tuple[tuple[str, ...], list[str]]:
    """(the program and its sub-command, such as ``ruff format``; the paths it was given)."""
    tool = [executable(words[0])]
    rest = words[1:]
    if tool[0] == "git":  # its sub-command comes after git's own options (`git -C DIR gc`)
        rest = rest[skip_global_options(rest, None)[0] :]
    if rest and not rest[0].startswith("-") and "/" not in rest[0] and "." not in rest[0]:
        tool.append(rest[0])
        rest = rest[1:]
    return tuple(tool), [w for w in rest if not w.startswith("-")]


def fixer_ran(earlier: str, later: str, file: str | None, message: str = "") -> str | None:
    """How ``later`` resolves ``earlier``'s complaint when ``earlier`` ran a formatter in check mode.

    ``ruff format --check .`` says a file "would be reformatted"; ``ruff format .`` (or on the
    file) then rewrote it: the complaint is gone, though no check ran again.
    """
    before, after = _main_words(earlier), _main_words(later)
    if not before or not after or not _CHECK_ONLY & set(before) or _CHECK_ONLY & set(after):
        return None
    (tool, flagged), (fixer, paths) = _tool_and_paths(before), _tool_and_paths(after)
    if tool != fixer:
        return None
    everything = not paths or any(p in (".", "./") for p in paths)
    named = set(flagged) <= set(paths) or (
        file is not None
        and any(
            file == p or file.endswith("/" + p.lstrip("./")) or file.startswith(p.rstrip("/") + "/")
            for p in paths
        )
    )
    # A formatter names the file it would change in its complaint ("would reformat src/a.py").
    said = any(p.strip("./") and p.strip("./") in message.split() for p in paths) or any(
        p.rstrip("/") and w.startswith(p.rstrip("/") + "/") for p in paths for w in message.split()
    )
    if everything or named or said:
        return "the formatter then ran on it and rewrote what its check flagged"
    return None


# The shell could not find the program a step names: "(eval):1: command not found: python",
# "bash: line 1: python: command not found", "/bin/sh: 1: tsc: not found", Windows' "'python' is not
# recognized as an internal or external command".
_PROGRAM_NOT_FOUND = lazy_pattern(
    r"^(?:\(eval\):\d+: |(?:/\S*/)?(?:ba|da|k|z)?sh:(?: line)? ?\d*:? )?"
    r"(?:command not found: (?P<named>[^\s:]+)|(?P<program>[^\s:'\"]+): (?:command )?not found"
    r"|'(?P<windows>[^']+)' is not recognized as an internal or external command)\s*,?",
    re.MULTILINE,
)


def _missing_program(message: str) -> str | None:
    """The program the shell said it could not find, or None."""
    found = _PROGRAM_NOT_FOUND.search(message)
    if found is None:
        return None
    return executable(found["named"] or found["program"] or found["windows"])


def _not_found_steps(entry: LedgerEntry) -> list[tuple[str, ...]]:
    """The steps of the runs that showed ``entry`` that name the program it says was not found."""
    missing = _missing_program(entry.message)
    if missing is None:
        return []
    return [
        tuple(words)
        for command in entry.commands
        for _, raw in segments(command)
        if (words := unwrap(raw)) and executable(words[0]) == missing
    ]


def _arguments_key(words: list[str] | tuple[str, ...]) -> str:
    return "args:" + " ".join(words[1:])


def found_another_way(entry: LedgerEntry, later: str) -> str | None:
    """How ``later`` ran a step whose program was not found, through another program, or None.

    ``python -c "…"`` met "command not found: python", then ``python3 -c "…"``
    (another interpreter) or ``uv run python -c "…"`` (a wrapper that finds
    it) ran the same words and succeeded: nothing of the step had run before.
    """
    steps = _not_found_steps(entry)
    if not steps:
        return None
    for _, raw in segments(later):
        words = tuple(unwrap(raw))
        for step in steps:
            if not words or words[1:] != step[1:]:
                continue
            program, missing = executable(words[0]), executable(step[0])
            if program == missing and tuple(raw) != words:
                wrapper = " ".join(raw[: len(raw) - len(words)])
                return f"the same step run through `{wrapper}`, which found `{missing}`, succeeded"
            if program != missing and words[1:]:
                # Another program given the same arguments; given none, nothing says it does the same.
                return f"the same step run with `{program}` in place of `{missing}`, which was not found, succeeded"
    return None


# What tsc reports about its set-up, not the code: given files on its command line it ignores the
# project's tsconfig.json, so path aliases (`@/components/…`), the JSX mode, esModuleInterop and the
# target library are unknown to it.  TS2307/TS2792: a module not found; TS17004/TS6142: no JSX mode;
# TS1259/TS1192: default imports without esModuleInterop; TS2583: a newer library's name; TS1343: import.meta.
_TSC_SETUP_CODES = frozenset(
    {"TS2307", "TS2792", "TS17004", "TS6142", "TS1259", "TS1192", "TS2583", "TS1343"}
)
_TS_SOURCE = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_TSC_PROJECT_OPTIONS = frozenset({"-p", "--project", "-b", "--build"})


def _tsc_on_files(command: str) -> bool:
    """Whether ``command`` runs tsc on files named on its command line (it then ignores tsconfig.json)."""
    for _, raw in segments(command):
        words = unwrap(raw)
        if not words or executable(words[0]) not in ("tsc", "vue-tsc"):
            continue
        if _TSC_PROJECT_OPTIONS & set(words):
            return False
        if any(word.endswith(_TS_SOURCE) for word in words[1:]):
            return True
    return False


def _setup_finding_of_a_run_on_files(entry: LedgerEntry) -> bool:
    """Whether ``entry`` is tsc's complaint about its set-up, from runs on files outside the project's config."""
    return (
        entry.code in _TSC_SETUP_CODES
        and bool(entry.commands)
        and all(_tsc_on_files(command) for command in entry.commands)
    )


# A program refusing a sub-command it does not know: an old build, the wrong entry point.
_UNKNOWN_SUBCOMMAND = lazy_pattern(
    r"(?:unknown|unrecognized|invalid|no such) (?:sub)?command:? [`'\"]?(?P<word>[\w:.-]+)",
    re.IGNORECASE,
)
# Package managers of one ecosystem and their verbs that add packages: one may stand in for another.
_JS_MANAGERS = frozenset({"npm", "pnpm", "yarn", "bun"})
_ADDS = frozenset({"install", "i", "add"})


# Scripts and programs that start a server, not a step of the work: a commit does not show one
# that failed to start (a port in use, a permission refused) now starts.
_SERVER_SCRIPTS = frozenset({"dev", "start", "serve", "preview"})
_SERVERS = frozenset({"uvicorn", "gunicorn", "hypercorn", "http-server", "live-server"})
_SERVER_ACTIONS = frozenset(
    {
        ("next", "dev"),
        ("next", "start"),
        ("vite", "dev"),
        ("flask", "run"),
        ("rails", "server"),
        ("rails", "s"),
        ("hugo", "server"),
        ("wrangler", "dev"),
        ("astro", "dev"),
        ("nuxt", "dev"),
    }
)


def starts_server(command: str) -> bool:
    """Whether ``command`` starts a development server (``npm run dev``, ``uvicorn app:app``)."""
    words = _main_words(command)
    if not words:
        return False
    program = executable(words[0])
    rest = [w for w in words[1:] if not w.startswith("-")]
    if program in _SERVERS or (program, rest[0] if rest else "") in _SERVER_ACTIONS:
        return True
    if program in ("npm", "pnpm", "yarn", "bun"):
        script = rest[1] if rest[:1] == ["run"] and len(rest) > 1 else (rest[0] if rest else "")
        return script in _SERVER_SCRIPTS
    return "runserver" in rest


def _refused_subcommand(entry: LedgerEntry) -> str | None:
    """The sub-command a program said it does not know (``Unknown command: extract``), or None."""
    found = _UNKNOWN_SUBCOMMAND.search(entry.message)
    return found["word"].rstrip(".:") if found else None


def _added_packages(command: str) -> frozenset[str] | None:
    """The packages a JavaScript package manager's add or install names (``pnpm add feed``), or None."""
    words = _main_words(command)
    if len(words) < 3 or executable(words[0]) not in _JS_MANAGERS or words[1] not in _ADDS:
        return None
    names = frozenset(w for w in words[2:] if not w.startswith("-"))
    return names or None


def other_way(entry: LedgerEntry, later: str) -> str | None:
    """How ``later`` did what a failed command meant to by another way, or None.

    ``docalign extract`` refused ("Unknown command: extract") by an old
    installed build, then ``node dist/cli/main.js extract`` of the rebuilt
    one; ``npm install feed`` failing, then ``pnpm add feed``.
    """
    after = _main_words(later)
    refused = _refused_subcommand(entry)
    if (
        refused is not None
        and refused in after[1:4]
        and any(
            (before := _main_words(earlier))
            and executable(before[0]) != executable(after[0])
            and refused in before[1:3]
            for earlier in entry.commands
        )
    ):
        return f"`{refused}` ran through another entry point and succeeded"
    added = _added_packages(later)
    if added is not None and any(
        (names := _added_packages(earlier)) is not None
        and names <= added
        and _main_words(earlier)[0] != after[0]
        for earlier in entry.commands
    ):
        return "the same packages were added with another package manager"
    if entry.message.startswith(("error:", "fatal:")):
        put_back = _restored_from_git(later)
        if put_back and any(
            (failed := _restored_from_git(earlier)) and failed <= put_back
            for earlier in entry.commands
        ):
            return "the same files were put back from git another way, which succeeded"
    return None


# `git restore`'s options that take a value as the next word.
_RESTORE_WITH_VALUE = frozenset({"-s", "--source", "--pathspec-from-file"})


def _restored_from_git(command: str) -> frozenset[str]:
    """The paths the steps of ``command`` put back from git (`git restore …`, `git checkout [rev] -- …`)."""
    paths: set[str] = set()
    for _, raw in segments(command):
        words = unwrap(raw)
        if not words or executable(words[0]) != "git":
            continue
        at, _ = skip_global_options(words[1:], None)
        rest = words[1 + at :]
        if not rest or rest[0] not in ("restore", "checkout"):
            continue
        args = rest[1:]
        if "--" in args:
            paths.update(args[args.index("--") + 1 :])
        elif rest[0] == "restore":
            # Without `--`, a restore's words that are no option or option value are its paths.
            skip = False
            for word in args:
                if skip:
                    skip = False
                elif word.startswith("-"):
                    skip = word in _RESTORE_WITH_VALUE
                else:
                    paths.add(word)
    return frozenset(paths)


# Steps that only carry a pipeline's data (set variables, pick a value out of a file, print,
# clean up): a retry may spell them another way while doing the same work.
_PLUMBING = word_set(
    "cd pushd popd export eval source . set unset echo printf true false sleep rm grep egrep sed"
    " cut tr head tail awk jq sort uniq wc cat tee xargs test [ read"
)
# A URL's scheme and host, or the variable that holds them, and its query: what is left is the
# resource asked for ("$SUPABASE_URL/rest/v1/users?select=id" and "https://x.co/rest/v1/users").
_URL_BASE = lazy_pattern(r"^(?:[a-z][\w+.-]*://[^/\s]*|\$\{?\w+\}?)")


def _target(word: str) -> str:
    return _URL_BASE.sub("", word).split("?", 1)[0].rstrip("/")


@functools.lru_cache(maxsize=4096)
def pipeline_steps(command: str) -> tuple[str, ...]:
    """The work a command line does, step by step: each program that is no plumbing, with its first operand.

    ``vercel env pull .env.check && eval $(grep KEY .env.check) && curl "$URL/rest/v1/users?x"``
    and ``vercel env pull .env.check && KEY=$(grep KEY .env.check | sed ...) && curl
    "https://h/rest/v1/users?y" | jq`` both pull the environment, then ask for ``/rest/v1/users``.
    """
    steps: list[str] = []
    for piped, words in segments(command):
        words = unwrap(words)
        if piped or not words or executable(words[0]) in _PLUMBING:
            continue
        program, args = executable(words[0]), words[1:]
        if program == "git":  # its sub-command, after git's own options (`git -C DIR gc`)
            args = args[skip_global_options(args, None)[0] :]
        operand = next((w for w in args if not w.startswith("-")), "")
        steps.append(f"{program} {_target(operand)}".strip())
    return tuple(steps)


def _pipeline_key(command: str) -> str | None:
    steps = pipeline_steps(command)
    return "pipeline:" + " && ".join(steps) if steps else None


def _program_keys(command: str) -> set[str]:
    """Keys under which a failed command is found by its retries: each of its first words as a program."""
    words = _main_words(command)
    return {f"program:{executable(word)}" for word in words[: _MAX_WRAPPER_WORDS + 1]}


def lookups(entry: LedgerEntry) -> set[str]:
    """The index keys under which an open entry is found by the runs that could resolve it."""
    found = {f"key:{key}" for key in entry.keys}
    if entry.tool:
        found.add(f"tool:{entry.tool}")
    category = CATEGORY.get(entry.kind)
    if category:
        found.add(f"category:{category}")
    if _setup_finding_of_a_run_on_files(entry):
        found.add("category:build")
    for command in entry.commands:
        checks = checks_in(command)
        found |= {f"runner:{check.runner}" for check in checks}
        words = _main_words(command)
        if words and _CHECK_ONLY & set(words):
            found.add(f"program:{executable(words[0])}")  # the same tool run to fix it
        if not checks:
            found |= {f"action:{action}" for action in subcommands(command)}
    if entry.commands and not any(checks_in(command) for command in entry.commands):
        if not all(starts_server(command) for command in entry.commands):
            found.add(_PASSED_BY_COMMIT)
        found |= {f"step:{executable(words[0])}" for words in _failed_steps(entry)}
        if entry.kind == "generic":
            for command in entry.commands:
                found |= _program_keys(command)
                pipeline = _pipeline_key(command)
                if pipeline is not None:
                    found.add(pipeline)
        found |= {_arguments_key(step) for step in _not_found_steps(entry)}
        if entry.kind in ("generic", "npm"):
            for command in entry.commands:
                found |= {f"adds:{name}" for name in _added_packages(command) or ()}
            refused = _refused_subcommand(entry)
            if refused is not None:
                found.add(f"word:{refused}")
    return found


@functools.lru_cache(maxsize=4096)
def probes(command: str | None, key: str, checks: tuple[Check, ...]) -> frozenset[str]:
    """The index keys of the open entries a successful run of ``command`` could resolve."""
    found = {f"key:{key}"}
    for check in checks:
        found |= {f"runner:{check.runner}", f"tool:{check.runner}"}
        if check.runner in _COMPILERS_OF and not check.targets:
            found.add(f"tool:{_COMPILERS_OF[check.runner]}")
        if check.is_task and not check.targets and not check.filters:
            found |= {f"category:{c}" for c in _TASK_VOUCHES[check.category]}
    if command:
        words = _main_words(command)
        if words:
            found.add(f"program:{executable(words[0])}")
            found |= {f"word:{word}" for word in words[1:4]}
            found |= {f"adds:{name}" for name in _added_packages(command) or ()}
    if command:
        # A step whose program was not found, run with the same words by another one.
        found |= {_arguments_key(words) for _, raw in segments(command) if (words := unwrap(raw))}
    if command and not checks:
        found |= {f"action:{action}" for action in subcommands(command)}
        found |= {
            f"step:{executable(step[0])}"
            for _, words in segments(command)
            for step in (words, unwrap(words))
            if step
        }
        pipeline = _pipeline_key(command)
        if pipeline is not None:
            found.add(pipeline)
        if "git commit" in subcommands(command):
            found.add(_PASSED_BY_COMMIT)
    return frozenset(found)


# Where a traceback or a runtime error places a program given on the command line or on standard input.
_INLINE_PLACES = frozenset({"<stdin>", "<string>", "-", "[eval]", "<anonymous>", "[stdin]"})


_QUOTED_NAME = lazy_pattern(r"'([\w.-]+)'|\"([\w.-]+)\"")
_IMPORT_FAILED = lazy_pattern(
    r"\b(?:ModuleNotFoundError|ImportError)\b|No module named|cannot import name"
)


def _another_inline_program(entry: LedgerEntry, command: str) -> bool:
    """Whether ``command`` runs another inline program than the ones that raised ``entry``, which lies outside them.

    ``python3 - <<'PY'`` (or ``python -c``) with other code is another program: that it
    succeeded says nothing of an error raised in the project's or a library's code
    (``Settings()`` failing, then a script passing ``Settings(level="INFO")``); only an
    error of the earlier program's own lines (a typo in it) is gone with its correction.
    """
    program = inline_program(command)
    if program is None or not entry.commands or entry.file in _INLINE_PLACES:
        return False
    earlier = [inline_program(raised_by) for raised_by in entry.commands]
    other = all(code is not None and code != program for code in earlier)
    if entry.file is None:
        # A module that could not be imported is the environment's, not a line of the program:
        # another program leaves it as it was unless it imports that module too.
        if not _IMPORT_FAILED.search(entry.message):
            return False
        names = [a or b for a, b in _QUOTED_NAME.findall(entry.message)]
        return other and bool(names) and not any(name in program for name in names)
    return other


def _raising_checks(entry: LedgerEntry) -> list[Check]:
    """The checks of the commands that showed ``entry`` which can have raised it.

    A command running several checks (`pnpm build && pnpm test`, a code cell running the linter
    and the tests at once) raised a failing test with its test run: the build passing alone
    later is not that check passing.
    """
    checks = [check for earlier in entry.commands for check in checks_in(earlier)]
    category = CATEGORY.get(entry.kind)
    return [check for check in checks if check.category == category] or checks


def resolution(entry: LedgerEntry, command: str | None, checks: tuple[Check, ...]) -> str | None:
    """How a successful run of ``command`` (a different check) resolves ``entry``, or None."""
    raised = _raising_checks(entry)
    if (
        command
        and _SHELL_MISREAD.search(entry.message)
        and any(_same_step(earlier, command) for earlier in entry.commands)
    ):
        # The shell refused the words, so the program (a check too) never ran: this run is the retry.
        return "run again in another form after the shell misread its words, and succeeded"
    if (
        command
        and _SHELL_MISREAD.search(entry.message)
        and (ran := interpreters(command))
        and any(
            inline_program(earlier) and interpreters(earlier) & ran for earlier in entry.commands
        )
    ):
        # `python3 -c '…'` whose quoting the shell could not read never ran; the agent wrote the code
        # to a file (or quoted it anew) and the same interpreter ran it.
        return "the shell misread the inline code's quoting; the same interpreter then ran code and succeeded"
    if command:
        for earlier in entry.commands:
            fixed = fixer_ran(earlier, command, entry.file, entry.message)
            if fixed is not None:
                return fixed
    if command and _another_inline_program(entry, command):
        return None
    if command and not raised and entry.kind == "generic":
        # It failed before doing what it meant to (a wrapper refused it, a word was
        # mistyped): the retry that ran it is what it was.
        for earlier in entry.commands:
            retry = retried_as(earlier, command, entry.message)
            if retry is not None:
                return retry

    if command and not raised:
        substituted = found_another_way(entry, command)
        if substituted is not None:
            return substituted
    if command and not raised and entry.kind == "generic":
        ended = ended_by(entry, command)
        if ended is not None:
            return ended
    if command and not raised and entry.kind in ("generic", "npm"):
        other = other_way(entry, command)
        if other is not None:
            return other
    for check in checks:
        if command and any(
            covers(command, earlier) or covers(command, earlier, CATEGORY.get(entry.kind))
            for earlier in entry.commands
            if checks_in(earlier)
        ):
            return "a broader run of the same check passed"
        family = (
            check.runner == entry.tool
            or check.is_task
            or any(c.runner == check.runner for c in raised)
        )
        if (
            family
            and check.category == "test"
            and entry.tests
            and all(check.selects(test, entry.file) for test in entry.tests)
        ):
            return "its failing test(s) passed by name"
        if not check.targets and not check.filters:
            if check.runner == entry.tool or any(c.runner == check.runner for c in raised):
                return "a whole-project run of the same checker passed"
            if (
                command
                and entry.kind == "compiler"
                and check.runner in _COMPILES_ALL.get(entry.tool or "", ())
                and all(reaches(command, earlier) for earlier in entry.commands)
            ):
                return f"a whole-project `{check.runner}`, which compiles every package, passed"
            if check.is_task and CATEGORY.get(entry.kind) in _TASK_VOUCHES[check.category]:
                return f"the project's {check.category} task passed"
            if (
                check.is_task
                and check.category == "build"
                and _setup_finding_of_a_run_on_files(entry)
            ):
                return (
                    "the project's build passed; the tsc run on files that showed it ignores the "
                    "project's tsconfig.json, which the build reads"
                )
        if (
            entry.file
            and check.runner == entry.tool
            and check.category != "test"
            and check.selects(None, entry.file)
        ):
            return "the same checker passed on its file"
    if command and not checks and not raised:
        # Any one of the runs that showed it, retried within the later command: the others may have
        # added a step of their own that failed with the same words ("rm -f x && git checkout main").
        now = subcommands(command)
        if any(
            (before := _doing(subcommands(_values_spelled_out(earlier)), entry.message))
            and before <= now
            for earlier in entry.commands
        ):
            return "a corrected retry succeeded"
        if entry.kind == "generic" and any(
            (steps := pipeline_steps(earlier)) and steps == pipeline_steps(command)
            for earlier in entry.commands
        ):
            # The same work (the same programs on the same resources), its plumbing spelled
            # another way, and this time it succeeded.
            return "the same steps ran again, their glue spelled another way, and succeeded"
        if _failed_step_ran_again(entry, command):
            # The step the complaint names ran again, word for word, and this time the command succeeded.
            return "the step that failed ran again and succeeded"
        if any(_script_ran_again(earlier, command) for earlier in entry.commands):
            return "the same steps ran again with a small change and succeeded"
        if "git commit" in subcommands(command) and any(
            _commit_step(earlier) for earlier in entry.commands
        ):
            return "a commit succeeded after it"
    return None


# Programs that only show a file or print words: what a chain does besides them is its work.
_SHOWING = frozenset(
    {"cat", "head", "tail", "less", "more", "bat", "wc", "ls", "stat", "file", "echo", "printf"}
)


def _doing(steps: frozenset[str], message: str) -> frozenset[str]:
    """The steps of a failed chain that do its work, as :func:`subcommands` names them.

    ``git switch b && git log -3 && cat index.html`` refused by git, retried as ``git stash &&
    git switch b && git log -3 && head index.html``: the retry showed the file another way, yet
    did all the chain's work. A step that only shows or prints counts when the complaint names
    what it showed (``cat: x: No such file``); a chain of nothing else keeps them all.
    """
    doing = frozenset(
        step
        for step in steps
        if step.split(" ", 1)[0] not in _SHOWING
        or (" " in step and step.split(" ", 1)[1] in message)
    )
    return doing or steps


# What a commit runs or is: a later successful commit settles their failures (a hook's complaint, the
# commit refused), never those of unrelated work before it (a reviewer tool's 401, an installer's refusal).
_COMMIT_STEPS = ("git commit", "pre-commit run", "lefthook run", "husky", "git hook run")


def _commit_step(command: str) -> bool:
    return any(step.startswith(_COMMIT_STEPS) for step in subcommands(command))


def tools_in_order(diagnostics: list[Diagnostic], output: str) -> list[str]:
    """The tools that reported ``diagnostics``, in the order their first error appears in ``output``."""
    first: dict[str, int] = {}
    for d in diagnostics:
        if d.tool:
            at = output.find(d.message)
            first[d.tool] = min(first.get(d.tool, len(output)), at if at >= 0 else len(output))
    return sorted(first, key=lambda tool: first[tool])


def got_past(tool: str | None, before: list[str], now: list[str]) -> bool:
    """Whether a rerun that failed at ``now``'s tools got past ``tool``, which ran ahead of one of them before.

    ``git commit`` whose hook printed credo's then Dialyzer's errors, run again
    and failing on Dialyzer alone: credo ran first and passed.
    """
    if tool is None or tool in now or tool not in before:
        return False
    return any(later in before and before.index(tool) < before.index(later) for later in now)
