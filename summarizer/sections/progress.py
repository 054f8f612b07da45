"""Where the work stands against what the session itself does to finish work.

Two facts an agent that continues must not get wrong, both computed from
the transcript:

* **checks owed**: files changed after the last run of a kind of check the
  session runs (tests, lint, type check, build) have not been through it;
  "5 passed at turn 92" says nothing of the test file written at turn 94;
* **the work item in progress** of an issue tracker driven from the shell
  (``bd``, ``gh``): what changed since it was started and which of the steps
  the session took to finish the items it closed (the checks, closing the
  item, the commit, the push) it has not yet taken for this one.

Nothing here is guessed: a step is "still to do" only because the session
did it for the items it finished and has not done it since this item's last
change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from artifact_index.facts.errors.checks import checks_in
from artifact_index.facts.work_items import SeenInListing, WorkItem
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.answers import CheckRunReport, UncheckedReport
from summarizer.sections.summary_facts import SessionFacts
from summarizer.sections.text import code_span

__all__ = [
    "ItemProgress",
    "checks_owed",
    "definition_of_done",
    "item_progress",
    "items_in_progress",
    "named_not_changed",
    "open_in_epic",
    "request_files_not_changed",
    "shown_command",
    "turns_text",
]

_CATEGORY_ORDER = ("build", "typecheck", "lint", "test")
_DONE_WORDS = {"build": "built", "typecheck": "type-checked", "lint": "linted", "test": "tested"}
_OUTPUT_FILTER = lazy_pattern(
    r"\s*(?:\d?>&\d|\d?>\s*/dev/null)|\s*\|\s*(?:tail|head|grep|less|cat)\b[^|;&]*$"
)
# A file named in prose: a path with a directory, or a backticked name with an extension (not a URL).
_NAMED_PATH = lazy_pattern(
    r"`([^`\s]+\.[A-Za-z][\w]{0,5})`|(?<![\w/.:-])((?:[\w.-]+/)+[\w.-]+\.[A-Za-z][\w]{0,5})\b"
)
_OUTPUT_FILES = lazy_pattern(
    r"^\s*(?:#+\s*)?(?:\*\*)?(?:output|changed|affected|target) files(?:\*\*)?\s*:?\s*$",
    re.I | re.M,
)
_DEFINITION_OF_DONE = lazy_pattern(
    r"^\s*(?:#+\s*)?(?:\*\*)?(definition of done|acceptance criteria|done when)"
    r"(?:\*\*)?\s*:?\s*(?:\*\*)?\s*$",
    re.I | re.M,
)


def shown_command(command: str, limit: int = 90) -> str:
    """A command as the reader would type it again: output redirections and trailing ``| tail`` left out."""
    text = " ".join(command.split())
    previous = None
    while previous != text:
        previous, text = text, _OUTPUT_FILTER.sub("", text).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def turns_text(turns: list[int]) -> str:
    """``turn 5``, ``turns 5, 7``, ``turns 5–12``."""
    if not turns:
        return ""
    if len(turns) == 1:
        return f"turn {turns[0]}"
    if len(turns) <= 3:
        return "turns " + ", ".join(map(str, turns))
    return f"turns {turns[0]}–{turns[-1]}"


def _words(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _kinds(runs: list[CheckRunReport]) -> list[CheckRunReport]:
    """The runs a reader needs named: a build owed beside tests is the tests' business (they build)."""
    categories = {run.category for run in runs}
    return [run for run in runs if not (run.category == "build" and "test" in categories)]


def owed_kinds(group: UncheckedReport) -> str:
    """The checks a group of changes has not seen since, as in "not ``linted or tested``"."""
    return _words(
        [_DONE_WORDS.get(run.category, run.category) for run in _kinds(group.runs)]
    ).replace(" and ", " or ")


