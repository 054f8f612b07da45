"""Candidate decisions from the assistant's own words.

Deterministic and conservative: a sentence is a candidate only when it
states a choice ("I'll use X", "decided to", "the simplest fix is"), a
rejected alternative ("X instead of Y", "rather than") together with a sign
that someone chose it ("I'll", "we should", "the fix", "now uses", "cleaner"),
or a root cause with its content ("the root cause is", "the real problem:",
"this fails because").  Left out, because on real transcripts they were
mostly noise:

- questions, hedges ("maybe", "might be", "seems") and options still open
  ("we'd need to either");
- code, Markdown table rows and quoted text (a quoted issue saying "instead
  of" is not the assistant's decision);
- "X instead of Y" that only describes behaviour ("it returns None instead
  of raising");
- choices of a tool for the next step ("I'll use sed to ...", "Let's use
  find_file to see ...") and choices too short to carry content;
- a root cause without its content ("Found the root cause.").

A candidate that ends in a colon introduces what follows, so the next
sentence is joined to it.  The summarizer lets an LLM confirm and word them;
here they carry the turn and the files and symbols they name, so they can
join the graph.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from typing import Literal

from pydantic import BaseModel, ConfigDict

from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["Decision", "DecisionKind", "KnownPaths", "extract_decisions"]

DecisionKind = Literal["choice", "rejected-alternative", "root-cause"]

_ROOT_CAUSE = lazy_pattern(
    r"\broot cause\b(?: of\b[^.:]{0,80})?\s*(?:is\b|was\b|:|—|–| - |\()"
    r"|\bthe (?:real|underlying|actual) (?:issue|problem|cause|bug)\b\s*(?:is\b|was\b|:|—|–| - )"
    r"|\b(?:the|this) (?:bug|issue|problem|error|failure|crash) (?:is|was) (?:caused by|due to|because)\b"
    r"|\b(?:this|it|that) (?:is happening|happens|fails|failed|occurs|breaks|broke) because\b",
    re.I,
)
_ALTERNATIVE = lazy_pattern(r"\b(?:instead of|rather than)\b.{3,}", re.I)
_CHOSEN = lazy_pattern(
    r"\b(?:I'll|I will|I'd|I would|I'm|we'll|we will|we should|we'd better|let's go with|should"
    r"|prefer(?:red|s)?|chose|choose|decided|opted|now uses?|switch(?:ed)? to|replac(?:e|ed|es|ing)"
    r"|(?:the|this|my) fix|the (?:approach|solution|change)|cleaner|simpler|safer|more robust|avoids?)\b",
    re.I,
)
_CHOICE = lazy_pattern(
    r"\b(?:I|we)(?:'ve| have)? (?:decided|chosen|chose|opted|settled on)\b"
    r"|\b(?:I'll|I will|let's|let us|we'll|we will) (?:go with|use|switch to|keep|stick with)\b"
    r"|\bthe (?:best|right|cleanest|simplest|safest) (?:approach|fix|option|solution|way) (?:is|would be)\b"
    r"|\bdecision\b:",
    re.I,
)
# The lower-case words one of _ROOT_CAUSE, _ALTERNATIVE or _CHOICE needs (one of them): a sentence
# with none states nothing, known without running the three.  Likewise _HEDGE_WORDS and _PROCESS_WORDS.
_STATING_WORDS = (
    "root cause",
    "the real ",
    "the underlying ",
    "the actual ",
    "caused by",
    "due to",
    "because",
    "instead of",
    "rather than",
    "decided",
    "chose",
    "opted",
    "settled on",
    "go with",
    " use",
    "switch to",
    " keep",
    "stick with",
    "the best ",
    "the right ",
    "the cleanest ",
    "the simplest ",
    "the safest ",
    "decision",
)
# What follows "use" when the choice is of a tool for the next step, not of a design.
_TOOL_WORDS = frozenset(
    {
        "sed",
        "awk",
        "perl",
        "python",
        "python3",
        "script",
        "command",
        "bash",
        "shell",
        "grep",
        "find",
        "cat",
        "find_file",
        "search_file",
        "search_dir",
        "str_replace_editor",
        "editor",
        "tool",
        "replace_all",
        "search/replace",
        "heredoc",
        "echo",
    }
)
_MIN_CHOICE_WORDS = 6
_SENTENCE = lazy_pattern(r"(?<=[.!?])\s+(?=[A-Z`*\"'(])|\n+")
_CODE_SPAN = lazy_pattern(r"`([^`\n]{1,80})`")
_QUOTED = lazy_pattern(r"\"[^\"\n]{1,200}\"|“[^”\n]{1,200}”")
_IDENTIFIER = lazy_pattern(r"^[A-Za-z_][\w.:]*(\(\))?$")
_FENCE = lazy_pattern(r"```.*?```", re.S)
_HEDGE_START = lazy_pattern(
    r"^\s*(?:maybe|perhaps|possibly|should I|could we|do you|would you|if |let me (?:verify|check|confirm|see)|to )",
    re.I,
)
_HEDGE = lazy_pattern(
    r"\b(?:might|may|could) be\b|\bseems?\b|\bnot sure\b|\bprobably\b|\bperhaps\b|\bmaybe\b|\beither\b"
    r"|\b(?:we'd|I'd|would) need\b|\balternatively\b|\bif you (?:want|prefer|like)\b|\b(?:I'll|I will|let's|let me) try\b"
    r"|\b(?:I'll|I will|we'll) keep (?:monitoring|waiting|watching|going|looking|checking|an eye)\b",
    re.I,
)
_HEDGE_WORDS = (
    "might be",
    "may be",
    "could be",
    "seem",
    "not sure",
    "probably",
    "perhaps",
    "maybe",
    "either",
    "we'd need",
    "i'd need",
    "would need",
    "alternatively",
    "if you ",
    "i'll try",
    "i will try",
    "let's try",
    "let me try",
    "i'll keep ",
    "i will keep ",
    "we'll keep ",
)
# The next step of the work ("I'll wait rather than ...", "I'm going to check ... instead of ..."), not a decision.
_PROCESS = lazy_pattern(
    r"\b(?:I'll|I will|I'm|I am|I'm going to|let me|we'll)\s+(?:now\s+|just\s+|also\s+|first\s+)?"
    r"(?:wait|verify|check|inspect|monitor|look|read|search|investigate|continue|capture|let (?:it|them|the)"
    r"|keep (?:the|this|waiting|monitoring|watching)|take (?:a|another)|doing|reading|checking|looking)\b",
    re.I,
)
_PROCESS_WORDS = ("i'll", "i will", "i'm", "i am", "let me", "we'll")
_PREFIX = lazy_pattern(r"^\s*(?:THOUGHT|DISCUSSION)\s*:?\s*")
# Where a name may start (no word character, ``.`` or ``-`` before it) and end (no word character, ``/`` or ``-`` after).
_NAME_START = lazy_pattern(r"(?<![\w.-])\S")
_NAME_END = lazy_pattern(r"[^\w/-]")
_SPACE = lazy_pattern(r"\s")  # what str.isspace calls whitespace
_NOT_SYMBOLS = frozenset({"None", "True", "False", "null", "nil", "undefined", "true", "false"})
_FILE_SUFFIX = lazy_pattern(
    r"\.(?:py|pyi|ts|tsx|js|jsx|mjs|go|rs|java|kt|c|h|cc|cpp|hpp|cs|rb|php|ex|exs|sh|md|rst|txt|json|ya?ml|toml"
    r"|ini|cfg|lock|csv|html|css|xml|log|env|sql)$"
)


class Decision(BaseModel):
    """One candidate decision, in the assistant's words."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    kind: DecisionKind
    text: str
    turn: int
    files: list[str]
    symbols: list[str]


