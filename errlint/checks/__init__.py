"""The rules, one module per family (vague; the missing parts in part_rule, next_step, value_echo,
allowed_values, value_source, passthrough and interpolation; leaks, size, guidance, mcp, success_results) plus
errlint's own (meta)."""