def owed_sentence(group: UncheckedReport, file_limit: int) -> str:
    """``Not linted or tested by any run seen since their last change: `a.go` (turn 94), …; the last run was `mise run lint` (turn 60).``"""
    runs = _kinds(group.runs)
    files = [
        f"`{f.path}` ({turns_text(f.turns)}"
        # A script the session ran itself after those runs, before its last change: said, so that
        # "the last run" is not read as the last time it ran.
        + (f"; it last ran itself at turn {f.ran_itself_turn}" if f.ran_itself_turn else "")
        + ")"
        for f in group.files[:file_limit]
    ]
    if len(group.files) > file_limit:
        files.append(f"and {len(group.files) - file_limit} more")
    by_turn: dict[int, list[str]] = {}
    for run in runs:
        shown = code_span(shown_command(run.command))
        if shown not in by_turn.setdefault(run.turn, []):
            by_turn[run.turn].append(shown)
    last = _words(
        [
            f"{' and '.join(commands)} (turn {turn}{_how_it_ended([r for r in runs if r.turn == turn])})"
            for turn, commands in sorted(by_turn.items(), reverse=True)
        ]
    )
    # What was seen: a run the session's commands did not show (CI, another terminal) may have done it.
    return (
        f"Not {owed_kinds(group)} by any run seen since their last change: {', '.join(files)}; "
        f"the last run was {last}{tasks_after_words(group)}."
    )


def _how_it_ended(runs: list[CheckRunReport]) -> str:
    """``, failed``, ``, how it ended is not known`` (no exit status kept, or only a filter's), or nothing."""
    if any(run.passed is False for run in runs):
        return ", failed"
    if any(run.passed is None for run in runs):
        return ", how it ended is not known"
    return ""


def tasks_after_words(group: UncheckedReport) -> str:
    """``; `make check` ran after them (turn 80, failed): whether it lints is not known``, or nothing."""
    if not group.tasks_after:
        return ""
    ran = _words(
        [
            f"{code_span(shown_command(run.command))} (turn {run.turn}{_how_it_ended([run])})"
            for run in group.tasks_after
        ]
    )
    return f"; {ran} ran after them: whether it {_words_or(group)} is not known"


def _words_or(group: UncheckedReport) -> str:
    verbs = {"build": "builds", "typecheck": "type-checks", "lint": "lints", "test": "tests"}
    return _words([verbs.get(run.category, run.category) for run in _kinds(group.runs)]).replace(
        " and ", " or "
    )


def checks_owed(facts: SessionFacts) -> list[UncheckedReport]:
    """The groups of changed files some kind of check the session runs has not seen yet."""
    return [group for group in facts.unverified if _kinds(group.runs)]


def items_in_progress(facts: SessionFacts) -> list[WorkItem]:
    """The items the session itself set in progress and has not closed (others only showed that state)."""
    return [
        item
        for item in facts.work_items
        if item.status == "in_progress" and item.started_turn is not None
    ]


