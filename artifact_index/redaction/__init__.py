"""Secret redaction: the one pass every output, saved state, store row and outgoing request goes through.

Transcripts hold whatever the agent saw: ``.env`` files it read, keys a user
pasted, passwords typed on a command line, tokens in command output.
Nothing this project writes may carry them further.  Use it at a boundary,
never in the middle of an analysis::

    from artifact_index.redaction import redact_json, redact_text

    sys.stdout.write(redact_text(table))           # text about to leave the process
    payload = redact_json(state)                   # JSON-shaped data (returns a new object)

A secret becomes a placeholder that says what it hid, e.g.
``[REDACTED aws-secret-key]``.  The result is a pure function of the input
(and, inside paths, of the user's key), so the same text always redacts the
same way: a saved state can hold redacted file contents, and a later edit
applies to them once its old and new text are redacted too (see
:func:`redact_text`).  Redacting twice changes nothing.

What is found (:mod:`~artifact_index.redaction.rules` is the table, one
entry per shape, each with a text that holds one):

* tokens by their prefix (``ghp_``, ``sk-ant-``, ``hf_``, ``npm_``,
  ``whsec_``, ``xoxb-``, ``AKIA``, ...), JWTs and private-key blocks (also
  inside numbered file views and JSON strings);
* credentials by where they stand: passwords in URLs, ``Authorization``
  and ``x-api-key`` headers, cookies, ``mysql -p...``, ``curl -u
  user:...``, ``sshpass -p``, ``docker login -p``, ``openssl pass:...``,
  connection strings, a Kubernetes Secret's ``data:``;
* values under secret-sounding names (``.env`` lines, YAML, code, JSON
  members, command options, query strings), see
  :func:`~artifact_index.redaction.names.secret_name`;
* a password or token a person typed in a sentence ("my password is ...");
* base64 that decodes to a secret or to ``user:password``;
* keys nobody named: long tokens of letters and digits that read as
  random (:mod:`~artifact_index.redaction.randomness`), whatever their
  length or prefix, while git hashes, UUIDs, ULIDs, KSUIDs, lock-file
  digests and the ids of agents and model APIs stay.

A path is never replaced whole: a secret inside one becomes a placeholder
with a keyed hash (:mod:`~artifact_index.redaction.path_secrets`), so distinct
paths stay distinct; random-looking names of files and folders are not
secrets and stay as they are (a URL's path is searched, though: webhooks
carry their secret there).

Redaction is on unless switched off for local debugging, with the
``ARTIFACT_INDEX_NO_REDACT=1`` environment variable, the command line's
``--no-redact`` flag, or :func:`redaction_disabled`.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.redaction.names import is_code_or_prose, secret_name
from artifact_index.redaction.path_secrets import in_path_component, path_placeholder
from artifact_index.redaction.randomness import (
    decoded_text,
    is_identifier,
    is_known_identifier,
    looks_random,
)
from artifact_index.redaction.rules import RULES, SecretRule

__all__ = [
    "DISABLE_ENVIRONMENT_VARIABLE",
    "RULES",
    "SecretRule",
    "holds_redactions",
    "redact_json",
    "redact_path",
    "redact_text",
    "redaction_disabled",
    "redaction_enabled",
    "secret_name",
    "secrets_found_by",
]

DISABLE_ENVIRONMENT_VARIABLE = "ARTIFACT_INDEX_NO_REDACT"

_PLACEHOLDER = lazy_pattern(r"\[REDACTED[ -][a-z0-9-]+\]")
_PLACEHOLDER_START = "[REDACTED"
_disabled: ContextVar[bool] = ContextVar("artifact_index_redaction_disabled", default=False)
# Base64 of a secret (a token wrapped once more, Basic credentials, a registry's "auth").
_BASE64_DEPTH = 2


def redaction_enabled() -> bool:
    """False inside :func:`redaction_disabled` or when ``ARTIFACT_INDEX_NO_REDACT`` is set."""
    if _disabled.get():
        return False
    return os.environ.get(DISABLE_ENVIRONMENT_VARIABLE, "").strip().lower() in (
        "",
        "0",
        "false",
        "no",
    )


@contextmanager
def redaction_disabled() -> Iterator[None]:
    """Leave secrets in place inside the block (local debugging only)."""
    token = _disabled.set(True)
    try:
        yield
    finally:
        _disabled.reset(token)


class _Spans:
    """Non-overlapping spans, kept sorted: the first rule to claim characters keeps them."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.items: list[tuple[int, int, str]] = []

    def add(self, start: int, end: int, label: str) -> bool:
        if end <= start:
            return False
        at = bisect.bisect_left(self.starts, start)
        if at > 0 and self.items[at - 1][1] > start:
            return False
        if at < len(self.items) and self.items[at][0] < end:
            return False
        self.starts.insert(at, start)
        self.items.insert(at, (start, end, label))
        return True

    def secrets(self) -> list[tuple[int, int, str]]:
        return [item for item in self.items if item[2]]


