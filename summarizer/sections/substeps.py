"""What is left of the current task: the sub-steps it names that no later change carried out.

Two sources name the sub-steps of the work in progress, both in the
session's own words:

* the definition of done of the tracker item in progress ("LiveView tests
  cover close with N>0 and N=0 paths");
* the agent's own plan since the current thread started ("Let me implement
  the changes to PaneListLive and SessionLive, add CSS, and write tests").

A sub-step counts only when what it asks for can be checked against the
changes the index saw: tests (a test file), a file the session knows, a
module whose file it knows (``PaneListLive`` is ``pane_list_live.ex``), a
definition the index knows, the stylesheet.  It is done when a change at or
after the turn it was set touched what it names; the others are what is
left.  A sub-step that names nothing checkable is not guessed at: the item's
definition of done is quoted whole elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from artifact_index.facts.changes import is_test_path
from artifact_index.facts.work_items import WorkItem
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.answers import FileReport
from summarizer.sections.progress import definition_of_done
from summarizer.sections.summary_facts import SessionFacts
from summarizer.sections.thread import thread_start

__all__ = ["SubStep", "remaining_steps"]

# Tests asked for: "write tests", "a test for", "the X test" (not "the test configuration", "test environment").
_TESTS = lazy_pattern(
    r"\b(?:tests?|specs?)\b(?!\s+(?:configuration|config|environment|env|helper|run|suite|"
    r"command|script|data|fixture)s?\b)",
    re.I,
)
# A bullet asking for a check to pass, not for a change ("`mix test` passes"): the checks owed say that.
_PASSING = lazy_pattern(r"\b(?:pass|passes|passing|green|succeeds?)\b", re.I)
_EXISTING = lazy_pattern(r"\bexist(?:s|ing)?\b", re.I)
_WRITING = lazy_pattern(r"\b(?:add|added|cover|covers|write|written|new|create|created)\b", re.I)
# Files that are no part of the work: third-party code read for reference.
_THIRD_PARTY = lazy_pattern(
    r"(?:^|/)(?:deps|node_modules|vendor|site-packages|\.venv|_build|target)/"
)
# The stylesheet as what the step writes ("add CSS", "update the styles"), not "the CSS variable references".
_STYLES = lazy_pattern(
    r"^\S+\s+(?:the\s+|some\s+)?(?:css|stylesheet|styles)\b(?!\s+(?:variable|class|name|reference))",
    re.I,
)
_TEST_FUNCTION = lazy_pattern(r"^(?:test_|Test[A-Z_])")
# A test in the loose sense agents use: a test file, or a script to reproduce the issue.
_TESTISH_NAME = lazy_pattern(r"(?:^|[/_.-])(?:tests?|spec|repro\w*)(?:[/_.-]|$)", re.I)
_STYLE_FILE = lazy_pattern(r"\.(?:css|scss|sass|less)$")
# A file named: in backticks, with a directory, or bare with an extension ("the serialization.rs file").
_PATH = lazy_pattern(
    r"`([^`\s]+\.[A-Za-z]\w{0,5})`|(?<![\w/.:-])((?:[\w.-]+/)+[\w.-]+\.[A-Za-z]\w{0,5})\b"
    r"|(?<![\w/.:`-])([\w-]+\.[a-z]{1,5})\b(?!\()"
)
_BACKTICKED = lazy_pattern(r"`([A-Za-z_][\w.?!]*)`")
_CALLED = lazy_pattern(r"\b([A-Za-z_]\w*)\(\)")
_SNAKE = lazy_pattern(r"\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b")
# A module's name: capitalized, two capitals or more, some lower case (`PaneListLive`, `WSIReader`).
_CAMEL = lazy_pattern(r"\b((?=\w*[a-z])[A-Z][a-z0-9]*[A-Z][A-Za-z0-9]*)\b")
_PLAN = lazy_pattern(
    r"^(?:(?:(?:now|next|then|first|also|finally),?\s+)?(?:I\s+|we\s+)?(?:still\s+|also\s+)?"
    r"(?:let me|let's|I'll|I will|we'll|need to|have to)|(?:next|todo|remaining|still to do|left)\s*:)"
    r"\s+(?P<rest>.+)$",
    re.I,
)
_CHANGE_VERB = lazy_pattern(
    r"^(?:also\s+)?(?:add|write|create|implement|update|fix|extract|remove|delete|change|"
    r"modify|wire|refactor|rename|move|replace|introduce|cover|expand|extend)\b",
    re.I,
)
# A piece that goes on with the previous verb: "implement the changes to PaneListLive and [to] SessionLive".
_NOUN_PHRASE = lazy_pattern(r"^(?:[A-Z`]|(?:the|a|an|its|their|to|for)\s)")
_PIECES = lazy_pattern(r",\s*(?:and\s+)?(?:then\s+)?|\s+and\s+(?:then\s+)?|\s+then\s+|;\s*")
_SENTENCE = lazy_pattern(r"(?<=[.!?])\s+|\n+")
_PLAN_MESSAGES = 15
_BULLET = lazy_pattern(r"^\s*(?:[-*•]|\d+[.)])\s+")


@dataclass(frozen=True)
class SubStep:
    """A sub-step of the current task that no change since it was set carried out."""

    text: str  # its words, as its source wrote them
    source: str  # "the definition of done of `x`", "the agent's plan at turn 137"
    since: int  # the turn from which a change would have done it
    missing: str  # what no change touched since: "no test file", "`pane_list_live.ex`"
    also: tuple[str, ...] = ()  # the same step asked again by another source, quoted with it


def _snake(name: str) -> str:
    """``PaneListLive`` -> ``pane_list_live``, ``WSIReader`` -> ``wsi_reader``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()


