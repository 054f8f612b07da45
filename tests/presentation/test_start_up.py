"""The commands a user waits on import only what they use.

A hook runs inside the agent's loop, and ``--help`` or ``files`` on a small
transcript should answer at once: start-up is most of their cost, and an
import that a command does not need (networkx's three hundred modules, the
packaging machinery that only ``serve`` uses to say how to install its extra)
is paid on every call.  Each case runs the command in a fresh interpreter
and lists what it imported.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from artifact_index.trail.collection import thaw_process
from tests.support.paths import ROOT

EXAMPLE = ROOT / "examples" / "claude-code-session.jsonl"

_IMPORTED = """
import contextlib, io, json, sys
from artifact_index.presentation.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
    main(sys.argv[2:])
with open(sys.argv[1], "w", encoding="utf-8") as out:
    json.dump(sorted(sys.modules), out)
"""

# Modules no command below uses: importing any of them is start-up paid for nothing.  (The
# secret scanner the redaction table was checked against, the tokenizer and the LLM SDKs are the
# heaviest the project installs; the summarizer's narrative, providers, compaction and evaluation
# are other commands' engines.)
_UNUSED = (
    "networkx",
    "packaging",
    "urllib.request",
    "http.client",
    "ssl",
    "detect_secrets",
    "tiktoken",
    "anthropic",
    "openai",
    "httpx",
    "summarizer.narrative",
    "summarizer.providers",
    "summarizer.compaction",
    "summarizer.evaluation",
)


def _unused(imported: set[str]) -> set[str]:
    return {
        name
        for name in imported
        if any(name == unused or name.startswith(unused + ".") for unused in _UNUSED)
    }


def _imported(tmp_path: Path, *command: str, stdin: str = "") -> set[str]:
    listed = tmp_path / "modules.json"
    env = {
        **os.environ,
        "ARTIFACT_INDEX_STATE_HOME": str(tmp_path / "state"),
        "ARTIFACT_INDEX_STORE": str(tmp_path / "store.db"),
    }
    subprocess.run(
        [sys.executable, "-c", _IMPORTED, str(listed), *command],
        input=stdin,
        text=True,
        capture_output=True,
        check=True,
        env=env,
        timeout=120,
    )
    return set(json.loads(listed.read_text(encoding="utf-8")))


@pytest.mark.parametrize(
    "command",
    [["hook"], ["--help"], ["files", str(EXAMPLE)]],
    ids=["hook", "help", "files"],
)
def test_a_command_imports_nothing_it_does_not_use(tmp_path: Path, command: list[str]) -> None:
    payload = {
        "hook_event_name": "SessionStart",
        "source": "compact",
        "transcript_path": str(EXAMPLE),
    }
    imported = _imported(tmp_path, *command, stdin=json.dumps(payload))
    assert "artifact_index.trail.index" in imported or command == ["--help"]
    assert not _unused(imported)


def test_a_session_start_hook_opens_no_store_and_takes_no_lock(tmp_path: Path) -> None:
    payload = {
        "hook_event_name": "SessionStart",
        "source": "compact",
        "transcript_path": str(EXAMPLE),
    }
    imported = _imported(tmp_path, "hook", stdin=json.dumps(payload))
    assert "artifact_index.trail.index" in imported
    # The store is PreCompact's (sqlite), the lock a compaction's state directory's (filelock).
    assert not {name for name in imported if name.split(".")[0] in ("sqlite3", "filelock")}
    assert "summarizer.evaluation.probes" not in imported  # PostCompact's


@pytest.mark.parametrize("command", [["hook"], ["files", str(EXAMPLE)]], ids=["hook", "files"])
def test_a_command_loads_no_parser_or_check_only_other_paths_use(
    tmp_path: Path, command: list[str]
) -> None:
    # The templates and their TOML parser, the narrative's consistency checks (the agent's last
    # message is not in a hook's output), a child process (only an OpenCode session is exported
    # by one) and the compaction's messages (the hook needs only the state directory's place)
    # are other paths' costs.
    payload = {
        "hook_event_name": "SessionStart",
        "source": "compact",
        "transcript_path": str(EXAMPLE),
    }
    imported = _imported(tmp_path, *command, stdin=json.dumps(payload))
    assert "artifact_index.trail.index" in imported
    others = {"tomllib", "subprocess", "summarizer.narrative.consistency"}
    assert not {*others, "summarizer.sections.templates", "summarizer.compaction.message_lists"} & (
        imported
    )


def test_a_hook_that_finds_nothing_appended_feeds_no_shell_command(tmp_path: Path) -> None:
    # The second call starts from the state the first kept: with nothing appended it analyzes
    # no command, so the shell analysis, its effect handlers and script readers stay unloaded.
    payload = json.dumps(
        {"hook_event_name": "SessionStart", "source": "compact", "transcript_path": str(EXAMPLE)}
    )
    assert "artifact_index.shell.analysis" in _imported(tmp_path, "hook", stdin=payload)
    again = _imported(tmp_path, "hook", stdin=payload)
    assert "artifact_index.trail.tracker" in again
    assert not {name for name in again if name.startswith("artifact_index.shell.effects")}
    assert "artifact_index.shell.analysis" not in again
    # Nor is a grammar loaded: ctypes only opens the bundled grammars' library; nor tree-sitter.
    assert "ctypes" not in again
    assert not {name for name in again if name.split(".")[0] == "tree_sitter"}
    # Nor the parser that builds the command model from the grammar's tree, the formatters' effects
    # or the readers of git's status output.
    assert (
        not {f"artifact_index.shell.parser.{name}" for name in ("bash_grammar", "heredocs", "tree")}
        & again
    )
    assert not {"artifact_index.shell.formatters", "artifact_index.trail.tree_status"} & again


_COLLECTIONS = """
import gc, json, os, sys
started = []
gc.callbacks.append(lambda phase, info: started.append(info["generation"]) if phase == "start" else None)
listed, sys.argv = sys.argv[1], ["artifact-index", *sys.argv[2:]]
def written(code):
    with open(listed, "w", encoding="utf-8") as out:
        json.dump({"code": code, "collections": len(started)}, out)
