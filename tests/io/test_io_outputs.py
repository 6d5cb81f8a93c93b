"""Writing outputs: the manifest rule, locks, atomic replacement, file modes and held-back signals."""

import errno
import hashlib
import json
import os
import signal
import socket
import stat

import pytest

from polyroc.io import (
    MANIFEST_NAME,
    OutputDirectory,
    OutputFile,
    _locks,
    _outputs,
    _signals,
    _staging,
    directory_refusal,
)
from polyroc.report import is_report_directory

LOCK = _locks.DIRECTORY_LOCK_NAME


def _tree(root):
    """Every file below ``root`` (hidden ones too) as {relative path: bytes}."""
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def _manifest(directory):
    return json.loads((directory / MANIFEST_NAME).read_text())


def _unused_pid():
    """A process id no process can have: above 2**22, the largest any POSIX system here allows."""
    return 2**22 + 1


def _write_file(path, content):
    with OutputFile(path) as out:
        out.write(content)


def _write_directory(path, files, reserved=("a.txt", "sub/")):
    with OutputDirectory(path, reserved=reserved) as out:
        out.write(files)


@pytest.fixture
def umask(request):
    previous = os.umask(request.param)
    yield request.param
    os.umask(previous)


def test_manifest_lists_each_written_file_with_the_sha256_of_its_bytes(tmp_path):
    _write_file(tmp_path / "a.json", "first")
    _write_file(tmp_path / "b.csv", b"second")
    files = _manifest(tmp_path)["files"]
    assert files == {
        "a.json": {"sha256": [hashlib.sha256(b"first").hexdigest()], "output": "a.json"},
        "b.csv": {"sha256": [hashlib.sha256(b"second").hexdigest()], "output": "b.csv"},
    }
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST_NAME, "a.json", "b.csv"]


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002, 0o027], indirect=True)
def test_new_files_and_directories_follow_the_umask(tmp_path, umask):
    _write_file(tmp_path / "tau.json", "{}")
    _write_directory(tmp_path / "report", {"sub/fig.png": b"png", "a.txt": b"text"})
    for path in (
        tmp_path / "tau.json",
        tmp_path / MANIFEST_NAME,
        tmp_path / "report" / "a.txt",
        tmp_path / "report" / "sub" / "fig.png",
        tmp_path / "report" / MANIFEST_NAME,
    ):
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask, path
    for path in (tmp_path / "report", tmp_path / "report" / "sub"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o777 & ~umask, path


def test_a_replaced_file_keeps_its_mode(tmp_path):
    path = tmp_path / "tau.json"
    _write_file(path, "first")
    os.chmod(path, 0o640)
    _write_file(path, "second")
    assert path.read_text() == "second" and stat.S_IMODE(path.stat().st_mode) == 0o640


@pytest.mark.parametrize(
    "prepare, match",
    [
        (lambda p: p.write_text("the user's"), "tau.json exists and polyroc did not write it"),
        (
            lambda p: (_write_file(p, "polyroc's"), p.write_text("edited")),
            "tau.json was changed after polyroc wrote it",
        ),
        (lambda p: p.mkdir(), "is a directory"),
    ],
)
def test_output_file_refuses_before_the_work(tmp_path, prepare, match):
    path = tmp_path / "tau.json"
    prepare(path)
    before = _tree(tmp_path)
    with pytest.raises(OSError, match=match), OutputFile(path, option="--out"):
        pytest.fail("the block ran although the output was refused")
    assert _tree(tmp_path) == before
    assert not (tmp_path / ".tau.json.lock").exists()


def test_output_file_refuses_one_of_its_inputs(tmp_path):
    path = tmp_path / "tau.json"
    _write_file(path, "polyroc's")  # even a file polyroc wrote may not be replaced while it is read
    refused = OutputFile(path, inputs={"--tau": str(path)}, option="--out")
    with pytest.raises(FileExistsError, match=r"--out .*tau\.json: is also the --tau input"), refused:
        pass


def test_output_file_needs_its_directory_and_a_path(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"the directory .*missing does not exist"):
        OutputFile(tmp_path / "missing" / "tau.json").__enter__()
    with pytest.raises(ValueError, match="--out: an empty path"):
        OutputFile("", option="--out")
    assert list(tmp_path.iterdir()) == []


def test_two_files_opened_together_in_one_directory_both_enter_the_manifest(tmp_path):
    with OutputFile(tmp_path / "a.json") as first, OutputFile(tmp_path / "b.json") as second:
        second.write("b")
        first.write("a")
    assert sorted(_manifest(tmp_path)["files"]) == ["a.json", "b.json"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST_NAME, "a.json", "b.json"]


def test_directory_output_replaces_its_files_removes_stale_ones_and_keeps_the_users(tmp_path):
    out = tmp_path / "report"
    _write_directory(out, {"sub/x.png": b"x", "sub/y.png": b"y", "a.txt": b"old"})
    (out / "notes.txt").write_text("the user's")
    _write_directory(out, {"sub/x.png": b"x2", "a.txt": b"new"})
    assert _tree(out) == {
        MANIFEST_NAME: (out / MANIFEST_NAME).read_bytes(),
        "a.txt": b"new",
        "notes.txt": b"the user's",
        "sub/x.png": b"x2",
    }
    assert sorted(_manifest(out)["files"]) == ["a.txt", "sub/x.png"]


def test_a_stale_file_the_user_changed_is_kept_and_no_longer_listed(tmp_path):
    out = tmp_path / "report"
    _write_directory(out, {"sub/x.png": b"x", "sub/y.png": b"y"})
    (out / "sub" / "y.png").write_bytes(b"edited")
    assert "sub/y.png was changed" in directory_refusal(out, reserved=["sub/"])
    _write_directory(out, {"sub/x.png": b"x2"}, reserved=["a.txt"])  # sub/ not reserved: the write may go on
    assert (out / "sub" / "y.png").read_bytes() == b"edited"
    assert sorted(_manifest(out)["files"]) == ["sub/x.png"]


@pytest.mark.parametrize(
    "prepare, match",
    [
        (lambda d: (d / "thesis.tex").write_text("x"), "the directory is not empty"),
        (
            lambda d: (
                _write_directory(d, {"a.txt": b"a"}),
                (d / "sub").mkdir(),
                (d / "sub" / "mine.png").write_bytes(b"u"),
            ),
            "sub/mine.png exists and polyroc did not write it",
        ),
        (
            lambda d: (_write_directory(d, {"a.txt": b"a"}), (d / "a.txt").write_text("edited")),
            "a.txt was changed after polyroc wrote it",
        ),
        (
            lambda d: (_write_directory(d, {"a.txt": b"a"}), (d / "sub").mkdir(), (d / "sub" / "deeper").mkdir()),
            "sub/deeper/ is a directory polyroc did not create",
        ),
        (
            lambda d: (_write_directory(d, {"a.txt": b"a"}), (d / "sub").symlink_to(d.parent)),
            "sub exists and is not a directory polyroc created",
        ),
        (
            lambda d: (_write_directory(d, {"a.txt": b"a"}), (d / "sub").write_text("x")),
            "sub exists and is not a directory polyroc created",
        ),
    ],
)
def test_directory_refusals_leave_everything_as_it_was(tmp_path, prepare, match):
    out = tmp_path / "report"
    out.mkdir()
    prepare(out)
    before = _tree(out)
    assert match in directory_refusal(out, reserved=["a.txt", "sub/"])
    with pytest.raises(FileExistsError, match=match), OutputDirectory(out, reserved=["a.txt", "sub/"]):
        pytest.fail("the block ran although the output was refused")
    assert _tree(out) == before


def test_a_damaged_manifest_is_named_and_refused(tmp_path):
    out = tmp_path / "report"
    _write_directory(out, {"a.txt": b"a"})
    for document in (
        "not json",
        '{"files": {"../outside.txt": {"sha256": [], "output": "."}}}',
        '{"files": {}, "pending": ["a.txt"]}',
    ):
        (out / MANIFEST_NAME).write_text(document)
        refused = OutputDirectory(out, reserved=["a.txt"], option="--out")
        with pytest.raises(ValueError, match=f"{MANIFEST_NAME} is not a polyroc manifest"), refused:
            pass
    assert (out / "a.txt").read_bytes() == b"a"


def test_a_new_directory_is_removed_when_nothing_was_written(tmp_path):
    with pytest.raises(ValueError, match="bad input"), OutputDirectory(tmp_path / "report", reserved=["a.txt"]):
        assert (tmp_path / "report" / LOCK).is_file()
        raise ValueError("bad input")
    assert list(tmp_path.iterdir()) == []


def _fail_on_call(number, original, error):
    calls = []

    def wrapped(*args, **kwargs):
        calls.append(args)
        if len(calls) == number:
            raise error
        return original(*args, **kwargs)

    return wrapped


def test_a_full_disk_while_staging_leaves_the_earlier_output_and_names_the_users_path(tmp_path, monkeypatch):
    out = tmp_path / "report"
    _write_directory(out, {"sub/x.png": b"x", "a.txt": b"old"})
    before = _tree(out)
    full = OSError(errno.ENOSPC, "No space left on device", str(out / "sub" / ".x.png.1234abcd.tmp"))
    # call 1 writes the manifest of intent, calls 2 and 3 stage the files
    monkeypatch.setattr(_staging, "_stage_file", _fail_on_call(3, _staging._stage_file, full))
    with pytest.raises(OSError) as raised:
        _write_directory(out, {"sub/x.png": b"x2", "a.txt": b"new"})
    assert str(raised.value).endswith(f"{out}: cannot write {out / 'a.txt'}: No space left on device")
    assert ".tmp" not in str(raised.value)
    assert _tree(out) == before


def test_a_write_cut_between_renames_leaves_whole_files_and_the_next_write_recovers(tmp_path, monkeypatch):
    out = tmp_path / "report"
    old = {"sub/x.png": b"x", "sub/y.png": b"y", "a.txt": b"old"}
    new = {"sub/x.png": b"x2", "sub/y.png": b"y2", "a.txt": b"new"}
    _write_directory(out, old)
    # install 1 is the manifest of intent, 2 the first file; the second file's rename fails
    monkeypatch.setattr(_staging, "_install", _fail_on_call(3, _staging._install, OSError(errno.EIO, "I/O error")))
    with pytest.raises(OSError, match="I/O error"):
        _write_directory(out, new)
    monkeypatch.undo()
    state = _tree(out)
    assert state["sub/x.png"] == b"x2" and state["sub/y.png"] == b"y" and state["a.txt"] == b"old"
    assert not [name for name in state if name.endswith(".tmp")]
    listed = _manifest(out)["files"]
    for name, content in old.items():
        assert set(listed[name]["sha256"]) == {
            hashlib.sha256(content).hexdigest(),
            hashlib.sha256(new[name]).hexdigest(),
        }
    _write_directory(out, new)
    assert {name: data for name, data in _tree(out).items() if name != MANIFEST_NAME} == new
    assert _manifest(out)["pending"] == []


def test_temporaries_left_by_a_killed_writer_are_removed_by_the_next_write(tmp_path):
    out = tmp_path / "report"
    _write_directory(out, {"sub/x.png": b"x"})
    manifest = _manifest(out)
    leftover = "sub/.x.png.0badf00d.tmp"
    (out / leftover).write_bytes(b"half")
    manifest["pending"] = [leftover]
    (out / MANIFEST_NAME).write_text(json.dumps(manifest))
    assert directory_refusal(out, reserved=["sub/"]) is None
    _write_directory(out, {"sub/x.png": b"x2"})
    assert not (out / leftover).exists()


def _hold_lock(path, pid, host=None):
    path.write_text(f"{pid} {host or socket.gethostname()} 0123456789abcdef\n")


def test_a_live_writer_holds_the_output(tmp_path):
    _write_file(tmp_path / "tau.json", "earlier")
    lock = tmp_path / ".tau.json.lock"
    _hold_lock(lock, os.getpid())
    busy = OutputFile(tmp_path / "tau.json", option="--out")
    with pytest.raises(FileExistsError, match=f"another polyroc process {os.getpid()} on .* is writing it"), busy:
        pass
    assert lock.read_text().startswith(f"{os.getpid()} ")  # not ours to remove
    assert (tmp_path / "tau.json").read_text() == "earlier"


def test_a_lock_of_another_host_is_respected(tmp_path):
    _hold_lock(tmp_path / ".tau.json.lock", 1, host="elsewhere.example")
    with pytest.raises(FileExistsError, match=r"process 1 on elsewhere\.example"):
        OutputFile(tmp_path / "tau.json").__enter__()


def test_a_stale_lock_is_taken_over_and_removed(tmp_path):
    out = tmp_path / "report"
    out.mkdir()
    _hold_lock(out / LOCK, _unused_pid())
    _write_directory(out, {"a.txt": b"a"})
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST_NAME, "a.txt"]


