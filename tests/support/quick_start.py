"""The commands of the README's quick start, for its test and for ``.ci/run``.

``python -m tests.support.quick_start`` prints them, one a line: the first
installs artifact-index for the user, the others use it.
"""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def quick_start_commands(readme: str) -> list[str]:
    """Each command line of the quick start's shell blocks, comments taken off."""
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    section = section.split("\n---", 1)[0]
    commands = []
    for block in re.findall(r"```sh\n(.*?)\n```", section, re.S):
        for line in block.splitlines():
            command = re.sub(r"\s+#.*$", "", line).strip()
            if command:
                commands.append(command)
    return commands


if __name__ == "__main__":
    print("\n".join(quick_start_commands(README.read_text(encoding="utf-8"))))