def _natural(item_id: str) -> list[object]:
    """``spotter-4te.10`` after ``spotter-4te.9``."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", item_id)]


def open_in_epic(facts: SessionFacts) -> list[SeenInListing]:
    """The open items of the epics in hand, as the listings showed them, that the session has not taken up.

    The epics in hand are those of the items the session set in progress or closed (``spotter-4te`` for
    ``spotter-4te.3``); an item the session tracks by its own commands is shown by that state instead.
    """
    families = {
        i.id.rsplit(".", 1)[0]
        for i in facts.work_items
        if "." in i.id and (i.started_turn is not None or i.closed_turn is not None)
    }
    tracked = {i.id for i in facts.work_items}
    found = [
        i
        for i in facts.listed_items
        if i.status == "open"
        and i.kind != "epic"
        and i.id not in tracked
        and "." in i.id
        and i.id.rsplit(".", 1)[0] in families
    ]
    return sorted(found, key=lambda i: _natural(i.id))


@dataclass(frozen=True)
class ItemProgress:
    """A work item in progress beside the items the session finished."""

    item: WorkItem
    changed: list[tuple[str, list[int]]]  # files changed since it was started, with those turns
    remaining: list[str]  # steps the session took for finished items and not yet for this one
    finished: list[WorkItem]  # the items the routine was read from
    done_when: str | None  # its definition of done, as the tracker showed it
    # The files its description names as its output (all it names, without such a list) that no change since it
    # started touched, quoted.
    named_not_changed: list[str]


def _changed_since(facts: SessionFacts, turn: int) -> list[tuple[str, list[int]]]:
    changed = []
    for f in facts.changed:
        turns = [t for t in f.changed_turns if t >= turn]
        if turns:
            changed.append((f.path, turns))
    return sorted(changed, key=lambda c: (c[1][-1], c[0]))


def _steps_between(facts: SessionFacts, start: int, end: int) -> set[str]:
    """Kinds of finishing step taken in turns [start, end): checks by runner, commits, pushes."""
    steps = {
        f"check:{run.category}:{run.runner}" for run in facts.check_runs if start <= run.turn < end
    }
    if any(start <= c.turn < end for c in facts.work.commits):
        steps.add("commit")
    if any(c.pushed_turn is not None and start <= c.pushed_turn < end for c in facts.work.commits):
        steps.add("push")
    return steps


def _routine(facts: SessionFacts, current: WorkItem) -> tuple[list[str], list[WorkItem]]:
    """The finishing steps of the items the session started and closed, in the order a reader takes them."""
    starts = sorted({i.started_turn for i in facts.work_items if i.started_turn is not None})
    finished = [
        i
        for i in facts.work_items
        if i is not current
        and i.started_turn is not None
        and i.closed_turn is not None
        and i.closed_turn >= i.started_turn
    ]
    seen: set[str] = set()
    for item in finished:
        assert item.started_turn is not None and item.closed_turn is not None
        end = min([s for s in starts if s > item.closed_turn] or [facts.turns + 1])
        seen |= _steps_between(facts, item.started_turn, end)
    checks = sorted(
        (s for s in seen if s.startswith("check:")),
        key=lambda s: (
            _CATEGORY_ORDER.index(s.split(":")[1])
            if s.split(":")[1] in _CATEGORY_ORDER
            else len(_CATEGORY_ORDER),
            s,
        ),
    )
    ordered = [
        *checks,
        *(["close"] if finished else []),
        *(s for s in ("commit", "push") if s in seen),
    ]
    return ordered, finished


def _routine_command(facts: SessionFacts, runner: str) -> str:
    """How the session runs a check: its latest whole-project run, else the runner without an item's targets."""
    runs = [r for r in facts.check_runs if r.runner == runner]
    whole = [
        r
        for r in runs
        if not any(c.targets or c.filters for c in checks_in(r.command) if c.runner == runner)
    ]
    if whole:
        return code_span(shown_command(whole[-1].command, 120))
    latest = shown_command(runs[-1].command, 120)
    return code_span(runner) if latest.startswith(runner + " ") else code_span(latest)


def _close_step(item: WorkItem) -> str:
    if item.tracker == "bd":
        return f"`bd close {item.id}`"
    return f"`{item.tracker} {'merge' if item.tracker == 'gh pr' else 'close'} {item.id.rsplit('#', 1)[-1]}`"


def _outputs(description: str) -> str:
    """The files a description says the item produces: its "Output files" block when it has one, else all of it.

    "Source references" and the like name files to read, not to change.
    """
    found = _OUTPUT_FILES.search(description)
    if found is None:
        return description
    block: list[str] = []
    for line in description[found.end() :].strip("\n").splitlines():
        if not line.strip():
            if block:
                break
            continue
        if (
            block
            and not line.lstrip().startswith(("-", "*", "•"))
            and not line.startswith((" ", "\t"))
        ):
            break  # the next heading
        block.append(line)
    return "\n".join(block)


def definition_of_done(item: WorkItem) -> str | None:
    """The lines of an item's description under "Definition of done" (or "Acceptance criteria"), if it has them."""
    if not item.description:
        return None
    found = _DEFINITION_OF_DONE.search(item.description)
    if found is None:
        return None
    lines: list[str] = []
    for line in item.description[found.end() :].strip("\n").splitlines():
        if not line.strip():
            if lines:
                break
            continue
        if lines and re.match(r"^\s*(?:#+\s|[A-Z][\w ]{2,40}:\s*$)", line):
            break  # the next heading
        lines.append(line.rstrip())
    return "\n".join(lines) or None


