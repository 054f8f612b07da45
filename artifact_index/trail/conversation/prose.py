"""The agent's and the user's words split into sentences, as the conversation queries and the sections read them."""

from __future__ import annotations

import re

from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["sentences"]


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