# A hook ends its own process with its answer (os._exit): the count is written on the way.
ending = os._exit
os._exit = lambda code: (written(code), ending(code))
from artifact_index.presentation.command import main
written(main())
"""


@pytest.mark.parametrize("command", [["hook"], ["files", str(EXAMPLE)]], ids=["hook", "files"])
def test_a_command_imports_what_it_runs_on_with_the_collector_held_off(
    tmp_path: Path, command: list[str]
) -> None:
    # Importing a command's engine allocates a few hundred thousand objects that live as long as
    # the process: with the collector on, about eighty collections (a tenth of the start-up) that
    # free nothing.  What is left is the command's own work on a small transcript.
    listed = tmp_path / "collections.json"
    payload = {
        "hook_event_name": "SessionStart",
        "source": "compact",
        "transcript_path": str(EXAMPLE),
    }
    env = {
        **os.environ,
        "ARTIFACT_INDEX_STATE_HOME": str(tmp_path / "state"),
        "ARTIFACT_INDEX_STORE": str(tmp_path / "store.db"),
    }
    for _ in range(2):  # the second hook starts from the state the first kept
        subprocess.run(
            [sys.executable, "-c", _COLLECTIONS, str(listed), *command],
            input=json.dumps(payload),
            text=True,
            capture_output=True,
            check=True,
            env=env,
            timeout=120,
        )
    done = json.loads(listed.read_text(encoding="utf-8"))
    assert done["code"] == 0
    assert done["collections"] < 40


_LISTED = """
import importlib, json, sys
for name in sys.argv[2:]:
    importlib.import_module(name)
with open(sys.argv[1], "w", encoding="utf-8") as out:
    json.dump(sorted(sys.modules), out)
