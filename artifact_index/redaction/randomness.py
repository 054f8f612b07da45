"""Tokens that look random: keys nobody named, and the identifiers that only look like keys.

A key of an unknown vendor has no prefix to find it by, only its shape: long,
drawn from letters and digits, with no words in it.  :func:`looks_random`
tests that shape with a threshold on the character entropy that almost no
random token falls under (about one in ten thousand; the thresholds follow
the measured spread of random tokens of each length), so an unnamed key of
any length is found, not only the high-entropy ones.

Some identifiers have that shape and are no secret; :func:`is_known_identifier`
lets them through wherever text leaves the engine: git hashes and other hex
(a secret in hex is found by what names it, not by shape), UUIDs, ULIDs and
KSUIDs (by their embedded time), digests of lock files (``sha512-...``,
go.sum's ``h1:...``), and the ids agents and model APIs give their objects
(``toolu_...``, ``call_...``, OpenCode's ``ses_``/``msg_``/``prt_``, ...).
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections import Counter

from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["decoded_text", "is_identifier", "is_known_identifier", "looks_random"]

_HEX = lazy_pattern(r"^[0-9a-fA-F-]+$")
# Object ids of model APIs and agents: the prefix says what it names.
_ID_PREFIX = lazy_pattern(
    r"^(?:toolu(?:_vrtx|_bdrk)?|srvtoolu|tooluse|msg(?:_vrtx|_bdrk)?|req|call(?:_\d+)?|fc|resp|rs"
    r"|ses|prt|per|chatcmpl(?:-tool)?|cmpl|gen-\d+|run|thread|asst|file|batch|step|vs|ftjob|evt"
    r"|org|proj|user|conv|item|compact|msgbatch|ci|cs|cus|pi|pm|seti|sub|price|prod|acct|txn|ch"
    r"|in|src|tok|dpl|prj|team|evt|ws|snap|task|job|agent|session|chunk|tool|function-call"
    r"|toolcall|tc|exec|T)[_-]"
    # GitHub's global node ids: a type, then _kw and base64 (PR_kwDO..., I_kwDO...).
    r"|^[A-Z]{1,5}_kw[A-Za-z0-9_-]{6,}$"
    # SWE-bench instances and their images: owner__repo-1234, repo_1776_repo-1234.
    r"|^[\w.-]+(?:__|_1776_)[\w.-]+-\d+$"
)
# Digests by their label: integrity sha512-..., go.sum h1:..., sha256:...
_DIGEST_BEFORE = lazy_pattern(
    r"(?:\b(?:sha\d*|md5|h1|blake2b?|xxh\d*|crc32)[-:=]|\bbase64,|integrity[\"']?\s*[:=]\s*[\"']?)$",
    re.IGNORECASE,
)
_DIGEST_TOKEN = lazy_pattern(r"^(?:sha\d+|md5|h1)[-_]", re.IGNORECASE)
# What follows an id that is public although random: a Google OAuth client id.
_ID_AFTER = lazy_pattern(r"\.apps\.googleusercontent\.com")
_ULID = lazy_pattern(r"^0[0-9A-HJKMNP-TV-Z]{25}$")
_BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_KSUID_EPOCH = 1_400_000_000
# KSUIDs minted from 2019 to 2031: a random 27-character token passes one time in twelve.
_KSUID_TIMES = (1_546_300_800, 1_924_992_000)
# The pieces of an identifier (camelCase, snake_case, digits) and the letter pairs of English
# words: an identifier is made of few pieces that read as words, a key of many that do not.
_PIECE = lazy_pattern(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_COMMON_PAIRS = frozenset(
    [
        "th",
        "he",
        "in",
        "er",
        "an",
        "re",
        "on",
        "at",
        "en",
        "nd",
        "ti",
        "es",
        "or",
        "te",
        "of",
        "ed",
        "is",
        "it",
        "al",
        "ar",
        "st",
        "to",
        "nt",
        "ng",
        "se",
        "ha",
        "as",
        "ou",
        "io",
        "le",
        "ve",
        "co",
        "me",
        "de",
        "hi",
        "ri",
        "ro",
        "ic",
        "ne",
        "ea",
        "ra",
        "ce",
        "li",
        "ch",
        "ll",
        "be",
        "ma",
        "si",
        "om",
        "ur",
        "ca",
        "el",
        "ta",
        "la",
        "ns",
        "di",
        "fo",
        "ho",
        "pe",
        "ec",
        "pr",
        "no",
        "ct",
        "us",
        "ac",
        "ot",
        "il",
        "tr",
        "ly",
        "nc",
        "et",
        "ut",
        "ss",
        "so",
        "rs",
        "un",
        "lo",
        "wa",
        "ge",
        "ie",
        "wh",
        "ee",
        "wi",
        "em",
        "ad",
        "ol",
        "rt",
        "po",
        "we",
        "na",
        "ul",
        "ni",
        "ts",
        "mo",
        "ow",
        "pa",
        "im",
        "mi",
        "ai",
        "sh",
        "ir",
        "su",
        "id",
        "os",
        "iv",
        "ia",
        "am",
        "fi",
        "ci",
        "vi",
        "pl",
        "ig",
        "tu",
        "ev",
        "ld",
        "ry",
        "mp",
        "fe",
        "bl",
        "ab",
        "gh",
        "ty",
        "op",
        "wo",
        "sa",
        "ay",
        "ex",
        "ke",
        "fr",
        "oo",
        "av",
        "ag",
        "if",
        "ap",
        "gr",
        "od",
        "bo",
        "sp",
        "rd",
        "do",
        "uc",
        "bu",
        "ei",
        "ov",
        "by",
        "rm",
        "ep",
        "tt",
        "oc",
        "fa",
        "ef",
        "cu",
        "rn",
        "sc",
        "gi",
        "da",
        "yo",
        "cr",
        "cl",
        "du",
        "ga",
        "qu",
        "ue",
        "ff",
        "ba",
        "ey",
        "ls",
        "va",
        "um",
        "pp",
        "ua",
        "up",
        "lu",
        "go",
        "ht",
        "ru",
        "ug",
        "ds",
        "lt",
        "pi",
        "rc",
        "rr",
        "eg",
        "au",
        "ck",
        "ew",
        "mu",
        "br",
        "bi",
        "pt",
        "ak",
        "pu",
        "ui",
        "rg",
        "ib",
        "tl",
        "ny",
        "ki",
        "rk",
        "ys",
        "ob",
        "mm",
        "fu",
        "ph",
        "og",
        "ms",
        "ye",
        "ud",
        "mb",
        "ip",
        "ub",
        "oi",
        "rl",
        "gu",
        "dr",
        "hr",
        "cc",
        "tw",
        "ft",
        "wn",
        "nu",
        "af",
        "hu",
        "nn",
        "eo",
        "vo",
        "rv",
        "nf",
        "xp",
        "gn",
        "sm",
        "fl",
        "iz",
        "ok",
        "nl",
        "my",
        "gl",
        "aw",
        "ju",
        "oa",
        "eq",
        "sy",
        "sl",
        "ps",
        "jo",
        "lf",
        "nv",
        "je",
        "nk",
        "kn",
        "gs",
        "dy",
        "hy",
        "ze",
        "ks",
        "xt",
    ]
)
# Past this length a run of base64 is data (an image, a bundle), not a credential.
_LONGEST_KEY = 4096


def _is_ksuid(token: str) -> bool:
    if len(token) != 27 or not token.isalnum():
        return False
    number = 0
    for char in token:
        number = number * 62 + _BASE62.index(char)
    if number >= 1 << 160:
        return False
    return _KSUID_TIMES[0] <= (number >> 128) + _KSUID_EPOCH <= _KSUID_TIMES[1]


def is_known_identifier(token: str, before: str = "", after: str = "") -> bool:
    """Whether ``token`` (between the texts ``before`` and ``after`` it) is an id, a hash or a digest rather than a key."""
    if _HEX.match(token) or _DIGEST_TOKEN.match(token) or _DIGEST_BEFORE.search(before):
        return True
    if _ID_AFTER.match(after):
        return True
    if _ID_PREFIX.match(token):
        return True
    return bool(_ULID.match(token)) or _is_ksuid(token)


def _entropy(text: str) -> float:
    size = len(text)
    return -sum(n / size * math.log2(n / size) for n in Counter(text).values())


def _reads_as_word(piece: str) -> bool:
    word = piece.lower()
    if len(word) < 3 or not word.isalpha():
        return False
    pairs = [word[i : i + 2] for i in range(len(word) - 1)]
    return sum(pair in _COMMON_PAIRS for pair in pairs) >= 0.75 * len(pairs)


# camelCase and PascalCase: every capital starts a lowercase run (or an acronym), every run has a vowel.
_CAMEL_CASE = lazy_pattern(
    r"^(?:[a-z]{2,}|[A-Z][a-z]{2,}|[A-Z]{2,}(?=[A-Z][a-z]))(?:[A-Z][a-z]{2,}|[A-Z]{2,}(?=[A-Z][a-z]|\d|$)|\d{1,4})+$"
)
_VOWEL_RUNS = lazy_pattern(r"[a-z]+")


def is_identifier(body: str) -> bool:
    """Few pieces, most of them words: ``getUserAccountSettings``, ``test_reset_password_2``."""
    if _CAMEL_CASE.match(body) and all(
        any(vowel in run for vowel in "aeiouy") for run in _VOWEL_RUNS.findall(body)
    ):
        return True
    pieces = _PIECE.findall(body)
    if len(pieces) > len(body) / 3.2:
        return False
    return sum(len(piece) for piece in pieces if _reads_as_word(piece)) >= len(body) * 0.5


_SEPARATOR = lazy_pattern(r"[-_.]+")
_DIGITS = lazy_pattern(r"\d")
_SHORT_MIXED = lazy_pattern(r"^(?:[A-Za-z]{1,8}\d+|\d+[A-Za-z]{1,8})$")


def _benign_segment(segment: str) -> bool:
    return (
        len(segment) <= 3
        or segment.isdigit()
        or (segment.isalpha() and (segment.islower() or segment.isupper()))
        or bool(_HEX.match(segment))
        or bool(_SHORT_MIXED.match(segment))
        or _reads_as_word(segment)
        or is_identifier(segment)
    )


def _separated_identifier(body: str) -> bool:
    """Words, numbers and hashes joined by - or _: ``2026-01-13-test-session-1``, ``pg-587764f78a6c``."""
    segments = [segment for segment in _SEPARATOR.split(body) if segment]
    if len(segments) < 2:
        return False
    benign = sum(len(segment) for segment in segments if _benign_segment(segment))
    return benign >= 0.6 * sum(len(segment) for segment in segments)


def looks_random(token: str) -> bool:
    """A token of 20 or more characters drawn at random from letters and digits (a key), not a name or data."""
    body = token.rstrip("=")
    size = len(body)
    if size < 20 or size > _LONGEST_KEY:
        return False
    lower = body != body.upper()
    upper = body != body.lower()
    digits = len(_DIGITS.findall(body))
    if lower and upper:
        alphabet, threshold = 62 if digits else 52, 3.5 + 1.07 * math.log(size / 24)
    elif (lower or upper) and digits and digits <= size * 0.6:
        alphabet, threshold = 36, 3.25 + 0.9 * math.log(size / 24)
    else:
        return False
    # Long random tokens come close to the most entropy their alphabet allows.
    threshold = min(threshold, math.log2(alphabet) - 0.35)
    if _entropy(body) < threshold:
        return False
    return not (is_identifier(body) or _separated_identifier(body))


def decoded_text(token: str) -> str | None:
    """The text ``token`` encodes in base64, or None when it is not base64 of readable text."""
    body = token.rstrip("=")
    if len(body) < 12:
        return None
    try:
        raw = base64.b64decode(
            body + "=" * (-len(body) % 4),
            altchars=b"-_" if "-" in body or "_" in body else None,
            validate=True,
        )
    except (binascii.Error, ValueError):
        return None
    if len(raw) < 8:
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    printable = sum(ch.isprintable() or ch in "\t\n\r" for ch in text)
    return text if printable / len(text) > 0.9 else None
