"""The bash grammar, parsing that never crashes it, and the map from a parsed skeleton back to the original command."""

from __future__ import annotations

import bisect
from functools import cache

from tree_sitter import Node as TSNode
from tree_sitter import Parser

from artifact_index.grammars import parser as grammar_parser
from artifact_index.grammars import safe_parse
from artifact_index.shell.parser.syntax_tree import Word

__all__ = [
    "HEREDOC_PLACEHOLDER",
    "Source",
    "bash_parser",
    "heredoc_index",
    "safe_parse",
]


@cache
def bash_parser() -> Parser | None:
    return grammar_parser("bash")


# What a heredoc operator becomes once its body is cut out: an input redirection from this word.
HEREDOC_PLACEHOLDER = "__artifact_index_heredoc_{}__"


def heredoc_index(word: str) -> int | None:
    """The number of the heredoc a placeholder word stands for; None for any other word."""
    prefix, suffix = HEREDOC_PLACEHOLDER.split("{}")
    if not (word.startswith(prefix) and word.endswith(suffix)):
        return None
    index = word[len(prefix) : -len(suffix)]
    return int(index) if index.isdigit() else None


class Source:
    """The bytes a tree was parsed from and the map back to the original command."""

    def __init__(
        self,
        data: bytes,
        original: bytes,
        segments: list[tuple[int, int, int, bool]],
        heredocs: list[Word | None] | None = None,
    ):
        self.data = data
        self.heredocs = heredocs or []
        self.original = original
        # (skeleton start, original start, original end, is placeholder), sorted by skeleton start
        self.segments = segments
        self.starts = [s[0] for s in segments]

    def text(self, node: TSNode) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def span(self, start: int, end: int) -> str:
        """Original text for the skeleton range ``[start, end)``."""
        if not self.segments:
            return self.data[start:end].decode("utf-8", "replace")
        return self.original[self.map(start, False) : self.map(end, True)].decode(
            "utf-8", "replace"
        )

    def map(self, pos: int, is_end: bool) -> int:
        """The original offset of skeleton offset ``pos`` (a placeholder maps to its whole operator)."""
        if not self.segments:
            return pos
        i = bisect.bisect_right(self.starts, pos) - 1
        if i < 0:
            return pos
        skel, orig_start, orig_end, placeholder = self.segments[i]
        if placeholder:
            if pos == skel and not is_end:
                return orig_start
            return orig_end
        return min(orig_start + (pos - skel), orig_end)
