"""Patch texts -> file operations: the apply_patch envelope and unified diffs."""

from __future__ import annotations

from artifact_index.ingestion.events import FileOperation
from artifact_index.ingestion.patches import (
    parse_apply_patch,
    parse_patch,
    parse_unified_diff,
    strip_diff_prefix,
)


def _summary(ops: list[FileOperation]) -> list[tuple[str, str | None, str | None]]:
    return [(op.action, op.path, op.dest) for op in ops]


ENVELOPE = """*** Begin Patch
*** Add File: docs/new.md
+# New
+
+body
*** Update File: src/app.py
@@ def main():
-    print("old")
+    print("new")
*** Delete File: old/unused.py
*** Update File: src/name.py
*** Move to: src/renamed.py
@@
-x = 1
+x = 2
*** Update File: src/pure_move.py
*** Move to: src/moved.py
*** End Patch
"""


def test_envelope_add_update_delete_move() -> None:
    ops = parse_apply_patch(ENVELOPE)
    assert _summary(ops) == [
        ("create", "docs/new.md", None),
        ("edit", "src/app.py", None),
        ("delete", "old/unused.py", None),
        ("move", "src/name.py", "src/renamed.py"),
        ("edit", "src/renamed.py", None),
        ("move", "src/pure_move.py", "src/moved.py"),
    ]
    assert all(op.source == "patch" for op in ops)


def test_envelope_add_keeps_the_new_content() -> None:
    create = parse_apply_patch(ENVELOPE)[0]
    assert create.content == "# New\n\nbody\n"


def test_envelope_update_keeps_the_hunk_for_symbols() -> None:
    edit = parse_apply_patch(ENVELOPE)[1]
    assert edit.diff is not None
    assert '-    print("old")' in edit.diff and '+    print("new")' in edit.diff


def test_move_with_context_only_lines_is_not_an_edit() -> None:
    text = (
        "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n context\n\n*** End Patch\n"
    )
    assert _summary(parse_apply_patch(text)) == [("move", "a.py", "b.py")]


def test_envelope_inside_a_shell_heredoc() -> None:
    # Codex intercepts `apply_patch <<'EOF' ... EOF` run through its shell tool.
    text = "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: x.txt\n+hi\n*** End Patch\nEOF\n"
    assert _summary(parse_patch(text)) == [("create", "x.txt", None)]


def test_envelope_end_of_file_marker_is_not_content() -> None:
    text = "*** Begin Patch\n*** Update File: a.py\n@@\n-a\n+b\n*** End of File\n*** End Patch"
    (edit,) = parse_apply_patch(text)
    assert edit.diff == "@@\n-a\n+b"


GIT_DIFF = """diff --git a/src/app.py b/src/app.py
index 1111111..2222222 100644
--- a/src/app.py
+++ b/src/app.py
@@ -1,3 +1,3 @@
 import os
-x = 1
+x = 2
 print(x)
diff --git a/docs/new.md b/docs/new.md
new file mode 100644
index 0000000..3333333
--- /dev/null
+++ b/docs/new.md
@@ -0,0 +1,2 @@
+# Title
+text
diff --git a/old.txt b/old.txt
deleted file mode 100644
index 4444444..0000000
--- a/old.txt
+++ /dev/null
@@ -1 +0,0 @@
-gone
diff --git a/lib/a.py b/lib/b.py
similarity index 90%
rename from lib/a.py
rename to lib/b.py
index 5555555..6666666 100644
--- a/lib/a.py
+++ b/lib/b.py
@@ -1 +1 @@
-a = 1
+b = 1
diff --git a/same.py b/renamed_only.py
similarity index 100%
rename from same.py
rename to renamed_only.py
"""


def test_unified_diff_new_deleted_renamed() -> None:
    ops = parse_unified_diff(GIT_DIFF)
    assert _summary(ops) == [
        ("edit", "src/app.py", None),
        ("create", "docs/new.md", None),
        ("delete", "old.txt", None),
        ("move", "lib/a.py", "lib/b.py"),
        ("edit", "lib/b.py", None),
        ("move", "same.py", "renamed_only.py"),
    ]
    assert ops[1].content == "# Title\ntext\n"


def test_removed_lines_that_look_like_file_headers_stay_in_the_hunk() -> None:
    # SQL comments: the removed line "-- old comment" is written "--- old comment".
    text = """diff --git a/schema.sql b/schema.sql
--- a/schema.sql
+++ b/schema.sql
@@ -1,4 +1,3 @@
 CREATE TABLE t (id int);
--- old comment
--- another
+-- new comment
diff --git a/b.sql b/b.sql
--- a/b.sql
+++ b/b.sql
@@ -1 +1 @@
-x
+y
"""
    ops = parse_unified_diff(text)
    assert _summary(ops) == [("edit", "schema.sql", None), ("edit", "b.sql", None)]
    assert ops[0].diff is not None and "--- old comment" in ops[0].diff


def test_wrong_hunk_counts_do_not_swallow_the_next_file() -> None:
    # The hunk claims 5 lines but has 2; the next file must still be found.
    text = """--- a/one.py
+++ b/one.py
@@ -1,5 +1,5 @@
-a
+b
--- a/two.py
+++ b/two.py
@@ -1 +1 @@
-c
+d
"""
    assert _summary(parse_unified_diff(text)) == [
        ("edit", "one.py", None),
        ("edit", "two.py", None),
    ]


def test_plain_diff_u_with_timestamps() -> None:
    text = "--- app.py.orig\t2024-01-01 10:00:00\n+++ app.py\t2024-01-01 10:01:00\n@@ -1 +1 @@\n-a\n+b\n"
    assert _summary(parse_patch(text)) == [("edit", "app.py", None)]


def test_paths_with_spaces_and_quoted_paths() -> None:
    text = (
        "diff --git a/my docs/read me.md b/my docs/read me.md\n"
        "new file mode 100644\n"
        "--- /dev/null\n"
        "+++ b/my docs/read me.md\n"
        "@@ -0,0 +1 @@\n"
        "+hello\n"
        'diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"\n'
        "deleted file mode 100644\n"
    )
    assert _summary(parse_unified_diff(text)) == [
        ("create", "my docs/read me.md", None),
        ("delete", "café.txt", None),
    ]


def test_copy_is_a_copy_not_an_edit() -> None:
    text = "diff --git a/a.py b/c.py\nsimilarity index 100%\ncopy from a.py\ncopy to c.py\n"
    assert _summary(parse_unified_diff(text)) == [("copy", "a.py", "c.py")]


def test_binary_new_file_has_no_claimed_content() -> None:
    text = (
        "diff --git a/logo.png b/logo.png\nnew file mode 100644\nindex 0000000..1111111\n"
        "Binary files /dev/null and b/logo.png differ\n"
    )
    (create,) = parse_unified_diff(text)
    assert (create.action, create.path, create.content) == ("create", "logo.png", None)


def test_strip_diff_prefix() -> None:
    assert strip_diff_prefix("a/src/x.py") == "src/x.py"
    assert strip_diff_prefix("b/src/x.py\t2024-01-01") == "src/x.py"
    assert strip_diff_prefix('"a/sp ace.py"') == "sp ace.py"


def test_text_that_is_no_patch() -> None:
    assert parse_patch("just some words\nnothing else") == []
