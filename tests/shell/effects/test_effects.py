"""What shell commands do to files, as a user of the trail would check it."""

from __future__ import annotations

from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from artifact_index.shell import ShellAnalysis, analyze_command

from ..helpers import ROOT, FakeContext, analyze, effects, only, short

PATCH = """diff --git a/src/app.py b/src/app.py
--- a/src/app.py
+++ b/src/app.py
@@ -1,2 +1,2 @@
 import os
-x = 1
+x = 2
"""


class TestRedirections:
    def test_heredoc_written_to_a_file_keeps_its_content(self) -> None:
        result = analyze("cat <<'EOF' > notes.md\n# Title\n$NOT_EXPANDED\nEOF")
        op = only(result, "write")
        assert (op.path, op.content) == ("/w/notes.md", "# Title\n$NOT_EXPANDED\n")
        assert op.source == "shell"
        assert op.command == "cat <<'EOF' > notes.md"

    def test_cat_with_redirect_before_heredoc(self) -> None:
        op = only(analyze("cat > a.py << 'PY'\nprint(1)\nPY\n"), "write")
        assert (op.path, op.content) == ("/w/a.py", "print(1)\n")

    def test_unquoted_heredoc_with_unknown_variable_has_no_content(self) -> None:
        op = only(analyze("cat <<EOF > conf.ini\nhome=$HOME\nEOF"), "write")
        assert op.path == "/w/conf.ini" and op.content is None

    def test_unquoted_heredoc_with_assigned_variable_is_expanded(self) -> None:
        op = only(analyze("NAME=demo; cat <<EOF > conf.ini\nname=$NAME\nEOF"), "write")
        assert op.content == "name=demo\n"

    def test_echo_and_printf(self) -> None:
        result = analyze(
            "echo 'hello world' > a.txt && printf 'x=%s\\n' 1 > b.txt && echo -n hi > c.txt"
        )
        assert [(op.path, op.content) for op in result.operations] == [
            ("/w/a.txt", "hello world\n"),
            ("/w/b.txt", "x=1\n"),
            ("/w/c.txt", "hi"),
        ]

    def test_append_is_an_edit_with_the_appended_text(self) -> None:
        op = only(analyze("echo 'line' >> log.txt"), "edit")
        assert (op.path, op.new, op.detail) == ("/w/log.txt", "line\n", "append")

    @pytest.mark.parametrize(
        "command",
        ["make &> build.log", "make > build.log 2>&1", "make 2> build.log", "make >| build.log"],
    )
    def test_output_of_an_unknown_program_is_a_write_without_content(self, command: str) -> None:
        op = only(analyze(command), "write")
        assert (op.path, op.content) == ("/w/build.log", None)

    def test_descriptor_duplication_is_not_a_file(self) -> None:
        assert analyze("python -m pytest 2>&1 | tail -5").operations == []

    @pytest.mark.parametrize(
        "command",
        [
            "echo x > /dev/null",
            "pytest 2>/dev/stderr",
            "tmp=$(mktemp); echo x > $tmp",
            "d=$(mktemp -d /tmp/runXXXX); echo x > $d/out",
        ],
    )
    def test_devices_and_anonymous_temporary_files_are_no_files(self, command: str) -> None:
        assert analyze(command).operations == []

    @pytest.mark.parametrize(
        "command",
        [
            "rm -f .git/index.lock",
            "rm -f /w/.git/HEAD.lock /w/.git/ORIG_HEAD",
            "echo abc123 > .git/refs/heads/main",
            "rm -rf .git/rebase-merge",
        ],
    )
    def test_git_bookkeeping_is_no_project_file(self, command: str) -> None:
        assert analyze(command).operations == []

    def test_a_git_hook_the_session_writes_is_a_file(self) -> None:
        assert effects(analyze("echo 'make lint' > .git/hooks/pre-commit")) == [
            ("write", ".git/hooks/pre-commit")
        ]

    @pytest.mark.parametrize(
        ("command", "path"),
        [
            ("echo x > /tmp/out.txt", "/tmp/out.txt"),
            ("echo x > /var/tmp/out.txt", "/var/tmp/out.txt"),
            ('echo x > "$TMPDIR/out.txt"', "/tmp/out.txt"),
            ("echo x > /var/folders/gz/h7/T/tmp.abc/out", "/var/folders/gz/h7/T/tmp.abc/out"),
        ],
    )
    def test_named_files_in_temporary_directories_are_kept(self, command: str, path: str) -> None:
        # They may be the deliverable (a cleanup script the task asked for); the trail marks them outside the workspace.
        assert effects(analyze(command)) == [("write", path)]

    def test_a_move_out_of_a_mktemp_file_writes_the_destination(self) -> None:
        result = analyze("tmp=$(mktemp) && sed 's/a/b/' conf.ini > $tmp && mv $tmp conf.ini")
        assert effects(result) == [("write", "conf.ini")]

    def test_scratch_content_is_kept_for_later_commands(self) -> None:
        result = analyze("cat > /tmp/fix.py <<'EOF'\nprint(1)\nEOF")
        assert effects(result) == [("write", "/tmp/fix.py")]
        assert result.scratch_files == {"/tmp/fix.py": "print(1)\n"}

    def test_a_workspace_inside_tmp_still_counts(self) -> None:
        result = analyze_command("echo x > out.txt", "/tmp/ws", succeeded=True)
        assert effects(result) == [("write", "/tmp/ws/out.txt")]

    def test_tee_and_tee_append(self) -> None:
        result = analyze("echo data | tee out.txt | tee -a log.txt >/dev/null")
        assert [(op.action, op.path, op.content or op.new) for op in result.operations] == [
            ("write", "/w/out.txt", "data\n"),
            ("edit", "/w/log.txt", "data\n"),
        ]

    def test_tee_with_heredoc(self) -> None:
        op = only(analyze("tee config.yml <<'EOF' >/dev/null\nkey: value\nEOF"), "write")
        assert (op.path, op.content) == ("/w/config.yml", "key: value\n")

    def test_redirect_only_statement_truncates(self) -> None:
        op = only(analyze("> empty.txt"), "write")
        assert op.path == "/w/empty.txt"

    def test_cat_of_a_known_file_into_another_carries_the_content(self) -> None:
        result = analyze("cat a.py > b.py", files={"/w/a.py": "A\n"})
        assert effects(result, reads=True) == [("read", "a.py"), ("write", "b.py")]
        assert only(result, "write").content == "A\n"


class TestEditors:
    def test_sed_in_place(self) -> None:
        result = analyze("sed -i 's/old/new/g' src/app.py")
        assert effects(result) == [("edit", "src/app.py")]
        assert result.operations[0].command == "sed -i 's/old/new/g' src/app.py"

    def test_sed_in_place_with_expressions_and_several_files(self) -> None:
        assert effects(analyze("sed -i -e 's/a/b/' -e 's/c/d/' a.py b.py")) == [
            ("edit", "a.py"),
            ("edit", "b.py"),
        ]

    def test_sed_with_backup_suffix_copies_first(self) -> None:
        assert effects(analyze("sed -i.bak 's/a/b/' a.py")) == [
            ("copy", "a.py", "a.py.bak"),
            ("edit", "a.py"),
        ]

    def test_bsd_sed_empty_suffix(self) -> None:
        assert effects(analyze("sed -i '' 's/a/b/' a.py")) == [("edit", "a.py")]

    def test_sed_print_range_is_a_read_with_a_window(self) -> None:
        op = only(analyze("sed -n '10,20p' src/app.py"), "read")
        assert (op.path, op.start_line, op.end_line) == ("/w/src/app.py", 10, 20)

    @pytest.mark.parametrize(
        "command",
        [
            "perl -pi -e 's/a/b/' x.pl",
            "perl -i -pe 's/a/b/' x.pl",
            "perl -0777 -pi -e 's/a\\n/b/' x.pl",
        ],
    )
    def test_perl_in_place(self, command: str) -> None:
        assert effects(analyze(command)) == [("edit", "x.pl")]

    def test_formatter_on_a_file(self) -> None:
        op = only(analyze("black src/app.py"), "edit")
        assert op.path == "/w/src/app.py"
        assert analyze("black --check src/app.py").operations == []