def _secret_group(match: re.Match[str]) -> tuple[int, int]:
    groups = [name for name in match.re.groupindex if name.startswith("secret")]
    for name in groups:
        if match.start(name) >= 0:
            return match.span(name)
    return match.span()


_ESCAPE_LETTER = lazy_pattern(r"[nrt]|u[0-9a-fA-F]{4}")


def _unescaped(text: str, start: int, end: int) -> tuple[int, int]:
    """A run without the letter of the escape before it (``\\nKEY...`` in a JSON string is ``KEY...``)."""
    if start and text[start - 1] == "\\":
        escape = _ESCAPE_LETTER.match(text, start, end)
        if escape:
            return escape.end(), end
    return start, end


def _roots(keywords: set[str]) -> tuple[str, ...]:
    """The keywords that hold no other: finding every place of each finds every keyword's."""
    return tuple(sorted(k for k in keywords if not any(o != k and o in k for o in keywords)))


_KEYWORD_ROOTS = _roots({keyword for rule in RULES for keyword in rule.keywords})
# Each rule's keywords, as the roots that find them.
_RULE_ROOTS = {
    rule.name: tuple(
        sorted({next(root for root in _KEYWORD_ROOTS if root in k) for k in rule.keywords})
    )
    for rule in RULES
}
_FIND_ROOTS = lazy_pattern("(?=(" + "|".join(re.escape(root) for root in _KEYWORD_ROOTS) + "))")


def _scoped(rule: SecretRule, number: int) -> str:
    """``rule``'s expression as a part of a larger one: its groups renamed, its flags scoped."""
    pattern = re.sub(r"\(\?P<(\w+)>", rf"(?P<r{number}_\1>", rule.pattern)
    pattern = re.sub(r"\(\?P=(\w+)\)", rf"(?P=r{number}_\1)", pattern)
    flags = "i" if rule.flags & re.IGNORECASE else ""
    flags += "m" if rule.flags & re.MULTILINE else ""
    return f"(?{flags}:{pattern})" if flags else f"(?:{pattern})"


_WHOLE_TEXT_RULES = tuple(rule for rule in RULES if not rule.keywords and not rule.min_run)
# One search that says whether any rule searching the whole text can match a short text: most
# short texts (ids, names, paths) hold none, and one search costs less than one per rule.
_ANY_WHOLE_TEXT_MATCH = lazy_pattern(
    "|".join(_scoped(rule, number) for number, rule in enumerate(_WHOLE_TEXT_RULES))
)
# Past this length the roots are searched one by one (each a fast substring search) rather
# than together (one pass, but one that tries every root at every position).
_ONE_PASS_LIMIT = 2048


