"""Every file ruleproof writes goes through here: nothing partial, nothing clobbered.

* :func:`write_file` writes to a unique temporary file in the target's folder
  (``.NAME.XXXXXXXX.tmp``), syncs it to the disk, then renames it over the target
  (``os.replace``: atomic on one file system) and syncs the folder. A failure (a full disk, a
  file-size limit, the folder gone) removes the temporary file and leaves the target as it
  was: the previous good file stays whole, and the error names the path and the reason.
* Only a regular file is ever replaced: a symbolic link, FIFO, device, socket or folder at the
  target's path is refused in one line (:func:`check_target`), before any work.
* :func:`claimed` holds a lock on each output of a run (``filelock``, a well-kept library for
  exactly this: an ``flock`` on ``.NAME.lock`` next to the target, released by the operating
  system when the process ends, whatever ends it). A second run that names the same output
  is refused at its start, before it does any work, instead of racing the first one. The
  small lock file is left in place (removing it would let two runs lock two different files
  of one name).

Writers: explore's checkpoints and traces, conform's traces (engines and frameworks),
witness scenarios, step-through pages and pictures, plots, generated documents.
"""

from __future__ import annotations

import contextlib
import errno as errnos
import os
import stat
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ruleproof.errors import MalformedInput, OutputFailed

__all__ = ["Target", "check_target", "claimed", "kind_of", "lock_path", "refuse_clashes",
           "write_file", "write_files"]


@dataclass(frozen=True)
class Target:
    """One output of a run.

    Attributes:
        path: where it goes (a file; a folder of files with ``folder``).
        flag: the command-line flag that named it (``--checkpoint``, ``--out``...), for messages.
        what: what it is, in words (``checkpoint``, ``trace``, ``page``...), for messages.
        folder: the output is a folder of files (``explore --out``): it may exist as a folder
            and is created if missing; its files are written with :func:`write_files`.
    """

    path: Path
    flag: str = "--out"
    what: str = "file"
    folder: bool = False


