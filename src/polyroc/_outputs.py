"""Writing outputs without ever losing a file: manifests, locks, staged renames, held signals.

:class:`OutputFile` (one file, e.g. tuned thresholds) and
:class:`OutputDirectory` (a directory of files, e.g. a report) keep four
promises:

1. **No file is lost.** polyroc never overwrites or removes a file it did not
   write itself. Every directory it writes into holds a manifest,
   ``.polyroc-manifest.json``, listing the files it wrote there with their
   SHA-256 digests. An existing file is replaced (or, when a newer report no
   longer has it, removed) only when the manifest lists it and its content is
   unchanged; anything else is refused when the output is opened, before any
   work.
2. **One writer per output.** Opening an output creates a lock file
   exclusively (``O_EXCL``): ``.NAME.lock`` beside a file, ``.polyroc.lock``
   inside a directory. It holds the writer's process id and host name and is
   removed when the output is closed. A second writer is refused with the
   first one's process id; a lock whose process no longer runs on this host
   is stale and taken over.
3. **Always the old or the new output, never a mix of bytes or a gap.** Each
   file is written to a hidden temporary beside it (``.NAME.XXXXXXXX.tmp``)
   and renamed over it, an atomic replacement. A directory is updated in
   place, so it always exists: every new file is staged first (a full disk
   leaves the earlier output untouched), then each is renamed into place,
   in the order given (a report renames its figures first and
   ``report.html`` last), then files of the earlier output that the new one
   lacks are removed. Each path holds its complete old or complete new
   content at every moment; for the microseconds of the renames a reader may
   find new figures beside the earlier ``report.html``. The manifest is
   rewritten before the renames listing both digests of every file, so an
   output cut short by ``kill -9`` or a power cut can still be replaced, and
   listing the temporaries, so the next write removes them.
4. **Interrupts leave nothing behind.** SIGINT, SIGTERM and SIGHUP arriving
   while a lock is taken or files are staged and renamed are held back until
   that short phase has ended, then delivered; no temporary or lock is left.
   A write starts (signals held) by a last look at the stop request of
   :mod:`polyroc._stopping`: a command stopped before it writes nothing, one
   stopped during it has written everything.

Files are created with mode ``0o666`` and directories with ``0o777``, less the
umask, as ``open()`` and ``mkdir`` create them; a replaced file keeps its mode.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import signal
import socket
import stat
import threading
import time
from collections.abc import Iterable, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from polyroc._stopping import STOP_SIGNALS, raise_if_stopped

__all__ = ["MANIFEST_NAME", "OutputDirectory", "OutputFile", "directory_refusal"]

MANIFEST_NAME = ".polyroc-manifest.json"
DIRECTORY_LOCK_NAME = ".polyroc.lock"
MANIFEST_LOCK_WAIT = 10.0  # seconds a writer waits for another one to finish updating a manifest
UNREADABLE_LOCK_AGE = 5.0  # seconds after which a lock file without a process id counts as stale
_STOP_SIGNALS = tuple(STOP_SIGNALS)


# --------------------------------------------------------------------------- interrupts


def _deliver(signum, handler):
    """Act on a signal held back while ``handler`` was its handler."""
    if callable(handler):
        handler(signum, None)
    elif handler in (signal.SIG_DFL, None):
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)


@contextmanager
def _signals_deferred():
    """Hold SIGINT, SIGTERM and SIGHUP back for the block; deliver the first one received after it.

    Only the main thread receives Python signal handlers, so elsewhere this does
    nothing. A signal arriving while the handlers are being restored goes to the
    handler it would have reached without this block.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received, previous, holding = [], {}, [True]

    def hold(signum, frame):
        if holding[0]:
            received.append(signum)
        else:
            _deliver(signum, previous[signum])

    try:
        for signum in _STOP_SIGNALS:
            previous[signum] = signal.signal(signum, hold)
        yield
    finally:
        holding[0] = False
        for signum, handler in previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)
        if received:
            _deliver(received[0], previous[received[0]])


# --------------------------------------------------------------------------- locks