class TestFileManagement:
    def test_rm_files(self) -> None:
        assert effects(analyze("rm -f a.py b.py")) == [("delete", "a.py"), ("delete", "b.py")]

    def test_rm_recursive_deletes_every_tracked_file_under_the_directory(self) -> None:
        files: dict[str, str | None] = {
            "/w/build/a.o": "",
            "/w/build/sub/b.o": "",
            "/w/keep.py": "",
        }
        assert effects(analyze("rm -rf build", files=files)) == [
            ("delete", "build/a.o"),
            ("delete", "build/sub/b.o"),
        ]

    def test_rm_recursive_of_an_unknown_path_is_unknown(self) -> None:
        op = only(analyze("rm -rf build"), "unknown")
        assert "build" in (op.detail or "")

    def test_rm_glob_expands_against_known_files(self) -> None:
        files: dict[str, str | None] = {"/w/test_a.py": "", "/w/test_b.py": "", "/w/main.py": ""}
        assert effects(analyze("rm test_*.py", files=files)) == [
            ("delete", "test_a.py"),
            ("delete", "test_b.py"),
        ]

    def test_rm_of_a_path_known_only_at_run_time_is_unknown(self) -> None:
        op = only(analyze('rm "$1"'), "unknown")
        assert "$1" in (op.detail or "")

    def test_mv_renames(self) -> None:
        assert effects(analyze("mv old.py new.py")) == [("move", "old.py", "new.py")]

    def test_mv_into_a_known_directory_keeps_the_basename(self) -> None:
        result = analyze("mv a.py pkg", files={"/w/pkg/__init__.py": ""})
        assert effects(result) == [("move", "a.py", "pkg/a.py")]

    def test_mv_into_a_directory_made_earlier_or_named_with_a_slash(self) -> None:
        assert effects(analyze("mkdir -p pkg && mv a.py pkg")) == [("move", "a.py", "pkg/a.py")]
        assert effects(analyze("mv a.py b.py lib/")) == [
            ("move", "a.py", "lib/a.py"),
            ("move", "b.py", "lib/b.py"),
        ]
        assert analyze("mkdir -p pkg/sub").directories == ("/w/pkg/sub",)

    def test_mv_of_a_directory_moves_its_files(self) -> None:
        result = analyze(
            "mv src/old src/new", files={"/w/src/old/a.py": "", "/w/src/old/b/c.py": ""}
        )
        assert effects(result) == [
            ("move", "src/old/a.py", "src/new/a.py"),
            ("move", "src/old/b/c.py", "src/new/b/c.py"),
        ]

    def test_cp_and_recursive_cp(self) -> None:
        assert effects(analyze("cp a.py a.py.orig")) == [("copy", "a.py", "a.py.orig")]
        result = analyze("cp -r tpl out", files={"/w/tpl/x.txt": ""})
        # The files known under tpl are copied; the rest of the tree is not known.
        assert effects(result) == [("copy", "tpl/x.txt", "out/x.txt"), ("unknown", None)]
        own = analyze("mkdir tpl && echo x > tpl/x.txt && cp -r tpl out")
        assert effects(own) == [("write", "tpl/x.txt"), ("copy", "tpl/x.txt", "out/x.txt")]

    def test_brace_expansion_backup_idiom(self) -> None:
        assert effects(analyze("cp setup.py{,.bak}")) == [("copy", "setup.py", "setup.py.bak")]

    def test_touch_creates_only_unknown_files(self) -> None:
        op = only(analyze("touch new.py"), "create")
        assert (op.path, op.content) == ("/w/new.py", "")
        assert analyze("touch old.py", files={"/w/old.py": "x"}).operations == []

    def test_mkdir_has_no_file_effect(self) -> None:
        assert analyze("mkdir -p a/b/c").operations == []

    def test_symlink_is_a_created_file(self) -> None:
        op = only(analyze("ln -s ../real_dir link_dir"), "create")
        assert op.path == "/w/link_dir"


class TestReads:
    @pytest.mark.parametrize(
        "command",
        [
            "cat src/app.py",
            "nl -ba src/app.py",
            "less src/app.py",
            "tail -n 20 src/app.py",
            "bat src/app.py",
        ],
    )
    def test_viewers_are_reads(self, command: str) -> None:
        assert effects(analyze(command), reads=True) == [("read", "src/app.py")]

    def test_head_window(self) -> None:
        op = only(analyze("head -n 40 src/app.py"), "read")
        assert (op.start_line, op.end_line) == (1, 40)

    def test_grep_is_a_search_not_a_read(self) -> None:
        assert analyze("grep -n def src/app.py").operations == []

    @pytest.mark.parametrize(
        "command",
        [
            'for f in a b; do [ -f "$f.pdf" ] && wc -c < "$f.pdf"; done',
            'o=$( [ -f a.pdf ] && wc -c < a.pdf | tr -d " " || echo - )',
            "test -s a.pdf && cat a.pdf || echo missing",
            "[[ -e a.pdf ]] && cat a.pdf || true",
        ],
    )
    def test_a_read_behind_an_existence_test_that_may_have_failed_is_not_a_read(
        self, command: str
    ) -> None:
        """A size check over names that may not exist reads only those that do: not stated."""
        assert [op for op in analyze(command).operations if op.action == "read"] == []

    def test_a_path_built_from_a_loop_variable_over_a_glob_is_not_a_file(self) -> None:
        """`basename "$f" .agent` with `$f` unknown is unknown: not `basename .agent`."""
        command = (
            'for f in .git/s/*.agent; do id=$(basename "$f" .agent); '
            'printf "%s" "$(cat ".git/s/$id.model" 2>/dev/null)"; done'
        )
        # Not a file named `.agent`: a read of files named only at run time, with no path.
        assert effects(analyze(command, output="x"), reads=True) == [("read", None)]
        # A path tool given one known operand still answers.
        assert effects(analyze('d=$(dirname src/a/b.py); cat "$d/c.py"'), reads=True) == [
            ("read", "src/a/c.py")
        ]

    def test_a_read_behind_an_existence_test_that_passed_is_a_read(self) -> None:
        assert effects(analyze("[ -f a.pdf ] && cat a.pdf"), reads=True) == [("read", "a.pdf")]
        # Another file's test does not make this read uncertain.
        assert effects(analyze("[ -f b ] && cat a.pdf || echo -"), reads=True) == [
            ("read", "a.pdf")
        ]


class TestRecursiveCopy:
    def test_cp_r_of_an_unseen_extensionless_path_copies_a_folder_of_unknown_files(self) -> None:
        """No file called ``templates`` is created: a tree is copied, its files unknown."""
        result = analyze("cp -r templates out")
        assert [op.action for op in result.operations] == ["unknown"]
        assert "templates" in (result.operations[0].detail or "")

    @pytest.mark.parametrize("command", ["cp -r Makefile Makefile.bak", "cp -r .env .env.bak"])
    def test_cp_r_of_a_file_named_without_an_extension_copies_the_file(self, command: str) -> None:
        assert [op.action for op in analyze(command).operations] == ["copy"]

    def test_cp_r_of_a_path_with_an_extension_copies_the_file(self) -> None:
        assert effects(analyze("cp -r notes.md notes2.md")) == [("copy", "notes.md", "notes2.md")]