def test_an_unreadable_lock_is_stale_only_once_old(tmp_path):
    lock = tmp_path / ".tau.json.lock"
    lock.write_text("")
    with pytest.raises(FileExistsError, match="another polyroc process is writing it"):
        _write_file(tmp_path / "tau.json", "x")
    past = lock.stat().st_mtime - _locks.UNREADABLE_LOCK_AGE - 1
    os.utime(lock, (past, past))
    _write_file(tmp_path / "tau.json", "x")
    assert not lock.exists() and (tmp_path / "tau.json").read_text() == "x"


def test_a_lock_replaced_by_another_writer_is_not_removed(tmp_path):
    with OutputFile(tmp_path / "tau.json"):
        _hold_lock(tmp_path / ".tau.json.lock", os.getpid())
    assert (tmp_path / ".tau.json.lock").exists()


def test_a_writer_waits_for_the_manifest_then_gives_up_naming_the_holder(tmp_path, monkeypatch):
    monkeypatch.setattr(_outputs, "MANIFEST_LOCK_WAIT", 0.05)
    with OutputFile(tmp_path / "tau.json", option="--out") as out:
        _hold_lock(tmp_path / LOCK, os.getpid())
        with pytest.raises(FileExistsError, match=f"another polyroc process {os.getpid()}"):
            out.write("x")
    assert sorted(p.name for p in tmp_path.iterdir()) == [LOCK]


