"""The README and docs/ show what the tool does now: examples, help and JSON keys are regenerated and compared."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from artifact_index.presentation.cli import build_parser, main
from tests.support.command_help import COMMANDS_PAGE, HELP_BLOCK, with_current_help

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = {
    path.name: path.read_text(encoding="utf-8") for path in sorted((ROOT / "docs").glob("*.md"))
}
PAGES = {"README.md": README, **{f"docs/{name}": text for name, text in DOCS.items()}}
EXAMPLE = "examples/claude-code-session.jsonl"
QUICK_START_LINES = 40


def test_the_readme_opens_with_the_two_commands() -> None:
    blocks = re.findall(r"```sh\n(.*?)\n```", README, re.S)
    assert "artifact-index files examples/" in blocks[0] and "python3 -m venv" in blocks[0]
    assert "pytest" in blocks[1] and "python3 -m venv" in blocks[1]


def test_the_readme_says_how_to_run_the_tests_that_need_the_corpus() -> None:
    # The variable the tests read (tests/support/paths.py), named where the test command is.
    paths = (ROOT / "tests" / "support" / "paths.py").read_text(encoding="utf-8")
    variable = re.search(r'os\.environ\.get\("(\w+)"\)', paths)
    assert variable is not None
    test_command = README.split("Run the test suite", 1)[1].split("## ", 1)[0]
    for page in (test_command, (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")):
        assert f"`{variable.group(1)}`" in page


def test_the_quick_start_is_the_first_forty_lines() -> None:
    top = "\n".join(README.splitlines()[:QUICK_START_LINES])
    assert "## Quick start" in top and "\nNext: " in top
    commands = " ".join(re.findall(r"```sh\n(.*?)\n```", top, re.S)[2:])
    for step in ("uv tool install", "artifact-index install claude-code", "artifact-index doctor"):
        assert step in commands
    assert re.search(r"artifact-index files \S", commands)
    assert re.search(r"artifact-index summary \S", commands)


def test_the_readme_shows_an_openai_compatible_provider_and_evaluate_as_commands() -> None:
    commands = "\n".join(re.findall(r"```sh\n(.*?)\n```", README, re.S))
    assert re.search(
        r"artifact-index summary \S+ .*--provider openai --base-url \S+ --model \S+", commands
    )
    assert re.search(r"artifact-index evaluate \S+ \S+\.md", commands)


EXAMPLES = [
    (page, command, path, output)
    for page, text in PAGES.items()
    for command, path, output in re.findall(
        r"```text\n\$ artifact-index (\w+) (examples/\S+)\n(.*?)```", text, re.S
    )
]


def test_the_readme_shows_files_show_and_a_submission() -> None:
    shown = {(command, path) for page, command, path, _ in EXAMPLES if page == "README.md"}
    assert shown >= {
        ("files", EXAMPLE),
        ("show", EXAMPLE),
        ("files", "examples/mini-swe-agent.traj.json"),
    }


@pytest.mark.parametrize(
    ("page", "command", "path", "output"),
    EXAMPLES,
    ids=[f"{page}: {command} {path}" for page, command, path, _ in EXAMPLES],
)
def test_example_output_in_the_docs_is_real(
    page: str,
    command: str,
    path: str,
    output: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    assert main([command, path]) == 0
    assert capsys.readouterr().out.strip() == output.strip()


def _commands() -> list[str]:
    parser = build_parser()
    action = next(a for a in parser._actions if a.dest == "command")
    return list(action.choices)  # type: ignore[arg-type]


def test_every_command_has_its_help_on_the_commands_page() -> None:
    page = COMMANDS_PAGE.read_text(encoding="utf-8")
    documented = [match.group(1) for match in HELP_BLOCK.finditer(page) if match.group(1)]
    assert sorted(documented) == sorted(_commands())
    for command in _commands():
        assert f"\n## {command}\n" in page


def test_the_help_on_the_commands_page_is_what_the_commands_print() -> None:
    page = COMMANDS_PAGE.read_text(encoding="utf-8")
    # `python -m tests.support.command_help` brings the page up to date.
    assert with_current_help(page) == page


def _keys_table() -> dict[str, list[str]]:
    rows = re.findall(r"^\| `(\w+)` \| (`schema_version`.*?) \|$", DOCS["json.md"], re.M)
    return {command: re.findall(r"`(\w+)`", keys) for command, keys in rows}


def _printed(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(list(argv)) in (0, 1)
    document: dict[str, object] = json.loads(capsys.readouterr().out.splitlines()[0])
    return document


def test_the_json_keys_of_every_command_are_as_documented(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / ".codex"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / ".config"))
    store = str(tmp_path / "sessions.db")
    summary = tmp_path / "summary.md"
    assert main(["summary", EXAMPLE, "--no-llm"]) == 0
    summary.write_text(capsys.readouterr().out, encoding="utf-8")
    runs = {
        "history": ["history", EXAMPLE, "auth.py", "--json"],
        "probe": ["probe", EXAMPLE, str(summary), "--json"],
        "store": ["store", EXAMPLE, "--store", store, "--json"],
        "sessions": ["sessions", "--store", store, "--json"],
        "where": ["where", "auth.py", "--store", store, "--json"],
        "compact": ["compact", "examples/anthropic-messages.json", "--force", "--no-llm"],
        "formats": ["formats", "--json"],
        "doctor": ["doctor", "--json"],
    }
    table = _keys_table()
    assert set(table) >= {"files", "show", "compact", "sessions", "doctor"}
    for command, keys in table.items():
        argv = runs.get(command, [command, EXAMPLE, "--json"])
        assert list(_printed(capsys, *argv)) == keys, command


LINK = re.compile(r"\]\(([^)#\s]*)(?:#([\w-]+))?\)")


def _anchors(text: str) -> set[str]:
    headings = re.findall(r"^#+ (.+)$", text, re.M)
    return {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-") for h in headings}


def test_every_link_between_the_pages_leads_somewhere() -> None:
    broken = []
    for page, text in PAGES.items():
        folder = (ROOT / page).parent
        for target, anchor in LINK.findall(text):
            if target.startswith(("http://", "https://")):
                continue
            path = (folder / target) if target else ROOT / page
            if not path.exists():
                broken.append(f"{page}: {target}")
            elif anchor and anchor not in _anchors(path.read_text(encoding="utf-8")):
                broken.append(f"{page}: {target}#{anchor}")
    assert broken == []


def test_no_page_and_no_help_speaks_in_internal_names() -> None:
    everything = "\n".join(PAGES.values())
    assert not re.search(r"\bseeds? ?0\d\d\b", everything, re.I)
    page = COMMANDS_PAGE.read_text(encoding="utf-8")
    assert not re.search(r"\bseeds? ?0\d\d\b", page, re.I)
