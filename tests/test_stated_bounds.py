"""A bound stated with its value is an allowed-values clause, so it is a next step: the reader learns
the limit, and the fix is its other side. A comparison against a number or an interpolated bound
("lower than the first value {first}", "(> {MAX_BYTES} bytes)", "more than {MAX_MODULES} modules",
"the maximum value among {values}") counts, in any sink. A comparison that only describes ("rather
than", "other than"), a bound with no value ("more than one", "too large") and a duration ("took
longer than 30s": a timeout, whose step is when to retry) do not."""
from __future__ import annotations

import pytest

from conftest import PREVIEW, lint


def aem201(code: str) -> list:
    return [d.location.row for d in lint(code, select=["AEM201"], settings=PREVIEW)]


STATED = [
    # an MCP tool refusing a fetched page over a module limit
    'import httpx\nfrom fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\n\nmcp = FastMCP("x")\nMAX_BYTES = 2_000_000\n\n\n@mcp.tool()\ndef fetch_page(url: str) -> str:\n    body = httpx.get(url).text\n    if len(body) > MAX_BYTES:\n        raise ToolError(f"The page is larger than {MAX_BYTES} bytes.")\n    return body\n',
    # a script counting the modules of an archive the user named
    'import sys\nimport zipfile\n\nLIMIT = 64\n\n\ndef main():\n    with zipfile.ZipFile(sys.argv[1]) as archive:\n        modules = [n for n in archive.namelist() if n.endswith(".bas")]\n    if len(modules) > LIMIT:\n        sys.exit(f"The project has more than {LIMIT} modules.")\n    print(len(modules))\n\n\nif __name__ == "__main__":\n    main()\n',
    # an HTTP error body with the limit after a comparison sign (mcp-stata's graph export)
    'import os\nimport subprocess\n\nfrom fastapi import FastAPI\nfrom fastapi.responses import JSONResponse\n\napp = FastAPI()\nMAX_GRAPH_BYTES = 5_000_000\n\n\n@app.post("/graphs/{name}/export")\nasync def export(name: str):\n    out = f"/tmp/{name}.png"\n    subprocess.run(["render", out], check=True)\n    if os.path.getsize(out) > MAX_GRAPH_BYTES:\n        return JSONResponse(status_code=413, content={"error": f"Graph export failed: file too large (> {MAX_GRAPH_BYTES} bytes)"})\n    return {"path": out}\n',
    # a CLI check of a value parsed out of the argument against a configured first value (bump-my-version)
    'import re\n\nimport click\n\nNUMBER = re.compile(r"(\\D*)(\\d+)(.*)")\n\n\nclass Part:\n    def __init__(self, first):\n        self.first = first\n\n    def bump(self, value):\n        match = NUMBER.search(value)\n        prefix, digits, suffix = match.groups()\n        if int(digits) < int(self.first):\n            raise click.ClickException(f"The value {value} is lower than the first value {self.first}.")\n        return f"{prefix}{int(digits) + 1}{suffix}"\n\n\n@click.command()\n@click.argument("value")\ndef main(value):\n    click.echo(Part("1").bump(value))\n',
    # a CLI message on stderr naming the collection whose maximum the value already holds
    'import sys\n\nLEVELS = ["alpha", "beta", "rc", "final"]\n\n\ndef main():\n    with open(sys.argv[1]) as handle:\n        level = handle.read().strip()\n    try:\n        print(LEVELS[LEVELS.index(level) + 1])\n    except IndexError:\n        print(f"Error: the release is already at the maximum level among {LEVELS}.", file=sys.stderr)\n        sys.exit(1)\n\n\nif __name__ == "__main__":\n    main()\n',
]


@pytest.mark.parametrize("code", STATED)
def test_a_bound_stated_with_its_value_is_the_step(code):
    assert aem201(code) == []


NOT_STATED = [
    # the limit with no value
    ("from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nMAX_ROWS = 500\nmcp = FastMCP('x')\n\n"
     "@mcp.tool()\ndef query(sql: str) -> list:\n    rows = run(sql)\n    if len(rows) > MAX_ROWS:\n"
     "        raise ToolError('The result is too large.')\n    return rows\n", 10),
    # "rather than" describes the state found
    ("from fastmcp.exceptions import ToolError\n\ndef publish(draft_id, state):\n    if state != 'approved':\n"
     "        raise ToolError(f'Draft {draft_id} is in review rather than {state}')\n", 5),
    # a duration: a timeout
    ("from fastmcp.exceptions import ToolError\n\ndef report(job, limit_s):\n    try:\n        return job.result(timeout=limit_s)\n"
     "    except TimeoutError:\n        raise ToolError(f'The report took longer than {limit_s}s and was cancelled')\n", 7),
    # a comparison with no number: "more than one"
    ("from fastmcp.exceptions import ToolError\n\ndef pick(matches):\n    if len(matches) > 1:\n"
     "        raise ToolError('Found more than one match for the name')\n", 5),
    # an element in angle brackets is not a comparison
    ("from fastmcp.exceptions import ToolError\n\ndef parse(tag):\n    if tag.startswith('x'):\n"
     "        raise ToolError(f'Unexpected element <{tag}> in the document')\n", 5),
]


# a bound with no value, in a place ("limit reached in {path}") or a duration with another unit
for text in ("The quota limit was reached in {path}.", "The maximum depth in {path} was reached.",
             "The export took longer than 2h.", "The export took longer than {limit} msec.", "The export took more than 3 weeks."):
    NOT_STATED.append((f"from fastmcp.exceptions import ToolError\n\ndef export(path, limit):\n    if path.endswith('.tmp'):\n"
                       f"        raise ToolError(f{text!r})\n", 5))


@pytest.mark.parametrize("code, row", NOT_STATED)
def test_no_stated_bound_no_step(code, row):
    assert aem201(code) == [row]
