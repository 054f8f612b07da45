"""Programs that write the file an output option or their last operand names.

Image, video, document and graph converters, and archivers, write a file
the command line names: ``sips ... --out Y``, ``ffmpeg -i in.mp4 out.gif``,
``convert in.png -resize 50% out.png``, ``pandoc a.md -o a.pdf``, ``dot
-Tpng g.dot -o g.png``, ``sort -o F``, ``openssl ... -out cert.pem``,
``tar czf out.tgz src``, ``zip -r out.zip src``.  Each becomes a ``write``
of that file (its content unknown).

Decisions:

* ``sips`` without ``--out`` changes its images in place when it is given a
  changing option (``-s``, ``-z``, ``-Z``, ``-r``, ``--resample...``);
  with only ``-g`` / ``--getProperty`` it reads them.
* ``ffmpeg`` writes every operand that is not an option's value (inputs
  come after ``-i``).
* ``convert`` / ``magick`` / ``montage`` / ``compare`` write their last
  operand; ``mogrify`` changes its operands in place.
* Unpacking a whole archive (``unzip``, ``tar x``) creates files the
  command does not name: an unknown effect, with the command.
* A path known only at run time is an unknown effect, never a guess.
"""

from __future__ import annotations

from artifact_index.ingestion.events import FileOperation
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.effects.effect import Effect, Handler
from artifact_index.shell.expand import Arg
from artifact_index.shell.invocation import Invocation, Runtime, parse_options

__all__ = ["CONVERTERS"]

# sips options and how many values each takes.
_SIPS_VALUES = {
    "-s": 2,
    "--setProperty": 2,
    "-g": 1,
    "--getProperty": 1,
    "-z": 2,
    "--resampleHeightWidth": 2,
    "-Z": 1,
    "--resampleHeightWidthMax": 1,
    "--resampleWidth": 1,
    "--resampleHeight": 1,
    "-r": 1,
    "--rotate": 1,
    "-f": 1,
    "--flip": 1,
    "-c": 2,
    "--cropToHeightWidth": 2,
    "-p": 2,
    "--padToHeightWidth": 2,
    "--padColor": 1,
    "-i": 0,
    "--addIcon": 0,
    "-o": 1,
    "--out": 1,
    "-j": 1,
    "--js": 1,
}
_SIPS_READS = frozenset({"-g", "--getProperty", "-1", "--oneLine", "-h", "--help"})
# ffmpeg options that take no value.
_FFMPEG_FLAGS = frozenset(
    {
        "-y",
        "-n",
        "-hide_banner",
        "-nostdin",
        "-stats",
        "-nostats",
        "-an",
        "-vn",
        "-sn",
        "-dn",
        "-shortest",
        "-re",
        "-copyts",
        "-benchmark",
        "-report",
        "-version",
        "-h",
    }
)


def _write(inv: Invocation, arg: Arg, label: str) -> FileOperation:
    path = inv.place(arg)
    if path is None:
        return inv.unplaced(f"{label} writes", arg)
    return inv.op("write", path, detail=f"written by {label}")


def _sips(inv: Invocation, runtime: Runtime) -> Effect:
    args = list(inv.args[1:])
    out: Arg | None = None
    changes = False
    images: list[Arg] = []
    k = 0
    while k < len(args):
        value = args[k].value or ""
        if value in _SIPS_VALUES:
            if value in ("-o", "--out") and k + 1 < len(args):
                out = args[k + 1]
            elif value not in _SIPS_READS:
                changes = True
            k += 1 + _SIPS_VALUES[value]
            continue
        if value.startswith("-"):
            k += 1
            continue
        images.append(args[k])
        k += 1
    if out is not None:
        if len(images) > 1:
            return Effect([inv.unknown("sips writes its images into a directory")])
        return Effect([_write(inv, out, "sips")])
    if not changes:
        return Effect([inv.op("read", p) for p in (inv.place(a) for a in images) if p])
    return Effect(
        [
            inv.op("edit", path, detail="changed in place by sips")
            if (path := inv.place(a))
            else inv.unplaced("sips changes", a)
            for a in images
        ]
    )


def _ffmpeg(inv: Invocation, runtime: Runtime) -> Effect:
    args = list(inv.args[1:])
    outputs: list[Arg] = []
    k = 0
    while k < len(args):
        value = args[k].value
        if value is not None and value.startswith("-") and value != "-":
            k += 1 if value in _FFMPEG_FLAGS else 2
            continue
        if value not in ("-", "pipe:", "pipe:1") and not (value or "").startswith("/dev/"):
            outputs.append(args[k])
        k += 1
    return Effect([_write(inv, a, "ffmpeg") for a in outputs])


