"""A numbered request followed item by item: what the session's later words and changes say of each.

"Can you address the following items: 1. ... 2. ... 6. ..." is six tasks in
one message.  The agent that continues must know which it has done, which
it checked and left alone, which it is in the middle of, and which nobody
touched.  :func:`request_items` reads the latest request's numbered list and
what came after it:

* the agent's sentences that name an item by number ("**Item 3: Extract
  ...**", "item 4 is fine", "Items 1 and 5 are done"): done, checked and
  needing no change, or in progress, the latest word winning; an item taken
  up, files changed, then another item taken up is "edited, then moved on";
* the changes since the request to a file, or a definition, the item names
  ("``content_overlap.go``", "``stagedFilesOverlapWithContent``");
* the searches and reads since the request that name it (``grep
  UpdateCommitted``).

Being conservative: an item is "not started" only when nothing after the
request mentions it; one that was searched for or talked about without a
verdict has "no evidence either way", and one a change touched without a
word from the agent is only that.

A numbered list is followed only when the session treated it as a list of
tasks: the agent spoke of an item by its number, or changes touched what two
items name.  Otherwise (steps of an explanation, rules, a templated
checklist) nothing is said of it: its items are under User Messages.

A request the agent turned into its own task list (a todo list written
after it) is followed by that list, reconciled with what happened (see
:mod:`~artifact_index.facts.task_evidence`); its numbered items are not followed
twice.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from artifact_index.ingestion.events import AssistantMessage, Event, ToolCall
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.answers import FileReport, TaskReport
from artifact_index.trail.conversation.prose import sentences
from artifact_index.trail.conversation.told import RequestItem
from artifact_index.trail.session_state import UserSaid

__all__ = ["numbered_items", "request_items"]

_ITEM = lazy_pattern(r"^\s*(?:[-*]\s*)?\(?(?P<number>\d{1,2})[.)]\s+(?P<text>\S.*)$")
_MIN_ITEMS = 2
# "Item 3", "items 4 and 6", "#2", "**3. Title**" at the start of a line.
_BY_NUMBER = lazy_pattern(
    r"\bitems?\s+#?(?P<first>\d{1,2})(?P<rest>(?:\s*(?:,|and|&)\s*#?\d{1,2})*)", re.I
)
_HEADING = lazy_pattern(r"^[\s>*#_]*(?:item\s*)?#?(?P<number>\d{1,2})\s*[:.)]\s*\**\s*\S", re.I)
_CHECKED_OFF = lazy_pattern(r"[✅✓✔☑]")
_DONE = lazy_pattern(
    r"\b(?:done|fixed|completed?|addressed|implemented|resolved|finished|in place|added|extracted|"
    r"replaced|updated|removed|now uses?)\b",
    re.I,
)
_FINE = lazy_pattern(
    r"\b(?:is|are|looks?|seems?) (?:also )?(?:fine|ok|okay|correct|good)\b|\bno (?:change|fix)(?:es)? "
    r"(?:is |are )?(?:needed|required)\b|\bnot (?:needed|an issue|a problem|applicable)\b|"
    r"\bnothing to (?:do|change|fix)\b|\balready (?:handled|correct|fine|done|covered)\b|"
    r"\bno [\w-]+(?: [\w-]+)? (?:references?|usages?|issues?) (?:were )?found\b",
    re.I,
)
_IDENTIFIER = lazy_pattern(
    r"`([^`\s]{4,})`|\b([\w-]+\.[a-z]{1,5})\b|\b([A-Za-z_][\w]*(?:[a-z][A-Z]|_[a-z])[\w]*)\b"
)


def numbered_items(text: str) -> list[tuple[int, str]]:
    """The numbered list of a request (1., 2., ... in order), or [] when it has none of at least two items."""
    items: list[tuple[int, str]] = []
    for line in text.splitlines():
        found = _ITEM.match(line)
        if found and int(found["number"]) == len(items) + 1:
            items.append((int(found["number"]), found["text"].strip()))
    return items if len(items) >= _MIN_ITEMS else []


_PLACEHOLDER = lazy_pattern(r"<[^<>]*>")


def _identifiers(text: str) -> list[str]:
    """The names an item gives: backticked words, camelCase or snake_case names, file names (not ``<placeholders>``)."""
    names = []
    for match in _IDENTIFIER.finditer(_PLACEHOLDER.sub(" ", text)):
        name = next(g for g in match.groups() if g).strip("`()")
        if len(name) >= 4 and not name.replace(".", "").isdigit():
            names.append(name)
    return list(dict.fromkeys(names))


_WORD = lazy_pattern(r"[A-Za-z]{4,}")


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def _numbers(sentence: str, items: Sequence[tuple[int, str]]) -> set[int]:
    """The item numbers a sentence speaks of: "item 3", "items 4 and 6", or a heading "3. ..." that repeats the
    item's words (an agent's own numbered list is not the user's)."""
    found = {int(m["first"]) for m in _BY_NUMBER.finditer(sentence)}
    for m in _BY_NUMBER.finditer(sentence):
        found |= {int(n) for n in re.findall(r"\d{1,2}", m["rest"])}
    heading = _HEADING.match(sentence)
    if heading:
        number = int(heading["number"])
        explicit = re.match(r"^[\s>*#_]*(?:item\s*|#)", sentence, re.I) is not None
        text = dict(items).get(number, "")
        if explicit or len(_words(sentence) & _words(text)) >= 2:
            found.add(number)
    return found


