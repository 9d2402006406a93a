"""The rules, one module per family (vague, parts, leaks, size, guidance, mcp) plus errlint's own (meta)."""
