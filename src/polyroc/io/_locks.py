"""The lock files of outputs: one writer per output, stale locks of dead processes taken over.

A lock is a file created exclusively (``O_EXCL``) holding the writer's process
id, host name and a random token; :func:`acquire_lock` takes one (waiting for
its holder if asked), :func:`release_lock` removes it if it still holds the
writer's token, and :func:`locked` holds one for a block.
"""

from __future__ import annotations

import os
import secrets
import socket
import time
from contextlib import contextmanager

from polyroc.io._signals import signals_deferred

DIRECTORY_LOCK_NAME = ".polyroc.lock"


UNREADABLE_LOCK_AGE = 5.0  # seconds after which a lock file without a process id counts as stale


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
    with signals_deferred():
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
    with signals_deferred():
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


def acquire_lock(lock, label, *, wait=0.0):
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


def release_lock(lock, token):
    """Remove ``lock`` if it still holds ``token``."""
    with signals_deferred():
        try:
            if lock.read_text(encoding="utf-8") == token:
                lock.unlink()
        except OSError:
            pass


@contextmanager
def locked(lock, label, *, wait=0.0):
    token = acquire_lock(lock, label, wait=wait)
    try:
        yield
    finally:
        release_lock(lock, token)