class TestGit:
    def test_git_mv_and_git_rm(self) -> None:
        assert effects(analyze("git mv a.py b.py && git rm -q c.py")) == [
            ("move", "a.py", "b.py"),
            ("delete", "c.py"),
        ]
        assert analyze("git rm --cached c.py").operations == []

    def test_git_rm_of_a_folder_deletes_the_files_git_names(self) -> None:
        """Files the session never touched are gone too: git's ``rm 'path'`` lines name them."""
        output = "rm 'old/a.py'\nrm 'old/sub/b.md'\n"
        seen = {"/w/old/a.py": "x"}
        assert effects(analyze("git rm -r old", files=seen, output=output)) == [
            ("delete", "old/a.py"),
            ("delete", "old/sub/b.md"),
        ]
        # Run from a subfolder, git still prints paths from the repository's root (the workspace).
        nested = analyze_command(
            "git rm -r b", "/w/a", succeeded=True, workspace="/w", output="rm 'a/b/c.txt'\n"
        )
        assert effects(nested) == [("delete", "a/b/c.txt")]

    def test_git_worktree_remove_deletes_the_files_seen_under_the_worktree(self) -> None:
        seen = {"/w/wt/.gitignore": "x", "/w/wt/skills/a.md": "y", "/w/src/app.py": "z"}
        assert effects(analyze("git worktree remove --force wt", files=seen)) == [
            ("delete", "wt/.gitignore"),
            ("delete", "wt/skills/a.md"),
        ]
        # Adding or listing worktrees, or a remove git refused, changes no file.
        assert analyze("git worktree add wt origin/main", files=seen).operations == []
        assert analyze("git worktree remove wt", files=seen, succeeded=False).operations == []

    @pytest.mark.parametrize(
        ("command", "checked_out"),
        [
            ("git worktree add -b skills wt origin/main", ("/w/wt",)),
            ("git worktree add --lock --reason 'ci' ../wt", ("/wt",)),
            ("git -C /w worktree add /tmp/wt/", ("/tmp/wt",)),
            # Nothing checked out, or nothing added: no folder holds files from before.
            ("git worktree add --no-checkout wt", ()),
            ("git worktree add --orphan -b fresh wt", ()),
            ("git worktree list", ()),
        ],
    )
    def test_git_worktree_add_keeps_the_folder_it_checked_out(
        self, command: str, checked_out: tuple[str, ...]
    ) -> None:
        assert analyze(command).checked_out == checked_out
        assert analyze(command, succeeded=False).checked_out == ()

    def test_git_rm_of_a_pattern_deletes_the_files_git_names(self) -> None:
        output = "rm 'docs/x.md'\nrm 'docs/y.md'\n"
        assert effects(analyze("git rm 'docs/*.md'", output=output)) == [
            ("delete", "docs/x.md"),
            ("delete", "docs/y.md"),
        ]

    def test_git_rm_without_its_report_deletes_only_what_is_known(self) -> None:
        """Quiet (or no output recorded): the files seen under the folder; a pattern is not placed."""
        seen = {"/w/old/a.py": "x"}
        assert effects(analyze("git rm -rq old", files=seen)) == [("delete", "old/a.py")]
        assert [op.action for op in analyze("git rm -q 'docs/*.md'").operations] == ["unknown"]

    @pytest.mark.parametrize(
        "command",
        [
            "git checkout -- src/app.py",
            "git checkout src/app.py",
            "git restore src/app.py",
            "git restore --staged --worktree src/app.py",
        ],
    )
    def test_restoring_a_file(self, command: str) -> None:
        assert effects(analyze(command)) == [("restore", "src/app.py")]

    def test_restore_from_a_revision(self) -> None:
        op = only(analyze("git checkout HEAD~1 -- src/app.py"), "restore")
        assert op.detail == "to HEAD~1"

    @pytest.mark.parametrize(
        "command",
        [
            "git checkout .",
            "git stash",
            "git stash push -u",
            "git reset --hard",
        ],
    )
    def test_whole_worktree_restores(self, command: str) -> None:
        assert effects(analyze(command)) == [("restore", None)]

    def test_a_hard_reset_to_another_revision_also_moves_the_tree(self) -> None:
        # The files that differ between HEAD and HEAD~2 change too, unnamed here.
        assert effects(analyze("git reset --hard HEAD~2")) == [("restore", None), ("unknown", None)]

    def test_restore_of_a_subdirectory_restores_its_known_files(self) -> None:
        result = analyze("git checkout -- src", files={"/w/src/a.py": "", "/w/src/b.py": ""})
        assert effects(result) == [("restore", "src/a.py"), ("restore", "src/b.py")]

    @pytest.mark.parametrize(
        "command",
        [
            "git restore --staged src/app.py",
            "git reset HEAD src/app.py",
            "git add -A",
            "git commit -m x",
            "git checkout -b feature",
            "git stash list",
        ],
    )
    def test_index_and_history_commands_change_no_file(self, command: str) -> None:
        assert analyze(command).operations == []

    @pytest.mark.parametrize(
        ("command", "detail"),
        [
            ("git stash pop", "pop"),
            ("git stash apply stash@{0}", "apply"),
            ("git stash drop", "drop"),
            ("git stash clear", "clear"),
        ],
    )
    def test_stash_pop_apply_drop_and_clear_work_on_the_latest_stash(
        self, command: str, detail: str
    ) -> None:
        (op,) = analyze(command).operations
        assert (op.action, op.path, op.detail) == ("unstash", None, detail)

    @pytest.mark.parametrize(
        "command",
        [
            "git checkout main",
            "git stash pop stash@{2}",
            "git pull",
            "git merge dev",
            "git switch main",
            "git switch -c feature origin/main",
            "git checkout -b feature origin/main",
        ],
    )
    def test_unnameable_changes_are_unknown(self, command: str) -> None:
        assert effects(analyze(command)) == [("unknown", None)]

    def test_a_merge_names_the_files_its_report_lists(self) -> None:
        output = (
            "Saved working directory and index state On main: wip\n"
            "Updating 1a2b3c4..5d6e7f8\n"
            "Fast-forward\n"
            " src/app/graph.py                         | 211 +++++++++++++\n"
            " src/app/ingest.py                        |  22 +-\n"
            " .../versions/0006_nullable_links.py      |  84 +++++++\n"
            " .../versions/0007_unnamed_tail.py        |   4 +-\n"
            " docs/{guide.md => handbook.md}           |   0\n"
            " assets/logo.png                          | Bin 0 -> 5120 bytes\n"
            " old_notes.txt                            |   3 ---\n"
            " 7 files changed, 310 insertions(+), 9 deletions(-)\n"
            " create mode 100644 src/app/graph.py\n"
            " create mode 100644 src/db/migrations/versions/0006_nullable_links.py\n"
            " create mode 100644 assets/logo.png\n"
            " delete mode 100644 old_notes.txt\n"
            " rename docs/{guide.md => handbook.md} (100%)\n"
            "5d6e7f8 Link traversal\n"
        )
        result = analyze_command(
            "git stash push -u -- notes.md; git merge --ff-only origin/main; git stash pop",
            "/w",
            succeeded=True,
            output=output,
        )
        assert effects(result) == [
            ("restore", "notes.md"),
            ("create", "src/app/graph.py"),
            ("create", "src/db/migrations/versions/0006_nullable_links.py"),
            ("create", "assets/logo.png"),
            ("edit", "src/app/ingest.py"),
            ("delete", "old_notes.txt"),
            ("move", "docs/guide.md", "docs/handbook.md"),
            ("unknown", None),
            ("unstash", None),
        ]
        assert "0007_unnamed_tail.py" in (result.operations[-2].detail or "")

    def test_a_checkout_of_the_branch_checked_out_already_changes_nothing(self) -> None:
        output = "Already on 'main'\nYour branch is up to date with 'origin/main'.\n"
        assert (
            effects(analyze_command("git checkout main", "/w", succeeded=True, output=output)) == []
        )
        assert (
            effects(analyze_command("git switch main", "/w", succeeded=True, output=output)) == []
        )
        # Another branch than the one it says it is on: a switch all the same.
        result = analyze_command("git checkout dev", "/w", succeeded=True, output=output)
        assert effects(result) == [("unknown", None)]

    def test_a_merge_stopped_on_a_conflict_names_the_files_it_merged_into(self) -> None:
        # No summary: "Auto-merging X" and "Merge conflict in X" are the files both sides changed,
        # which it wrote. What only the other side changed is not named: still an unknown effect.
        output = (
            "CONFLICT (content): Merge conflict in src/pages/links.astro\n"
            "Auto-merging src/layouts/Layout.astro\n"
            "Auto-merging src/pages/links.astro\n"
            "Automatic merge failed; fix conflicts and then commit the result.\n"
        )
        result = analyze_command("git merge origin/main", "/w", succeeded=False, output=output)
        assert effects(result) == [
            ("unknown", None),
            ("edit", "src/pages/links.astro"),
            ("edit", "src/layouts/Layout.astro"),
        ]
        assert result.operations[1].detail == "brought in by git merge"

    def test_gh_pr_merge_names_the_files_its_local_fast_forward_lists(self) -> None:
        output = (
            "From github.com:o/r\n * branch            main       -> FETCH_HEAD\n"
            "Updating 4c85b19..902d4a4\nFast-forward\n"
            " src/app/decisions.py | 3 +-\n 1 file changed, 2 insertions(+), 1 deletion(-)\n"
        )
        result = analyze_command(
            "gh pr merge 235 --merge --delete-branch", "/w", succeeded=True, output=output
        )
        assert effects(result) == [("edit", "src/app/decisions.py")]
        assert result.operations[0].detail == "brought in by gh pr merge"
        # Without a report, or another gh command: no file here changed.
        assert (
            effects(analyze_command("gh pr merge 235 --auto", "/w", succeeded=True, output=""))
            == []
        )
        assert effects(analyze_command("gh pr view 235", "/w", succeeded=True, output=output)) == []

    def test_a_pull_names_the_files_git_quoted_by_their_own_names(self) -> None:
        # git C-quotes a path with bytes beyond ASCII (core.quotePath): "docs/\346\227\245.md" is
        # docs/日.md, and a path it shortened may start in the middle of a character.
        output = (
            "Fast-forward\n"
            ' "docs/\\346\\227\\245.md"           | 3 +++\n'
            ' "docs/\\346\\234\\254 \\"draft\\".md" | 2 +-\n'
            ' "...\\227\\245\\346\\234\\254.md"       | 4 ++++\n'
            " 3 files changed, 8 insertions(+), 1 deletion(-)\n"
            ' create mode 100644 "docs/\\346\\227\\245.md"\n'
            ' create mode 100644 "notes/\\346\\227\\245\\346\\234\\254.md"\n'
        )
        result = analyze_command("git pull", "/w", succeeded=True, output=output)
        assert effects(result) == [
            ("create", "docs/\u65e5.md"),
            ("create", "notes/\u65e5\u672c.md"),
            ("edit", 'docs/\u672c "draft".md'),
        ]

    def test_a_pull_that_was_up_to_date_changed_nothing(self) -> None:
        result = analyze_command("git pull", "/w", succeeded=True, output="Already up to date.\n")
        assert result.operations == []

    def test_a_diffstat_another_command_printed_is_no_merge_report(self) -> None:
        output = "Successfully rebased and updated refs/heads/main.\n a.py | 2 +-\n"
        result = analyze_command(
            "git pull --rebase && git diff --stat HEAD~1", "/w", succeeded=True, output=output
        )
        assert effects(result) == [("unknown", None)]

    def test_git_apply_with_a_known_patch_file(self) -> None:
        result = analyze("git apply fix.patch", files={"/w/fix.patch": PATCH})
        op = only(result, "edit")
        assert (op.path, op.source, op.command) == ("/w/src/app.py", "patch", "git apply fix.patch")
        assert op.diff and "+x = 2" in op.diff

    def test_git_apply_from_a_heredoc(self) -> None:
        op = only(analyze(f"git apply <<'EOF'\n{PATCH}EOF"), "edit")
        assert (op.path, op.source) == ("/w/src/app.py", "patch")

    def test_patch_reading_its_input_from_a_file(self) -> None:
        op = only(analyze("patch -p1 < fix.patch", files={"/w/fix.patch": PATCH}), "edit")
        assert (op.path, op.source) == ("/w/src/app.py", "patch")

    def test_patch_with_unknown_text_is_unknown(self) -> None:
        op = only(analyze("git apply fix.patch"), "unknown")
        assert "fix.patch" in (op.detail or "")

    def test_git_apply_check_changes_nothing(self) -> None:
        assert (
            analyze("git apply --check fix.patch", files={"/w/fix.patch": PATCH}).operations == []
        )

    def test_git_dash_c_changes_the_directory(self) -> None:
        assert effects(analyze("git -C sub checkout -- a.py")) == [("restore", "sub/a.py")]


