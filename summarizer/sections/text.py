"""How the index sections quote text: on one line within a limit, or as a fenced block under a list item."""

from __future__ import annotations

from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.conversation.prose import sentences

# ``sentences`` is the engine's (the conversation queries split the agent's words with it), named here
# beside the other ways the sections cut text.
__all__ = ["block", "code_span", "one_line", "sentences", "shorten", "whole_sentences"]


def code_span(text: str) -> str:
    """``text`` as Markdown inline code, whatever backticks it holds.

    A heading, an error message or a command quoted between single backticks breaks
    apart at its own backticks ("`Register `auth` in apps`" reads as two spans and a word),
    so the fence is one backtick longer than the longest run inside, as CommonMark allows;
    a space pads a text that starts or ends with a backtick.
    """
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


_BACKTICKS = lazy_pattern(r"`+")


def one_line(text: str, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters at a word boundary when one is near."""
    line = " ".join(text.split())
    if len(line) <= limit:
        return line
    cut = line.rfind(" ", 0, limit - 1)
    return line[: cut if cut > limit * 0.7 else limit - 1] + "…"


# Chinese and Japanese end a sentence with a full-width mark and no space after it.
_SENTENCE_END = lazy_pattern(r"[.!?:;](?=\s)|[。！？；：]|\n")


def whole_sentences(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters at the end of a sentence (or a line), saying how much was left out.

    A request cut mid-sentence reads as a different request; when even its
    first sentence is longer than ``limit``, it is cut at a word boundary.
    """
    text = text.strip()
    if len(text) <= limit:
        return text
    ends = [m.end() for m in _SENTENCE_END.finditer(text, 0, limit)]
    cut = ends[-1] if ends and ends[-1] > limit // 3 else None
    if cut is None:
        shown = one_line(text, limit).removesuffix("…").rstrip()
        cut = len(shown)
        kept = shown
    else:
        kept = text[:cut].rstrip()
    return f"{kept} […{len(text) - cut:,} more characters]"


def block(text: str) -> str:
    """A multi-line text as an indented fenced block under a list item."""
    body = text.rstrip("\n").replace("\n", "\n  ")
    return f"\n  ```\n  {body}\n  ```"


def shorten(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters at a line, else sentence, else word boundary.

    A code fence left open by the cut is closed, so the rest of the summary
    is not read as code.
    """
    text = text.strip()
    if len(text) <= limit:
        return text
    head = text[:limit]
    cut = head.rfind("\n")
    if cut < limit // 2:
        sentence = max(head.rfind(". "), head.rfind("! "), head.rfind("? "))
        cut = sentence + 1 if sentence >= limit // 2 else head.rfind(" ")
    if cut <= 0:
        cut = limit
    kept = text[:cut].rstrip() + " …"
    if kept.count("```") % 2:
        kept += "\n```"
    return kept
