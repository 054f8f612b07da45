"""Which command lines search file contents, read from their parse."""

from __future__ import annotations

import pytest

from artifact_index.shell.searches import runs_search


@pytest.mark.parametrize(
    "command",
    [
        "grep -rn 'def load' src",
        "cd /repo && rg -n load",
        "git grep -n load -- '*.py'",
        "sudo -u dev ag load src | head -20",
        "for d in a b; do grep -l load $d; done",
        "files=$(grep -rl load src)",
    ],
)
def test_a_search_program_run_on_its_own_is_a_search(command: str) -> None:
    assert runs_search(command)


@pytest.mark.parametrize(
    "command",
    [
        "pytest -q 2>&1 | grep FAILED",
        'echo "now grep -rn the code"',
        "cat <<'EOF' > notes.md\ngrep -rn load src\nEOF",
        "git log --grep=load",
        "pgrep -f server",
    ],
)
def test_a_filter_or_text_that_reads_like_a_search_is_none(command: str) -> None:
    assert not runs_search(command)
