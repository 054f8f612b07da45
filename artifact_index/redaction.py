"""Secret redaction: the one pass every output, saved state and outgoing request goes through.

Transcripts hold whatever the agent saw: ``.env`` files it read, keys a user
pasted, tokens in command output.  Nothing this project writes may carry
them further.  Use it at a boundary, never in the middle of an analysis::

    from artifact_index.redaction import redact_json, redact_text

    sys.stdout.write(redact_text(table))           # text about to leave the process
    payload = redact_json(state)                   # JSON-shaped data (returns a new object)

A secret becomes a placeholder that says what it hid, e.g.
``[REDACTED aws-secret-key]``.  The result is a pure function of the input
(no counters, no hashes of the secret), so the same text always redacts the
same way: a saved state can hold redacted file contents, and a later edit
applies to them once its old and new text are redacted too (see
:func:`redact_text`).  Redacting twice changes nothing.

What is found:

* the token patterns of `detect-secrets`_ (AWS, GitHub, GitLab, Stripe,
  Slack, SendGrid, Twilio, npm, PyPI, ...) and JWTs, used as a library;
* Anthropic and OpenAI keys, private-key blocks (``-----BEGIN ... PRIVATE
  KEY-----`` to its end, or to where the text stops looking like one),
  passwords in URLs (``postgres://user:PASSWORD@host``), ``Bearer`` tokens;
* values assigned to secret-sounding names: ``.env`` lines
  (``DB_PASSWORD=...``), quoted literals in code and config
  (``password: "..."``), and JSON members (``{"api_key": "..."}``);
* high-entropy tokens that look like keys: long, mixed letters and digits,
  not hexadecimal (git hashes, UUIDs and digests stay), not base64 of text.

Redaction is on unless switched off for local debugging, with the
``ARTIFACT_INDEX_NO_REDACT=1`` environment variable, the command line's
``--no-redact`` flag, or :func:`redaction_disabled`.

.. _detect-secrets: https://github.com/Yelp/detect-secrets
"""

from __future__ import annotations

import base64
import binascii
import math
import os
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from typing import Any

__all__ = [
    "DISABLE_ENVIRONMENT_VARIABLE",
    "holds_redactions",
    "redact_json",
    "redact_text",
    "redaction_disabled",
    "redaction_enabled",
    "secret_name",
]

DISABLE_ENVIRONMENT_VARIABLE = "ARTIFACT_INDEX_NO_REDACT"

_PLACEHOLDER = re.compile(r"\[REDACTED [a-z0-9-]+\]")
_PLACEHOLDER_START = "[REDACTED "
_disabled: ContextVar[bool] = ContextVar("artifact_index_redaction_disabled", default=False)


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


@dataclass(frozen=True, slots=True)
class _Rule:
    label: str
    pattern: re.Pattern[str]
    group: int = 0  # the group that holds the secret; 0 for the whole match


@cache
def _vendor_rules() -> tuple[_Rule, ...]:
    """detect-secrets' patterns, each with the part of the match that is the secret.

    (Its own ``analyze_string`` yields capture groups, which for some patterns
    is only the prefix, like ``ghp``; so the spans are taken here.)  Imported
    on first use: detect-secrets pulls in ``requests``, which nothing else
    here needs.
    """
    from detect_secrets.plugins.aws import AWSKeyDetector
    from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
    from detect_secrets.plugins.discord import DiscordBotTokenDetector
    from detect_secrets.plugins.github_token import GitHubTokenDetector
    from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
    from detect_secrets.plugins.mailchimp import MailchimpDetector
    from detect_secrets.plugins.npm import NpmDetector
    from detect_secrets.plugins.openai import OpenAIDetector
    from detect_secrets.plugins.pypi_token import PypiTokenDetector
    from detect_secrets.plugins.sendgrid import SendGridDetector
    from detect_secrets.plugins.slack import SlackDetector
    from detect_secrets.plugins.square_oauth import SquareOAuthDetector
    from detect_secrets.plugins.stripe import StripeDetector
    from detect_secrets.plugins.twilio import TwilioKeyDetector

    def first(detector: type[Any]) -> re.Pattern[str]:
        pattern: re.Pattern[str] = next(iter(detector.denylist))
        return pattern

    return (
        _Rule("aws-access-key-id", first(AWSKeyDetector)),
        _Rule("aws-secret-key", list(AWSKeyDetector.denylist)[1], 1),
        _Rule("azure-storage-key", first(AzureStorageKeyDetector)),
        _Rule("discord-token", first(DiscordBotTokenDetector)),
        _Rule("github-token", first(GitHubTokenDetector)),
        *(_Rule("gitlab-token", pattern) for pattern in GitLabTokenDetector.denylist),
        _Rule("mailchimp-key", first(MailchimpDetector)),
        _Rule("npm-token", first(NpmDetector), 1),
        _Rule("openai-api-key", first(OpenAIDetector)),
        *(_Rule("pypi-token", pattern) for pattern in PypiTokenDetector.denylist),
        _Rule("sendgrid-key", first(SendGridDetector)),
        *(_Rule("slack-token", pattern) for pattern in SlackDetector.denylist),
        _Rule("square-oauth-secret", first(SquareOAuthDetector)),
        _Rule("stripe-key", first(StripeDetector)),
        *(_Rule("twilio-key", pattern) for pattern in TwilioKeyDetector.denylist),
    )