def _process_alive(pid):
    """Whether process ``pid`` runs on this host (assumed where it cannot be checked)."""
    if pid == os.getpid() or os.name == "nt":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _lock_holder(lock):
    """(text, pid, host) of a lock file; pid and host are None if unreadable; None if it is gone."""
    try:
        text = lock.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return None
    fields = text.split()
    if len(fields) == 3 and fields[0].isdigit() and int(fields[0]) > 0:
        return text, int(fields[0]), fields[1]
    return text, None, None


def _lock_is_stale(lock, pid, host):
    if pid is None:
        try:
            return time.time() - lock.stat().st_mtime > UNREADABLE_LOCK_AGE
        except FileNotFoundError:
            return False
    return host == socket.gethostname() and not _process_alive(pid)


def _create_lock(lock, token):
    """Create ``lock`` holding ``token`` if no such file exists; return whether it did."""
    with _signals_deferred():
        try:
            handle = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            return False
        try:
            os.write(handle, token.encode("utf-8"))
        except BaseException:
            os.close(handle)
            os.unlink(lock)
            raise
        os.close(handle)
        return True


def _break_stale_lock(lock, text):
    """Remove a stale lock whose content is ``text``; give back a lock taken in between."""
    with _signals_deferred():
        aside = lock.with_name(f"{lock.name}.{secrets.token_hex(4)}.stale")
        try:
            os.rename(lock, aside)
        except FileNotFoundError:
            return
        try:
            moved = aside.read_text(encoding="utf-8", errors="replace")
        except OSError:
            moved = text
        if moved != text:
            try:
                os.link(aside, lock)
            except OSError:
                pass
        os.unlink(aside)


def _acquire_lock(lock, label, *, wait=0.0):
    """Take ``lock`` (waiting up to ``wait`` seconds for its holder); return the token written in it."""
    token = f"{os.getpid()} {socket.gethostname()} {secrets.token_hex(8)}\n"
    deadline, broken = time.monotonic() + wait, 0
    while True:
        try:
            if _create_lock(lock, token):
                return token
        except OSError as error:
            raise OSError(error.errno, f"{label}: cannot write into {lock.parent}: {error.strerror}") from None
        holder = _lock_holder(lock)
        if holder is None:
            continue
        text, pid, host = holder
        if broken < 3 and _lock_is_stale(lock, pid, host):
            broken += 1
            _break_stale_lock(lock, text)
            continue
        if time.monotonic() >= deadline:
            who = f"process {pid} on {host}" if pid is not None else "process"
            raise FileExistsError(
                f"{label}: another polyroc {who} is writing it (lock file {lock}); wait for it to finish, "
                "or remove the lock file if that process no longer runs"
            )
        time.sleep(0.01)


def _release_lock(lock, token):
    """Remove ``lock`` if it still holds ``token``."""
    with _signals_deferred():
        try:
            if lock.read_text(encoding="utf-8") == token:
                lock.unlink()
        except OSError:
            pass


@contextmanager
def _locked(lock, label, *, wait=0.0):
    token = _acquire_lock(lock, label, wait=wait)
    try:
        yield
    finally:
        _release_lock(lock, token)


# --------------------------------------------------------------------------- manifests


@dataclass(frozen=True)
class _Entry:
    """A file polyroc wrote: the digests its content may have, and the output it belongs to."""

    sha256: tuple
    output: str


@dataclass(frozen=True)
class _Manifest:
    files: dict
    pending: tuple = ()

    def entries_of(self, output):
        return [name for name, entry in self.files.items() if entry.output == output]


def _is_relative_name(name):
    parts = PurePosixPath(name).parts
    return (
        isinstance(name, str)
        and bool(parts)
        and not PurePosixPath(name).is_absolute()
        and "\\" not in name
        and all(part not in ("", ".", "..") for part in parts)
    )


def _is_temporary_name(name):
    """Whether ``name`` is a relative path named as :func:`_temporary_name` names temporaries."""
    return _is_relative_name(name) and re.fullmatch(r"\..+\.[0-9a-f]{8}\.tmp", PurePosixPath(name).name) is not None


def _manifest_entry(name, entry):
    digests = entry.get("sha256") if isinstance(entry, dict) else None
    if not _is_relative_name(name) or not isinstance(digests, list) or not isinstance(entry.get("output"), str):
        raise ValueError(f"entry {name!r} is malformed")
    if not all(isinstance(d, str) and len(d) == 64 for d in digests):
        raise ValueError(f"entry {name!r} has a malformed digest")
    return _Entry(tuple(digests), entry["output"])


