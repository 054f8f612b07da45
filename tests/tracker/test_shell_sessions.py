"""Shell semantics through whole hand-written sessions: what the trail says a Bash call changed."""

from __future__ import annotations

from pathlib import Path

from .claude_bash import changed

WINDOWS = "C:\\Users\\dev\\source\\repos\\pruner"


def test_claude_code_bash_on_windows_is_bash_not_cmd(tmp_path: Path) -> None:
    # Claude Code's Bash tool runs Git Bash on Windows: `%` in a git format string
    # is no cmd.exe variable, `<`/`>` inside quotes no redirection, and `2>nul`
    # goes to the NUL device, while a real redirection still writes its file.
    files, unknown = changed(
        tmp_path,
        WINDOWS,
        [
            (
                "echo '== commit =='; git log -1 --format='%H%nauthor: %an <%ae>%ndate: %ad' abc1234",
                "== commit ==\nabc1234\nauthor: Dev <dev@example.com>\ndate: Mon",
            ),
            ("git branch --show-current 2>nul; ls -a > listing.txt", "main\n"),
        ],
    )
    assert files == {"listing.txt": "created"}
    assert unknown == []
