"""Deterministic synthetic Claude Code and Codex transcripts of a chosen size, for the benchmarks.

    python benchmarks/synthetic.py claude-code 25 /tmp/cc-25.jsonl
    python benchmarks/synthetic.py codex 100 /tmp/codex-100.jsonl

One seeded session is generated step by step until the file reaches the size
asked for, so a smaller transcript is the beginning of a larger one: the
100 MB session is the 25 MB session continued, and comparing their times
measures how cost grows with history, not a different mix.

A step is what a long real session does over and over, in the shapes of
``shared/docs/formats.md``: the assistant says something (now and then a
paragraph of choices naming files and functions), then one tool call and its
result.  The mix: reads (whole files and windows; Codex reads with ``sed -n``
and ``cat``), edits of functions in files read or written before (Claude
Code's result carries ``originalFile`` and ``structuredPatch``; Codex's
``apply_patch`` is followed by ``patch_apply_end``), new files, shell commands
with realistic output (test runs that fail and later pass, type-checker
errors, ``git status``, ``rg``, ``ls``, ``mkdir``, ``mv``, ``rm``), searches,
a few failed edits, a user message every hundred steps or so and a
compaction every couple of thousand.  New paths keep appearing (reads of
files not seen yet, new files), so a 100 MB session touches a few thousand.
Files are Python, TypeScript and Markdown, so tree-sitter has real code to
parse.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Container, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

__all__ = ["FORMATS", "GENERATOR_VERSION", "write_transcript"]

# Part of the cached file names: change it whenever the output changes.
GENERATOR_VERSION = 1
FORMATS = ("claude-code", "codex")
ROOT = "/home/dev/shop"
_SEED = 12

_WORDS = (
    "user",
    "session",
    "token",
    "config",
    "cache",
    "index",
    "record",
    "event",
    "parse",
    "load",
    "save",
    "render",
    "format",
    "value",
    "item",
    "batch",
    "queue",
    "client",
    "server",
    "request",
    "response",
    "handler",
    "state",
    "graph",
    "node",
    "edge",
    "path",
    "file",
    "query",
    "result",
    "error",
    "retry",
    "limit",
    "window",
    "buffer",
    "stream",
    "chunk",
    "digest",
    "schema",
    "field",
    "column",
    "table",
    "report",
    "summary",
    "metric",
    "score",
    "probe",
    "task",
    "plan",
    "step",
    "job",
    "worker",
    "lock",
    "store",
    "entry",
    "ledger",
    "trace",
    "span",
    "filter",
    "match",
    "pattern",
    "rule",
    "policy",
    "order",
    "invoice",
    "price",
    "cart",
    "stock",
    "refund",
    "coupon",
)
_PACKAGES = (
    "core",
    "api",
    "billing",
    "catalog",
    "orders",
    "auth",
    "storage",
    "search",
    "jobs",
    "web",
)


def _name(rng: random.Random, parts: int = 2) -> str:
    return "_".join(rng.choice(_WORDS) for _ in range(parts))


def _camel(rng: random.Random) -> str:
    return "".join(rng.choice(_WORDS).capitalize() for _ in range(2))


def _python_function(rng: random.Random, indent: str = "") -> list[str]:
    name, arg, var = _name(rng), rng.choice(_WORDS), _name(rng, 1)
    body = [
        f"{indent}def {name}({'self, ' if indent else ''}{arg}, limit=10):",
        f'{indent}    """Return the {rng.choice(_WORDS)} of {arg} within limit."""',
        f"{indent}    {var} = [{rng.choice(_WORDS)} for {rng.choice(_WORDS)} in {arg}][:limit]",
    ]
    for _ in range(rng.randint(1, 6)):
        body.append(f"{indent}    if len({var}) > {rng.randint(1, 99)}:")
        body.append(f"{indent}        {var} = {_name(rng)}({var}, {arg})")
    body.append(f"{indent}    return {var}")
    return [*body, ""]


def _python_module(rng: random.Random) -> str:
    lines = [
        f'"""The {rng.choice(_WORDS)} {rng.choice(_WORDS)} of the shop."""',
        "",
        "from __future__ import annotations",
        "",
        f"import {rng.choice(('json', 're', 'os'))}",
        "",
    ]
    for _ in range(rng.randint(5, 24)):
        if rng.random() < 0.25:
            lines += [f"class {_camel(rng)}:", f'    """A {rng.choice(_WORDS)}."""', ""]
            for _ in range(rng.randint(1, 4)):
                lines += _python_function(rng, "    ")
        else:
            lines += _python_function(rng)
    return "\n".join(lines) + "\n"


def _typescript_module(rng: random.Random) -> str:
    lines = [f"import {{ {_camel(rng)} }} from './{rng.choice(_WORDS)}';", ""]
    for _ in range(rng.randint(5, 20)):
        name, arg = _camel(rng), rng.choice(_WORDS)
        lines += [
            f"export function {name[0].lower()}{name[1:]}({arg}: string[]): number {{",
            f"  const total = {arg}.length * {rng.randint(2, 9)};",
        ]
        for _ in range(rng.randint(1, 5)):
            lines += [
                f"  if (total > {rng.randint(1, 99)}) {{",
                f"    return total - {rng.randint(1, 9)};",
                "  }",
            ]
        lines += ["  return total;", "}", ""]
    return "\n".join(lines)


def _markdown(rng: random.Random) -> str:
    lines = [f"# {rng.choice(_WORDS).capitalize()} {rng.choice(_WORDS)}", ""]
    for _ in range(rng.randint(4, 20)):
        lines.append(" ".join(rng.choice(_WORDS) for _ in range(rng.randint(6, 16))) + ".")
    return "\n".join(lines) + "\n"


def _new_path(rng: random.Random, taken: Container[str]) -> str:
    while True:
        package = rng.choice(_PACKAGES)
        roll = rng.random()
        if roll < 0.55:
            path = f"src/shop/{package}/{_name(rng)}.py"
        elif roll < 0.75:
            path = f"tests/{package}/test_{_name(rng)}.py"
        elif roll < 0.92:
            path = f"web/src/{package}/{_camel(rng)}.ts"
        else:
            path = f"docs/{package}/{_name(rng)}.md"
        if path not in taken:
            return path


def _content_for(rng: random.Random, path: str) -> str:
    if path.endswith(".py"):
        return _python_module(rng)
    if path.endswith(".ts"):
        return _typescript_module(rng)
    return _markdown(rng)


@dataclass
class _Edit:
    path: str
    before: str
    after: str
    old: str
    new: str
    start: int  # 1-based first line of ``old``


@dataclass
class _Workspace:
    """The files of the simulated repository, and which of them the session has seen."""

    rng: random.Random
    files: dict[str, str] = field(default_factory=dict)
    seen: list[str] = field(default_factory=list)  # in order of first touch
    recent: list[str] = field(default_factory=list)

    def unseen(self) -> str:
        path = _new_path(self.rng, self.files)
        self.files[path] = _content_for(self.rng, path)
        return path

    def touch(self, path: str) -> None:
        if path not in self.seen:
            self.seen.append(path)
        if path in self.recent:
            self.recent.remove(path)
        self.recent = [*self.recent, path][-30:]

    def pick_seen(self) -> str | None:
        live = [p for p in self.recent if p in self.files]
        if live and self.rng.random() < 0.8:
            return self.rng.choice(live)
        candidates = [p for p in self.seen[-400:] if p in self.files]
        return self.rng.choice(candidates) if candidates else None

    def edit(self, path: str) -> _Edit | None:
        before = self.files[path]
        lines = before.split("\n")
        if len(lines) < 8:
            return None
        start = self.rng.randrange(2, len(lines) - 4)
        count = self.rng.randint(2, 4)
        old_lines = lines[start : start + count]
        if not any(line.strip() for line in old_lines):
            return None
        new_lines = [
            line.replace(w, self.rng.choice(_WORDS), 1) if (w := self._word_in(line)) else line
            for line in old_lines
        ]
        if self.rng.random() < 0.4:
            new_lines.append(
                old_lines[-1][: len(old_lines[-1]) - len(old_lines[-1].lstrip())]
                + f"# {self.rng.choice(_WORDS)} {self.rng.choice(_WORDS)} checked above"
            )
        old, new = "\n".join(old_lines), "\n".join(new_lines)
        if old == new or before.count(old) != 1:
            return None
        after = before.replace(old, new, 1)
        self.files[path] = after
        return _Edit(path, before, after, old, new, start + 1)

    def _word_in(self, line: str) -> str | None:
        words = [w for w in _WORDS if w in line]
        return self.rng.choice(words) if words else None


def _numbered_cc(text: str, first: int = 1) -> str:
    return "\n".join(f"{n:6}→{line}" for n, line in enumerate(text.split("\n"), start=first))


def _pytest_output(rng: random.Random, test: str, source: str, failing: bool) -> tuple[str, int]:
    """``pytest -v`` output: one line per test, and a failure with its traceback when ``failing``."""
    count = rng.randint(8, 90)
    names = [f"{test}::test_{_name(rng)}" for _ in range(count)]
    lines = [
        "============================= test session starts ==============================",
        "platform linux -- Python 3.11.7, pytest-8.3.2, pluggy-1.5.0",
        f"collected {count} items",
        "",
    ]
    lines += [
        f"{name} PASSED{' ' * 8}[{100 * (i + 1) // count:3}%]" for i, name in enumerate(names[:-1])
    ]
    if not failing:
        lines += [
            f"{names[-1]} PASSED{' ' * 8}[100%]",
            "",
            f"============================== {count} passed in {rng.random() * 3:.2f}s ==============================",
        ]
        return "\n".join(lines) + "\n", 0
    line = rng.randint(10, 200)
    lines += [
        f"{names[-1]} FAILED{' ' * 8}[100%]",
        "",
        "=================================== FAILURES ===================================",
        f"_________________________________ {names[-1].split('::')[1]} _________________________________",
        "",
        f"    def {names[-1].split('::')[1]}():",
        f">       assert {_name(rng)}([1, 2]) == 3",
        "E       AssertionError: assert 2 == 3",
        "",
        f"{source}:{line}: AssertionError",
        "=========================== short test summary info ============================",
        f"FAILED {names[-1]} - AssertionError: assert 2 == 3",
        f"========================= 1 failed, {count - 1} passed in 1.20s =========================",
    ]
    return "\n".join(lines) + "\n", 1


@dataclass
class _Step:
    """One tool call as both formats need it."""

    kind: str  # read, edit, write, bash, search, todo, failed_edit
    path: str | None = None
    content: str | None = None
    window: tuple[int, int] | None = None  # for partial reads: offset (1-based) and limit
    edit: _Edit | None = None
    created: bool = True
    command: str | None = None
    output: str = ""
    exit_code: int = 0


class _Session:
    """Decides what the session does next, independently of the output format."""

    def __init__(self) -> None:
        self.rng = random.Random(_SEED)
        self.ws = _Workspace(self.rng)
        self.failing: list[tuple[str, str]] = []
        self.todos: list[dict[str, str]] = []

    def plan(self) -> list[dict[str, str]]:
        """The todo list after one more step of progress."""
        open_items = [t for t in self.todos if t["status"] != "completed"]
        if len(open_items) < 3:
            # A finished list is replaced, as agents do: it never grows past a dozen items.
            self.todos = [
                *open_items,
                *(
                    {
                        "content": f"Make {_name(self.rng)} handle {self.rng.choice(_WORDS)}s",
                        "status": "pending",
                    }
                    for _ in range(self.rng.randint(3, 6))
                ),
            ]
        for todo in self.todos:
            if todo["status"] != "completed":
                todo["status"] = "completed" if todo["status"] == "in_progress" else "in_progress"
                break
        return [dict(t) for t in self.todos]

    def text(self) -> str:
        rng = self.rng
        if rng.random() < 0.12 and self.ws.seen:
            path = rng.choice(self.ws.seen[-200:])
            other = rng.choice(self.ws.seen)
            return (
                f"I'll use a {rng.choice(_WORDS)} map in `{path}` instead of scanning the "
                f"{rng.choice(_WORDS)} list, because `{_name(rng)}` is called for every "
                f"{rng.choice(_WORDS)}. The root cause of the failure is that {other} "
                f"never resets the {rng.choice(_WORDS)} {rng.choice(_WORDS)}. Next I'll run the tests."
            )
        return rng.choice(
            (
                "Let me look at how this is wired.",
                "Now I'll update the handler.",
                "The tests pass; moving on to the next part.",
                f"Checking the {rng.choice(_WORDS)} module next.",
                f"That explains the {rng.choice(_WORDS)} mismatch.",
            )
        )

    def step(self) -> _Step:
        rng, ws = self.rng, self.ws
        roll = rng.random()
        if roll < 0.23:
            path = ws.pick_seen() if rng.random() < 0.65 else None
            path = path or ws.unseen()
            ws.touch(path)
            content = ws.files[path]
            if rng.random() < 0.2 and content.count("\n") > 40:
                offset = rng.randint(1, content.count("\n") - 30)
                return _Step("read", path, content, window=(offset, 30))
            return _Step("read", path, content)
        if roll < 0.42:
            path = ws.pick_seen()
            if path is None:
                return self.step()
            if rng.random() < 0.04:
                return _Step("failed_edit", path)
            change = ws.edit(path)
            if change is None:
                return self.step()
            ws.touch(path)
            if path.startswith("src/") and rng.random() < 0.3:
                self.failing.append((f"tests/{path.split('/')[2]}/test_{Path(path).stem}.py", path))
            return _Step("edit", path, edit=change)
        if roll < 0.46:
            existing = ws.pick_seen() if rng.random() < 0.2 else None
            path = existing or _new_path(rng, ws.files)
            content = _content_for(rng, path)
            created = path not in ws.files
            ws.files[path] = content
            ws.touch(path)
            return _Step("write", path, content, created=created)
        if roll < 0.82:
            return self.bash()
        if roll < 0.94:
            return _Step("search", command=_name(rng))
        return _Step("todo")

    def bash(self) -> _Step:
        rng, ws = self.rng, self.ws
        roll = rng.random()
        if roll < 0.35:
            if self.failing and rng.random() < 0.5:
                test, source = self.failing.pop(0)
                output, code = _pytest_output(rng, test, source, failing=rng.random() < 0.6)
                if code:
                    self.failing.append((test, source))
                return _Step(
                    "bash", command=f"python -m pytest -q {test}", output=output, exit_code=code
                )
            tests = [p for p in ws.seen[-300:] if p.startswith("tests/")] or ["tests/test_shop.py"]
            output, code = _pytest_output(rng, rng.choice(tests), "", failing=False)
            return _Step("bash", command="python -m pytest -q", output=output, exit_code=code)
        if roll < 0.45:
            errors = [
                f'{p}:{rng.randint(1, 150)}: error: Incompatible return value type (got "int", expected "str")  [return-value]'
                for p in rng.sample(ws.seen, min(len(ws.seen), rng.randint(0, 3)))
                if p.endswith(".py")
            ]
            summary = (
                f"Found {len(errors)} errors in {len(errors)} files"
                if errors
                else "Success: no issues found"
            )
            return _Step(
                "bash",
                command="python -m mypy src",
                output="\n".join([*errors, summary]) + "\n",
                exit_code=1 if errors else 0,
            )
        if roll < 0.6:
            changed = [p for p in ws.recent[-8:] if p in ws.files]
            return _Step(
                "bash", command="git status --short", output="".join(f" M {p}\n" for p in changed)
            )
        if roll < 0.75:
            word = rng.choice(_WORDS)
            hits = [
                p for p in rng.sample(ws.seen, min(len(ws.seen), 12)) if word in ws.files.get(p, "")
            ]
            output = "".join(
                f"{p}:{rng.randint(1, 120)}:    {word} = {_name(rng)}({word})\n" for p in hits
            )
            return _Step(
                "bash", command=f"rg -n {word} src tests", output=output, exit_code=0 if hits else 1
            )
        if roll < 0.85:
            package = rng.choice(_PACKAGES)
            names = sorted({Path(p).name for p in ws.files if p.startswith(f"src/shop/{package}/")})
            return _Step(
                "bash", command=f"ls src/shop/{package}", output="".join(n + "\n" for n in names)
            )
        if roll < 0.92:
            return _Step(
                "bash", command=f"mkdir -p src/shop/{rng.choice(_PACKAGES)}/{rng.choice(_WORDS)}"
            )
        candidates = [p for p in ws.recent if p in ws.files]
        if not candidates:
            return _Step("bash", command="git status --short")
        path = rng.choice(candidates)
        if rng.random() < 0.5:
            dest = _new_path(rng, ws.files)
            ws.files[dest] = ws.files.pop(path)
            ws.touch(dest)
            return _Step("bash", command=f"mv {path} {dest}")
        del ws.files[path]
        return _Step("bash", command=f"rm {path}")


# --- Claude Code ----------------------------------------------------------------


class _ClaudeCode:
    def __init__(self, session: _Session) -> None:
        self.s = session
        self.rng = session.rng
        self.parent: str | None = None
        self.clock = 0
        self.ids = 0
        self.snapshots = 0

    def _id(self, prefix: str) -> str:
        self.ids += 1
        return f"{prefix}{self.ids:024x}"

    def _uuid(self) -> str:
        self.ids += 1
        return f"{self.ids:08x}-0000-4000-8000-{self.rng.getrandbits(48):012x}"

    def _envelope(self, kind: str, **fields: Any) -> dict[str, Any]:
        self.clock += self.rng.randint(1, 20)
        uuid = self._uuid()
        record = {
            "parentUuid": self.parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": ROOT,
            "sessionId": "5b1e2c4d-0000-4000-8000-000000000012",
            "version": "2.1.39",
            "gitBranch": "main",
            "type": kind,
            **fields,
            "uuid": uuid,
            "timestamp": f"2026-02-11T{self.clock // 3600 % 24:02}:{self.clock // 60 % 60:02}:{self.clock % 60:02}.000Z",
        }
        self.parent = uuid
        return record

    def _assistant(self, blocks: list[dict[str, Any]]) -> dict[str, Any]:
        message = {
            "model": "claude-opus-4-6",
            "id": self._id("msg_"),
            "type": "message",
            "role": "assistant",
            "content": blocks,
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {
                "input_tokens": 3,
                "cache_creation_input_tokens": self.rng.randint(0, 9000),
                "cache_read_input_tokens": self.rng.randint(10000, 150000),
                "output_tokens": 80,
                "service_tier": "standard",
            },
        }
        return self._envelope("assistant", message=message, requestId=self._id("req_"))

    def _user_text(self, text: str) -> dict[str, Any]:
        return self._envelope("user", message={"role": "user", "content": text})

    def records(self) -> Iterator[dict[str, Any]]:
        yield self._user_text("Implement the refund flow and keep the test suite green.")
        steps = 0
        while True:
            steps += 1
            if steps % 97 == 0:
                yield self._user_text(
                    f"Also make the {self.rng.choice(_WORDS)} handling cope with empty {self.rng.choice(_WORDS)}s."
                )
            if steps % 2203 == 0:
                yield self._envelope(
                    "system",
                    subtype="compact_boundary",
                    content="Conversation compacted",
                    isMeta=False,
                    level="info",
                    compactMetadata={"trigger": "auto", "preTokens": 167094},
                )
                yield self._envelope(
                    "user",
                    isCompactSummary=True,
                    message={
                        "role": "user",
                        "content": "This session is being continued from a previous conversation. "
                        + " ".join(self.rng.choice(_WORDS) for _ in range(400)),
                    },
                )
            if self.rng.random() < 0.3:
                yield self._assistant(
                    [
                        {
                            "type": "thinking",
                            "thinking": " ".join(
                                self.rng.choice(_WORDS) for _ in range(self.rng.randint(20, 120))
                            ),
                            "signature": "sig",
                        }
                    ]
                )
            if self.rng.random() < 0.6:
                yield self._assistant([{"type": "text", "text": self.s.text()}])
            yield from self._call(self.s.step())

    def _call(self, step: _Step) -> Iterator[dict[str, Any]]:
        call_id = self._id("toolu_")
        full = f"{ROOT}/{step.path}" if step.path else None
        if step.kind == "read":
            arguments: dict[str, Any] = {"file_path": full}
            assert step.content is not None
            shown, first = step.content, 1
            if step.window:
                first, limit = step.window
                arguments.update(offset=first, limit=limit)
                shown = "\n".join(step.content.split("\n")[first - 1 : first - 1 + limit])
            result: Any = _numbered_cc(shown, first)
            structured: Any = {
                "type": "text",
                "file": {
                    "filePath": full,
                    "content": shown,
                    "numLines": shown.count("\n") + 1,
                    "startLine": first,
                    "totalLines": step.content.count("\n") + 1,
                },
            }
            name, error = "Read", False
        elif step.kind == "edit":
            edit = step.edit
            assert edit is not None
            name, error = "Edit", False
            arguments = {
                "replace_all": False,
                "file_path": full,
                "old_string": edit.old,
                "new_string": edit.new,
            }
            result = f"The file {full} has been updated successfully."
            old_lines, new_lines = edit.old.split("\n"), edit.new.split("\n")
            structured = {
                "filePath": full,
                "oldString": edit.old,
                "newString": edit.new,
                "originalFile": edit.before,
                "userModified": False,
                "replaceAll": False,
                "structuredPatch": [
                    {
                        "oldStart": edit.start,
                        "oldLines": len(old_lines),
                        "newStart": edit.start,
                        "newLines": len(new_lines),
                        "lines": [f"-{x}" for x in old_lines] + [f"+{x}" for x in new_lines],
                    }
                ],
            }
        elif step.kind == "failed_edit":
            name, error = "Edit", True
            arguments = {
                "replace_all": False,
                "file_path": full,
                "old_string": "no such text",
                "new_string": "x",
            }
            result = "<tool_use_error>String to replace not found in file.\nString: no such text</tool_use_error>"
            structured = "Error: String to replace not found in file.\nString: no such text"
        elif step.kind == "write":
            name, error = "Write", False
            arguments = {"file_path": full, "content": step.content}
            result = (
                f"File created successfully at: {full}"
                if step.created
                else f"The file {full} has been updated."
            )
            structured = {
                "type": "create" if step.created else "update",
                "filePath": full,
                "content": step.content,
                "structuredPatch": [],
                "originalFile": None,
            }
        elif step.kind == "todo":
            name, error = "TodoWrite", False
            todos = [{**t, "activeForm": t["content"]} for t in self.s.plan()]
            arguments = {"todos": todos}
            result = (
                "Todos have been modified successfully. Ensure that you continue to use the todo list "
                "to track your progress. Please proceed with the current tasks if applicable"
            )
            structured = {"oldTodos": [], "newTodos": todos}
        elif step.kind == "search":
            name, error = "Grep", False
            arguments = {"pattern": step.command, "path": ROOT, "glob": "*.py"}
            hits = [f"{ROOT}/{p}" for p in self.s.ws.seen[-50:] if p.endswith(".py")][:5]
            result = "\n".join(hits) or "No files found"
            structured = {"mode": "files_with_matches", "filenames": hits, "numFiles": len(hits)}
        else:
            name, error = "Bash", step.exit_code != 0
            arguments = {"command": step.command, "description": "Run a command"}
            output = step.output.rstrip("\n")
            result = f"Exit code {step.exit_code}\n{output}" if error else output
            structured = (
                f"Error: {result}"
                if error
                else {
                    "stdout": output,
                    "stderr": "",
                    "interrupted": False,
                    "isImage": False,
                    "noOutputExpected": False,
                }
            )
        yield self._assistant(
            [
                {
                    "type": "tool_use",
                    "id": call_id,
                    "name": name,
                    "input": arguments,
                    "caller": {"type": "direct"},
                }
            ]
        )
        yield self._hook("PreToolUse", name, call_id)
        if name == "Bash" and len(step.output) > 2000:
            for cut in range(2000, len(step.output), 4000):
                yield self._envelope(
                    "progress",
                    data={
                        "type": "bash_progress",
                        "output": step.output[cut - 400 : cut],
                        "fullOutput": step.output[:cut],
                        "elapsedTimeSeconds": 3,
                        "totalLines": step.output.count("\n", 0, cut),
                    },
                    toolUseID=f"bash-progress-{call_id}",
                    parentToolUseID=call_id,
                )
        block: dict[str, Any] = {"tool_use_id": call_id, "type": "tool_result", "content": result}
        if error:
            block["is_error"] = True
        yield self._envelope(
            "user", message={"role": "user", "content": [block]}, toolUseResult=structured
        )
        yield self._hook("PostToolUseFailure" if error else "PostToolUse", name, call_id)
        if step.kind in ("edit", "write") and step.path:
            self.snapshots += 1
            yield {
                "type": "file-history-snapshot",
                "messageId": self._uuid(),
                "isSnapshotUpdate": True,
                "snapshot": {
                    "messageId": self._uuid(),
                    "timestamp": "2026-02-11T20:37:41.953Z",
                    "trackedFileBackups": {
                        step.path: {
                            "backupFileName": f"{self.snapshots:016x}@v1",
                            "version": 1,
                            "backupTime": "2026-02-11T20:37:41.953Z",
                        }
                    },
                },
            }

    def _hook(self, event: str, tool: str, call_id: str) -> dict[str, Any]:
        command = {"PreToolUse": "cd ${CLAUDE_PLUGIN_ROOT}/hooks && bun run ./guardian.ts"}.get(
            event, "${CLAUDE_PLUGIN_ROOT}/scripts/post-tool-capture.sh"
        )
        return self._envelope(
            "progress",
            data={
                "type": "hook_progress",
                "hookEvent": event,
                "hookName": f"{event}:{tool}",
                "command": command,
            },
            toolUseID=call_id,
            parentToolUseID=call_id,
        )


# --- Codex ----------------------------------------------------------------------


class _Codex:
    def __init__(self, session: _Session) -> None:
        self.s = session
        self.rng = session.rng
        self.clock = 0
        self.ids = 0
        self.turn = "turn-0"

    def _record(self, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        self.clock += self.rng.randint(1, 20)
        stamp = f"2026-06-27T{self.clock // 3600 % 24:02}:{self.clock // 60 % 60:02}:{self.clock % 60:02}.000Z"
        return {"timestamp": stamp, "type": kind, "payload": payload}

    def _call_id(self) -> str:
        self.ids += 1
        return f"call_{self.ids:020x}"

    def _meta(self) -> dict[str, str]:
        return {"turn_id": self.turn}

    def records(self) -> Iterator[dict[str, Any]]:
        yield self._record(
            "session_meta",
            {
                "session_id": "019f0675-0000-7000-8000-000000000012",
                "id": "019f0675-0000-7000-8000-000000000012",
                "cwd": ROOT,
                "originator": "codex-tui",
                "cli_version": "0.142.3",
                "source": "cli",
                "model_provider": "openai",
            },
        )
        steps = 0
        yield from self._user("Implement the refund flow and keep the test suite green.")
        while True:
            steps += 1
            if steps % 97 == 0:
                yield from self._user(
                    f"Also make the {self.rng.choice(_WORDS)} handling cope with empty input."
                )
            if self.rng.random() < 0.5:
                yield self._record(
                    "response_item",
                    {
                        "type": "reasoning",
                        "id": f"rs_{steps:030x}",
                        "summary": [],
                        "internal_chat_message_metadata_passthrough": self._meta(),
                    },
                )
            if self.rng.random() < 0.6:
                text = self.s.text()
                yield self._record(
                    "event_msg", {"type": "agent_message", "message": text, "phase": "commentary"}
                )
                yield self._record(
                    "response_item",
                    {
                        "type": "message",
                        "id": f"msg_{steps:030x}",
                        "role": "assistant",
                        "content": [{"type": "output_text", "text": text}],
                        "phase": "commentary",
                        "internal_chat_message_metadata_passthrough": self._meta(),
                    },
                )
            yield from self._call(self.s.step())
            if self.rng.random() < 0.4:
                yield self._record(
                    "event_msg",
                    {
                        "type": "token_count",
                        "info": {
                            "total_token_usage": {
                                "input_tokens": 17661 + steps,
                                "cached_input_tokens": 2432,
                                "output_tokens": 355,
                                "total_tokens": 18016 + steps,
                            },
                            "model_context_window": 258400,
                        },
                    },
                )

    def _user(self, text: str) -> Iterator[dict[str, Any]]:
        self.ids += 1
        self.turn = f"019f06ee-{self.ids:04x}-7f93-b1a2-3309bfdd04a7"
        yield self._record(
            "event_msg",
            {"type": "task_started", "turn_id": self.turn, "model_context_window": 258400},
        )
        yield self._record(
            "turn_context",
            {"turn_id": self.turn, "cwd": ROOT, "model": "gpt-5.5", "approval_policy": "never"},
        )
        yield self._record(
            "response_item",
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]},
        )
        yield self._record("event_msg", {"type": "user_message", "message": text, "images": []})

    def _exec(self, command: str, output: str, code: int = 0) -> Iterator[dict[str, Any]]:
        call_id = self._call_id()
        arguments = json.dumps(
            {"cmd": command, "workdir": ROOT, "yield_time_ms": 30000, "max_output_tokens": 8000}
        )
        yield self._record(
            "response_item",
            {
                "type": "function_call",
                "name": "exec_command",
                "arguments": arguments,
                "call_id": call_id,
                "internal_chat_message_metadata_passthrough": self._meta(),
            },
        )
        text = (
            f"Chunk ID: {self.ids:06x}\nWall time: {self.rng.random():.4f} seconds\n"
            f"Process exited with code {code}\nOriginal token count: {len(output) // 4}\nOutput:\n{output}"
        )
        yield self._record(
            "response_item",
            {
                "type": "function_call_output",
                "call_id": call_id,
                "output": text,
                "internal_chat_message_metadata_passthrough": self._meta(),
            },
        )

    def _patch(self, body: str, changes: dict[str, Any], summary: str) -> Iterator[dict[str, Any]]:
        call_id = self._call_id()
        yield self._record(
            "response_item",
            {
                "type": "custom_tool_call",
                "status": "completed",
                "call_id": call_id,
                "name": "apply_patch",
                "input": f"*** Begin Patch\n{body}*** End Patch\n",
            },
        )
        stdout = f"Success. Updated the following files:\n{summary}\n"
        yield self._record(
            "event_msg",
            {
                "type": "patch_apply_end",
                "call_id": call_id,
                "turn_id": self.turn,
                "stdout": stdout,
                "stderr": "",
                "success": True,
                "changes": changes,
            },
        )
        yield self._record(
            "response_item",
            {
                "type": "custom_tool_call_output",
                "call_id": call_id,
                "output": f"Exit code: 0\nWall time: 0 seconds\nOutput:\n{stdout}",
            },
        )

    def _call(self, step: _Step) -> Iterator[dict[str, Any]]:
        full = f"{ROOT}/{step.path}" if step.path else None
        if step.kind == "read":
            assert step.content is not None
            if step.window:
                first, limit = step.window
                shown = "\n".join(step.content.split("\n")[first - 1 : first - 1 + limit]) + "\n"
                yield from self._exec(f"sed -n '{first},{first + limit - 1}p' {step.path}", shown)
            else:
                yield from self._exec(f"cat {step.path}", step.content)
        elif step.kind == "edit":
            edit = step.edit
            assert edit is not None
            old_lines, new_lines = edit.old.split("\n"), edit.new.split("\n")
            hunk = "".join(f"-{x}\n" for x in old_lines) + "".join(f"+{x}\n" for x in new_lines)
            diff = f"@@ -{edit.start},{len(old_lines)} +{edit.start},{len(new_lines)} @@\n{hunk}"
            yield from self._patch(
                f"*** Update File: {full}\n@@\n{hunk}",
                {full: {"type": "update", "unified_diff": diff, "move_path": None}},
                f"M {full}",
            )
        elif step.kind == "failed_edit":
            call_id = self._call_id()
            yield self._record(
                "response_item",
                {
                    "type": "custom_tool_call",
                    "status": "completed",
                    "call_id": call_id,
                    "name": "apply_patch",
                    "input": f"*** Begin Patch\n*** Update File: {full}\n@@\n-no such text\n+x\n*** End Patch\n",
                },
            )
            yield self._record(
                "response_item",
                {
                    "type": "custom_tool_call_output",
                    "call_id": call_id,
                    "output": f"apply_patch verification failed: Failed to find expected lines in {full}:\nno such text",
                },
            )
        elif step.kind == "write":
            assert step.content is not None
            if step.created:
                body = f"*** Add File: {full}\n" + "".join(
                    f"+{x}\n" for x in step.content.split("\n")[:-1]
                )
                yield from self._patch(
                    body, {full: {"type": "add", "content": step.content}}, f"A {full}"
                )
            else:
                yield from self._exec(f"cat > {step.path} <<'EOF'\n{step.content}EOF", "")
        elif step.kind == "todo":
            call_id = self._call_id()
            plan = [{"step": t["content"], "status": t["status"]} for t in self.s.plan()]
            yield self._record(
                "response_item",
                {
                    "type": "function_call",
                    "name": "update_plan",
                    "arguments": json.dumps({"plan": plan}),
                    "call_id": call_id,
                },
            )
            yield self._record(
                "response_item",
                {"type": "function_call_output", "call_id": call_id, "output": "Plan updated"},
            )
        elif step.kind == "search":
            hits = [p for p in self.s.ws.seen[-50:] if p.endswith(".py")][:5]
            yield from self._exec(
                f"rg -l {step.command} src", "".join(h + "\n" for h in hits), 0 if hits else 1
            )
        else:
            assert step.command is not None
            yield from self._exec(step.command, step.output, step.exit_code)


def write_transcript(format: str, megabytes: float, out: TextIO) -> int:
    """Write a ``format`` session of at least ``megabytes`` MB (10^6 bytes) to ``out``; the bytes written."""
    session = _Session()
    writer = _ClaudeCode(session) if format == "claude-code" else _Codex(session)
    target = int(megabytes * 1_000_000)
    written = 0
    for record in writer.records():
        line = json.dumps(record, ensure_ascii=False) + "\n"
        out.write(line)
        written += len(line.encode("utf-8"))
        if written >= target:
            return written
    raise AssertionError("the generator never ends")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("format", choices=FORMATS)
    parser.add_argument("megabytes", type=float)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    with args.out.open("w", encoding="utf-8") as out:
        size = write_transcript(args.format, args.megabytes, out)
    print(f"{args.out}: {size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
