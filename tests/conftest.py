"""Shared fixtures: the real-transcript corpus and hand-written fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
CORPUS = ROOT.parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """``../shared/corpus`` next to the checkout; tests that need it skip without it."""
    if not (CORPUS / "MANIFEST.tsv").exists():
        pytest.skip(f"real-transcript corpus not found at {CORPUS}")
    return CORPUS


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    return FIXTURES
