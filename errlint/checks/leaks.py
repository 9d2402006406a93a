"""3xx: leaks. Secrets, credential and home paths, URLs with secrets, environment/header dumps and
tracebacks in text that leaves the process. Diagnostics never print a secret value: they name the
expression, and literal secrets are masked to their first four characters."""
from __future__ import annotations

import re
from typing import Iterable

from typing import Optional

from ..extract.credential_paths import credential_path_tried
from ..extract.value_origins import template_secret_url
from ..fixes import replace_in_piece
from ..model import ENV_DUMP, EXCEPTION, HOME_PATH, MAYBE_SECRET, SECRET, TRACEBACK, URL, Applicability, Finding, Fix, Level, Message
from .base import CONTENT_SINKS, FileContext, Option, run_lines
from .credential_names import named_credential
from .error_replies import ErrorReplyRule as Rule  # a tool's error reply leaks as a raised error does

LITERAL_SECRETS = re.compile(
    r"(?P<s>(?:A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA)[0-9A-Z]{16}|-----BEGIN (?:RSA |DSA |EC |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----"
    r"|gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,}|xox[baprs]-[A-Za-z0-9-]{10,}|sk-[A-Za-z0-9_-]{20,}"
    r"|AIza[0-9A-Za-z_-]{35}|(?i:bearer)\s+[A-Za-z0-9._~+/-]{20,}=*)"
)
HOME_LITERAL = re.compile(r"(?<![\w.])(?:/home/[A-Za-z0-9._-]+|/Users/[A-Za-z0-9._-]+|[A-Za-z]:\\\\?Users\\\\?[A-Za-z0-9._-]+)")
PLACEHOLDER_LIKE = re.compile(r"<[^>]+>|\$\{?\w+\}?|%\w+%|\{\{[^}]*\}\}|x{4,}|\*{3,}", re.I)
LEAK_SINKS = CONTENT_SINKS | {"tool-return"}
# a path offered as an example of the allowed form ("e.g. '/home/me/q1.xlsx'") is made up
EXAMPLE_MARKER = re.compile(r"\b(?:e\.g\.|for example|for instance|such as|example:|like)", re.I)
SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)[.!?](?:\s|$)")
BUG_REPORT = re.compile(r"\b(report|file|open)\b[^.]*\b(bug|issue)\b|https?://\S+/issues", re.I)


def mask(text: str) -> str:
    """First four characters of a secret, then an ellipsis: safe to print in any output format."""
    return text[:4] + "…"