"""


def _imported_by(tmp_path: Path, *modules: str) -> set[str]:
    listed = tmp_path / "imported.json"
    subprocess.run(
        [sys.executable, "-c", _LISTED, str(listed), *modules],
        capture_output=True,
        check=True,
        timeout=120,
    )
    return set(json.loads(listed.read_text(encoding="utf-8")))


_FACTS_VALIDATED = """
import contextlib, io, json, sys
from artifact_index.presentation.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    main(["hook"])
from summarizer.sections.summary_facts import SessionFacts
print(json.dumps(SessionFacts.__pydantic_complete__))
"""


def test_a_hook_builds_no_validator_for_the_facts_it_renders(tmp_path: Path) -> None:
    # The summary's facts are the index's report, validated when it was made, plus what only the
    # events tell: building a validator for their hundred fields to check them again would cost
    # a hook a twentieth of its start-up, so they are constructed as they are.
    payload = json.dumps(
        {"hook_event_name": "SessionStart", "source": "compact", "transcript_path": str(EXAMPLE)}
    )
    env = {**os.environ, "ARTIFACT_INDEX_STATE_HOME": str(tmp_path / "state")}
    for _ in range(2):  # the first hook reads the transcript, the second starts from its state
        done = subprocess.run(
            [sys.executable, "-c", _FACTS_VALIDATED],
            input=payload,
            text=True,
            capture_output=True,
            check=True,
            env=env,
            timeout=120,
        )
        assert json.loads(done.stdout) is False


def test_reading_a_command_line_does_not_load_the_shell_analysis(tmp_path: Path) -> None:
    # The error checks only ask which programs a command runs (shell.simple_commands): the
    # shell package's names are loaded when asked for, not with any of its modules.
    imported = _imported_by(tmp_path, "artifact_index.facts.errors.checks")
    assert "artifact_index.shell.simple_commands" in imported
    assert "artifact_index.shell.analysis" not in imported
    from artifact_index import shell
    from artifact_index.shell import analysis, state

    assert shell.analyze_command is analysis.analyze_command
    assert (shell.ShellAnalysis, shell.ShellContext) == (analysis.ShellAnalysis, state.ShellContext)
    with pytest.raises(AttributeError):
        _ = shell.no_such_name  # type: ignore[attr-defined]


def test_importing_the_commands_builds_no_model_validator(tmp_path: Path) -> None:
    # Models are built when first used: one built at import (a model instance as a field's
    # default) costs every command its schema, and pydantic's scan of the installed packages for
    # its plugins.
    imported = _imported_by(
        tmp_path,
        "summarizer.integrations.hooks",
        "summarizer.integrations.hook_state",
        "artifact_index.presentation.render",
        "artifact_index.trail.session_report",
    )
    assert "pydantic.plugin._loader" not in imported


def test_help_imports_no_adapter_no_renderer_and_no_model(tmp_path: Path) -> None:
    imported = _imported(tmp_path, "--help")
    assert not {
        name
        for name in imported
        if name.startswith(("artifact_index.ingestion.adapters", "artifact_index.trail"))
        or name == "artifact_index.presentation.render"
        or name.split(".")[0] == "pydantic"  # the template models, through --template's default
        # The redaction: nothing --help prints goes through it.
        or name.startswith("artifact_index.redaction")
    }


_COMPILED = """
import contextlib, io, re, sys
compiled = set()
compile_pattern = re._compile
def counting(pattern, flags):
    compiled.add((pattern, flags))
    return compile_pattern(pattern, flags)
re._compile = counting
import summarizer.integrations.hooks, artifact_index.presentation.render
print(len(compiled))
"""


def test_importing_the_commands_compiles_few_regular_expressions() -> None:
    # The engine holds several hundred module-level patterns; they are compiled when first
    # used (artifact_index.lazy_pattern), not by every command's imports.
    done = subprocess.run(
        [sys.executable, "-c", _COMPILED], capture_output=True, text=True, check=True, timeout=120
    )
    assert int(done.stdout) < 100


def test_the_console_script_leaves_the_collector_on_for_the_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from artifact_index.presentation import command

    collecting: list[bool] = []
    monkeypatch.setattr(
        "artifact_index.presentation.cli.main", lambda: collecting.append(gc.isenabled()) or 7
    )
    try:
        assert command.main() == 7
        assert gc.get_freeze_count() > 0  # what was imported is left out of later collections
    finally:
        thaw_process()
    assert collecting == [True] and gc.isenabled()