class TestConverters:
    @pytest.mark.parametrize(
        ("command", "written"),
        [
            ("sips -s format png shot.heic --out shot.png", ["shot.png"]),
            ("ffmpeg -y -i demo.mp4 -vf fps=10,scale=640:-1 -loop 0 demo.gif", ["demo.gif"]),
            ("convert logo.png -resize 50% logo-small.png", ["logo-small.png"]),
            ("magick icon.svg -background none icon.png", ["icon.png"]),
            # A format before the output names what to write; one that prints writes no file.
            ("magick icon.svg png:out/icon.png", ["out/icon.png"]),
            ('magick src.png -format "TL:%[pixel:p{5,5}]" info:', []),
            ("magick src.png -crop 10x10+5+5 txt:- | head -3", []),
            ("pandoc README.md -o README.pdf", ["README.pdf"]),
            ("dot -Tpng deps.dot -o deps.png", ["deps.png"]),
            ("sort -u -o words.txt words.txt", ["words.txt"]),
            (
                "openssl req -x509 -nodes -newkey rsa:2048 -keyout k.pem -out c.pem",
                ["k.pem", "c.pem"],
            ),
            ("tar czf release.tgz dist", ["release.tgz"]),
            ("tar -c -f site.tar public", ["site.tar"]),
            ("zip -r bundle.zip build", ["bundle.zip"]),
        ],
    )
    def test_the_output_a_converter_names_is_written(
        self, command: str, written: list[str]
    ) -> None:
        assert effects(analyze(command)) == [("write", p) for p in written]

    def test_sips_changes_its_images_in_place_only_with_a_changing_option(self) -> None:
        assert effects(analyze("sips -Z 800 a.png b.png")) == [("edit", "a.png"), ("edit", "b.png")]
        assert effects(analyze("sips -g pixelWidth a.png")) == []

    def test_readers_and_pipes_write_nothing(self) -> None:
        for command in (
            "tar tzf a.tgz",
            "unzip -l a.zip",
            "ffmpeg -i a.mp4 -f null -",
            "sort a.txt",
        ):
            assert analyze(command).operations == [], command

    def test_unpacking_a_whole_archive_is_an_unknown_effect(self) -> None:
        for command in ("unzip -o tool.zip -d bin", "tar xzf tool.tgz -C bin"):
            (op,) = analyze(command).operations
            assert op.action == "unknown" and op.command == command

    def test_an_output_known_only_at_run_time_is_no_guess(self) -> None:
        assert effects(analyze("ffmpeg -i in.mp4 $OUT")) == [("unknown", None)]


class TestWorkingDirectory:
    def test_cd_applies_to_the_rest_of_the_list(self) -> None:
        result = analyze("cd /repo/src && sed -i 's/a/b/' app.py && touch ../NEWS")
        assert effects(result) == [("edit", "/repo/src/app.py"), ("create", "/repo/NEWS")]
        assert result.cwd_after == "/repo/src"

    def test_cd_in_a_subshell_does_not_leak(self) -> None:
        result = analyze("(cd sub && rm a.py); rm b.py")
        assert effects(result) == [("delete", "sub/a.py"), ("delete", "b.py")]
        assert result.cwd_after == "/w"

    def test_cd_inside_command_substitution_or_pipeline_does_not_leak(self) -> None:
        assert analyze("x=$(cd sub && pwd); cd lib | cat").cwd_after == "/w"

    def test_paths_are_normalized(self) -> None:
        assert effects(analyze("cd a/b && rm ../../c/./d.py")) == [("delete", "c/d.py")]

    def test_unknown_starting_directory_keeps_paths_relative(self) -> None:
        result = analyze_command("cd src && rm app.py", None, succeeded=True)
        assert effects(result) == [("delete", "src/app.py")]
        assert result.cwd_after == "src"

    def test_cd_somewhere_unresolvable_makes_relative_paths_unknown(self) -> None:
        result = analyze("cd $PROJECT && rm app.py && rm /w/abs.py")
        assert effects(result) == [("unknown", None), ("delete", "abs.py")]
        assert result.cwd_after is None

    def test_pwd_and_variables(self) -> None:
        assert effects(analyze('F=a.py; rm "$PWD/$F"')) == [("delete", "a.py")]

    def test_pushd_popd(self) -> None:
        result = analyze("pushd lib && rm x.py && popd && rm y.py")
        assert effects(result) == [("delete", "lib/x.py"), ("delete", "y.py")]
        assert result.cwd_after == "/w"


