"""The pinned corpus: read `packages.txt`, download each package once, unpack its `.py` files.

Downloads go through `pip download --no-deps --ignore-requires-python NAME==VERSION`, so the registry
decides between a wheel (a zip) and an sdist (a tarball); both are unpacked the same way, keeping only
`.py` files and never writing outside the package's folder.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Iterator, List, Optional, Tuple

HERE = Path(__file__).resolve().parent
PACKAGES = HERE / "packages.txt"
KINDS = ("mcp", "cli", "web", "sdk")


@dataclass(frozen=True)
class Package:
    kind: str
    name: str
    version: str

    @property
    def key(self) -> str:
        return f"{self.name}@{self.version}"


class CorpusError(Exception):
    """A corpus line or download that cannot be used; the text says which and what to do."""


def read_packages(path: Path = PACKAGES) -> List[Package]:
    out: List[Package] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"(\w+)\s+([A-Za-z0-9._-]+)==([A-Za-z0-9._+!-]+)", line)
        if not m or m.group(1) not in KINDS:
            raise CorpusError(
                f"{path.name}:{number}: {raw.strip()!r} is not `KIND NAME==VERSION` "
                f"with KIND one of {', '.join(KINDS)}"
            )
        out.append(Package(m.group(1), m.group(2), m.group(3)))
    return out


def default_cache() -> Path:
    base = os.environ.get("ERRLINT_ECOSYSTEM_CACHE")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(xdg) / "errlint-ecosystem"


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _archive_for(pkg: Package, folder: Path) -> Optional[Path]:
    """A downloaded wheel or sdist of exactly this name and version, if one is in `folder`."""
    if not folder.is_dir():
        return None
    want = (_normal(pkg.name), pkg.version)
    for entry in sorted(folder.iterdir()):
        stem = entry.name
        for suffix in (".whl", ".tar.gz", ".zip", ".tar.bz2", ".tgz"):
            if stem.endswith(suffix):
                stem = stem[: -len(suffix)]
                break
        else:
            continue
        parts = stem.split("-")
        if len(parts) >= 2 and (_normal(parts[0]), parts[1]) == want:
            return entry
    return None


def download(pkg: Package, cache: Path) -> Path:
    """The package's archive in the cache, downloaded on first use."""
    folder = cache / "downloads"
    found = _archive_for(pkg, folder)
    if found:
        return found
    folder.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--ignore-requires-python",
           "--disable-pip-version-check", "--quiet", "-d", str(folder), f"{pkg.name}=={pkg.version}"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    found = _archive_for(pkg, folder)
    if proc.returncode != 0 or not found:
        last = (proc.stderr.strip().splitlines() or ["pip printed nothing"])[-1]
        raise CorpusError(
            f"could not download {pkg.name}=={pkg.version} (pip exited {proc.returncode}: {last}); "
            f"check the pin in {PACKAGES.name} with `pip index versions {pkg.name}`, or pre-fill "
            f"{folder} with the wheel or sdist"
        )
    return found


def _safe_member(name: str) -> Optional[PurePosixPath]:
    p = PurePosixPath(name.replace("\\", "/"))
    if p.is_absolute() or ".." in p.parts or not name.endswith(".py"):
        return None
    return p


def _members(archive: Path) -> Iterator[Tuple[PurePosixPath, bytes]]:
    if archive.suffix in (".whl", ".zip"):
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                p = _safe_member(info.filename)
                if p is not None and not info.is_dir():
                    yield p, zf.read(info)
        return
    with tarfile.open(archive) as tf:
        for member in tf.getmembers():
            p = _safe_member(member.name)
            if p is None or not member.isfile():
                continue
            fh = tf.extractfile(member)
            if fh is not None:
                # An sdist's files sit under NAME-VERSION/; drop that first folder.
                yield PurePosixPath(*p.parts[1:]) if len(p.parts) > 1 else p, fh.read()


def unpack(pkg: Package, archive: Path, cache: Path) -> Path:
    """The folder holding the package's `.py` files (unpacked once; a marker file says it is whole)."""
    dest = cache / "src" / pkg.key
    done = dest / ".unpacked"
    if done.exists():
        return dest
    dest.mkdir(parents=True, exist_ok=True)
    for rel, data in _members(archive):
        target = dest.joinpath(*rel.parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    done.write_text(archive.name, encoding="utf-8")
    return dest
