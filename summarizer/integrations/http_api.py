"""The HTTP API (``artifact-index serve``): the context service's compact route and the trail of stored sessions.

Routes (every answer is JSON, secrets redacted, except the Markdown summary)::

    POST /api/sessions/{id}/compact      compact a request body; {didCompress, released, promptEstimate, messages}
    GET  /api/sessions?root=&since=      the session store's sessions
    GET  /api/sessions/{id}              everything the index knows (`show --json`)
    GET  /api/sessions/{id}/files        `files --json` (?changed=1, ?workspace_only=1 as the options)
    GET  /api/sessions/{id}/history?path=PATH
    GET  /api/sessions/{id}/symbols      `symbols --json` (?changed=1)
    GET  /api/sessions/{id}/errors | decisions | tasks
    GET  /api/sessions/{id}/summary      text/markdown (?template=, default: serve's --template)
    GET  /api/where?path=PATH&since=     which sessions touched a file
    GET  /api/health

The compact route is the context service's manual trigger: it compacts now, whatever
the thresholds say (``"force": false`` in the body applies them instead).
The body is the Anthropic or OpenAI request body of the session's next call
(``messages``, with ``system``, ``tools``, ``model``, ``usage`` as the API
has them), optionally with ``contextWindow``; the server keeps the
compaction event log of each session id in its state folder, so the next
compaction of that session is incremental.  Read routes take the ids of the
session store only, never a file path: a page in a browser must not make
this server read the user's files.

Bad input gets a 4xx status and ``{"error": "one sentence"}``; by default
the server listens on loopback and answers only requests addressed to it
(``Host`` checked), so a web page cannot reach it through DNS rebinding.
A web page may still send a request to loopback (a form, an image, a
``fetch`` in ``no-cors`` mode): so a request a browser marks as coming
from another origin (``Origin``, ``Sec-Fetch-Site``) is refused with 403,
and the compact route takes ``Content-Type: application/json`` only
(415), which no page can send across origins without the server's
consent.  A request body is read up to a limit (10 MiB unless ``serve
--max-body-mib`` says otherwise) and refused with 413 past it, nested
deeper than :data:`MAX_DEPTH` levels it is refused with 400; a body that
has not arrived within a minute (a client that stalls) gets 408.  A few
compactions run at once (:data:`COMPACTIONS_AT_ONCE`; the others wait
their turn) and the server takes :data:`CONNECTIONS_AT_ONCE` connections
(503 past them), so a burst of requests costs a bounded amount of memory.
``?template=`` takes a template's name, never a path: a built-in one or a
``NAME.toml`` of the folder ``serve --template-dir`` names.
With a token (``serve`` reads it from ``ARTIFACT_INDEX_HTTP_TOKEN`` or
``--token-file``, never from its command line, which other users can list),
every route but ``/api/health`` answers 401 unless the request carries
``Authorization: Bearer TOKEN``: what the sessions hold (the user's words,
the files) is then the token holder's alone, even for the other users of
the machine, who can reach loopback too.  ``serve`` refuses to listen
beyond loopback without one.
"""

from __future__ import annotations

import asyncio
import hmac
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from artifact_index import __version__
from artifact_index.exceptions import ArtifactIndexError, one_line
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.live.store import SessionNotFound, StoreError, since_cutoff
from artifact_index.redaction import redact_text
from summarizer.exceptions import CompactionFailed
from summarizer.integrations.access import SessionAccess, SessionUnknown
from summarizer.sections.templates import DEFAULT_TEMPLATE