def _clean(sentence: str) -> str:
    sentence = re.sub(r"^\s*([-*>#]+|\d+[.)])\s*", "", sentence)
    sentence = _PREFIX.sub("", sentence)
    return " ".join(sentence.replace("**", "").split())


def _tool_choice(sentence: str) -> bool:
    """Whether a "use" choice picks a tool for the next step ("I'll use `sed` to fix line 622")."""
    match = re.search(r"\buse\b((?:\s+\S+){1,5})", sentence, re.I)
    if match is None:
        return False
    words = {w.strip("`*.,:;()'\"").lower() for w in match.group(1).split()}
    return bool(words & _TOOL_WORDS)


def _kind(sentence: str) -> DecisionKind | None:
    plain = sentence.replace("’", "'")
    # Outside ASCII, matching regardless of case is more than lower-casing (``ſ`` is an ``s``): there
    # the expressions alone decide.
    lower = plain.lower() if plain.isascii() else None
    kind = _stated_kind(plain, lower)
    # A hedge or a step of the work is no decision; looked for only in the few sentences that state one.
    if (
        kind is None
        or _HEDGE_START.match(plain)
        or _found(_HEDGE, _HEDGE_WORDS, plain, lower)
        or (_found(_PROCESS, _PROCESS_WORDS, plain, lower))
    ):
        return None
    return kind


def _found(pattern: re.Pattern[str], words: tuple[str, ...], plain: str, lower: str | None) -> bool:
    """Whether ``pattern`` is in ``plain``; not when ``lower``, the sentence lower-cased, has none of ``words``."""
    if lower is not None and not any(word in lower for word in words):
        return False
    return pattern.search(plain) is not None


