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
   :mod:`polyroc._engine.stopping`: a command stopped before it writes nothing, one
   stopped during it has written everything.

Files are created with mode ``0o666`` and directories with ``0o777``, less the
umask, as ``open()`` and ``mkdir`` create them; a replaced file keeps its mode.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath

from polyroc._engine.stopping import raise_if_stopped
from polyroc.io._locks import DIRECTORY_LOCK_NAME, acquire_lock, locked, release_lock
from polyroc.io._manifests import MANIFEST_NAME, is_relative_name, read_manifest, replace_problem
from polyroc.io._signals import signals_deferred
from polyroc.io._staging import commit

__all__ = ["OutputDirectory", "OutputFile", "directory_refusal"]


MANIFEST_LOCK_WAIT = 10.0  # seconds a writer waits for another one to finish updating a manifest


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
            with signals_deferred():
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
        self,
        path: str | os.PathLike,
        *,
        inputs: Mapping[str, str | os.PathLike | None] | None = None,
        option: str | None = None,
    ) -> None:
        self.path = _check_path_text(path, option)
        self.label = f"{option} {self.path}" if option else str(self.path)
        self.written = False
        self._inputs: dict[str, str | os.PathLike | None] = dict(inputs or {})
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
        self._token = acquire_lock(self._lock, self.label)
        problem = replace_problem(parent, _labelled(read_manifest, parent, self.label), self.path.name)
        if problem is not None:
            raise FileExistsError(
                f"{self.label}: {problem}; polyroc replaces only files it wrote and nobody "
                "changed: choose another file or remove it"
            )

    def _close(self):
        if self._token is not None:
            release_lock(self._lock, self._token)
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
        with locked(parent / DIRECTORY_LOCK_NAME, self.label, wait=MANIFEST_LOCK_WAIT), signals_deferred():
            raise_if_stopped()
            manifest = _labelled(read_manifest, parent, self.label)
            problem = replace_problem(parent, manifest, self.path.name)
            if problem is not None:
                raise FileExistsError(f"{self.label}: {problem}; nothing was written")
            commit(parent, manifest, {self.path.name: data}, self.path.name, self.label)
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
        problem = replace_problem(directory, manifest, below)
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
            problem = replace_problem(directory, manifest, name)
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
    manifest = read_manifest(directory)
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
        self._token = acquire_lock(self._lock, self.label)
        problem = _labelled(lambda path: directory_refusal(path, reserved=self.reserved), self.path, self.label)
        if problem is not None:
            raise FileExistsError(f"{self.label}: {problem}")

    def _close(self):
        with signals_deferred():
            if self._token is not None:
                release_lock(self._lock, self._token)
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
            if not is_relative_name(name) or PurePosixPath(name).name in (MANIFEST_NAME, DIRECTORY_LOCK_NAME)
        ]
        if bad:
            raise ValueError(f"{self.label}: cannot write {bad}: not relative file names")
        with signals_deferred():
            raise_if_stopped()
            manifest = _labelled(read_manifest, self.path, self.label)
            for name in files:
                problem = replace_problem(self.path, manifest, name)
                if problem is not None:
                    raise FileExistsError(f"{self.label}: {problem}; nothing was written")
            stale = [] if manifest is None else [n for n in manifest.entries_of(".") if n not in files]
            commit(self.path, manifest, files, ".", self.label, stale)
            self.written = True


def write_to(path: str | os.PathLike | OutputFile, content: str | bytes) -> None:
    """Write ``content`` to ``path``: an open :class:`OutputFile`, or a path written as one writes."""
    if isinstance(path, OutputFile):
        path.write(content)
        return
    with OutputFile(path) as out:
        out.write(content)
