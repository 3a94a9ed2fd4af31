"""Writing files whole or not at all: every file c45 writes (a saved model, the
predictions of ``c45 predict -o``, a graphviz file) goes through atomic_write."""
import contextlib
import os
import stat


@contextlib.contextmanager
def atomic_write(path, encoding="utf-8", newline=None):
    """A text file object whose contents replace ``path`` only once complete.

    The text goes to a temporary file in the same directory, which is flushed,
    fsynced and renamed over ``path`` (os.replace: atomic on POSIX and Windows),
    so a crash, an error or Ctrl-C mid-write leaves the old file as it was (and
    no temporary behind, but for a crash). The new file keeps the old one's
    permissions (a new one gets the umask's). A path through a symbolic link
    replaces the link's target. A path that is not a regular file (a device such
    as /dev/stdout, a pipe) is written in place: it cannot be replaced.
    """
    path = os.fspath(path)
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        with open(path, "w", encoding=encoding, newline=newline) as fh:
            yield fh
        return
    folder, name = os.path.split(real)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    # O_EXCL: never an existing file; mode 0o666 less the umask, as open() gives.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with open(fd, "w", encoding=encoding, newline=newline) as fh:
            yield fh
            fh.flush()
            if st is not None:
                os.chmod(tmp, stat.S_IMODE(st.st_mode))
            os.fsync(fd)
        os.replace(tmp, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_folder(folder)


def _sync_folder(folder):
    """Make the rename itself durable (POSIX); best effort elsewhere."""
    try:
        fd = os.open(folder or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
