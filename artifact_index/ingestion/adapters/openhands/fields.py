"""Reading the fields of OpenHands events, whichever of the three shapes they come in."""

from __future__ import annotations

import ast
import re
from typing import Any

from artifact_index.ingestion.adapters.base import as_text
from artifact_index.ingestion.adapters.narrowing import as_dict, as_int_or_digits
from artifact_index.ingestion.adapters.str_replace_editor import (
    EDITOR_COMMANDS,
    editor_failure,
)
from artifact_index.ingestion.events import (
    FailureReason,
    JSONObject,
    ResultStatus,
)
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "editor_arguments",
    "exit_code_of",
    "exit_status",
    "flat_args",
    "flat_extras",
    "id_of",
    "ipython_failure",
    "model_name",
    "response_id",
    "tool_call_id",
    "tool_name",
    "workspace_root",
]

_UPLOADED = lazy_pattern(r"<uploaded_files>\s*(/[^\s<]+?)/?\s*</uploaded_files>")
_REPOSITORY_IN = lazy_pattern(
    r"\b(?:repository|repo|directory) (?:in|at) (/workspace[\w./-]*?)[.,]?(?:\s|$)"
)
_PY_TRACEBACK = lazy_pattern(
    r"^(?:Traceback \(most recent call last\)|\w+(?:Error|Exception)\s+Traceback \(most recent call last\))",
    re.M,
)
_SKILL_FAILURE = lazy_pattern(
    r"^\[?(?:ERROR|Your proposed edit has introduced new syntax error|No exact match found)", re.I
)


def workspace_root(record: JSONObject, history: list[Any]) -> str | None:
    """The repository the task is about: ``<uploaded_files>``, else the workspace."""
    texts = [record.get("instruction")]
    for event in history[:6]:
        if isinstance(event, dict):
            args = event["args"] if isinstance(event.get("args"), dict) else event
            texts.extend((args.get("content"), event.get("message")))
            message = event.get("llm_message")
            if isinstance(message, dict):
                texts.append(as_text(message.get("content")))
    for text in texts:
        if isinstance(text, str):
            match = _UPLOADED.search(text) or _REPOSITORY_IN.search(text)
            if match:
                return match.group(1).rstrip("/")
    if any("/workspace" in str(event)[:4000] for event in history[:40]):
        return "/workspace"
    return None


def model_name(record: JSONObject) -> str | None:
    metadata = record.get("metadata")
    if not isinstance(metadata, dict):
        return None
    for key in ("llm_config", "llm"):
        config = metadata.get(key)
        if isinstance(config, dict) and isinstance(config.get("model"), str):
            return str(config["model"])
    return None


def id_of(value: Any) -> int | str | None:
    """An event id or cause; ids are ints (V0) or strings (SDK), anything else is no id."""
    return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None


def tool_call_id(event: JSONObject) -> str | None:
    if isinstance(event.get("tool_call_id"), str) and event["tool_call_id"]:
        return str(event["tool_call_id"])
    metadata = event.get("tool_call_metadata")
    if isinstance(metadata, dict) and isinstance(metadata.get("tool_call_id"), str):
        return str(metadata["tool_call_id"])
    return None


def tool_name(event: JSONObject) -> str | None:
    metadata = event.get("tool_call_metadata")
    if isinstance(metadata, dict) and isinstance(metadata.get("function_name"), str):
        return str(metadata["function_name"])
    return None


def response_id(event: JSONObject) -> str | None:
    """The model response an action came from, so parallel calls share a turn."""
    metadata = event.get("tool_call_metadata")
    response = as_dict(metadata).get("model_response")
    if isinstance(response, dict) and isinstance(response.get("id"), str):
        return str(response["id"])
    return None


_FLAT_META = frozenset(
    {"action", "observation", "id", "source", "timestamp", "message", "cause", "action_risk"}
)


def flat_args(event: JSONObject) -> JSONObject:
    """The resolver history keeps an action's arguments at the top level."""
    return {k: v for k, v in event.items() if k not in _FLAT_META}


def flat_extras(event: JSONObject) -> JSONObject:
    return {k: v for k, v in event.items() if k not in _FLAT_META and k != "content"}


def editor_arguments(args: JSONObject) -> JSONObject | None:
    """The ``str_replace_editor`` call of an ``edit`` action, or None for the LLM-based editor."""
    if isinstance(args.get("command"), str) and args["command"] in EDITOR_COMMANDS:
        return args
    code = args.get("translated_ipython_code")
    if isinstance(code, str) and "file_editor" in code:
        match = re.search(r"file_editor\(\*\*(\{.*\})\)\)?\s*$", code, re.DOTALL)
        if match:
            try:
                value = ast.literal_eval(match.group(1))
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                value = None
            if isinstance(value, dict) and value.get("command") in EDITOR_COMMANDS:
                return {str(k): v for k, v in value.items()}
    return None


def exit_code_of(extras: JSONObject, event: JSONObject) -> int | None:
    metadata = extras.get("metadata")
    if isinstance(metadata, dict):
        code = as_int_or_digits(metadata.get("exit_code"))
        if code is not None:
            return code
    for value in (extras.get("exit_code"), event.get("exit_code")):
        code = as_int_or_digits(value)
        if code is not None:
            return code
    return None


def exit_status(code: int | None) -> tuple[ResultStatus, FailureReason | None, int | None]:
    # -1: the command was still running when OpenHands returned (a server,
    # a timeout); it neither succeeded nor failed yet.
    if code is None or code == -1:
        return "unknown", None, None
    if code == 0:
        return "success", None, 0
    return "failure", "exit_status", code


def ipython_failure(content: str) -> FailureReason | None:
    head = content.lstrip()[:400]
    if _SKILL_FAILURE.match(head):
        reason = editor_failure(head, explicit_error=True)
        return reason
    if _PY_TRACEBACK.search(content):
        return "other"
    return None
