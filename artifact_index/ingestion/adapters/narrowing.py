"""Narrowing a transcript's JSON values to the type a reader expects.

A transcript is untrusted input: any field may hold anything, or nothing.
An adapter reads a field through one of these and gets the type it wants or
an empty value, never an exception, so one odd record cannot stop a read.
"""

from __future__ import annotations

from typing import Any

from artifact_index.ingestion.events import JSONObject
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["as_dict", "as_int", "as_int_or_digits", "as_list", "as_str", "string_or_none"]

_DIGITS = lazy_pattern(r"\s*-?\d+\s*")


def as_dict(value: Any) -> JSONObject:
    """An object field, or an empty one when the record holds something else there."""
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    """A list field, or no items when the record holds something else there."""
    return value if isinstance(value, list) else []


def as_str(value: Any) -> str | None:
    """A non-empty string field, or ``None``."""
    return value if isinstance(value, str) and value else None


def string_or_none(value: object) -> str | None:
    """A string field as recorded (an empty one included), or ``None``."""
    return value if isinstance(value, str) else None


def as_int(value: Any) -> int | None:
    """An integer field (a boolean is not one), or ``None``."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def as_int_or_digits(value: Any) -> int | None:
    """A number given as a number or as its digits (not a boolean), or ``None``."""
    if isinstance(value, str) and _DIGITS.fullmatch(value):
        return int(value)
    return as_int(value)
