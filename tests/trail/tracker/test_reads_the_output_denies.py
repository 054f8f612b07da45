"""A read whose output shows the file was not there, or not shown, is no read."""

from __future__ import annotations

from pathlib import Path

import pytest

from artifact_index.trail.build import build_index

from .claude_bash import transcript

ROOT = "/home/dev/app"


def _reads(tmp_path: Path, calls: list[tuple[str, str]]) -> set[str]:
    path = tmp_path / "session.jsonl"
    path.write_text(transcript(ROOT, calls), encoding="utf-8")
    index, _ = build_index(path)
    return {f.path for f in index.files() if f.status == "read"}


def test_several_files_given_to_head_are_read_only_where_it_printed_their_header(
    tmp_path: Path,
) -> None:
    # A hook rewrote the command and it failed at once: no file was shown.
    failed = "/usr/bin/read: line 4: read: `src/a.py': not a valid identifier"
    assert _reads(tmp_path, [("head -30 src/a.py src/b.py 2>&1 | head -150", failed)]) == set()
    # One header printed, the other file not there.
    shown = "==> src/a.py <==\nimport os\n"
    assert _reads(tmp_path, [("head -5 src/a.py src/b.py 2>/dev/null", shown)]) == {"src/a.py"}
    # One file: no header is printed, and the output is its text.
    assert _reads(tmp_path, [("head -5 src/a.py 2>&1", "import os\n")]) == {"src/a.py"}


@pytest.mark.parametrize(
    "complaint",
    [
        "(eval):5: no such file or directory: results/w.csv",
        "\x1b[31m[bat error]\x1b[0m: 'results/w.csv': No such file or directory (os error 2)",
        "stat: cannot read file system information for 'results/w.csv': No such file or directory",
    ],
)
def test_a_complaint_in_any_spelling_that_the_file_is_missing_undoes_its_read(
    tmp_path: Path, complaint: str
) -> None:
    assert _reads(tmp_path, [("cat results/w.csv", complaint)]) == set()


def test_a_scripts_own_report_that_a_file_is_missing_undoes_its_read(tmp_path: Path) -> None:
    script = (
        "for n in w z; do f=results/${n}.csv; "
        'if [ -f "$f" ]; then echo "$f: $(wc -l < "$f") lines"; else echo "$f: MISSING"; fi; done'
    )
    output = "results/w.csv: MISSING\nresults/z.csv: 12 lines\n"
    assert _reads(tmp_path, [(script, output)]) == {"results/z.csv"}


def test_a_silenced_read_that_claude_code_says_printed_nothing_read_nothing(tmp_path: Path) -> None:
    # A sub-agent's call keeps only the text the model saw: Claude Code's stand-in for no output.
    shown = {1: "(Bash completed with no output)"}
    path = tmp_path / "session.jsonl"
    path.write_text(
        transcript(
            ROOT, [("cat /home/dev/app/.gitignore 2>/dev/null | head -20", "")], shown=shown
        ),
        encoding="utf-8",
    )
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            ', "toolUseResult": {"stdout": "", "stderr": "", "interrupted": false}', ""
        ),
        encoding="utf-8",
    )
    index, _ = build_index(path)
    assert {f.path for f in index.files() if f.status == "read"} == set()


@pytest.mark.parametrize(
    ("command", "output", "read"),
    [
        # Killed by its timeout in the `find`: the marker before the `cat` never printed.
        (
            'find / -name x.py 2>/dev/null | grep -v Cellar\necho "--- version ---"\ncat .python-version',
            "Command timed out after 2m 0s\n/usr/lib/x.py\n",
            set(),
        ),
        # The marker printed: the `cat` ran.
        (
            'find / -name x.py 2>/dev/null\necho "--- version ---"\ncat .python-version',
            "/usr/lib/x.py\n--- version ---\n3.13\n",
            {".python-version"},
        ),
        # A filter takes the output after the marker: it may have cut the marker off.
        (
            'echo "--- version ---"; cat .python-version | tail -1',
            "3.13\n",
            {".python-version"},
        ),
        # A marker that names a variable is printed expanded.
        (
            'for f in logs/*.json; do echo "=== $f ==="; cat "$f"; done; echo "--- x ---"; cat a.json',
            "=== logs/a.json ===\n{}\n--- x ---\n{}\n",
            {"a.json"},
        ),
        # Run in the background: its output is not in the result.
        (
            'make test && echo "=== log ===" && cat build.log 2>/dev/null',
            "Command running in background with ID: b5db730. Output is being written to: /tmp/b.output",
            {"build.log"},
        ),
    ],
)
def test_a_read_after_a_marker_its_output_lacks_never_ran(
    tmp_path: Path, command: str, output: str, read: set[str]
) -> None:
    assert _reads(tmp_path, [(command, output)]) == read
