"""Secrets inside paths: the secret goes, the path keeps its identity.

A path is what the trail is about, and two different files must stay two
files after redaction (the session store keys its rows by path).  So a path
is never replaced whole: only a component that holds a secret is, and its
placeholder carries a short keyed hash of what it hid,
``[REDACTED-github-token-5f2c9a01de]``, so that two paths differing only
there stay different, and the same path redacts the same way in every run.

The hash is an HMAC under a random key kept in the user's state directory
(``redaction.key``, ``0600``, made the first time a path needs it), so the
placeholder cannot be used to test a guess of the secret.  When that
directory cannot be written, a fixed key is used: paths still stay distinct
and stable, only the guess-testing protection is lost.
"""

from __future__ import annotations

import hashlib
import hmac
from functools import cache

from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["KEY_FILE", "in_path_component", "path_placeholder"]

KEY_FILE = "redaction.key"
_FALLBACK_KEY = b"artifact-index path components"
_SEPARATORS = "/\\"
# A file name's extension right after the secret: ``ghp_....txt``.
_EXTENSION = lazy_pattern(r"\.[A-Za-z][A-Za-z0-9]{0,7}(?![A-Za-z0-9])")


@cache
def _key() -> bytes:
    # Imported here: most runs redact no path, and a hook's start-up should not pay for file locks.
    from artifact_index.exceptions import StateError
    from artifact_index.state_files import private_key, user_state_directory

    try:
        return private_key(user_state_directory() / KEY_FILE)
    except (OSError, ValueError, StateError):
        return _FALLBACK_KEY


def path_placeholder(label: str, secret: str) -> str:
    """The placeholder of ``secret`` inside a path: the label and a keyed hash that keeps paths apart."""
    digest = hmac.new(_key(), secret.encode("utf-8", "surrogatepass"), hashlib.sha256)
    return f"[REDACTED-{label}-{digest.hexdigest()[:10]}]"


def in_path_component(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is (part of) one component of a path: next to a separator, or before an extension."""
    if start > 0 and text[start - 1] == "/":
        return text[start - 2 : start] != "//"  # (right after a scheme: the host, not a folder)
    if start > 0 and text[start - 1] == "\\":
        # (Unless it ends an escape: ``\\nKEY`` in a JSON string.)
        return not (start > 1 and text[start - 2] == "\\")
    if end < len(text) and text[end] in _SEPARATORS:
        # (A backslash before a quote or a letter escape ends a JSON-encoded value, not a folder.)
        return not (
            text[end] == "\\" and text[end + 1 : end + 2] in ('"', "n", "r", "t", "u", "\\")
        )
    return bool(_EXTENSION.match(text, end))
