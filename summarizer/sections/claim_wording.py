"""How a summary words a claim by how sure the index is of it.

What the index saw is stated plainly; what a rule inferred is stated as what
was seen ("failed at turn 12; a broader run at turn 20 passed"), never as a
verdict; what a call still waiting for its result bears on is said to be
unknown.  Counts say what they count.  Every renderer of a test run, a
pending call or a file's story uses these, so the hook, the summary's
sections and the LLM prompt's facts word one claim the same way.
"""

from __future__ import annotations

from artifact_index.facts.errors.checks import checks_in
from artifact_index.facts.errors.test_results import is_test_command
from artifact_index.shell.simple_commands import simple_commands, statements
from artifact_index.trail.answers import ErrorReport, FileReport, PendingCallReport, TestReport
from artifact_index.trail.file_reports import MAKING_ACTIONS
from summarizer.sections.text import one_line

__all__ = [
    "file_story",
    "pending_call",
    "pending_calls",
    "test_counts",
    "test_result",
    "went_on",
    "written_first_line",
]

_PENDING_AT = {0: 8, 1: 6, 2: 4, 3: 3}  # calls named one by one (the latest)


def test_counts(run: TestReport) -> str:
    """What a run's counts count: ``12 passed, 1 failed``, ``3 packages passed`` (``go test`` prints packages)."""
    if run.outcome == "failed" and run.passed + run.failed == 0:
        return "failed before any test ran"
    if run.passed + run.failed + run.skipped + sum(n for _, n in run.other) == 0:
        cut = _output_cut_by(run.command)
        if cut is not None:
            # `cargo test | tail -5` shows only the last section (the doc tests, "0 passed"): what
            # the cut left out may have run every test.
            return f"no count seen: the output was cut (`| {cut}`)"
        # pytest's "no tests ran", a filter that matched nothing: "0 passed, 0 failed" reads as a
        # run that checked something and found it sound.
        return "no test ran"
    noun = " packages" if run.unit == "packages" else ""
    if not run.passed_shown:
        cut = _output_cut_by(run.command)
        if run.passed:
            # Results of some parts (a test binary, a package) were cut off: what is left is a floor.
            shown = f" (`| {cut}`)" if cut else ""
            return (
                f"at least {run.passed}{noun} passed, {run.failed} failed: its output was cut"
                f"{shown}, so the counts are of the part shown"
            )
        # One count a line, and a filter let only some through: "0 passed" would be a guess.
        return f"{run.failed} failed; how many passed is not shown (its output was filtered)"
    counts = f"{run.passed}{noun} passed, {run.failed} failed"
    counts += f", {run.skipped} skipped" if run.skipped else ""
    counts += "".join(f", {n} {word}" for word, n in run.other)
    if run.outcome == "failed" and run.failed == 0:
        # No test failed, yet the run did (a coverage threshold, a warning made an error, a crash after the
        # tests): "failed" beside "0 failed" reads as a contradiction, so say which part failed.
        counts += "; no test failed, yet the run itself failed"
    return counts


def _output_cut_by(command: str) -> str | None:
    """The ``head``/``tail`` a command's output was piped through (``tail -5``), if any."""
    for piped, words in simple_commands(command):
        if piped and words and words[0] in ("head", "tail"):
            return " ".join(words)
    return None


def _test_part(command: str) -> tuple[str, list[str]] | None:
    """The one pipeline of a command line that ran the tests, and the other checks beside it.

    Only when those checks could fail without stopping the line (a ``;`` after them, or a filter
    taking their output): ``go build ./... | head; go test ./x`` printed compile errors and then
    "ok", and the counts are of ``go test ./x`` alone.  None otherwise.
    """
    if not any(mark in command.replace("&&", "") for mark in ";|&\n"):
        return None  # one pipeline, or steps each run only once the one before passed
    parts = statements(command)
    if parts is None or len(parts) < 2:
        return None
    tests = [i for i, (text, _) in enumerate(parts) if is_test_command(text)]
    if len(tests) != 1:
        return None
    others: list[str] = []
    unguarded = False
    for i, (text, operator) in enumerate(parts):
        runners = (
            [c.runner for c in checks_in(text) if c.category != "test"] if i != tests[0] else []
        )
        others += [r for r in runners if r not in others]
        # Before the tests, a failure stops them only through `&&`; after them, it shows in the
        # exit status, unless a filter took its output (and its status).
        masked = " | " in text or (i < tests[0] and operator != "&&")
        unguarded |= bool(runners) and masked
    return (parts[tests[0]][0], others) if others and unguarded else None


