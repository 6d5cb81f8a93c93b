"""The manifest, ``.polyroc-manifest.json``, listing the files polyroc wrote in a directory.

Each entry names a file (a relative path), the SHA-256 digests its content may
have and the output it belongs to; ``pending`` lists the temporaries of a write
under way. :func:`replace_problem` says whether a file may be replaced: it is
absent, or the manifest lists it with its current content.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import PurePosixPath

MANIFEST_NAME = ".polyroc-manifest.json"


@dataclass(frozen=True)
class Entry:
    """A file polyroc wrote: the digests its content may have, and the output it belongs to."""

    sha256: tuple
    output: str


@dataclass(frozen=True)
class Manifest:
    files: dict
    pending: tuple = ()

    def entries_of(self, output):
        return [name for name, entry in self.files.items() if entry.output == output]


def is_relative_name(name):
    parts = PurePosixPath(name).parts
    return (
        isinstance(name, str)
        and bool(parts)
        and not PurePosixPath(name).is_absolute()
        and "\\" not in name
        and all(part not in ("", ".", "..") for part in parts)
    )


def _is_temporary_name(name):
    """Whether ``name`` is a relative path named as :func:`polyroc.io._staging._temporary_name` names temporaries."""
    return is_relative_name(name) and re.fullmatch(r"\..+\.[0-9a-f]{8}\.tmp", PurePosixPath(name).name) is not None


def _manifest_entry(name, entry):
    digests = entry.get("sha256") if isinstance(entry, dict) else None
    if not is_relative_name(name) or not isinstance(digests, list) or not isinstance(entry.get("output"), str):
        raise ValueError(f"entry {name!r} is malformed")
    if not all(isinstance(d, str) and len(d) == 64 for d in digests):
        raise ValueError(f"entry {name!r} has a malformed digest")
    return Entry(tuple(digests), entry["output"])


def read_manifest(directory):
    """The manifest of ``directory``, or None if it has none."""
    path = directory / MANIFEST_NAME
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        document = json.loads(text)
        files = {name: _manifest_entry(name, entry) for name, entry in document["files"].items()}
        pending = tuple(document.get("pending", ()))
        if not all(_is_temporary_name(name) for name in pending):
            raise ValueError("a pending temporary is not named as polyroc names them")
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise ValueError(
            f"{path} is not a polyroc manifest ({error}), so which files polyroc wrote there is unknown; "
            "remove them and the manifest by hand, or choose another output"
        ) from None
    return Manifest(files, pending)


def manifest_text(manifest):
    document = {
        "written_by": "polyroc",
        "files": {name: {"sha256": list(e.sha256), "output": e.output} for name, e in sorted(manifest.files.items())},
        "pending": list(manifest.pending),
    }
    return json.dumps(document, indent=1) + "\n"


def _sha256(path):
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def replace_problem(directory, manifest, name):
    """Why polyroc may not replace ``directory/name``, or None if it may (absent, or its own, unchanged)."""
    path = directory / name
    try:
        status = os.lstat(path)
    except FileNotFoundError:
        return None
    entry = None if manifest is None else manifest.files.get(name)
    if manifest is not None and name in manifest.pending:
        return None
    if entry is None:
        return f"{name} exists and polyroc did not write it"
    if not stat.S_ISREG(status.st_mode) or _sha256(path) not in entry.sha256:
        return f"{name} was changed after polyroc wrote it"
    return None
