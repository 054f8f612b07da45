"""benchmarks/claim_audit.py on a hand-written Claude Code session: statements, evidence, flags, verdicts."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from tests.support.paths import ROOT as REPO
from tests.support.transcript_writers import ROOT, Step, claude_code

SCRIPT = REPO / "benchmarks" / "claim_audit.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("claim_audit", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


audit = _load()

SESSION = [
    Step("user", text="Round the cart total."),
    Step("read", path=f"{ROOT}/cart.py", content="def total(xs):\n    return sum(xs)\n"),
    Step("edit", path=f"{ROOT}/cart.py", old="return sum(xs)", new="return round(sum(xs), 2)"),
    Step("write", path=f"{ROOT}/NOTES.md", content="# Rounding\n\nTotals are rounded.\n"),
    Step("shell", command="gt submit", output="ERROR: not authenticated\n", exit_code=1),
    Step("shell", command="gh pr create --fill", output="https://github.com/shop/cart/pull/7\n"),
]


def _transcript(tmp_path: Path) -> Path:
    path = tmp_path / "session.jsonl"
    path.write_text(claude_code(SESSION), encoding="utf-8")
    return path


def test_every_statement_of_the_hook_is_listed_with_its_kind_and_evidence(tmp_path: Path) -> None:
    point = audit.audit(_transcript(tmp_path), 0, tmp_path)

    by_kind = {
        (audit.claim_kind(s), s.text.split("`")[1]) for s in point.statements if "`" in s.text
    }
    assert ("file_changed", "cart.py") in by_kind and ("file_changed", "NOTES.md") in by_kind
    [modified] = [s for s in point.statements if s.section == "Files modified"]
    assert any(
        e.startswith("file_status: modified [seen] edit, success (lines ")
        for e in modified.evidence
    )
    [error] = [s for s in point.statements if s.section == "Errors" and "gt submit" in s.text]
    assert "a later command succeeded: `gh pr create --fill`" in error.text
    assert not [s for s in point.statements if s.flags]


def test_a_cut_keeps_only_the_lines_before_it(tmp_path: Path) -> None:
    path = _transcript(tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines()
    # Cut just after the edit's result: the note is not written yet, no error seen.
    cut = next(n for n, line in enumerate(lines, start=1) if "NOTES.md" in line)
    point = audit.audit(path, cut, tmp_path)

    texts = " ".join(s.text for s in point.statements)
    assert "cart.py" in texts and "NOTES.md" not in texts and "gt submit" not in texts


def test_a_quote_that_is_not_in_the_transcript_is_flagged() -> None:
    statement = audit.Statement("Files modified", "- `a.py`: changed lines: `x = 1 → x = 2`")
    audit._check([statement], "## Files modified\n", "x = 1 and later y = 2", [], _NoFiles())

    assert statement.flags == ["quote: `x = 1 → x = 2` is not in the transcript"]


def test_the_command_after_a_files_headings_is_not_taken_for_a_heading() -> None:
    statement = audit.Statement(
        "Files created", "- `docs/a.md`: headings: `Install`; via `mv /tmp/a.md docs/a.md`"
    )
    text = audit._decoded(
        [
            '{"type": "write", "content": "# Install\\n\\nRun it."}\n',
            '{"type": "shell", "cmd": "mv /tmp/a.md docs/a.md"}\n',
        ]
    )
    audit._check([statement], "## Files created\n", text, [], _NoFiles())

    assert statement.flags == []


def test_a_heading_cut_short_is_found_by_its_start() -> None:
    statement = audit.Statement(
        "Files modified", "- `DECISIONS.md`: headings: `5. The server is no longer read-only. Wri…`"
    )
    text = audit._decoded(
        [
            '{"type": "write", "content": "## 5. The server is no longer read-only. Writes are ok.\\n"}\n'
        ]
    )
    audit._check([statement], "## Files modified\n", text, [], _NoFiles())

    assert statement.flags == []


def test_a_heading_a_patch_added_is_a_heading() -> None:
    text = audit._decoded(['{"type": "patch", "diff": "+# Drain\\n+\\n+## Scope\\n"}\n'])
    assert {"Drain", "Scope"} <= audit._headings_outside_fences(text)


def test_a_fence_one_string_leaves_open_does_not_hide_the_next_strings_headings() -> None:
    # A tool output cut inside a code block, then a file written with a heading.
    text = audit._decoded(
        [
            '{"type": "result", "output": "```python\\nprint(1)"}\n',
            '{"type": "write", "content": "# Install\\n\\nRun it."}\n',
        ]
    )

    assert "Install" in audit._headings_outside_fences(text)


def test_strings_of_a_json_document_cut_short_and_of_json_arguments_are_read_unescaped() -> None:
    # A pretty-printed export cut at a line no longer parses; a call's arguments kept as a JSON
    # string hold the command: in both, the transcript shows the quoted line as written.
    patch = '-  scopes: ["openid", "email"],\n+  scopes: ["openid", "email", "api"],'
    cut_document = ["{\n", f"  {json.dumps('patch')}: {json.dumps(patch)},\n"]
    command = 'cat > a.json <<EOF\n{\n  "keys": [],\n}\nEOF'
    arguments = [json.dumps({"arguments": json.dumps({"cmd": command})}) + "\n"]
    for lines, quoted in ((cut_document, '"openid", "email"],'), (arguments, '"keys": [],')):
        statement = audit.Statement("Files modified", f"- `a.json`: first lines: `{quoted}`")
        audit._check([statement], "## Files modified\n", audit._decoded(lines), [], _NoFiles())
        assert statement.flags == []


class _NoFiles:
    def files(self) -> list[object]:
        return []


def test_verdicts_give_the_truth_rate_by_kind_and_list_the_false_ones(tmp_path: Path) -> None:
    point = audit.audit(_transcript(tmp_path), 0, tmp_path)
    changed = [s for s in point.statements if audit.claim_kind(s) == "file_changed"]
    verdicts = tmp_path / "judgements.jsonl"
    verdicts.write_text(
        "".join(
            json.dumps(
                {
                    "transcript": "session.jsonl",
                    "cut": 0,
                    "section": s.section,
                    "text": s.text,
                    "verdict": "false" if i == 0 else "true",
                    "why": "made up for the test" if i == 0 else "",
                }
            )
            + "\n"
            for i, s in enumerate(changed)
        ),
        encoding="utf-8",
    )

    kinds, false, unjudged = audit.tally([point], audit.load_judgements(verdicts))

    assert (kinds["file_changed"].judged, kinds["file_changed"].false) == (len(changed), 1)
    assert [s.text for _, s, _ in false] == [changed[0].text]
    assert len(unjudged) == len(point.statements) - len(changed)
    assert "| file_changed | 2 | 2 | 1 | 50.0% |" in audit.table(kinds)


def test_points_come_from_a_file_and_the_holdout_is_refused(tmp_path: Path) -> None:
    path = _transcript(tmp_path)
    points = tmp_path / "points.tsv"
    points.write_text(f"# a comment\n{path.name}\t0\n", encoding="utf-8")
    assert audit.listed_points(points, tmp_path) == [(path, 0)]

    refused = subprocess.run(
        [sys.executable, str(SCRIPT), "--points", str(points), "--sessions", "/x/holdout/sessions"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode != 0 and "holdout" in refused.stderr