def _imagemagick(inv: Invocation, runtime: Runtime) -> Effect:
    args = list(inv.args[1:])
    tool = inv.program or "convert"
    if tool == "magick" and args and args[0].value in ("mogrify", "identify", "compare", "montage"):
        tool, args = args[0].value or tool, args[1:]
    operands = [a for a in args if not (a.value or "").startswith(("-", "+"))]
    if tool == "identify":
        return Effect()
    if tool == "mogrify":
        return Effect(
            [
                inv.op("edit", path, detail="changed in place by mogrify")
                if (path := inv.place(a))
                else inv.unplaced("mogrify changes", a)
                for a in operands
            ]
        )
    if len(operands) < 2:
        return Effect()
    output = operands[-1]
    coder = _CODER.match(output.value or "")
    if coder is not None:
        # `png:out.png` writes out.png; `info:`, `txt:-`, `null:` print or discard, writing no file.
        rest = (output.value or "")[coder.end() :]
        if rest in ("", "-") or coder["name"].lower() in ("null", "fd", "info"):
            return Effect()
        output = Arg(rest, rest)
    return Effect([_write(inv, output, tool)])


# ImageMagick's "FORMAT:" before an output names the format to write (two letters at least: a
# Windows drive letter is one).
_CODER = lazy_pattern(r"^(?P<name>[A-Za-z][A-Za-z0-9]+):")


def _option_outputs(
    label: str, short_values: str, long_values: tuple[str, ...], outputs: tuple[str, ...]
) -> Handler:
    def handler(inv: Invocation, runtime: Runtime) -> Effect:
        parsed = parse_options(inv.args[1:], short_values=short_values, long_values=long_values)
        ops: list[FileOperation] = []
        for name in outputs:
            for value in parsed.values(name):
                if value is None or value == "-":
                    continue
                ops.append(_write(inv, Arg(value, value), label))
        return Effect(ops)

    return handler


def _openssl(inv: Invocation, runtime: Runtime) -> Effect:
    args = list(inv.args[1:])
    ops: list[FileOperation] = []
    for k, arg in enumerate(args[:-1]):
        if arg.value in ("-out", "-keyout") and args[k + 1].value != "-":
            ops.append(_write(inv, args[k + 1], "openssl"))
    return Effect(ops)


def _tar(inv: Invocation, runtime: Runtime) -> Effect:
    args = list(inv.args[1:])
    if not args or args[0].value is None:
        return Effect()
    first = args[0].value
    letters = first.lstrip("-") if not first.startswith("--") else ""
    words = {a.value for a in args if a.value}
    create = "c" in letters or bool(words & {"--create", "-c"})
    extract = "x" in letters or bool(words & {"--extract", "--get", "-x"})
    if extract:
        return Effect([inv.unknown("tar unpacks an archive whose files the command does not name")])
    if not create:
        return Effect()
    archive: Arg | None = None
    if "f" in letters and not first.startswith("-"):
        archive = args[1] if len(args) > 1 else None  # old style: `tar czf out.tgz src`
    else:
        for k, arg in enumerate(args):
            value = arg.value or ""
            if value.startswith("--file="):
                archive = Arg(value.split("=", 1)[1], value.split("=", 1)[1])
            elif (
                value == "--file" or (value.startswith("-") and value.endswith("f"))
            ) and k + 1 < len(args):
                archive = args[k + 1]
    if archive is None or archive.value == "-":
        return Effect()
    return Effect([_write(inv, archive, "tar")])


def _zip(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:], short_values="bnPtx", long_values=("--password",))
    if not parsed.operands or parsed.has("-T", "--test"):
        return Effect()
    return Effect([_write(inv, parsed.operands[0], "zip")])


def _unzip(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:], short_values="dxP")
    if parsed.has("-l", "-t", "-v", "-Z", "-p"):
        return Effect()  # lists, tests or prints
    return Effect([inv.unknown("unzip unpacks an archive whose files the command does not name")])


CONVERTERS: dict[str, Handler] = {
    "sips": _sips,
    "ffmpeg": _ffmpeg,
    "convert": _imagemagick,
    "magick": _imagemagick,
    "montage": _imagemagick,
    "compare": _imagemagick,
    "mogrify": _imagemagick,
    "pandoc": _option_outputs("pandoc", "o", ("--output",), ("-o", "--output")),
    "dot": _option_outputs("dot", "oTKl", (), ("-o",)),
    "mmdc": _option_outputs("mmdc", "iotcbwHCp", ("--output", "--input"), ("-o", "--output")),
    "sort": _option_outputs("sort", "ktSTo", ("--output", "--key"), ("-o", "--output")),
    "openssl": _openssl,
    "tar": _tar,
    "zip": _zip,
    "unzip": _unzip,
}
