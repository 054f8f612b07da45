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

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

__all__ = [
    "DISTRIBUTION",
    "Installation",
    "OptionalPart",
    "installation",
    "optional_parts",
    "present_extras",
    "reinstall_with",
]

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


@dataclass(frozen=True)
class OptionalPart:
    """One optional part (``mcp``, ``http``, ``dask``) as this copy has it.

    A part is usable when every requirement it declares is installed at a
    version it accepts, whether it was asked for or another part brought its
    dependencies (the MCP SDK brings the HTTP API's server).
    """

    name: str
    # The requirements not met, each with the version installed instead (None: not installed).
    unmet: tuple[tuple[str, str | None], ...]
    came_with: str | None  # another usable part whose own dependencies include all of this one's
    requirements: int  # how many requirements the part declares

    @property
    def usable(self) -> bool:
        return not self.unmet


def _extra_requirements(extra: str, declared: list[str]) -> list[Requirement]:
    """The requirements ``extra`` adds to the package's own (markers for this Python applied)."""
    found = []
    for line in declared:
        requirement = Requirement(line)
        marker = requirement.marker
        if (
            marker is not None
            and marker.evaluate({"extra": extra})
            and not marker.evaluate({"extra": ""})
        ):
            found.append(requirement)
    return found


def _unmet(requirement: Requirement) -> tuple[str, str | None] | None:
    try:
        version = metadata.version(requirement.name)
    except metadata.PackageNotFoundError:
        return f"{requirement.name}{requirement.specifier}", None
    if requirement.specifier.contains(version, prereleases=True):
        return None
    return f"{requirement.name}{requirement.specifier}", version


def _dependencies_of(requirements: list[Requirement]) -> set[str]:
    names: set[str] = set()
    for requirement in requirements:
        try:
            declared = metadata.requires(requirement.name) or []
        except metadata.PackageNotFoundError:
            continue
        names.update(canonicalize_name(Requirement(line).name) for line in declared)
    return names


def optional_parts() -> list[OptionalPart]:
    """Every optional part the package declares, with whether this copy can use it (from the installed metadata)."""
    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return []  # run from files no installer recorded: nothing to tell
    declared = dist.requires or []
    extras = [e for e in dist.metadata.get_all("Provides-Extra") or [] if e != "test"]
    requirements = {extra: _extra_requirements(extra, declared) for extra in extras}
    unmet = {
        extra: tuple(u for r in reqs if (u := _unmet(r)) is not None)
        for extra, reqs in requirements.items()
    }
    usable = [extra for extra in extras if not unmet[extra]]
    parts = []
    for extra in extras:
        names = {canonicalize_name(r.name) for r in requirements[extra]}
        came_with = next(
            (
                other
                for other in usable
                if other != extra and names <= _dependencies_of(requirements[other])
            ),
            None,
        )
        parts.append(
            OptionalPart(
                extra,
                unmet[extra],
                came_with if not unmet[extra] else None,
                len(requirements[extra]),
            )
        )
    return parts


def present_extras() -> list[str]:
    """The optional parts this copy can use."""
    return [part.name for part in optional_parts() if part.usable]


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
    # A part another one brought (the HTTP API's server with the MCP SDK) comes back with it.
    kept = [part.name for part in optional_parts() if part.usable and part.came_with is None]
    extras = ",".join(sorted({extra, *kept}))
    spec = _spec(extras, here.source)
    if here.manager in ("uv-tool", "uv-cache"):
        return f"uv tool install --force {spec}"
    if here.manager in ("pipx", "pipx-cache"):
        return f"pipx install --force {spec}"
    if here.editable and here.source and here.source.startswith("file://"):
        folder = url2pathname(unquote(urlparse(here.source).path))
        return f"{sys.executable} -m pip install -e '{folder}[{extras}]'"
    return f"{sys.executable} -m pip install {spec}"
