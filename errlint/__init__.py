"""errlint: a linter for error messages that AI agents (and people) read.

It finds raised exceptions, MCP tool errors, CLI error output and logged errors statically, and flags
vague prose, missing next steps, leaked secrets and credential paths, and oversized messages.
"""
__version__ = "0.1.0"
