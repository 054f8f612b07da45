"""How this copy of artifact-index was installed: where from, by what, and how to add an extra to it.

The hints the tool prints name the install that works for this copy (it is
on no package index): a ``uv tool`` or ``pipx`` install is installed again
from where it came (the checkout, the git URL or the wheel its
``direct_url.json`` names, PEP 610), a virtual environment gets ``pip``.
A copy that runs from a tool's cache (``uvx``, ``pipx run``) is temporary:
the cache may be pruned, so nothing that must last (a hook's command) may
point into it.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Literal
from urllib.parse import unquote, urlparse
from urllib.request import url2pathname

__all__ = ["DISTRIBUTION", "Installation", "installation", "present_extras", "reinstall_with"]

DISTRIBUTION = "artifact-index"

Manager = Literal["uv-tool", "pipx", "uv-cache", "pipx-cache", "venv", "system"]


@dataclass(frozen=True)
class Installation:
    """This copy: the installer that made its environment, and the source it was installed from."""

    manager: Manager
    prefix: Path  # the environment
    source: str | None  # a URL (file://, git+https://...), or None when installed from an index
    editable: bool

    @property
    def temporary(self) -> bool:
        """Whether the environment lives in a cache its tool may prune (``uvx``, ``pipx run``)."""
        return self.manager in ("uv-cache", "pipx-cache")


def _direct_url() -> tuple[str | None, bool]:
    # A build's leftover metadata in the current directory (``*.egg-info``) may come first: the
    # installed copy is the one that recorded where it came from.
    text = next(
        (
            found
            for dist in metadata.distributions(name=DISTRIBUTION)
            if (found := dist.read_text("direct_url.json"))
        ),
        None,
    )
    if not text:
        return None, False
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return None, False
    url = data.get("url") if isinstance(data, dict) else None
    if not isinstance(url, str):
        return None, False
    vcs = data.get("vcs_info")
    if isinstance(vcs, dict) and isinstance(vcs.get("vcs"), str):
        return f"{vcs['vcs']}+{url}", False
    editable = bool((data.get("dir_info") or {}).get("editable"))
    return url, editable


def _under(path: Path, folder: str | os.PathLike[str] | None) -> bool:
    if not folder:
        return False
    try:
        path.resolve().relative_to(Path(folder).expanduser().resolve())
    except ValueError:
        return False
    return True


def _manager(prefix: Path) -> Manager:
    home = Path.home()
    cache = Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache")
    uv_cache = os.environ.get("UV_CACHE_DIR") or cache / "uv"
    uv_tools = os.environ.get("UV_TOOL_DIR") or (
        Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share") / "uv" / "tools"
    )
    pipx_home = Path(os.environ.get("PIPX_HOME") or home / ".local" / "pipx")
    if _under(prefix, uv_cache):
        return "uv-cache"
    if _under(prefix, uv_tools):
        return "uv-tool"
    if _under(prefix, pipx_home / ".cache") or _under(prefix, cache / "pipx"):
        return "pipx-cache"
    if _under(prefix, pipx_home / "venvs") or _under(
        prefix, Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share") / "pipx"
    ):
        return "pipx"
    return "venv" if sys.prefix != sys.base_prefix else "system"


def installation() -> Installation:
    """How the running copy was installed."""
    prefix = Path(sys.prefix)
    source, editable = _direct_url()
    return Installation(_manager(prefix), prefix, source, editable)


# The modules each optional part brings, to tell which parts this copy has.
_EXTRA_MODULES = {
    "mcp": ("mcp",),
    "http": ("starlette", "uvicorn"),
    "dask": ("dask", "distributed"),
}


def present_extras() -> list[str]:
    """The optional parts this copy can use."""
    import importlib.util

    return [
        extra
        for extra, modules in _EXTRA_MODULES.items()
        if all(importlib.util.find_spec(module) is not None for module in modules)
    ]


def _spec(extras: str, source: str | None) -> str:
    if source is None:
        return f"'{DISTRIBUTION}[{extras}]'"
    return f"'{DISTRIBUTION}[{extras}] @ {source}'"


def reinstall_with(extra: str) -> str:
    """The command that gives this copy the optional part ``extra`` (``mcp``, ``http``, ``dask``).

    The parts it already has are named too: installing again with one part
    only would take the others away.
    """
    here = installation()
    extras = ",".join(sorted({extra, *present_extras()}))
    spec = _spec(extras, here.source)
    if here.manager in ("uv-tool", "uv-cache"):
        return f"uv tool install --force {spec}"
    if here.manager in ("pipx", "pipx-cache"):
        return f"pipx install --force {spec}"
    if here.editable and here.source and here.source.startswith("file://"):
        folder = url2pathname(unquote(urlparse(here.source).path))
        return f"{sys.executable} -m pip install -e '{folder}[{extras}]'"
    return f"{sys.executable} -m pip install {spec}"
