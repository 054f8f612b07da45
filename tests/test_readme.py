"""The README shows real output: its examples are regenerated here and compared."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from artifact_index.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_opens_with_the_two_commands() -> None:
    blocks = re.findall(r"```sh\n(.*?)\n```", README, re.S)
    assert "artifact-index files examples/" in blocks[0]
    assert "pytest" in blocks[1]
    assert README.index(blocks[1]) < README.index("---")


@pytest.mark.parametrize("command", ["files", "show"])
def test_example_output_in_the_readme_is_real(command: str, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    shown = re.search(rf"```text\n\$ artifact-index {command} (\S+)\n(.*?)```", README, re.S)
    assert shown, f"the README has no example of `{command}`"
    assert main([command, shown.group(1)]) == 0
    assert capsys.readouterr().out.strip() == shown.group(2).strip()
