"""Aider's ``.aider.chat.history.md``: a Markdown log, not a structured transcript.

The file is written by Aider's terminal UI as it goes:

* ``# aider chat started at …`` opens a session;
* ``#### text`` lines are what the user typed (one message may span lines);
* ``> text`` lines are Aider's own output (prompts and their answers,
  ``Applied edit to X``, ``Commit <hash> <msg>``, errors).  A multi-line
  message only has ``> `` on its first line; Aider ends every message with two
  spaces, which is how its continuation lines are told from the model's text;
* everything else is the model's reply, where edits are SEARCH/REPLACE blocks
  (``diff`` formats) or whole files in a fence (``whole`` format) under a line
  naming the file.

Aider applies edits itself, so the model's blocks are only a request: an edit
counts when ``Applied edit to X`` follows, or when a partial failure reports
that the other blocks were applied.  In architect mode only the ``Applied edit
to`` lines are written, and they still are edits.  There is no read tool:
``Added X to the chat`` (and a confirmed ``Add file to the chat?``) is the
read.  Shell commands run by Aider (``Running CMD``) have no recorded output,
so their status is unknown.

``/undo`` (``Removed: HASH``; ``Commit `HASH` was reset and removed from
git`` and ``The above commit HASH ...`` in older versions) takes back every
edit of that commit.  "Create new file? y" creates the file, empty, before
its edit is tried, so it exists even when the edit then fails.  On Windows,
a file added by its absolute path (``/add C:\\dev\\app\\src\\a.py``) and
edited by its relative one is one file: the workspace is inferred from the
two spellings when Aider does not print ``Git working dir:``.

The package: the adapter here, :mod:`.history` (the log's items and the
edits a reply asks for) and :mod:`.parser` (what became of them).
"""

from __future__ import annotations

from collections.abc import Iterator

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.aider.parser import Parser
from artifact_index.ingestion.adapters.base import Adapter
from artifact_index.ingestion.events import Event
from artifact_index.ingestion.source import Source

__all__ = ["AiderAdapter"]


def _starts_a_line(text: str, beginnings: tuple[str, ...]) -> bool:
    """Whether a line of ``text`` starts with one of ``beginnings`` (a substring test, faster than ``^`` patterns)."""
    return text.startswith(beginnings) or any("\n" + beginning in text for beginning in beginnings)


@register
class AiderAdapter(Adapter):
    name = "aider"
    description = "Aider .aider.chat.history.md (Markdown chat log)"
    priority = 40

    def sniff(self, source: Source) -> bool:
        head = source.text_head(20000)
        if _starts_a_line(head, ("# aider chat started at ",)):
            return True
        return source.document is None and (
            _starts_a_line(head, ("#### ",))
            and _starts_a_line(source.text, ("> Applied edit to", "> Aider v", "> Tokens: "))
        )

    def events(self, source: Source) -> Iterator[Event]:
        yield from Parser(source).run()
