"""Issue 14 item 11: leaks and size by provenance and shape, not by names (extract/value_origins.py).

Each case asserts the exact (row, code) pairs errlint reports with every designed rule on, so nothing else
is reported either. The first case of each kind is the issue's example; the others are other frameworks
and shapes. The `CLOSE_SHAPES` must keep the findings they have."""
from __future__ import annotations

import pytest
from conftest import at

from errlint.extract.value_origins import secret_url

# Capability URLs and DSNs are secrets (AEM301) by where the value comes from: a signing call, an env var
# or setting named for a DSN/webhook, a URL literal with a password or a token parameter.
CAPABILITY = {
    'example': ('''
def upload(bucket, key, data):
    url = bucket.presign(key)
    try:
        put(url, data)
    except TimeoutError:
        raise TimeoutError(f"Upload to {url} timed out")
''', [(7, 'AEM301')]),
    'boto3_click': ('''
import boto3
import click

@click.command()
@click.argument("key")
def share(key):
    s3 = boto3.client("s3")
    link = s3.generate_presigned_url("get_object", Params={"Bucket": "reports", "Key": key}, ExpiresIn=600)
    if not reachable(link):
        raise click.ClickException(f"Report link {link} does not answer; retry in a minute.")
''', [(11, 'AEM301')]),  # "retry in a minute" is the step
    'env_dsn_fastapi': ('''
import os
from fastapi import FastAPI, HTTPException

app = FastAPI()
TARGET = os.environ["DATABASE_URL"]

@app.get("/health")
def health():
    if not ping(TARGET):
        raise HTTPException(status_code=503, detail=f"Database {TARGET} is unreachable; retry in 30 s.")
''', [(11, 'AEM301')]),
    'webhook_setting_mcp': ('''
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("notify")

@mcp.tool()
def notify(text: str) -> str:
    target = settings.slack_webhook_url
    try:
        post(target, text)
    except ConnectionError:
        raise ToolError(f"Could not post to {target}; retry in a minute.")
    return "sent"
''', [(13, 'AEM301')]),
    'userinfo_fstring_cli': ('''
import sys

def main(user, host, word):
    conn = f"postgresql://{user}:{word}@{host}:5432/app"
    if not connect(conn):
        sys.exit(f"Cannot connect to {conn}; check that the server at {host} is running.")
''', [(7, 'AEM301')]),
    'gcs_signed_log': ('''
import logging
log = logging.getLogger(__name__)

def publish(blob):
    where = blob.generate_signed_url(expiration=3600)
    log.error("Publishing %s failed", where)
''', [(7, 'AEM301')]),
    'literal_in_message_http': ('''
from flask import Flask, jsonify

app = Flask(__name__)

@app.get("/report")
def report():
    if not ready():
        return jsonify(error="Report not ready; poll https://files.example/r/42?X-Amz-Signature=9f8e7d6c5b&X-Amz-Expires=600 again in 30 s."), 503
    return jsonify(ok=True)
''', [(9, 'AEM301')]),
}

# Paths built from the home directory are home paths (AEM302) however they are named, module constants included.
HOME = {
    'example': ('''
import sys
import platformdirs

STATE = platformdirs.user_data_dir("app")

def main():
    if locked():
        sys.exit(f"State folder {STATE} is locked by another process; close it and retry.")
''', [(9, 'AEM302')]),
    'click_app_dir': ('''
import os
import click

@click.command()
def init():
    cfg = os.path.join(click.get_app_dir("tool"), "config.toml")
    if os.path.exists(cfg):
        raise click.ClickException(f"{cfg} already exists; pass --force to overwrite it.")
''', [(9, 'AEM302')]),
    'env_fastmcp': ('''
import os
from pathlib import Path
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("notes")
BASE = Path(os.environ.get("HOME", "/tmp")) / "notes"

@mcp.tool()
def read_note(slug: str) -> str:
    target = BASE / f"{slug}.md"
    if not target.is_file():
        raise ToolError(f"No note at {target}; call list_notes to see the slugs.")
    return target.read_text()
''', [(14, 'AEM302')]),
    'platformdirs_object_argparse': ('''
import argparse
from platformdirs import PlatformDirs

DIRS = PlatformDirs("crawler", "acme")

def main():
    parser = argparse.ArgumentParser()
    args = parser.parse_args()
    cache = DIRS.user_cache_path.joinpath("index.db")
    if not cache.exists():
        parser.error(f"no index at {cache}; run `crawler build` first")
''', [(12, 'AEM302')]),
    'expanduser_constant_flask': ('''
from pathlib import Path
from flask import Flask, jsonify

app = Flask(__name__)
CACHE = Path("~/.cache/thumbs").expanduser()

@app.get("/thumb/<name>")
def thumb(name):
    target = CACHE / name
    if not target.exists():
        return jsonify(error=f"No thumbnail {name!r} in {CACHE}; call /thumbs to list them."), 404
    return jsonify(path=name)
''', [(12, 'AEM302')]),
}

