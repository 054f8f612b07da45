"""What the agent said its latest change to a file did, in its own words.

"``PostCommit`` modified; +4/-2 lines" tells the agent that continues that
something changed, not what.  The agent usually said it: right after the
change ("``FilterAndNormalizePaths`` now takes the repository root instead
of the working directory"), or in the sentence that introduced it ("I'll
update ``hooks.go`` to use ``paths.RepoRoot()`` instead of ``os.Getwd()``:").
:func:`change_account` finds that sentence for a file's last change:

* first a sentence of the agent's next messages (before the user speaks
  again) that names the file or one of the definitions the change touched
  and says what it does now (``now``, ``instead of``, ``uses``, ``added``,
  ``replaced``...), not a plan or a question;
* else the sentence that announced the change, when it names the file or a
  definition and says how (``to use``, ``instead of``, ``so that``, ``by
  adding``...): the change that followed carried it out.

A sentence that names neither is about something else; "Let me update
them:" says nothing of substance.  None when no sentence qualifies: the
changed lines then speak (see :func:`~artifact_index.facts.changes.changed_code`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from artifact_index.facts.changes import symbol_key
from artifact_index.ingestion.events import AssistantMessage, Event, UserMessage
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.answers import FileReport
from artifact_index.trail.conversation.told import ChangeAccount

__all__ = ["change_account"]

_SENTENCES = lazy_pattern(r"(?<=[.!?])\s+(?=[A-Z`*\"'(])|\n+")
_PLAN = lazy_pattern(
    r"^[\s*#>\d.)-]*(?:now,?\s+|next,?\s+|then,?\s+|first,?\s+)?(?:let me|let's|I'll|I will|I need to|"
    r"I'm going to|we need to|we should|I should)\b",
    re.I,
)
# Words that say what a change did ("now filters", "added", "instead of"), not what the code does anyway.
_SAYS_WHAT = lazy_pattern(
    r"\b(?:now|instead of|no longer|added|adds|removed|removes|replaced|replaces|changed|switched|extracted|moved|"
    r"renamed|fixed|fixes|updated|updates|made|wrapped|guarded|introduced|dropped|converted|refactored|"
    r"simplified|inlined)\b",
    re.I,
)
_HOW = lazy_pattern(
    r"\b(?:instead of|to use|to return|to call|to pass|to take|to handle|to skip|to check|to only|"
    r"to stop|to avoid|to include|to exclude|so that|so it|by (?:adding|using|replacing|removing|"
    r"extracting|passing|wrapping|checking|calling|moving))\b",
    re.I,
)
_FOLLOWING = 8  # turns after the change in which the agent's account of it is looked for
_MAX = 220


def _cut(text: str) -> str:
    text = " ".join(text.replace("**", "").split()).strip(" -*")
    return text if len(text) <= _MAX else text[: _MAX - 1].rstrip() + "…"


def _names(f: FileReport, since: int) -> list[str]:
    """How a sentence names this file's change: its file name, the definitions it touched since ``since``."""
    name = f.path.rsplit("/", 1)[-1]
    symbols = [s for s in f.symbols if s.change != "read" and any(t >= since for t in s.turns)]
    names = {name}
    for s in symbols:
        if len(s.name) >= 4:
            names |= {f"`{s.name}", f"{s.name}(", f"`{symbol_key(s)}"}
    return sorted(names)


def _names_it(sentence: str, names: list[str]) -> bool:
    return any(n in sentence for n in names)


def change_account(events: Sequence[Event], f: FileReport, since: int) -> ChangeAccount | None:
    """The agent's sentence saying what the file's last change did, and its turn; None when it said none.

    ``since``: the turn the current thread started (the definitions changed since then are the change's).
    """
    if not f.changed_turns:
        return None
    last = max(f.changed_turns)
    # A change made before the thread started (the user asks about it) is named by what that change touched.
    names = _names(f, min(since, last))
    after: list[AssistantMessage] = []
    announced: AssistantMessage | None = None
    for event in events:
        if event.sidechain is not None:
            continue
        if isinstance(event, AssistantMessage) and event.text.strip():
            if event.turn <= last:
                announced = event
            elif event.turn <= last + _FOLLOWING:
                after.append(event)
        elif isinstance(event, UserMessage) and not event.synthetic and event.turn > last:
            break
    for message in after:
        for sentence in _SENTENCES.split(message.text):
            text = sentence.strip()
            if (
                _names_it(text, names)
                and _SAYS_WHAT.search(text)
                and not _PLAN.match(text)
                and not text.endswith(("?", ":"))
            ):
                return ChangeAccount(turn=message.turn, text=_cut(text))
    if announced is not None and announced.turn >= last - 1:
        for sentence in _SENTENCES.split(announced.text):
            if _names_it(sentence, names) and _HOW.search(sentence):
                return ChangeAccount(turn=announced.turn, text=_cut(sentence.strip().rstrip(":")))
    return None
