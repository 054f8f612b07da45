"""What each change did: the definitions a file gained by their signature and doc line, the tests it gained by
name, the headings or first lines of a file without definitions; the current thread's files first in line.

"4 added definition(s)" and "+65/-25 lines" tell the agent that continues that something changed, not what:
these tests pin the words the change itself wrote coming through, and nothing that was not written.
"""

from __future__ import annotations

import difflib

from artifact_index.facts.changes import (
    added_tests,
    changed_code,
    changed_lines,
    changed_outline,
    definition_notes,
)
from artifact_index.ingestion.events import AssistantMessage, UserMessage
from artifact_index.trail.index import SymbolEntry
from tests.support.session_steps import ROOT, edit, read, section, shell, summary_of, write

OVERLAP_BEFORE = """\
package strategy

// subtractFiles returns the files of a that are not in b.
func subtractFiles(a []string, b map[string]struct{}) []string {
\treturn nil
}
"""

OVERLAP_ADDED = """
// filesWithRemainingAgentChanges returns files from filesTouched that still have
// uncommitted agent changes. It is used for carry-forward after partial commits.
func filesWithRemainingAgentChanges(
\trepo *git.Repository,
\tfilesTouched []string,
) []string {
\treturn nil
}
"""


def _added(name: str, kind: str = "function", container: str | None = None) -> SymbolEntry:
    return SymbolEntry(name=name, kind=kind, container=container, change="added", turns=[3])


def test_an_added_go_function_is_shown_by_its_signature_and_the_first_sentence_of_its_doc() -> None:
    content = OVERLAP_BEFORE + OVERLAP_ADDED
    notes = definition_notes(
        content, "strategy/content_overlap.go", [_added("filesWithRemainingAgentChanges")]
    )
    assert notes == {
        "filesWithRemainingAgentChanges": (
            "func filesWithRemainingAgentChanges(repo *git.Repository, filesTouched []string) []string",
            "filesWithRemainingAgentChanges returns files from filesTouched that still have uncommitted agent "
            "changes.",
        )
    }


def test_a_python_docstring_and_an_elixir_doc_are_read_too() -> None:
    python = (
        "import math\n\n\ndef rounded(total: float,\n            places: int = 2) -> float:\n"
        '    """Round a cart total half-even. Used by the receipt."""\n    return total\n'
    )
    assert definition_notes(python, "shop/cart.py", [_added("rounded")]) == {
        "rounded": (
            "def rounded(total: float, places: int = 2) -> float",
            "Round a cart total half-even.",
        )
    }
    elixir = (
        'defmodule Shop.Cart do\n  @doc """\n  Closes every open annotation of the project.\n  """\n'
        "  @spec close_all(term()) :: :ok\n  def close_all(project) do\n    :ok\n  end\nend\n"
    )
    notes = definition_notes(
        elixir, "lib/shop/cart.ex", [_added("close_all", container="Shop.Cart")]
    )
    assert notes == {
        "Cart.close_all": ("def close_all(project)", "Closes every open annotation of the project.")
    }


def test_a_definition_without_a_doc_has_its_signature_alone_and_a_module_has_neither() -> None:
    elixir = "defmodule Shop.Cart do\n  def total(lines), do: Enum.sum(lines)\nend\n"
    notes = definition_notes(
        elixir,
        "lib/shop/cart.ex",
        [_added("Shop.Cart", kind="module"), _added("total", container="Shop.Cart")],
    )
    assert notes == {"Cart.total": ("def total(lines), do: Enum.sum(lines)", None)}


def test_tests_declared_by_a_call_are_named_like_test_functions() -> None:
    diff = (
        "--- a/test/cart_test.exs\n+++ b/test/cart_test.exs\n@@ -1,2 +1,6 @@\n"
        '+  describe "close_review_session" do\n+    test "closes all open annotations and shows count" do\n'
        '+    test("keeps closed ones closed", fn -> :ok end)\n   end\n'
    )
    assert added_tests(diff, "test/cart_test.exs", []) == [
        "closes all open annotations and shows count",
        "keeps closed ones closed",
    ]
    assert (
        added_tests(diff, "lib/cart.ex", []) == []
    )  # not a test file: a `test "..."` line there is no test
    go = [_added("TestRounding"), _added("helper")]
    assert added_tests(None, "cart/cart_test.go", go) == ["TestRounding"]