class _Scan:
    """One text under scan, with what several rules ask of it computed once."""

    # Around a keyword, how far a windowed rule looks: a name of 80 characters before the word
    # it holds, a value of a line after it.
    BEFORE, AFTER = 200, 1000

    def __init__(self, text: str) -> None:
        self.text = text
        self.runs = [_unescaped(text, m.start(), m.end()) for m in _CANDIDATE.finditer(text)]
        self._places: dict[str, list[int]] | None = None
        self._windows: dict[tuple[str, ...], list[tuple[int, int]]] = {}

    def keyword_places(self) -> dict[str, list[int]]:
        """Where each keyword root occurs in the text (in any case)."""
        if self._places is None:
            lowered = self.text.lower()
            places: dict[str, list[int]] = {}
            if len(lowered) <= _ONE_PASS_LIMIT:
                for match in _FIND_ROOTS.finditer(lowered):
                    places.setdefault(match.group(1), []).append(match.start())
            else:
                for root in _KEYWORD_ROOTS:
                    at = lowered.find(root)
                    while at >= 0:
                        places.setdefault(root, []).append(at)
                        at = lowered.find(root, at + 1)
            self._places = places
        return self._places

    def windows(self, roots: tuple[str, ...]) -> list[tuple[int, int]]:
        """The stretches around each place of the keywords (in any case), merged."""
        cached = self._windows.get(roots)
        if cached is not None:
            return cached
        places = self.keyword_places()
        positions = sorted(at for root in roots for at in places.get(root, ()))
        merged: list[tuple[int, int]] = []
        for position in positions:
            start, end = max(0, position - self.BEFORE), position + self.AFTER
            if merged and start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], end))
            else:
                merged.append((start, end))
        self._windows[roots] = merged
        return merged

    def near_runs(self, length: int) -> list[tuple[int, int]]:
        """The stretches around each run of base64 at least ``length`` long, merged."""
        merged: list[tuple[int, int]] = []
        for run_start, run_end in self.runs:
            if run_end - run_start < length:
                continue
            start, end = max(0, run_start - 120), run_end + 120
            if merged and start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], end))
            else:
                merged.append((start, end))
        return merged


def _apply(rule: SecretRule, scan: _Scan, spans: _Spans) -> None:
    """Every match of ``rule`` in the scanned text, taken where it is a secret."""
    text = scan.text
    if rule.min_run:
        stretches = scan.near_runs(rule.min_run)
    elif rule.keywords:
        stretches = scan.windows(_RULE_ROOTS[rule.name])
    else:
        stretches = [(0, len(text))]
    search = rule.compiled.search
    for first, last in stretches:
        position = first
        while (match := search(text, position, last)) is not None:
            if _take(rule, match, text, spans):
                position = match.end()
            else:
                # A match that is no secret may hold the start of one (``environment:
                # POSTGRES_PASSWORD: ...`` first matches with the wrong name): look on from its value.
                position = max(match.start() + 1, _secret_group(match)[0])


def _take(rule: SecretRule, match: re.Match[str], text: str, spans: _Spans) -> bool:
    """Take the secret of ``match`` if it is one; whether it was."""
    start, end = _secret_group(match)
    if rule.boundary and match.start() > 0 and text[match.start() - 1].isalnum():
        return False
    value = text[start:end]
    if rule.trim:
        trimmed = value.rstrip(rule.trim)
        end -= len(value) - len(trimmed)
        value = trimmed
    if not value.strip():
        return False
    label = rule.label or rule.name
    if rule.names_its_label:
        named = secret_name(match.group("name"))
        if named is None:
            return False
        label = named
    if rule.accept is not None and not rule.accept(value, match):
        return False
    # Characters an earlier rule took are not taken again: a value running over them may hold
    # another secret (``AccountKey=[...];...PGPASSWORD=...`` glued), searched on from its start.
    return spans.add(start, end, label)


