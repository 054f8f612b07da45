"""Every real transcript in ../shared/corpus is read, and the file trail matches the harness's truth.

The truth (``truth.jsonl``) comes from records a tracker does not parse: the
final ``git diff`` the harness submitted (``net``) or the harness's own
report of applied edits (``tool``); see ../shared/eval/README.md.  These
tests are the in-process twin of ``score.py``, as a regression guard.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from artifact_index.trail.index import ArtifactIndex
from tests.support.corpus_index import CORPUS_FOLDERS, CorpusIndex
from tests.support.paths import CORPUS

FOLDERS = CORPUS_FOLDERS
CHANGED = {"created", "modified", "deleted"}

# F1 each format must keep on the corpus (>= 0.99; lower floors only for shell-heavy formats).
F1_FLOOR = {
    "claude_code": 0.99,
    "codex": 0.99,
    "opencode": 0.99,
    "openhands": 0.99,
    "swe_agent": 0.95,
    "mini_swe_agent": 0.90,
}


def corpus_files() -> list[Path]:
    if not CORPUS.exists():
        return []
    return sorted(p for folder in FOLDERS for p in (CORPUS / folder).glob("*") if p.is_file())


def located(fmt: str, name: str) -> Path:
    """The corpus file of a truth row (the corpus stores it gzipped)."""
    plain = CORPUS / fmt / name
    return plain if plain.exists() else plain.with_name(name + ".gz")


def indexed(corpus_index: CorpusIndex, path: Path) -> tuple[ArtifactIndex, int]:
    index, loaded = corpus_index(path)
    return index, len(loaded.skipped)


def _norm(path: str, roots: list[str | None]) -> str:
    p = path.replace("\\", "/")
    for root in roots:
        if root:
            r = root.replace("\\", "/").rstrip("/")
            if p.lower().startswith(r.lower() + "/"):
                p = p[len(r) + 1 :]
                break
    while p.startswith("./"):
        p = p[2:]
    return p


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_transcript_is_read(path: Path, corpus_dir: Path, corpus_index: CorpusIndex) -> None:
    index, skipped = indexed(corpus_index, path)
    assert index.format is not None
    assert skipped == 0, f"{skipped} part(s) of a real transcript could not be used"


def _truth() -> list[dict[str, object]]:
    truth = CORPUS / "truth.jsonl"
    return [json.loads(line) for line in truth.read_text().splitlines()] if truth.exists() else []


@pytest.mark.parametrize(
    "row", [r for r in _truth() if r["changed"]], ids=lambda r: f"{r['format']}/{r['file']}"
)
def test_a_transcript_with_file_changes_has_a_non_empty_trail(
    row: dict[str, object], corpus_dir: Path, corpus_index: CorpusIndex
) -> None:
    index, _ = indexed(corpus_index, located(str(row["format"]), str(row["file"])))
    assert any(f.status in CHANGED | {"reverted"} for f in index.files())


def test_file_trail_f1_per_format(corpus_dir: Path, corpus_index: CorpusIndex) -> None:
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row in _truth():
        fmt = str(row["format"])
        index, _ = indexed(corpus_index, located(fmt, str(row["file"])))
        roots = [row.get("root"), index.root]  # type: ignore[list-item]
        truth = {_norm(p, roots) for p in row["changed"]}  # type: ignore[attr-defined]
        # What `files` shows: a submission's leftovers (scratch scripts, patch.txt) are listed apart.
        files = {_norm(f.path, roots): f for f in index.files() if f.submitted is not False}
        if row["kind"] == "net":
            got = {p for p, f in files.items() if f.status in CHANGED}
            fp = got - truth
        else:
            got = {p for p, f in files.items() if f.status in CHANGED | {"reverted"}}
            fp = {p for p in got - truth if "shell" not in files[p].sources}
        c = counts[fmt]
        c["tp"] += len(got & truth)
        c["fp"] += len(fp)
        c["fn"] += len(truth - got)
    low = {}
    for fmt, c in counts.items():
        precision = c["tp"] / (c["tp"] + c["fp"]) if c["tp"] + c["fp"] else 1.0
        recall = c["tp"] / (c["tp"] + c["fn"]) if c["tp"] + c["fn"] else 1.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        if f1 < F1_FLOOR.get(fmt, 0.0):
            low[fmt] = round(f1, 3)
    assert low == {}


def test_every_mini_swe_agent_run_says_what_it_submitted(
    corpus_dir: Path, corpus_index: CorpusIndex
) -> None:
    """Both submit styles (`git add -A && git diff --cached`, `cat patch.txt`) and the run that crashed."""
    runs = sorted((CORPUS / "mini_swe_agent").glob("*"))
    assert runs
    for path in runs:
        index, _ = indexed(corpus_index, path)
        record = index.submission()
        assert record is not None and record.files is not None, (path.name, record)
        assert (record.command is None) == (record.exit_status != "Submitted"), path.name