def _cut(text: str, limit: int = 150) -> str:
    text = " ".join(text.replace("**", "").split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _verdicts(
    messages: Sequence[AssistantMessage], items: Sequence[tuple[int, str]]
) -> dict[int, tuple[str, int, str]]:
    """Per item number, the latest thing the agent said of it by number: (status, turn, its sentence)."""
    said: dict[int, tuple[str, int, str]] = {}
    for message in messages:
        for sentence in sentences(message.text):
            numbers = {n for n in _numbers(sentence, items) if 1 <= n <= len(items)}
            if not numbers:
                continue
            if _FINE.search(sentence):
                status = "checked"
            elif _CHECKED_OFF.search(sentence) or (
                _DONE.search(sentence) and not _HEADING.match(sentence)
            ):
                status = "done"  # a heading names the item's own words ("Item 5: Fix ..."), a tick marks it done
            else:
                status = "in progress"
            for number in numbers:
                said[number] = (status, message.turn, _cut(sentence))
    return said


def _moved_on(
    number: int,
    verdict: tuple[str, int, str],
    verdicts: dict[int, tuple[str, int, str]],
    changed: Sequence[FileReport],
) -> str | None:
    """For an item the agent took up, then left for another after changing files: what says so, else None.

    "**Item 5: Fix ...**", an edit, then "**Item 2: Add unit tests ...**": item 5's edits are made, and
    the agent that continues should not redo it as work in progress.
    """
    turn = verdict[1]
    later = sorted(
        (t, n)
        for n, (status, t, _) in verdicts.items()
        if n != number and t > turn and status == "in progress"
    )
    if not later:
        return None
    until, next_item = later[0]
    if not any(turn <= t <= until for f in changed for t in f.changed_turns):
        return None
    return f"taken up at turn {turn}, files changed, then item {next_item} taken up (turn {until})"


def _call_text(call: ToolCall) -> str:
    return json.dumps(call.arguments, ensure_ascii=False, default=str)


def _named_in(path: str, names: list[str], file: FileReport) -> bool:
    base = path.rsplit("/", 1)[-1]
    symbols = [s.name for s in file.symbols]
    return any(n in (base, path) or any(n.lower() in s.lower() for s in symbols) for n in names)


def request_items(
    events: Sequence[Event],
    request: UserSaid | None,
    changed: Sequence[FileReport],
    tasks: Sequence[TaskReport] = (),
) -> list[RequestItem]:
    """Each item of the latest request's numbered list, with what the session said and did of it since.

    ``tasks``: the agent's task list; written after the request, it follows the request instead.
    """
    if request is None or any(t.turn > request.turn for t in tasks):
        return []
    items = numbered_items(request.text)
    if not items:
        return []
    after = [e for e in events if e.sidechain is None and e.turn > request.turn]
    messages = [e for e in after if isinstance(e, AssistantMessage) and e.text.strip()]
    calls = [e for e in after if isinstance(e, ToolCall)]
    verdicts = _verdicts(messages, items)
    # Without a name to look for, silence proves nothing once the session did anything at all.
    busy = bool(calls) or bool(messages)
    facts = []
    for number, text in items:
        names = _identifiers(text)
        touched = sorted(
            {
                (f.path, max(t for t in f.changed_turns if t > request.turn))
                for f in changed
                if any(t > request.turn for t in f.changed_turns) and _named_in(f.path, names, f)
            },
            key=lambda pair: pair[1],
        )
        changes = [f"`{path}` (turn {turn})" for path, turn in touched]
        looked = sorted({c.turn for c in calls if any(n in _call_text(c) for n in names)})
        talked = any(any(n in m.text for n in names) for m in messages)
        verdict = verdicts.get(number)
        if verdict is not None:
            status, turn, sentence = verdict
            evidence = f'"{sentence}" (turn {turn})'
            moved = (
                _moved_on(number, verdict, verdicts, changed) if status == "in progress" else None
            )
            if moved is not None:
                status, evidence = "edited, then moved on", moved
        elif changes:
            status, evidence = "changed", "no word from the agent on it"
        elif looked or talked:
            status = "no evidence either way"
            evidence = (
                f"looked up at turn(s) {', '.join(map(str, looked[:4]))}"
                if looked
                else "mentioned, no change"
            )
        elif busy and not names:
            status, evidence = "no evidence either way", "it names nothing to look for"
        else:
            status, evidence = "not started", "nothing since names it"
        facts.append(
            RequestItem(number=number, text=text, status=status, evidence=evidence, changes=changes)
        )
    if not verdicts and sum(1 for f in facts if f.changes) < 2:
        return []  # not worked as a list of tasks
    return facts
