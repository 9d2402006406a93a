"""The mcp and fastmcp versions installed in the project's own virtual environment, `ROOT/.venv`.

Version detection (`config.detect_version_sources`) reads this after the lock files and `==` pins
and before lower bounds: an installed version is exact, where `mcp>=1.9` is not. Only the
project's `.venv` is read (POSIX `lib/pythonX.Y/site-packages` and Windows `Lib/site-packages`),
never the environment errlint itself runs in, which may belong to another project.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Dict, List, Tuple

PACKAGES = ("mcp", "fastmcp")


def installed_versions(root: Path) -> Dict[str, Tuple[str, str]]:
    """{"mcp": ("2.1.0", ".venv/lib/python3.12/site-packages/mcp-2.1.0.dist-info/METADATA")}: each
    package installed in `root/.venv`, with the root-relative file its version was read from."""
    venv = root / ".venv"
    found: Dict[str, Tuple[str, str]] = {}
    for site in _site_packages(venv):
        try:
            entries = sorted(os.listdir(site))
        except OSError:
            continue
        for entry in entries:
            if not entry.lower().endswith(".dist-info"):
                continue
            name, _, version = entry[: -len(".dist-info")].partition("-")
            name = _normalize(name)
            if name not in PACKAGES or name in found:
                continue
            metadata = site / entry / "METADATA"
            declared, read = _metadata(metadata)
            if declared and _normalize(declared) != name:
                continue
            version = read or version
            if version:
                source = metadata if read else site / entry
                found[name] = (version, source.relative_to(root).as_posix())
    return found


def _site_packages(venv: Path) -> List[Path]:
    if not venv.is_dir():
        return []
    return sorted(venv.glob("lib/python*/site-packages")) + sorted(venv.glob("lib64/python*/site-packages")) + [venv / "Lib" / "site-packages"]


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _metadata(path: Path) -> Tuple[str, str]:
    """(Name, Version) from a METADATA file's headers; ("", "") when it cannot be read."""
    name = version = ""
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if not line.strip():
                    break  # the headers end at the first blank line; the description follows
                key, _, value = line.partition(":")
                if key.lower() == "name":
                    name = value.strip()
                elif key.lower() == "version":
                    version = value.strip()
    except OSError:
        return "", ""
    return name, version
