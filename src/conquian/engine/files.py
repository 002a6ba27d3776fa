"""Files: records written atomically, read with limits, and kept in the user's data directory.

A record is written to a temporary file beside its destination and renamed over it, so a
failure (a full disk, a kill) leaves the old file or the new one, never half of one.  Reading
refuses what is not a regular file (a FIFO would block, ``/dev/zero`` never ends) and what is
larger than a record can sensibly be.

```pycon
>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "match.toml")
>>> atomic_write(path, "format = 1\\n")
>>> read_text_limited(path)
'format = 1\\n'

```
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from conquian.engine.errors import RecordError
from conquian.i18n import Msg

#: The largest record read (a long double-pack match is well under 1 MB; 16 MB leaves room).
MAX_RECORD_BYTES = 16 * 1024 * 1024


def atomic_write(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename.

    Raises :class:`OSError` (the destination untouched) if it cannot be written.
    """
    dest = Path(path)
    folder = dest.parent if str(dest.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # an ordinary file, not mkstemp's private one
        os.replace(tmp, dest)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def check_writable(path: str | os.PathLike[str]) -> None:
    """Raise :class:`OSError` now if a record could not be written at ``path`` later (a missing folder,
    no permission, a folder in the way), so that a long run or a match is not lost at its end."""
    dest = Path(path)
    if not str(path):
        raise OSError(22, "an empty file name")
    if dest.is_dir():
        raise OSError(21, "it is a folder")
    folder = dest.parent if str(dest.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=folder)
    os.close(fd)
    os.unlink(tmp)


def read_text_limited(path: str | os.PathLike[str], limit: int = MAX_RECORD_BYTES) -> str:
    """The text of a regular file of at most ``limit`` bytes, else :class:`RecordError` (one line)."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise RecordError(Msg("cannot read {path}: not a regular file", path=str(path)))
        if info.st_size > limit:
            raise RecordError(Msg("cannot read {path}: {size} bytes is larger than a record ({limit} at most)",
                                  path=str(path), size=f"{info.st_size:,}", limit=f"{limit:,}"))
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise RecordError(Msg("cannot read {path}: {error}", path=str(path), error=str(e.strerror or e))) from None
    if len(data) > limit:
        raise RecordError(Msg("cannot read {path}: larger than a record ({limit} bytes at most)", path=str(path),
                              limit=f"{limit:,}"))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RecordError(Msg("cannot read {path}: not UTF-8 text ({error} at byte {byte})", path=str(path),
                              error=e.reason, byte=e.start)) from None


def records_dir() -> Path:
    """The folder where the terminal game keeps records: ``conquian/records`` in the user's data
    directory (platformdirs, installed with the ``play`` extra; ``~/.local/share`` without it)."""
    try:
        from platformdirs import user_data_path

        base = user_data_path("conquian", appauthor=False)
    except ImportError:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "conquian"
    return base / "records"