@pytest.mark.parametrize("signum, raised", [(signal.SIGINT, KeyboardInterrupt), (signal.SIGTERM, ZeroDivisionError)])
def test_signals_are_held_back_until_the_block_ends(signum, raised):
    def handler(number, frame):
        raise ZeroDivisionError(number)

    # Python's own SIGINT handler, which a shell leaves out for a background job (SIG_IGN)
    previous_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    previous = signal.signal(signal.SIGTERM, handler)
    reached = []
    try:
        with pytest.raises(raised), _signals.signals_deferred():
            os.kill(os.getpid(), signum)
            reached.append("after the signal")
        assert reached == ["after the signal"]
        assert signal.getsignal(signal.SIGTERM) is handler
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGTERM, previous)
        signal.signal(signal.SIGINT, previous_int)


def test_is_report_directory_follows_the_manifest(tmp_path):
    report = tmp_path / "r"
    _write_directory(
        report,
        {"report.html": b"<html>", "results.json": b"{}", "figures/a.png": b"p"},
        reserved=("report.html", "results.json", "figures/"),
    )
    assert is_report_directory(report)
    (report / "figures" / "mine.png").write_bytes(b"user")
    assert not is_report_directory(report)
    look_alike = tmp_path / "look-alike"
    look_alike.mkdir()
    (look_alike / "results.json").write_text("{}")
    assert not is_report_directory(look_alike)
