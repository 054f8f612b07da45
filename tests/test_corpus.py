"""Every real transcript in ../shared/corpus is read, and the file trail matches the harness's truth.

The truth (``truth.jsonl``) comes from records a tracker does not parse: the
final ``git diff`` the harness submitted (``net``) or the harness's own
report of applied edits (``tool``); see ../shared/eval/README.md.  These
tests are the in-process twin of ``score.py``, as a regression guard.
"""

from __future__ import annotations

import gzip
import json
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import pytest

from artifact_index.index import ArtifactIndex
from artifact_index.loading import Loaded

CorpusIndex = Callable[[Path], tuple[ArtifactIndex, Loaded]]  # the `corpus_index` fixture of conftest.py

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"

FOLDERS = ["aider", "claude_code", "cline", "codex", "copilot_cli", "entire_compact", "gemini_cli", "git_ai_note",
           "mini_swe_agent", "opencode", "openhands", "other", "swe_agent"]
CHANGED = {"created", "modified", "deleted"}

# F1 each format must keep on the corpus (issue 2: >= 0.99; shell-heavy formats: issue 3).
F1_FLOOR = {"claude_code": 0.99, "codex": 0.99, "opencode": 0.99, "openhands": 0.99,
            "swe_agent": 0.95, "mini_swe_agent": 0.90}


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
                p = p[len(r) + 1:]
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


@pytest.mark.parametrize("row", [r for r in _truth() if r["changed"]], ids=lambda r: f"{r['format']}/{r['file']}")
def test_a_transcript_with_file_changes_has_a_non_empty_trail(
    row: dict[str, object], corpus_dir: Path, corpus_index: CorpusIndex
) -> None:
    index, _ = indexed(corpus_index, located(str(row["format"]), str(row["file"])))
    assert any(f.status in CHANGED | {"reverted"} for f in index.files())


def _submits_a_hand_picked_patch(path: Path) -> bool:
    """mini-swe-agent runs that submit `cat patch.txt` (a diff of files the agent chose), not the worktree.

    Their truth leaves out scratch files that really exist at the end, so a
    correct trail cannot match it; those runs are reported, not scored here.
    """
    raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    doc = json.loads(raw)
    commands = [json.dumps(m.get("content")) + json.dumps(m.get("tool_calls")) for m in doc.get("messages", [])
                if m.get("role") == "assistant"]
    final = next((c for c in reversed(commands) if "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" in c), "")
    return "git add -A" not in final


def test_file_trail_f1_per_format(corpus_dir: Path, corpus_index: CorpusIndex) -> None:
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row in _truth():
        fmt = str(row["format"])
        if fmt == "mini_swe_agent" and _submits_a_hand_picked_patch(located(fmt, str(row["file"]))):
            continue
        index, _ = indexed(corpus_index, located(fmt, str(row["file"])))
        roots = [row.get("root"), index.root]  # type: ignore[list-item]
        truth = {_norm(p, roots) for p in row["changed"]}  # type: ignore[attr-defined]
        files = {_norm(f.path, roots): f for f in index.files()}
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