def test_a_file_without_definitions_says_its_headings_or_first_lines_and_a_lockfile_nothing() -> (
    None
):
    markdown = (
        "--- /dev/null\n+++ b/docs/scenarios.md\n@@ -0,0 +1,7 @@\n+# Checkpoint scenarios\n+\n"
        "+## Overview\n+### Key points\n+## Known caveats\n+#### Deep detail\n+Some prose.\n"
    )
    # The top two levels first, then the deeper ones: a list cut short counts them all.
    assert changed_lines(markdown, "docs/scenarios.md") == [
        "Checkpoint scenarios",
        "Overview",
        "Known caveats",
        "Key points",
        "Deep detail",
    ]
    config = (
        "--- a/config/test.exs\n+++ b/config/test.exs\n@@ -1,1 +1,4 @@\n import Config\n"
        "+import Config\n+# Disable trace exporting during tests\n+config :opentelemetry, traces_exporter: :none\n"
    )
    assert changed_lines(config, "config/test.exs") == [
        "# Disable trace exporting during tests",
        "config :opentelemetry, traces_exporter: :none",
    ]
    assert (
        changed_lines(
            '--- a/package-lock.json\n+++ b/package-lock.json\n+  "x": 1\n', "package-lock.json"
        )
        == []
    )


def test_the_files_changed_section_says_what_each_change_did_and_leaves_out_read_only_turns() -> (
    None
):
    path = f"{ROOT}/strategy/content_overlap.go"
    summary = summary_of(
        UserMessage(turn=1, text="Carry forward only the files with agent changes left."),
        read(2, path, OVERLAP_BEFORE),
        edit(3, path, old="\treturn nil\n}\n", new="\treturn nil\n}\n" + OVERLAP_ADDED),
        read(4, path, OVERLAP_BEFORE + OVERLAP_ADDED),
        write(5, f"{ROOT}/docs/overlap.md", "# Carry-forward\n\n## Why\n\nBecause.\n"),
    )
    changed = section(summary, "Files Changed")
    assert (
        "- `strategy/content_overlap.go` (modified): `func filesWithRemainingAgentChanges(repo *git.Repository, "
        "filesTouched []string) []string` (returns files from filesTouched that still have uncommitted agent "
        "changes.) added; +9/-0 lines; turn 3"
    ) in changed
    assert "- `docs/overlap.md` (created): headings: `Carry-forward`, `Why`; turn 5" in changed


def test_the_current_threads_changes_lead_a_file_changed_before_it_too() -> None:
    path = f"{ROOT}/shop/cart.py"
    before = "def total(lines):\n    return sum(lines)\n\n\ndef tax(total):\n    return total\n"
    summary = summary_of(
        UserMessage(turn=1, text="Add VAT to the cart."),
        read(2, path, before),
        edit(
            3,
            path,
            old="def total(lines):\n    return sum(lines)\n",
            new="def total(lines):\n    return sum(lines)\n\n\ndef vat(total):\n    return 0.2\n",
        ),
        edit(4, path, old="    return sum(lines)\n", new="    return round(sum(lines), 2)\n"),
        edit(
            5,
            path,
            old="def tax(total):\n    return total\n",
            new="def tax(total):\n    return total * 1.2\n",
        ),
        AssistantMessage(turn=5, text="VAT is in."),
        UserMessage(turn=6, text="Now round the tax too."),
        edit(7, path, old="    return total * 1.2\n", new="    return round(total * 1.2, 2)\n"),
    )
    changed = section(summary, "Files Changed")
    # The rest latest first: the definition changed at turn 4, then the one added at turn 3; what the thread's
    # change does is its line, beside the one it replaced (not the whole session's line count).
    assert changed.startswith(
        "- `shop/cart.py` (modified): since turn 6, changed `tax`; `total` modified; "
        "`def vat(total)` added; changed lines: `return total` → `return round(total * 1.2, 2)`; "
        "turns 3, 4, 5, 7"
    )