# Ours: shapes detect-secrets does not know, or knows only in part.
_OWN_RULES: tuple[_Rule, ...] = (
    _Rule("anthropic-api-key", re.compile(r"sk-ant-[A-Za-z0-9_-]{20,}")),
    _Rule("openai-api-key", re.compile(r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}")),
    _Rule(
        "github-token",
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9_]{36,}|github_pat_[A-Za-z0-9_]{22,})"),
    ),
    # detect-secrets stops after 24 characters; real keys run longer.
    _Rule("stripe-key", re.compile(r"\b[rs]k_(?:live|test)_[0-9A-Za-z]{24,}")),
    _Rule("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*")),
    _Rule("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    _Rule(
        "private-key",
        # To the END line, or, when the text was cut, to where it stops looking like a key.
        re.compile(
            r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
            r"(?:[\sA-Za-z0-9+/=:,.-]|\\[nr])*?"
            r"(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|(?=[^\sA-Za-z0-9+/=:,.\\-])|\Z)"
        ),
    ),
    _Rule("private-key", re.compile(r"PuTTY-User-Key-File-\d:[^\n]*(?:\n[^\n]+)*")),
    _Rule(
        "url-password",
        re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/?#@\[\]\"'<>]+:([^\s@/\"'<>]+)@"),
        1,
    ),
    _Rule("bearer-token", re.compile(r"\b(?:[Bb]earer|BEARER)\s+([A-Za-z0-9._~+/-]{16,}=*)"), 1),
    _Rule(
        "basic-auth",
        re.compile(r"\bAuthorization:\s*Basic\s+([A-Za-z0-9+/]{8,}=*)", re.IGNORECASE),
        1,
    ),
)

# -- secret-sounding names ------------------------------------------------------

_NAME_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_SECRET_WORDS = frozenset(
    {
        "password",
        "passwd",
        "passphrase",
        "pwd",
        "pass",
        "secret",
        "token",
        "apikey",
        "credential",
        "credentials",
        "privatekey",
        "accesskey",
        "secretkey",
        "authkey",
        "sessionkey",
        "signingkey",
        "encryptionkey",
        "passkey",
        "contrasena",
    }
)
_KEY_PAIRS = frozenset(
    {
        ("api", "key"),
        ("access", "key"),
        ("private", "key"),
        ("secret", "key"),
        ("auth", "key"),
        ("client", "secret"),
        ("session", "key"),
        ("signing", "key"),
        ("encryption", "key"),
        ("master", "key"),
        ("account", "key"),
        ("service", "key"),
    }
)
# A name with one of these parts names something about a secret, not the secret.
_NOT_THE_SECRET = frozenset(
    {
        "count",
        "counts",
        "type",
        "types",
        "length",
        "len",
        "limit",
        "limits",
        "max",
        "min",
        "url",
        "uri",
        "path",
        "file",
        "files",
        "name",
        "names",
        "id",
        "ids",
        "usage",
        "endpoint",
        "field",
        "fields",
        "header",
        "prefix",
        "env",
        "var",
        "label",
        "policy",
        "rotation",
        "required",
        "expires",
        "expiry",
        "expiration",
        "ttl",
        "hint",
        "format",
        "reset",
        "forgot",
        "confirm",
        "confirmation",
        "input",
        "placeholder",
        "tokens",
        "tokenizer",
        "budget",
        "estimate",
        "index",
        "position",
        "kind",
        "scope",
        "scopes",
        "manager",
        "store",
        "provider",
        "helper",
        "regex",
        "pattern",
        "validator",
        "cache",
        "cached",
        "output",
        "changed",
        "set",
        "is",
        "has",
        "check",
        "mode",
        "version",
        "source",
        "sources",
        "dir",
        "directory",
        "ref",
    }
)