def test_result(run: TestReport, limit: int = 100) -> str:
    """One run, its last result as seen, and what a later run covering it showed."""
    part = _test_part(run.command)
    line = f"`{one_line(run.command, limit)}` (last run turn {run.turn}): "
    if part is not None:
        # The whole command stays the run's name (another run of the tests alone is another
        # run); the counts are said to be its tests' only.
        tests, others = part
        also = ", ".join(f"`{runner}`" for runner in others)
        line += (
            test_counts(run.model_copy(update={"command": tests}))
            + f" (of `{one_line(tests, 60)}`; the results of {also}, which it also ran, are not"
            " these)"
        )
    else:
        line += test_counts(run)
    if run.superseded_by is not None:
        line += (
            f"; a later run covering it, `{one_line(run.superseded_by, 60)}` "
            f"(turn {run.superseded_turn}), passed"
        )
    return line


def pending_call(call: PendingCallReport) -> str:
    """``- `Edit` of `src/a.py` (turn 12)``: under a heading that says no result is recorded."""
    if call.paths:
        what = ", ".join(f"`{p}`" for p in call.paths[:4]) + (
            f" and {len(call.paths) - 4} more" if len(call.paths) > 4 else ""
        )
        subject = f"`{call.tool}` of {what}"
    elif call.command:
        subject = f"`{call.tool}` `{one_line(call.command, 80)}`"
    else:
        subject = f"`{call.tool}`"
    if call.read_after is not None:
        # The file was read whole after the call: what it holds is known, whether this call did it is not.
        return f"- {subject} (turn {call.turn}; read again at turn {call.read_after}, after it)"
    return f"- {subject} (turn {call.turn})"


def pending_calls(calls: list[PendingCallReport], detail: int) -> list[str]:
    """The calls waiting for a result, the latest first in line; the earlier ones counted."""
    shown = calls[-_PENDING_AT[detail] :]
    lines = [pending_call(call) for call in shown]
    if len(shown) < len(calls):
        lines.insert(0, f"- {len(calls) - len(shown)} earlier call(s) with no result recorded")
    return lines


def file_story(f: FileReport) -> str | None:
    """What a file with no net change went through when a commit held it on the way, or None.

    ``created (turn 3), committed in `1a2b3c4` (turn 5), deleted (turn 9); the deletion is not
    committed``: its net state alone ("changed, then reverted") hides the commit.  When git itself
    put it back after the commit (``git reset --hard``, ``git checkout``, ``git stash``), the
    version it got is the ref's, which may well hold the commit: that is said as what ran, never
    as "restored to its original content".
    """
    if f.status in ("created", "modified") and f.shell_command is None:
        story = _there_again_unseen(f)
        if story is not None:
            return story
    if f.last_change is None:
        return None
    action, last_turn = f.last_change
    restored_commit = f.status == "modified" and action == "restore" and bool(f.committed_in)
    if f.status != "reverted" and not restored_commit:
        return None
    if not f.committed_in and f.renamed_from and action == "move":
        # Moved here and moved on (most often back where it came from): nothing of it is left here.
        by = f", by `{one_line(f.last_command, 80)}`" if f.last_command else ""
        return (
            f"moved here from `{f.renamed_from}` ({_turn_words(f.changed_turns[:1] or [last_turn])}), moved away"
            f" again ({_turn_words([last_turn])}{by}); it does not exist now"
        )
    if not f.committed_in:
        return _made_then_deleted(f) if f.existed_before is False and action == "delete" else None
    first = min(f.changed_turns, default=last_turn)
    start = "created" if f.existed_before is False else "changed"
    before = [f"`{h}` (turn {t})" for h, t in f.committed_in if t < last_turn]
    after = [f"`{h}` (turn {t})" for h, t in f.committed_in if t >= last_turn]
    deleted = action in ("delete", "remove", "rm") or f.existed_before is False
    parts = [f"{start} (turn {first})"]
    if before:
        parts.append(f"committed in {', '.join(before)}")
    if before and not deleted and action == "restore" and f.last_command:
        return (
            ", ".join(parts)
            + f", then `{one_line(f.last_command, 80)}` (turn {last_turn}) set it to a version git"
            " had; its change is kept in the commit, and whether the version now on disk holds it"
            " is not shown"
        )
    if restored_commit:
        return None  # restored to a commit's version, told only with the commits before it
    undone = "deleted" if deleted else "restored to its original content"
    noun = "the deletion" if deleted else "the restoration"
    parts.append(f"{undone} (turn {last_turn})")
    story = ", ".join(parts)
    if after:
        return story + f"; {noun} committed in {', '.join(after)}"
    return story + f"; {noun} is not committed as far as the session's git commands show"


