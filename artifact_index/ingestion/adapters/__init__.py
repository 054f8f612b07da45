"""The adapter registry: one module per transcript format, detection from content.

Built-in adapters are registered through the same :func:`register` call a
third-party adapter would use.  Every module of this package is imported
before the first lookup and registers its classes as it is imported, so a
new format is one new module here: nothing else lists the formats.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading

from artifact_index.exceptions import UnknownFormat
from artifact_index.ingestion.adapters.base import Adapter
from artifact_index.ingestion.source import Source

__all__ = ["Adapter", "adapter_named", "detect", "known_formats", "register"]

_registry: dict[str, Adapter] = {}
_loaded = False
# Servers read transcripts in threads: the first requests at once must all wait for the whole
# registry, not see it half filled (or empty) and call a transcript an unknown format.
_loading = threading.RLock()


def register(adapter_class: type[Adapter]) -> type[Adapter]:
    """Register an adapter class under its ``name`` (usable as a class decorator)."""
    _registry[adapter_class.name] = adapter_class()
    return adapter_class


def _load_builtins() -> None:
    global _loaded
    if _loaded:
        return
    with _loading:  # re-entrant: a module being imported may look up the registry
        if _loaded:
            return
        for module in pkgutil.iter_modules(__path__):
            importlib.import_module(f"{__name__}.{module.name}")
        _loaded = True


def known_formats() -> list[str]:
    """Names accepted by ``--format``, sorted."""
    _load_builtins()
    return sorted(_registry)


def adapter_named(name: str) -> Adapter:
    """The adapter for ``name``; :class:`UnknownFormat` lists the known ones otherwise."""
    _load_builtins()
    try:
        return _registry[name]
    except KeyError:
        raise UnknownFormat(
            f"unknown format {name!r}; known formats: {', '.join(known_formats())}"
        ) from None


def detect(source: Source) -> Adapter:
    """The first adapter, by priority, that recognizes ``source``."""
    _load_builtins()
    with source.records.shared_head():
        for adapter in sorted(_registry.values(), key=lambda a: (a.priority, a.name)):
            try:
                recognized = adapter.sniff(source)
            except Exception:  # a sniffer tripped by a damaged record has not recognized its format
                recognized = False
            if recognized:
                return adapter
    if source.damage is not None:
        raise UnknownFormat(
            f"{source.name} is a damaged JSON document: {source.damage}, and nothing before "
            "the damage could be read as a transcript"
        )
    raise UnknownFormat(
        f"{source.name}: not a transcript format this tool knows "
        f"(known formats: {', '.join(known_formats())})"
    )