# Runs of the base64 and base64url alphabets (the slash too: a key may hold one; a path is split below).
# (Its padding only when it ends the run: in ``NAME=value`` the run is NAME, whatever follows.)
_CANDIDATE = lazy_pattern(
    r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{12,}+(?:={1,2}(?![A-Za-z0-9+/=_-]))?"
)
_CREDENTIALS = lazy_pattern(r"^[^\s:]{1,64}:[^\s]{3,}$")
# What ends a word of text on either side: the word holding a token (a path, a URL) lies between.
# (An escape of a JSON string ends one too: lines joined by ``\\n`` are no path.)
_WORD_BREAK = lazy_pattern(r"[\s\"'`<>(){}\[\],;]|\\+(?:[nrt\"]|u[0-9a-fA-F]{4})")
_ESCAPE_AT = lazy_pattern(r"\\+(?:[nrt\"]|u[0-9a-fA-F]{4})")
# (An ``=`` ends it too: a token before one is a name assigned a value, which is another word.)
_TOKEN_END = lazy_pattern(r"[^\s\"'`<>(){}\[\],;\\=]*")
_URL_START = lazy_pattern(r"https?://", re.IGNORECASE)
# The value of an id or a signature a model API issued: random by design, no secret.
_ID_KEY = lazy_pattern(
    r"(?:\b(?:id|Id|ID)|_id|Id|ID|requestid|RequestId|signature|etag|ETag)\\?[\"']?\s*[:=]\s*\\?[\"']?$"
)


_FILE_NAME = lazy_pattern(r"^[\w-]+\.[A-Za-z0-9]{1,8}$")


def _names_a_folder_or_file(segment: str) -> bool:
    """A segment a path has (``home``, ``src``, ``node_modules``, ``2024``, ``app.py``), not a key's piece."""
    if segment.isdigit() or _FILE_NAME.match(segment):
        return True
    if segment.isalpha() and len(segment) >= 2 and (segment.islower() or segment.istitle()):
        return True
    return len(segment) >= 3 and is_identifier(segment)


def _is_secret_text(decoded: str, depth: int) -> bool:
    """Text found inside base64 that is a secret: what a rule would redact, or ``user:password``."""
    if depth >= _BASE64_DEPTH:
        return False
    return bool(_CREDENTIALS.match(decoded.strip())) or bool(_find(decoded, depth + 1))


def _wraps_a_secret(token: str, depth: int) -> bool:
    decoded = decoded_text(token)
    return decoded is not None and _is_secret_text(decoded, depth)


def _generic(scan: _Scan, spans: _Spans, depth: int, *, as_path: bool = False) -> None:
    """Keys found by shape alone: base64-wrapped secrets and random-looking tokens.

    The few tokens that would go are found first, cheaply; only they are
    then checked against what they may be instead (an id, a digest, a
    file's name).
    """
    text = scan.text
    for start, end in scan.runs:
        token = text[start:end]
        if "/" in token:
            _generic_in_path(text, token, start, end, spans, as_path=as_path)
            continue
        body = token.rstrip("=")
        label = None
        if len(body) % 4 == 0 or len(body) != len(token):
            decoded = decoded_text(token)
            if decoded is not None:
                # Base64 of text is data (a fixture, an encoded string), unless the text is a secret.
                if _is_secret_text(decoded, depth):
                    label = "base64-secret"
                else:
                    continue
        if label is None and looks_random(token):
            label = "high-entropy-string"
        if label is None:
            continue
        before = text[max(0, start - 16) : start]
        if is_known_identifier(token, before, text[end : end + 32]) or _ID_KEY.search(before):
            continue
        if (as_path or _in_path(text, start, end)) and not _in_url(text, start):
            continue  # a file's or folder's name: random-looking, not a secret
        spans.add(start, end, label)


def _word_before(text: str, start: int) -> str:
    """The part of the word holding ``start`` that lies before it (at most 400 characters)."""
    window = text[max(0, start - 400) : start]
    last = None
    for last in _WORD_BREAK.finditer(window):  # noqa: B007 (the last one is wanted)
        pass
    return window[last.end() :] if last else window


def _in_path(text: str, start: int, end: int) -> bool:
    """Part of a path: next to a separator, or inside a word that holds one (``.pnpm/@scope+pkg@1.0``)."""
    if in_path_component(text, start, end):
        return True
    tail = _TOKEN_END.match(text, end)
    word = _word_before(text, start) + (tail.group() if tail else "")
    return "/" in word or "\\" in word


def _in_url(text: str, start: int) -> bool:
    return bool(_URL_START.match(_word_before(text, start)))