def named_not_changed(text: str, facts: SessionFacts, since: int) -> tuple[list[str], int]:
    """The files ``text`` names that no change touched at or after turn ``since``; and how many it names.

    A file the session never saw (read or changed) is marked so: "`x.css` (never opened in the session)",
    for it may not exist yet or live under another name.  A name matches a path the session saw whole or as its tail
    (``auth.py`` is ``src/auth.py``); a path it never saw matches a seen file of the same name elsewhere
    (a description's ``assets/css/app.css`` that the agent found at ``priv/static/app.css``).
    """
    changed = [(f.path, f.changed_turns) for f in [*facts.changed, *facts.reverted]]
    known = [f.path for f in [*facts.changed, *facts.reverted, *facts.read]]
    missing: list[str] = []
    named = 0
    for name in dict.fromkeys(m.group(1) or m.group(2) for m in _NAMED_PATH.finditer(text)):
        tail = name.lstrip("./")
        if "://" in name or tail.startswith("www."):
            continue
        paths = [
            path
            for path in known
            if path == tail or path.endswith("/" + tail) or tail.endswith("/" + path)
        ]
        if not paths and "/" not in tail:
            continue  # `highlight.js`, `metadata.json`: a bare name the session never met may be no file of its own
        if not paths:
            base = tail.rsplit("/", 1)[-1]
            paths = [path for path in known if path.rsplit("/", 1)[-1] == base]
            paths = paths if len(paths) == 1 else []
        named += 1
        touched = any(path in paths and any(t >= since for t in turns) for path, turns in changed)
        if not paths:
            missing.append(f"`{name}` (never opened in the session)")
        elif not touched:
            missing.append(f"`{paths[0] if len(paths) == 1 else name}`")
    return missing, named


def request_files_not_changed(facts: SessionFacts) -> tuple[int, list[str]] | None:
    """For a latest request that names files to work on: its turn, and the named files not changed since.

    Only a request naming two files or more, some of which the session changed since, counts: one that
    names files only to be read has nothing to say here.
    """
    requests = [m for m in facts.user_messages if m.channel != "command"]
    if not requests:
        return None
    latest = requests[-1]
    missing, named = named_not_changed(latest.text, facts, latest.turn)
    if named < 2 or len(missing) == named or not missing:
        return None
    return latest.turn, missing


def item_progress(facts: SessionFacts, item: WorkItem) -> ItemProgress:
    """What changed since ``item`` was started, and which finishing steps of earlier items it still lacks."""
    start = item.started_turn if item.started_turn is not None else item.turn
    changed = _changed_since(facts, start)
    routine, finished = _routine(facts, item)
    owed_runs = {
        run.runner
        for group in facts.unverified
        for run in group.runs
        if {f.path for f in group.files} & {path for path, _ in changed}
    }
    uncommitted = set(facts.work.uncommitted) & {path for path, _ in changed}
    unpushed = any(not c.pushed for c in facts.work.commits if c.turn >= start)
    remaining = []
    for step in routine:
        if step.startswith("check:"):
            runner = step.split(":", 2)[2]
            ran_since = any(r.runner == runner and r.turn >= start for r in facts.check_runs)
            if runner in owed_runs or not ran_since or not changed:
                remaining.append(_routine_command(facts, runner))
        elif step == "close":
            remaining.append(_close_step(item))
        elif step == "commit" and (uncommitted or not changed):
            remaining.append("commit")
        elif step == "push" and (uncommitted or unpushed or not changed):
            remaining.append("push")
    missing, _ = named_not_changed(_outputs(item.description or ""), facts, start)
    return ItemProgress(
        item=item,
        changed=changed,
        remaining=remaining,
        finished=finished,
        done_when=definition_of_done(item),
        named_not_changed=missing,
    )
