"""Every command's ``--help``, as ``docs/commands.md`` embeds it.

``python -m tests.support.command_help`` rewrites the help blocks of that
page from the command line as it now is; ``tests/test_docs.py`` fails when
they differ.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

from artifact_index.presentation.cli import main

ROOT = Path(__file__).resolve().parents[2]
COMMANDS_PAGE = ROOT / "docs" / "commands.md"
# The width the page is written at: argparse wraps the help to the terminal's.
WIDTH = "100"
HELP_BLOCK = re.compile(r"```text\n\$ artifact-index (?:(\w+) )?--help\n.*?```", re.S)


def help_text(command: str | None) -> str:
    """What ``artifact-index [COMMAND] --help`` prints, at the page's width."""
    out = io.StringIO()
    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH
    try:
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            main([command, "--help"] if command else ["--help"])
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous
    return out.getvalue()


def with_current_help(page: str) -> str:
    """``page`` with every help block as the command line prints it now."""

    def block(match: re.Match[str]) -> str:
        command = match.group(1)
        shown = f"artifact-index {command} --help" if command else "artifact-index --help"
        return f"```text\n$ {shown}\n{help_text(command)}```"

    return HELP_BLOCK.sub(block, page)


if __name__ == "__main__":
    COMMANDS_PAGE.write_text(
        with_current_help(COMMANDS_PAGE.read_text(encoding="utf-8")), encoding="utf-8"
    )