def _generic_in_path(
    text: str, token: str, start: int, end: int, spans: _Spans, *, as_path: bool
) -> None:
    """A run with slashes: a key of base64 (AWS secret keys hold slashes), or a path whose names stay."""
    segments = token.split("/")
    before = text[start - 1] if start else " "
    after = " " if _ESCAPE_AT.match(text, end) else (text[end] if end < len(text) else " ")
    # A key of base64 may hold slashes, even start with one; a path has names among its segments:
    # one for an absolute path, a good share of it for a relative one.
    named = sum(len(segment) for segment in segments if _names_a_folder_or_file(segment))
    path_shaped = (
        as_path
        or before in ".~:\\"
        or after in ".\\"
        or (token.startswith("/") and named > 0)
        or named >= 0.3 * len(token)
    )
    if not path_shaped:
        if looks_random(token.replace("/", "")) and not is_known_identifier(token):
            spans.add(start, end, "high-entropy-string")
        return
    if not _in_url(text, start):
        return
    # A URL's path can carry a secret (a webhook's token): its random-looking segments go.
    position = start
    for segment in segments:
        if (
            len(segment) >= 20
            and not is_known_identifier(segment)
            and (looks_random(segment) or _wraps_a_secret(segment, 0))
        ):
            spans.add(position, position + len(segment), "high-entropy-string")
        position += len(segment) + 1


def _find(text: str, depth: int = 0, *, as_path: bool = False) -> list[tuple[int, int, str]]:
    """Secret spans of ``text``, sorted, non-overlapping, first rule first."""
    spans = _Spans()
    if _PLACEHOLDER_START in text:
        for match in _PLACEHOLDER.finditer(text):
            spans.add(match.start(), match.end(), "")
    scan = _Scan(text)
    longest = max((end - start for start, end in scan.runs), default=0)
    present = scan.keyword_places().keys()
    whole_text = len(text) > _ONE_PASS_LIMIT or _ANY_WHOLE_TEXT_MATCH.search(text) is not None
    for rule in RULES:
        # (Most rules find nothing in most texts: the cheap reasons to skip one come first.)
        if rule.min_run:
            if rule.min_run > longest:
                continue
        elif rule.keywords:
            if present.isdisjoint(_RULE_ROOTS[rule.name]):
                continue
        elif not whole_text:
            continue
        _apply(rule, scan, spans)
    _generic(scan, spans, depth, as_path=as_path)
    return spans.secrets()


def secrets_found_by(rule: SecretRule, text: str) -> list[str]:
    """The secrets ``rule`` alone finds in ``text`` (to test the table one rule at a time)."""
    spans = _Spans()
    _apply(rule, _Scan(text), spans)
    return [text[start:end] for start, end, _ in spans.secrets()]


# Text without any of these holds no secret of any rule (most short strings): a run a token or a
# key would make, what assigns or joins a credential, a private key's dashes, a rule's keyword.
_QUICK_REJECT = lazy_pattern(
    r"[A-Za-z0-9+/_-]{12}|[=:@]|-----|(?i:"
    + "|".join(re.escape(root) for root in _KEYWORD_ROOTS)
    + ")"
)


def _clipped(text: str, start: int, end: int) -> int:
    """The end of a span that ran on over a path's separator into a name (``whsec_.../photo.jpg``)."""
    separator = text.rfind("/", start + 1, end)
    if separator < 0:
        return end
    tail = text[separator + 1 : end]
    if in_path_component(text, separator + 1, end) and (
        is_identifier(tail) or tail.isalpha() or tail.isdigit()
    ):
        return separator
    return end


def _replace(text: str, spans: list[tuple[int, int, str]], *, path: bool) -> str:
    pieces: list[str] = []
    position = 0
    for start, full_end, label in spans:
        end = _clipped(text, start, full_end)
        pieces.append(text[position:start])
        secret = text[start:end]
        if path or in_path_component(text, start, end):
            pieces.append(path_placeholder(label, secret))
        else:
            pieces.append(f"[REDACTED {label}]")
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def _redact(text: str, *, path: bool) -> str:
    if not text or not redaction_enabled() or not _QUICK_REJECT.search(text):
        return text
    spans = _find(text, as_path=path)
    return _replace(text, spans, path=path) if spans else text