# The text of an OSError raised on a home or credential path shows that path (AEM302).
OS_ERRORS = {
    'netrc_mcp': ('''
import os
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("x")
NETRC = os.path.expanduser("~/.netrc")

@mcp.tool()
def login(host: str) -> str:
    try:
        with open(NETRC) as fh:
            return fh.readline()
    except OSError as err:
        raise RuntimeError(f"Cannot read the netrc file: {err}")
''', [(14, 'AEM201'), (14, 'AEM302')]),
    'appdir_json_cli': ('''
import json
import sys
import platformdirs

CONFIG = platformdirs.user_config_path("sync") / "accounts.json"

def main():
    try:
        accounts = json.loads(CONFIG.read_text())
    except FileNotFoundError as exc:
        sys.exit(f"Cannot read the accounts: {exc}")
''', [(12, 'AEM302')]),  # a FileNotFoundError caught by name, behind a prefix naming the read: a relay, not AEM207
    'filename_typer': ('''
from pathlib import Path
import typer

app = typer.Typer()

@app.command()
def token():
    try:
        Path.home().joinpath(".config", "gh", "hosts.yml").read_text()
    except PermissionError as e:
        typer.echo(f"Cannot open {e.filename}; run `gh auth login`.", err=True)
        raise typer.Exit(1)
''', [(12, 'AEM302')]),
    'credential_env_cli': ('''
import os
import sys

KEY_FILE = os.environ["GOOGLE_APPLICATION_CREDENTIALS"]

def main():
    try:
        with open(KEY_FILE) as fh:
            fh.read()
    except FileNotFoundError as exc:
        sys.exit(f"Cannot load the service account: {exc}. Set GOOGLE_APPLICATION_CREDENTIALS to the key file.")
''', [(12, 'AEM302')]),
    'secret_mount_filename_stderr': ('''
import sys
from pathlib import Path

SECRETS = Path("/run/secrets")

def main():
    try:
        (SECRETS / "tls.pem").read_bytes()
    except OSError as e:
        print(f"Cannot read the TLS key {e.filename}; mount it with `--secret tls`.", file=sys.stderr)
        sys.exit(1)
''', [(11, 'AEM302')]),
}

# Bodies and records returned by I/O are unbounded (AEM402) whatever the variable is called.
IO_BODIES = {
    'example_httpx': ('''
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("wiki")

@mcp.tool()
async def page(title: str) -> str:
    async with httpx.AsyncClient() as client:
        got = await client.get(f"https://wiki.example/api/{title}")
    if got.status_code == 404:
        raise ToolError(f"No page titled {title!r}; call search_pages first.")
    if got.status_code != 200:
        raise ToolError(f"Wiki returned {got.status_code}: {got.text}")
    return got.text
''', [(15, 'AEM201'), (15, 'AEM402')]),
    'cursor_rows_cli': ('''
import sqlite3
import sys

def main(db):
    cur = sqlite3.connect(db).cursor()
    cur.execute("SELECT name FROM jobs WHERE state = 'stuck'")
    stuck = cur.fetchall()
    if stuck:
        sys.exit(f"Jobs are stuck: {stuck}; run `jobs reset` to clear them.")
''', [(10, 'AEM402')]),
    'subprocess_flask': ('''
import subprocess
from flask import Flask, jsonify

app = Flask(__name__)

@app.post("/build")
def build():
    try:
        listing = subprocess.check_output(["make", "-n"], text=True)
    except subprocess.CalledProcessError:
        return jsonify(error="make failed"), 500
    if "error" in listing:
        return jsonify(error=f"Build plan is broken: {listing}"), 500
    return jsonify(ok=True)
''', [(12, 'AEM101'), (14, 'AEM402')]),
    'requests_json_dict_exc': ('''
import requests

def sync(account):
    answer = requests.post("https://crm.example/api/sync", json={"id": account})
    if not answer.ok:
        details = {"status": answer.status_code, "reply": answer.json()}
        raise RuntimeError(f"CRM sync failed: {details}")
''', [(8, 'AEM402')]),
    'urlopen_read_aiohttp': ('''
from aiohttp import web

async def handler(request):
    async with request.app["http"].get("https://feed.example/x") as upstream:
        if upstream.status >= 400:
            payload = await upstream.text()
            raise web.HTTPBadGateway(text=f"Feed failed: {payload}")
    return web.json_response({})
''', [(8, 'AEM201'), (8, 'AEM402')]),
}

