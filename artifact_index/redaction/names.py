"""Names that hold secrets, and values that are not secrets although stored under one.

A secret is often found by where it stands rather than by its shape:
``DB_PASSWORD=...``, ``"apiKey": "..."``, ``--client-secret ...``.  This
module says which names are secret-sounding (:func:`secret_name`) and which
values under them are something else: a reference (``$DB_PASSWORD``,
``os.environ[...]``), a type (``password: string``), a variable of the code
(``password: hashedPassword``) or words of prose (``token: see below``).
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Literal

from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.redaction.randomness import is_identifier

__all__ = [
    "is_code_or_prose",
    "is_reference",
    "secret_name",
]

_NAME_PARTS = lazy_pattern(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
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
        # Environment variables read by tools that take a password that way.
        "sshpass",
        "pgpass",
        "dbpass",
    }
)
# One word of a name ending so names the secret: PGPASSWORD, csrftoken, webhooksecret.
_SECRET_ENDINGS = ("password", "passwd", "secret", "token", "apikey", "passphrase")
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
        ("license", "key"),
        ("subscription", "key"),
        ("app", "key"),
        ("consumer", "key"),
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
        # Options that say where a secret comes from, not what it is: --password-stdin.
        "stdin",
        "prompt",
        "command",
        "cmd",
        "strength",
        "hash",
        "hashed",
        "digest",
        # Measures and words about a secret: token_ratio, workerTokenDelta, attempt_pass_rate.
        "delta",
        "ratio",
        "rate",
        "rates",
        "median",
        "mean",
        "avg",
        "average",
        "geomean",
        "total",
        "sum",
        "savings",
        "percent",
        "pct",
        "msg",
        "message",
        "messages",
        "detail",
        "details",
        "error",
        "errors",
        "text",
        "description",
        "title",
        "help",
        "doc",
        "docs",
        "status",
        "result",
        "results",
        "passed",
        "failed",
        "fail",
        "timeout",
        "duration",
        "offset",
        "size",
        "bytes",
        "chars",
        "threshold",
        "state",
        "valid",
        "invalid",
        "event",
        "events",
        "handler",
        "callback",
        "listener",
        "fn",
        "func",
        "function",
        "method",
        "class",
        "remaining",
        "used",
        "balance",
        "cost",
        "price",
    }
)


def _names_a_secret(part: str) -> bool:
    return part in _SECRET_WORDS or part.endswith(_SECRET_ENDINGS)


def secret_name(name: str) -> str | None:
    """The placeholder label for a value stored under ``name``, or None when the name is harmless.

    ``DB_PASSWORD`` -> ``password``, ``apiKey`` -> ``api-key``,
    ``AWS_SECRET_ACCESS_KEY`` -> ``aws-secret-key``, ``PGPASSWORD`` ->
    ``password``; ``max_tokens`` and ``password_field`` -> None.
    """
    parts = [part.lower() for part in _NAME_PARTS.findall(name)]
    if not parts or len(parts) > 6 or _NOT_THE_SECRET.intersection(parts):
        return None
    if parts in (["pwd"], ["pass"]):
        return None  # PWD alone is the working directory; PASS alone a test's verdict
    joined = {"".join(parts[i : i + 2]) for i in range(len(parts))}
    if not (
        any(_names_a_secret(part) for part in parts)
        or _SECRET_WORDS.intersection(joined)
        or _KEY_PAIRS.intersection(pairwise(parts))
    ):
        return None
    if "aws" in parts and "secret" in parts:
        return "aws-secret-key"
    if any(
        part in {"pwd", "pass", "contrasena", "sshpass", "pgpass", "dbpass"}
        or part.endswith(("password", "passwd", "passphrase"))
        for part in parts
    ):
        return "password"
    if any(part.endswith("token") for part in parts):
        return "token"
    if "key" in parts or any(part.endswith("apikey") for part in parts):
        return "api-key" if "api" in parts or any("apikey" in p for p in parts) else "secret-key"
    return "secret"


_REFERENCE = lazy_pattern(
    r"^(?:\$|%[A-Za-z_]|<[^>]*>?$|\{\{|\[REDACTED|\*{3,}|x{4,}$|X{4,}$|\.\.\.$|…$"
    r"|(?:None|null|nil|true|false|True|False|undefined|NULL|TRUE|FALSE|yes|no|on|off)[,;]?$"
    r"|(?:os\.environ|os\.getenv|process\.env|ENV\[|env\(|getenv|System\.getenv|secrets\.|vars\.|"
    r"settings\.|config\.|self\.|this\.|request\.|req\.|args\.|options\.|opts\.|params\.))"
)
_TYPE_WORDS = frozenset(
    {
        "string",
        "str",
        "number",
        "int",
        "integer",
        "bool",
        "boolean",
        "bytes",
        "any",
        "unknown",
        "optional",
        "required",
        "secret",
        "secretstr",
        "password",
        "object",
        "text",
        "varchar",
        "char",
        "uuid",
        "list",
        "dict",
        "none",
    }
)
_DOTTED_NAME = lazy_pattern(
    r"^[A-Za-z_$][\w$]*(?:(?:\.|\?\.|::|->)[A-Za-z_$][\w$]*)+(?:\(\))?[,;]?$"
)
_CALL = lazy_pattern(r"^([A-Za-z_$][\w.$]*)\(.*\)[,;]?$")
# Code a bare value would not hold: generics, calls, arrows, indexing (z.ZodOptional<z.ZodString>).
_CODE = lazy_pattern(r"^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*(?:<|\(|\[)|=>")
_PATH = lazy_pattern(r"^(?:\.{0,2}/|~/)|^[\w.-]+/[\w./-]*\.[A-Za-z]\w{0,7}$")
_PLAIN_WORDS = lazy_pattern(r"^[a-z]+(?:[-_ .][a-z]+)*[.,;:!?]?$")
_PROSE = lazy_pattern(r"^[A-Za-z][a-z']*(?:[ ,-]+[A-Za-z][a-z']*)+[.,;:!?]?$")


def is_reference(value: str) -> bool:
    """A value that names where the secret is (``$TOKEN``, ``${{ secrets.X }}``, ``os.environ[...]``), or a mask."""
    stripped = value.strip().strip("\"'`")
    return not stripped or bool(_REFERENCE.match(stripped))


def is_code_or_prose(value: str, context: Literal["config", "literal", "code"]) -> bool:
    """A value that is code (a type, a variable, a call, a dotted name) or words, not a secret.

    ``context`` says where the value stands: ``config`` (a ``.env`` value, a
    JSON member, an option's argument: any single word is a value there, as
    in ``POSTGRES_PASSWORD: postgres``), ``literal`` (a quoted string in code:
    plain words name things, ``token="rechunk-merge"``) or ``code`` (an
    unquoted value in code or prose: a type, a variable or a call is not a
    secret either).
    """
    stripped = value.strip()
    if is_reference(stripped) or not any(char.isalnum() for char in stripped):
        return True
    if " " in stripped.strip(" ,;") and _PROSE.match(stripped):
        return True
    call = _CALL.match(stripped)
    if call and (is_identifier(call.group(1).replace(".", "_")) or "." in call.group(1)):
        return True  # get_token(), os.getenv("X"): code even where a literal belongs
    if context == "config":
        return False
    if _PLAIN_WORDS.match(stripped):
        return True
    if context == "literal":
        return False
    if stripped.lower().rstrip(",;") in _TYPE_WORDS:
        return True
    if _DOTTED_NAME.match(stripped) or _CODE.search(stripped) or _PATH.match(stripped):
        return True
    # A variable of the code: camelCase or snake_case words, no digit (hashedPassword, new_token).
    bare = stripped.rstrip(",;")
    return bool(re.fullmatch(r"[A-Za-z_$][A-Za-z_$]*", bare)) and is_identifier(bare.strip("_$"))
