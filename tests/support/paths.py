"""Where the tests find the checkout, the hand-written fixtures and the shared corpus, wherever a test file sits.

The corpus of real transcripts is not part of the repository: its tests run
where ``ARTIFACT_INDEX_CORPUS`` names a copy (a folder holding
``MANIFEST.tsv``), else where one sits at ``../shared/corpus`` next to the
checkout, and skip, saying so, everywhere else.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["CORPUS", "CORPUS_MISSING", "FIXTURES", "ROOT"]

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
CORPUS = Path(os.environ.get("ARTIFACT_INDEX_CORPUS") or ROOT.parent / "shared" / "corpus")
# Why the corpus tests skip, and how to run them.
CORPUS_MISSING = (
    f"needs the corpus of real transcripts, which is not part of the repository: no MANIFEST.tsv "
    f"in {CORPUS} (set ARTIFACT_INDEX_CORPUS to a copy of it to run these tests)"
)
