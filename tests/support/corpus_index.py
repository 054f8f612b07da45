"""What the corpus tests share: the corpus's format folders and the type of the `corpus_index` fixture."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from artifact_index.ingestion.loading import Loaded
from artifact_index.trail.index import ArtifactIndex

__all__ = ["CORPUS_FOLDERS", "CorpusIndex"]

# The `corpus_index` fixture of conftest.py: a transcript's index, built once per session.
CorpusIndex = Callable[[Path], tuple[ArtifactIndex, Loaded]]

# The corpus's folders, one per transcript format.
CORPUS_FOLDERS = (
    "aider",
    "claude_code",
    "cline",
    "codex",
    "copilot_cli",
    "entire_compact",
    "gemini_cli",
    "git_ai_note",
    "mini_swe_agent",
    "opencode",
    "openhands",
    "other",
    "swe_agent",
)
