"""errlint's bundled phrase packs (TOML data, shipped in the wheel as the package `errlint.rules`)."""
