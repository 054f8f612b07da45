"""`artifact-index summary` as a user runs it: templates by name or file, compaction cut-offs, clean errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from artifact_index.presentation.cli import main
from summarizer.summary import OFFLINE_NOTE
from tests.support.summary_fixtures import SUMMARIES

CC_SESSION = str(SUMMARIES / "cc_two_compactions.jsonl")


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["summary", CC_SESSION, *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_without_a_key_the_offline_narrative_is_used(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys)
    assert (code, err) == (0, "")
    assert out.startswith(
        f"# Session summary\n\n{OFFLINE_NOTE}\n\n## Session Intent\n"
        "- The user asked (turn 1): Add a `tags` field"
    )


def test_until_compaction_summarizes_only_what_came_before(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, first, _ = _run(capsys, "--until-compaction", "1")
    _, second, _ = _run(capsys, "--until-compaction", "2")
    assert "## Files Read\n- `notes/cli.py`\n" in first  # only read before the first compaction
    assert "Now show the tags in the CLI listing." not in first
    assert "- `notes/cli.py` (modified): `list_notes` modified" in second
    # Created, then removed: gone, not put back.
    assert (
        "- `scratch.py`: created (turn 8), deleted (turn 9, by `rm scratch.py`); it does not exist now"
        in second
    )


def test_a_boundary_the_transcript_does_not_have_is_one_sentence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = _run(capsys, "--until-compaction", "3")
    assert (code, out) == (1, "")
    assert err == "artifact-index: error: the transcript has 2 compaction boundaries, not 3\n"


def test_a_user_template_file_is_used(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--template", str(SUMMARIES / "handoff.toml"))
    assert code == 0
    assert [line for line in out.splitlines() if line.startswith("## ")] == [
        "## Goal",
        "## Files and Code",
        "## Open Problems",
        "## Tests",
        "## Risks",
        "## What Next",
    ]


def test_a_malformed_template_is_one_sentence(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text(
        'name = "b"\n[[sections]]\ntitle = "X"\nfill = "index"\nkey = "nope"\n', encoding="utf-8"
    )
    code, out, err = _run(capsys, "--template", str(broken))
    assert (code, out) == (1, "")
    assert err.startswith(
        f"artifact-index: error: {broken} is not a valid template: section 1 ('X'): "
        "index section key 'nope' is not one of"
    )
    assert err.count("\n") == 1


def test_claude_code_template_wraps_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--template", "claude-code")
    assert code == 0
    assert (
        out.startswith("<analysis>\n")
        and f"\n<summary>\n{OFFLINE_NOTE}\n### Primary Request\n" in out
    )
    assert "- `scratch.py`: created (turn 8), deleted (turn 9, by `rm scratch.py`)" in out
