"""Replacing files in a directory atomically: each new file staged beside its target, then renamed over it.

:func:`commit` writes a set of files into a directory (signals held back and
the directory locked by the caller): it records the manifest of intent (both
digests of every file, and the temporaries), stages every file, renames each
into place in order, removes the stale files of the earlier output and writes
the final manifest. A failure while staging leaves the earlier output as it was.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import stat
from pathlib import PurePosixPath

from polyroc.io._manifests import MANIFEST_NAME, Entry, Manifest, manifest_text, replace_problem


def _write_manifest(directory, manifest, label):
    """Replace the manifest of ``directory`` (None: remove it) atomically."""
    path = directory / MANIFEST_NAME
    try:
        if manifest is None:
            os.unlink(path)
            return
        temporary = directory / _temporary_name(MANIFEST_NAME)
        _stage_file(temporary, manifest_text(manifest).encode("utf-8"), _existing_mode(path))
        try:
            _install(temporary, path)
        except BaseException:
            _remove_quietly(temporary)
            raise
    except OSError as error:
        raise _user_error(error, label, path) from None


def _temporary_name(name):
    """A hidden sibling of ``name`` (a relative path) to stage its new content in."""
    path = PurePosixPath(name)
    return str(path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp"))


def _existing_mode(path):
    """The permission bits of the regular file at ``path``, or None."""
    try:
        status = os.lstat(path)
    except FileNotFoundError:
        return None
    return stat.S_IMODE(status.st_mode) if stat.S_ISREG(status.st_mode) else None


def _stage_file(temporary, data, mode):
    """Write ``data`` to the new file ``temporary`` (mode 0o666 less the umask, or ``mode``) and sync it."""
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
    except BaseException:
        _remove_quietly(temporary)
        raise


def _install(temporary, target):
    """Rename ``temporary`` over ``target`` (atomic)."""
    os.replace(temporary, target)


def _remove_quietly(path):
    try:
        os.unlink(path)
    except OSError:
        pass


def _make_parents(directory, name, created):
    """Create the missing directories of ``directory/name``, appending each to ``created``."""
    missing = []
    for parent in PurePosixPath(name).parents:
        if str(parent) == ".":
            break
        path = directory / parent
        if path.is_dir() and not path.is_symlink():
            break
        missing.append(path)
    for path in reversed(missing):
        os.mkdir(path, 0o777)
        created.append(path)


def _user_error(error, label, target):
    """An OSError of a polyroc-internal path, reworded to name the output the user chose."""
    return OSError(error.errno, f"{label}: cannot write {target}: {error.strerror}")


def _stage_all(directory, files, temporaries, label):
    """Stage every file; on failure remove what was staged and created, and raise."""
    created, staged = [], []
    try:
        for name, data in files.items():
            _make_parents(directory, name, created)
            temporary = directory / temporaries[name]
            _stage_file(temporary, data, _existing_mode(directory / name))
            staged.append(temporary)
    except BaseException as error:
        for path in staged:
            _remove_quietly(path)
        for path in reversed(created):
            try:
                os.rmdir(path)
            except OSError:
                pass
        if isinstance(error, OSError):
            raise _user_error(error, label, directory / name) from None
        raise


def _install_all(directory, names, temporaries, label):
    """Rename every staged file into place, in order; on failure remove the staged files left."""
    for position, name in enumerate(names):
        try:
            _install(directory / temporaries[name], directory / name)
        except OSError as error:
            for later in names[position:]:
                _remove_quietly(directory / temporaries[later])
            raise _user_error(error, label, directory / name) from None


def _removed_stale(directory, manifest, stale):
    """Remove the stale files that are unchanged; return their names."""
    removed = []
    for name in stale:
        if replace_problem(directory, manifest, name) is None and (directory / name).exists():
            os.unlink(directory / name)
            removed.append(name)
    return removed


def commit(directory, original, files, output, label, stale=()):
    """Replace ``files`` (name -> bytes) in ``directory``, remove ``stale`` ones, update the manifest.

    Runs with signals held back, under the directory's lock. ``original`` is
    the manifest before (None if there was none), restored if staging fails.
    """
    manifest = original or Manifest({})
    for name in manifest.pending:
        _remove_quietly(directory / name)
    digests = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}
    temporaries = {name: _temporary_name(name) for name in files}
    kept = {name: e for name, e in manifest.files.items() if name not in files and name not in stale}
    both = {name: Entry(tuple(dict.fromkeys([*_digests(manifest, name), digests[name]])), output) for name in files}
    _write_manifest(directory, Manifest({**manifest.files, **both}, tuple(temporaries.values())), label)
    try:
        _stage_all(directory, files, temporaries, label)
    except BaseException:
        try:
            _write_manifest(directory, None if original is None else Manifest(manifest.files), label)
        except OSError:
            pass
        raise
    _install_all(directory, list(files), temporaries, label)
    _removed_stale(directory, manifest, stale)
    new = {name: Entry((digests[name],), output) for name in files}
    _write_manifest(directory, Manifest({**kept, **new}), label)
    _sync_directory(directory)


def _digests(manifest, name):
    entry = manifest.files.get(name)
    return entry.sha256 if entry is not None else ()


def _sync_directory(directory):
    """Flush ``directory``'s entries (the renames) to disk, where the system allows it."""
    try:
        handle = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)