def _read_manifest(directory):
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
    return _Manifest(files, pending)


def _manifest_text(manifest):
    document = {
        "written_by": "polyroc",
        "files": {name: {"sha256": list(e.sha256), "output": e.output} for name, e in sorted(manifest.files.items())},
        "pending": list(manifest.pending),
    }
    return json.dumps(document, indent=1) + "\n"


def _write_manifest(directory, manifest, label):
    """Replace the manifest of ``directory`` (None: remove it) atomically."""
    path = directory / MANIFEST_NAME
    try:
        if manifest is None:
            os.unlink(path)
            return
        temporary = directory / _temporary_name(MANIFEST_NAME)
        _stage_file(temporary, _manifest_text(manifest).encode("utf-8"), _existing_mode(path))
        try:
            _install(temporary, path)
        except BaseException:
            _remove_quietly(temporary)
            raise
    except OSError as error:
        raise _user_error(error, label, path) from None


def _sha256(path):
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _replace_problem(directory, manifest, name):
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


# --------------------------------------------------------------------------- writing files


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
        if _replace_problem(directory, manifest, name) is None and (directory / name).exists():
            os.unlink(directory / name)
            removed.append(name)
    return removed


def _commit(directory, original, files, output, label, stale=()):
    """Replace ``files`` (name -> bytes) in ``directory``, remove ``stale`` ones, update the manifest.

    Runs with signals held back, under the directory's lock. ``original`` is
    the manifest before (None if there was none), restored if staging fails.
    """
    manifest = original or _Manifest({})
    for name in manifest.pending:
        _remove_quietly(directory / name)
    digests = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}
    temporaries = {name: _temporary_name(name) for name in files}
    kept = {name: e for name, e in manifest.files.items() if name not in files and name not in stale}
    both = {name: _Entry(tuple(dict.fromkeys([*_digests(manifest, name), digests[name]])), output) for name in files}
    _write_manifest(directory, _Manifest({**manifest.files, **both}, tuple(temporaries.values())), label)
    try:
        _stage_all(directory, files, temporaries, label)
    except BaseException:
        try:
            _write_manifest(directory, None if original is None else _Manifest(manifest.files), label)
        except OSError:
            pass
        raise
    _install_all(directory, list(files), temporaries, label)
    _removed_stale(directory, manifest, stale)
    new = {name: _Entry((digests[name],), output) for name in files}
    _write_manifest(directory, _Manifest({**kept, **new}), label)
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


def _check_path_text(path, option):
    text = os.fspath(path)
    if not str(text).strip():
        raise ValueError(f"{option or 'path'}: an empty path")
    return Path(text)


def _as_bytes(content):
    if isinstance(content, str):
        return content.encode("utf-8")
    if isinstance(content, bytes):
        return content
    raise TypeError(f"content must be str or bytes, got {type(content).__name__}")


class _Output:
    """Opened (lock taken, checks made) on entering a ``with`` block, closed on leaving it.

    Signals are held while opening, so an interrupt never leaves a lock behind.
    """

    def __enter__(self):
        try:
            with _signals_deferred():
                self._open()
        except BaseException:
            self._close()
            raise
        return self

    def __exit__(self, *exc_info):
        self._close()


