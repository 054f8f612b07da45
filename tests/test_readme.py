"""The README shows real output: its examples are regenerated here and compared."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from artifact_index.presentation.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_opens_with_the_two_commands() -> None:
    blocks = re.findall(r"```sh\n(.*?)\n```", README, re.S)
    assert "artifact-index files examples/" in blocks[0]
    assert "pytest" in blocks[1]
    assert README.index(blocks[1]) < README.index("---")


EXAMPLES = re.findall(r"```text\n\$ artifact-index (\w+) (\S+)\n(.*?)```", README, re.S)


def test_the_readme_shows_files_show_and_a_submission() -> None:
    assert {(command, path) for command, path, _ in EXAMPLES} >= {
        ("files", "examples/claude-code-session.jsonl"),
        ("show", "examples/claude-code-session.jsonl"),
        ("files", "examples/mini-swe-agent.traj.json"),
    }


@pytest.mark.parametrize(
    ("command", "path", "output"), EXAMPLES, ids=[f"{c} {p}" for c, p, _ in EXAMPLES]
)
def test_example_output_in_the_readme_is_real(
    command: str,
    path: str,
    output: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    assert main([command, path]) == 0
    assert capsys.readouterr().out.strip() == output.strip()