# A traceback is both a leak (AEM305) and oversized (AEM402), however it is turned into text.
TRACEBACKS = {
    'example': ('''
import traceback
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("x")

@mcp.tool()
def export(name: str) -> str:
    try:
        return run(name)
    except Exception:
        return f"Error: {traceback.format_exc()}"
''', [(11, 'AEM201'), (11, 'AEM305'), (11, 'AEM402'), (11, 'AEM601')]),  # (a returned error reply is read as a raise)
    'join_format_exception_fastapi': ('''
import traceback
from fastapi import FastAPI
from fastapi.responses import JSONResponse

app = FastAPI()

@app.post("/run")
def run_job():
    try:
        go()
    except Exception as exc:
        trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        return JSONResponse(status_code=500, content={"error": trace})
''', [(14, 'AEM305'), (14, 'AEM402')]),
    'exception_object_click': ('''
import traceback
import click

@click.command()
def deploy():
    try:
        push()
    except Exception as exc:
        lines = traceback.TracebackException.from_exception(exc).format()
        raise click.ClickException("Deploy failed: " + "".join(lines))
''', [(11, 'AEM201'), (11, 'AEM305'), (11, 'AEM402')]),
    'formatter_mcp': ('''
import logging
import sys
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("x")
FORMATTER = logging.Formatter()

@mcp.tool()
def convert(doc: str) -> str:
    try:
        return render(doc)
    except Exception:
        raise ToolError(f"Conversion failed: {FORMATTER.formatException(sys.exc_info())}")
''', [(15, 'AEM201'), (15, 'AEM305'), (15, 'AEM402')]),
    'dunder_traceback_exit': ('''
import sys

def main():
    try:
        work()
    except Exception as e:
        sys.exit(f"Crashed at {e.__traceback__!r}")
''', [(8, 'AEM201'), (8, 'AEM305')]),
}