def test_the_tests_a_file_gained_latest_are_named_first_when_not_all_fit() -> None:
    path = f"{ROOT}/shop/test_cart.py"
    early = "".join(f"def test_total_{n}():\n    assert True\n\n\n" for n in range(12))
    summary = summary_of(
        UserMessage(turn=1, text="Test the cart."),
        write(2, path, "import cart\n"),
        edit(3, path, old="import cart\n", new="import cart\n\n\n" + early),
        AssistantMessage(turn=3, text="Totals are covered."),
        UserMessage(turn=4, text="Now test the discount too."),
        edit(
            5,
            path,
            old="def test_total_11():\n    assert True\n",
            new="def test_total_11():\n    assert True\n\n\ndef test_discount_applies():\n    assert True\n",
        ),
    )
    changed = section(summary, "Files Changed")
    # The work in hand added `test_discount_applies`: it is named, ahead of the older ones cut by "and N more".
    assert "tests added: `test_discount_applies`, `test_total_0`" in changed
    assert "and 3 more" in changed


INVOKE_BEFORE = """class TestInvoke:
    def test_unknown_function_returns_404(self, client):
        actual_body = client.get("/functions/nope").json()
        assert "error" in actual_body
        assert expected_function_name in actual_body["error"]
"""


def test_a_changed_line_is_paired_with_the_removed_line_it_keeps_most_of() -> None:
    # Both removed lines start with `assert`: each new one replaced the one it is nearest to, so
    # the function-name check is not read as replaced by a check of another key.
    path = f"{ROOT}/tests/test_invoke.py"
    summary = summary_of(
        UserMessage(turn=1, text="The API now answers with Message, as AWS does."),
        read(2, path, INVOKE_BEFORE),
        edit(
            3,
            path,
            old='        assert "error" in actual_body\n'
            '        assert expected_function_name in actual_body["error"]\n',
            new='        assert "Message" in actual_body\n'
            '        assert expected_function_name in actual_body["Message"]\n',
        ),
    )
    line = next(
        line for line in section(summary, "Files Changed").splitlines() if "test_invoke.py" in line
    )
    assert '`assert "error" in actual_body` → `assert "Message" in actual_body`' in line
    assert '`assert expected_function_name in actual_body["error"]` → `assert "Message"' not in line


WAL_BEFORE = """\
package store

func openWAL(f *os.File) *walFile {
\tinfo, err := f.Stat()
\tif err == nil && info.Size() == 0 {
\t\twriteHeader(f)
\t}
\treturn &walFile{f: f}
}
"""


def test_a_condition_added_before_the_one_it_rewrote_replaced_nothing() -> None:
    # `if err == nil {` is new; the old guard became `if err == nil && fileSize == 0 {`, the new
    # line that keeps most of it. Paired with the first new `if`, the guard read as dropped.
    path = f"{ROOT}/store/wal.go"
    summary = summary_of(
        UserMessage(turn=1, text="Track the WAL file's size."),
        read(2, path, WAL_BEFORE),
        edit(
            3,
            path,
            old="\tif err == nil && info.Size() == 0 {\n",
            new="\tvar fileSize int64\n\tif err == nil {\n\t\tfileSize = info.Size()\n\t}\n"
            "\tif err == nil && fileSize == 0 {\n",
        ),
    )
    line = next(line for line in section(summary, "Files Changed").splitlines() if "wal.go" in line)
    assert "`if err == nil && info.Size() == 0 {` → `if err == nil {`" not in line
    assert "`if err == nil {`" in line
    after = WAL_BEFORE.replace(
        "\tif err == nil && info.Size() == 0 {\n",
        "\tvar fileSize int64\n\tif err == nil {\n\t\tfileSize = info.Size()\n\t}\n"
        "\tif err == nil && fileSize == 0 {\n",
    )
    diff = "".join(
        difflib.unified_diff(WAL_BEFORE.splitlines(True), after.splitlines(True), "a", "b", n=0)
    )
    modified = SymbolEntry(
        name="openWAL", kind="function", container=None, change="modified", turns=[3]
    )
    assert changed_code(diff, after, "wal.go", [modified])["openWAL"] == [
        "`if err == nil {`",
        "`fileSize = info.Size()`",
        "`if err == nil && info.Size() == 0 {` → `if err == nil && fileSize == 0 {`",
    ]