def redact_text(text: str) -> str:
    """``text`` with every secret replaced by ``[REDACTED <kind>]``.

    Deterministic and idempotent.  To apply an edit to content that was
    stored redacted, redact the edit's old and new text too: a secret inside
    them becomes the same placeholder.  A secret in a path's component gets
    the placeholder of :func:`redact_path`.
    """
    return _redact(text, path=False)


def redact_path(path: str) -> str:
    """``path`` with each secret in it replaced by a placeholder that keeps it apart from other paths.

    Never the whole path: ``/srv/ghp_.../config.json`` ->
    ``/srv/[REDACTED-github-token-5f2c9a01de]/config.json``; two paths
    that differ stay different.
    """
    return _redact(path, path=True)


def holds_redactions(text: str) -> bool:
    """Whether ``text`` may hold a placeholder :func:`redact_text` wrote (a cheap test, no rule run)."""
    return _PLACEHOLDER_START in text


# JSON members whose value is a path (the trail's, the store's, the saved state's).
_PATH_KEYS = frozenset(
    {
        "path",
        "paths",
        "absolute",
        "renamed_from",
        "transcript",
        "root",
        "cwd",
        "file",
        "file_path",
        "filePath",
        "filename",
        "old_path",
        "new_path",
        "dest",
        "display",
    }
)
# Opaque blobs a model API issued and checks on the way back (a thinking block's signature):
# changing them breaks the request, and they hold nothing of the session.
_OPAQUE = {
    "thinking": "signature",
    "redacted_thinking": "data",
    "reasoning": "encrypted_content",
    "base64": "data",
}
_AUTHORIZATION = lazy_pattern(r"^(?:proxy-)?authorization$", re.IGNORECASE)
_SCHEME = lazy_pattern(r"^([A-Za-z][A-Za-z0-9-]*\s+)(\S.*)$", re.DOTALL)


def redact_json(value: Any) -> Any:
    """A copy of a JSON-shaped value with every string redacted.

    A string stored under a secret-sounding key (``{"password": "..."}``) is
    replaced whole, an ``Authorization`` header's credentials too (its
    scheme stays), and a path (under ``path``, ``absolute``, ``file``, ...)
    goes through :func:`redact_path`.  Keys are kept (a key that is a path
    is redacted as a path), so the shape of the data stays the same.  Values that are not JSON types (numbers, booleans,
    None included) are returned as they are.
    """
    if not redaction_enabled():
        return value
    return _redact_value(value, None)


def _under_key(key: str, value: str) -> str:
    if key in _PATH_KEYS:
        return redact_path(value)
    stripped = value.strip()
    if stripped and _AUTHORIZATION.match(key):
        scheme = _SCHEME.match(stripped)
        credentials = scheme.group(2) if scheme else stripped
        if not is_code_or_prose(credentials, "literal"):
            return f"{scheme.group(1) if scheme else ''}[REDACTED authorization-header]"
    label = secret_name(key)
    if label and stripped and not holds_redactions(stripped):
        prose_is_a_value = label == "password"
        if not is_code_or_prose(stripped, "config") or (
            prose_is_a_value and not is_code_or_prose(stripped, "literal")
        ):
            return f"[REDACTED {label}]"
    return redact_text(value)


def _redacted_key(key: Any) -> Any:
    """A key as kept: a field's name as it is, a path (a state keyed by file) as a path is redacted."""
    if isinstance(key, str) and ("/" in key or "\\" in key):
        return redact_path(key)
    return key


def _redact_value(value: Any, key: str | None) -> Any:
    if isinstance(value, str):
        return _under_key(key, value) if key is not None else redact_text(value)
    if isinstance(value, dict):
        kind = value.get("type")
        opaque = _OPAQUE.get(kind) if isinstance(kind, str) else None
        return {
            _redacted_key(k): v
            if k == opaque and isinstance(v, str)
            else _redact_value(v, k if isinstance(k, str) else None)
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [_redact_value(item, key if key in _PATH_KEYS else None) for item in value]
    return value
