"""CONTRIBUTING.md walks through real code: every file it names exists, every function it names is there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")

# `path/to/file.py` and `path/` references; a placeholder such as <format> is not a file.
PATHS = sorted(
    {p for p in re.findall(r"`((?:artifact_index|summarizer|tests|docs)/[^`*<>\s]*)`", GUIDE)}
)

# Names the walkthroughs tell a contributor to use or change, with where they live.
NAMES = {
    "artifact_index/ingestion/adapters/base.py": [
        "class Adapter",
        "class TurnCounter",
        "def tool_result",
    ],
    "artifact_index/ingestion/adapters/__init__.py": ["def register"],
    "artifact_index/ingestion/adapters/narrowing.py": [
        "def as_dict",
        "def as_list",
        "def as_str",
        "def as_int",
    ],
    "artifact_index/ingestion/adapters/failures.py": ["def classify_failure"],
    "artifact_index/ingestion/vocabulary.py": [
        "def operations_for",
        "TOOL_FAMILIES",
        '"format_specific"',
    ],
    "artifact_index/ingestion/source.py": ["def skip", "def document", "def records"],
    "summarizer/sections/index_keys.py": ["IndexKey = Literal["],
    "summarizer/sections/index_sections.py": ["def _renderer", "MAX_DETAIL ="],
    "summarizer/sections/summary_facts.py": ["class SessionFacts"],
    "summarizer/sections/session_facts.py": ["def session_facts"],
    "summarizer/narrative/extractive.py": ["_EXTRACTORS"],
    "tests/ingestion/adapters/conftest.py": ["def load"],
    "tests/support/summary_fixtures.py": ["UPDATE_GOLDENS"],
}


def test_the_guide_names_files() -> None:
    assert len(PATHS) > 15


@pytest.mark.parametrize("path", PATHS)
def test_every_file_the_guide_names_exists(path: str) -> None:
    if "*" in path:
        return
    assert (ROOT / path).exists(), path


@pytest.mark.parametrize("path", sorted(NAMES))
def test_every_name_the_guide_uses_is_defined_there(path: str) -> None:
    text = (ROOT / path).read_text(encoding="utf-8")
    for name in NAMES[path]:
        assert name in text, f"{name} not in {path}"