def _stem(path: str) -> str:
    return path.rsplit("/", 1)[-1].split(".", 1)[0].lower()


@dataclass(frozen=True)
class _Target:
    """Something a sub-step asks a change to touch."""

    named: str  # how to say it is missing: "no test file", "`pane_list_live.ex`"
    done: Callable[[int], bool]  # whether a change at or after a turn touched it


def _changed_since(f: FileReport, since: int) -> bool:
    return any(t >= since for t in f.changed_turns)


def _any_changed(files: list[FileReport]) -> Callable[[int], bool]:
    return lambda since: any(_changed_since(f, since) for f in files)


def _files_target(named: str, paths: list[str], facts: SessionFacts, removing: bool) -> _Target:
    files = [f for f in [*facts.changed, *facts.reverted] if f.path in paths]
    if removing:
        # Removed at any time counts: "remove the scratch file if I haven't already".
        gone = any(f.status in ("deleted", "reverted") for f in files)
        return _Target(named, lambda since: gone)
    return _Target(named, _any_changed(files))


def _definition_target(name: str, facts: SessionFacts) -> _Target:
    """A definition the step names: touched itself, or one inside it ("modify the `DiceFocalLoss` class": its
    `forward`), or the file it lives in changed ("update the callers of `post_snapshot`")."""
    short = name.rsplit(".", 1)[-1]
    changed = [*facts.changed, *facts.reverted]
    touched = [
        max(s.turns, default=0)
        for f in changed
        for s in f.symbols
        if s.name == short or (s.container or "").rsplit(".", 1)[-1] == short
    ]
    homes = _any_changed(
        [f for f in changed if any(s.name == short for s in [*f.symbols, *f.read_symbols])]
    )
    return _Target(f"`{name}`", lambda since: any(t >= since for t in touched) or homes(since))


def _targets(text: str, facts: SessionFacts, *, removing: bool, modules: bool) -> list[_Target]:
    """What ``text`` asks a change to touch; a removal is checked only against the files it names.

    ``modules``: whether a module's name (`PaneListLive`) stands for its file, as in the agent's own plan.
    """
    seen = [
        f for f in [*facts.changed, *facts.reverted, *facts.read] if not _THIRD_PARTY.search(f.path)
    ]
    changed = [*facts.changed, *facts.reverted]
    targets: list[_Target] = []
    testing = bool(_TESTS.search(text))
    if testing and not removing:
        # A test file (or a reproduction script), or a test function where tests live beside the code.
        tests = _any_changed(
            [f for f in changed if is_test_path(f.path) or _TESTISH_NAME.search(f.path)]
        )
        test_turns = [
            max(s.turns, default=0)
            for f in changed
            for s in f.symbols
            if _TEST_FUNCTION.match(s.name)
        ]
        targets.append(
            _Target(
                "no test file", lambda since: tests(since) or any(t >= since for t in test_turns)
            )
        )
    if _STYLES.match(text) and not removing:
        targets.append(
            _Target(
                "no stylesheet", _any_changed([f for f in changed if _STYLE_FILE.search(f.path)])
            )
        )
    for match in _PATH.finditer(text):
        tail = (match.group(1) or match.group(2) or match.group(3)).lstrip("./")
        known = [f.path for f in seen if f.path == tail or f.path.endswith("/" + tail)]
        if known:
            targets.append(_files_target(f"`{known[0]}`", known, facts, removing))
    if removing:
        return targets
    for word in dict.fromkeys(_CAMEL.findall(text) if modules else []):
        # "create the ReviewContextBuilder test" is its test file, not the module's own.
        stems = {f"{_snake(word)}_test", f"test_{_snake(word)}"} if testing else {_snake(word)}
        known = [f.path for f in seen if _stem(f.path) in stems]
        if known:
            targets.append(_files_target(f"`{known[0]}`", known, facts, removing))
    definitions = {s.name for f in seen for s in [*f.symbols, *f.read_symbols]}
    for name in dict.fromkeys(
        [*_BACKTICKED.findall(text), *_SNAKE.findall(text), *_CALLED.findall(text)]
    ):
        if name.rsplit(".", 1)[-1] in definitions:
            targets.append(_definition_target(name, facts))
    return targets