class TestFailure:
    def test_failed_rm_deleted_nothing(self) -> None:
        assert analyze("rm important.py", succeeded=False).operations == []

    def test_in_an_and_chain_only_the_last_command_failed(self) -> None:
        result = analyze("cd /w && sed -i 's/a/b/' app.py && python -m pytest", succeeded=False)
        assert effects(result) == [("edit", "app.py")]

    @pytest.mark.parametrize(
        "output",
        [
            "awk: line 1: syntax error at or near ,\n",
            "Exit code 2\nawk: cannot open gen.awk (No such file or directory)\n",
            "bash: line 1: awk: command not found\n",
            "zsh:1: command not found: awk\n",
        ],
    )
    def test_the_output_names_the_step_that_stopped_an_and_chain(self, output: str) -> None:
        # The redirection was opened before awk failed; mv and sed never ran.
        command = (
            "awk -f gen.awk app.py > /tmp/app.py && mv /tmp/app.py app.py && sed -i s/a/b/ b.py"
        )
        result = analyze(command, succeeded=False, output=output)
        assert effects(result) == [("write", "/tmp/app.py")]

    @pytest.mark.parametrize(
        ("command", "output"),
        [
            # A later step complains too: it ran, so the output cannot say where the chain stopped.
            ("awk 1 a > /tmp/a && mv /tmp/a a && sed -i s/x/y/ a", "awk: x\nsed: -e expression\n"),
            # Two steps run the same program: which one failed cannot be told.
            ("sed -n 1p a > /tmp/a && mv /tmp/a a && sed -i s/x/y/ a", "sed: -e expression\n"),
            # After `||` a later step runs whether or not the failed one did.
            ("awk 1 a > /tmp/a || mv /tmp/a a && python t.py", "awk: x\n"),
            # A warning is no failure.
            ("awk 1 a > /tmp/a && mv /tmp/a a && python t.py", "awk: warning: x\n"),
        ],
    )
    def test_without_a_clear_complaint_the_last_step_failed(
        self, command: str, output: str
    ) -> None:
        result = analyze(command, succeeded=False, output=output)
        assert ("move", "/tmp/a", "a") in effects(result)

    @pytest.mark.parametrize(
        ("command", "output"),
        [
            ("git stash -u 2>&1 | head -5", "error: could not write index\n"),
            ("GIT_TRACE=1 git -C /w stash 2>&1 | tail -3", "fatal: not a git repository\n"),
            (
                "git checkout -- a.py | cat",
                "error: pathspec 'a.py' did not match any file(s) known to git\n",
            ),
        ],
    )
    def test_a_git_refusal_a_pipe_hides_changed_nothing(self, command: str, output: str) -> None:
        # The pipe's status is the filter's: only git's own complaint says it refused.
        assert effects(analyze(command, succeeded=True, output=output)) == []

    @pytest.mark.parametrize(
        ("command", "output"),
        [
            # Git did its work.
            ("git stash -u 2>&1 | head -5", "Saved working directory and index state WIP\n"),
            # Not a filter: the complaint may be the other program's.
            ("git stash 2>&1 | python log.py", "error: could not write index\n"),
            # A rebase that stops on a conflict has written files.
            ("git rebase main 2>&1 | tail -3", "error: could not apply 1a2b3c4... fix\n"),
        ],
    )
    def test_a_piped_git_command_keeps_its_effects_without_a_clear_refusal(
        self, command: str, output: str
    ) -> None:
        quiet = effects(analyze(command, succeeded=True))
        assert quiet
        assert effects(analyze(command, succeeded=True, output=output)) == quiet

    @pytest.mark.parametrize(
        "output",
        [
            'Exit code 1\n(eval):26: unmatched "\n',
            "(eval):3: parse error near `)'\n",
            "/bin/bash: -c: line 1: syntax error near unexpected token `('\n",
            "bash: -c: line 1: unexpected EOF while looking for matching `''\n",
        ],
    )
    def test_a_command_its_shell_could_not_parse_ran_nothing(self, output: str) -> None:
        # Text inside the quotes looks like redirections; the shell never got that far.
        command = "cd api && python3 -c '\nprint(x) > out.txt\n' > log.txt && rm old.py"
        analysis = analyze(command, succeeded=False, output=output)
        assert effects(analysis) == []
        assert analysis.cwd_after == "/w"

    @pytest.mark.parametrize(
        "output",
        [
            # Bash ran the lines before a later syntax error.
            "Exit code 2\n/bin/bash: -c: line 3: syntax error near unexpected token `fi'\n",
            # A script the command ran has the syntax error, not the command itself.
            "Exit code 2\nbuild.sh: line 1: syntax error near unexpected token `('\n",
            # Something ran and printed before the complaint.
            "removed old.py\n(eval):4: parse error near `done'\n",
        ],
    )
    def test_a_syntax_error_that_came_later_keeps_the_effects(self, output: str) -> None:
        assert ("delete", "old.py") in effects(
            analyze("rm old.py; bash build.sh", succeeded=False, output=output)
        )

    def test_a_written_script_stands_when_running_it_fails(self) -> None:
        result = analyze(
            "cat > fix.py <<'EOF'\nimport os\nos.remove('old.py')\nEOF\npython fix.py",
            succeeded=False,
        )
        assert effects(result) == [("write", "fix.py")]

    def test_redirections_of_a_failed_command_still_create_the_file(self) -> None:
        assert effects(analyze("python gen.py > out.txt", succeeded=False)) == [
            ("write", "out.txt")
        ]

    def test_or_list_that_failed_failed_everywhere(self) -> None:
        assert analyze("rm a.py || rm b.py", succeeded=False).operations == []

    def test_or_true_keeps_the_effects(self) -> None:
        assert effects(analyze("rm a.py 2>/dev/null || true", succeeded=True)) == [
            ("delete", "a.py")
        ]

    def test_unknown_status_assumes_the_effects_happened(self) -> None:
        assert effects(analyze("rm a.py && make", succeeded=None)) == [("delete", "a.py")]

    def test_failed_cd_does_not_move(self) -> None:
        assert analyze("cd nowhere", succeeded=False).cwd_after == "/w"

    def test_failed_bash_c_applies_the_rule_inside(self) -> None:
        result = analyze("bash -c 'rm a.py && false'", succeeded=False)
        assert effects(result) == [("delete", "a.py")]


class TestWrappersAndLoops:
    @pytest.mark.parametrize(
        "command",
        [
            "sudo rm a.py",
            "env DEBUG=1 rm a.py",
            "timeout 10 rm a.py",
            "time rm a.py",
            "nohup rm a.py",
            "command rm a.py",
            "DEBUG=1 rm a.py",
        ],
    )
    def test_wrappers_run_the_inner_command(self, command: str) -> None:
        assert effects(analyze(command)) == [("delete", "a.py")]

    def test_xargs_with_an_editor_is_unknown(self) -> None:
        assert effects(analyze("git ls-files '*.pyc' | xargs rm -f")) == [("unknown", None)]
        assert analyze("find . -name '*.py' | xargs grep -l foo").operations == []

    def test_find_delete_and_exec(self) -> None:
        assert effects(analyze("find . -name '*.pyc' -delete")) == [("unknown", None)]
        assert effects(analyze("find . -name '*.orig' -exec rm {} \\;")) == [("unknown", None)]
        assert analyze("find . -name '*.py' -exec grep -l x {} +").operations == []

    def test_for_loop_over_literal_words(self) -> None:
        assert effects(analyze("for f in a.py b.py; do rm $f; done")) == [
            ("delete", "a.py"),
            ("delete", "b.py"),
        ]

    def test_a_loop_writing_one_file_per_value_into_a_variable_directory(self) -> None:
        command = (
            "T=/tmp/cases; mkdir -p $T\n"
            "for c in empty broken; do\n"
            '  jq "$(case $c in\n'
            "    empty) echo '.items=[]';;\n"
            "    broken) echo 'del(.name)';;\n"
            '  esac)" config.json > $T/$c.json\n'
            "done"
        )
        assert effects(analyze(command)) == [
            ("write", "/tmp/cases/empty.json"),
            ("write", "/tmp/cases/broken.json"),
        ]

    def test_programs_that_are_not_editors_have_no_effect(self) -> None:
        assert (
            analyze(
                "pytest -x tests/ && make lint && npm test && mix format --check-formatted"
            ).operations
            == []
        )