def secret_name(name: str) -> str | None:
    """The placeholder label for a value stored under ``name``, or None when the name is harmless.

    ``DB_PASSWORD`` -> ``password``, ``apiKey`` -> ``api-key``,
    ``AWS_SECRET_ACCESS_KEY`` -> ``aws-secret-key``; ``max_tokens`` and
    ``password_field`` -> None.
    """
    parts = [part.lower() for part in _NAME_PARTS.findall(name)]
    if not parts or len(parts) > 6 or _NOT_THE_SECRET.intersection(parts) or parts == ["pwd"]:
        return None  # (PWD alone is the working directory)
    joined = {"".join(parts[i : i + 2]) for i in range(len(parts))}
    pairs = set(pairwise(parts))
    if not (
        _SECRET_WORDS.intersection(parts)
        or _SECRET_WORDS.intersection(joined)
        or _KEY_PAIRS & pairs
    ):
        return None
    if "aws" in parts and "secret" in parts:
        return "aws-secret-key"
    if {"password", "passwd", "pwd", "pass", "passphrase", "contrasena"}.intersection(parts):
        return "password"
    if "token" in parts:
        return "token"
    if "key" in parts or "apikey" in parts:
        return "api-key" if "api" in parts or "apikey" in parts else "secret-key"
    return "secret"


_NAME = r"[A-Za-z_][A-Za-z0-9_.-]{0,80}"
# .env and shell lines: NAME=value (optionally `export`), value unquoted or quoted.
_ENV_LINE = re.compile(
    r"(?m)^[ \t]*(?:export[ \t]+|set[ \t]+)?(" + _NAME + r")[ \t]*=[ \t]*"
    r"(?:\"([^\"\n]+)\"|'([^'\n]+)'|([^\s\"'`$(){}\[\];,#<>][^\s\"'`(){}\[\];,<>]*))[ \t]*(?:#.*)?\r?$"
)
# Code and config: name = "literal", name: 'literal', "name": "literal", name => "literal".
_QUOTED_ASSIGNMENT = re.compile(
    r"(" + _NAME + r")[\"'\]]{0,2}[ \t]*(?::=|=>|==|=|:)[ \t]*(?:b|r|f)?(\"|'|`)([^\s\"'`\\]{4,})\2"
)
# Inside a line: DB_PASSWORD=value in a command, a sentence, a query string (?token=value&).
# (A name may follow an escaped newline, as in a JSON-encoded file content: "X=1\\nDB_PASSWORD=...".)
_INLINE_ASSIGNMENT = re.compile(
    r"(?:(?<![\w.-])|(?<=\\[nrt]))(" + _NAME + r")=([^\s\"'`$<>(){}\[\];,&\\]{4,})"
)
_CONSTANT = re.compile(r"^[A-Z][A-Z0-9_]*$")
# Escaped inside a JSON string: \"password\": \"literal\"
_ESCAPED_ASSIGNMENT = re.compile(r"(" + _NAME + r")\\\"[ \t]*(?::|=)[ \t]*\\\"([^\s\"\\]{4,})\\\"")
_REFERENCE = re.compile(r"^(?:\$|%|<|\{\{|None$|null$|nil$|true$|false$|True$|False$|undefined$)")
_DOTTED_NAME = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")
_PLAIN_WORDS = re.compile(r"^[a-z]+(?:[-_ ][a-z]+)*$")


def _assigned_value_is_secret(value: str) -> bool:
    return not (_REFERENCE.match(value) or _DOTTED_NAME.match(value) or _PLACEHOLDER.match(value))


def _literal_is_secret(value: str) -> bool:
    """A quoted literal in code: plain words (``token="rechunk-merge"``) are names, not secrets."""
    return _assigned_value_is_secret(value) and not _PLAIN_WORDS.match(value)


# -- high entropy ---------------------------------------------------------------

_CANDIDATE = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{24,200}={0,2}(?![A-Za-z0-9+/=_-])")
_HEX = re.compile(r"^[0-9a-fA-F-]+$")
_DIGEST_PREFIX = re.compile(r"(?:sha\d+|md5|sha)[-:]$", re.IGNORECASE)
# Object ids of APIs and agents (toolu_..., msg_bdrk_..., call_00_..., gen-1746002742-...),
# SWE-bench instance ids (owner__repo-1234) and digests (sha512-...); prefixed
# secrets (sk-, ghp_, xoxb-, ...) are found by their own rules before this one.
_WORD = re.compile(r"[A-Z]?[a-z]{3,}")
_IDENTIFIER_WITH_PREFIX = re.compile(r"^(?:[a-z0-9]{1,12}[_-]){1,3}[A-Za-z0-9]{12,}$|__|^sha\d+-")


def _entropy(text: str) -> float:
    counts = Counter(text)
    size = len(text)
    return -sum(n / size * math.log2(n / size) for n in counts.values())


def _decodes_to_text(token: str) -> bool:
    """Base64 of readable text is data (test fixtures, encoded strings), not a key."""
    body = token.rstrip("=")
    try:
        raw = base64.b64decode(
            body + "=" * (-len(body) % 4),
            altchars=b"-_" if "-" in body or "_" in body else None,
            validate=True,
        )
    except (binascii.Error, ValueError):
        return False
    if len(raw) < 8:
        return False
    printable = sum(32 <= byte < 127 or byte in (9, 10, 13) for byte in raw)
    return printable / len(raw) > 0.9