def kind_of(mode: int) -> str:
    """What a file of mode ``mode`` (``os.lstat``) is, in words: ``a regular file``,
    ``a symbolic link``, ``a folder``, ``a FIFO``, ``a character device``..."""
    for test, name in ((stat.S_ISREG, "a regular file"), (stat.S_ISLNK, "a symbolic link"),
                       (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"  # pragma: no cover - no other kinds on POSIX


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise MalformedInput(f"cannot use it: {getattr(exc, 'strerror', None) or exc}",
                             file=str(path)) from None


def check_target(target: Target | Path, flag: str = "--out") -> Target:
    """Check that ``target`` may be written: its folder exists and takes new files, and the
    path is free or a regular file (a folder, for a folder output). Nothing is written.

    Returns:
        the target (a :class:`Target` for a plain path, with ``flag``).

    Raises:
        MalformedInput: one line naming the path, the flag and what is wrong: a symbolic link,
            FIFO, device, socket or folder where a file goes (it would be replaced: refused);
            a missing folder; a folder that cannot be written.
    """
    t = target if isinstance(target, Target) else Target(Path(target), flag)
    st = _lstat(t.path)
    if st is not None:
        ok = stat.S_ISDIR(st.st_mode) if t.folder else stat.S_ISREG(st.st_mode)
        if not ok:
            wanted = "a folder" if t.folder else "a regular file"
            raise MalformedInput(f"{t.flag}: it is {kind_of(st.st_mode)}, not {wanted}; the "
                                 f"{t.what} goes only to {wanted} (give another path)",
                                 file=str(t.path))
    parent = t.path.parent
    try:
        is_folder = stat.S_ISDIR(os.stat(parent).st_mode)
    except (OSError, ValueError):
        is_folder = False
    if not is_folder:
        raise MalformedInput(f"{t.flag}: the folder {parent} does not exist", file=str(t.path))
    try:
        with tempfile.TemporaryFile(dir=parent):
            pass
    except OSError as exc:
        raise MalformedInput(f"{t.flag}: cannot write in {parent} ({exc.strerror or exc})",
                             file=str(t.path)) from None
    return t


def _same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file (the same resolved path, or the same inode)."""
    try:
        if a.resolve() == b.resolve():
            return True
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except (OSError, ValueError, RuntimeError):
        return False


def refuse_clashes(targets: Sequence[Target], inputs: Sequence[tuple[str, Path]] = ()) -> None:
    """Refuse a run whose outputs would overwrite one of its inputs or each other, before any
    work (``ruleproof render a.toml --html a.toml`` would otherwise replace the scenario it
    reads with the page).

    Args:
        targets: the run's outputs.
        inputs: ``(what, path)`` of every file the run reads (``scenario``, ``trace``...).

    Raises:
        MalformedInput: one line naming the path and the two uses.
    """
    for i, t in enumerate(targets):
        for what, path in inputs:
            if _same_file(t.path, path):
                raise MalformedInput(f"{t.flag}: it is the {what} this run reads; writing the "
                                     f"{t.what} there would replace it (give another path)",
                                     file=str(t.path))
        for other in targets[:i]:
            if _same_file(t.path, other.path):
                raise MalformedInput(f"{t.flag} and {other.flag} name the same file (the "
                                     f"{t.what} would replace the {other.what})",
                                     file=str(t.path))


def lock_path(path: Path) -> Path:
    """The lock file of the output ``path``: ``.NAME.lock`` in the same folder."""
    return path.parent / f".{path.name}.lock"


@contextlib.contextmanager
def claimed(targets: Sequence[Target]) -> Iterator[tuple[Target, ...]]:
    """Check every target (:func:`check_target`) and hold a lock on each for the block.

    Raises:
        MalformedInput: a target that may not be written (see :func:`check_target`), or one
            that another run holds (``another ruleproof run is writing this KIND``): refused
            before any work, nothing written.
    """
    from filelock import FileLock, Timeout

    checked = [check_target(t) for t in targets]
    with contextlib.ExitStack() as stack:
        seen: set[Path] = set()
        for t in sorted(checked, key=lambda x: str(x.path)):
            where = lock_path(t.path).resolve()
            if where in seen:
                raise MalformedInput(f"{t.flag}: the same file is given for two outputs",
                                     file=str(t.path))
            seen.add(where)
            lock = FileLock(str(where), timeout=0)
            try:
                stack.enter_context(lock)
            except Timeout:
                raise MalformedInput(
                    f"{t.flag}: another ruleproof run is writing this {t.what} (it holds "
                    f"{lock_path(t.path).name}); wait for it to end or give another path",
                    file=str(t.path)) from None
            except OSError as exc:
                raise MalformedInput(f"{t.flag}: cannot lock it ({exc.strerror or exc})",
                                     file=str(t.path)) from None
        yield tuple(checked)


def _umask() -> int:
    """This process's umask (read, not changed, where /proc tells it)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # pragma: no cover - without /proc
    os.umask(mask)  # pragma: no cover
    return mask  # pragma: no cover


def write_file(target: Target | Path, data: str | bytes, *, what: str | None = None) -> Path:
    """Write ``data`` (text is written as UTF-8) to ``target`` atomically: a unique temporary
    file in the same folder, synced, renamed over the target, the folder synced. The target
    keeps its permission bits if it existed (else those of a new file under the umask).

    Returns:
        the path written.

    Raises:
        MalformedInput: the target may not be written (:func:`check_target`), checked again
            here: what was a regular file may have become a link since the run began.
        OutputFailed: the writing failed (``cannot write the KIND: REASON``, naming the
            path); the target is as it was and no temporary file is left.
    """
    t = target if isinstance(target, Target) else Target(Path(target))
    kind = what or t.what
    path = t.path
    blob = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    check_target(t)
    old = _lstat(path)
    mode = (old.st_mode & 0o7777) if old is not None else (0o666 & ~_umask())
    fd: int | None = None
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        view = memoryview(blob)
        while view:
            written = os.write(fd, view)
            if written <= 0:  # pragma: no cover - write(2) reports an error instead
                raise OSError(errnos.EIO, "short write")
            view = view[written:]
        os.fchmod(fd, mode)
        os.fsync(fd)
        os.close(fd)
        fd = None
        os.replace(tmp, path)
        tmp = None
        _sync_folder(path.parent)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise OutputFailed(f"cannot write the {kind}: {reason}", file=str(path),
                           errno=exc.errno) from None
    finally:
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return path


def _sync_folder(folder: Path) -> None:
    """Sync a folder's entries (the rename) to the disk, where the file system allows it."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:  # pragma: no cover - a folder that cannot be opened for reading
        return
    try:
        os.fsync(fd)
    except OSError as exc:  # pragma: no cover - file systems without directory fsync
        if exc.errno not in (errnos.EINVAL, errnos.ENOTSUP, errnos.EBADF):
            raise
    finally:
        os.close(fd)


def write_files(target: Target, files: Sequence[tuple[str, str | bytes]]) -> list[Path]:
    """Write ``files`` (name, data) into the folder ``target.path`` (created with its parents
    if missing), each with :func:`write_file`.

    Returns:
        the paths written, in the order given.

    Raises:
        MalformedInput: the folder's path is taken by something else than a folder, or a
            file's path by something else than a regular file.
        OutputFailed: a file could not be written (the files written before it stay).
    """
    folder = target.path
    st = _lstat(folder)
    if st is None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputFailed(f"cannot make the folder for the {target.what}: "
                               f"{exc.strerror or exc}", file=str(folder),
                               errno=exc.errno) from None
    check_target(Target(folder, target.flag, target.what, folder=True))
    return [write_file(Target(folder / name, target.flag, target.what), data)
            for name, data in files]