class TestNestedShells:
    def test_bash_c_is_analyzed(self) -> None:
        result = analyze("bash -c 'cd sub && rm a.py'")
        assert effects(result) == [("delete", "sub/a.py")]
        assert result.cwd_after == "/w"

    def test_sh_script_with_known_text(self) -> None:
        result = analyze("sh clean.sh", files={"/w/clean.sh": "rm -f out.log\n"})
        assert effects(result) == [("delete", "out.log")]

    def test_executed_script_with_unknown_text_is_unknown(self) -> None:
        op = only(analyze("./scripts/migrate.sh"), "unknown")
        assert "migrate.sh" in (op.detail or "")

    def test_source_changes_the_current_shell(self) -> None:
        result = analyze(". env.sh && rm x.py", files={"/w/env.sh": "cd build\n"})
        assert effects(result) == [("delete", "build/x.py")]


def test_every_operation_names_the_command_that_caused_it() -> None:
    result: ShellAnalysis = analyze("cd /w && rm a.py; echo x > b.txt; git checkout -- c.py")
    assert [op.command for op in result.operations] == [
        "rm a.py",
        "echo x > b.txt",
        "git checkout -- c.py",
    ]
    assert {op.source for op in result.operations} == {"shell"}
    assert {op.cwd for op in result.operations} == {"/w"}


def test_a_context_is_optional() -> None:
    result = analyze_command("cat <<'EOF' > a.py\nx\nEOF\nrm b.py", "/w", succeeded=True)
    assert effects(result) == [("write", "a.py"), ("delete", "b.py")]


def test_fake_context_is_consistent() -> None:
    context = FakeContext({"/w/a/b.py": "x"})
    assert context.files_under("/w/a") == ["/w/a/b.py"]
    assert context.is_directory("/w/a") is True


_SHELL_ALPHABET = "abc./-_ \n\t'\"$`\\(){}[]<>|&;*?~=#!0123456789EOF"


@settings(max_examples=150, deadline=None)
@given(
    text=st.text(alphabet=_SHELL_ALPHABET, max_size=80),
    succeeded=st.sampled_from([True, False, None]),
)
def test_any_text_is_analyzed_without_raising(text: str, succeeded: bool | None) -> None:
    result = analyze_command(
        text, "/w", succeeded=succeeded, context=FakeContext({"/w/a.py": "open('b', 'w')"})
    )
    assert all(op.path is None or op.path.startswith("/") for op in result.operations)


@settings(max_examples=60, deadline=None)
@given(
    words=st.lists(
        st.sampled_from(
            [
                "rm",
                "mv",
                "cp",
                "sed -i",
                "cat",
                "<<'EOF'",
                "EOF",
                "\n",
                "&&",
                "||",
                ";",
                "|",
                ">",
                ">>",
                "a.py",
                "dir/",
                "$x",
                "python",
                "-c",
                "git checkout",
                "--",
                ".",
            ]
        ),
        max_size=20,
    )
)
def test_command_shaped_text_is_analyzed_without_raising(words: list[str]) -> None:
    analyze_command(" ".join(words), "/w", succeeded=None, context=FakeContext({"/w/a.py": "x"}))


def test_unmatched_globs_are_not_taken_for_file_names() -> None:
    result = analyze("sed -i 's/a/b/' src/*.py && cat docs/*.md")
    assert effects(result, reads=True) == [("unknown", None), ("read", None)]
    assert "src/*.py" in (result.operations[0].detail or "")


def test_the_package_exports_what_it_documents() -> None:
    import artifact_index.shell as shell

    assert shell.__all__ == ["ShellAnalysis", "ShellContext", "analyze_command"]


def test_installed_programs_run_by_path_are_programs_not_scripts() -> None:
    assert (
        analyze(".venv/bin/pytest -q && ./node_modules/.bin/jest && /usr/bin/make").operations == []
    )


def test_touch_of_a_file_the_context_knows_without_its_content() -> None:
    assert analyze("touch gen.json", files={"/w/gen.json": None}).operations == []


def test_sed_global_literal_substitution_is_an_exact_edit() -> None:
    op = only(analyze("sed -i 's/old_name/new_name/g' src/app.py"), "edit")
    assert (op.old, op.new, op.replace_all) == ("old_name", "new_name", True)
    regex = only(analyze("sed -i 's/old.*/x/g' src/app.py"), "edit")
    assert (regex.old, regex.new) == (None, None)


def test_failed_rm_of_several_paths_removed_the_ones_known_to_exist() -> None:
    files: dict[str, str | None] = {"/w/a.py": "x", "/w/b.py": None}
    result = analyze("rm a.py b.py missing.py", files=files, succeeded=False)
    assert effects(result) == [("delete", "a.py"), ("delete", "b.py")]


def test_windows_drive_paths_are_absolute() -> None:
    from artifact_index.shell import analyze_command

    analysis = analyze_command(
        "cd D:/proj && rm src/old.go", "D:/proj", succeeded=True, workspace="D:/proj"
    )
    assert [(op.action, op.path) for op in analysis.operations] == [
        ("delete", "D:/proj/src/old.go")
    ]
    assert analysis.cwd_after == "D:/proj"


class TestOpaquePrograms:
    """Programs whose effects are not modelled claim nothing, but are said to be opaque."""

    @pytest.mark.parametrize(
        "command", ["ls -la src", "rg TODO", "pytest -q", "cargo check", "git status", "tsc -p ."]
    )
    def test_programs_that_change_no_followed_file_are_not_opaque(self, command: str) -> None:
        analysis = analyze(command)
        assert (analysis.operations, analysis.opaque) == ([], ())

    def test_an_unknown_program_is_opaque(self) -> None:
        analysis = analyze("cd app && acme-cli setup --yes")
        assert (analysis.operations, analysis.opaque) == ([], ("acme-cli setup --yes",))

    def test_a_failed_unknown_program_is_not(self) -> None:
        assert analyze("acme-cli setup", succeeded=False).opaque == ()


class TestLines:
    def test_a_line_after_a_piped_head_is_its_own_command_not_files_head_reads(self) -> None:
        # tree-sitter-bash reads `head` and the next line (with a redirection) as one command.
        script = (
            'echo "=== refs ==="\n'
            "git for-each-ref | grep checkpoints | head\n"
            'echo "=== object ==="\n'
            'git cat-file -p "$REF" 2>/dev/null | grep -i session | head\n'
            "cat notes.md 2>/dev/null\n"
        )
        assert effects(analyze(script), reads=True) == [("read", "notes.md")]

    def test_a_line_continued_by_a_backslash_stays_one_command(self) -> None:
        assert effects(analyze("cat a.md \\\n  b.md | head\nls 2>/dev/null"), reads=True) == [
            ("read", "a.md"),
            ("read", "b.md"),
        ]