def _made_then_deleted(f: FileReport) -> str:
    """A file the session made and then deleted: gone now, which "put back" would hide.

    ``created (turn 3), deleted (turn 9, the last by `rm notes.txt`)``; a file in a folder the
    session made, whose writing no call shows (a scaffold's), is said to be made without a turn.
    """
    assert f.last_change is not None  # file_story asks only of a changed file
    # A write while it exists rewrites it: only one that finds it gone (at first, or after a
    # deletion) creates it.
    made: list[int] = []
    rewritten: list[int] = []
    there = False
    for action, turn in f.changes:
        if action in MAKING_ACTIONS:
            (rewritten if there else made).append(turn)
            there = True
        elif action == "delete":
            there = False
    made, rewritten = sorted(set(made)), sorted(set(rewritten) - set(made))
    deleted = sorted({turn for action, turn in f.changes if action == "delete"})
    start = (
        f"created ({_turn_words(made)})"
        if made
        else "made in the session (no call seen writing it)"
    )
    if made and rewritten:
        start += f", rewritten ({_turn_words(rewritten)})"
    deleted = deleted or [f.last_change[1]]
    last = "the last " if len(deleted) > 1 else ""
    by = f", {last}by `{one_line(f.last_command, 80)}`" if f.last_command else ""
    return f"{start}, deleted ({_turn_words(deleted)}{by}); it does not exist now"


def _there_again_unseen(f: FileReport) -> str | None:
    """A file the session deleted, there again later though no call of the session made it.

    ``created (turn 2), deleted (turn 2); there again at turn 3, though no call of the
    session is seen making it; changed since (turn 4)``: what made the file there now (a
    person, a hook, a tool the session started) is not known, so the command that first made
    it (or the one that deleted it) is not named as what it rests on.
    """
    deletions = [k for k, (action, _) in enumerate(f.changes) if action == "delete"]
    if not deletions:
        return None
    last = deletions[-1]
    after = f.changes[last + 1 :]
    if after and after[0][0] in MAKING_ACTIONS:
        return None
    deleted_turn = f.changes[last][1]
    again = min((turn for turn in f.turns if turn > deleted_turn), default=None)
    if again is None and after:
        again = after[0][1]
    if again is None:
        return None
    deleted = sorted({turn for action, turn in f.changes[: last + 1] if action == "delete"})
    if f.status == "created":
        made = sorted({turn for action, turn in f.changes[:last] if action in MAKING_ACTIONS})
        start = f"created ({_turn_words(made)}), " if made else "made in the session, "
    else:
        changed = sorted({turn for action, turn in f.changes[:last] if action != "delete"})
        start = f"changed ({_turn_words(changed)}), " if changed else ""
    since = f"; changed since ({_turn_words(sorted({t for _, t in after}))})" if after else ""
    return (
        f"{start}deleted ({_turn_words(deleted)}); there again at turn {again}, though no call"
        f" of the session is seen making it{since}"
    )


def _turn_words(turns: list[int]) -> str:
    return f"turn {turns[0]}" if len(turns) == 1 else f"turns {', '.join(map(str, turns))}"


def went_on(e: ErrorReport) -> str:
    """What the session did after an error it went past: a command that succeeded after it.

    Not "the next": commands of the error's own turn, and ones whose exit status is a filter's,
    are passed over, so an earlier success may exist.
    """
    return f"a later command succeeded: `{one_line(e.went_on or '', 80)}` (turn {e.went_on_turn})"


def written_first_line(e: ErrorReport) -> str:
    """A failure of tests written before their code: what was seen, and why it is not an error to fix yet."""
    where = f" in `{e.file}`" if e.file else ""
    return (
        f"- [tests written first] `{one_line(e.message, 120)}`{where}, turn {e.last_turn} from "
        f"`{one_line(e.command or '', 80)}`: the session wrote these tests at turn "
        f"{e.tests_written_first} and has changed no other file since, so the code they test "
        "looks not written yet (inferred)"
    )
