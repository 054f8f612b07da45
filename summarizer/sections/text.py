"""How the index sections quote text: on one line within a limit, or as a fenced block under a list item."""

from __future__ import annotations

import re

from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["block", "one_line", "sentences", "whole_sentences"]


def one_line(text: str, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters at a word boundary when one is near."""
    line = " ".join(text.split())
    if len(line) <= limit:
        return line
    cut = line.rfind(" ", 0, limit - 1)
    return line[: cut if cut > limit * 0.7 else limit - 1] + "…"


# A sentence ends at ".", "!" or "?" before a space, at a full-width "。", "！" or "？" (Chinese and Japanese put
# no space after it), or at a line break; not at the dot of an abbreviation
# ("e.g. a pass on the docs" is one sentence: cut after "e.g." its first words read as a sentence of their own).
# Nor at the number of a list item ("1. Add colour variation" is one item, not "1." and a sentence).
_SENTENCE_BREAK = lazy_pattern(
    r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.)(?<!\bvs\.)(?<!\bcf\.)(?<!^\d\.)(?<!\n\d\.)(?<!^\d\d\.)"
    r"(?<!\n\d\d\.)(?<=[.!?])[ \t]+|(?<=[。！？])[ \t]*(?=\S)|\s*\n\s*",
    re.I,
)


def sentences(text: str) -> list[str]:
    """``text`` split into its sentences and lines, in order, as written (empty pieces included)."""
    return _SENTENCE_BREAK.split(text)


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