class OutputFile(_Output):
    """One output file, checked and locked on entry, before the work that produces it.

    Use as a context manager; call :meth:`write` once the content is ready.
    On entry the file's directory must exist, and the file must be absent or
    one that polyroc wrote and nobody changed since (see the module
    docstring); the lock ``.NAME.lock`` is taken and held until exit.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write.
    inputs : mapping of str to path, optional
        The inputs of the command (option -> path); the output may not be one of them.
    option : str, optional
        The command-line option naming the output, for messages (e.g. ``"--out"``).

    Raises
    ------
    FileExistsError
        On entry: the file exists and may not be replaced (not written by
        polyroc, changed since, or one of ``inputs``), or another process
        holds its lock.
    IsADirectoryError, FileNotFoundError, NotADirectoryError
        On entry: the path is a directory, or its directory does not exist.
    OSError
        On entry or :meth:`write`: the directory is not writable, the disk is full.
    ValueError
        The path is empty, or the directory's manifest is damaged.

    See Also
    --------
    OutputDirectory : The same for a directory of files.
    polyroc.io.write_thresholds : Writes through it.
    polyroc.io.write_predictions : Writes through it.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     with OutputFile(os.path.join(tmp, "a.txt")) as out:
    ...         out.write("hello")
    ...     open(os.path.join(tmp, "a.txt")).read(), sorted(os.listdir(tmp))
    ('hello', ['.polyroc-manifest.json', 'a.txt'])
    """

    def __init__(
        self, path: str | os.PathLike, *, inputs: Iterable[str | os.PathLike] | None = None, option: str | None = None
    ) -> None:
        self.path = _check_path_text(path, option)
        self.label = f"{option} {self.path}" if option else str(self.path)
        self.written = False
        self._inputs = dict(inputs or {})
        self._token = None

    @property
    def _lock(self):
        return self.path.parent / f".{self.path.name}.lock"

    def _open(self):
        parent = self.path.parent
        if parent.exists() and not parent.is_dir():
            raise NotADirectoryError(f"{self.label}: {parent} is not a directory")
        if not parent.is_dir():
            raise FileNotFoundError(f"{self.label}: the directory {parent} does not exist")
        if self.path.is_dir():
            raise IsADirectoryError(f"{self.label}: is a directory; give a file name")
        for option, given in self._inputs.items():
            if given is not None and self.path.exists() and Path(given).exists() and self.path.samefile(given):
                raise FileExistsError(f"{self.label}: is also the {option} input; choose another output file")
        self._token = _acquire_lock(self._lock, self.label)
        problem = _replace_problem(parent, _labelled(_read_manifest, parent, self.label), self.path.name)
        if problem is not None:
            raise FileExistsError(
                f"{self.label}: {problem}; polyroc replaces only files it wrote and nobody "
                "changed: choose another file or remove it"
            )

    def _close(self):
        if self._token is not None:
            _release_lock(self._lock, self._token)
            self._token = None

    def write(self, content: str | bytes) -> None:
        """Replace the file with ``content`` (str as UTF-8, or bytes), atomically.

        Parameters
        ----------
        content : str or bytes
            The whole new content of the file.

        Returns
        -------
        None

        Raises
        ------
        FileExistsError
            The file was created or changed by someone else since the entry checks.
        TypeError
            ``content`` is neither str nor bytes.
        ValueError
            The directory's manifest is damaged.
        OSError
            Writing failed (e.g. the disk is full); the file is then unchanged.

        See Also
        --------
        OutputDirectory.write : The same for several files.

        Examples
        --------
        >>> import tempfile, os
        >>> with tempfile.TemporaryDirectory() as tmp:
        ...     with OutputFile(os.path.join(tmp, "a.txt")) as out:
        ...         out.write("first")
        ...         out.write(b"second")  # polyroc wrote it: may be replaced
        ...     open(os.path.join(tmp, "a.txt")).read()
        'second'
        """
        data = _as_bytes(content)
        parent = self.path.parent
        with _locked(parent / DIRECTORY_LOCK_NAME, self.label, wait=MANIFEST_LOCK_WAIT), _signals_deferred():
            raise_if_stopped()
            manifest = _labelled(_read_manifest, parent, self.label)
            problem = _replace_problem(parent, manifest, self.path.name)
            if problem is not None:
                raise FileExistsError(f"{self.label}: {problem}; nothing was written")
            _commit(parent, manifest, {self.path.name: data}, self.path.name, self.label)
            self.written = True


def _labelled(function, directory, label):
    try:
        return function(directory)
    except ValueError as error:
        raise ValueError(f"{label}: {error}") from None


def _files_below(directory, name):
    """Relative names of every file and directory below ``directory/name``."""
    root = directory / name
    names = []
    for folder, subfolders, files in os.walk(root):
        for entry in [*subfolders, *files]:
            names.append((Path(folder) / entry).relative_to(directory).as_posix())
    return names


