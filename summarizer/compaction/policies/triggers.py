"""When LLM compaction runs: fixed threshold, sliding window, task boundary.

* Fixed threshold: the prompt estimate exceeds a share of the context
  window, 90% by default as in the context service's design (the context-engineering guides recommend 70-80%).
* Sliding window: more than ``max_turns`` turns since the last summary.
* Task boundary: a todo/plan list (Claude Code ``TodoWrite``, Codex
  ``update_plan``, OpenCode ``todowrite``, Gemini ``write_todos``...) whose
  items are all completed, or an explicit marker in a message, inside the
  span compaction would summarize.  Only that span counts: the finished
  task is what gets summarized, and once summarized the list is gone, so
  the same boundary never fires twice.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from summarizer.compaction.message_lists import Conversation, TurnUnit
from summarizer.compaction.policies.context_policy import PolicyContext
from summarizer.compaction.policies.registry import register_trigger
from summarizer.compaction.tool_names import normalize_tool_name

__all__ = [
    "SlidingWindow",
    "SlidingWindowTriggerConfig",
    "TaskBoundary",
    "TaskBoundaryTriggerConfig",
    "Threshold",
    "ThresholdTriggerConfig",
    "todo_items",
]


class ThresholdTriggerConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    kind: Literal["threshold"] = "threshold"
    ratio: float = Field(0.90, gt=0, le=1)


class SlidingWindowTriggerConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    kind: Literal["sliding_window"] = "sliding_window"
    max_turns: int = Field(40, ge=1)
    turn_unit: TurnUnit = "step"


class TaskBoundaryTriggerConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    kind: Literal["task_boundary"] = "task_boundary"
    todo_tools: tuple[str, ...] = (
        "TodoWrite",
        "todowrite",
        "todo_write",
        "update_plan",
        "write_todos",
        "manage_todo_list",
        "update_todos",
    )
    completed_statuses: tuple[str, ...] = ("completed", "complete", "done")
    # Text that marks a finished task when it appears in a user or assistant message.
    markers: tuple[str, ...] = ("<task-complete/>",)


class Threshold:
    name = "threshold"

    def __init__(self, config: ThresholdTriggerConfig) -> None:
        self.config = config

    def reason(self, conversation: Conversation, context: PolicyContext) -> str | None:
        limit = self.config.ratio * context.context_window
        if context.prompt_estimate <= limit:
            return None
        return (
            f"threshold: prompt estimate {context.prompt_estimate:,} > "
            f"{self.config.ratio:.0%} of {context.context_window:,}"
        )


class SlidingWindow:
    name = "sliding_window"

    def __init__(self, config: SlidingWindowTriggerConfig) -> None:
        self.config = config

    def reason(self, conversation: Conversation, context: PolicyContext) -> str | None:
        count = conversation.turn_count(self.config.turn_unit)
        if count <= self.config.max_turns:
            return None
        return f"sliding window: {count} {self.config.turn_unit} turns > {self.config.max_turns}"


def todo_items(arguments: Any) -> list[Mapping[str, Any]] | None:
    """The items of a todo/plan tool call's arguments, or ``None`` if it holds no list."""
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except json.JSONDecodeError:
            return None
    if not isinstance(arguments, Mapping):
        return None
    for key in ("todos", "plan", "items", "todoList", "todo_list", "tasks"):
        items = arguments.get(key)
        if isinstance(items, list):
            return [item for item in items if isinstance(item, Mapping)]
    return None


class TaskBoundary:
    name = "task_boundary"

    def __init__(self, config: TaskBoundaryTriggerConfig) -> None:
        self.config = config
        self._tools = {normalize_tool_name(tool) for tool in config.todo_tools}
        self._done = {status.lower() for status in config.completed_statuses}

    def reason(self, conversation: Conversation, context: PolicyContext) -> str | None:
        stop = context.compactable_stop
        if stop is None:
            return None
        for call in conversation.calls.values():
            if call.message >= stop or normalize_tool_name(call.name) not in self._tools:
                continue
            items = todo_items(call.arguments)
            if items and all(str(item.get("status", "")).lower() in self._done for item in items):
                turn = conversation.turn_id(call.message)
                return f"task boundary: all {len(items)} {call.name} items completed in turn {turn}"
        for index in range(stop):
            if conversation.messages[index].get("role") not in ("user", "assistant"):
                continue
            text = conversation.prose_of(index)
            for marker in self.config.markers:
                if marker and marker in text:
                    return f"task boundary: marker {marker!r} in turn {conversation.turn_id(index)}"
        return None


register_trigger(ThresholdTriggerConfig)(Threshold)
register_trigger(SlidingWindowTriggerConfig)(SlidingWindow)
register_trigger(TaskBoundaryTriggerConfig)(TaskBoundary)
