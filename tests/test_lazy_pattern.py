"""Module-level patterns compiled on first use behave as compiled ones."""

from __future__ import annotations

import pickle
import re

import pytest

from artifact_index.lazy_pattern import lazy_pattern


def test_is_not_compiled_until_used() -> None:
    pattern = lazy_pattern(r"(unclosed")  # compiling it now would raise
    assert pattern.pattern == "(unclosed"  # its source is read without compiling it
    with pytest.raises(re.error):
        pattern.search("unclosed")


def test_answers_as_the_compiled_pattern() -> None:
    source, flags = r"(?P<word>[a-z]+)-(\d+)", re.IGNORECASE
    lazy, compiled = lazy_pattern(source, flags), re.compile(source, flags)
    text = "Alpha-1 beta-22 gamma"
    assert lazy.search(text).groupdict() == compiled.search(text).groupdict()  # type: ignore[union-attr]
    assert lazy.findall(text) == compiled.findall(text)
    assert lazy.sub(r"\2", text) == compiled.sub(r"\2", text)
    assert lazy.split(text) == compiled.split(text)
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    assert lazy.fullmatch("x-1") is not None and lazy.match("1-x") is None
    assert (lazy.pattern, lazy.flags, lazy.groups, lazy.groupindex) == (
        compiled.pattern,
        compiled.flags,
        compiled.groups,
        compiled.groupindex,
    )


def test_bytes_patterns_and_composition() -> None:
    word = lazy_pattern(rb"[a-z]+")
    assert word.findall(b"ab 12 cd") == [b"ab", b"cd"]
    assert re.compile(lazy_pattern(r"\d+").pattern + "x").fullmatch("12x")


def test_survives_pickling() -> None:
    pattern = lazy_pattern(r"\d+")
    pattern.search("1")
    assert pickle.loads(pickle.dumps(pattern)).findall("a1b22") == ["1", "22"]
