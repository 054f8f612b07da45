"""A starter scaffolded into a folder: the files it wrote are the session's, as a later listing shows."""

from __future__ import annotations

from pathlib import Path

from artifact_index.trail.build import build_index

from .claude_bash import changed, transcript

ROOT = "/home/dev/bookmarks"

SCAFFOLD = "npx --yes create-next-app@latest . --typescript --app --use-npm 2>&1 | tail -5"
SCAFFOLDED = "Creating a new Next.js app in /home/dev/bookmarks.\n\nSuccess! Created bookmarks"
STATUS = (
    "M  .gitignore\nA  AGENTS.md\nA  package.json\nA  src/app/layout.tsx\nA  src/app/page.tsx\n"
    "?? notes.txt\n"
)


def _statuses(tmp_path: Path, calls: list[tuple[str, str]]) -> dict[str, str | None]:
    path = tmp_path / "session.jsonl"
    path.write_text(transcript(ROOT, calls), encoding="utf-8")
    index, _ = build_index(path)
    return {f.path: f.status for f in index.files()}


def test_files_a_starter_wrote_in_place_are_created(tmp_path: Path) -> None:
    statuses = _statuses(
        tmp_path,
        [
            ("cat .gitignore", "node_modules/\n"),
            ("cat notes.txt", "todo\n"),
            (SCAFFOLD, SCAFFOLDED),
            ("cat AGENTS.md", "# Agents\n"),
            ("sed -i 's/Next/Bookmarks/' src/app/page.tsx", ""),
            ("printf 'export default 1\\n' > src/app/layout.tsx", ""),
            ("git add -A && git status --short | head -40", STATUS),
            ("npm install next-themes", "added 1 package"),
        ],
    )
    # Read or changed after the scaffolder ran, and new to git: the starter's, so the session's.
    assert statuses["AGENTS.md"] == "created"
    assert statuses["src/app/page.tsx"] == "created"
    assert statuses["src/app/layout.tsx"] == "created"
    assert statuses["package.json"] == "created"
    # Read before it ran: there already, though untracked.
    assert statuses["notes.txt"] == "read"
    assert statuses[".gitignore"] == "read"


def test_a_starter_file_is_told_by_the_command_that_scaffolded_it(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    calls = [
        (SCAFFOLD, SCAFFOLDED),
        ("cat AGENTS.md", "# Agents\n"),
        ("git status --short", STATUS),
    ]
    path.write_text(transcript(ROOT, calls), encoding="utf-8")
    index, _ = build_index(path)
    (agents,) = [f for f in index.files() if f.path == "AGENTS.md"]
    (made,) = [op for op in agents.ops if op.action == "create"]
    assert (made.turn, made.command) == (2, SCAFFOLD)


def test_the_first_status_after_the_scaffold_settles_it(tmp_path: Path) -> None:
    # After a status or a commit, a file new to git may be any later command's.
    statuses = _statuses(
        tmp_path,
        [
            (SCAFFOLD, SCAFFOLDED),
            ("git add -A && git commit -qm scaffold", ""),
            ("npx --yes supabase init", "Finished supabase init."),
            ("cat supabase/config.toml", "project_id = 'x'\n"),
            ("git status --short", "?? supabase/\n?? supabase/config.toml\n"),
        ],
    )
    assert statuses == {"supabase/config.toml": "read"}


def test_without_a_scaffolder_a_new_file_read_before_stays_read(tmp_path: Path) -> None:
    statuses = _statuses(
        tmp_path,
        [("cat AGENTS.md", "# Agents\n"), ("git status --short", STATUS)],
    )
    assert statuses["AGENTS.md"] == "read"


def test_a_starter_asked_for_no_folder_claims_none(tmp_path: Path) -> None:
    files, unknown = changed(
        tmp_path,
        ROOT,
        [("npx create-next-app@latest --use-npm", SCAFFOLDED), ("git status --short", STATUS)],
    )
    assert files == {}
    assert any("create-next-app writes a starter project" in (d or "") for _, d in unknown)


def test_shadcn_add_creates_the_files_it_lists(tmp_path: Path) -> None:
    output = (
        "- Updating files.\n\u2714 Created 2 files:\n  - src/components/ui/button.tsx\n"
        "  - src/lib/utils.ts\n\u2139 Skipped 1 file: (use --overwrite to overwrite)\n"
        "  - src/components/ui/card.tsx\n"
    )
    files, unknown = changed(
        tmp_path,
        ROOT,
        [
            ("bunx shadcn@latest add button card -y 2>&1", output),
            ("cat src/components/ui/button.tsx", "export function Button() {}\n"),
        ],
    )
    assert files == {"src/components/ui/button.tsx": "created", "src/lib/utils.ts": "created"}
    assert not unknown