def _looks_like_key(token: str, before: str) -> bool:
    if _HEX.match(token) or _DIGEST_PREFIX.search(before) or _IDENTIFIER_WITH_PREFIX.search(token):
        return False
    if token.startswith("/") or token.count("/") > 2 or ("/" in token and before.endswith(".")):
        # A path (or URL path): a key may be one of its segments, never the whole.
        return any(len(part) >= 24 and _looks_like_key(part, "") for part in token.split("/"))
    classes = sum(bool(re.search(cls, token)) for cls in ("[a-z]", "[A-Z]", "[0-9]"))
    if classes < 3:
        return False
    # Identifiers mix words with separators; keys do not.
    words = _WORD.findall(token)
    if sum(len(word) for word in words) > len(token) * 0.5:
        return False
    threshold = min(4.5, math.log2(len(token)) - 0.7)
    return _entropy(token) >= threshold and not _decodes_to_text(token)


# -- the pass ---------------------------------------------------------------------


def _spans(text: str) -> list[tuple[int, int, str]]:
    """Secret spans of ``text``, non-overlapping, first rule first."""
    taken: list[tuple[int, int, str]] = [
        (m.start(), m.end(), "") for m in _PLACEHOLDER.finditer(text)
    ]

    def add(start: int, end: int, label: str) -> None:
        if end <= start or any(start < e and s < end for s, e, _ in taken):
            return
        taken.append((start, end, label))

    for rule in (*_OWN_RULES[:4], *_vendor_rules(), *_OWN_RULES[4:]):
        for match in rule.pattern.finditer(text):
            group = rule.group if match.group(rule.group) is not None else 0
            add(match.start(group), match.end(group), rule.label)
    for match in _ENV_LINE.finditer(text):
        label = secret_name(match.group(1))
        value_group = next(g for g in (2, 3, 4) if match.group(g) is not None)
        if label and _assigned_value_is_secret(match.group(value_group)):
            add(match.start(value_group), match.end(value_group), label)
    for pattern, value_group in (
        (_QUOTED_ASSIGNMENT, 3),
        (_ESCAPED_ASSIGNMENT, 2),
        (_INLINE_ASSIGNMENT, 2),
    ):
        for match in pattern.finditer(text):
            label = secret_name(match.group(1))
            value = match.group(value_group)
            if label and _literal_is_secret(value) and not _CONSTANT.match(value):
                add(match.start(value_group), match.end(value_group), label)
    for match in _CANDIDATE.finditer(text):
        if _looks_like_key(match.group(), text[max(0, match.start() - 8) : match.start()]):
            add(match.start(), match.end(), "high-entropy-string")
    return sorted(span for span in taken if span[2])


@cache
def _quick_reject() -> re.Pattern[str]:
    """Text without any of these cannot hold a secret of any rule (most short strings)."""
    return re.compile(r"[A-Za-z0-9+/_-]{16}|=|:|-----|Bearer|BEARER|bearer|eyJ")


def redact_text(text: str) -> str:
    """``text`` with every secret replaced by ``[REDACTED <kind>]``.

    Deterministic and idempotent.  To apply an edit to content that was
    stored redacted, redact the edit's old and new text too: a secret inside
    them becomes the same placeholder.
    """
    if not text or not redaction_enabled() or not _quick_reject().search(text):
        return text
    spans = _spans(text)
    if not spans:
        return text
    pieces: list[str] = []
    position = 0
    for start, end, label in spans:
        pieces.append(text[position:start])
        pieces.append(f"[REDACTED {label}]")
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def holds_redactions(text: str) -> bool:
    """Whether ``text`` may hold a placeholder :func:`redact_text` wrote (a cheap test, no rule run)."""
    return _PLACEHOLDER_START in text


def redact_json(value: Any) -> Any:
    """A copy of a JSON-shaped value with every string redacted.

    A string stored under a secret-sounding key (``{"password": "..."}``) is
    replaced whole.  Keys are kept, so the shape of the data stays the same.
    Values that are not JSON types (numbers, booleans, None included) are
    returned as they are.
    """
    if not redaction_enabled():
        return value
    return _redact(value, None)


def _redact(value: Any, key: str | None) -> Any:
    if isinstance(value, str):
        label = secret_name(key) if key is not None else None
        if (
            label
            and value.strip()
            and _assigned_value_is_secret(value)
            and " " not in value.strip()
        ):
            return f"[REDACTED {label}]"
        return redact_text(value)
    if isinstance(value, dict):
        return {k: _redact(v, k if isinstance(k, str) else None) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redact(item, None) for item in value]
    return value