def _below_problem(directory, manifest, name):
    """Why an entry below the subdirectory ``name`` may not be written over, or None."""
    for below in _files_below(directory, name):
        path = directory / below
        if path.is_dir() and not path.is_symlink():
            return f"{below}/ is a directory polyroc did not create"
        problem = _replace_problem(directory, manifest, below)
        if problem is not None:
            return problem
    return None


def _reserved_problem(directory, manifest, reserved):
    """Why a reserved path (``name``, or ``name/`` for a whole subdirectory) may not be written."""
    for name in reserved:
        if name.endswith("/"):
            folder = directory / name.rstrip("/")
            if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
                problem = f"{name.rstrip('/')} exists and is not a directory polyroc created"
            else:
                problem = _below_problem(directory, manifest, name.rstrip("/"))
        else:
            problem = _replace_problem(directory, manifest, name)
        if problem is not None:
            return problem
    return None


def directory_refusal(path: str | os.PathLike, *, reserved: Iterable[str] = ()) -> str | None:
    """Why polyroc would refuse to write into the directory ``path``, or None if it would not.

    polyroc writes a directory output into a new directory, an empty one, or
    one it wrote before (whose manifest lists files of that output). The paths
    in ``reserved`` (``"name"`` for a file, ``"name/"`` for everything below a
    subdirectory) must then be absent or files polyroc wrote and nobody
    changed. Other files are left alone.

    Parameters
    ----------
    path : str or os.PathLike
    reserved : sequence of str
        Relative paths the output may write.

    Returns
    -------
    str or None

    Raises
    ------
    ValueError
        The directory's manifest is damaged.

    See Also
    --------
    OutputDirectory : Refuses on entry for the same reasons.
    polyroc.report.is_report_directory : The check for a report's directory.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = open(os.path.join(tmp, "thesis.tex"), "w").write("mine")
    ...     directory_refusal(tmp).split(" (")[0], directory_refusal(os.path.join(tmp, "new"))
    ('the directory is not empty', None)
    """
    directory = Path(path)
    if not directory.exists():
        parent = directory.parent
        return None if parent.is_dir() else f"its parent directory {parent} does not exist"
    if not directory.is_dir():
        return "exists and is not a directory"
    manifest = _read_manifest(directory)
    names = sorted(entry.name for entry in directory.iterdir() if entry.name != DIRECTORY_LOCK_NAME)
    if (manifest is None or not manifest.entries_of(".")) and names:
        shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
        if manifest is None:
            why = f"it has no {MANIFEST_NAME}"
        elif manifest.files:
            outputs = sorted({entry.output for entry in manifest.files.values()})
            why = f"its {MANIFEST_NAME} lists only the single files polyroc wrote there ({', '.join(outputs)})"
        else:
            why = f"its {MANIFEST_NAME} lists no file"
        return (
            f"the directory is not empty ({shown}) and is not an earlier polyroc output ({why}); "
            "choose a new or empty directory"
        )
    problem = _reserved_problem(directory, manifest, reserved)
    if problem is None:
        return None
    return (
        f"{problem}; polyroc replaces only files it wrote and nobody changed: move it away or choose another directory"
    )