class TestReportedSaves:
    """An unknown program whose output says it saved a file its command line names."""

    def test_a_cli_held_in_a_variable_saves_what_its_output_names(self) -> None:
        command = (
            "B=~/.tools/browse/dist/browse\nS=/tmp/shots\n"
            '$B screenshot "$S/full.png"\n$B screenshot --clip 0,0,9,9 "$S/top.png"\n'
            '$B screenshot "#card" "$S/card.png"'
        )
        output = (
            "Screenshot saved: /tmp/shots/full.png\n"
            "screenshot: Clipped area is either empty or outside the resulting image\n"
            "Screenshot saved (element): /tmp/shots/card.png\n"
        )
        result = analyze(command, output=output)
        assert [(op.action, op.path) for op in result.operations if op.action != "unknown"] == [
            ("write", "/tmp/shots/full.png"),
            ("write", "/tmp/shots/card.png"),
        ]

    @pytest.mark.parametrize(
        "output",
        [
            "Wrote report.html\n",
            "Saved to report.html\n",
            "Report written: /w/report.html\n",
            "Wrote 46 package entries to report.html\n",
        ],
    )
    def test_an_unknown_program_saving_its_operand(self, output: str) -> None:
        assert effects(analyze("reportgen --format html report.html", output=output)) == [
            ("write", "report.html")
        ]

    def test_a_script_writing_where_its_argument_says_saves_what_its_output_names(self) -> None:
        # The script's own text computes the path (a default when no argument is given).
        script = (
            "import sys\nfrom pathlib import Path\n"
            'out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("LICENSES.txt")\n'
            'out.write_text("x")\nprint(f"Wrote 3 entries to {out}")\n'
        )
        result = analyze(
            "uv run python scripts/gen.py /tmp/LICENSES.txt",
            files={"/w/scripts/gen.py": script},
            output="Wrote 46 package entries to /tmp/LICENSES.txt\n",
        )
        assert ("write", "/tmp/LICENSES.txt") in effects(result)

    @pytest.mark.parametrize(
        ("command", "output"),
        [
            # Named as an input, not as what was saved.
            ("codegen schema.graphql", "Generated types for schema.graphql\n"),
            ("viewer shot.png", "Loading shot.png\n"),
            # The output names a file the command line does not.
            ("exporter --all", "Saved to out.csv\n"),
            # A failed run saved nothing.
            ("reportgen report.html", "Saved to report.html\n"),
        ],
    )
    def test_without_a_report_of_its_own_operand_nothing_is_claimed(
        self, command: str, output: str
    ) -> None:
        failed = command == "reportgen report.html"
        result = analyze(command, output=output, succeeded=not failed)
        assert [op for op in result.operations if op.action == "write"] == []


class TestHomeDirectory:
    """``~`` and ``$HOME`` name the home directory the workspace lies in."""

    @pytest.mark.parametrize(
        ("workspace", "home"),
        [
            ("/Users/ana/work/app", "/Users/ana"),
            ("/home/ana/app", "/home/ana"),
            ("/root/app", "/root"),
        ],
    )
    def test_a_workspace_under_a_home_places_tilde_paths(self, workspace: str, home: str) -> None:
        command = 'echo x >> ~/.tool/usage.jsonl; D="$HOME/.cache/app"; cp -n a.txt "$D/a.txt"'
        result = analyze_command(command, workspace, succeeded=True, workspace=workspace)
        written = [(op.action, op.path) for op in result.operations if op.action != "read"]
        assert written == [
            ("edit", f"{home}/.tool/usage.jsonl"),
            ("copy", f"{workspace}/a.txt"),
        ]
        assert result.operations[-1].dest == f"{home}/.cache/app/a.txt"

    @pytest.mark.parametrize("workspace", ["/w", "/workspace/app", "/Users/Shared/app", "/tmp/x"])
    def test_elsewhere_the_home_stays_unknown(self, workspace: str) -> None:
        result = analyze_command(
            "echo x >> ~/.tool/usage.jsonl", workspace, succeeded=True, workspace=workspace
        )
        assert [op.action for op in result.operations] == ["unknown"]

    def test_a_quoted_tilde_is_a_name(self) -> None:
        result = analyze_command(
            "echo x > '~/notes.txt'", "/home/ana/app", succeeded=True, workspace="/home/ana/app"
        )
        # Not the home directory: a quoted `~` is no expansion (and never guessed as one).
        assert [op.action for op in result.operations] == ["unknown"]


class TestBracketNames:
    """Bash passes an unmatched pattern on literally: ``[id]`` folders and ``[USER]`` placeholders."""

    def test_a_move_out_of_a_placeholder_home_is_a_move(self) -> None:
        result = analyze(
            "mkdir -p ~/.local/bin && mv /home/[USER]/Downloads/tool-[VERSION]-x64.AppImage"
            " ~/.local/bin/tool && chmod +x ~/.local/bin/tool",
            cwd="/home/[USER]",
        )
        moves = [op for op in result.operations if op.action == "move"]
        assert [(op.path, op.dest) for op in moves] == [
            ("/home/[USER]/Downloads/tool-[VERSION]-x64.AppImage", "/home/[USER]/.local/bin/tool")
        ]
        assert not [op for op in result.operations if op.action == "unknown"]

    def test_a_route_folder_is_a_folder(self) -> None:
        result = analyze("rm 'app/[...slug]/page.tsx' && mv app/[...slug]/old.tsx app/new.tsx")
        assert effects(result) == [
            ("delete", "app/[...slug]/page.tsx"),
            ("move", "app/[...slug]/old.tsx", "app/new.tsx"),
        ]

    def test_a_short_bracket_is_a_name_only_where_that_path_is_known(self) -> None:
        known = {"/w/app/[id]/page.tsx": "x"}
        assert effects(analyze("rm app/[id]/page.tsx", files=known)) == [
            ("delete", "app/[id]/page.tsx")
        ]
        assert effects(analyze("rm app/[id]/page.tsx")) == [("unknown", None)]

    def test_a_glob_inside_a_bracketed_folder_expands_there(self) -> None:
        known = {"/w/app/[slug]/a.test.ts": "", "/w/app/[slug]/b.test.ts": ""}
        assert effects(analyze("rm app/[slug]/*.test.ts", files=known)) == [
            ("delete", "app/[slug]/a.test.ts"),
            ("delete", "app/[slug]/b.test.ts"),
        ]

    @pytest.mark.parametrize(
        "command", ["rm log[0-9].txt", "rm [Mm]akefile.bak", "rm x[!a].txt", "rm [[:digit:]].o"]
    )
    def test_a_set_of_characters_stays_a_pattern(self, command: str) -> None:
        assert effects(analyze(command)) == [("unknown", None)]


class TestOutputOptions:
    @pytest.mark.parametrize(
        ("command", "path"),
        [
            ("xcrun devicectl list devices --json-output /tmp/devices.json", "/tmp/devices.json"),
            ("reportgen --output-file=out/report.html", "out/report.html"),
            ("exporter dump --out data.csv", "data.csv"),
            ("go build -o bin/app ./cmd/app", "bin/app"),
            ("GOOS=windows go test -c ./pkg/x -o /tmp/x.test", "/tmp/x.test"),
        ],
    )
    def test_an_output_option_names_the_file_written(self, command: str, path: str) -> None:
        assert effects(analyze(command)) == [("write", path)]

    @pytest.mark.parametrize(
        "command",
        [
            "reportgen --output-format json",
            "reportgen --output-dir build",
            "reportgen --output -",
            "reportgen --out build",
            "go build ./...",
        ],
    )
    def test_formats_directories_and_standard_output_are_no_files(self, command: str) -> None:
        assert effects(analyze(command)) == []

    @pytest.mark.parametrize(
        ("command", "path"),
        [
            (
                './scripts/Land-Review.ps1 -Id a1 -Out "docs/reviews/r1-REJECT.md" -Title "x"',
                "docs/reviews/r1-REJECT.md",
            ),
            ("./tools/export.ps1 -OutputPath:out/summary.json", "out/summary.json"),
            ("scripts/render.sh --output site/index.html", "site/index.html"),
            ("Export-Report -outfile report.txt -Force", "report.txt"),
        ],
    )
    def test_a_script_or_cmdlet_whose_text_is_unknown_writes_its_output_parameter(
        self, command: str, path: str
    ) -> None:
        ops = analyze(command).operations
        assert [(op.action, short(op.path)) for op in ops if op.action != "unknown"] == [
            ("write", path)
        ]

    @pytest.mark.parametrize(
        "command",
        [
            "./scripts/report.ps1 -OutVariable result",
            "./scripts/report.ps1 -Output json",
            "./scripts/report.ps1 -OutputDir build",
            "./scripts/report.ps1 -o notes.md",
        ],
    )
    def test_other_parameters_of_a_script_name_no_output(self, command: str) -> None:
        assert [op for op in analyze(command).operations if op.action != "unknown"] == []

    def test_a_failed_script_wrote_nothing(self) -> None:
        result = analyze("./scripts/land.ps1 -Out docs/a.md", succeeded=False)
        assert [op for op in result.operations if op.action != "unknown"] == []

    def test_a_binary_built_and_removed_again_is_no_deletion(self) -> None:
        result = analyze("go test -c ./pkg/x -o /tmp/x.test && rm /tmp/x.test")
        assert effects(result) == [("write", "/tmp/x.test"), ("delete", "/tmp/x.test")]