class SecretInMessage(Rule):
    """## What it does
    Flags a message that interpolates a secret-like value (a name such as `token`, `api_key`,
    `password`, `dsn`, `session_id`, `headers["Authorization"]`, `os.environ["X_TOKEN"]`) or contains
    a literal key (AWS access key ids, private-key blocks, GitHub/Slack/OpenAI-style tokens).
    Capability URLs and connection strings are secrets however the variable is named, by where the
    value comes from: a signing call (`bucket.presign(key)`, `generate_presigned_url`,
    `create_signed_url`, `generate_blob_sas`), an env var or setting named for a DSN, connection string
    or webhook (`DATABASE_URL`, `SENTRY_DSN`, `settings.slack_webhook_url`), or a URL written with a
    password, a token or signature parameter, or a webhook host (`f"postgres://{user}:{pw}@{host}"`,
    `?X-Amz-Signature=...`, `hooks.slack.com/services/...`). A record whose class declares a credential
    field (a pydantic model, dataclass, attrs class or NamedTuple of the module with `client_secret: str`)
    shows it in its repr, so a parameter annotated with that class (or a list of it), an instance the
    code makes of it (`SMTP = SmtpSettings(host, port, user, password)`) and what a function declared
    to return it returns (`def current_profile(name) -> Profile:`), and an attribute its class gives
    that type (`settings: SmtpSettings`, or `self.settings = settings` of a parameter so annotated in
    `__init__`) is a secret unless the
    field is `SecretStr` or `repr=False` (a field named only maybe for a credential, such as a lexer's
    `token`, counts where the message speaks of authentication). A plain class's instance prints as
    `<Name object at 0x…>`, none of its fields. A masked part (`:***@`, `<your key>`) is
    not. A tool's error reply returned as its result is read like a raised error. Masked
    values (`mask(x)`, `x[:4]`), `len(x)`, `bool(x)` and names such as `max_tokens`, `token_count` or
    `token_url` are not flagged, nor names that hold an error or message about a secret
    (`auth_error`, `token_msg`) or a loop variable over split or tokenized text (`for token in
    expr.split()`): a secret needs a plausible source. A name's last word says what the value is
    (`auth_delay` is a delay, `auth_delay_old` too), a predicate prefix names a switch
    (`permit_create_token`), an upper-case constant with a word for a condition is an error code
    (`ErrorCode.LOGIN_BAD_CREDENTIALS`), and `config.get("auth", "type")` is named by its option. Applies to every sink, logs included, except
    that a `session_id` in a log record is taken as a correlation id (MCP session ids are not credentials).
    A name whose only secret word is one that is as often something else (`token`, `next_token`,
    `token_value`, `old_token`, `session_id`, `signature`: a lexer's token, a sync or page token, a
    session handle, a function's signature) is a secret when a qualifier makes it a credential
    (`access_token`, `api_token`, `github_token`), when its value comes from a secret's origin (an env
    var, a header, a setting named for a secret), or when the message speaks of authentication
    ("Token {token} expired; log in again"); "Malformed token: {old_token}" is not flagged. So does a
    function or class named for it, for its own parameters and attributes (`def login(user, token)`).
    A `signature` needs its origin (a header, `hmac`): it is as often a function's. Other origins
    of a credential: `getpass.getpass()`, `keyring.get_password()`, `.get_secret_value()`, a call
    named for the credential it returns (`authorize_access_token()`), and a setting
    (`settings.token`, `args.token`). A session id from a cookie is a credential in a log too. So
    is a value the code sends to authenticate: `headers={"Authorization": f"Bearer {token}"}`,
    `WebClient(token=token)`, in any method of the class for `self.token`.

    ## Why is this bad?
    Error text ends up in agent transcripts, logs and bug reports; a key printed there is a leaked key
    (OpenBB-finance/OpenBB#6662, lumen-oss/lux#798).

    ## Example
    ```python
    raise LookupError(f"No invitation matches secret {invite_secret}")
    ```

    Use instead:
    ```python
    raise LookupError(f"No invitation matches secret ending …{invite_secret[-4:]}; ask the sender for a new link.")
    ```

    ## Fix safety
    Display-only. errlint's own output shows at most the first four characters of a detected secret.

    ## Options
    None.
    """

    CODE = "AEM301"
    NAME = "secret-in-message"
    SUMMARY = "A secret value in the message"
    PROSE = False
    LEVEL = Level.ERROR
    SINKS = LEAK_SINKS
    VALID = (
        "def f(password):\n    if len(password) < 12:\n        raise ValueError('Password must have at least 12 characters; choose a longer one.')\n",
        "def f(token):\n    raise ValueError(f'Token {token[:4]}... expired; run `acme login`.')\n",
        "def f(max_tokens):\n    raise ValueError(f'max_tokens={max_tokens} is above 4096')\n",
    )
    INVALID = (
        "def f(password):\n    raise ValueError(f'Rejected password {password!r}')\n",
        "class Store:\n    def redeem(self, invite_secret):\n        raise LookupError(f'No invitation matches secret {invite_secret}')\n",
        "import logging\nlog = logging.getLogger(__name__)\ndef f(api_key):\n    log.error('Key %s rejected', api_key)\n",        "def upload(bucket, key):\n    url = bucket.presign(key)\n    raise TimeoutError(f'Upload to {url} timed out')\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        for template in message.templates:
            for holder in template.placeholders:
                if holder.has(SECRET) or holder.has(MAYBE_SECRET) and named_credential(holder, template, message, ctx):
                    name = holder.detail or holder.expr
                    if message.profile == "log" and LOG_CORRELATION_ID.search(name) and not holder.has(SECRET):
                        continue  # in the server's own log a session id correlates records; MCP sessions are not credentials
                    origin = holder.detail if holder.detail and holder.detail != holder.expr else ""
                    if origin and " " not in origin:
                        origin = f", which comes from `{origin}`"
                    elif origin:
                        origin = f", {origin}"
                    yield self.finding(
                        message,
                        f"the message interpolates the secret-like value `{holder.expr}`{origin}",
                        f"Do not print `{holder.expr}`; name the env var or setting that holds it, or show a masked suffix (`…{{{holder.expr}[-4:]}}`).",
                    )
                    return
            if template_secret_url(template):
                yield self.finding(
                    message,
                    "the message shows a URL with a password, token or signature in it",
                    "Show the scheme, host and path only (`urlsplit(url)._replace(netloc=urlsplit(url).hostname, query='').geturl()`).",
                )
                return
            found = LITERAL_SECRETS.search(template.literal)
            if found and not PLACEHOLDER_LIKE.fullmatch(found.group(0)):
                yield self.finding(
                    message,
                    f"the message contains what looks like a secret ({mask(found.group(0))})",
                    "Remove the key from the text; refer to it by the env var or secret-manager entry that holds it.",
                )
                return


LOG_CORRELATION_ID = re.compile(r"session_?id", re.I)
WORKING_DIRECTORY = re.compile(r"\bgetcwd\(|\bcwd\(")


def _names_credential_store(expr: str, ctx: FileContext) -> bool:
    """`Path.home() / ".aws" / "credentials"`: the path's literal parts, joined, name a credential store."""
    joined = "/".join(re.findall(r"[\"']([^\"']+)[\"']", expr))
    return any(c.pattern.search(joined) or c.pattern.search(expr) for c in ctx.packs.credentials)


class CredentialPathInMessage(Rule):
    """## What it does
    Flags a message that shows a credential store's path (`~/.aws/credentials`, `~/.kube/config`,
    `~/.ssh/id_rsa`, `application_default_credentials.json`, ...) or an absolute home path: a literal
    `/home/<user>` or `/Users/<user>` (not one offered as an example of the allowed form in its
    sentence, "must be absolute, e.g. '/home/me/q1.xlsx'": that path is made up), or a value built
    with `os.path.expanduser`, `Path.home()`, `os.getcwd()` or `Path.cwd()`, including the text of
    an OSError raised on such a path (`{exc}`, `str(exc)`, `exc.filename`: "[Errno 2] No such file or
    directory: '/home/bob/.aws/credentials'").
    A home path is known by where it comes from, however it is named: `expanduser`, `Path.home()`, the
    `HOME`/`USERPROFILE`/`APPDATA`/`XDG_*_HOME` variables, platformdirs/appdirs (`user_data_dir`,
    `PlatformDirs(...).user_cache_path`) and `click.get_app_dir`, and every path built from one, module
    constants included; a path the caller gave, expanded (`Path(arg).expanduser()`), is their own value
    and is not flagged. Expanded home paths are flagged in every sink; literal credential-store paths,
    and the text of an OSError raised on a credential path (a credential-store literal, `/run/secrets/...`,
    a path read from `GOOGLE_APPLICATION_CREDENTIALS` or a `*_KEY_FILE` variable), only in agent and CLI
    messages (option `literal-path-profiles`).

    ## Why is this bad?
    The path tells an agent where the keys are and leaks the account name; what it needs is the
    command that fixes the problem (`aws sso login`, `gcloud auth application-default login`).

    ## Example
    ```python
    raise ToolError(f"Cluster config not found at {Path.home() / '.kube' / 'config'}")
    ```

    Use instead:
    ```python
    raise ToolError("No kubeconfig found. Run `kubectl config use-context <name>` or set KUBECONFIG.")
    ```

    ## Fix safety
    Unsafe when the message holds a literal home path: it is rewritten to its `~` form, which changes
    the text. Computed paths (`Path.home()`, `os.getcwd()`) get a display-only suggestion.

    ## Options
    `literal-path-profiles` (list of profiles, ["agent", "cli"]): where literal credential-store paths
    are reported.
    """

    CODE = "AEM302"
    NAME = "credential-path-in-message"
    SUMMARY = "A credential-store path or an absolute home path"
    PROSE = False
    SINKS = LEAK_SINKS
    OPTIONS = {"literal-path-profiles": Option(["agent", "cli"], "list[str]", "Profiles in which literal credential-store paths are reported.")}
    FIX = Applicability.UNSAFE
    VALID = (
        "import sys\nsys.exit('No AWS credentials found. Run \"aws configure\" or set AWS_PROFILE.')\n",
        "raise KeyError(\"Config key 'db.password_ref' is empty; set it in settings.toml.\")\n",
        "import logging\nlogging.info('Using profile %s from ~/.aws/credentials', 'x')\n",
    )
    INVALID = (
        "import sys\nfrom pathlib import Path\nsys.exit(f\"Cannot read {Path.home() / '.aws' / 'credentials'}\")\n",
        "import sys\nsys.exit('Cannot read ~/.aws/credentials; fix it')\n",
        "import os\nraise ValueError(f'KEY must be set. Current directory: {os.getcwd()}')\n",
        "import sys\nsys.exit('Cannot read /home/bob/project/settings.toml; run `app init`.')\n",
        "import sys\nfrom pathlib import Path\nCREDS = Path.home() / '.aws' / 'credentials'\ntry:\n    CREDS.read_text()\nexcept OSError as exc:\n    sys.exit(f'Cannot read the AWS credentials: {exc}. Run `aws configure`.')\n",        "import sys\nimport platformdirs\nSTATE = platformdirs.user_data_dir('app')\ndef main():\n    sys.exit(f'State folder {STATE} is locked; close the other app.')\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        literal_ok = message.profile in self.options["literal-path-profiles"]
        for template in message.templates:
            for holder in template.placeholders:
                if holder.has(HOME_PATH):
                    if message.profile == "log" and WORKING_DIRECTORY.search(holder.detail or holder.expr) and not _names_credential_store(holder.expr, ctx):
                        continue  # the working directory in the operator's own log: not a home path
                    if holder.has(EXCEPTION):
                        yield self.finding(
                            message,
                            f"the message shows `{holder.expr}`, an OSError whose text holds the home-directory path it failed on (`{holder.detail}`)",
                            "Show `exc.strerror` and the `~` form of the path, or name the setting/command that fixes it.",
                        )
                        return
                    yield self.finding(
                        message,
                        f"the message shows an absolute home or working-directory path (`{holder.detail or holder.expr}`)",
                        "Show a path relative to the project or the `~` form, or name the setting/command instead of the path.",
                    )
                    return
            if literal_ok:
                for holder in template.placeholders:
                    tried = _credential_path_tried(holder, message, ctx)
                    if tried:
                        yield self.finding(
                            message,
                            f"the message shows `{holder.expr}`, an OSError whose text holds the credential path it failed on (`{tried}`)",
                            "Show `exc.strerror` and name the setting or login command that provides the credential, not its path.",
                        )
                        return
            literal = template.literal
            home = next((m for m in HOME_LITERAL.finditer(literal) if not _illustrates(literal, m.start())), None)
            if home:
                yield self.finding(message, f"the message contains an absolute home path ({home.group(0)}), which leaks the account name", "Use the `~` form or a path relative to the project.", fix=_tilde_fix(template, home.group(0), ctx))
                return
            if not literal_ok or message.extra.get("level", "error") in ("info", "debug"):
                continue
            for credential in ctx.packs.credentials:
                found = credential.pattern.search(literal)
                if found:
                    yield self.finding(
                        message,
                        f"the message names the credential file `{found.group(0).strip('/')}`",
                        f"Name the fix instead of the file: {credential.instead}.",
                    )
                    return


def _credential_path_tried(holder, message: Message, ctx: FileContext) -> str:
    """The credential path in the text of an OSError that `holder` shows (`{exc}`, `str(exc)`, `exc.filename`)."""
    if not (holder.has(EXCEPTION) or holder.expr.endswith((".filename", ".filename2"))):
        return ""
    for name in holder.names:
        root = name.split(".", 1)[0]
        if root not in ("str", "repr", "format"):
            tried = credential_path_tried(root, message.scope, [c.pattern for c in ctx.packs.credentials])
            if tried:
                return tried
    return ""


def _illustrates(literal: str, start: int) -> bool:
    """The text before `start`, in the same sentence, offers an example ("absolute, e.g. 'C:\\q1.xlsx'
    or '/home/me/q1.xlsx'", "such as /Users/alice/app"): the path is an illustration."""
    sentence = SENTENCE_END.split(literal[:start])[-1]
    return bool(EXAMPLE_MARKER.search(sentence))


def _tilde_fix(template, home: str, ctx: FileContext) -> Optional[Fix]:
    """`/home/bob/...` -> `~/...` in the literal that holds it (unsafe: the text changes)."""
    for piece in template.pieces:
        if home in piece.text and home.startswith(("/home/", "/Users/")):
            edit = replace_in_piece(piece.node, ctx.code, home, "~")
            if edit is not None:
                return Fix(Applicability.UNSAFE, f"Write {home} as ~", (edit,))
    return None


class UrlOrHttpErrorPassthrough(Rule):
    """## What it does
    Flags interpolating `str(e)` of `requests.HTTPError`/`httpx.HTTPStatusError` (or any exception from
    a `try` that called `raise_for_status()`), and `response.url`/`request.url`, when the request
    behind them put a secret in its URL: a token query parameter or a secret value in the URL
    (`f"...?appid={API_KEY}"`), a secret-named key or secret value in `params=`, a capability URL or
    a DSN. A URL the caller sent, or a request that carries its key in a header, shows nothing
    secret, and a request made out of sight (in a helper) is given the benefit of the doubt.

    ## Why is this bad?
    Their text is `401 Client Error: Unauthorized for url: https://api.example.com/v1?api_key=...`: the
    full URL, query string included, so keys in the query reach the agent (uforia/MatterBot#286,
    AgriciDaniel/claude-seo#122). It also drops `Retry-After`.

    ## Example
    ```python
    try:
        requests.get(URL, params={"q": city, "api_key": KEY}).raise_for_status()
    except requests.HTTPError as e:
        raise ToolError(f"Weather API failed: {e}")
    ```

    Use instead:
    ```python
        raise ToolError(f"Weather API returned {e.response.status_code} for {urlsplit(e.request.url).path}; retry after 60 s.")
    ```

    ## Fix safety
    Display-only.

    ## Options
    None.
    """

    CODE = "AEM303"
    NAME = "url-or-http-error-passthrough"
    SUMMARY = "A full URL or HTTP error text (query strings included)"
    PROSE = False
    SINKS = CONTENT_SINKS  # (not yet a tool's error reply: most URLs there hold no secret)
    VALID = (
        "import requests\ndef f(url, key):\n    try:\n        requests.get(url, params={'api_key': key}).raise_for_status()\n    except requests.HTTPError as e:\n        raise RuntimeError(f'API returned {e.response.status_code}; retry after 60 s.')\n",
        "def f(resp):\n    raise RuntimeError(f'API returned {resp.status_code}')\n",
        "import requests\ndef f(url):\n    try:\n        requests.get(url).raise_for_status()\n    except requests.HTTPError as e:\n        raise RuntimeError(f'Could not fetch the page: {e}')\n",
        "import httpx\ndef f(url, token):\n    response = httpx.get(url, headers={'Authorization': f'Bearer {token}'})\n    raise RuntimeError(f'Request to {response.url} failed')\n",
    )
    INVALID = (
        "import requests\ndef f(url, key):\n    try:\n        requests.get(url, params={'q': 'x', 'api_key': key}).raise_for_status()\n    except requests.HTTPError as e:\n        raise RuntimeError(f'Weather API failed: {e}')\n",
        "import httpx\ndef f(city, api_token):\n    try:\n        httpx.get(f'https://api.example.com/w?q={city}&token={api_token}').raise_for_status()\n    except httpx.HTTPStatusError as exc:\n        raise RuntimeError(str(exc))\n",
        "import httpx\ndef f(key):\n    response = httpx.get('https://api.example.com/v1', params={'secret': key})\n    raise RuntimeError(f'Request to {response.url} failed')\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        for template in message.templates:
            for holder in template.placeholders:
                if holder.has(URL):
                    yield self.finding(
                        message,
                        f"`{holder.expr}` puts a full URL (query string included) into the message",
                        "Show the status code and the URL path only, e.g. f\"{e.response.status_code} for {urlsplit(url).path}\".",
                    )
                    return


class EnvironmentOrHeadersDump(Rule):
    """## What it does
    Flags interpolating `os.environ`, `request.headers`, `session.headers`, `config`/`settings`
    objects, `vars(settings)`, `locals()` or `globals()`. A response's headers (`response.headers`,
    `e.response.headers`) are what the server answered, not the credentials a request carries: they
    are left to the size rules.

    ## Why is this bad?
    One missing variable does not need the whole environment: every secret in it goes with it
    (suthio/redash-mcp#30 sent an Authorization header to the model).

    ## Example
    ```python
    print(f"DEPLOY_REGION is unset; environment was: {dict(os.environ)}", file=sys.stderr)
    ```

    Use instead:
    ```python
    print("DEPLOY_REGION is unset; export DEPLOY_REGION=eu-west-1 (or pass --region).", file=sys.stderr)
    ```

    ## Fix safety
    Display-only.

    ## Options
    None.
    """

    CODE = "AEM304"
    NAME = "environment-or-headers-dump"
    SUMMARY = "The environment, request headers or a settings object dumped into the message"
    PROSE = False
    SINKS = LEAK_SINKS
    VALID = (
        "import os\nraise RuntimeError(f\"DEPLOY_REGION is unset; export it (HOME={os.environ.get('HOME_HINT')})\")\n",
        "def f(resp):\n    raise RuntimeError(f'status {resp.status_code}')\n",
        "import os\nraise RuntimeError('Set DEPLOY_REGION')\n",
    )
    INVALID = (
        "import os, sys\nprint(f'DEPLOY_REGION is unset; environment was: {dict(os.environ)}', file=sys.stderr)\n",
        "import logging\ndef f(resp):\n    logging.error('failed; headers: %s', resp.request.headers)\n",
        "def f():\n    raise RuntimeError(f'bad state: {locals()}')\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        for template in message.templates:
            for holder in template.placeholders:
                if holder.has(ENV_DUMP):
                    yield self.finding(
                        message,
                        f"`{holder.expr}` dumps the environment, headers or settings into the message",
                        "Name only the variable or header that matters (its name, not its value).",
                    )
                    return


class TracebackToAgent(Rule):
    """## What it does
    Flags a traceback in a message for an agent, a CLI user or an HTTP client, however it became text:
    `traceback.format_exc()`/`format_exception()`/`extract_tb()` (joined or not), a
    `TracebackException`'s `.format()`, `logging.Formatter.formatException`, `record.exc_text`,
    `sys.exc_info()` or an exception's `__traceback__`; a tool's error reply returned as its result
    included. Logs, debug/verbose branches and a CLI's crash handlers that also say how to report
    the bug (in the same call, or on a line printed with it) are exempt. A formatted traceback is
    also oversized, so AEM402 reports it too.

    ## Why is this bad?
    A traceback costs hundreds of tokens, shows internals, and tells the caller nothing about what to
    change (RFC 9457: help the client correct the problem, not debugging information).

    ## Example
    ```python
    except Exception:
        raise ToolError(traceback.format_exc())
    ```

    Use instead:
    ```python
    except Exception:
        log.exception("export failed")
        raise ToolError("Internal error in export_report; not caused by your arguments. Retry once, then stop.")
    ```

    ## Fix safety
    Display-only.

    ## Options
    None.
    """

    CODE = "AEM305"
    NAME = "traceback-to-agent"
    SUMMARY = "A traceback in a message that leaves the process"
    PROSE = False
    PROFILES = ("agent", "cli", "http")
    VALID = (
        "import logging, traceback\ntry:\n    g()\nexcept Exception:\n    logging.error(traceback.format_exc())\n",
        "import sys, traceback\nverbose = True\ntry:\n    g()\nexcept Exception:\n    if verbose:\n        print(traceback.format_exc(), file=sys.stderr)\n",
        "import sys, traceback\ntry:\n    g()\nexcept Exception:\n    sys.exit(f'{traceback.format_exc()}\\nThis is a bug; please report it at https://x.example/issues')\n",
    )
    INVALID = (
        "import traceback\nfrom fastmcp.exceptions import ToolError\ntry:\n    g()\nexcept Exception:\n    raise ToolError(traceback.format_exc())\n",
        "import sys, traceback\ntry:\n    g()\nexcept Exception:\n    print(traceback.format_exc(), file=sys.stderr)\n",
        "import traceback\nfrom fastmcp.exceptions import ToolError\ntry:\n    g()\nexcept Exception:\n    tb = traceback.format_exc()\n    raise ToolError(f'failed: {tb}')\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        if message.context.in_debug_branch:
            return
        for template in message.templates:
            for holder in template.placeholders:
                if holder.has(TRACEBACK):
                    if message.profile == "cli" and (BUG_REPORT.search(template.literal) or any(
                            BUG_REPORT.search(t.literal) for m in run_lines(message, ctx) for t in m.templates)):
                        return  # a crash report: the trace with how to report the bug, in one call or in the lines around it
                    yield self.finding(
                        message,
                        f"`{holder.expr}` sends a traceback to the reader",
                        "Log the traceback; tell the reader \"internal error in <tool>; not caused by your arguments; retry once, then stop\".",
                    )
                    return