def _stated_kind(plain: str, lower: str | None) -> DecisionKind | None:
    if lower is not None and not any(word in lower for word in _STATING_WORDS):
        return None
    if _ROOT_CAUSE.search(plain):
        return "root-cause"
    unquoted = _QUOTED.sub('""', plain)
    if _ALTERNATIVE.search(unquoted) and _CHOSEN.search(unquoted):
        return "rejected-alternative"
    if _CHOICE.search(unquoted):
        if "decision" in unquoted.lower():
            return "choice"
        if len(unquoted.split()) >= _MIN_CHOICE_WORDS and not _tool_choice(unquoted):
            return "choice"
    return None


def _sentences(text: str) -> list[str]:
    """The prose sentences of a message: code fences and Markdown table rows left out."""
    prose = "\n".join(
        line for line in _FENCE.sub(" ", text).splitlines() if not line.lstrip().startswith("|")
    )
    return [s for s in (_clean(raw) for raw in _SENTENCE.split(prose)) if s]


class KnownPaths:
    """The files a session knows, found in a sentence in one pass over the sentence.

    A sentence names a file when it holds the file's path, or its base name
    when that is distinctive (has an extension or a capital: ``auth.py``,
    ``Makefile``, not ``loop``), with no word character, ``.`` or ``-``
    before it and no word character, ``/`` or ``-`` after it.  Rather than
    searching the sentence once per known file, each stretch of the sentence
    between such boundaries is looked up among the names, so the cost follows
    the sentence, not the number of files.  A name holding whitespace cannot
    be delimited that way and is searched for on its own.
    """

    def __init__(self, paths: Iterable[str] = ()) -> None:
        self._paths: set[str] = set()
        self._by_name: dict[str, set[str]] = {}
        self._spaced: dict[str, re.Pattern[str]] = {}
        self._longest = 0
        self.update(paths)

    def __len__(self) -> int:
        return len(self._paths)

    def update(self, paths: Iterable[str]) -> None:
        for path in paths:
            if path in self._paths:
                continue
            self._paths.add(path)
            base = path.rsplit("/", 1)[-1]
            distinctive = "." in base.strip(".") or base[:1].isupper()
            for name in (path, base) if "/" in path and distinctive else (path,):
                if len(name) <= 3:
                    continue
                if _SPACE.search(name):
                    self._spaced.setdefault(
                        name, re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w/-])")
                    )
                self._by_name.setdefault(name, set()).add(path)
                self._longest = max(self._longest, len(name))

    def named_in(self, sentence: str) -> list[str]:
        """The known paths ``sentence`` names, longest first (then alphabetically)."""
        found: set[str] = set()
        by_name = self._by_name
        for start, end in _stretches(sentence, self._longest):
            paths = by_name.get(sentence[start:end])
            if paths:
                found |= paths
        for name, pattern in self._spaced.items():
            if pattern.search(sentence):
                found |= by_name[name]
        return sorted(found, key=lambda p: (-len(p), p))


def _stretches(sentence: str, longest: int) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of every whitespace-free stretch of ``sentence`` with name boundaries at both ends.

    The boundaries are found by two regular expressions, so the loop runs once
    per stretch, not once per character of each.
    """
    length = len(sentence)
    ends = [match.start() for match in _NAME_END.finditer(sentence)]
    ends.append(length)
    for match in _NAME_START.finditer(sentence):
        start = match.start()
        stop = min(length, start + longest)
        for position in range(bisect_right(ends, start), len(ends)):
            end = ends[position]
            if end > stop:
                break
            yield start, end
            if end < length and sentence[end].isspace():
                break


def extract_decisions(
    text: str, turn: int, known_paths: Iterable[str] | KnownPaths = ()
) -> list[Decision]:
    """Candidate decisions stated in one assistant message, with the known files they name."""
    paths = known_paths if isinstance(known_paths, KnownPaths) else KnownPaths(known_paths)
    sentences = _sentences(text)
    out: list[Decision] = []
    seen: set[str] = set()
    for number, sentence in enumerate(sentences):
        if not (20 <= len(sentence) <= 400) or "?" in sentence:
            continue
        kind = _kind(sentence)
        if kind is None:
            continue
        if sentence.endswith(":") and number + 1 < len(sentences):
            sentence = f"{sentence} {sentences[number + 1]}"[:400]
        if sentence in seen:
            continue
        seen.add(sentence)
        files = paths.named_in(sentence)
        symbols = sorted(
            {
                span.rstrip("()")
                for span in _CODE_SPAN.findall(sentence)
                if _IDENTIFIER.match(span)
                and not any(span in f or f.endswith(span) for f in files)
                and "/" not in span
                and not _FILE_SUFFIX.search(span)
                and span not in _NOT_SYMBOLS
            }
        )
        out.append(Decision(text=sentence, kind=kind, turn=turn, files=files, symbols=symbols))
    return out
