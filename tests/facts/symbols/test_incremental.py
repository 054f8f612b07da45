"""A file edited again and again is reparsed incrementally, with the answers of a fresh parse."""

from __future__ import annotations

import gzip
import json
import textwrap
from pathlib import Path

import pytest

from artifact_index.facts.symbols import extraction
from artifact_index.facts.symbols.definitions import (
    changed_symbols,
    language_for_path,
    symbols_in_range,
)

PYTHON = textwrap.dedent(
    '''\
    import time


    class AuthService:
        """Issues and checks tokens."""

        def create_token(self, user):
            return f"{user}:{time.time()}"

        def revoke(self, token):
            self.revoked.add(token)


    def helper(value):
        return value.strip()
    '''
)

# Each step replaces one text by another in the file as the previous step left it.
PYTHON_STEPS = [
    ("return value.strip()", "return value.strip().lower()"),  # inside a top-level function
    (
        "self.revoked.add(token)",
        "self.revoked.add(token)\n        self.log(token)",
    ),  # inside a method
    ("class AuthService:", "class TokenService:"),  # the container of both methods renamed
    ("def helper(value):", "@cache\ndef helper(value):"),  # a decorator added
    ("    def revoke(self, token):", "    def revoke(self, token:"),  # broken code
    ("    def revoke(self, token:", "    def revoke(self, token):"),  # and mended
    (
        "import time\n",
        "import time\n\n\ndef first():\n    pass\n",
    ),  # a definition before all others
    (
        "\n\n@cache\ndef helper(value):",
        "\n\ndef _unused():\n    pass\n\n\n@cache\ndef helper(value):",
    ),
    ("\n\ndef first():\n    pass\n", ""),  # a definition removed
]

RUST = textwrap.dedent(
    """\
    #[derive(Debug)]
    struct Token {
        value: String,
    }

    impl Token {
        fn new(value: String) -> Self {
            Token { value }
        }
    }
    """
)

RUST_STEPS = [
    (
        "#[derive(Debug)]",
        "#[derive(Debug, Clone)]",
    ),  # an attribute that belongs to the struct after it
    ("Token { value }", "Token { value: value.trim().to_string() }"),
    ("impl Token {", "impl Tokens {"),
]


def _fresh(before: str, after: str, path: str) -> object:
    extraction.clear_caches()
    return changed_symbols(before, after, path)


@pytest.mark.parametrize(
    ("path", "text", "steps"), [("auth.py", PYTHON, PYTHON_STEPS), ("token.rs", RUST, RUST_STEPS)]
)
def test_each_edit_of_a_file_reports_what_a_fresh_parse_reports(
    path: str, text: str, steps: list[tuple[str, str]]
) -> None:
    incremental, fresh = [], []
    extraction.clear_caches()
    for old, new in steps:
        assert text.count(old) == 1, old
        after = text.replace(old, new)
        incremental.append(changed_symbols(text, after, path))
        text = after
    text = {"auth.py": PYTHON, "token.rs": RUST}[path]
    for old, new in steps:
        after = text.replace(old, new)
        fresh.append(_fresh(text, after, path))
        text = after
    assert incremental == fresh
    assert all(incremental[i] for i in (0, 1, 2))  # the steps do change definitions


def test_line_numbers_after_an_edit_follow_the_lines_it_added() -> None:
    extraction.clear_caches()
    after = PYTHON.replace("import time\n", "import time\nimport os\nimport re\n")
    changed_symbols(PYTHON, after, "auth.py")
    helper = [d for d in symbols_in_range(after, "auth.py", None, None) if d.name == "helper"]
    assert [(d.start_line, d.end_line) for d in helper] == [(16, 17)]


# Enough real edits to cover Go, Elixir, TypeScript, Rust and shell, few enough to stay fast.
LIMIT = 250


def test_real_edits_applied_one_after_another_match_fresh_parses(corpus_dir: Path) -> None:
    """Claude Code's edits from the corpus, in session order, with each file's tree kept between them."""
    edits: list[tuple[str, str, str]] = []
    for transcript in sorted((corpus_dir / "claude_code").glob("*.jsonl.gz")):
        if len(edits) >= LIMIT:
            break
        with gzip.open(transcript, "rt", encoding="utf-8") as lines:
            for line in lines:
                if '"originalFile"' not in line:
                    continue
                result = json.loads(line).get("toolUseResult")
                if (
                    not isinstance(result, dict)
                    or not isinstance(result.get("originalFile"), str)
                    or not isinstance(result.get("oldString"), str)
                    or not isinstance(result.get("newString"), str)
                ):
                    continue
                if language_for_path(result["filePath"]) is None:
                    continue
                before = result["originalFile"]
                after = before.replace(
                    result["oldString"], result["newString"], -1 if result.get("replaceAll") else 1
                )
                edits.append((result["filePath"], before, after))
    assert len(edits) >= LIMIT
    extraction.clear_caches()
    kept = [changed_symbols(before, after, path) for path, before, after in edits]
    assert kept == [_fresh(before, after, path) for path, before, after in edits]
