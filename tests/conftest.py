"""Shared fixtures: the real-transcript corpus and hand-written fixtures."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from artifact_index.ingestion.loading import Loaded
from artifact_index.trail.build import build_index
from artifact_index.trail.collection import thaw_process
from artifact_index.trail.index import ArtifactIndex

ROOT = Path(__file__).resolve().parent.parent
# pytest puts tests/ on sys.path, where tests/summarizer/ (no __init__.py)
# would shadow the real package as a namespace package under a bare
# `pytest` run; the checkout comes first, as under `python -m pytest`.
if str(ROOT) not in sys.path[:1]:
    sys.path.insert(0, str(ROOT))
FIXTURES = Path(__file__).resolve().parent / "fixtures"

from tests.support.corpus_index import CorpusIndex  # noqa: E402  (needs the checkout on sys.path)
from tests.support.paths import CORPUS, CORPUS_MISSING  # noqa: E402


@pytest.fixture(autouse=True)
def _collector_given_back() -> Iterator[None]:
    """A test that runs a command as the process's own (``main()`` without arguments) leaves what the
    command imported frozen, as that process would; the next test gets the collector as it was."""
    frozen_before = gc.get_freeze_count()
    yield
    if frozen_before == 0:
        thaw_process()


@pytest.fixture(autouse=True, scope="session")
def _private_state_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """`compact` without --state-dir keeps its summary key in the user's state directory, and the hooks write
    to the user's session store: temporary ones here.  A key or endpoint of the developer's environment would
    turn the offline narrative into an LLM call: tests that want one set it themselves."""
    with pytest.MonkeyPatch.context() as patch:
        for name in (
            "ANTHROPIC_API_KEY",
            "ANTHROPIC_BASE_URL",
            "OPENAI_API_KEY",
            "OPENAI_BASE_URL",
        ):
            patch.delenv(name, raising=False)
        patch.setenv("ARTIFACT_INDEX_STATE_HOME", str(tmp_path_factory.mktemp("state-home")))
        patch.setenv("ARTIFACT_INDEX_STORE", str(tmp_path_factory.mktemp("store") / "sessions.db"))
        # A hook answers what it read within its deadline: on a loaded machine, a test of what it
        # answers would see less. The tests of the deadline set their own.
        patch.setenv("ARTIFACT_INDEX_HOOK_SECONDS", "600")
        yield


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The corpus of real transcripts (see tests/support/paths.py); tests that need it skip without it."""
    if not (CORPUS / "MANIFEST.tsv").exists():
        pytest.skip(CORPUS_MISSING)
    return CORPUS


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    return FIXTURES


@cache
def _built(path: Path) -> tuple[ArtifactIndex, Loaded]:
    return build_index(path)


@pytest.fixture(scope="session")
def corpus_index() -> CorpusIndex:
    """The index of a corpus transcript, built once per test session and shared by every test.

    Building all of them is most of the corpus tests' time; callers must only
    query the index, never feed it.
    """
    return _built


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Where the corpus is missing, a test parametrized over its transcripts has no case, and pytest
    would only say "got empty parameter set": say instead what is missing and how to provide it."""
    if (CORPUS / "MANIFEST.tsv").exists():
        return
    for item in items:
        reasons = [str(mark.kwargs.get("reason", "")) for mark in item.iter_markers("skip")]
        if any(reason.startswith("got empty parameter set") for reason in reasons):
            item.add_marker(pytest.mark.skip(reason=CORPUS_MISSING), append=False)