# Close shapes that must stay as they are: a masked URL, a pagination token, a path relative to the project,
# len() and a bounded slice of a body, a small literal dict, a tool's successful result, a lookup's attribute, an XML
# node's text, a traceback in the operator's log, a DSN's hostname, an OSError's strerror, a path the caller gave, expanded,
# a tool's error reply that lists the few folders it searched, a re-bound parameter expanded, and a permitted base
# folder under the working directory (what is allowed), the OSError of a path the caller gave in a tool's reply.
CLOSE_SHAPES = {
    'masked_url': ('''
import sys

def main(user, host, secret_value):
    shown = f"postgresql://{user}:***@{host}:5432/app"
    if not connect(host):
        sys.exit(f"Cannot connect to {shown}; check that the server at {host} is running.")
''', []),
    'public_url_query': ('''
import click

@click.command()
@click.argument("page", type=int)
def show(page):
    url = f"https://api.example.com/items?page={page}&page_token=abc"
    if page < 1:
        raise click.BadParameter(f"page must be 1 or more (got {page}); {url} starts at 1.")
''', []),
    'project_relative': ('''
import sys
from pathlib import Path

DATA = Path(__file__).parent / "data"

def main():
    target = DATA / "seed.csv"
    if not target.exists():
        sys.exit(f"Missing {target}; run `make seed` first.")
''', []),
    'len_and_slice': ('''
import requests

def sync(account):
    answer = requests.post("https://crm.example/api/sync", json={"id": account})
    if answer.status_code >= 500:
        raise RuntimeError(f"CRM returned {answer.status_code} ({len(answer.text)} bytes); retry in 30 s.")
    if not answer.ok:
        raise RuntimeError(f"CRM returned {answer.status_code}: {answer.text[:200]}; retry in 30 s.")
''', []),
    'small_dict_dumps': ('''
import json
import sys

def main(item_id):
    reply = {"error": "not_found", "id": item_id}
    if missing(item_id):
        sys.exit("Lookup failed: " + json.dumps(reply))
''', [(8, 'AEM201')]),
    'tool_success_body': ('''
import requests
from fastmcp import FastMCP

mcp = FastMCP("x")

@mcp.tool()
def page(title: str) -> str:
    got = requests.get(f"https://wiki.example/{title}")
    return got.text
''', []),
    'table_get_text': ('''
import sys

def main(name):
    entry = CATALOG.get(name)
    if entry is None:
        sys.exit(f"No entry {name!r}; run `tool list`.")
    sys.exit(f"Entry {name!r} is {entry.status}; run `tool enable {name}`.")
''', [(7, 'AEM204')]),
    'placeholder_query_docs': ('''
import click

@click.command()
def setup():
    if not configured():
        raise click.ClickException("No API key set; export FEED_URL=https://feed.example/v1?api_key=YOUR_KEY and rerun.")
''', []),
    'xml_text': ('''
import xml.etree.ElementTree as ET

def title_of(doc):
    node = ET.fromstring(doc).find("title")
    if node.text not in ("a", "b"):
        raise ValueError(f"Unknown title {node.text!r}; expected 'a' or 'b'.")
''', []),
    'traceback_in_log': ('''
import logging
import traceback
log = logging.getLogger(__name__)

def job():
    try:
        step()
    except Exception:
        log.error("job failed: %s", traceback.format_exc())
''', []),
    'dsn_hostname': ('''
import os
import sys
from urllib.parse import urlsplit

TARGET = os.environ["DATABASE_URL"]

def main():
    if not ping(TARGET):
        sys.exit(f"Database at {urlsplit(TARGET).hostname} is unreachable; start it with `make db`.")
''', []),
    'oserror_project_file': ('''
import sys

def main():
    try:
        open("settings.toml").read()
    except OSError as exc:
        sys.exit(f"Cannot read settings.toml: {exc.strerror}; run `app init`.")
''', []),
    'caller_path_expanded': ('''
import sys
from pathlib import Path

def load(manifest_file: Path):
    path = manifest_file.expanduser().resolve()
    if not path.is_file():
        sys.exit(f"Manifest does not exist: {path}; pass --manifest with an existing file.")
''', []),
    'tool_error_dict_searched_dirs': ('''
import os
from fastmcp import FastMCP

mcp = FastMCP("slides")

@mcp.tool()
def from_template(template_path: str) -> dict:
    if not os.path.exists(template_path):
        dirs = search_dirs()
        return {"error": f"Template {template_path} not found. Searched in {', '.join(dirs)}; pass a path under one of them."}
    return {"ok": True}
''', [(11, 'AEM601')]),
    'caller_path_rebound_tool': ('''
from pathlib import Path
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("pdf")

@mcp.tool()
def convert(file_path: str) -> str:
    file_path = Path(file_path).expanduser().resolve()
    if not file_path.exists():
        raise ToolError(f"File not found: {file_path}; pass the path of an existing PDF.")
    return "ok"
''', []),
    'working_directory_base_allowed': ('''
import os
from pathlib import Path

def output_path(output_file):
    base = Path(os.environ.get("REPORT_DIR") or Path.cwd()).resolve()
    resolved = (base / output_file).resolve()
    if not resolved.is_relative_to(base):
        raise ValueError(f"output_file {output_file!r} resolves outside the permitted output directory {base}; pass a relative path.")
    return resolved
''', []),
    'oserror_of_caller_path_tool_reply': ('''
from pathlib import Path
from fastmcp import FastMCP

mcp = FastMCP("pdf")

@mcp.tool()
def convert(file_path: str, save_path: str = None) -> dict:
    try:
        if save_path:
            save_path: Path = Path(save_path).expanduser().resolve()
            with open(save_path, "w") as f:
                f.write("x")
            return {"markdown_path": save_path.expanduser().resolve().as_posix()}
    except Exception as e:
        return {"error": f"Failed to convert PDF to markdown: {e!s}", "success": False}
''', [(16, 'AEM601')]),
}

ALL = {f'{kind}-{name}': case for kind, cases in (('CAPABILITY', CAPABILITY), ('HOME', HOME), ('OS_ERRORS', OS_ERRORS), ('IO_BODIES', IO_BODIES), ('TRACEBACKS', TRACEBACKS), ('CLOSE_SHAPES', CLOSE_SHAPES)) for name, case in cases.items()}


@pytest.mark.parametrize("name", sorted(ALL))
def test_value_origins(name):
    code, expected = ALL[name]
    assert at(code) == expected


@pytest.mark.parametrize("text, secret", [
    ("postgres://app:hunter2@db.internal/app", True),
    ("postgres://app:***@db.internal/app", False),
    ("redis://cache:6379/0", False),
    ("https://hooks.slack.com/services/T000/B000/XXXX", True),
    ("https://x.example/file?X-Amz-Signature=abc123&X-Amz-Expires=60", True),
    ("https://x.example/items?page_token=abc", False),
    ("https://x.example/v1?api_key=<your key>", False),
    ("https://x.example/v1?api_key=$API_KEY", False),
    ("https://x.example/v1?access_token=ya29.a0Af", True),
])
def test_secret_url_shapes(text, secret):
    assert secret_url(text) is secret