__all__ = ["LOOPBACK_HOSTS", "BadRequest", "Compaction", "build_app", "serve"]

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
# A request body of a long session is large (tool outputs), but not this large; parsed, a body
# costs about ten times its size in memory.
MAX_BODY_BYTES = 10 * 1024 * 1024
# An API request nests a tool's input inside a block inside a message: a few dozen levels at most.
MAX_DEPTH = 128
# A client on loopback sends 10 MiB in well under a second; one that takes longer holds a
# connection and a buffer for nothing.
BODY_SECONDS = 60.0
# Each compaction holds its body parsed (about ten times its size) and may wait on a model: a few
# at once serve one user's agents, and bound what a burst of requests costs.
COMPACTIONS_AT_ONCE = 4
# Connections (and requests in flight) past this many are answered 503 at once, by the server.
CONNECTIONS_AT_ONCE = 64
_SESSION_ID = lazy_pattern(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
_TEMPLATE_NAME = lazy_pattern(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
_QUERIES = ("errors", "decisions", "tasks")


@dataclass(frozen=True)
class Compaction:
    """How the compact route compacts (the ``compact`` command's options)."""

    state_root: Path  # one folder per session id below it
    template: str = DEFAULT_TEMPLATE
    use_llm: bool | None = None
    model: str | None = None
    config: str | None = None
    provider: str | None = None
    base_url: str | None = None
    context_window: int | None = None
    instructions: tuple[
        str, ...
    ] = ()  # extra context for the narrative writer, as the compact command takes
    template_folder: Path | None = (
        None  # where ``?template=NAME`` finds NAME.toml besides the built-ins
    )
    max_body_bytes: int = MAX_BODY_BYTES
    body_seconds: float = BODY_SECONDS  # a body not received by then is a 408
    at_once: int = COMPACTIONS_AT_ONCE  # compactions run together; the others wait their turn


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": redact_text(message)}, status_code=status)


class _BearerToken:
    """Answers 401 to a request without ``Authorization: Bearer <token>``; ``/api/health`` stays open."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] != "/api/health":
            given = next(
                (value for name, value in scope["headers"] if name == b"authorization"), b""
            )
            if not hmac.compare_digest(
                given, self.expected
            ):  # constant time: the token is not guessed byte by byte
                message = (
                    "this server needs its token: send Authorization: Bearer TOKEN"
                    if not given
                    else "the token does not match this server's"
                )
                response = _error(401, message)
                response.headers["WWW-Authenticate"] = "Bearer"
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


class _SameOrigin:
    """Answers 403 to a request a browser says comes from another origin (a web page's form, image or fetch).

    ``Origin`` (sent with a cross-origin ``fetch``, a form's POST) must name
    the server itself; ``Sec-Fetch-Site`` (sent by browsers with every
    request, images and forms included) must say ``same-origin`` or ``none``
    (typed by the user).  A client that is not a browser sends neither.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = dict(scope["headers"])
            origin = headers.get(b"origin")
            site = headers.get(b"sec-fetch-site", b"").lower()
            host = headers.get(b"host", b"")
            if (origin is not None and not _is_origin_of(origin, host)) or site in (
                b"cross-site",
                b"same-site",
            ):
                response = _error(
                    403, "this server answers its own origin only, not another web page's"
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _is_origin_of(origin: bytes, host: bytes) -> bool:
    """``Origin: http://HOST`` names the server the request was sent to (``host`` is its ``Host``)."""
    for scheme in (b"http://", b"https://"):
        if origin.startswith(scheme):
            return bool(host) and origin[len(scheme) :].rstrip(b"/").lower() == host.lower()
    return False  # "null" (a sandboxed page, a file), or anything else


class BadRequest(ArtifactIndexError):
    """A malformed session id or a missing query parameter (400)."""


class _Unsupported(ArtifactIndexError):
    """A request body of another type than JSON (415)."""


def _status_of(exc: ArtifactIndexError) -> int:
    if isinstance(exc, BadRequest):
        return 400
    if isinstance(exc, _Unsupported):
        return 415
    if isinstance(exc, SessionNotFound | SessionUnknown):
        return 404
    if isinstance(exc, CompactionFailed):
        return 502  # the model behind the summary failed, not the request
    return 422


async def _body(request: Request, limit: int) -> bytes | None:
    """The request body, or None when it is over ``limit`` bytes (read no further than that)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether ``value`` nests lists and objects more than ``limit`` levels (walked without recursion)."""
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        )
        for child in children:
            if isinstance(child, dict | list):
                if depth + 1 > limit:
                    return True
                pending.append((child, depth + 1))
    return False


def _json_body(raw: bytes) -> Any:
    """The body parsed as JSON; a body that is not, or nests too deep, is a 400."""
    try:
        body = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadRequest(f"the request body is not JSON ({getattr(exc, 'msg', exc)})") from exc
    except RecursionError as exc:  # the parser's own stack ran out: deeper than anything we read
        raise BadRequest(f"the request body nests deeper than {MAX_DEPTH} levels") from exc
    if _deeper_than(body, MAX_DEPTH):
        raise BadRequest(f"the request body nests deeper than {MAX_DEPTH} levels")
    return body


Handler = Callable[[Request], Awaitable[Response]]


def _answering(handler: Handler) -> Handler:
    """Domain errors become their status and one sentence; anything else a 500 without a traceback."""

    async def answer(request: Request) -> Response:
        try:
            return await handler(request)
        except ArtifactIndexError as exc:
            return _error(_status_of(exc), one_line(exc))
        except ValidationError as exc:  # a value of the request a model refused: the caller's
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            return _error(422, f"invalid {where or 'value'}: {first['msg']}")
        except HTTPException:
            raise
        except Exception as exc:  # one sentence, never a traceback: the promise of every surface
            return _error(500, f"internal error: {type(exc).__name__}: {one_line(exc)}")

    return answer


def build_app(
    access: SessionAccess,
    compaction: Compaction,
    allowed_hosts: tuple[str, ...] | None = LOOPBACK_HOSTS,
    token: str | None = None,
) -> Starlette:
    """The ASGI application; ``allowed_hosts=None`` answers any ``Host`` (a server on a non-loopback address).

    With ``token``, every route but ``/api/health`` needs ``Authorization: Bearer <token>``.
    """
    slots = asyncio.Semaphore(compaction.at_once)

    def session_id(request: Request) -> str:
        value = str(request.path_params["id"])
        if not _SESSION_ID.match(value):
            raise BadRequest(f"{value!r} is not a session id (letters, digits, '.', '_', '-')")
        return value

    def flag(request: Request, name: str) -> bool:
        return request.query_params.get(name, "").lower() in ("1", "true", "yes")

    def required(request: Request, name: str) -> str:
        value = request.query_params.get(name)
        if not value:
            raise BadRequest(f"the query parameter {name!r} is required")
        return value

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, "version": __version__})

    def since(request: Request) -> str | None:
        value = request.query_params.get("since")
        if value is not None:
            try:
                since_cutoff(value)
            except StoreError as exc:  # its sentence names the command line's option
                raise BadRequest(
                    f"since={value[:80]!r} is neither a span (7d, 24h, 30m, 2w) nor a date "
                    "(2026-11-01)"
                ) from exc
        return value

    async def sessions(request: Request) -> Response:
        root = request.query_params.get("root")
        return JSONResponse(await run_in_threadpool(access.sessions, root, since(request)))

    async def where(request: Request) -> Response:
        path = required(request, "path")
        return JSONResponse(await run_in_threadpool(access.where, path, since(request)))

    async def show(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(access.show, None, session_id(request)))

    async def files(request: Request) -> Response:
        result = await run_in_threadpool(
            lambda: access.files(
                None,
                session_id(request),
                changed=flag(request, "changed"),
                workspace_only=flag(request, "workspace_only"),
            )
        )
        return JSONResponse(result)

    async def history(request: Request) -> Response:
        path = required(request, "path")
        return JSONResponse(
            await run_in_threadpool(access.history, path, None, session_id(request))
        )

    async def symbols(request: Request) -> Response:
        return JSONResponse(
            await run_in_threadpool(
                lambda: access.symbols(None, session_id(request), changed=flag(request, "changed"))
            )
        )

    def query(name: str) -> Handler:
        async def answer(request: Request) -> Response:
            return JSONResponse(
                await run_in_threadpool(access.query, name, None, session_id(request))
            )

        return answer

    def template_of(request: Request) -> str:
        """The template ``?template=`` names: a built-in, else NAME.toml in the configured folder."""
        from summarizer.sections.templates import builtin_templates

        name = request.query_params.get("template")
        if name is None:  # the one serve was started with (its operator's choice, a path or not)
            return compaction.template
        folder = compaction.template_folder
        names = builtin_templates() + (
            sorted(p.stem for p in folder.glob("*.toml")) if folder and folder.is_dir() else []
        )
        # Only names are taken, and the answer is the same for any other value: this server never
        # says whether a path exists.
        if _TEMPLATE_NAME.match(name) and name in names:
            return name if name in builtin_templates() else str((folder or Path()) / f"{name}.toml")
        raise BadRequest(
            f"template {name[:80]!r} is not one of this server's templates "
            f"({', '.join(dict.fromkeys(names))}); a template is named, never given by path"
        )

    async def summary(request: Request) -> Response:
        template = template_of(request)
        markdown = await run_in_threadpool(
            lambda: access.summary(
                None,
                session_id(request),
                template=template,
                use_llm=compaction.use_llm,
                model=compaction.model,
                config=compaction.config,
                provider=compaction.provider,
                base_url=compaction.base_url,
            )
        )
        return PlainTextResponse(markdown, media_type="text/markdown; charset=utf-8")

    async def compact(request: Request) -> Response:
        from summarizer.summary_commands import compact_request

        folder = compaction.state_root / session_id(request)
        media = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if media != "application/json":
            raise _Unsupported(
                "the request body must be sent as Content-Type: application/json"
                + (f", not {media[:60]}" if media else "")
            )
        try:
            raw = await asyncio.wait_for(
                _body(request, compaction.max_body_bytes), compaction.body_seconds
            )
        except TimeoutError:
            return _error(
                408, f"the request body did not arrive within {compaction.body_seconds:g} s"
            )
        if raw is None:
            return _error(413, f"the request body is over {_size(compaction.max_body_bytes)}")
        # Parsed, a body costs about ten times its size: only the compactions that run hold one.
        async with slots:
            body = _json_body(raw)
            if not isinstance(body, dict):
                return _error(
                    400,
                    'the request body must be a JSON object: an API request body with "messages"',
                )
            if "messages" not in body:
                return _error(
                    422,
                    'the request body has no "messages": this server does not keep conversations, so '
                    "post the request body of the session's next call",
                )
            force, window = (
                body.pop("force", True),
                body.pop("contextWindow", compaction.context_window),
            )
            # The context service's body names the session's folder; the messages say all we need.
            body.pop("cwd", None)
            if not isinstance(force, bool) or not (
                window is None or (isinstance(window, int) and window > 0)
            ):
                return _error(
                    422,
                    '"force" must be true or false and "contextWindow" a positive number of tokens',
                )
            result = await run_in_threadpool(
                lambda: compact_request(
                    body,
                    context_window=window,
                    state_dir=folder,
                    use_llm=compaction.use_llm,
                    model=compaction.model,
                    config=compaction.config,
                    provider=compaction.provider,
                    base_url=compaction.base_url,
                    template=compaction.template,
                    force=force,
                    instructions=compaction.instructions,
                )
            )
            return JSONResponse({**result["result"], "messages": result["messages"]})

    async def not_found(request: Request, exc: Exception) -> Response:
        if isinstance(exc, HTTPException):
            messages = {
                404: f"no such route: {request.url.path}",
                405: f"{request.method} is not allowed here",
            }
            return _error(exc.status_code, messages.get(exc.status_code, str(exc.detail)))
        return _error(500, "internal error")

    routes = [
        Route("/api/health", _answering(health)),
        Route("/api/sessions", _answering(sessions)),
        Route("/api/where", _answering(where)),
        Route("/api/sessions/{id}", _answering(show)),
        Route("/api/sessions/{id}/files", _answering(files)),
        Route("/api/sessions/{id}/symbols", _answering(symbols)),
        Route("/api/sessions/{id}/history", _answering(history)),
        Route("/api/sessions/{id}/summary", _answering(summary)),
        Route("/api/sessions/{id}/compact", _answering(compact), methods=["POST"]),
        *(Route(f"/api/sessions/{{id}}/{name}", _answering(query(name))) for name in _QUERIES),
    ]
    middleware = (
        [Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))]
        if allowed_hosts
        else []
    )
    middleware.append(Middleware(_SameOrigin))
    if token:
        middleware.append(Middleware(_BearerToken, token=token))
    return Starlette(
        routes=routes, middleware=middleware, exception_handlers={HTTPException: not_found}
    )


def _size(limit: int) -> str:
    return f"{limit / 2**20:g} MiB" if limit >= 2**20 else f"{limit:,} bytes"


def serve(app: Starlette, host: str, port: int, announce: Callable[[str], None]) -> None:
    """Serve ``app`` with uvicorn until Ctrl-C; ``announce`` gets the address once it listens (port 0 picks one)."""
    import socket

    import uvicorn

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as exc:
        listener.close()
        raise ArtifactIndexError(f"cannot listen on {host}:{port} ({exc.strerror or exc})") from exc
    bound = listener.getsockname()[1]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    announce(f"http://{shown}:{bound}")
    server = uvicorn.Server(
        uvicorn.Config(
            app, log_level="warning", access_log=False, limit_concurrency=CONNECTIONS_AT_ONCE
        )
    )
    server.run(sockets=[listener])
