"""Where the tests find the checkout, the hand-written fixtures and the shared corpus, wherever a test file sits."""

from __future__ import annotations

from pathlib import Path

__all__ = ["CORPUS", "FIXTURES", "ROOT"]

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
CORPUS = ROOT.parent / "shared" / "corpus"
