"""The layout is the architecture: each layer imports only the layers beneath it.

::

    summarizer          summaries, compaction, integrations (may import the engine)
    artifact_index
      presentation      tables, JSON, the command line
      live              transcripts followed as they grow, the session store, the watcher
      batch             many transcripts in parallel: discovery, workers, progress
      trail             tracker, graph index, submission
      facts             symbols, errors and tests, decisions, tasks
      shell             what a shell command does to files: parser, effects, scripts
      ingestion         sources, adapters, events, patches
      exceptions

The engine never imports the summarizer: the summarizer's commands join the
command line through an entry-point group.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "artifact_index"

# What each engine layer may import from the engine, besides itself and the exceptions.
ALLOWED = {
    "ingestion": set(),
    "shell": {"ingestion"},
    "facts": {"ingestion", "shell"},
    "trail": {"ingestion", "shell", "facts"},
    "batch": {"ingestion", "shell", "facts", "trail"},
    "live": {"ingestion", "shell", "facts", "trail", "batch"},
    "presentation": {"ingestion", "shell", "facts", "trail", "batch", "live"},
}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def _engine_modules() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


@pytest.mark.parametrize("path", _engine_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_engine_never_imports_the_summarizer(path: Path) -> None:
    assert [name for name in _imports(path) if name.split(".")[0] == "summarizer"] == []


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_each_layer_imports_only_the_layers_beneath_it(layer: str) -> None:
    wrong = []
    for path in sorted((ENGINE / layer).rglob("*.py")):
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] != "artifact_index" or len(parts) < 2:
                continue
            other = parts[1]
            if other in ALLOWED and other != layer and other not in ALLOWED[layer]:
                wrong.append(f"{path.relative_to(ROOT)} imports {name}")
    assert wrong == []


# Each top-level package has one command line and one family of exceptions, and a
# package's ``__init__``/``__main__`` are Python's own names: these are the names a reader
# expects to find once per package. Every other module says what it holds with a name no
# other module of the project has.
PER_PACKAGE_NAMES = {"__init__.py", "__main__.py", "cli.py", "exceptions.py"}


def test_every_module_has_a_name_no_other_module_has() -> None:
    seen: dict[str, list[str]] = {}
    for package in ("artifact_index", "summarizer"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path.name not in PER_PACKAGE_NAMES:
                seen.setdefault(path.name, []).append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in seen.items() if len(paths) > 1} == {}


# Folders of tests that test no single package: shared helpers, hand-written fixtures, and
# the scripts of benchmarks/ (a folder of scripts, not a package).
NOT_A_PACKAGE = {"support", "fixtures", "benchmarks"}


def _test_folders() -> list[Path]:
    tests = ROOT / "tests"
    return sorted(
        folder
        for folder in tests.rglob("*")
        if folder.is_dir()
        and folder.name != "__pycache__"
        and folder.relative_to(tests).parts[0] not in NOT_A_PACKAGE
        and any(folder.glob("*.py"))
    )


def test_the_test_folders_name_packages() -> None:
    assert len(_test_folders()) > 10


@pytest.mark.parametrize("folder", _test_folders(), ids=lambda p: str(p.relative_to(ROOT)))
def test_each_test_folder_mirrors_the_package_it_tests(folder: Path) -> None:
    # tests/<layer>/... tests artifact_index/<layer>/...; tests/summarizer/... tests summarizer/...
    path = folder.relative_to(ROOT / "tests")
    package = ROOT / path if path.parts[0] == "summarizer" else ENGINE / path
    assert (package / "__init__.py").is_file(), f"tests/{path} mirrors no package ({package})"


# The kinds of event a query reads the conversation from; a section renders the facts the engine
# answered (``SessionFacts``), so a second pass over the events cannot grow back in it.
_EVENT_KINDS = {"AssistantMessage", "UserMessage", "ToolCall", "ToolResult", "SessionInfo"}


@pytest.mark.parametrize(
    "path",
    sorted((ROOT / "summarizer" / "sections").rglob("*.py")),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_no_summary_section_reads_the_events(path: Path) -> None:
    read = [
        alias.name
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.module == "artifact_index.ingestion.events"
        for alias in node.names
        if alias.name in _EVENT_KINDS
    ]
    assert read == []
