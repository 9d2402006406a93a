"""Where the probed server runs: a fresh temporary working folder with `HOME` and `TMPDIR` inside it.

`Sandbox.create(command)` makes the folder (`cwd/`, `home/`, `tmp/`), an environment whose `HOME`,
`TMPDIR` (and `TMP`, `TEMP`, the XDG base folders, `USERPROFILE`) point into it and git takes no
optional locks (`GIT_OPTIONAL_LOCKS=0`: `git status` leaves the index alone), and the server command
with its relative file arguments made absolute (they were relative to the caller's folder).
`created()` lists the files the server left there; `remove()` deletes the folder. With `--cwd DIR`
the server runs in DIR with the caller's environment instead (`Sandbox.given`).
"""
from __future__ import annotations

import os
import re
import shutil
import site
import tempfile
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

_FILE_LIKE = re.compile(r"\.[A-Za-z0-9]{1,6}$")


@dataclass
class Sandbox:
    """The server's working folder `cwd`, its environment `env` (None: the caller's), the command to
    run, and `root`, the temporary folder to remove afterwards ("" for --cwd)."""

    cwd: str
    env: Optional[Dict[str, str]]
    command: Tuple[str, ...]
    root: str = ""
    home: str = ""
    before: List[str] = field(default_factory=list)

    @classmethod
    def create(cls, command: Sequence[str], base_env: Optional[Dict[str, str]] = None) -> "Sandbox":
        """A fresh temporary folder for the server (see the module docstring)."""
        caller = dict(os.environ if base_env is None else base_env)
        root = tempfile.mkdtemp(prefix="errlint-probe-")
        cwd, home, tmp = (os.path.join(root, part) for part in ("cwd", "home", "tmp"))
        for folder in (cwd, home, tmp):
            os.mkdir(folder)
        env = dict(caller)
        if "PYTHONUSERBASE" not in env:  # keep `pip install --user` packages importable under the new HOME
            user_base = site.getuserbase()
            if os.path.isdir(user_base):
                env["PYTHONUSERBASE"] = user_base
        env.update({
            "GIT_OPTIONAL_LOCKS": "0",  # `git status` in a read-only tool must not rewrite a repository's index
            "HOME": home, "USERPROFILE": home, "TMPDIR": tmp, "TMP": tmp, "TEMP": tmp,
            "XDG_CONFIG_HOME": os.path.join(home, ".config"), "XDG_CACHE_HOME": os.path.join(home, ".cache"),
            "XDG_DATA_HOME": os.path.join(home, ".local", "share"), "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
        })
        box = cls(cwd, env, absolute_command(command), root, home)
        box.before = box._files()
        return box

    @classmethod
    def given(cls, cwd: str, command: Sequence[str]) -> "Sandbox":
        """Run in the caller's folder `cwd` with the caller's environment (--cwd)."""
        return cls(os.path.abspath(cwd), None, tuple(command))

    def _files(self) -> List[str]:
        if not self.root:
            return []
        out: List[str] = []
        for folder, _dirs, files in os.walk(self.root):
            out.extend(os.path.relpath(os.path.join(folder, f), self.root) for f in files)
        return sorted(out)

    def created(self) -> List[str]:
        """Files the server created in the temporary folder (relative to it), sorted."""
        before = set(self.before)
        return [f for f in self._files() if f not in before]

    def remove(self) -> None:
        """Delete the temporary folder (nothing for --cwd)."""
        if self.root:
            shutil.rmtree(self.root, ignore_errors=True)


def absolute_command(command: Sequence[str]) -> Tuple[str, ...]:
    """`command` with each argument that names an existing file or folder relative to this process's
    folder (it holds a `/` or ends in a file extension) made absolute, so it still works from the
    server's temporary folder."""
    out: List[str] = []
    for index, part in enumerate(command):
        looks_like_path = os.sep in part or bool(_FILE_LIKE.search(part))
        if part and not part.startswith("-") and not os.path.isabs(part) and looks_like_path and os.path.exists(part):
            part = os.path.abspath(part)
        out.append(part)
    return tuple(out)
