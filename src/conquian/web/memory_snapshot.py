"""A Pyodide memory snapshot of the engine, made when the site is built, so that the page's engine
wakes without starting Python and importing the engine anew.

Pyodide 0.29 can save the WebAssembly memory of a runtime that has started Python and imported
modules (``loadPyodide({_makeSnapshot: true})`` then ``makeMemorySnapshot()``, marked experimental
upstream) and start a new runtime from it (``loadPyodide({_loadSnapshot})``).  ``conquian site
build`` makes one with Node.js (which fetching the runtime needs anyway) from the engine's package
it ships (:func:`make`): the runtime started, the package unpacked at ``/engine`` and
:mod:`conquian.web.local` imported.  The site serves it as ``offline/engine.snapshot``: a header
(:data:`MAGIC`, then the SHA-256 of the engine's package it was made with) and the memory,
gzipped.  The page's worker checks the header against the package it has (a snapshot of another
version, or one that is not a snapshot, is not loaded: Pyodide does not check, and a bad one
hangs it), restores it, unpacks the package again (the files are not in the memory), and falls
back to the plain start when there is none or it does not load.  Without Node.js, or if Node.js
fails, there is no snapshot and the page starts plainly.

A snapshot is kept beside the runtime, named by the digests of the package and of the runtime
(:func:`cached`), so the server serves one that a build made and never makes one itself.
"""

from __future__ import annotations

import gzip
import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

#: The file the site serves (the memory gzipped: a fifth of its size).
NAME = "engine.snapshot"
#: The first bytes of the file: its format.
MAGIC = b"CQSNAP1\n"

#: The Node.js program: the runtime started with the engine imported, its memory written out.
_MAKE = """
const { createRequire } = require("module");
const fs = require("fs");
const [runtime, zip, out] = process.argv.slice(2);
const { loadPyodide } = createRequire(__filename)(runtime + "/pyodide.js");
(async () => {
  const py = await loadPyodide({ indexURL: runtime + "/", _makeSnapshot: true });
  py.unpackArchive(new Uint8Array(fs.readFileSync(zip)), "zip", { extractDir: "/engine" });
  py.runPython("import sys\\nsys.path.insert(0, '/engine')\\nimport conquian.web.local");
  fs.writeFileSync(out, py.makeMemorySnapshot());
})().catch(e => { console.error(String(e && e.stack || e)); process.exit(1); });
"""


def _path(engine: bytes, runtime: Path) -> Path:
    digest = hashlib.sha256(engine)
    digest.update((runtime / "pyodide.asm.wasm").read_bytes())
    digest.update((runtime / "pyodide.asm.js").read_bytes())
    return runtime / "snapshots" / f"{digest.hexdigest()[:16]}.snapshot"


def cached(engine: bytes, runtime: Path) -> bytes | None:
    """The snapshot made for this package and runtime, if one was made."""
    path = _path(engine, runtime)
    return path.read_bytes() if path.is_file() else None


def make(engine: bytes, runtime: Path, node: str = "node", timeout: float = 300) -> bytes | None:
    """The gzipped snapshot of ``runtime`` with this engine's package imported (made once, then
    kept beside the runtime); None where Node.js is missing or fails."""
    found = cached(engine, runtime)
    if found is not None:
        return found
    exe = shutil.which(node)
    if exe is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        script, zip_path, out = Path(tmp) / "make.js", Path(tmp) / "engine.zip", Path(tmp) / "memory"
        script.write_text(_MAKE)
        zip_path.write_bytes(engine)
        try:
            done = subprocess.run([exe, str(script), str(runtime.resolve()), str(zip_path), str(out)],
                                  capture_output=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            return None
        if done.returncode != 0 or not out.is_file():
            return None
        data = MAGIC + hashlib.sha256(engine).digest() + gzip.compress(out.read_bytes(), compresslevel=6, mtime=0)
    path = _path(engine, runtime)
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_suffix(".part")
    part.write_bytes(data)
    part.replace(path)
    return data
