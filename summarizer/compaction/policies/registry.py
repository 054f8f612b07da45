"""The registry from a policy's config type to the policy it configures."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from summarizer.compaction.policies.context_policy import ContentPolicy, Trigger

__all__ = ["content_policy_for", "register_content_policy", "register_trigger", "trigger_for"]

_CONTENT: dict[type[BaseModel], Callable[[Any], ContentPolicy]] = {}
_TRIGGERS: dict[type[BaseModel], Callable[[Any], Trigger]] = {}

_C = TypeVar("_C", bound=Callable[[Any], ContentPolicy])
_T = TypeVar("_T", bound=Callable[[Any], Trigger])


def register_content_policy(config_type: type[BaseModel]) -> Callable[[_C], _C]:
    def decorate(factory: _C) -> _C:
        _CONTENT[config_type] = factory
        return factory

    return decorate


def register_trigger(config_type: type[BaseModel]) -> Callable[[_T], _T]:
    def decorate(factory: _T) -> _T:
        _TRIGGERS[config_type] = factory
        return factory

    return decorate


def content_policy_for(config: BaseModel) -> ContentPolicy:
    """The content policy configured by ``config``; ``TypeError`` for an unregistered type."""
    factory = _CONTENT.get(type(config))
    if factory is None:
        raise TypeError(f"no content policy is registered for {type(config).__name__}")
    return factory(config)


def trigger_for(config: BaseModel) -> Trigger:
    """The trigger configured by ``config``; ``TypeError`` for an unregistered type."""
    factory = _TRIGGERS.get(type(config))
    if factory is None:
        raise TypeError(f"no trigger is registered for {type(config).__name__}")
    return factory(config)