def _left(
    text: str, facts: SessionFacts, since: int, *, removing: bool = False, modules: bool = True
) -> str | None:
    """What no change since ``since`` touched of what ``text`` asks for; None when done or not checkable."""
    targets = _targets(text, facts, removing=removing, modules=modules)
    # Touched for any of what it names counts as done: better to say less than to call done work undone.
    if not targets or any(target.done(since) for target in targets):
        return None
    return targets[0].named


def _done_when_steps(facts: SessionFacts, item: WorkItem) -> list[SubStep]:
    done_when = definition_of_done(item)
    if not done_when or item.started_turn is None:
        return []
    steps = []
    for line in done_when.splitlines():
        text = _BULLET.sub("", line).strip()
        if (
            not text
            or (_PASSING.search(text) and not _WRITING.search(text))
            or _EXISTING.search(text)
        ):
            continue  # a check to pass, or tests that may already exist: no change is sure to be owed
        # A definition of done speaks of behaviour: its module names are not files to change.
        missing = _left(text, facts, item.started_turn, modules=False)
        if missing is not None:
            steps.append(
                SubStep(
                    text=text,
                    source=f"the definition of done of `{item.id}`",
                    since=item.started_turn,
                    missing=missing,
                )
            )
    return steps


def _planned_pieces(sentence: str) -> list[tuple[str, bool]]:
    """The changes a plan sentence announces, each with whether it removes something.

    "implement the changes to X and Y, add CSS, and write tests" is four; a piece without a verb of its own
    ("Y") goes on with the previous one.
    """
    plan = _PLAN.match(sentence.strip().strip("*#").strip())
    if plan is None:
        return []
    pieces = []
    verb: str | None = None
    for piece in _PIECES.split(plan["rest"].rstrip(".:!")):
        piece = piece.strip()
        change = _CHANGE_VERB.match(piece)
        if change:
            verb = change.group(0).split()[-1].lower()
        elif not _NOUN_PHRASE.match(piece):
            verb = None  # another verb ("check", "use X in Y"): no change of its own to look for
        if verb is not None and piece:
            # "remove the scratch file" removes a file; "remove X from the import in a.py" edits one.
            pieces.append((piece, verb in ("remove", "delete") and " from " not in f" {piece} "))
    return pieces


def _plan_lines(text: str) -> Iterator[tuple[str, bool]]:
    """The pieces of the plan a message states, each with whether it removes something.

    A plan sentence ending in a colon ("I'll update:") announces the list that follows: each item is a piece
    ("1. **SessionLive** - add the toggle event").
    """
    in_code = False
    listing: bool | None = None  # after "I'll update:": whether its items are changes
    for line in text.splitlines():
        if line.strip().startswith("```"):
            in_code = not in_code
        if in_code:
            continue
        item = _BULLET.match(line)
        if listing is not None and item:
            entry = line[item.end() :].replace("**", "").strip()
            body = re.split(r"\s+[-–—:]\s+", entry, maxsplit=1)[-1]
            if listing or _CHANGE_VERB.match(body):
                yield entry, False
            continue
        if listing is not None and not line.strip():
            continue  # a blank line between the announcement and its list
        listing = None
        for sentence in _SENTENCE.split(line):
            yield from _planned_pieces(sentence)
            announces = _PLAN.match(sentence.strip().strip("*#").strip())
            if announces and sentence.rstrip().endswith(":"):
                listing = bool(_CHANGE_VERB.match(announces["rest"]))


def _planned_steps(facts: SessionFacts, since: int) -> list[SubStep]:
    steps = []
    # A long thread's early plans were revised on the way: its latest messages say what is planned now.
    for message in [m for m in facts.thread_messages if m.turn >= since][-_PLAN_MESSAGES:]:
        for piece, removing in _plan_lines(message.text):
            missing = _left(piece, facts, message.turn, removing=removing)
            if missing is not None:
                steps.append(
                    SubStep(
                        text=piece,
                        source=f"the agent's plan at turn {message.turn}",
                        since=message.turn,
                        missing=missing,
                    )
                )
    return steps


def remaining_steps(facts: SessionFacts) -> list[SubStep]:
    """The sub-steps of the current task no change has carried out, one per thing missing, earliest set first."""
    items = [
        i for i in facts.work_items if i.status == "in_progress" and i.started_turn is not None
    ]
    steps = [step for item in items for step in _done_when_steps(facts, item)]
    steps += _planned_steps(facts, thread_start(facts))
    kept: dict[str, SubStep] = {}
    for step in steps:
        first = kept.get(step.missing)
        if first is None:
            kept[step.missing] = step
        elif step.source != first.source:
            # Asked twice ("tests cover ..." and "write tests"): one step, both sources.
            kept[step.missing] = SubStep(
                text=first.text,
                source=first.source,
                since=first.since,
                missing=first.missing,
                also=(*first.also, f'{step.source}: "{step.text}"'),
            )
    return list(kept.values())