class TestEchoedStatus:
    """`…; echo "exit=$?"` prints how the step before ended, whatever the whole command did."""

    SCRIPT: ClassVar[dict[str, str | None]] = {
        "/w/gen.py": 'import pathlib\npathlib.Path("out.csv").write_text("x")\n'
    }

    def test_a_script_that_printed_a_failing_status_wrote_nothing(self) -> None:
        result = analyze(
            'python3 gen.py; echo "exit=$?"; git status --short',
            files=self.SCRIPT,
            output="Refusing to overwrite out.csv\nexit=1\n",
        )
        assert effects(result) == []

    def test_a_script_that_printed_success_wrote_its_files(self) -> None:
        result = analyze('python3 gen.py; echo "exit=$?"', files=self.SCRIPT, output="exit=0\n")
        assert effects(result) == [("write", "out.csv")]

    def test_statuses_that_disagree_say_nothing(self) -> None:
        command = 'for i in 1 2; do python3 gen.py; echo "rc $?"; done'
        result = analyze(command, files=self.SCRIPT, output="rc 1\nrc 0\n")
        assert ("write", "out.csv") in effects(result)


# --- reads of files named only at run time ----------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "detail"),
    [
        (
            'for f in ../runners/*.json; do sed -n "1,40p" "$f"; done',
            "reads files known only at run time (for f in ../runners/*.json)",
        ),
        ("ls logs | xargs cat", "reads files known only at run time (<arguments read by xargs>)"),
        ("find docs -name '*.md' -exec head -5 {} +", "reads files known only at run time ({})"),
        ("cat $(rg -l TODO src)", "reads files known only at run time ($(rg -l TODO src))"),
    ],
)
def test_a_read_of_files_named_only_at_run_time_is_a_read_without_a_path(
    command: str, detail: str
) -> None:
    read = only(analyze(command), "read")
    assert (read.path, read.detail) == (None, detail)


@pytest.mark.parametrize(
    "command",
    [
        'for f in a.json b.json; do sed -n "1,40p" "$f"; done',
        "cat README.md",
        "sed -i 's/a/b/' $(rg -l a src)",  # an in-place edit says so as an unknown effect
    ],
)
def test_reads_of_named_files_have_no_unnamed_read(command: str) -> None:
    assert not [op for op in analyze(command).operations if op.action == "read" and not op.path]


# --- a build's table of the files it wrote ----------------------------------------------------------

_BUILT = (
    "vite v7.1.3 building for staging...\n"
    "dist/server/wrangler.json                 1.83 kB │ gzip: 0.89 kB\n"
    "dist/server/assets/router-CP7Pjkty.js   331.42 kB │ gzip: 105.56 kB\n"
    "✓ built in 699ms\n"
)


@pytest.mark.parametrize("command", ["pnpm build:staging", "npm run build", "npx vite build"])
def test_a_file_the_session_knows_that_a_build_lists_as_written_is_rewritten(command: str) -> None:
    # Only the file the session had read is said: the build's other outputs stay unnamed.
    known = {f"{ROOT}/dist/server/wrangler.json": '{"name": "shop"}'}
    result = analyze(command, files=known, output=_BUILT)
    assert effects(result) == [("write", "dist/server/wrangler.json")]


@pytest.mark.parametrize(
    ("command", "ok"), [("cat build.log", True), ("pnpm test", True), ("pnpm build", False)]
)
def test_such_a_table_printed_by_no_build_or_by_a_failed_one_writes_nothing(
    command: str, ok: bool
) -> None:
    known = {f"{ROOT}/dist/server/wrangler.json": "{}", f"{ROOT}/build.log": _BUILT}
    result = analyze(command, files=known, output=_BUILT, succeeded=ok)
    assert effects(result) == []


# --- steps the output shows no run reached ------------------------------------------------------------

_RETRY = (
    "for i in 1 2 3; do\n"
    "  if ! git rebase origin/main > /tmp/rebase_out 2>&1; then\n"
    '    echo "REBASE CONFLICT"; git rebase --abort; break\n'
    "  fi\n"
    '  echo "rebase OK"\n'
    "  if git push origin main > /tmp/push_out 2>&1; then break; fi\n"
    "done"
)


@pytest.mark.parametrize(
    ("output", "pushed"),
    [
        ("REBASE CONFLICT\n", False),  # the loop broke before its echo: the push never ran
        ("rebase OK\n", True),
        ("rebase OK\n... [12 lines truncated] ...\n", True),
    ],
)
def test_a_redirect_after_an_echo_the_output_lacks_wrote_nothing(output: str, pushed: bool) -> None:
    written = [op.path for op in analyze(_RETRY, output=output).operations if op.action == "write"]
    assert ("/tmp/push_out" in written) is pushed
    assert "/tmp/rebase_out" in written


@pytest.mark.parametrize(
    "command",
    [
        'echo start; { echo "done"; date > stamp.txt; } > log.txt',  # its echo went to a file
        '(echo "done"; date > stamp.txt) | tail -1',  # ...or into a pipe
        'echo start; echo "done" > log.txt; date > stamp.txt',
    ],
)
def test_an_echo_whose_output_went_elsewhere_says_nothing_of_what_ran(command: str) -> None:
    written = [op.path for op in analyze(command, output="start\n").operations]
    assert f"{ROOT}/stamp.txt" in written


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # `&&` skipped the echo, not the step after the `;`.
        ("diff a.md b.md && echo IDENTICAL; sed -n '1,5p' c.md", "3c3\n< x\n---\n> y\n"),
        # The harness gave back a notice, not the command's output.
        (
            'rm -f x.log; echo "=== log ==="; cat c.md',
            "Command running in background with ID: b5db730. Output is being written to: /tmp/o",
        ),
    ],
)
def test_an_echo_missing_from_the_output_stops_nothing_it_may_not_have_reached(
    command: str, output: str
) -> None:
    reads = [op.path for op in analyze(command, output=output).operations if op.action == "read"]
    assert reads == [f"{ROOT}/c.md"]


def test_an_echo_of_a_variable_proves_nothing_whatever_its_guessed_value() -> None:
    # `$SEEN` is guessed from one branch of its test; the run printed the other, and went on.
    command = (
        'SEEN=$([ -f ~/.seen ] && echo "yes" || echo "no")\n'
        'echo "SEEN: $SEEN"\n'
        "echo '{}' >> usage.jsonl"
    )
    written = [op.path for op in analyze(command, output="SEEN: no\n").operations]
    assert f"{ROOT}/usage.jsonl" in written


class TestInstall:
    """``install`` copies files into place, with a mode; ``-d`` only makes folders."""

    @pytest.mark.parametrize(
        ("command", "written"),
        [
            (
                'rm bin/tool && install -m 0755 "$SHIM" bin/tool',
                [("delete", "bin/tool"), ("write", "bin/tool")],
            ),
            ("install -m 755 build/app /usr/local/bin/app", [("write", "/usr/local/bin/app")]),
            ("install -t bin a.sh b.sh", [("write", "bin/a.sh"), ("write", "bin/b.sh")]),
            ("install -d out/logs", []),
        ],
    )
    def test_what_it_writes(self, command: str, written: list[tuple[str, str]]) -> None:
        assert effects(analyze(command)) == written