class OutputDirectory(_Output):
    """A directory output (e.g. a report), checked and locked on entry, before the work that fills it.

    Use as a context manager; call :meth:`write` once the files are ready. On
    entry the directory is created if absent (its parent must exist) and the
    lock ``.polyroc.lock`` inside it is taken; it must be new, empty, or hold
    an earlier output of polyroc whose ``reserved`` paths are unchanged (see
    :func:`directory_refusal`). On exit the lock is removed, and so is the
    directory if it was created and nothing was written.

    Parameters
    ----------
    path : str or os.PathLike
    reserved : sequence of str
        The relative paths the output may write: ``"name"`` or ``"name/"`` (a subdirectory).
    option : str, optional
        The command-line option naming the output, for messages.

    Raises
    ------
    FileExistsError
        On entry: the directory may not be written (see :func:`directory_refusal`)
        or another process holds its lock.
    FileNotFoundError
        On entry: the parent directory does not exist.
    OSError
        The directory cannot be created or written.
    ValueError
        The path is empty, or the manifest is damaged.

    See Also
    --------
    OutputFile : The same for a single file.
    directory_refusal : Why a directory would be refused.
    polyroc.report.Report.write : Writes a report through it.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     with OutputDirectory(os.path.join(tmp, "out"), reserved=["a.txt"]) as out:
    ...         out.write({"a.txt": b"hello"})
    ...     sorted(os.listdir(os.path.join(tmp, "out")))
    ['.polyroc-manifest.json', 'a.txt']
    """

    def __init__(self, path: str | os.PathLike, *, reserved: Iterable[str], option: str | None = None) -> None:
        self.path = _check_path_text(path, option)
        self.label = f"{option} {self.path}" if option else str(self.path)
        self.reserved = tuple(reserved)
        self.written = False
        self._created = False
        self._token = None

    @property
    def _lock(self):
        return self.path / DIRECTORY_LOCK_NAME

    def _open(self):
        if not self.path.exists() and not self.path.is_symlink():
            if not self.path.parent.is_dir():
                raise FileNotFoundError(f"{self.label}: the directory {self.path.parent} does not exist")
            try:
                os.mkdir(self.path, 0o777)
                self._created = True
            except FileExistsError:
                pass
            except OSError as error:
                raise OSError(error.errno, f"{self.label}: cannot create the directory: {error.strerror}") from None
        if not self.path.is_dir():
            raise FileExistsError(f"{self.label}: exists and is not a directory")
        self._token = _acquire_lock(self._lock, self.label)
        problem = _labelled(lambda path: directory_refusal(path, reserved=self.reserved), self.path, self.label)
        if problem is not None:
            raise FileExistsError(f"{self.label}: {problem}")

    def _close(self):
        with _signals_deferred():
            if self._token is not None:
                _release_lock(self._lock, self._token)
                self._token = None
            if self._created and not self.written:
                try:
                    os.rmdir(self.path)
                except OSError:
                    pass
                self._created = False

    def write(self, files: Mapping[str, str | bytes]) -> None:
        """Write ``files`` (relative name -> bytes, in renaming order) and remove the earlier output's others.

        Parameters
        ----------
        files : mapping of str to str or bytes
            Relative path (``/``-separated, inside the directory; subdirectories
            are created) -> content (str as UTF-8). Files are renamed into place
            in this order.

        Returns
        -------
        None

        Raises
        ------
        FileExistsError
            A file to be written was created or changed by someone else since entry.
        ValueError
            A name is not a relative path inside the directory (or is the
            manifest's or the lock's), or the manifest is damaged.
        TypeError
            A content is neither str nor bytes.
        OSError
            Writing failed (e.g. the disk is full); the earlier output is then unchanged.

        See Also
        --------
        OutputFile.write : The same for one file.
        directory_refusal : What may be written where.

        Examples
        --------
        >>> import tempfile, os
        >>> with tempfile.TemporaryDirectory() as tmp:
        ...     target = os.path.join(tmp, "out")
        ...     with OutputDirectory(target, reserved=["a.txt", "b/"]) as out:
        ...         out.write({"a.txt": "one", "b/c.txt": b"two"})
        ...     with OutputDirectory(target, reserved=["a.txt", "b/"]) as out:
        ...         out.write({"a.txt": "three"})  # b/c.txt, of the earlier output, is removed
        ...     sorted(os.listdir(target)), open(os.path.join(target, "a.txt")).read()
        (['.polyroc-manifest.json', 'a.txt', 'b'], 'three')
        """
        files = {name: _as_bytes(data) for name, data in files.items()}
        bad = [
            name
            for name in files
            if not _is_relative_name(name) or PurePosixPath(name).name in (MANIFEST_NAME, DIRECTORY_LOCK_NAME)
        ]
        if bad:
            raise ValueError(f"{self.label}: cannot write {bad}: not relative file names")
        with _signals_deferred():
            raise_if_stopped()
            manifest = _labelled(_read_manifest, self.path, self.label)
            for name in files:
                problem = _replace_problem(self.path, manifest, name)
                if problem is not None:
                    raise FileExistsError(f"{self.label}: {problem}; nothing was written")
            stale = [] if manifest is None else [n for n in manifest.entries_of(".") if n not in files]
            _commit(self.path, manifest, files, ".", self.label, stale)
            self.written = True