def test_a_declaration_of_another_name_replaced_nothing() -> None:
    # The key is no longer read from the user's key: new names are declared. Paired by `let`,
    # the last new declaration read as the old one rewritten.
    before = (
        "impl Fs {\n    fn create(&self) {\n"
        "        let private_key_arr: [u8; 32] = match self.key.try_into() {\n"
        "            Ok(arr) => arr,\n        };\n        use_key(private_key_arr);\n    }\n}\n"
    )
    after = (
        "impl Fs {\n    fn create(&self) {\n"
        "        let signing_key = SigningKey::generate(&mut OsRng);\n"
        "        let public_key_bytes: [u8; 32] = signing_key.verifying_key().to_bytes();\n"
        "        use_key(public_key_bytes);\n    }\n}\n"
    )
    diff = "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), n=0))
    modified = SymbolEntry(
        name="create", kind="method", container="Fs", change="modified", turns=[3]
    )
    lines = changed_code(diff, after, "fs.rs", [modified])["Fs.create"]
    assert not [line for line in lines if line.startswith("`let") and "→" in line]


def test_a_definition_a_checkout_took_away_again_is_not_shown_added() -> None:
    # test_b is added, then `git checkout` puts the file back before test_c is written: the
    # content now holds test_c alone, whatever the edits said one by one.
    path = f"{ROOT}/tests/test_parse.py"
    summary = summary_of(
        UserMessage(turn=1, text="Add tests for parse."),
        read(2, path, "def test_a():\n    assert parse('a')\n"),
        edit(
            3,
            path,
            old="    assert parse('a')\n",
            new="    assert parse('a')\n\n\ndef test_b():\n    assert parse('b')\n",
        ),
        shell(4, "git checkout -- tests/test_parse.py"),
        edit(
            5,
            path,
            old="    assert parse('a')\n",
            new="    assert parse('a')\n\n\ndef test_c():\n    assert parse('c')\n",
        ),
    )
    line = next(
        line for line in section(summary, "Files Changed").splitlines() if "test_parse.py" in line
    )
    assert "test_c" in line
    assert "test_b" not in line


def test_a_line_only_realigned_is_not_quoted_as_replaced_by_itself() -> None:
    # gofmt realigns a struct literal's fields when a longer one is renamed: `raw:  Endpoint{},`
    # becomes `raw: Endpoint{},`, which reads the same once quoted.
    before = (
        "func TestResolve(t *testing.T) {\n\tcases := []tc{{\n"
        '\t\tname: "no helper returns nil",\n\t\traw:  Endpoint{},\n\t}}\n\trun(cases)\n}\n'
    )
    after = (
        "func TestResolve(t *testing.T) {\n\tcases := []tc{{\n"
        '\t\tname: "returns nil (defer to helper on 401)",\n\t\traw: Endpoint{},\n\t}}\n\trun(cases)\n}\n'
    )
    diff = "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), n=0))
    modified = SymbolEntry(
        name="TestResolve", kind="function", container=None, change="modified", turns=[3]
    )
    lines = changed_code(diff, after, "auth_test.go", [modified])["TestResolve"]
    assert "`raw: Endpoint{},` → `raw: Endpoint{},`" not in lines
    assert any(line.startswith('`name: "no helper') for line in lines)


def test_a_hunk_that_starts_on_a_closing_fence_still_finds_the_headings_it_added() -> None:
    # The inserted section's heading comes right after the closing ``` of the block above it:
    # read from the hunk alone, that ``` would open a fence and hide the heading.
    content = (
        "# Tool\n\n```bash\nuv sync\n```\n\n### If the checkout is synced\n\nKeep it local:\n\n"
        "```bash\nexport X=1\n```\n\n## Validate\n\n```bash\nuv run pytest\n```\n"
    )
    diff = (
        "--- a/README.md\n+++ b/README.md\n@@ -5,2 +5,11 @@\n ```\n \n"
        "+### If the checkout is synced\n+\n+Keep it local:\n+\n+```bash\n+export X=1\n+```\n+\n"
        " ## Validate\n"
    )
    assert changed_outline(diff, "README.md", content) == (["If the checkout is synced"], True)
